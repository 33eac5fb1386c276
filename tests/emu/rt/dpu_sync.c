/* dpu_sync.c -- barriers in loops, mutex contention, trylock, mutex pools,
 * virtual mutexes, run-time initialised barriers (PrIM HST-L style).
 * Built with NR_TASKLETS=16. Results in __host variables (see rt_run.c). */
#include <atomic_bit.h>
#include <barrier.h>
#include <defs.h>
#include <mutex.h>
#include <mutex_pool.h>
#include <stdint.h>
#include <vmutex.h>

#define ROUNDS 40
#define INCS   300

__host uint32_t barrier_errors;
__host uint32_t counter;
__host uint32_t pool_counter[4];
__host uint32_t vm_counter[4];
__host uint32_t trylock_result; /* bit0: busy seen while held, bit1: taken once free */
__host uint32_t hist_errors;

static volatile uint32_t stamp[NR_TASKLETS];

BARRIER_INIT(bar, NR_TASKLETS);
MUTEX_INIT(count_mutex);
MUTEX_INIT(try_mutex);
MUTEX_INIT(err_mutex);
MUTEX_POOL_INIT(pool, 2);
VMUTEX_INIT(vm, 4, 2);

/* PrIM HST-L: barriers and their atomic bits filled in at run time */
ATOMIC_BIT_INIT(half_bits)[2];
barrier_t half_barrier[2];

static void add_error(volatile uint32_t *e)
{
    mutex_lock(err_mutex);
    *e += 1;
    mutex_unlock(err_mutex);
}

int main(void)
{
    uint32_t id = me();
    if (id == 0) {
        barrier_errors = counter = trylock_result = hist_errors = 0;
        for (int i = 0; i < 4; i++)
            pool_counter[i] = vm_counter[i] = 0;
        for (int i = 0; i < 2; i++) {
            half_barrier[i].wait_queue = 0xff;
            half_barrier[i].count = NR_TASKLETS / 2;
            half_barrier[i].initial_count = NR_TASKLETS / 2;
            half_barrier[i].lock = (uint8_t)(uintptr_t)&ATOMIC_BIT_GET(half_bits)[i];
        }
    }
    barrier_wait(&bar);

    /* a reused barrier: nobody may run ahead by a round */
    for (uint32_t r = 1; r <= ROUNDS; r++) {
        stamp[id] = r;
        barrier_wait(&bar);
        for (uint32_t t = 0; t < NR_TASKLETS; t++)
            if (stamp[t] != r)
                add_error(&barrier_errors);
        barrier_wait(&bar);
    }

    /* contended read-modify-write, spread over several instructions */
    for (int i = 0; i < INCS; i++) {
        mutex_lock(count_mutex);
        uint32_t v = counter;
        __asm__ volatile("nop; nop; nop");
        counter = v + 1;
        mutex_unlock(count_mutex);
    }

    /* trylock */
    if (id == 0)
        mutex_lock(try_mutex);
    barrier_wait(&bar);
    if (id == 1 && !mutex_trylock(try_mutex))
        trylock_result |= 1;
    barrier_wait(&bar);
    if (id == 0)
        mutex_unlock(try_mutex);
    barrier_wait(&bar);
    if (id == 1 && mutex_trylock(try_mutex)) {
        trylock_result |= 2;
        mutex_unlock(try_mutex);
    }

    /* mutex pool (ids 0..3 over 2 mutexes) and virtual mutexes */
    for (int i = 0; i < INCS; i++) {
        uint32_t k = (id + (uint32_t)i) & 3;
        mutex_pool_lock(&pool, k);
        uint32_t v = pool_counter[k];
        __asm__ volatile("nop; nop");
        pool_counter[k] = v + 1;
        mutex_pool_unlock(&pool, k);
        vmutex_lock(&vm, k);
        v = vm_counter[k];
        __asm__ volatile("nop; nop");
        vm_counter[k] = v + 1;
        vmutex_unlock(&vm, k);
    }

    /* two independent half-size barriers */
    uint32_t half = id & 1;
    for (uint32_t r = 1; r <= 5; r++) {
        stamp[id] = 1000 + r;
        barrier_wait(&half_barrier[half]);
        for (uint32_t t = half; t < NR_TASKLETS; t += 2)
            if (stamp[t] != 1000 + r)
                add_error(&hist_errors);
        barrier_wait(&half_barrier[half]);
    }
    return 0;
}
