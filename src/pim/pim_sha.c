/*
 * pim_sha.c -- the `pim` backend's SHA-256 (dpu/sha256.c, contract
 * dpu/sha256_args.h): whole messages, and the streaming API's blocks.
 */
#include <stdlib.h>
#include <string.h>

#include "cryptopim.h"
#include "pim_internal.h"
#include "pim_state.h"
#include "sha256_args.h"

/* ---- SHA-256 ---------------------------------------------------------------------- */

/* Grows a reused buffer to at least n bytes (contents not kept; zeroed when
 * new, so no uninitialised byte is ever pushed).  *hi: bytes of the old
 * buffer to wipe before it is freed (then 0), or NULL. */
static int grow(cpim_pim_faults *f, uint8_t **buf, size_t *cap, size_t *hi, size_t n)
{
    if (n <= *cap && *buf)
        return 1;
    if (*buf && hi)
        cpim_wipe(*buf, *hi);
    if (hi)
        *hi = 0;
    free(*buf);
    *buf = cpim_pim_calloc(f, n, 1);
    *cap = *buf ? n : 0;
    return *buf != NULL;
}

/* Both SHA-256 operations: the digests of whole messages (h == NULL), or
 * (h != NULL) the streaming API's chaining values, h[i] absorbing the
 * lens[i] bytes (a multiple of 64) at msgs[i], with nothing padded or
 * finished (plan.c's `blocks` mode; the DPU kernel reads each chaining value
 * from its slot and writes the new one back, sha256_args.h).  On an error h
 * is unchanged. */
static cpim_err sha_run(struct cpim_pim_state *s, const uint8_t *const *msgs, const size_t *lens,
                        size_t count, uint8_t (*digests)[32], uint32_t *const *h, cpim_stats *st)
{
    cpim_err rc = cpim_pim_load(s, PIM_PROG_SHA);
    if (rc != CPIM_OK)
        return rc;
    cpim_pim_clocks clk;
    cpim_pim_times t = {0, 0, 0};
    cpim_pim_clocks_start(&clk);

    cpim_pim_sha_plan p;
    memset(&p, 0, sizeof p);
    p.msgs = msgs;
    p.lens = lens;
    p.nd = cpim_pim_machine_dpus(s->m);
    p.budget = s->budget;
    p.direct_min = s->direct_min;
    p.threads = s->threads;
    p.nr_scopes = s->nr_scopes;
    p.scope_first = s->scope_first;
    p.scope_n = s->scope_n;
    p.to = s->to;
    p.from = s->from;
    p.blocks = h != NULL;
    uint64_t *pos = cpim_pim_calloc(&s->faults, count, sizeof *pos);  /* bytes hashed so far */
    size_t *todo = cpim_pim_malloc(&s->faults, count * sizeof *todo); /* unfinished, in order */
    if (!pos || !todo || cpim_pim_sha_plan_alloc(&p, &s->faults, count) != CPIM_OK) {
        rc = CPIM_ERR_NOMEM;
        goto out;
    }
    size_t ntodo = 0;
    for (size_t i = 0; i < count; i++) {
        if (h && !lens[i])
            continue; /* no blocks: nothing to do, its chaining value stays */
        if (h)
            memcpy(p.chain[i], h[i], sizeof p.chain[i]);
        todo[ntodo++] = i;
    }

    while (ntodo && rc == CPIM_OK) {
        size_t used, res;
        cpim_pim_sha_plan_round(&p, todo, ntodo, pos, &used, &res);
        if (!grow(&s->faults, &s->stage, &s->stage_cap, &s->stage_hi, used) ||
            !grow(&s->faults, &s->results, &s->results_cap, NULL, res)) {
            rc = CPIM_ERR_NOMEM;
            break;
        }
        if (used > s->stage_hi)
            s->stage_hi = used;
        p.stage = s->stage;
        p.results = s->results;
        cpim_pim_round r = {SHA_XSTR(SHA_JOB_SYM), p.jobs, sizeof *p.jobs, s->to, s->from,
                            cpim_pim_sha_prepare,  &p,     NULL,           NULL,  0};
        rc = cpim_pim_machine_round(s->m, &r, &t);
        if (rc != CPIM_OK)
            break;
        cpim_pim_sha_collect(&p, pos, digests);
        /* drop the finished messages from the to-do list: O(messages) (a
         * scan of the round's segments per message was quadratic, 1.7 G
         * steps at 40 ranks x 1024 messages) */
        size_t w = 0;
        for (size_t k = 0; k < ntodo; k++)
            if (pos[todo[k]] != UINT64_MAX)
                todo[w++] = todo[k];
        ntodo = w;
    }
out:
    if (rc == CPIM_OK && s->timing_only) {
        if (digests)
            memset(digests, 0, count * sizeof *digests); /* not all were computed */
        rc = CPIM_ERR_TIMING_ONLY;
    }
    if (rc == CPIM_OK && h)
        for (size_t i = 0; i < count; i++)
            if (lens[i])
                memcpy(h[i], p.chain[i], sizeof p.chain[i]);
    if (rc != CPIM_OK && rc != CPIM_ERR_TIMING_ONLY)
        cpim_pim_machine_reset(s->m);
    free(pos);
    free(todo);
    cpim_pim_sha_plan_free(&p);
    cpim_pim_clocks_stop(s->m, &clk, &t, st);
    return rc;
}

cpim_err cpim_pim_sha(void *state, const uint8_t *const *msgs, const size_t *lens, size_t count,
                      uint8_t (*digests)[32], cpim_stats *st)
{
    return sha_run(state, msgs, lens, count, digests, NULL, st);
}

/* see backend.h (sha256_blocks): the blocks become messages of nblocks[i] *
 * 64 bytes in sha_run's chaining mode, so they take the same rounds, MRAM
 * budget and direct pushes as whole messages. */
cpim_err cpim_pim_sha_blocks(void *state, uint32_t *const *h, const uint8_t *const *p,
                             const size_t *nblocks, size_t count, cpim_stats *st)
{
    struct cpim_pim_state *s = state;
    size_t *lens = cpim_pim_malloc(&s->faults, (count ? count : 1) * sizeof *lens);
    if (!lens)
        return CPIM_ERR_NOMEM;
    for (size_t i = 0; i < count; i++)
        lens[i] = nblocks[i] * 64u;
    cpim_err rc = sha_run(s, p, lens, count, NULL, h, st);
    free(lens);
    return rc;
}
