/*
 * pim_gcm.c -- the `pim` backend's AES-GCM (dpu/gcm.c, contract
 * dpu/gcm_args.h): CTR and partial GHASH on the DPUs, combined on the host.
 */
#include <stdlib.h>
#include <string.h>

#include "aes_args.h"
#include "aes_ct.h"
#include "cryptopim.h"
#include "gcm.h"
#include "gcm_args.h"
#include "pim_internal.h"
#include "pim_state.h"

/* ---- AES-GCM ----------------------------------------------------------------------- */

/* The 4-bit tables of a few powers H^L: the host combines the DPUs' partial
 * hashes with them, and a round has only a few distinct run lengths L. */
#define HPOW_SLOTS 6
struct hpow_cache {
    uint64_t len[HPOW_SLOTS];
    cpim_crypto_ghash_ct_key key[HPOW_SLOTS];
    unsigned used, next;
};

static const cpim_crypto_ghash_ct_key *hpow(struct cpim_pim_state *s, struct hpow_cache *c,
                                            uint64_t len)
{
    for (unsigned i = 0; i < c->used; i++)
        if (c->len[i] == len)
            return &c->key[i];
    /* H^len by square-and-multiply; 1 is 0x80 00 .. in GCM's bit order */
    uint8_t r[16] = {0x80}, b[16], t[16];
    memcpy(b, s->h, 16);
    for (uint64_t e = len; e; e >>= 1) {
        if (e & 1)
            cpim_crypto_gf128_mul(r, b);
        memcpy(t, b, 16);
        cpim_crypto_gf128_mul(b, t);
    }
    unsigned i = c->used < HPOW_SLOTS ? c->used++ : (c->next++ % HPOW_SLOTS);
    c->len[i] = len;
    cpim_crypto_ghash_ct_init(&c->key[i], r);
    cpim_wipe(r, sizeof r), cpim_wipe(b, sizeof b), cpim_wipe(t, sizeof t);
    return &c->key[i];
}

/* acc = acc * H^L ^ Y over the runs of every tasklet of DPUs 0..nd-1 in
 * order: tasklet t of a DPU with nblk blocks ran dpu/gcm.c's (= aes.c's)
 * partition [8 (s t / T), 8 (s (t + 1) / T)) cut at nblk, s = ceil(nblk / 8),
 * and left its partial hash Y in part[d][t] (GHASH is linear: see gcm.c). */
static void gcm_combine(struct cpim_pim_state *s, struct hpow_cache *c, uint8_t acc[16],
                        const struct gcm_job_args *jobs, const uint32_t *part, uint32_t nd,
                        unsigned tasklets)
{
    for (uint32_t d = 0; d < nd; d++) {
        const uint64_t nblk = jobs[d].nbytes / 16, nstep = (nblk + 7) / 8;
        for (unsigned t = 0; t < tasklets; t++) {
            uint64_t b = 8 * (nstep * t / tasklets), e = 8 * (nstep * (t + 1) / tasklets);
            if (e > nblk)
                e = nblk;
            if (e <= b)
                continue;
            const uint8_t *y = (const uint8_t *)(part + ((size_t)d * tasklets + t) * 4);
            static const uint8_t zero[16];
            cpim_crypto_ghash_ct_blocks(hpow(s, c, e - b), acc, zero, 1); /* acc *= H^L */
            for (int i = 0; i < 16; i++)
                acc[i] ^= y[i];
        }
    }
}

cpim_err cpim_pim_gcm(void *state, cpim_dir dir, const uint8_t *iv, size_t iv_len,
                      const uint8_t *aad, size_t aad_len, const uint8_t *in, uint8_t *out,
                      size_t len, uint8_t tag[16], cpim_stats *st)
{
    struct cpim_pim_state *s = state;
    cpim_pim_aes_call c;
    cpim_err rc =
        cpim_pim_aes_call_begin(&c, s, PIM_PROG_GCM, len == 0, &s->ek,
                                dir == CPIM_DECRYPT ? GCM_OP_DEC : GCM_OP_ENC, sizeof c.ka);
    if (rc != CPIM_OK)
        return rc;

    /* the host's part: J0, the AAD's hash, E_K(J0) (SP 800-38D 7.1) */
    uint8_t j0[16], acc[16] = {0}, lb[16];
    cpim_crypto_gcm_ct_j0(&s->gh, iv, iv_len, j0);
    cpim_crypto_ghash_ct_bytes(&s->gh, acc, aad, aad_len);

    const uint32_t c0[4] = {
        (uint32_t)j0[0] << 24 | (uint32_t)j0[1] << 16 | (uint32_t)j0[2] << 8 | j0[3],
        (uint32_t)j0[4] << 24 | (uint32_t)j0[5] << 16 | (uint32_t)j0[6] << 8 | j0[7],
        (uint32_t)j0[8] << 24 | (uint32_t)j0[9] << 16 | (uint32_t)j0[10] << 8 | j0[11],
        ((uint32_t)j0[12] << 24 | (uint32_t)j0[13] << 16 | (uint32_t)j0[14] << 8 | j0[15]) + 1u};

    const uint32_t nd = cpim_pim_machine_dpus(s->m);
    const unsigned tasklets = cpim_pim_machine_tasklets(s->m);
    struct aes_job_args *split = NULL;
    struct gcm_job_args *jobs = NULL;
    uint32_t *part = NULL;
    struct hpow_cache *hc = NULL;
    uint8_t *bounce = NULL;
    size_t bounce_size = 0;
    if (len) {
        split = cpim_pim_calloc(&s->faults, nd, sizeof *split);
        jobs = cpim_pim_calloc(&s->faults, nd, sizeof *jobs);
        part = cpim_pim_calloc(&s->faults, (size_t)nd * tasklets, 16);
        hc = cpim_pim_calloc(&s->faults, 1, sizeof *hc);
        if (!split || !jobs || !part || !hc)
            rc = CPIM_ERR_NOMEM;
    }
    const uint64_t total_blocks = (len + 15) / 16;
    const uint64_t round_blocks = (uint64_t)nd * (s->budget / 16);
    for (uint64_t done = 0; done < total_blocks && rc == CPIM_OK;) {
        rc = cpim_pim_aes_call_send_key(&c);
        if (rc != CPIM_OK)
            break;
        uint64_t nb = total_blocks - done < round_blocks ? total_blocks - done : round_blocks;
        uint32_t bd = cpim_pim_aes_split(nd, done, nb, len, in, out, c0, split, s->to, s->from);
        /* GCM's counter: only the low 32 bits count (inc32, no carry) */
        uint64_t blk = done;
        for (uint32_t d = 0; d < nd; d++) {
            jobs[d].nbytes = split[d].nbytes;
            jobs[d].tail = d == bd ? (uint32_t)(len - 16 * (total_blocks - 1)) : 16u;
            jobs[d].ctr[0] = c0[0], jobs[d].ctr[1] = c0[1], jobs[d].ctr[2] = c0[2];
            jobs[d].ctr[3] = c0[3] + (uint32_t)blk;
            blk += split[d].nbytes / 16;
        }
        size_t bounce_off = 0; /* zero padding = GHASH's when decrypting; the DPU
                                  zeroes it after CTR when encrypting */
        if (bd != UINT32_MAX && cpim_pim_bounce_tail(s, bd, jobs[bd].nbytes, in, out, len, &bounce,
                                                     &bounce_size, &bounce_off)) {
            rc = CPIM_ERR_NOMEM;
            break;
        }
        cpim_pim_round r = {
            GCM_XSTR(GCM_JOB_SYM),  jobs, sizeof *jobs,         s->to, s->from, NULL, NULL,
            GCM_XSTR(GCM_PART_SYM), part, (size_t)tasklets * 16};
        rc = cpim_pim_aes_call_round(&c, &r);
        if (rc == CPIM_OK && bd != UINT32_MAX)
            memcpy(out + bounce_off, bounce, len - bounce_off);
        if (rc == CPIM_OK)
            gcm_combine(s, hc, acc, jobs, part, nd, tasklets);
        done += nb;
    }
    if (rc == CPIM_OK) {
        cpim_crypto_gcm_len_block(lb, aad_len, len);
        cpim_crypto_ghash_ct_blocks(&s->gh, acc, lb, 1);
        cpim_crypto_aes_ct_blocks(&s->ct, 0, j0, tag, 1);
        for (int i = 0; i < 16; i++)
            tag[i] ^= acc[i];
        if (s->timing_only) /* the tag of output that is not there */
            memset(tag, 0, 16);
    }
    if (bounce)
        cpim_wipe(bounce, bounce_size);
    if (hc)
        cpim_wipe(hc, sizeof *hc);
    free(bounce), free(split), free(jobs), free(part), free(hc);
    cpim_wipe(j0, sizeof j0), cpim_wipe(acc, sizeof acc);
    return cpim_pim_aes_call_end(&c, rc, out, len, st);
}
