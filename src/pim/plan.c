/*
 * plan.c -- how the pim backend splits work over DPUs and rounds (see
 * pim_internal.h).  Pure host-memory work: no <dpu.h>, so it is
 * unit-tested without any DPU (tests/test_pim_plan.c).
 *
 * AES: the buffer is split by 16-byte blocks, DPU i taking q or q + 1
 * blocks (the remainder spread over the first DPUs, never dropped), pushed
 * straight from / to the caller's buffers; only the DPU holding a final
 * partial CTR block goes through a bounce buffer.  CTR: DPU i's counter is
 * the caller's counter + the index of its first block (128-bit).
 *
 * SHA-256: messages are balanced over the DPUs by bytes; a message longer
 * than the budget is hashed in 64-byte-multiple segments over successive
 * rounds, its chaining value carried by the host.  A DPU whose segments are
 * one contiguous run of the caller's memory (a batch in one buffer, or one
 * long message) gets its data pushed straight from there, plus a small
 * staged piece (the run's last bytes short of 8, the message table); the
 * others are copied into per-DPU staging images.
 *
 * One round.  Every DPU's MRAM (offsets from the heap pointer, multiples of
 * 8; sha256_args.h):
 *
 *   [0, S)             state slots, S = max_n x 32 on every DPU (so one
 *                      push gathers all results)
 *   [S, S + D)         its segments, each 8-aligned (D = sum of round8(len))
 *   [S + D, + 24 x n)  its message table
 *
 * A *direct* DPU's segments are one contiguous run of T bytes in the
 * caller's memory, each but the last a multiple of 8 long, so the run is
 * exactly the data area: [S, S + floor8(T)) is pushed straight from the
 * caller's buffer (push_xfer needs multiples of 8 and must not read past the
 * run), and one small staged piece holds the run's last T mod 8 bytes in an
 * 8-byte tail (the DPU ignores the rest of it) followed by the table; plus
 * the slots piece when a segment continues a message.  A *staged* DPU's
 * image [base, base + stage_len) is copied into staging and pushed whole,
 * with the same length for all staged DPUs (one push call).
 */
#include <stdlib.h>
#include <string.h>

#include "aes_args.h"
#include "parallel.h"
#include "pim_internal.h"
#include "sha256_args.h"

/* ---- AES ------------------------------------------------------------------- */

void cpim_pim_ctr_add(uint32_t c[4], uint64_t n)
{
    uint64_t acc = (uint64_t)c[3] + (n & 0xffffffffu);
    c[3] = (uint32_t)acc;
    acc = (acc >> 32) + c[2] + (n >> 32);
    c[2] = (uint32_t)acc;
    acc = (acc >> 32) + c[1];
    c[1] = (uint32_t)acc;
    c[0] += (uint32_t)(acc >> 32);
}

uint32_t cpim_pim_aes_split(uint32_t nd, uint64_t done, uint64_t nb, size_t len, const uint8_t *in,
                            uint8_t *out, const uint32_t ctr0[4], struct aes_job_args *jobs,
                            cpim_pim_piece *to, cpim_pim_piece *from)
{
    uint32_t q = (uint32_t)(nb / nd), rem = (uint32_t)(nb % nd);
    uint32_t bounce = UINT32_MAX;
    uint64_t blk = done;
    for (uint32_t i = 0; i < nd; i++) {
        uint32_t b = q + (i < rem);
        size_t off = (size_t)blk * 16;
        jobs[i].nbytes = b * 16;
        memcpy(jobs[i].ctr, ctr0, sizeof jobs[i].ctr);
        cpim_pim_ctr_add(jobs[i].ctr, blk);
        cpim_pim_piece *t = &to[(size_t)i * PIM_PIECES];
        memset(t, 0, PIM_PIECES * sizeof *t);
        t[0] = (cpim_pim_piece){(void *)(uintptr_t)(in + off), 0, b * 16};
        from[i] = (cpim_pim_piece){out + off, 0, b * 16};
        if (b && off + (size_t)b * 16 > len)
            bounce = i; /* the final partial CTR block */
        blk += b;
    }
    return bounce;
}

/* ---- SHA-256 ------------------------------------------------------------------ */

/* A rank's staged copies are split over host threads from this size on
 * (thread start-up is ~0.1 ms).  On the virtual UPMEM with hostClock=thread
 * only the calling thread's share is counted as host work (it blocks while
 * the others finish): right when the threads really run in parallel. */
#define PAR_COPY_MIN_BYTES (4u << 20)

static inline uint32_t round8(uint32_t x)
{
    return (x + 7u) & ~7u;
}

static inline const uint8_t *seg_src(const cpim_pim_sha_plan *p, const cpim_pim_sha_seg *g)
{
    return p->msgs[g->msg] + g->prior;
}

uint32_t cpim_pim_sha_seg_max(uint32_t budget)
{
    return (budget - 64u) & ~63u;
}

cpim_err cpim_pim_sha_plan_alloc(cpim_pim_sha_plan *p, cpim_pim_faults *f, size_t count)
{
    const uint32_t nd = p->nd, seg_max = cpim_pim_sha_seg_max(p->budget);
    int long_msgs = p->blocks; /* chaining values in and out */
    for (size_t i = 0; i < count; i++)
        long_msgs |= p->lens[i] > seg_max;
    p->segs = cpim_pim_malloc(f, count * sizeof *p->segs);
    p->first = cpim_pim_calloc(f, nd, sizeof *p->first);
    p->cnt = cpim_pim_calloc(f, nd, sizeof *p->cnt);
    p->dlen = cpim_pim_calloc(f, nd, sizeof *p->dlen);
    p->run = cpim_pim_calloc(f, nd, sizeof *p->run);
    p->cont = cpim_pim_calloc(f, nd, sizeof *p->cont);
    p->img = cpim_pim_calloc(f, nd, sizeof *p->img);
    p->tmp = cpim_pim_malloc(f, nd * sizeof *p->tmp);
    p->jobs = cpim_pim_calloc(f, nd, sizeof *p->jobs);
    p->chain = long_msgs ? cpim_pim_malloc(f, count * sizeof *p->chain) : NULL;
    if (!p->segs || !p->first || !p->cnt || !p->dlen || !p->run || !p->cont || !p->img || !p->tmp ||
        !p->jobs || (long_msgs && !p->chain)) {
        cpim_pim_sha_plan_free(p);
        return CPIM_ERR_NOMEM;
    }
    return CPIM_OK;
}

void cpim_pim_sha_plan_free(cpim_pim_sha_plan *p)
{
    free(p->segs);
    free(p->first);
    free(p->cnt);
    free(p->dlen);
    free(p->run);
    free(p->cont);
    free(p->img);
    free(p->tmp);
    free(p->jobs);
    free(p->chain);
    p->segs = NULL;
    p->first = p->cnt = p->dlen = p->run = NULL;
    p->cont = NULL;
    p->img = NULL;
    p->tmp = NULL;
    p->jobs = NULL;
    p->chain = NULL;
}

/* Per DPU: D, whether a segment continues a message, and T if its
 * segments are one contiguous run of the caller's memory (else 0). */
static void sha_layout(cpim_pim_sha_plan *p, uint32_t d)
{
    uint32_t D = 0, T = 0;
    int contiguous = 1;
    uint8_t cont = 0;
    const uint8_t *next = NULL;
    for (uint32_t k = 0; k < p->cnt[d]; k++) {
        const cpim_pim_sha_seg *g = &p->segs[p->first[d] + k];
        cont |= (g->flags & SHA_F_CONT) != 0;
        D += round8(g->len);
        if (!g->len)
            continue; /* no bytes (its pointer may be NULL) */
        const uint8_t *src = seg_src(p, g);
        /* T % 8: the run so far must be whole 8-byte words */
        if (next && (src != next || T % 8u))
            contiguous = 0;
        next = src + g->len;
        T += g->len;
    }
    p->dlen[d] = D;
    p->cont[d] = cont;
    p->run[d] = contiguous ? T : 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Keeps the direct candidates of DPUs [first, first + n) (one push scope)
 * whose group of equal floor8(T) avoids copying at least directMin bytes;
 * the others are staged.  A group of direct DPUs costs up to two push calls
 * more than staging them (the one push of all staged images), ~0.1 ms of
 * fixed cost each (perf-facts P23), about the time one host core takes to
 * copy 1 MiB (the default).  O(n log n). */
static void sha_choose_direct(cpim_pim_sha_plan *p, uint32_t first, uint32_t n)
{
    size_t m = 0;
    for (uint32_t d = first; d < first + n; d++) {
        if (p->run[d] >= 8u)
            p->tmp[m++] = (uint64_t)(p->run[d] & ~7u) << 32 | d;
        else
            p->run[d] = 0;
    }
    qsort(p->tmp, m, sizeof *p->tmp, cmp_u64);
    for (size_t a = 0, b; a < m; a = b) {
        uint64_t f = p->tmp[a] >> 32;
        for (b = a; b < m && p->tmp[b] >> 32 == f; b++)
            ;
        if (f * (b - a) < p->direct_min)
            for (size_t k = a; k < b; k++)
                p->run[(uint32_t)p->tmp[k]] = 0;
    }
}

void cpim_pim_sha_plan_round(cpim_pim_sha_plan *p, const size_t *todo, size_t ntodo,
                             const uint64_t *pos, size_t *stage_bytes, size_t *result_bytes)
{
    const uint32_t nd = p->nd, seg_max = cpim_pim_sha_seg_max(p->budget);
    /* Next segment of each unfinished message, next-fit over the DPUs with
     * a target of an equal share of the round's bytes. */
    uint64_t want = 0;
    for (size_t k = 0; k < ntodo; k++) {
        uint64_t left = p->lens[todo[k]] - pos[todo[k]];
        want += (left > seg_max ? seg_max : left) + 56u;
    }
    uint64_t target = (want + nd - 1) / nd;
    if (target > p->budget)
        target = p->budget;
    uint32_t d = 0, nseg = 0, data = 0;
    p->max_n = 0;
    memset(p->cnt, 0, nd * sizeof *p->cnt);
    p->first[0] = 0;
    for (size_t k = 0; k < ntodo && d < nd; k++) {
        size_t m = todo[k];
        uint64_t left = p->lens[m] - pos[m];
        uint32_t len = (uint32_t)(left > seg_max ? seg_max : left);
        /* a segment costs its bytes plus its table entry (24) and result
         * slot (32); the whole DPU must stay within the budget (empty
         * messages cost no data bytes: counting only data let one DPU take
         * any number of them, past its MRAM) */
        uint32_t cost = round8(len) + 56u;
        if (p->cnt[d] && data + 56u * p->cnt[d] + cost > p->budget) {
            if (++d == nd)
                break;
            p->first[d] = nseg, data = 0;
        }
        cpim_pim_sha_seg *g = &p->segs[nseg++];
        g->msg = m;
        g->prior = pos[m];
        g->len = len;
        g->flags =
            p->blocks ? SHA_F_CONT : (len == left ? SHA_F_FINAL : 0) | (pos[m] ? SHA_F_CONT : 0);
        p->cnt[d]++;
        data += round8(len);
        if (p->cnt[d] > p->max_n)
            p->max_n = p->cnt[d];
        if (data + 56u * p->cnt[d] >= target && d + 1 < nd)
            p->first[++d] = nseg, data = 0;
    }
    for (uint32_t e = d + 1; e < nd; e++)
        p->first[e] = nseg;

    /* Layout: direct or staged per DPU, per push scope; then the staging
     * regions. */
    p->slots = p->max_n * 32u;
    int any_cont = 0;
    for (uint32_t e = 0; e < nd; e++) {
        sha_layout(p, e);
        any_cont |= p->cont[e];
    }
    for (uint32_t k = 0; k < p->nr_scopes; k++)
        sha_choose_direct(p, p->scope_first[k], p->scope_n[k]);
    uint32_t dmax = 0;
    for (uint32_t e = 0; e < nd; e++)
        if (p->cnt[e] && !p->run[e] && p->dlen[e] > dmax)
            dmax = p->dlen[e];
    p->base = any_cont ? 0 : p->slots;
    p->stage_len = p->slots - p->base + dmax + 24u * p->max_n;
    size_t used = 0;
    for (uint32_t e = 0; e < nd; e++) {
        p->img[e] = used;
        if (!p->cnt[e])
            continue;
        if (p->run[e])
            used += (p->cont[e] ? p->slots : 0) + ((p->run[e] & 7u) ? 8u : 0u) + 24u * p->cnt[e];
        else
            used += p->stage_len;
    }
    *stage_bytes = used;
    *result_bytes = (size_t)nd * p->slots;
}

/* Job arguments, pieces and staged bytes of DPU d. */
static void sha_prepare_dpu(cpim_pim_sha_plan *p, uint32_t d)
{
    cpim_pim_piece *to = &p->to[(size_t)d * PIM_PIECES];
    memset(to, 0, PIM_PIECES * sizeof *to);
    struct sha_job_args *j = &p->jobs[d];
    j->nmsgs = p->cnt[d];
    j->state_off = 0;
    j->table_off = p->slots + p->dlen[d];
    j->pad = 0;
    p->from[d] = (cpim_pim_piece){NULL, 0, 0};
    if (!p->cnt[d])
        return;
    p->from[d] = (cpim_pim_piece){p->results + (size_t)d * p->slots, 0, p->slots};
    uint8_t *region = p->stage + p->img[d], *slots = region, *table, *data = NULL;
    if (p->run[d]) {
        const uint8_t *src = NULL;
        for (uint32_t k = 0; k < p->cnt[d] && !src; k++) {
            const cpim_pim_sha_seg *g = &p->segs[p->first[d] + k];
            if (g->len)
                src = seg_src(p, g);
        }
        uint32_t whole = p->run[d] & ~7u, tail = p->run[d] & 7u;
        uint8_t *tt = region + (p->cont[d] ? p->slots : 0);
        if (p->cont[d])
            to[0] = (cpim_pim_piece){region, 0, p->slots};
        to[1] = (cpim_pim_piece){(void *)(uintptr_t)src, p->slots, whole};
        to[2] = (cpim_pim_piece){tt, p->slots + whole, (tail ? 8u : 0u) + 24u * p->cnt[d]};
        if (tail)
            memcpy(tt, src + whole, tail);
        table = tt + (tail ? 8u : 0u);
    } else {
        /* region holds MRAM [base, base + stage_len); base is 0 if any
         * segment of the round continues a message (slots written) */
        to[0] = (cpim_pim_piece){region, p->base, p->stage_len};
        data = region + (p->slots - p->base);
        table = data + p->dlen[d];
    }
    uint32_t off = 0;
    for (uint32_t k = 0; k < p->cnt[d]; k++) {
        const cpim_pim_sha_seg *g = &p->segs[p->first[d] + k];
        struct sha_msg m = {p->slots + off, g->len, g->flags, 0, g->prior};
        if (g->flags & SHA_F_CONT)
            memcpy(slots + 32u * k, p->chain[g->msg], 32);
        memcpy(table + k * sizeof m, &m, sizeof m);
        if (data && g->len)
            memcpy(data + off, seg_src(p, g), g->len);
        off += round8(g->len);
    }
}

struct sha_range {
    cpim_pim_sha_plan *p;
    uint32_t first;
};

static void sha_prepare_range(void *arg, size_t begin, size_t end)
{
    const struct sha_range *r = arg;
    for (size_t i = begin; i < end; i++)
        sha_prepare_dpu(r->p, r->first + (uint32_t)i);
}

/* Builds the MRAM images of DPUs [first, first + n) (the "prepare the data
 * for the next rank" step of the study's Algorithm 2: in the asynchronous
 * modes it overlaps the earlier ranks' transfers and kernels). */
void cpim_pim_sha_prepare(void *plan, uint32_t first, uint32_t n)
{
    cpim_pim_sha_plan *p = plan;
    uint64_t staged = 0;
    for (uint32_t d = first; d < first + n; d++)
        if (p->cnt[d] && !p->run[d])
            staged += p->stage_len;
    struct sha_range r = {p, first};
    /* cpim_parallel_for finishes the work in the caller if a thread cannot
     * start, so its status needs no handling */
    (void)cpim_parallel_for(staged >= PAR_COPY_MIN_BYTES ? p->threads : 1u, n, 1, sha_prepare_range,
                            &r);
}

void cpim_pim_sha_collect(const cpim_pim_sha_plan *p, uint64_t *pos, uint8_t (*digests)[32])
{
    for (uint32_t e = 0; e < p->nd; e++)
        for (uint32_t k = 0; k < p->cnt[e]; k++) {
            const cpim_pim_sha_seg *g = &p->segs[p->first[e] + k];
            const uint8_t *res = p->results + (size_t)e * p->slots + 32u * k;
            if (g->flags & SHA_F_FINAL) {
                memcpy(digests[g->msg], res, 32);
                pos[g->msg] = UINT64_MAX; /* finished (pos is not read again) */
            } else {
                memcpy(p->chain[g->msg], res, 32);
                pos[g->msg] += g->len;
                if (p->blocks && pos[g->msg] == p->lens[g->msg])
                    pos[g->msg] = UINT64_MAX; /* its blocks are done: chain holds h */
            }
        }
}
