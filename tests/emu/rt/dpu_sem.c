/* dpu_sem.c -- semaphores (producer/consumer through a bounded queue) and
 * handshakes (a prefix sum passed along the tasklets, as PrIM SEL does).
 * Built with NR_TASKLETS=16: tasklets 0..7 produce, 8..15 consume. */
#include <barrier.h>
#include <defs.h>
#include <handshake.h>
#include <mutex.h>
#include <sem.h>
#include <stdint.h>

#define ITEMS 50 /* per producer */
#define QLEN  4

__host uint64_t consumed_sum;
__host uint32_t consumed_count;
__host uint32_t max_fill;
__host uint32_t prefix[NR_TASKLETS];
__host int32_t hs_ret;

static uint32_t queue[QLEN];
static uint32_t head, tail, fill;
static uint32_t message[NR_TASKLETS];

SEMAPHORE_INIT(empty_slots, QLEN);
SEMAPHORE_INIT(full_slots, 0);
MUTEX_INIT(qlock);
BARRIER_INIT(bar, NR_TASKLETS);

int main(void)
{
    uint32_t id = me();
    if (id == 0) {
        consumed_sum = 0;
        consumed_count = max_fill = 0;
        head = tail = fill = 0;
        hs_ret = 0;
    }
    barrier_wait(&bar);

    if (id < NR_TASKLETS / 2) {
        for (uint32_t i = 0; i < ITEMS; i++) {
            sem_take(&empty_slots);
            mutex_lock(qlock);
            queue[tail] = id * 1000 + i;
            tail = (tail + 1) % QLEN;
            fill++;
            if (fill > max_fill)
                max_fill = fill;
            mutex_unlock(qlock);
            sem_give(&full_slots);
        }
    } else {
        for (uint32_t i = 0; i < ITEMS; i++) {
            sem_take(&full_slots);
            mutex_lock(qlock);
            uint32_t v = queue[head];
            head = (head + 1) % QLEN;
            fill--;
            consumed_sum += v;
            consumed_count++;
            mutex_unlock(qlock);
            sem_give(&empty_slots);
        }
    }
    barrier_wait(&bar);

    /* handshake chain: tasklet t waits for t-1, adds its value, notifies t+1 */
    uint32_t p = 0;
    if (id != 0) {
        int r = handshake_wait_for(id - 1);
        if (r != 0)
            hs_ret = r;
        p = message[id];
    }
    prefix[id] = p + id + 1;
    if (id < NR_TASKLETS - 1) {
        message[id + 1] = p + id + 1;
        handshake_notify();
    }
    return 0;
}
