/* Test kernel for the profile key dmaRules (vdpu_rules_t): tasklet 0
 * issues DMAs that break the rules. With dmaRules=strict the first one
 * faults; by default (warn) and with quiet they do what ldma/sdma do: the 3
 * low bits of both addresses are cleared and the size is (n/8 - 1) in 8 bits.
 * Also used by tests/emu/test_vdpu.c. */
#include <defs.h>
#include <mram.h>
#include <stdint.h>

#define PAT 0xa5a5a5a5a5a5a5a5ull

__mram uint64_t msrc[8];          /* filled by the host                        */
__mram_noinit uint64_t mdst[264]; /* a size-0 write lands 2048 bytes here      */
__host uint64_t res[8];           /* a0 a1 b0 b1 b2 c0 c1 d1, see below        */

__dma_aligned uint64_t a[2], b[3], c[2], d[2], w[256];
volatile uint32_t off4 = 4, sz0 = 0, sz12 = 12, sz2056 = 2056;

int main(void)
{
    if (me() != 0)
        return 0;
    b[2] = 0;
    c[1] = d[1] = PAT;
    for (uint32_t i = 0; i < 256; i++)
        w[i] = i;
    /* MRAM address 4 mod 8: reads msrc[0..1] */
    mram_read((__mram_ptr uint8_t *)msrc + off4, a, 16);
    /* WRAM address 4 mod 8: lands in b[0..1], b[2] untouched */
    mram_read(msrc, (uint8_t *)b + off4, 16);
    /* 12 bytes: 8 are transferred */
    mram_read(msrc, c, sz12);
    /* 2056 bytes: (257 - 1) & 0xff = 0, so 8 are transferred */
    mram_read(msrc, d, sz2056);
    /* 0 bytes: (0 - 1) & 0xff = 255, so 2048 are transferred */
    mram_write(w, mdst, sz0);
    res[0] = a[0];
    res[1] = a[1];
    res[2] = b[0];
    res[3] = b[1];
    res[4] = b[2];
    res[5] = c[0];
    res[6] = c[1];
    res[7] = d[1];
    return 0;
}
