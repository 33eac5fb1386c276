/*
 * pim_state.h -- the state of a `pim` context, shared by the files of the
 * backend: backend.c (open, close, keys, the row), profile.c (the
 * backend's profile keys), aes_call.c (the frame of the AES-family calls)
 * and one file per algorithm family: pim_aes.c (ECB, CTR), pim_xts.c,
 * pim_gcm.c, pim_sha.c (SHA-256, streaming blocks), pim_hmac.c (HMAC,
 * PBKDF2), pim_ntt.c.
 */
#ifndef CPIM_PIM_STATE_H
#define CPIM_PIM_STATE_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "aes.h"
#include "aes_args.h"
#include "aes_ct.h"
#include "backend.h"
#include "cryptopim.h"
#include "pim_internal.h"

#define DEFAULT_BUDGET   (32u << 20)
#define DEFAULT_TASKLETS 16u
#define DIRECT_MIN_BYTES (1u << 20) /* default of directMin (see plan.c) */

struct cpim_pim_state {
    cpim_pim_machine *m;
    cpim_pim_faults faults;
    uint32_t budget;
    uint64_t direct_min;
    unsigned threads; /* host threads for bulk copies (cpim_options.threads) */
    int timing_only;
    /* The DPUs take the T-table schedules (no cache there); the host builds
     * them, and does its own AES and GHASH, in constant time (aes_ct.h). */
    cpim_crypto_aes_ks ek, dk;
    cpim_crypto_aes_ct_ks ct;            /* the host's one block: GCM's H and E_K(J0) */
    cpim_crypto_aes_ks xk1e, xk1d, xk2e; /* the XTS key slot: key1 both ways, key2 */
    cpim_crypto_ghash_ct_key gh;         /* GCM: H = E_K(0), for the host's part */
    uint8_t h[16];                       /* and H */
    /* per round (reused): per-DPU transfer plan, PIM_PIECES pieces per DPU */
    cpim_pim_piece *to, *from;
    uint32_t *scope_first, *scope_n; /* SHA-256 push scopes (sync: one) */
    uint32_t nr_scopes;
    /* SHA-256 staging (images, or headers and tails) and results: kept
     * across rounds and calls, grown on demand */
    uint8_t *stage, *results;
    size_t stage_cap, results_cap;
    size_t stage_hi; /* bytes of stage ever written (wiped before it is freed) */
    /* NTT (pim_ntt.c): kernel settings, the ring whose twiddles are on the DPUs */
    uint32_t ntt_sched, ntt_log_m;
    cpim_pim_ntt_cache ntt_cache;
    /* resident regions (resident.c) open machines of their own like this one */
    cpim_pim_machine_cfg cfg;
    char *profile;              /* cfg.profile */
    char dpu_dir[PATH_MAX + 1]; /* cfg.dpu_dir (the caller's string need not outlive open) */
};

/* backend.c: the context's DPUs, allocated again after a resident region
 * took them; and those DPUs with program `prog` (PIM_PROG_*) loaded. */
cpim_err cpim_pim_have_machine(struct cpim_pim_state *s);
cpim_err cpim_pim_load(struct cpim_pim_state *s, int prog);

/* profile.c: takes this backend's keys (above) out of profile `in` into s;
 * *out is the rest, for dpu_alloc (malloc'd, or NULL). */
cpim_err cpim_pim_parse_profile(struct cpim_pim_state *s, const char *in, char **out);

/* aes_call.c: the frame of one AES-family call on the DPUs (ECB, CTR, XTS,
 * GCM), used in this order:
 *   begin: loads program prog (PIM_PROG_*; with machine_only, only makes
 *     sure the DPUs are there: GCM of an empty message runs nothing), starts
 *     the clocks, builds the key arguments from ks and op (the caller may
 *     add to c->ka), of which key_bytes are sent;
 *   send_key before each round (its time is CPU-DPU time); round runs one;
 *   the caller then frees and wipes its own buffers and, if rc is
 *   CPIM_OK and the context is not timing-only, finishes its result;
 *   end wipes the key arguments, stops the clocks into st, zeroes
 *   out[0..len) of a timing-only run (returning CPIM_ERR_TIMING_ONLY),
 *   wipes the key on the DPUs, resets the machine after a failure, and
 *   returns rc. */
typedef struct {
    struct cpim_pim_state *s;
    cpim_pim_clocks clk;
    cpim_pim_times t;
    struct aes_key_args ka;
    size_t key_bytes;
} cpim_pim_aes_call;
cpim_err cpim_pim_aes_call_begin(cpim_pim_aes_call *c, struct cpim_pim_state *s, int prog,
                                 int machine_only, const cpim_crypto_aes_ks *ks, uint32_t op,
                                 size_t key_bytes);
cpim_err cpim_pim_aes_call_send_key(cpim_pim_aes_call *c);
cpim_err cpim_pim_aes_call_round(cpim_pim_aes_call *c, const cpim_pim_round *r);
cpim_err cpim_pim_aes_call_end(cpim_pim_aes_call *c, cpim_err rc, uint8_t *out, size_t len,
                               cpim_stats *st);

/* pim_aes.c: one AES call on the DPUs (op: AES_OP_*, counter for CTR). */
cpim_err cpim_pim_aes_run(struct cpim_pim_state *s, int op, const uint8_t *in, uint8_t *out,
                          size_t len, uint8_t counter[16], cpim_stats *st);
/* The final partial block of an AES or GCM round (see pim_aes.c). */
int cpim_pim_bounce_tail(struct cpim_pim_state *s, uint32_t bd, size_t share, const uint8_t *in,
                         const uint8_t *out, size_t len, uint8_t **bounce, size_t *bounce_size,
                         size_t *off);

/* The backend's operations, one family per file; contracts in backend.h. */
cpim_err cpim_pim_ecb(void *state, cpim_dir dir, const uint8_t *in, uint8_t *out, size_t len,
                      cpim_stats *st);
cpim_err cpim_pim_ctr(void *state, uint8_t counter[16], const uint8_t *in, uint8_t *out, size_t len,
                      cpim_stats *st);
cpim_err cpim_pim_xts_set_key(void *state, const uint8_t *key, size_t key_len);
cpim_err cpim_pim_xts(void *state, cpim_dir dir, uint64_t first_unit, size_t usz, const uint8_t *in,
                      uint8_t *out, size_t len, cpim_stats *st);
cpim_err cpim_pim_gcm(void *state, cpim_dir dir, const uint8_t *iv, size_t iv_len,
                      const uint8_t *aad, size_t aad_len, const uint8_t *in, uint8_t *out,
                      size_t len, uint8_t tag[16], cpim_stats *st);
cpim_err cpim_pim_sha(void *state, const uint8_t *const *msgs, const size_t *lens, size_t count,
                      uint8_t (*digests)[32], cpim_stats *st);
cpim_err cpim_pim_sha_blocks(void *state, uint32_t *const *h, const uint8_t *const *p,
                             const size_t *nblocks, size_t count, cpim_stats *st);
cpim_err cpim_pim_hmac_op(void *state, const uint8_t *const *keys, const size_t *key_lens,
                          const uint8_t *const *msgs, const size_t *msg_lens, size_t count,
                          uint8_t (*macs)[32], cpim_stats *st);
cpim_err cpim_pim_pbkdf2_op(void *state, const uint8_t *const *passes, const size_t *pass_lens,
                            const uint8_t *const *salts, const size_t *salt_lens, size_t count,
                            uint32_t iterations, uint8_t *const *outs, size_t out_len,
                            cpim_stats *st);
cpim_err cpim_pim_ntt_op(void *state, const cpim_ntt_plan *plan, cpim_ntt_op op, const uint64_t *a,
                         const uint64_t *b, uint64_t *out, size_t count, cpim_stats *st);

#endif /* CPIM_PIM_STATE_H */
