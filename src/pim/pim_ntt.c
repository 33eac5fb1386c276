/*
 * pim_ntt.c -- the pim backend's NTT engine: host side of dpu/ntt.c
 * (contract dpu/ntt_args.h; design and figures in docs/NTT.md).
 *
 * Each op is one launch per round: forward, inverse, pointwise, and the
 * polynomial and tensor products whole (transforms, products and inverse
 * on the DPU, nothing in between comes back).  Work is split in items: a
 * (polynomial, limb) pair -- RNS limbs spread over DPUs like polynomials --
 * or for the tensor product a (ciphertext, limb) pair, with a ciphertext's
 * limbs kept on one DPU so that its data stays contiguous.  DPU d takes q
 * or q + 1 groups (q = groups / DPUs, the remainder on the first DPUs).
 *
 * Coefficients travel as the API has them, 64-bit, pushed from and
 * gathered into the caller's buffers directly; the word program (ntt-tN)
 * narrows them to 32-bit words in MRAM and widens the results; a base with
 * a double-word modulus runs on the double-word program (ntt64-tN), whose
 * coefficients are the API's words.
 * A first version converted on the host (a staging copy per call): on the
 * virtual UPMEM's host-time clock that cost more than the transfers it
 * halved (docs/NTT.md).
 *
 * Twiddles: 16 N bytes per modulus (forward and inverse {w, w'} tables;
 * 32 N for the double-word program),
 * at MRAM heap offset 0, broadcast once per ring and kept while the NTT
 * program stays loaded (cpim_pim_ntt_cache); data follows them.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cryptopim.h"
#include "ntt_args.h"
#include "ntt_plan.h"
#include "ntt_run.h"
#include "ntt_tab.h"
#include "pim_internal.h"
#include "pim_state.h"

_Static_assert(NTT_MAX_LIMBS >= CPIM_NTT_MAX_MODULI, "one launch takes every limb");
_Static_assert(NTT_OP_FORWARD == (int)CPIM_NTT_OP_FORWARD &&
                   NTT_OP_TENSOR == (int)CPIM_NTT_OP_TENSOR &&
                   NTT_OP_POLYMUL == (int)CPIM_NTT_OP_POLYMUL,
               "the kernel's op numbers are the API's");

/* The rings the DPU kernel takes (cryptopim_ntt.h, the pim row). */
#define PIM_NTT_MIN_N 1024u
#define PIM_NTT_MAX_N 65536u

static int same_psi(const cpim_pim_ntt_cache *c, const cpim_ntt_plan *pl)
{
    for (size_t j = 0; j < pl->nmod; j++)
        if (c->psi[j] != pl->mod[j].psi_root)
            return 0;
    return 1;
}

/* Sends the ring's twiddle tables unless they are on the DPUs already, and
 * fills the per-limb constants of job (the first DPU's; dw: an
 * ntt_job_args64). */
static cpim_err send_tables(const cpim_pim_ntt_env *e, const cpim_ntt_plan *pl, int dw, void *job)
{
    const uint32_t n = (uint32_t)pl->n, tab = (dw ? 32u : 16u) * n; /* bytes per modulus */
    cpim_pim_ntt_cache *c = e->cache;
    for (size_t j = 0; j < pl->nmod; j++) {
        const cpim_ntt_mod *md = &pl->mod[j];
        if (dw) {
            struct ntt_limb64 *l = &((struct ntt_job_args64 *)job)->limb[j];
            cpim_pim_ntt_tab64(md->q, md->psi_root, pl->log_n, l, NULL, NULL);
            l->fwd_off = (uint32_t)(tab * j), l->inv_off = l->fwd_off + tab / 2u;
        } else {
            struct ntt_limb *l = &((struct ntt_job_args *)job)->limb[j];
            cpim_pim_ntt_tab((uint32_t)md->q, (uint32_t)md->psi_root, pl->log_n, l, NULL, NULL);
            l->fwd_off = (uint32_t)(tab * j), l->inv_off = l->fwd_off + tab / 2u;
        }
    }
    /* (a table of the other program's format was sent under another
     * program, so another machine generation) */
    if (c->valid && c->gen == cpim_pim_machine_generation(e->m) && c->n == pl->n &&
        c->nmod == pl->nmod && !memcmp(c->q, pl->q, pl->nmod * sizeof *pl->q) && same_psi(c, pl))
        return CPIM_OK;
    c->valid = 0;
    const size_t len = (size_t)tab * pl->nmod;
    void *buf = cpim_pim_malloc(e->faults, len);
    if (!buf)
        return CPIM_ERR_NOMEM;
    for (size_t j = 0; j < pl->nmod; j++) {
        const cpim_ntt_mod *md = &pl->mod[j];
        if (dw) {
            struct ntt_limb64 tmp;
            uint64_t *t = (uint64_t *)buf + 4u * n * j;
            cpim_pim_ntt_tab64(md->q, md->psi_root, pl->log_n, &tmp, t, t + 2u * n);
        } else {
            struct ntt_limb tmp;
            uint32_t *t = (uint32_t *)buf + 4u * n * j;
            cpim_pim_ntt_tab((uint32_t)md->q, (uint32_t)md->psi_root, pl->log_n, &tmp, t,
                             t + 2u * n);
        }
    }
    cpim_err rc = cpim_pim_machine_broadcast_mram(e->m, 0, buf, (uint32_t)len);
    free(buf);
    if (rc != CPIM_OK)
        return rc;
    c->n = pl->n, c->nmod = pl->nmod;
    memcpy(c->q, pl->q, pl->nmod * sizeof *pl->q);
    for (size_t j = 0; j < pl->nmod; j++)
        c->psi[j] = pl->mod[j].psi_root;
    c->gen = cpim_pim_machine_generation(e->m);
    c->valid = 1;
    return CPIM_OK;
}

int cpim_pim_ntt_dword(const cpim_ntt_plan *pl)
{
    for (size_t j = 0; j < pl->nmod; j++)
        if (!pl->mod[j].word)
            return 1;
    return 0;
}

cpim_err cpim_pim_ntt(const cpim_pim_ntt_env *e, const cpim_ntt_plan *pl, int op, const uint64_t *a,
                      const uint64_t *b, uint64_t *out, size_t count, cpim_pim_times *t)
{
    /* a base with a double-word modulus runs whole on the double-word
     * program (it takes word moduli too) */
    const int dw = cpim_pim_ntt_dword(pl);
    const uint32_t nd = cpim_pim_machine_dpus(e->m), L = (uint32_t)pl->nmod;
    const size_t n = pl->n, cb = dw ? 8u : 4u; /* MRAM bytes per coefficient */
    const size_t tab_bytes = 4u * cb * n * L,
                 job_size = dw ? sizeof(struct ntt_job_args64) : sizeof(struct ntt_job_args);
    const int tensor = op == CPIM_NTT_OP_TENSOR, two = op >= CPIM_NTT_OP_POINTWISE;
    /* a group: an item, or for the tensor a ciphertext's L items; its words
     * of a (b the same), of the result, and its MRAM slots */
    const size_t groups = tensor ? count : count * L;
    const size_t in_w = (tensor ? 2u * L : 1u) * n, out_w = (tensor ? 3u * L : 1u) * n;
    const size_t slots = tensor ? 7u * L : two ? 2u : 1u; /* slots per group */
    /* 64-bit input polynomials in the word program's wide region */
    const size_t wide = dw ? 0 : (tensor ? 4u * L : two ? 2u : 1u);
    const size_t cap = e->budget / ((slots * cb + wide * 8u) * n);
    if (cap == 0)
        return CPIM_ERR_UNSUPPORTED; /* one group does not fit the round budget */
    unsigned char *jobs = cpim_pim_calloc(e->faults, nd, job_size);
    cpim_err rc = jobs ? CPIM_OK : CPIM_ERR_NOMEM;
    if (rc == CPIM_OK)
        rc = send_tables(e, pl, dw, jobs);
    const size_t limb_off =
        dw ? offsetof(struct ntt_job_args64, limb) : offsetof(struct ntt_job_args, limb);
    for (size_t done = 0; done < groups && rc == CPIM_OK;) {
        const size_t chunk = groups - done < (size_t)nd * cap ? groups - done : (size_t)nd * cap;
        const size_t q = chunk / nd, r = chunk % nd;
        /* the same wide_off on every DPU (fewer distinct pushes): after the
         * slots of the most loaded one */
        const uint32_t wide_off = (uint32_t)(tab_bytes + (q + (r != 0)) * slots * n * cb);
        memset(e->to, 0, (size_t)nd * PIM_PIECES * sizeof *e->to);
        memset(e->from, 0, (size_t)nd * sizeof *e->from);
        for (uint32_t d = 0; d < nd; d++) {
            const size_t g = q + (d < r), g0 = done + d * q + (d < r ? d : r);
            const uint32_t items = (uint32_t)(tensor ? g * L : g);
            unsigned char *jd = jobs + (size_t)d * job_size;
            struct ntt_job_hdr *j = dw ? &((struct ntt_job_args64 *)(void *)jd)->h
                                       : &((struct ntt_job_args *)(void *)jd)->h;
            if (d)
                memcpy(jd + limb_off, jobs + limb_off, job_size - limb_off);
            j->op = (uint32_t)op, j->log_n = pl->log_n, j->log_m = e->log_m, j->sched = e->sched;
            j->nitems = items, j->nlimbs = L;
            j->limb0 = tensor ? 0 : (uint32_t)(g0 % L);
            j->data_off = (uint32_t)tab_bytes;
            j->bslot = tensor ? 2u * items : items;
            j->eslot = 2u * j->bslot;
            j->wide_off = wide_off;
            if (!g)
                continue;
            /* straight from and to the caller's buffers: a's polynomials,
             * then b's right after them, into the wide region (the word
             * program narrows and widens) or the slots themselves */
            const uint32_t in_len = (uint32_t)(g * in_w * 8u);
            const uint32_t in0 = dw ? j->data_off : wide_off;
            const uint32_t b0 =
                dw ? j->data_off + (uint32_t)(j->bslot * n * 8u) : wide_off + in_len;
            const uint32_t out0 =
                dw ? j->data_off + (uint32_t)((tensor ? j->eslot : 0) * n * 8u) : wide_off;
            e->to[(size_t)d * PIM_PIECES] =
                (cpim_pim_piece){(void *)(uintptr_t)(a + g0 * in_w), in0, in_len};
            if (two)
                e->to[(size_t)d * PIM_PIECES + 1] =
                    (cpim_pim_piece){(void *)(uintptr_t)(b + g0 * in_w), b0, in_len};
            e->from[d] = (cpim_pim_piece){out + g0 * out_w, out0, (uint32_t)(g * out_w * 8u)};
        }
        cpim_pim_round rd = {
            NTT_XSTR(NTT_JOB_SYM), jobs, job_size, e->to, e->from, NULL, NULL, NULL, NULL, 0};
        rc = cpim_pim_machine_round(e->m, &rd, t);
        done += chunk;
    }
    free(jobs);
    return rc;
}

/* ---- the engine's NTT --------------------------------------------------------------------- */

cpim_err cpim_pim_ntt_op(void *state, const cpim_ntt_plan *plan, cpim_ntt_op op, const uint64_t *a,
                         const uint64_t *b, uint64_t *out, size_t count, cpim_stats *st)
{
    struct cpim_pim_state *s = state;
    /* Rings the DPU kernel does not take run on the host, on the portable
     * kernels: below PIM_NTT_MIN_N its passes (dpu/ntt_args.h
     * ntt_passes) lack a whole WRAM block of 2^log_m coefficients, above
     * PIM_NTT_MAX_N its pass plan and MRAM layout end.  The statistics then
     * show no DPU and no modeled time: nothing ran on the DPUs. */
    if (plan->n < PIM_NTT_MIN_N || plan->n > PIM_NTT_MAX_N)
        return cpim_ntt_run(&cpim_ntt_portable_kernels, 1, plan, op, a, b, out, count);
    cpim_err rc = cpim_pim_load(s, cpim_pim_ntt_dword(plan) ? PIM_PROG_NTT64 : PIM_PROG_NTT);
    if (rc != CPIM_OK)
        return rc;
    cpim_pim_clocks clk;
    cpim_pim_times t = {0, 0, 0};
    cpim_pim_clocks_start(&clk);
    cpim_pim_ntt_env e = {s->m,         &s->faults,   s->to,          s->from,      s->budget,
                          s->ntt_sched, s->ntt_log_m, s->timing_only, &s->ntt_cache};
    rc = cpim_pim_ntt(&e, plan, (int)op, a, b, out, count, &t);
    if (rc != CPIM_OK && rc != CPIM_ERR_TIMING_ONLY) {
        cpim_pim_machine_reset(s->m);
        s->ntt_cache.valid = 0;
    }
    cpim_pim_clocks_stop(s->m, &clk, &t, st);
    if (rc == CPIM_OK && s->timing_only) { /* skipped DPUs computed nothing */
        memset(out, 0, count * (op == CPIM_NTT_OP_TENSOR ? 3u : 1u) * plan->nmod * plan->n * 8u);
        rc = CPIM_ERR_TIMING_ONLY;
    }
    return rc;
}
