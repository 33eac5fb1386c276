/*
 * ntt.c -- the pim backend's NTT op (issue 16): host side of dpu/ntt.c
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
 * Coefficients travel as 32-bit words (word moduli only: the pim op
 * answers CPIM_ERR_UNSUPPORTED for a ring with a double-word modulus): the
 * round's prepare step converts each rank's inputs just before its
 * transfer, so in the asynchronous modes that conversion overlaps the
 * earlier ranks' transfers and kernels; the results are widened after
 * the round.
 *
 * Twiddles: 16 N bytes per modulus (forward and inverse {w, w'} tables),
 * at MRAM heap offset 0, broadcast once per ring and kept while the NTT
 * program stays loaded (cpim_pim_ntt_cache); data follows them.
 */
#include <stdlib.h>
#include <string.h>

#include "cryptopim.h"
#include "ntt_args.h"
#include "ntt_plan.h"
#include "ntt_tab.h"
#include "pim_internal.h"

_Static_assert(NTT_MAX_LIMBS >= CPIM_NTT_MAX_MODULI, "one launch takes every limb");
_Static_assert(NTT_OP_FORWARD == (int)CPIM_NTT_OP_FORWARD &&
                   NTT_OP_TENSOR == (int)CPIM_NTT_OP_TENSOR &&
                   NTT_OP_POLYMUL == (int)CPIM_NTT_OP_POLYMUL,
               "the kernel's op numbers are the API's");

void cpim_pim_ntt_cache_free(cpim_pim_ntt_cache *c)
{
    free(c->stage), free(c->res);
    c->stage = c->res = NULL;
    c->stage_cap = c->res_cap = 0;
}

/* *buf with at least n words (kept if large enough; contents not kept). */
static uint32_t *words(cpim_pim_faults *f, uint32_t **buf, size_t *cap, size_t n)
{
    if (*cap >= n)
        return *buf;
    free(*buf);
    *buf = cpim_pim_malloc(f, n * 4u);
    *cap = *buf ? n : 0;
    return *buf;
}

/* Sends the ring's twiddle tables unless they are on the DPUs already. */
static cpim_err send_tables(const cpim_pim_ntt_env *e, const cpim_ntt_plan *pl,
                            struct ntt_limb *limb)
{
    const uint32_t n = (uint32_t)pl->n;
    cpim_pim_ntt_cache *c = e->cache;
    for (size_t j = 0; j < pl->nmod; j++) {
        cpim_pim_ntt_tab((uint32_t)pl->mod[j].q, (uint32_t)pl->mod[j].psi_root, pl->log_n, &limb[j],
                         NULL, NULL);
        limb[j].fwd_off = (uint32_t)(16u * n * j);
        limb[j].inv_off = limb[j].fwd_off + 8u * n;
    }
    if (c->valid && c->gen == cpim_pim_machine_generation(e->m) && c->n == pl->n &&
        c->nmod == pl->nmod && !memcmp(c->q, pl->q, pl->nmod * sizeof *pl->q))
        return CPIM_OK;
    c->valid = 0;
    const size_t len = 16u * (size_t)n * pl->nmod;
    uint32_t *tab = cpim_pim_malloc(e->faults, len);
    if (!tab)
        return CPIM_ERR_NOMEM;
    for (size_t j = 0; j < pl->nmod; j++) {
        struct ntt_limb tmp;
        cpim_pim_ntt_tab((uint32_t)pl->mod[j].q, (uint32_t)pl->mod[j].psi_root, pl->log_n, &tmp,
                         tab + 4u * n * j, tab + 4u * n * j + 2u * n);
    }
    cpim_err rc = cpim_pim_machine_broadcast_mram(e->m, 0, tab, (uint32_t)len);
    free(tab);
    if (rc != CPIM_OK)
        return rc;
    c->n = pl->n, c->nmod = pl->nmod;
    memcpy(c->q, pl->q, pl->nmod * sizeof *pl->q);
    c->gen = cpim_pim_machine_generation(e->m);
    c->valid = 1;
    return CPIM_OK;
}

/* What a round's prepare step converts. */
struct ntt_round {
    const uint64_t *a, *b; /* the caller's inputs at group 0 of the round */
    uint32_t *stage;       /* images: per DPU, a's words then b's */
    const size_t *first;   /* per DPU: its first group (round-relative), nd + 1 entries */
    size_t group_words;    /* words of a (or of b) per group */
    size_t inputs;         /* 1 (a) or 2 (a and b) */
};

static void prepare(void *ctx, uint32_t first, uint32_t n)
{
    const struct ntt_round *r = ctx;
    for (uint32_t d = first; d < first + n; d++) {
        size_t g0 = r->first[d], g1 = r->first[d + 1], w = (g1 - g0) * r->group_words;
        uint32_t *img = r->stage + r->inputs * g0 * r->group_words;
        const uint64_t *a = r->a + g0 * r->group_words;
        for (size_t k = 0; k < w; k++)
            img[k] = (uint32_t)a[k];
        if (r->b) {
            const uint64_t *b = r->b + g0 * r->group_words;
            for (size_t k = 0; k < w; k++)
                img[w + k] = (uint32_t)b[k];
        }
    }
}

cpim_err cpim_pim_ntt(const cpim_pim_ntt_env *e, const cpim_ntt_plan *pl, int op, const uint64_t *a,
                      const uint64_t *b, uint64_t *out, size_t count, cpim_pim_times *t)
{
    for (size_t j = 0; j < pl->nmod; j++)
        if (!pl->mod[j].word)
            return CPIM_ERR_UNSUPPORTED; /* the kernel has no double-word path */
    const uint32_t nd = cpim_pim_machine_dpus(e->m), L = (uint32_t)pl->nmod;
    const size_t n = pl->n, tab_bytes = 16u * n * L;
    const int tensor = op == CPIM_NTT_OP_TENSOR, two = op >= CPIM_NTT_OP_POINTWISE;
    /* a group: an item, or for the tensor a ciphertext's L items; its words
     * of a (b the same), of the result, and its MRAM slots */
    const size_t groups = tensor ? count : count * L;
    const size_t in_w = (tensor ? 2u * L : 1u) * n, out_w = (tensor ? 3u * L : 1u) * n;
    const size_t slots = tensor ? 7u * L : two ? 2u : 1u;
    const size_t cap = e->budget / (slots * n * 4u);
    if (cap == 0)
        return CPIM_ERR_UNSUPPORTED; /* one group does not fit the round budget */
    struct ntt_job_args *jobs = cpim_pim_calloc(e->faults, nd, sizeof *jobs);
    size_t *first = cpim_pim_calloc(e->faults, nd + 1, sizeof *first);
    const size_t max_groups = groups < (size_t)nd * cap ? groups : (size_t)nd * cap;
    cpim_pim_ntt_cache *c = e->cache;
    uint32_t *stage =
        words(e->faults, &c->stage, &c->stage_cap, max_groups * in_w * (two ? 2u : 1u));
    uint32_t *res = words(e->faults, &c->res, &c->res_cap, max_groups * out_w);
    cpim_err rc = jobs && first && stage && res ? CPIM_OK : CPIM_ERR_NOMEM;
    if (rc == CPIM_OK)
        rc = send_tables(e, pl, jobs[0].limb);
    for (size_t done = 0; done < groups && rc == CPIM_OK;) {
        const size_t chunk = groups - done < (size_t)nd * cap ? groups - done : (size_t)nd * cap;
        const size_t q = chunk / nd, r = chunk % nd;
        memset(e->to, 0, (size_t)nd * PIM_PIECES * sizeof *e->to);
        memset(e->from, 0, (size_t)nd * sizeof *e->from);
        for (uint32_t d = 0; d < nd; d++) {
            const size_t g = q + (d < r), g0 = d * q + (d < r ? d : r);
            const uint32_t items = (uint32_t)(tensor ? g * L : g);
            first[d] = g0;
            struct ntt_job_args *j = &jobs[d];
            if (d)
                memcpy(j->limb, jobs[0].limb, sizeof j->limb);
            j->op = (uint32_t)op, j->log_n = pl->log_n, j->log_m = e->log_m, j->sched = e->sched;
            j->nitems = items, j->nlimbs = L;
            j->limb0 = tensor ? 0 : (uint32_t)((done + g0) % L);
            j->data_off = (uint32_t)tab_bytes;
            j->bslot = tensor ? 2u * items : items;
            j->eslot = 2u * j->bslot;
            if (!g)
                continue;
            const uint32_t in_len = (uint32_t)(g * in_w * (two ? 2u : 1u) * 4u);
            e->to[(size_t)d * PIM_PIECES] =
                (cpim_pim_piece){stage + (two ? 2u : 1u) * g0 * in_w, (uint32_t)tab_bytes, in_len};
            const uint32_t out_slot = tensor ? j->eslot : 0;
            e->from[d] = (cpim_pim_piece){res + g0 * out_w,
                                          (uint32_t)(tab_bytes + (size_t)out_slot * n * 4u),
                                          (uint32_t)(g * out_w * 4u)};
        }
        first[nd] = chunk;
        struct ntt_round nr = {a + done * in_w, two ? b + done * in_w : NULL, stage, first, in_w,
                               two ? 2u : 1u};
        cpim_pim_round rd = {
            NTT_XSTR(NTT_JOB_SYM), jobs, sizeof *jobs, e->to, e->from, prepare, &nr, NULL, NULL, 0};
        rc = cpim_pim_machine_round(e->m, &rd, t);
        if (rc == CPIM_OK && !e->timing_only) {
            uint64_t *o = out + done * out_w;
            for (size_t k = 0; k < chunk * out_w; k++)
                o[k] = res[k];
        }
        done += chunk;
    }
    free(jobs), free(first);
    return rc;
}
