/*
 * pim_hmac.c -- HMAC-SHA256 and PBKDF2-HMAC-SHA256 on the DPUs (dpu/hmac.c,
 * contract dpu/hmac_args.h): the host side of the pim backend's two ops.
 *
 * The host turns each key or password into its two HMAC states with the
 * portable code (src/crypto/hmac.c: 2 compressions per key, 4 for a key
 * longer than a block), so no key or password is ever sent to a DPU; for
 * PBKDF2 it also computes U1 = PRF(P, S || INT(j)) (the salt has any
 * length; a DPU would need it in MRAM for one use).  The DPUs then run
 * what costs: PBKDF2's iterations 2..c (2 compressions each, 96 bytes in
 * and 32 out per chain, compute-bound), or the inner hash of each message.
 *
 * Distribution: PBKDF2 chains (one per 32-byte output block of each
 * password) go q or q + 1 to a DPU (q = chains / DPUs; the remainder on
 * the first DPUs), in as many rounds as MRAM needs; MAC items in contiguous
 * runs of about equal bytes.  Inside a DPU the kernel spreads them over the
 * tasklets.
 *
 * Key states on the DPUs: the kernel overwrites every item's record (MRAM)
 * and its WRAM copy when done.  When a call does not end with every DPU
 * having run the kernel (a fault, a timing-only run that skipped DPUs), the
 * host overwrites the records' MRAM range with zeros itself.  Host copies
 * are wiped before they are freed.
 */
#include <stdlib.h>
#include <string.h>

#include "cryptopim.h"
#include "hmac.h"
#include "hmac_args.h"
#include "pim_internal.h"
#include "pim_state.h"

static void be32_put(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

#define ITEM      sizeof(struct hmac_item)
#define ROUND8(x) (((x) + 7u) & ~(size_t)7u)

/* ---- PBKDF2 ------------------------------------------------------------------------ */

cpim_err cpim_pim_pbkdf2(const cpim_pim_hmac_env *e, const uint8_t *const *passes,
                         const size_t *pass_lens, const uint8_t *const *salts,
                         const size_t *salt_lens, size_t count, uint32_t iterations,
                         uint8_t *const *outs, size_t out_len, cpim_pim_times *t)
{
    for (size_t i = 0; i < count; i++)
        if (pass_lens[i] > UINT32_MAX || salt_lens[i] > UINT32_MAX - 4)
            return CPIM_ERR_UNSUPPORTED; /* the portable code counts in 32 bits */
    const size_t nblk = (out_len + 31) / 32, n = count * nblk;
    const uint32_t nd = cpim_pim_machine_dpus(e->m);
    /* chains per DPU and round: a record in, a result out */
    const size_t cap = e->budget / (ITEM + 32);
    struct hmac_item *items = cpim_pim_calloc(e->faults, n, ITEM);
    uint32_t(*res)[8] = cpim_pim_calloc(e->faults, n, 32);
    struct hmac_job_args *jobs = cpim_pim_calloc(e->faults, nd, sizeof *jobs);
    cpim_err rc = items && res && jobs && cap ? CPIM_OK : CPIM_ERR_NOMEM;
    /* the states and U1 of every chain (states once per password) */
    for (size_t i = 0; i < count && rc == CPIM_OK; i++) {
        struct hmac_item *first = &items[i * nblk];
        cpim_crypto_hmac_sha256_pads(passes[i], (uint32_t)pass_lens[i], first->istate,
                                     first->ostate);
        for (size_t j = 0; j < nblk; j++) {
            struct hmac_item *it = &items[i * nblk + j];
            uint8_t ij[4];
            be32_put(ij, (uint32_t)(j + 1));
            if (j) {
                memcpy(it->istate, first->istate, sizeof it->istate);
                memcpy(it->ostate, first->ostate, sizeof it->ostate);
            }
            cpim_crypto_hmac_sha256_states(it->istate, it->ostate, salts[i], (uint32_t)salt_lens[i],
                                           ij, 4, it->u);
        }
    }
    size_t on_dpus = 0; /* bytes of records pushed in the last round */
    for (size_t done = 0; done < n && rc == CPIM_OK;) {
        size_t chunk = n - done < (size_t)nd * cap ? n - done : (size_t)nd * cap;
        size_t q = chunk / nd, r = chunk % nd, at = done;
        uint32_t out_off = (uint32_t)ROUND8((q + (r != 0)) * ITEM);
        memset(e->to, 0, (size_t)nd * PIM_PIECES * sizeof *e->to);
        memset(e->from, 0, (size_t)nd * sizeof *e->from);
        for (uint32_t d = 0; d < nd; d++) {
            size_t c = q + (d < r);
            jobs[d] =
                (struct hmac_job_args){HMAC_MODE_PBKDF2, (uint32_t)c, iterations, out_off, 0, 0};
            e->to[(size_t)d * PIM_PIECES] = (cpim_pim_piece){&items[at], 0, (uint32_t)(c * ITEM)};
            e->from[d] = (cpim_pim_piece){res[at], out_off, (uint32_t)(c * 32)};
            at += c;
        }
        if (out_off > on_dpus)
            on_dpus = out_off;
        cpim_pim_round rd = {
            HMAC_XSTR(HMAC_JOB_SYM), jobs, sizeof *jobs, e->to, e->from, NULL, NULL, NULL, NULL, 0};
        rc = cpim_pim_machine_round(e->m, &rd, t);
        done += chunk;
    }
    if (rc == CPIM_OK) {
        for (size_t c = 0; c < n; c++) {
            uint8_t tb[32];
            size_t i = c / nblk, off = (c % nblk) * 32;
            for (int w = 0; w < 8; w++)
                be32_put(tb + 4 * w, res[c][w]);
            memcpy(outs[i] + off, tb, out_len - off < 32 ? out_len - off : 32);
            cpim_wipe(tb, sizeof tb);
        }
    }
    if (items)
        cpim_wipe(items, n * ITEM);
    if (res)
        cpim_wipe(res, n * 32);
    free(items), free(res), free(jobs);
    /* records the kernel did not get to wipe (a fault, skipped DPUs) */
    if (on_dpus && (rc != CPIM_OK || e->timing_only))
        cpim_pim_machine_zero_mram(e->m, (uint32_t)on_dpus);
    return rc;
}

/* ---- HMAC ---------------------------------------------------------------------------- */

/* The padded inner message of item i: its blocks (message, 0x80, zeros,
 * the bit length counting the 64 key bytes). */
static size_t inner_blocks(size_t len)
{
    return (len + 9 + 63) / 64;
}

cpim_err cpim_pim_hmac(const cpim_pim_hmac_env *e, const uint8_t *const *keys,
                       const size_t *key_lens, const uint8_t *const *msgs, const size_t *msg_lens,
                       size_t count, uint8_t (*macs)[32], cpim_pim_times *t)
{
    const uint32_t nd = cpim_pim_machine_dpus(e->m);
    const size_t per = ITEM + sizeof(struct hmac_msg) + 32; /* bytes per item besides its data */
    uint64_t left = 0;
    for (size_t i = 0; i < count; i++) {
        if (key_lens[i] > UINT32_MAX || per + inner_blocks(msg_lens[i]) * 64 > e->budget)
            return CPIM_ERR_UNSUPPORTED; /* one message must fit a DPU's round budget */
        left += per + inner_blocks(msg_lens[i]) * 64;
    }
    struct hmac_job_args *jobs = cpim_pim_calloc(e->faults, nd, sizeof *jobs);
    size_t *first = cpim_pim_calloc(e->faults, nd + 1, sizeof *first);
    size_t *img_at = cpim_pim_calloc(e->faults, nd + 1, sizeof *img_at);
    uint8_t *stage = NULL, *res = NULL;
    size_t stage_len = 0, max_records = 0;
    cpim_err rc = jobs && first && img_at ? CPIM_OK : CPIM_ERR_NOMEM;
    for (size_t next = 0; next < count && rc == CPIM_OK;) {
        /* this round: DPU d takes items [first[d], first[d + 1]), about
         * left / nd bytes each (never more than the budget) */
        uint64_t target = (left + nd - 1) / nd;
        if (target > e->budget)
            target = e->budget;
        size_t i = next, bytes = 0;
        for (uint32_t d = 0; d < nd; d++) {
            first[d] = i;
            img_at[d] = bytes;
            uint64_t mine = 0;
            while (i < count) {
                uint64_t b = per + inner_blocks(msg_lens[i]) * 64;
                if (mine && (mine + b > target))
                    break;
                mine += b;
                i++;
            }
            bytes += mine;
            left -= mine;
        }
        first[nd] = i;
        img_at[nd] = bytes;
        if (stage)
            cpim_wipe(stage, stage_len);
        free(stage), free(res);
        stage_len = bytes;
        stage = cpim_pim_calloc(e->faults, bytes ? bytes : 1, 1);
        res = cpim_pim_calloc(e->faults, (i - next) ? (i - next) * 32 : 1, 1);
        if (!stage || !res) {
            rc = CPIM_ERR_NOMEM;
            break;
        }
        memset(e->to, 0, (size_t)nd * PIM_PIECES * sizeof *e->to);
        memset(e->from, 0, (size_t)nd * sizeof *e->from);
        max_records = 0;
        for (uint32_t d = 0; d < nd; d++) {
            size_t c = first[d + 1] - first[d];
            uint8_t *img = stage + img_at[d];
            uint32_t tab_off = (uint32_t)(c * ITEM), out_off = tab_off + (uint32_t)(c * 8);
            uint32_t msg_off = out_off + (uint32_t)(c * 32);
            for (size_t k = 0; k < c; k++) {
                size_t x = first[d] + k, len = msg_lens[x], nb = inner_blocks(len);
                struct hmac_item *it = (struct hmac_item *)(img + k * ITEM);
                struct hmac_msg *m = (struct hmac_msg *)(img + tab_off + k * 8);
                cpim_crypto_hmac_sha256_pads(keys[x], (uint32_t)key_lens[x], it->istate,
                                             it->ostate);
                m->msg_off = msg_off;
                m->nblocks = (uint32_t)nb;
                /* the image keeps the out area (out_off..msg_off) unused */
                uint8_t *p = img + msg_off - 32 * c;
                if (len)
                    memcpy(p, msgs[x], len);
                p[len] = 0x80;
                uint64_t bits = ((uint64_t)len + 64) * 8;
                for (int b = 0; b < 8; b++)
                    p[nb * 64 - 1 - b] = (uint8_t)(bits >> (8 * b));
                msg_off += (uint32_t)(nb * 64);
            }
            size_t data = img_at[d + 1] - img_at[d] - c * per;
            jobs[d] = (struct hmac_job_args){HMAC_MODE_MAC, (uint32_t)c, 1, out_off, tab_off, 0};
            /* records + table, then the messages (the image has no out area) */
            e->to[(size_t)d * PIM_PIECES] = (cpim_pim_piece){img, 0, out_off};
            e->to[(size_t)d * PIM_PIECES + 1] =
                (cpim_pim_piece){img + out_off, out_off + (uint32_t)(c * 32), (uint32_t)data};
            e->from[d] =
                (cpim_pim_piece){res + 32 * (first[d] - next), out_off, (uint32_t)(c * 32)};
            if (c * ITEM > max_records)
                max_records = c * ITEM;
        }
        cpim_pim_round rd = {
            HMAC_XSTR(HMAC_JOB_SYM), jobs, sizeof *jobs, e->to, e->from, NULL, NULL, NULL, NULL, 0};
        rc = cpim_pim_machine_round(e->m, &rd, t);
        if (rc == CPIM_OK) {
            uint32_t(*w)[8] = (uint32_t(*)[8])res;
            for (size_t k = next; k < i; k++)
                for (int j = 0; j < 8; j++)
                    be32_put(macs[k] + 4 * j, w[k - next][j]);
        }
        next = i;
    }
    if (stage)
        cpim_wipe(stage, stage_len);
    free(stage), free(res), free(jobs), free(first), free(img_at);
    if (max_records && (rc != CPIM_OK || e->timing_only))
        cpim_pim_machine_zero_mram(e->m, (uint32_t)max_records);
    return rc;
}

/* ---- the engine's HMAC / PBKDF2 ----------------------------------------------------------- */

static cpim_err hmac_call(struct cpim_pim_state *s, int pbkdf2, const uint8_t *const *k,
                          const size_t *kl, const uint8_t *const *m, const size_t *ml, size_t count,
                          uint32_t iterations, uint8_t *const *outs, size_t out_len,
                          uint8_t (*macs)[32], cpim_stats *st)
{
    cpim_err rc = cpim_pim_load(s, PIM_PROG_HMAC);
    if (rc != CPIM_OK)
        return rc;
    cpim_pim_clocks clk;
    cpim_pim_times t = {0, 0, 0};
    cpim_pim_clocks_start(&clk);
    cpim_pim_hmac_env e = {s->m, &s->faults, s->to, s->from, s->budget, s->timing_only};
    rc = pbkdf2 ? cpim_pim_pbkdf2(&e, k, kl, m, ml, count, iterations, outs, out_len, &t)
                : cpim_pim_hmac(&e, k, kl, m, ml, count, macs, &t);
    if (rc == CPIM_OK && s->timing_only) {
        for (size_t i = 0; i < count; i++) /* skipped DPUs computed nothing */
            memset(pbkdf2 ? outs[i] : macs[i], 0, pbkdf2 ? out_len : 32);
        rc = CPIM_ERR_TIMING_ONLY;
    }
    if (rc != CPIM_OK && rc != CPIM_ERR_TIMING_ONLY)
        cpim_pim_machine_reset(s->m);
    cpim_pim_clocks_stop(s->m, &clk, &t, st);
    return rc;
}

cpim_err cpim_pim_hmac_op(void *state, const uint8_t *const *keys, const size_t *key_lens,
                          const uint8_t *const *msgs, const size_t *msg_lens, size_t count,
                          uint8_t (*macs)[32], cpim_stats *st)
{
    return hmac_call(state, 0, keys, key_lens, msgs, msg_lens, count, 0, NULL, 0, macs, st);
}

cpim_err cpim_pim_pbkdf2_op(void *state, const uint8_t *const *passes, const size_t *pass_lens,
                            const uint8_t *const *salts, const size_t *salt_lens, size_t count,
                            uint32_t iterations, uint8_t *const *outs, size_t out_len,
                            cpim_stats *st)
{
    return hmac_call(state, 1, passes, pass_lens, salts, salt_lens, count, iterations, outs,
                     out_len, NULL, st);
}
