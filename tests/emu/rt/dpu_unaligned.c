/* dpu_unaligned.c -- mram_unaligned.h helpers (NR_TASKLETS=16).
 * mode 0: unaligned read/write checks by tasklet 0, then every tasklet
 * increments ints[id % 4] (ints share 8-byte words) INCS times with
 * mram_update_int_atomic, and writes bytes[id] with mram_write_byte_atomic.
 * mode 1: mram_write_unaligned with different misalignments (must fault). */
#include <barrier.h>
#include <defs.h>
#include <mram.h>
#include <mram_unaligned.h>
#include <stdint.h>

#define INCS 50

__mram_noinit uint8_t src[4096]; /* host pattern: src[i] = i * 7 + 3 */
__mram_noinit uint8_t dst[4096]; /* host zeroes it                   */
__mram uint32_t ints[4];
__mram uint8_t bytes[16];
__host uint32_t mode;
__host uint32_t read_ok;

BARRIER_INIT(bar, NR_TASKLETS);

static void add(int *v, void *arg)
{
    *v += (int)(uintptr_t)arg;
}

static uint8_t buf[2048 + 16] __attribute__((aligned(8)));

int main(void)
{
    uint32_t id = me();
    if (id == 0) {
        if (mode == 1) {
            mram_write_unaligned(buf + 1, &dst[2], 8);
            return 0;
        }
        uint32_t ok = 1;
        static const uint32_t offs[] = {1, 7, 8, 13, 1000};
        static const uint32_t lens[] = {1, 5, 16, 2048, 77};
        for (int k = 0; k < 5; k++) {
            uint8_t *p = mram_read_unaligned(&src[offs[k]], buf, lens[k]);
            for (uint32_t i = 0; i < lens[k]; i++)
                if (p[i] != (uint8_t)((offs[k] + i) * 7 + 3))
                    ok = 0;
        }
        read_ok = ok;
        /* write [5, 5 + 30) and [2001, 2001 + 1100): same misalignment in WRAM */
        for (uint32_t i = 0; i < 30; i++)
            buf[5 + i] = (uint8_t)(0xA0 + i);
        mram_write_unaligned(buf + 5, &dst[5], 30);
        for (uint32_t i = 0; i < 1100; i++)
            buf[1 + i] = (uint8_t)(i ^ 0x5A);
        mram_write_unaligned(buf + 1, &dst[2001], 1100);
    }
    barrier_wait(&bar);
    for (int i = 0; i < INCS; i++)
        mram_update_int_atomic(&ints[id % 4], add, 1 + id % 4);
    mram_write_byte_atomic(&bytes[id], 0x40 + id);
    return 0;
}
