/* sync.c -- barriers, semaphores and handshakes, built as the UPMEM SDK's
 * runtime builds them (its barrier.c, sem.c, handshake.c: same data, same
 * steps) on the DPU's primitives: acquire/release of an atomic bit, stop,
 * resume (atomic_bit.h). So a program executes the SDK's instruction sequence
 * and the model charges what it costs: a waiter stops (sleeping costs
 * nothing), the tasklet that lets the others go resumes them one by one, and
 * whoever finds the guard bit taken spins on it.
 *
 * Waiters form circular lists threaded through one byte per tasklet
 * (__sys_wq_table: the next tasklet in the list); an object's `wait_queue`
 * byte names the last waiter (0xFF: none), whose link names the first. */
#include <atomic_bit.h>
#include <barrier.h>
#include <defs.h>
#include <errno.h>
#include <handshake.h>
#include <sem.h>
#include <stdint.h>

#define EMPTY 0xFFu

/* next waiter after tasklet t in its wait list (built once for all
 * NR_TASKLETS: the runtime does not know the program's count) */
uint8_t __sys_wq_table[VDPU_MAX_TASKLETS] = {[0 ...(VDPU_MAX_TASKLETS - 1)] = EMPTY};

/* Append tasklet `me` to the list whose last element is *last. */
static inline void wq_append(uint8_t *last, uint32_t me)
{
    uint32_t l = *last;
    /* the usual case (someone waits already) falls through, as the SDK's
     * compiled barrier_wait and sem_take do */
    if (__builtin_expect(l != EMPTY, 1)) {
        __sys_wq_table[me] = __sys_wq_table[l];
        __sys_wq_table[l] = (uint8_t)me;
    } else {
        __sys_wq_table[me] = (uint8_t)me;
    }
    *last = (uint8_t)me;
}

void barrier_wait(barrier_t *barrier)
{
    uint32_t lock = barrier->lock;
    __vdpu_acquire(lock);
    uint32_t count = barrier->count;
    uint32_t last = barrier->wait_queue;
    if (count == 1) {
        /* the last to arrive: resume the waiters, first to last, and re-arm */
        if (last != EMPTY) {
            uint32_t t = __sys_wq_table[last];
            while (t != last) {
                __vdpu_resume(t);
                t = __sys_wq_table[t];
            }
            __vdpu_resume(t);
            barrier->wait_queue = EMPTY;
            barrier->count = barrier->initial_count;
        }
        __vdpu_release(lock);
        return;
    }
    wq_append(&barrier->wait_queue, me());
    barrier->count = (uint8_t)(count - 1);
    __vdpu_release(lock);
    /* a resume that comes before this stop spins until it happens */
    __vdpu_stop();
}

void sem_take(sem_t *sem)
{
    uint32_t lock = sem->lock;
    __vdpu_acquire(lock);
    int8_t count = (int8_t)(sem->count - 1);
    sem->count = (uint8_t)count;
    if (count < 0) {
        wq_append(&sem->wait_queue, me());
        __vdpu_release(lock);
        __vdpu_stop();
        return;
    }
    __vdpu_release(lock);
}

void sem_give(sem_t *sem)
{
    uint32_t lock = sem->lock;
    __vdpu_acquire(lock);
    uint32_t last = sem->wait_queue;
    if (last != EMPTY) {
        /* wake the first waiter and unlink it */
        uint32_t first = __sys_wq_table[last];
        if (first == last)
            sem->wait_queue = EMPTY;
        else
            __sys_wq_table[last] = __sys_wq_table[first];
        __vdpu_resume(first);
    }
    sem->count = (uint8_t)(sem->count + 1);
    __vdpu_release(lock);
}

/* Per notifier: EMPTY, the notifier itself (it waits for a partner), or the
 * tasklet that waits for it. Guarded by the notifier's own atomic bit. */
static uint8_t hs_slot[VDPU_MAX_TASKLETS] = {[0 ...(VDPU_MAX_TASKLETS - 1)] = EMPTY};
static uint8_t __atomic_bit hs_bits[VDPU_MAX_TASKLETS];

void handshake_notify(void)
{
    uint32_t me_ = me();
    uint32_t bit = (uint32_t)&hs_bits[me_];
    __vdpu_acquire(bit);
    uint32_t waiter = hs_slot[me_];
    if (waiter == EMPTY) {
        hs_slot[me_] = (uint8_t)me_;
        __vdpu_release(bit);
        __vdpu_stop();
        return;
    }
    __vdpu_resume(waiter);
    hs_slot[me_] = EMPTY;
    __vdpu_release(bit);
}

/* NR_TASKLETS of the program (an absolute symbol the compiler wrapper defines) */
extern const char __sys_nr_tasklets[];

int handshake_wait_for(sysname_t notifier)
{
    uint32_t n = (uint8_t)notifier;
    /* the SDK does not check; here a wrong id faults rather than writing past
     * the tables (the message names it) */
    if (n >= (uint32_t)__sys_nr_tasklets)
        vdpu_ecall2(VDPU_SYS_FAULT, VDPU_FAULT_BAD_ECALL,
                    (uint32_t) "handshake_wait_for: no such tasklet (id >= NR_TASKLETS)");
    uint32_t bit = (uint32_t)&hs_bits[n];
    __vdpu_acquire(bit);
    uint32_t who = hs_slot[n];
    if (who == EMPTY) {
        hs_slot[n] = (uint8_t)me();
        __vdpu_release(bit);
        __vdpu_stop();
        return 0;
    }
    if (who != n) {
        /* someone else already waits for this notifier */
        errno = EALREADY;
        __vdpu_release(bit);
        return EALREADY;
    }
    __vdpu_resume(n);
    hs_slot[n] = EMPTY;
    __vdpu_release(bit);
    return 0;
}
