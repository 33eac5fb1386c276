/* dpu_synccost.c -- what synchronisation costs on the modeled DPU: built for
 * several NR_TASKLETS (emu/rt.mk), run by rt_run (tests and --costs).
 * mode (a __host variable, set by the host before each run):
 *   0  empty: every tasklet runs `rounds` iterations of the loop alone
 *   1  barrier: every tasklet calls barrier_wait `rounds` times
 *   2  mutex: every tasklet does `rounds` x { mutex_lock; counter++; mutex_unlock }
 *   3  handshake chain: tasklet t waits for t-1 and notifies t+1, `rounds` times
 *   4  staggered barrier: tasklet t first spins (t + 1) * STAGGER loop iterations,
 *      so arrivals never meet at the barrier's atomic bit: the sequence alone
 *   5  the delays of mode 4 without the barrier
 * The host compares the modeled cycles and instructions of a run with mode 0's
 * (mode 5's for mode 4). */
#include <barrier.h>
#include <defs.h>
#include <handshake.h>
#include <mutex.h>
#include <stdint.h>

__host uint32_t mode;
__host uint32_t rounds;
__host uint32_t counter;
__host uint32_t chain_errors;

BARRIER_INIT(bar, NR_TASKLETS);
MUTEX_INIT(mtx);

/* double-buffered by round parity: tasklet t-1 can be at most one round
 * ahead of t (its next notify waits for t's next wait) */
/* loop iterations between two arrivals in mode 4: longer than an arrival and
 * than the last one's resume loop, so nobody spins */
#define STAGGER 128

static void delay(uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        __asm__ volatile("");
}

static volatile uint32_t msg[2][NR_TASKLETS + 1];

int main(void)
{
    uint32_t id = me(), n = rounds;
    switch (mode) {
    case 1:
        for (uint32_t r = 0; r < n; r++)
            barrier_wait(&bar);
        break;
    case 2:
        for (uint32_t r = 0; r < n; r++) {
            mutex_lock(mtx);
            counter++;
            mutex_unlock(mtx);
        }
        break;
    case 3:
        /* a relay: tasklet t waits for t-1 and then notifies t+1, so each
         * round passes a value along the whole chain once */
        for (uint32_t r = 0; r < n; r++) {
            uint32_t v = r;
            if (id != 0) {
                handshake_wait_for(id - 1);
                v = msg[r & 1][id];
                if (v != r + id)
                    chain_errors++;
            }
            msg[r & 1][id + 1] = v + 1;
            if (id != NR_TASKLETS - 1)
                handshake_notify();
        }
        break;
    case 4:
    case 5:
        for (uint32_t r = 0; r < n; r++) {
            delay((id + 1) * STAGGER);
            if (mode == 4)
                barrier_wait(&bar);
        }
        break;
    default:
        for (uint32_t r = 0; r < n; r++)
            __asm__ volatile("");
        break;
    }
    return 0;
}
