/*
 * ntt_tab.h -- the NTT DPU program's per-modulus constants and twiddle
 * tables (dpu/ntt_args.h), computed on the host.  No <dpu.h>.
 */
#ifndef CPIM_PIM_NTT_TAB_H
#define CPIM_PIM_NTT_TAB_H

#include <stdint.h>

#include "ntt_args.h"

/* For a word prime q = 1 mod 2N (N = 2^log_n) and psi a primitive 2N-th
 * root of unity mod q: fills l (every field but fwd_off / inv_off) and
 * the two tables of N {w, w'} pairs (2N words each; fwd NULL: no tables): fwd[k] =
 * psi^bitrev(k), inv[k] = psi^-bitrev(k), w' = floor(w 2^32 / q). */
void cpim_pim_ntt_tab(uint32_t q, uint32_t psi, unsigned log_n, struct ntt_limb *l, uint32_t *fwd,
                      uint32_t *inv);

/* The same for the double-word program (ntt_args.h, struct ntt_limb64):
 * any prime q < 2^62, q = 1 mod 2N; tables of N {w, w'} pairs (2N uint64
 * each), w' = floor(w 2^64 / q). */
void cpim_pim_ntt_tab64(uint64_t q, uint64_t psi, unsigned log_n, struct ntt_limb64 *l,
                        uint64_t *fwd, uint64_t *inv);

#endif /* CPIM_PIM_NTT_TAB_H */
