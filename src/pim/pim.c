/*
 * pim.c -- the `pim` backend: AES and SHA-256 on UPMEM DPUs through the
 * UPMEM host API (<dpu.h>) only, so the same code runs on real hardware and
 * on the built-in virtual UPMEM (see backend.h for the vtable contract, the
 * DPU programs and their contracts in dpu/).
 *
 * One call = one or more *rounds*; a round gives every DPU at most `budget`
 * bytes of MRAM work (default 32 MiB of the 64 MiB bank), so inputs larger
 * than the allocated MRAM stream through.  Each round runs in the mode of
 * the context (the CryptoPIM study's Algorithms 1 and 2):
 *
 *   sync        push jobs + data to all DPUs, launch all (synchronous),
 *               gather all;
 *   async-xfer  (PIM #1) per rank: prepare its data, then queue its
 *               transfer, launch and gather asynchronously and go on to the
 *               next rank; dpu_sync at the end;
 *   async-exec  (PIM #2) per rank: prepare, synchronous transfer,
 *               asynchronous launch, next rank; dpu_sync, then gather all.
 *
 * AES: key expansion on the host (src/crypto), round keys broadcast; the
 * buffer is split by 16-byte blocks, DPU i taking q or q + 1 blocks (the
 * remainder spread over the first DPUs, never dropped).  push_xfer moves one
 * length to every DPU of a call, so DPUs are pushed in groups of equal
 * length, straight from / to the caller's buffers; only the DPU holding a
 * final partial CTR block goes through a bounce buffer.  CTR: DPU i's
 * counter is the caller's counter + the index of its first block (128-bit).
 *
 * SHA-256: messages are balanced over the DPUs by bytes; a message longer
 * than the budget is hashed in 64-byte-multiple segments over successive
 * rounds, its chaining value carried by the host.  A DPU whose segments are
 * one contiguous run of the caller's memory (a batch in one buffer, or one
 * long message) gets its data pushed straight from there, plus a small
 * staged piece (the run's last bytes short of 8, the message table); the
 * others are copied into per-DPU staging images (see struct sha_plan).
 * Staging is kept in the backend state across rounds and calls, each rank's
 * part is prepared while the earlier ranks transfer and compute (async
 * modes), and large copies are split over host threads.
 *
 * Profile: cpim_options.profile is passed to dpu_alloc, minus this
 * backend's own keys `mramBudget=BYTES` (per-DPU bytes per round; small
 * values let tests exercise many rounds cheaply) and `directMin=BYTES`
 * (SHA-256: the least bytes a group of DPUs must avoid copying to be pushed
 * straight from the caller's buffers; default 1 MiB, 0 lets tests push
 * every contiguous run directly).  The virtual UPMEM's `sampleDpus` (time
 * one DPU per rank, skip the others) only with cpim_options.timing_only:
 * then the virtual UPMEM refuses reads of the skipped DPUs, the call runs
 * to the end for its timings, and its output is zeroed and never returned.
 *
 * Keys on the DPUs: the round keys are broadcast before every launch and
 * the AES kernel wipes them from WRAM when it ends (with its CTR
 * keystream); when a call does not end with every DPU having run to
 * completion (a fault, a timing-only run) the host overwrites them with
 * zeros, and again at close.
 *
 * Times: measured phases are the host time spent in each phase's calls (in
 * the asynchronous modes they overlap, so only the total is a duration); on
 * the virtual UPMEM the modeled phases come from dpu_emu.h.
 */
#include <dpu.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef DPU_EMU
#include <dpu_emu.h>
#endif

#include "aes.h"
#include "aes_args.h"
#include "backend.h"
#include "cryptopim.h"
#include "parallel.h"
#include "sha256_args.h"
#include "timing.h"

#ifndef CPIM_DPU_DIR
#define CPIM_DPU_DIR "build/dpu"
#endif

#define DEFAULT_BUDGET   (32u << 20)
#define DEFAULT_TASKLETS 16u

/* Direct pushes (see sha_plan) pay off when the DPUs sharing a push avoid
 * copying at least this many bytes together: a group of direct DPUs costs
 * up to two push calls more than staging them (the one push of all staged
 * images), ~0.1 ms of fixed cost each (perf-facts P23), about the time one
 * host core takes to copy 1 MiB. */
#define DIRECT_MIN_BYTES (1u << 20) /* default of the profile key directMin */

enum { PROG_NONE = 0, PROG_AES, PROG_SHA };

/* One host buffer <-> one MRAM range (from the heap pointer) of one DPU;
 * len 0 = no piece.  A DPU's pieces are disjoint. */
struct piece {
    void *ptr;
    uint32_t off, len;
};

#define PIECES 3u

struct pim_state {
    struct dpu_set_t set;
    uint32_t nr_dpus, nr_ranks, tasklets;
    cpim_pim_mode mode;
    struct dpu_set_t *ranks; /* per rank: its set, first global DPU index, count */
    uint32_t *rank_first, *rank_n;
    uint32_t budget;
    uint64_t direct_min; /* profile key directMin (see sha_choose_direct) */
    int loaded;
    char dir[512];
    cpc_aes_ks ek, dk;
    int has_key;
    int key_on_dpus;  /* round keys may be in the DPUs' WRAM (see wipe_dpu_key) */
    int timing_only;  /* cpim_options.timing_only */
    unsigned threads; /* host threads for bulk copies (cpim_options.threads) */
    /* per round (reused): per-DPU transfer plan, PIECES pieces per DPU */
    struct piece *to, *from;
    /* SHA-256 staging (images, or headers and tails) and results: kept
     * across rounds and calls, grown on demand */
    uint8_t *stage, *results;
    size_t stage_cap, results_cap;
    size_t stage_hi; /* bytes of stage ever written (wiped before it is freed) */
};

/* ---- errors and small helpers ---------------------------------------------- */

static cpim_err map_err(dpu_error_t e)
{
    unsigned code = (unsigned)e & 0xffffu;
    if (e == DPU_OK)
        return CPIM_OK;
    if (code == DPU_ERR_DPU_FAULT)
        return CPIM_ERR_PIM_FAULT;
    if (code == DPU_ERR_ALLOCATION)
        return CPIM_ERR_PIM_ALLOC;
    return CPIM_ERR_PIM;
}

/* map_err, except that in a timing-only run the virtual UPMEM's refusal to
 * read a DPU it did not simulate is expected (those outputs are discarded):
 * the call goes on so that every transfer is timed. */
static cpim_err status(const struct pim_state *s, dpu_error_t e)
{
#ifdef DPU_EMU
    if (s->timing_only && ((unsigned)e & 0xffffu) == DPU_ERR_EMU_NOT_SIMULATED)
        return CPIM_OK;
#else
    (void)s;
#endif
    return map_err(e);
}

#define TRY(s, call)                                                                               \
    do {                                                                                           \
        cpim_err c_ = status((s), (call));                                                         \
        if (c_ != CPIM_OK)                                                                         \
            return c_;                                                                             \
    } while (0)

static void prog_path(const struct pim_state *s, int prog, char *out, size_t cap)
{
    snprintf(out, cap, "%s/%s-t%u", s->dir, prog == PROG_AES ? "aes" : "sha256", s->tasklets);
}

static int pim_available(const char **why)
{
    if (access(CPIM_DPU_DIR "/aes-t16", R_OK) != 0 || access(CPIM_DPU_DIR "/sha256-t16", R_OK)) {
        *why = "DPU programs not built (make dpu)";
        return 0;
    }
    return 1;
}

/* The profile added for a timing-only run that sets no sampleDpus. */
#define TIMING_ONLY_PROFILE "sampleDpus=1"

/* Splits "a=b,mramBudget=N,directMin=M,c=d" into the UPMEM profile (out)
 * and this backend's keys; checks sampleDpus against timing_only (see
 * cpim_options).  Reentrant: contexts may be opened from many threads. */
static cpim_err parse_profile(const char *in, int timing_only, char **out, uint32_t *budget,
                              uint64_t *direct_min)
{
    *budget = DEFAULT_BUDGET;
    *direct_min = DIRECT_MIN_BYTES;
    size_t n = in ? strlen(in) : 0;
    char *p = malloc(n + 1), *o = p ? malloc(n + sizeof "," TIMING_ONLY_PROFILE) : NULL;
    if (!p || !o) {
        free(p);
        return CPIM_ERR_NOMEM;
    }
    memcpy(p, in ? in : "", n + 1);
    o[0] = '\0';
    int sampled = 0;
    char *save = NULL;
    for (char *tok = strtok_r(p, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (strncmp(tok, "sampleDpus=", 11) == 0) {
            if (!timing_only) { /* it would leave outputs uncomputed */
                free(p);
                free(o);
                return CPIM_ERR_INVALID_ARG;
            }
            sampled = 1;
        }
        if (strncmp(tok, "mramBudget=", 11) == 0) {
            char *end;
            unsigned long v = strtoul(tok + 11, &end, 10);
            if (*end || v < 128 || v > AES_MRAM_MAX / 2) {
                free(p);
                free(o);
                return CPIM_ERR_INVALID_ARG;
            }
            *budget = (uint32_t)v & ~63u;
            continue;
        }
        if (strncmp(tok, "directMin=", 10) == 0) {
            char *end;
            unsigned long long v = strtoull(tok + 10, &end, 10);
            if (*end || tok[10] == '\0' || tok[10] == '-') {
                free(p);
                free(o);
                return CPIM_ERR_INVALID_ARG;
            }
            *direct_min = v;
            continue;
        }
        if (o[0])
            strcat(o, ",");
        strcat(o, tok);
    }
#ifdef DPU_EMU
    if (timing_only && !sampled)
        strcat(strcat(o, o[0] ? "," : ""), TIMING_ONLY_PROFILE);
#endif
    free(p);
    *out = o;
    return CPIM_OK;
}

/* ---- open / close ----------------------------------------------------------- */

/* Overwrites the round keys in every DPU's WRAM with zeros (best effort:
 * on a DPU that faulted the write may fail, and nothing more can be done). */
static void wipe_dpu_key(struct pim_state *s)
{
    if (!s->key_on_dpus || s->loaded != PROG_AES)
        return;
    static const struct aes_key_args zero;
    (void)dpu_broadcast_to(s->set, AES_XSTR(AES_KEY_SYM), 0, &zero, sizeof zero, DPU_XFER_DEFAULT);
    s->key_on_dpus = 0;
}

static void pim_close(void *state)
{
    struct pim_state *s = state;
    if (!s)
        return;
    wipe_dpu_key(s);
    if (s->nr_dpus)
        dpu_free(s->set);
    free(s->ranks);
    free(s->rank_first);
    free(s->rank_n);
    free(s->to);
    free(s->from);
    if (s->stage)
        cpim_wipe(s->stage, s->stage_hi); /* message bytes of earlier calls */
    free(s->stage);
    free(s->results);
    cpim_wipe(s, sizeof *s);
    free(s);
}

static cpim_err pim_open(void **state, const cpim_options *opt)
{
    struct pim_state *s = calloc(1, sizeof *s);
    if (!s)
        return CPIM_ERR_NOMEM;
    *state = NULL;
    s->tasklets = opt->tasklets ? opt->tasklets : DEFAULT_TASKLETS;
    s->mode = opt->mode;
    s->threads = opt->threads;
    s->timing_only = opt->timing_only != 0;
    snprintf(s->dir, sizeof s->dir, "%s", opt->dpu_dir ? opt->dpu_dir : CPIM_DPU_DIR);
    char *profile = NULL;
    cpim_err rc = parse_profile(opt->profile, s->timing_only, &profile, &s->budget, &s->direct_min);
    if (rc != CPIM_OK) {
        free(s);
        return rc;
    }
    dpu_error_t e = opt->dpus ? dpu_alloc(opt->dpus, profile, &s->set)
                              : dpu_alloc_ranks(opt->ranks ? opt->ranks : 1, profile, &s->set);
    free(profile);
    if (e != DPU_OK) {
        free(s);
        return (e & 0xffff) == DPU_ERR_INVALID_PROFILE ? CPIM_ERR_INVALID_ARG : CPIM_ERR_PIM_ALLOC;
    }
    rc = CPIM_ERR_PIM;
    if (dpu_get_nr_dpus(s->set, &s->nr_dpus) != DPU_OK ||
        dpu_get_nr_ranks(s->set, &s->nr_ranks) != DPU_OK || s->nr_dpus == 0)
        goto fail;
    rc = CPIM_ERR_NOMEM;
    s->ranks = calloc(s->nr_ranks, sizeof *s->ranks);
    s->rank_first = calloc(s->nr_ranks, sizeof *s->rank_first);
    s->rank_n = calloc(s->nr_ranks, sizeof *s->rank_n);
    s->to = calloc((size_t)s->nr_dpus * PIECES, sizeof *s->to);
    s->from = calloc(s->nr_dpus, sizeof *s->from);
    if (!s->ranks || !s->rank_first || !s->rank_n || !s->to || !s->from)
        goto fail;
    struct dpu_set_t rank;
    uint32_t k, first = 0;
    DPU_RANK_FOREACH (s->set, rank, k) {
        uint32_t n = 0;
        if (k >= s->nr_ranks || dpu_get_nr_dpus(rank, &n) != DPU_OK) {
            rc = CPIM_ERR_PIM;
            goto fail;
        }
        s->ranks[k] = rank;
        s->rank_first[k] = first;
        s->rank_n[k] = n;
        first += n;
    }
    *state = s;
    return CPIM_OK;
fail:
    pim_close(s);
    return rc;
}

static cpim_err load(struct pim_state *s, int prog)
{
    if (s->loaded == prog)
        return CPIM_OK;
    wipe_dpu_key(s); /* a new program's WRAM image may not cover the old key */
    char path[600];
    prog_path(s, prog, path, sizeof path);
    s->loaded = PROG_NONE;
    dpu_error_t e = dpu_load(s->set, path, NULL);
    if (e != DPU_OK)
        return (e & 0xffff) == DPU_ERR_ALLOCATION ? CPIM_ERR_NOMEM : CPIM_ERR_PIM_LOAD;
    s->loaded = prog;
    return CPIM_OK;
}

static cpim_err pim_set_key(void *state, const uint8_t *key, size_t key_len)
{
    struct pim_state *s = state;
    cpim_wipe(&s->ek, sizeof s->ek);
    cpim_wipe(&s->dk, sizeof s->dk);
    s->has_key = 0;
    if (!cpc_aes_expand_enc(&s->ek, key, (uint32_t)key_len))
        return CPIM_ERR_KEY_LENGTH;
    cpc_aes_dec_from_enc(&s->dk, &s->ek);
    s->has_key = 1;
    return CPIM_OK;
}

/* ---- transfers --------------------------------------------------------------- */

/* Pushes the pieces pc[d * per + j] (j < per) of the DPUs d in
 * [first, first + n) that make up `set`: one push_xfer per distinct (offset,
 * length), since push_xfer moves one length at one offset for all DPUs of a
 * call (DPUs without a prepared buffer are skipped).  O(calls x DPUs). */
static cpim_err push_pieces(const struct pim_state *s, struct dpu_set_t set, uint32_t first,
                            dpu_xfer_t dir, const struct piece *pc, unsigned per,
                            dpu_xfer_flags_t flags)
{
    struct dpu_set_t dpu;
    uint32_t i;
    uint64_t below = UINT64_MAX; /* keys (offset:length) are handled largest first */
    for (;;) {
        uint64_t key = 0;
        DPU_FOREACH (set, dpu, i) {
            for (unsigned j = 0; j < per; j++) {
                const struct piece *x = &pc[(size_t)(first + i) * per + j];
                uint64_t k = (uint64_t)x->off << 32 | x->len;
                if (x->len && k < below && k > key)
                    key = k;
            }
        }
        if (key == 0)
            return CPIM_OK;
        DPU_FOREACH (set, dpu, i) {
            for (unsigned j = 0; j < per; j++) {
                const struct piece *x = &pc[(size_t)(first + i) * per + j];
                if (x->len && ((uint64_t)x->off << 32 | x->len) == key)
                    TRY(s, dpu_prepare_xfer(dpu, x->ptr));
            }
        }
        TRY(s, dpu_push_xfer(set, dir, DPU_MRAM_HEAP_POINTER_NAME, (uint32_t)(key >> 32),
                             (uint32_t)key, flags));
        below = key;
    }
}

/* Per-DPU WRAM arguments of one round. */
static cpim_err push_jobs(const struct pim_state *s, struct dpu_set_t set, uint32_t first,
                          const char *sym, void *jobs, size_t size, dpu_xfer_flags_t flags)
{
    struct dpu_set_t dpu;
    uint32_t i;
    DPU_FOREACH (set, dpu, i) {
        TRY(s, dpu_prepare_xfer(dpu, (uint8_t *)jobs + (first + i) * size));
    }
    TRY(s, dpu_push_xfer(set, DPU_XFER_TO_DPU, sym, 0, (uint32_t)size, flags));
    return CPIM_OK;
}

/* What a round needs besides the transfer plan in the state. */
struct round {
    const char *job_sym;
    void *jobs;
    size_t job_size;
    /* Host work for DPUs [first, first + n) before their transfer (may be NULL). */
    void (*prepare)(void *ctx, uint32_t first, uint32_t n);
    void *ctx;
};

struct times {
    double in, kernel, out;
};

static cpim_err run_set(struct pim_state *s, struct dpu_set_t set, uint32_t first,
                        const struct round *r, dpu_xfer_flags_t xf, struct times *t)
{
    double t0 = cpim_now();
    cpim_err rc = push_jobs(s, set, first, r->job_sym, r->jobs, r->job_size, xf);
    if (rc == CPIM_OK)
        rc = push_pieces(s, set, first, DPU_XFER_TO_DPU, s->to, PIECES, xf);
    t->in += cpim_now() - t0;
    return rc;
}

static cpim_err gather(struct pim_state *s, struct dpu_set_t set, uint32_t first,
                       dpu_xfer_flags_t xf, struct times *t)
{
    double t0 = cpim_now();
    cpim_err rc = push_pieces(s, set, first, DPU_XFER_FROM_DPU, s->from, 1, xf);
    t->out += cpim_now() - t0;
    return rc;
}

static cpim_err launch(struct dpu_set_t set, dpu_launch_policy_t pol, struct times *t)
{
    double t0 = cpim_now();
    dpu_error_t e = dpu_launch(set, pol);
    t->kernel += cpim_now() - t0;
    return map_err(e);
}

/* One round in the context's mode.  On return every queued job is done. */
static cpim_err run_round(struct pim_state *s, const struct round *r, struct times *t)
{
    cpim_err rc = CPIM_OK;
    if (s->mode == CPIM_PIM_SYNC) {
        if (r->prepare)
            r->prepare(r->ctx, 0, s->nr_dpus);
        rc = run_set(s, s->set, 0, r, DPU_XFER_DEFAULT, t);
        if (rc == CPIM_OK)
            rc = launch(s->set, DPU_SYNCHRONOUS, t);
        if (rc == CPIM_OK)
            rc = gather(s, s->set, 0, DPU_XFER_DEFAULT, t);
        return rc;
    }
    int xfer = s->mode == CPIM_PIM_ASYNC_XFER;
    for (uint32_t k = 0; k < s->nr_ranks && rc == CPIM_OK; k++) {
        if (r->prepare)
            r->prepare(r->ctx, s->rank_first[k], s->rank_n[k]);
        rc = run_set(s, s->ranks[k], s->rank_first[k], r, xfer ? DPU_XFER_ASYNC : DPU_XFER_DEFAULT,
                     t);
        if (rc == CPIM_OK)
            rc = launch(s->ranks[k], DPU_ASYNCHRONOUS, t);
        if (rc == CPIM_OK && xfer)
            rc = gather(s, s->ranks[k], s->rank_first[k], DPU_XFER_ASYNC, t);
    }
    /* Always drain the queues: the buffers of queued jobs belong to the caller. */
    double t0 = cpim_now();
    dpu_error_t e = dpu_sync(s->set);
    t->kernel += cpim_now() - t0;
    if (rc == CPIM_OK)
        rc = status(s, e);
    if (rc == CPIM_OK && !xfer)
        rc = gather(s, s->set, 0, DPU_XFER_DEFAULT, t);
    return rc;
}

/* ---- statistics --------------------------------------------------------------- */

struct clocks {
    double t0;
#ifdef DPU_EMU
    dpu_emu_stats_t m0;
#endif
};

static void clocks_start(struct clocks *c)
{
#ifdef DPU_EMU
    dpu_emu_get_stats(&c->m0);
#endif
    c->t0 = cpim_now();
}

static void clocks_stop(const struct pim_state *s, const struct clocks *c, const struct times *t,
                        cpim_stats *st)
{
    st->measured.total_s = cpim_now() - c->t0;
    st->measured.cpu_dpu_s = t->in;
    st->measured.kernel_s = t->kernel;
    st->measured.dpu_cpu_s = t->out;
    st->ranks = s->nr_ranks;
    st->dpus = s->nr_dpus;
    st->tasklets = s->tasklets;
#ifdef DPU_EMU
    dpu_emu_stats_t m1;
    dpu_emu_get_stats(&m1);
    st->virtual_upmem = 1;
    st->has_modeled = 1;
    st->modeled.clock = CPIM_CLOCK_MODELED;
    st->modeled.cpu_dpu_s = m1.phase[DPU_EMU_PHASE_CPU_DPU] - c->m0.phase[DPU_EMU_PHASE_CPU_DPU];
    st->modeled.kernel_s = m1.phase[DPU_EMU_PHASE_KERNEL] - c->m0.phase[DPU_EMU_PHASE_KERNEL];
    st->modeled.dpu_cpu_s = m1.phase[DPU_EMU_PHASE_DPU_CPU] - c->m0.phase[DPU_EMU_PHASE_DPU_CPU];
    st->modeled.total_s = m1.host_time - c->m0.host_time;
#endif
}

/* ---- AES ------------------------------------------------------------------------ */

/* 128-bit big-endian counter (c[0] most significant) += n. */
static void ctr_add_words(uint32_t c[4], uint64_t n)
{
    uint64_t acc = (uint64_t)c[3] + (n & 0xffffffffu);
    c[3] = (uint32_t)acc;
    acc = (acc >> 32) + c[2] + (n >> 32);
    c[2] = (uint32_t)acc;
    acc = (acc >> 32) + c[1];
    c[1] = (uint32_t)acc;
    c[0] += (uint32_t)(acc >> 32);
}

static cpim_err aes_run(struct pim_state *s, int op, const uint8_t *in, uint8_t *out, size_t len,
                        uint8_t counter[16], cpim_stats *st)
{
    cpim_err rc = load(s, PROG_AES);
    if (rc != CPIM_OK)
        return rc;
    struct clocks clk;
    struct times t = {0, 0, 0};
    clocks_start(&clk);

    struct aes_key_args ka;
    const cpc_aes_ks *ks = op == AES_OP_ECB_DEC ? &s->dk : &s->ek;
    memset(&ka, 0, sizeof ka);
    for (unsigned i = 0; i < 4 * (ks->nr + 1); i++)
        ka.rk[i] = __builtin_bswap32(ks->rk[i]); /* the DPU's little-endian columns */
    ka.nr = ks->nr;
    ka.op = (uint32_t)op;

    uint32_t ctr0[4] = {0, 0, 0, 0};
    if (counter)
        for (int i = 0; i < 4; i++)
            ctr0[i] = (uint32_t)counter[4 * i] << 24 | (uint32_t)counter[4 * i + 1] << 16 |
                      (uint32_t)counter[4 * i + 2] << 8 | counter[4 * i + 3];

    const uint32_t nd = s->nr_dpus;
    struct aes_job_args *jobs = calloc(nd, sizeof *jobs);
    uint8_t *bounce = NULL;
    size_t bounce_size = 0;
    if (!jobs)
        rc = CPIM_ERR_NOMEM;
    const uint64_t total_blocks = (len + 15) / 16;
    const uint64_t round_blocks = (uint64_t)nd * (s->budget / 16);
    for (uint64_t done = 0; done < total_blocks && rc == CPIM_OK;) {
        /* The kernel wipes the round keys when it ends, so every round
         * sends them again (one broadcast per call for inputs that fit in
         * one round, as the study does). */
        double t0 = cpim_now();
        s->key_on_dpus = 1;
        rc = map_err(
            dpu_broadcast_to(s->set, AES_XSTR(AES_KEY_SYM), 0, &ka, sizeof ka, DPU_XFER_DEFAULT));
        t.in += cpim_now() - t0;
        if (rc != CPIM_OK)
            break;
        uint64_t nb = total_blocks - done < round_blocks ? total_blocks - done : round_blocks;
        uint32_t q = (uint32_t)(nb / nd), rem = (uint32_t)(nb % nd);
        uint32_t bounce_dpu = UINT32_MAX;
        uint64_t blk = done;
        for (uint32_t i = 0; i < nd; i++) {
            uint32_t b = q + (i < rem);
            size_t off = (size_t)blk * 16;
            size_t bytes = b ? (off + (size_t)b * 16 <= len ? (size_t)b * 16 : len - off) : 0;
            jobs[i].nbytes = b * 16;
            memcpy(jobs[i].ctr, ctr0, sizeof ctr0);
            ctr_add_words(jobs[i].ctr, blk);
            struct piece *to = &s->to[(size_t)i * PIECES];
            memset(to, 0, PIECES * sizeof *to);
            to[0] = (struct piece){(void *)(uintptr_t)(in + off), 0, b * 16};
            s->from[i] = (struct piece){out + off, 0, b * 16};
            if (bytes < (size_t)b * 16) { /* the final partial CTR block */
                bounce_dpu = i;
                bounce_size = (size_t)(q + 1) * 16;
                if (!bounce && !(bounce = calloc(bounce_size, 1))) {
                    rc = CPIM_ERR_NOMEM;
                    break;
                }
                memset(bounce, 0, (size_t)b * 16);
                memcpy(bounce, in + off, bytes);
                to[0].ptr = s->from[i].ptr = bounce;
            }
            blk += b;
        }
        if (rc != CPIM_OK)
            break;
        struct round r = {AES_XSTR(AES_JOB_SYM), jobs, sizeof *jobs, NULL, NULL};
        rc = run_round(s, &r, &t);
        /* every DPU ran the kernel to its end, which wiped the keys; in a
         * timing-only run the skipped DPUs still hold them */
        s->key_on_dpus = rc != CPIM_OK || s->timing_only;
        if (rc == CPIM_OK && bounce_dpu != UINT32_MAX) {
            /* the bounced DPU is the last one with blocks: its share ends at len */
            size_t off = (size_t)(total_blocks * 16) - jobs[bounce_dpu].nbytes;
            memcpy(out + off, bounce, len - off);
        }
        done += nb;
    }
    cpim_wipe(&ka, sizeof ka);
    if (rc == CPIM_OK && s->timing_only) {
        memset(out, 0, len); /* what the skipped DPUs returned is not ciphertext */
        rc = CPIM_ERR_TIMING_ONLY;
    } else if (rc == CPIM_OK && counter) {
        cpc_aes_ctr_add(counter, total_blocks);
    }
    if (bounce)
        cpim_wipe(bounce, bounce_size);
    free(bounce);
    free(jobs);
    clocks_stop(s, &clk, &t, st); /* the key wipe below is not part of the call's timings */
    wipe_dpu_key(s);
    if (rc != CPIM_OK && rc != CPIM_ERR_TIMING_ONLY)
        s->loaded = PROG_NONE; /* after a fault, reload before the next call */
    return rc;
}

static cpim_err pim_ecb(void *state, cpim_dir dir, const uint8_t *in, uint8_t *out, size_t len,
                        cpim_stats *st)
{
    return aes_run(state, dir == CPIM_DECRYPT ? AES_OP_ECB_DEC : AES_OP_ECB_ENC, in, out, len, NULL,
                   st);
}

static cpim_err pim_ctr(void *state, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                        size_t len, cpim_stats *st)
{
    return aes_run(state, AES_OP_CTR, in, out, len, counter, st);
}

/* ---- SHA-256 ---------------------------------------------------------------------- */

/* A rank's staged copies are split over host threads from this size on
 * (thread start-up is ~0.1 ms).  On the virtual UPMEM with hostClock=thread
 * only the calling thread's share is counted as host work (it blocks while
 * the others finish): right when the threads really run in parallel. */
#define PAR_COPY_MIN_BYTES (4u << 20)

struct seg {
    size_t msg;
    uint64_t prior; /* bytes of the message before this segment */
    uint32_t len, flags;
};

/* One round.  Every DPU's MRAM (offsets from the heap pointer, multiples of
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
 * with the same length for all staged DPUs (one push call).  Staging and
 * results live in the backend state, reused across rounds and calls. */
struct sha_plan {
    struct pim_state *s;
    const uint8_t *const *msgs;
    const size_t *lens;
    struct seg *segs;         /* this round's segments, grouped by DPU */
    uint32_t *first, *cnt;    /* per DPU: its segments */
    uint32_t *dlen;           /* per DPU: D */
    uint32_t *run;            /* per DPU: T if direct, 0 if staged */
    uint8_t *cont;            /* per DPU: a segment continues a message */
    size_t *img;              /* per DPU: offset of its region in s->stage */
    uint32_t max_n, slots;    /* most segments on one DPU; S */
    uint32_t base, stage_len; /* MRAM range pushed for staged DPUs */
    struct sha_job_args *jobs;
    uint32_t (*chain)[8]; /* per message: chaining value between segments */
};

static inline uint32_t round8(uint32_t x)
{
    return (x + 7u) & ~7u;
}

static inline const uint8_t *seg_src(const struct sha_plan *p, const struct seg *g)
{
    return p->msgs[g->msg] + g->prior;
}

/* Per DPU: D, whether a segment continues a message, and T if its
 * segments are one contiguous run of the caller's memory (else 0). */
static void sha_layout(struct sha_plan *p, uint32_t d)
{
    uint32_t D = 0, T = 0;
    int contiguous = 1;
    uint8_t cont = 0;
    const uint8_t *next = NULL;
    for (uint32_t k = 0; k < p->cnt[d]; k++) {
        const struct seg *g = &p->segs[p->first[d] + k];
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
 * whose group of equal floor8(T) avoids copying at least directMin bytes
 * (default DIRECT_MIN_BYTES); the others are staged.  tmp: n entries.  O(n log n). */
static void sha_choose_direct(struct sha_plan *p, uint32_t first, uint32_t n, uint64_t *tmp)
{
    size_t m = 0;
    for (uint32_t d = first; d < first + n; d++) {
        if (p->run[d] >= 8u)
            tmp[m++] = (uint64_t)(p->run[d] & ~7u) << 32 | d;
        else
            p->run[d] = 0;
    }
    qsort(tmp, m, sizeof *tmp, cmp_u64);
    for (size_t a = 0, b; a < m; a = b) {
        uint64_t f = tmp[a] >> 32;
        for (b = a; b < m && tmp[b] >> 32 == f; b++)
            ;
        if (f * (b - a) < p->s->direct_min)
            for (size_t k = a; k < b; k++)
                p->run[(uint32_t)tmp[k]] = 0;
    }
}

/* Job arguments, pieces and staged bytes of DPU d. */
static void sha_prepare_dpu(struct sha_plan *p, uint32_t d)
{
    struct pim_state *s = p->s;
    struct piece *to = &s->to[(size_t)d * PIECES];
    memset(to, 0, PIECES * sizeof *to);
    struct sha_job_args *j = &p->jobs[d];
    j->nmsgs = p->cnt[d];
    j->state_off = 0;
    j->table_off = p->slots + p->dlen[d];
    j->pad = 0;
    s->from[d] = (struct piece){NULL, 0, 0};
    if (!p->cnt[d])
        return;
    s->from[d] = (struct piece){s->results + (size_t)d * p->slots, 0, p->slots};
    uint8_t *region = s->stage + p->img[d], *slots = region, *table, *data = NULL;
    if (p->run[d]) {
        const uint8_t *src = NULL;
        for (uint32_t k = 0; k < p->cnt[d] && !src; k++) {
            const struct seg *g = &p->segs[p->first[d] + k];
            if (g->len)
                src = seg_src(p, g);
        }
        uint32_t whole = p->run[d] & ~7u, tail = p->run[d] & 7u;
        uint8_t *tt = region + (p->cont[d] ? p->slots : 0);
        if (p->cont[d])
            to[0] = (struct piece){region, 0, p->slots};
        to[1] = (struct piece){(void *)(uintptr_t)src, p->slots, whole};
        to[2] = (struct piece){tt, p->slots + whole, (tail ? 8u : 0u) + 24u * p->cnt[d]};
        if (tail)
            memcpy(tt, src + whole, tail);
        table = tt + (tail ? 8u : 0u);
    } else {
        /* region holds MRAM [base, base + stage_len); base is 0 if any
         * segment of the round continues a message (slots written) */
        to[0] = (struct piece){region, p->base, p->stage_len};
        data = region + (p->slots - p->base);
        table = data + p->dlen[d];
    }
    uint32_t off = 0;
    for (uint32_t k = 0; k < p->cnt[d]; k++) {
        const struct seg *g = &p->segs[p->first[d] + k];
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
    struct sha_plan *p;
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
static void sha_prepare(void *ctx, uint32_t first, uint32_t n)
{
    struct sha_plan *p = ctx;
    uint64_t staged = 0;
    for (uint32_t d = first; d < first + n; d++)
        if (p->cnt[d] && !p->run[d])
            staged += p->stage_len;
    struct sha_range r = {p, first};
    /* cpim_parallel_for finishes the work in the caller if a thread cannot
     * start, so its status needs no handling */
    (void)cpim_parallel_for(staged >= PAR_COPY_MIN_BYTES ? p->s->threads : 1u, n, 1,
                            sha_prepare_range, &r);
}

/* Grows a reused buffer to at least n bytes (contents not kept; zeroed when
 * new, so no uninitialised byte is ever pushed).  *hi: bytes of the old
 * buffer to wipe before it is freed (then 0), or NULL. */
static int grow(uint8_t **buf, size_t *cap, size_t *hi, size_t n)
{
    if (n <= *cap && *buf)
        return 1;
    if (*buf && hi)
        cpim_wipe(*buf, *hi);
    if (hi)
        *hi = 0;
    free(*buf);
    *buf = calloc(n ? n : 1, 1);
    *cap = *buf ? n : 0;
    return *buf != NULL;
}

static cpim_err pim_sha(void *state, const uint8_t *const *msgs, const size_t *lens, size_t count,
                        uint8_t (*digests)[32], cpim_stats *st)
{
    struct pim_state *s = state;
    cpim_err rc = load(s, PROG_SHA);
    if (rc != CPIM_OK)
        return rc;
    struct clocks clk;
    struct times t = {0, 0, 0};
    clocks_start(&clk);

    const uint32_t nd = s->nr_dpus;
    const uint32_t seg_max = (s->budget - 64u) & ~63u;
    struct sha_plan p;
    memset(&p, 0, sizeof p);
    p.s = s;
    p.msgs = msgs;
    p.lens = lens;
    uint64_t *pos = calloc(count, sizeof *pos);  /* bytes hashed so far */
    size_t *todo = malloc(count * sizeof *todo); /* unfinished messages, in order */
    uint64_t *tmp = malloc(nd * sizeof *tmp);
    p.segs = malloc(count * sizeof *p.segs);
    p.first = calloc(nd, sizeof *p.first);
    p.cnt = calloc(nd, sizeof *p.cnt);
    p.dlen = calloc(nd, sizeof *p.dlen);
    p.run = calloc(nd, sizeof *p.run);
    p.cont = calloc(nd, sizeof *p.cont);
    p.img = calloc(nd, sizeof *p.img);
    p.jobs = calloc(nd, sizeof *p.jobs);
    int long_msgs = 0;
    for (size_t i = 0; i < count; i++)
        long_msgs |= lens[i] > seg_max;
    if (long_msgs)
        p.chain = malloc(count * sizeof *p.chain);
    if (!pos || !todo || !tmp || !p.segs || !p.first || !p.cnt || !p.dlen || !p.run || !p.cont ||
        !p.img || !p.jobs || (long_msgs && !p.chain)) {
        rc = CPIM_ERR_NOMEM;
        goto out;
    }
    size_t ntodo = count;
    for (size_t i = 0; i < count; i++)
        todo[i] = i;

    while (ntodo && rc == CPIM_OK) {
        /* Plan: next segment of each unfinished message, next-fit over the DPUs
         * with a target of an equal share of the round's bytes. */
        uint64_t want = 0;
        for (size_t k = 0; k < ntodo; k++) {
            uint64_t left = lens[todo[k]] - pos[todo[k]];
            want += (left > seg_max ? seg_max : left) + 56u;
        }
        uint64_t target = (want + nd - 1) / nd;
        if (target > s->budget)
            target = s->budget;
        uint32_t d = 0, nseg = 0, data = 0;
        p.max_n = 0;
        memset(p.cnt, 0, nd * sizeof *p.cnt);
        p.first[0] = 0;
        for (size_t k = 0; k < ntodo && d < nd; k++) {
            size_t m = todo[k];
            uint64_t left = lens[m] - pos[m];
            uint32_t len = (uint32_t)(left > seg_max ? seg_max : left);
            uint32_t cost = round8(len) + 56u;
            if (p.cnt[d] && data + cost > s->budget) {
                if (++d == nd)
                    break;
                p.first[d] = nseg, data = 0;
            }
            struct seg *g = &p.segs[nseg++];
            g->msg = m;
            g->prior = pos[m];
            g->len = len;
            g->flags = (len == left ? SHA_F_FINAL : 0) | (pos[m] ? SHA_F_CONT : 0);
            p.cnt[d]++;
            data += round8(len);
            if (p.cnt[d] > p.max_n)
                p.max_n = p.cnt[d];
            if (data + 56u * p.cnt[d] >= target && d + 1 < nd)
                p.first[++d] = nseg, data = 0;
        }
        for (uint32_t e = d + 1; e < nd; e++)
            p.first[e] = nseg;

        /* Layout: direct or staged per DPU, per push scope (the whole set in
         * sync mode, one rank otherwise); then the staging regions. */
        p.slots = p.max_n * 32u;
        int any_cont = 0;
        for (uint32_t e = 0; e < nd; e++) {
            sha_layout(&p, e);
            any_cont |= p.cont[e];
        }
        if (s->mode == CPIM_PIM_SYNC)
            sha_choose_direct(&p, 0, nd, tmp);
        else
            for (uint32_t k = 0; k < s->nr_ranks; k++)
                sha_choose_direct(&p, s->rank_first[k], s->rank_n[k], tmp);
        uint32_t dmax = 0;
        for (uint32_t e = 0; e < nd; e++)
            if (p.cnt[e] && !p.run[e] && p.dlen[e] > dmax)
                dmax = p.dlen[e];
        p.base = any_cont ? 0 : p.slots;
        p.stage_len = p.slots - p.base + dmax + 24u * p.max_n;
        size_t used = 0;
        for (uint32_t e = 0; e < nd; e++) {
            p.img[e] = used;
            if (!p.cnt[e])
                continue;
            if (p.run[e])
                used += (p.cont[e] ? p.slots : 0) + ((p.run[e] & 7u) ? 8u : 0u) + 24u * p.cnt[e];
            else
                used += p.stage_len;
        }
        if (!grow(&s->stage, &s->stage_cap, &s->stage_hi, used) ||
            !grow(&s->results, &s->results_cap, NULL, (size_t)nd * p.slots)) {
            rc = CPIM_ERR_NOMEM;
            break;
        }
        if (used > s->stage_hi)
            s->stage_hi = used;
        struct round r = {SHA_XSTR(SHA_JOB_SYM), p.jobs, sizeof *p.jobs, sha_prepare, &p};
        rc = run_round(s, &r, &t);
        if (rc != CPIM_OK)
            break;
        /* Results; then drop the finished messages from the to-do list. */
        for (uint32_t e = 0; e < nd; e++)
            for (uint32_t k = 0; k < p.cnt[e]; k++) {
                const struct seg *g = &p.segs[p.first[e] + k];
                const uint8_t *res = s->results + (size_t)e * p.slots + 32u * k;
                if (g->flags & SHA_F_FINAL) {
                    memcpy(digests[g->msg], res, 32);
                    pos[g->msg] = UINT64_MAX; /* finished (pos is not read again) */
                } else {
                    memcpy(p.chain[g->msg], res, 32);
                    pos[g->msg] += g->len;
                }
            }
        /* O(messages): a scan of the round's segments per message was
         * quadratic (1.7 G steps at 40 ranks x 1024 messages) */
        size_t w = 0;
        for (size_t k = 0; k < ntodo; k++) {
            size_t m = todo[k];
            int finished = pos[m] == UINT64_MAX;
            if (!finished)
                todo[w++] = m;
        }
        ntodo = w;
    }
out:
    if (rc == CPIM_OK && s->timing_only) {
        memset(digests, 0, count * sizeof *digests); /* not all were computed */
        rc = CPIM_ERR_TIMING_ONLY;
    }
    if (rc != CPIM_OK && rc != CPIM_ERR_TIMING_ONLY)
        s->loaded = PROG_NONE;
    free(pos);
    free(todo);
    free(tmp);
    free(p.segs);
    free(p.first);
    free(p.cnt);
    free(p.dlen);
    free(p.run);
    free(p.cont);
    free(p.img);
    free(p.jobs);
    free(p.chain);
    clocks_stop(s, &clk, &t, st);
    return rc;
}

/* see backend.h */
const cpim_backend_vt cpim_backend_pim = {
    .version = CPIM_BACKEND_VT_VERSION,
    .name = "pim",
#ifdef DPU_EMU
    .description = "UPMEM DPUs: the virtual UPMEM (no PIM hardware; modeled clock)",
#else
    .description = "UPMEM DPUs: real hardware (UPMEM SDK)",
#endif
    .available = pim_available,
    .open = pim_open,
    .close = pim_close,
    .set_key = pim_set_key,
    .aes_ecb = pim_ecb,
    .aes_ctr = pim_ctr,
    .sha256_batch = pim_sha,
};
