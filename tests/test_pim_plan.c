/*
 * test_pim_plan.c -- the pim backend's planning (src/pim/plan.c) without any
 * DPU: the AES split over DPUs and rounds, the 128-bit counter, and the
 * SHA-256 segments, MRAM layout and staged images, on seeded random sizes
 * that do not divide evenly.
 */
#include <stdlib.h>
#include <string.h>

#include "aes_args.h"
#include "pim_internal.h"
#include "sha256_args.h"
#include "test.h"

TEST(pim_plan_ctr_add)
{
    uint32_t c[4] = {0, 0xffffffffu, 0xffffffffu, 0xfffffffeu};
    cpim_pim_ctr_add(c, 3);
    CHECK(c[0] == 1 && c[1] == 0 && c[2] == 0 && c[3] == 1, "carry into the top word: %x %x %x %x",
          c[0], c[1], c[2], c[3]);
    uint32_t d[4] = {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu};
    cpim_pim_ctr_add(d, 1);
    CHECK(!d[0] && !d[1] && !d[2] && !d[3], "wraps mod 2^128");
    uint32_t e[4] = {0, 0, 1, 2};
    cpim_pim_ctr_add(e, 0x100000003ull);
    CHECK(e[2] == 2 && e[3] == 5, "a 64-bit step: %x %x", e[2], e[3]);
}

/* Every block of every round is given to exactly one DPU, in order, with
 * q or q + 1 blocks each (the remainder first), its counter, and the
 * partial final block flagged for a bounce. */
TEST(pim_plan_aes_split)
{
    uint64_t seed = 11;
    for (int iter = 0; iter < 300; iter++) {
        uint32_t nd = 1 + (uint32_t)(test_rand(&seed) % 70);
        size_t len = (size_t)(test_rand(&seed) % 70000);
        if (iter % 3 == 0)
            len &= ~(size_t)15;
        uint64_t total = (len + 15) / 16;
        uint64_t per_round = 1 + test_rand(&seed) % (total + 1);
        uint8_t *in = (uint8_t *)(uintptr_t)0x10000, *out = (uint8_t *)(uintptr_t)0x900000;
        const uint32_t ctr0[4] = {1, 2, 0xffffffffu, 0xfffffff0u};
        struct aes_job_args *jobs = calloc(nd, sizeof *jobs);
        cpim_pim_piece *to = calloc((size_t)nd * PIM_PIECES, sizeof *to),
                       *from = calloc(nd, sizeof *from);
        int bounces = 0;
        for (uint64_t done = 0; done < total; done += per_round) {
            uint64_t nb = total - done < per_round ? total - done : per_round;
            uint32_t bd = cpim_pim_aes_split(nd, done, nb, len, in, out, ctr0, jobs, to, from);
            uint64_t blk = done;
            for (uint32_t i = 0; i < nd; i++) {
                uint32_t want = (uint32_t)(nb / nd) + (i < nb % nd);
                CHECK(jobs[i].nbytes == want * 16, "nd %u len %zu: DPU %u has %u bytes, want %u",
                      nd, len, i, jobs[i].nbytes, want * 16);
                CHECK(to[(size_t)i * PIM_PIECES].ptr == in + blk * 16 &&
                          from[i].ptr == out + blk * 16 && from[i].len == want * 16 &&
                          !to[(size_t)i * PIM_PIECES + 1].len &&
                          !to[(size_t)i * PIM_PIECES + 2].len,
                      "DPU %u's pieces", i);
                uint32_t c[4] = {ctr0[0], ctr0[1], ctr0[2], ctr0[3]};
                cpim_pim_ctr_add(c, blk);
                CHECK(!memcmp(c, jobs[i].ctr, sizeof c), "DPU %u's counter", i);
                int partial = want && (blk + want) * 16 > len;
                CHECK(partial == (bd == i), "nd %u len %zu: bounce DPU %u, DPU %u partial %d", nd,
                      len, bd, i, partial);
                bounces += partial;
                blk += want;
            }
            CHECK(blk == done + nb, "round covers %llu blocks, want %llu",
                  (unsigned long long)(blk - done), (unsigned long long)nb);
        }
        CHECK(bounces == (len % 16 != 0), "len %zu: %d bounces", len, bounces);
        free(jobs);
        free(to);
        free(from);
    }
}

/* Runs the SHA-256 planner to completion over a random batch as the
 * backend does, checking each round: every unfinished message gets its
 * next segment once; segments are multiples of 64 until the final one;
 * each DPU's data and table fit its budget; its table and (staged DPUs)
 * image hold exactly the message bytes at the offsets the table gives. */
static void sha_plan_case(uint64_t seed, uint32_t nd, uint32_t budget, int contiguous,
                          uint64_t direct_min)
{
    size_t count = 1 + (size_t)(test_rand(&seed) % 60);
    size_t *lens = calloc(count, sizeof *lens);
    const uint8_t **msgs = calloc(count, sizeof *msgs);
    size_t total = 0;
    for (size_t i = 0; i < count; i++) {
        uint64_t r = test_rand(&seed);
        lens[i] = r % 5 == 0 ? 0 : (size_t)(r % 3 == 0 ? r % (3 * budget) : r % 300);
        total += lens[i];
    }
    uint8_t *buf = malloc(total + 1);
    test_fill(&seed, buf, total);
    for (size_t i = 0, off = 0; i < count; off += lens[i], i++)
        msgs[i] = contiguous ? buf + off
                  : lens[i]  ? memcpy(malloc(lens[i]), buf + off, lens[i])
                             : NULL;
    cpim_pim_sha_plan p;
    memset(&p, 0, sizeof p);
    uint32_t scope_first = 0, scope_n = nd;
    p.msgs = msgs;
    p.lens = lens;
    p.nd = nd;
    p.budget = budget;
    p.direct_min = direct_min;
    p.threads = 1;
    p.nr_scopes = 1;
    p.scope_first = &scope_first;
    p.scope_n = &scope_n;
    p.to = calloc((size_t)nd * PIM_PIECES, sizeof *p.to);
    p.from = calloc(nd, sizeof *p.from);
    CHECK(cpim_pim_sha_plan_alloc(&p, NULL, count) == CPIM_OK, "plan alloc");
    uint64_t *pos = calloc(count, sizeof *pos);
    size_t *todo = malloc(count * sizeof *todo), ntodo = count;
    for (size_t i = 0; i < count; i++)
        todo[i] = i;
    uint8_t(*dig)[32] = calloc(count, 32);
    const uint32_t seg_max = cpim_pim_sha_seg_max(budget);
    int rounds = 0;
    while (ntodo && rounds++ < 1000) {
        size_t used, res;
        cpim_pim_sha_plan_round(&p, todo, ntodo, pos, &used, &res);
        p.stage = calloc(used ? used : 1, 1);
        p.results = calloc(res ? res : 1, 1);
        cpim_pim_sha_prepare(&p, 0, nd);
        size_t seen = 0;
        for (uint32_t d = 0; d < nd; d++) {
            uint32_t data = 0;
            for (uint32_t k = 0; k < p.cnt[d]; k++) {
                const cpim_pim_sha_seg *g = &p.segs[p.first[d] + k];
                uint64_t left = lens[g->msg] - pos[g->msg];
                CHECK(g->prior == pos[g->msg], "segment starts at %llu, message at %llu",
                      (unsigned long long)g->prior, (unsigned long long)pos[g->msg]);
                CHECK(g->len <= seg_max &&
                          (g->len == left ? (g->flags & SHA_F_FINAL) != 0
                                          : g->len % 64 == 0 && !(g->flags & SHA_F_FINAL)),
                      "segment %u of %llu left, flags %u", g->len, (unsigned long long)left,
                      g->flags);
                CHECK((g->flags & SHA_F_CONT) == (g->prior ? SHA_F_CONT : 0u),
                      "CONT flag %u with %llu bytes before", g->flags,
                      (unsigned long long)g->prior);
                /* the DPU's table entry (staged piece or image) */
                const cpim_pim_piece *t = &p.to[(size_t)d * PIM_PIECES];
                const uint8_t *table = NULL, *image = NULL;
                if (p.run[d]) {
                    table = (const uint8_t *)t[2].ptr + ((p.run[d] & 7u) ? 8 : 0);
                } else {
                    image = (const uint8_t *)t[0].ptr - p.base;
                    table = image + p.slots + p.dlen[d];
                }
                struct sha_msg m;
                memcpy(&m, table + k * sizeof m, sizeof m);
                CHECK(m.offset == p.slots + data && m.length == g->len && m.flags == g->flags,
                      "table entry %u of DPU %u", k, d);
                if (image && g->len)
                    CHECK(!memcmp(image + m.offset, msgs[g->msg] + g->prior, g->len),
                          "staged bytes of DPU %u segment %u", d, k);
                data += (g->len + 7u) & ~7u;
                seen++;
            }
            /* data, table and result slots within the budget; the slots
             * area (the most segments on any DPU) is below it too, so
             * a DPU's MRAM stays under twice the budget */
            CHECK(data + 56u * p.cnt[d] <= budget && p.slots <= budget,
                  "DPU %u: %u data bytes, %u segments, %u slot bytes: over budget %u", d, data,
                  p.cnt[d], p.slots, budget);
        }
        CHECK(seen >= 1 && seen <= ntodo, "round planned %zu segments for %zu messages", seen,
              ntodo);
        /* pretend the DPUs hashed: collect advances pos */
        cpim_pim_sha_collect(&p, pos, dig);
        size_t w = 0;
        for (size_t k = 0; k < ntodo; k++)
            if (pos[todo[k]] != UINT64_MAX)
                todo[w++] = todo[k];
        ntodo = w;
        free(p.stage);
        free(p.results);
    }
    CHECK(ntodo == 0, "%zu messages never finished (%d rounds)", ntodo, rounds);
    cpim_pim_sha_plan_free(&p);
    if (!contiguous)
        for (size_t i = 0; i < count; i++)
            free((void *)msgs[i]);
    free(p.to);
    free(p.from);
    free(pos);
    free(todo);
    free(dig);
    free(buf);
    free(lens);
    free(msgs);
}

TEST(pim_plan_sha_staged)
{
    for (uint64_t s = 1; s <= 40; s++)
        sha_plan_case(s, 1 + (uint32_t)(s % 9), 1024u << (s % 3), 0, 1u << 20);
}

TEST(pim_plan_sha_direct)
{
    for (uint64_t s = 100; s <= 140; s++)
        sha_plan_case(s, 1 + (uint32_t)(s % 7), 2048u << (s % 2), 1, 0);
}

#ifdef CPIM_VIRTUAL_UPMEM
#include "pim_state.h"

/* On the virtual UPMEM the backend's own kernels run with the DMA and
 * stopped-tasklet rules strict (a breach is a bug of ours: a fault, not
 * the hardware's lenient answer); the keys come first, so the caller's
 * profile still overrides them, and the backend's own keys are taken out. */
TEST(pim_profile_strict_rules_first)
{
    struct cpim_pim_state s;
    memset(&s, 0, sizeof s);
    char *out = NULL;
    CHECK(cpim_pim_parse_profile(&s, "mramBudget=4096,dmaRules=warn", &out) == CPIM_OK, "parse");
    if (out) {
        const char *want = "dmaRules=strict,stopRules=strict,dmaRules=warn,hostTime=real";
        CHECK(strcmp(out, want) == 0, "profile \"%s\", want \"%s\"", out, want);
        CHECK(s.budget == 4096, "mramBudget %u", s.budget);
    }
    free(out);
    out = NULL;
    CHECK(cpim_pim_parse_profile(&s, NULL, &out) == CPIM_OK && out &&
              strcmp(out, "dmaRules=strict,stopRules=strict,hostTime=real") == 0,
          "no profile: \"%s\"", out ? out : "(null)");
    free(out);
}
#endif
