/*
 * ntt_wide.h -- the word NTT kernels' (dpu/ntt.c, dpu/ntt_r2.c) 64-bit
 * coefficients in and out: the API's coefficients are 64-bit words, pushed
 * into a wide region of MRAM; a word kernel works on 32-bit slots, so each
 * chunk is narrowed on the DPU before the transform and widened after it
 * (dpu/ntt_args.h: the wide region).  Include after <mram.h>.
 */
#ifndef CPIM_DPU_NTT_WIDE_H
#define CPIM_DPU_NTT_WIDE_H

#include <mram.h>
#include <stdint.h>

/* n coefficients between wide (2n words) and narrow (n words), through the
 * tasklet's WRAM buffers w (2n words) and x (n words): narrowed when widen
 * is 0, else widened. */
static inline __attribute__((always_inline)) void ntt_wide_chunk(uint32_t *w, uint32_t *x,
                                                                 __mram_ptr uint32_t *wide,
                                                                 __mram_ptr uint32_t *narrow,
                                                                 uint32_t n, int widen)
{
    if (!widen) {
        mram_read(wide, w, 8u * n);
        for (uint32_t e = 0; e < n; e++)
            x[e] = w[2 * e]; /* coefficients are < q < 2^31: the high words are 0 */
        mram_write(x, narrow, 4u * n);
        return;
    }
    mram_read(narrow, x, 4u * n);
    for (uint32_t e = 0; e < n; e++)
        w[2 * e] = x[e], w[2 * e + 1] = 0;
    mram_write(w, wide, 8u * n);
}

#endif /* CPIM_DPU_NTT_WIDE_H */
