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
 * Coefficients travel as the API has them, 64-bit, pushed from and
 * gathered into the caller's buffers directly; the kernel narrows them to
 * 32-bit words in MRAM and widens the results (word moduli only: the pim
 * op answers CPIM_ERR_UNSUPPORTED for a ring with a double-word modulus).
 * A first version converted on the host (a staging copy per call): on the
 * virtual UPMEM's host-time clock that cost more than the transfers it
 * halved (docs/NTT.md).
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
    const size_t slots = tensor ? 7u * L : two ? 2u : 1u;  /* 32-bit slots per group */
    const size_t wide = (tensor ? 4u * L : two ? 2u : 1u); /* 64-bit input polynomials */
    const size_t cap = e->budget / ((slots * 4u + wide * 8u) * n);
    if (cap == 0)
        return CPIM_ERR_UNSUPPORTED; /* one group does not fit the round budget */
    struct ntt_job_args *jobs = cpim_pim_calloc(e->faults, nd, sizeof *jobs);
    cpim_err rc = jobs ? CPIM_OK : CPIM_ERR_NOMEM;
    if (rc == CPIM_OK)
        rc = send_tables(e, pl, jobs[0].limb);
    for (size_t done = 0; done < groups && rc == CPIM_OK;) {
        const size_t chunk = groups - done < (size_t)nd * cap ? groups - done : (size_t)nd * cap;
        const size_t q = chunk / nd, r = chunk % nd;
        /* the same wide_off on every DPU (fewer distinct pushes): after the
         * slots of the most loaded one */
        const uint32_t wide_off = (uint32_t)(tab_bytes + (q + (r != 0)) * slots * n * 4u);
        memset(e->to, 0, (size_t)nd * PIM_PIECES * sizeof *e->to);
        memset(e->from, 0, (size_t)nd * sizeof *e->from);
        for (uint32_t d = 0; d < nd; d++) {
            const size_t g = q + (d < r), g0 = done + d * q + (d < r ? d : r);
            const uint32_t items = (uint32_t)(tensor ? g * L : g);
            struct ntt_job_args *j = &jobs[d];
            if (d)
                memcpy(j->limb, jobs[0].limb, sizeof j->limb);
            j->op = (uint32_t)op, j->log_n = pl->log_n, j->log_m = e->log_m, j->sched = e->sched;
            j->nitems = items, j->nlimbs = L;
            j->limb0 = tensor ? 0 : (uint32_t)(g0 % L);
            j->data_off = (uint32_t)tab_bytes;
            j->bslot = tensor ? 2u * items : items;
            j->eslot = 2u * j->bslot;
            j->wide_off = wide_off;
            if (!g)
                continue;
            /* straight from and to the caller's buffers (the kernel narrows
             * and widens): a's polynomials, then b's right after them */
            const uint32_t in_len = (uint32_t)(g * in_w * 8u);
            e->to[(size_t)d * PIM_PIECES] =
                (cpim_pim_piece){(void *)(uintptr_t)(a + g0 * in_w), wide_off, in_len};
            if (two)
                e->to[(size_t)d * PIM_PIECES + 1] =
                    (cpim_pim_piece){(void *)(uintptr_t)(b + g0 * in_w), wide_off + in_len, in_len};
            e->from[d] = (cpim_pim_piece){out + g0 * out_w, wide_off, (uint32_t)(g * out_w * 8u)};
        }
        cpim_pim_round rd = {
            NTT_XSTR(NTT_JOB_SYM), jobs, sizeof *jobs, e->to, e->from, NULL, NULL, NULL, NULL, 0};
        rc = cpim_pim_machine_round(e->m, &rd, t);
        done += chunk;
    }
    free(jobs);
    return rc;
}
