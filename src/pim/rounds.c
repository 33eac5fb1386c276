/*
 * rounds.c -- the DPUs of a pim context: allocation, program loads, the AES
 * key on the DPUs, and one round in each host mode of the CryptoPIM study
 * (Algorithms 1 and 2).  The only file of the backend that calls the UPMEM
 * host API (<dpu.h>), so the same code runs on real hardware and on the
 * built-in virtual UPMEM.
 *
 *   sync        push jobs + data to all DPUs, launch all (synchronous),
 *               gather all;
 *   async-xfer  (PIM #1) per rank: prepare its data, then queue its
 *               transfer, launch and gather asynchronously and go on to the
 *               next rank; dpu_sync at the end;
 *   async-exec  (PIM #2) per rank: prepare, synchronous transfer,
 *               asynchronous launch, next rank; dpu_sync, then gather all.
 *
 * push_xfer moves one length at one offset to every DPU of a call, so the
 * pieces of a round are pushed in groups of equal (offset, length).
 */
#include <dpu.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aes_args.h"
#include "cryptopim.h"
#include "gcm_args.h"
#include "pim_internal.h"
#include "resident_args.h"

struct cpim_pim_machine {
    struct dpu_set_t set;
    uint32_t nr_dpus, nr_ranks;
    unsigned tasklets;
    cpim_pim_mode mode;
    struct dpu_set_t *ranks; /* per rank: its set, first global DPU index, count */
    uint32_t *rank_first, *rank_n;
    int loaded;      /* PIM_PROG_* */
    unsigned gen;    /* counts program loads and resets (MRAM contents may have changed) */
    int key_on_dpus; /* AES key arguments may be in the DPUs' WRAM */
    int timing_only;
    char dir[512];
    cpim_pim_faults *faults;
};

/* ---- errors ---------------------------------------------------------------- */

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
static cpim_err status(const cpim_pim_machine *m, dpu_error_t e)
{
#ifdef DPU_EMU
    if (m->timing_only && ((unsigned)e & 0xffffu) == DPU_ERR_EMU_NOT_SIMULATED)
        return CPIM_OK;
#else
    (void)m;
#endif
    return map_err(e);
}

/* A <dpu.h> call that is a fault-injection checkpoint: when injected, the
 * call is not made and `err` is what it returns instead. */
#define CALL(m, call, err) (cpim_pim_fault_now((m)->faults) ? (err) : (call))

#define TRY(m, call)                                                                               \
    do {                                                                                           \
        cpim_err c_ = status((m), CALL((m), (call), DPU_ERR_DRIVER));                              \
        if (c_ != CPIM_OK)                                                                         \
            return c_;                                                                             \
    } while (0)

/* ---- open / close ------------------------------------------------------------ */

cpim_err cpim_pim_machine_open(cpim_pim_machine **out, const cpim_pim_machine_cfg *cfg)
{
    *out = NULL;
    cpim_pim_machine *m = cpim_pim_calloc(cfg->faults, 1, sizeof *m);
    if (!m)
        return CPIM_ERR_NOMEM;
    m->tasklets = cfg->tasklets;
    m->mode = cfg->mode;
    m->timing_only = cfg->timing_only;
    m->faults = cfg->faults;
    snprintf(m->dir, sizeof m->dir, "%s", cfg->dpu_dir);
    dpu_error_t e =
        CALL(m,
             cfg->dpus ? dpu_alloc(cfg->dpus, cfg->profile, &m->set)
                       : dpu_alloc_ranks(cfg->ranks ? cfg->ranks : 1, cfg->profile, &m->set),
             DPU_ERR_ALLOCATION);
    if (e != DPU_OK) {
        free(m);
        return (e & 0xffff) == DPU_ERR_INVALID_PROFILE ? CPIM_ERR_INVALID_ARG : CPIM_ERR_PIM_ALLOC;
    }
    cpim_err rc = CPIM_ERR_PIM;
    if (dpu_get_nr_dpus(m->set, &m->nr_dpus) != DPU_OK ||
        dpu_get_nr_ranks(m->set, &m->nr_ranks) != DPU_OK || m->nr_dpus == 0)
        goto fail;
    rc = CPIM_ERR_NOMEM;
    m->ranks = cpim_pim_calloc(m->faults, m->nr_ranks, sizeof *m->ranks);
    m->rank_first = cpim_pim_calloc(m->faults, m->nr_ranks, sizeof *m->rank_first);
    m->rank_n = cpim_pim_calloc(m->faults, m->nr_ranks, sizeof *m->rank_n);
    if (!m->ranks || !m->rank_first || !m->rank_n)
        goto fail;
    struct dpu_set_t rank;
    uint32_t k, first = 0;
    DPU_RANK_FOREACH (m->set, rank, k) {
        uint32_t n = 0;
        if (k >= m->nr_ranks || dpu_get_nr_dpus(rank, &n) != DPU_OK) {
            rc = CPIM_ERR_PIM;
            goto fail;
        }
        m->ranks[k] = rank;
        m->rank_first[k] = first;
        m->rank_n[k] = n;
        first += n;
    }
    *out = m;
    return CPIM_OK;
fail:
    cpim_pim_machine_close(m);
    return rc;
}

void cpim_pim_machine_close(cpim_pim_machine *m)
{
    if (!m)
        return;
    cpim_pim_machine_wipe_key(m);
    if (m->nr_dpus)
        dpu_free(m->set);
    free(m->ranks);
    free(m->rank_first);
    free(m->rank_n);
    free(m);
}

uint32_t cpim_pim_machine_dpus(const cpim_pim_machine *m)
{
    return m->nr_dpus;
}

uint32_t cpim_pim_machine_ranks(const cpim_pim_machine *m)
{
    return m->nr_ranks;
}

void cpim_pim_machine_rank(const cpim_pim_machine *m, uint32_t k, uint32_t *first, uint32_t *n)
{
    *first = m->rank_first[k];
    *n = m->rank_n[k];
}

cpim_pim_mode cpim_pim_machine_mode(const cpim_pim_machine *m)
{
    return m->mode;
}

unsigned cpim_pim_machine_tasklets(const cpim_pim_machine *m)
{
    return m->tasklets;
}

/* ---- programs and the key ------------------------------------------------------ */

/* Generations are unique in the process, not per machine: a context whose
 * machine was taken by a resident region opens another, whose MRAM holds
 * none of what a cache recorded against the first one's generation. */
static unsigned next_generation(void)
{
    static atomic_uint gen;
    return atomic_fetch_add(&gen, 1) + 1;
}

cpim_err cpim_pim_machine_load(cpim_pim_machine *m, int prog)
{
    if (m->loaded == prog)
        return CPIM_OK;
    cpim_pim_machine_wipe_key(m); /* a new program's WRAM image may not cover the old key */
    char path[600];
    static const char *const names[] = {"",         "aes",          "sha256", "hmac", "gcm",
                                        "resident", "resident-sha", "ntt",    "ntt64"};
    snprintf(path, sizeof path, "%s/%s-t%u", m->dir, names[prog], m->tasklets);
    m->loaded = PIM_PROG_NONE;
    m->gen = next_generation();
    dpu_error_t e = CALL(m, dpu_load(m->set, path, NULL), DPU_ERR_ELF_INVALID_FILE);
    if (e != DPU_OK)
        return (e & 0xffff) == DPU_ERR_ALLOCATION ? CPIM_ERR_NOMEM : CPIM_ERR_PIM_LOAD;
    m->loaded = prog;
    return CPIM_OK;
}

void cpim_pim_machine_reset(cpim_pim_machine *m)
{
    m->loaded = PIM_PROG_NONE;
    m->gen = next_generation();
}

unsigned cpim_pim_machine_generation(const cpim_pim_machine *m)
{
    return m->gen;
}

cpim_err cpim_pim_machine_broadcast_mram(cpim_pim_machine *m, uint32_t off, const void *buf,
                                         uint32_t len)
{
    TRY(m, dpu_broadcast_to(m->set, DPU_MRAM_HEAP_POINTER_NAME, off, buf, len, DPU_XFER_DEFAULT));
    return CPIM_OK;
}

cpim_err cpim_pim_machine_send_key(cpim_pim_machine *m, const void *args, size_t size)
{
    m->key_on_dpus = 1;
    return map_err(
        CALL(m, dpu_broadcast_to(m->set, AES_XSTR(AES_KEY_SYM), 0, args, size, DPU_XFER_DEFAULT),
             DPU_ERR_DRIVER));
}

static cpim_err push_pieces(cpim_pim_machine *m, struct dpu_set_t set, uint32_t first,
                            dpu_xfer_t dir, const cpim_pim_piece *pc, unsigned per,
                            dpu_xfer_flags_t flags);

cpim_err cpim_pim_machine_send_res_key(cpim_pim_machine *m, const void *args, size_t size)
{
    m->key_on_dpus = 1;
    return map_err(
        CALL(m, dpu_broadcast_to(m->set, RES_XSTR(RES_KEY_SYM), 0, args, size, DPU_XFER_DEFAULT),
             DPU_ERR_DRIVER));
}

cpim_err cpim_pim_machine_xfer(cpim_pim_machine *m, int to_dpus, const cpim_pim_piece *pc,
                               cpim_pim_times *t)
{
    double t0 = cpim_now();
    cpim_err rc = push_pieces(m, m->set, 0, to_dpus ? DPU_XFER_TO_DPU : DPU_XFER_FROM_DPU, pc, 1,
                              DPU_XFER_DEFAULT);
    *(to_dpus ? &t->in : &t->out) += cpim_now() - t0;
    return rc;
}

cpim_err cpim_pim_machine_peek(cpim_pim_machine *m, uint32_t dpu, const char *sym, uint32_t off,
                               void *buf, uint32_t len)
{
    struct dpu_set_t d;
    uint32_t i;
    DPU_FOREACH (m->set, d, i) {
        if (i == dpu)
            return map_err(dpu_copy_from(d, sym ? sym : DPU_MRAM_HEAP_POINTER_NAME, off, buf, len));
    }
    return CPIM_ERR_INVALID_ARG;
}

void cpim_pim_machine_key_consumed(cpim_pim_machine *m)
{
    m->key_on_dpus = 0;
}

void cpim_pim_machine_wipe_key(cpim_pim_machine *m)
{
    if (m->key_on_dpus && m->loaded == PIM_PROG_RESIDENT) {
        static const struct res_key_args rzero;
        (void)dpu_broadcast_to(m->set, RES_XSTR(RES_KEY_SYM), 0, &rzero, sizeof rzero,
                               DPU_XFER_DEFAULT);
        m->key_on_dpus = 0;
    }
    if (!m->key_on_dpus || (m->loaded != PIM_PROG_AES && m->loaded != PIM_PROG_GCM))
        return;
    static const struct aes_key_args zero;
    /* not a fault-injection checkpoint: nothing would report its failure */
    (void)dpu_broadcast_to(m->set, AES_XSTR(AES_KEY_SYM), 0, &zero, sizeof zero, DPU_XFER_DEFAULT);
    if (m->loaded == PIM_PROG_GCM) {
        static const uint32_t ztab[GCM_TAB_WORDS];
        _Static_assert(GCM_TAB8_WORDS <= GCM_TAB_WORDS, "one zero buffer for both");
        (void)dpu_broadcast_to(m->set, GCM_XSTR(GCM_TAB_SYM), 0, ztab, sizeof ztab,
                               DPU_XFER_DEFAULT);
        (void)dpu_broadcast_to(m->set, GCM_XSTR(GCM_TAB8_SYM), 0, ztab, 4 * GCM_TAB8_WORDS,
                               DPU_XFER_DEFAULT);
        (void)dpu_broadcast_to(m->set, GCM_XSTR(GCM_H_SYM), 0, ztab, 16, DPU_XFER_DEFAULT);
    }
    m->key_on_dpus = 0;
}

void cpim_pim_machine_zero_mram(cpim_pim_machine *m, uint32_t len)
{
    uint8_t *zero = calloc(len ? len : 8, 1);
    if (zero && len)
        (void)dpu_broadcast_to(m->set, DPU_MRAM_HEAP_POINTER_NAME, 0, zero, len, DPU_XFER_DEFAULT);
    free(zero);
}

/* ---- transfers --------------------------------------------------------------- */

/* Pushes the pieces pc[d * per + j] (j < per) of the DPUs d in
 * [first, first + n) that make up `set`: one push_xfer per distinct (offset,
 * length), since push_xfer moves one length at one offset for all DPUs of a
 * call (DPUs without a prepared buffer are skipped).  O(calls x DPUs). */
static cpim_err push_pieces(cpim_pim_machine *m, struct dpu_set_t set, uint32_t first,
                            dpu_xfer_t dir, const cpim_pim_piece *pc, unsigned per,
                            dpu_xfer_flags_t flags)
{
    struct dpu_set_t dpu;
    uint32_t i;
    uint64_t below = UINT64_MAX; /* keys (offset:length) are handled largest first */
    for (;;) {
        uint64_t key = 0;
        DPU_FOREACH (set, dpu, i) {
            for (unsigned j = 0; j < per; j++) {
                const cpim_pim_piece *x = &pc[(size_t)(first + i) * per + j];
                uint64_t k = (uint64_t)x->off << 32 | x->len;
                if (x->len && k < below && k > key)
                    key = k;
            }
        }
        if (key == 0)
            return CPIM_OK;
        DPU_FOREACH (set, dpu, i) {
            for (unsigned j = 0; j < per; j++) {
                const cpim_pim_piece *x = &pc[(size_t)(first + i) * per + j];
                if (x->len && ((uint64_t)x->off << 32 | x->len) == key)
                    TRY(m, dpu_prepare_xfer(dpu, x->ptr));
            }
        }
        TRY(m, dpu_push_xfer(set, dir, DPU_MRAM_HEAP_POINTER_NAME, (uint32_t)(key >> 32),
                             (uint32_t)key, flags));
        below = key;
    }
}

/* Per-DPU WRAM arguments of one round. */
static cpim_err push_jobs(cpim_pim_machine *m, struct dpu_set_t set, uint32_t first,
                          const char *sym, void *jobs, size_t size, dpu_xfer_flags_t flags)
{
    struct dpu_set_t dpu;
    uint32_t i;
    DPU_FOREACH (set, dpu, i) {
        TRY(m, dpu_prepare_xfer(dpu, (uint8_t *)jobs + (first + i) * size));
    }
    TRY(m, dpu_push_xfer(set, DPU_XFER_TO_DPU, sym, 0, (uint32_t)size, flags));
    return CPIM_OK;
}

static cpim_err run_set(cpim_pim_machine *m, struct dpu_set_t set, uint32_t first,
                        const cpim_pim_round *r, dpu_xfer_flags_t xf, cpim_pim_times *t)
{
    double t0 = cpim_now();
    cpim_err rc = push_jobs(m, set, first, r->job_sym, r->jobs, r->job_size, xf);
    if (rc == CPIM_OK)
        rc = push_pieces(m, set, first, DPU_XFER_TO_DPU, r->to, PIM_PIECES, xf);
    t->in += cpim_now() - t0;
    return rc;
}

static cpim_err gather(cpim_pim_machine *m, struct dpu_set_t set, uint32_t first,
                       const cpim_pim_round *r, dpu_xfer_flags_t xf, cpim_pim_times *t)
{
    double t0 = cpim_now();
    cpim_err rc = push_pieces(m, set, first, DPU_XFER_FROM_DPU, r->from, 1, xf);
    if (rc == CPIM_OK && r->res_sym) {
        struct dpu_set_t dpu;
        uint32_t i;
        DPU_FOREACH (set, dpu, i) {
            TRY(m, dpu_prepare_xfer(dpu, (uint8_t *)r->res + (first + i) * r->res_size));
        }
        TRY(m, dpu_push_xfer(set, DPU_XFER_FROM_DPU, r->res_sym, 0, (uint32_t)r->res_size, xf));
    }
    t->out += cpim_now() - t0;
    return rc;
}

static cpim_err launch(cpim_pim_machine *m, struct dpu_set_t set, dpu_launch_policy_t pol,
                       cpim_pim_times *t)
{
    double t0 = cpim_now();
    dpu_error_t e = CALL(m, dpu_launch(set, pol), DPU_ERR_DPU_FAULT);
    t->kernel += cpim_now() - t0;
    return map_err(e);
}

cpim_err cpim_pim_machine_round(cpim_pim_machine *m, const cpim_pim_round *r, cpim_pim_times *t)
{
    cpim_err rc = CPIM_OK;
    if (m->mode == CPIM_PIM_SYNC) {
        if (r->prepare)
            r->prepare(r->ctx, 0, m->nr_dpus);
        rc = run_set(m, m->set, 0, r, DPU_XFER_DEFAULT, t);
        if (rc == CPIM_OK)
            rc = launch(m, m->set, DPU_SYNCHRONOUS, t);
        if (rc == CPIM_OK)
            rc = gather(m, m->set, 0, r, DPU_XFER_DEFAULT, t);
        return rc;
    }
    int xfer = m->mode == CPIM_PIM_ASYNC_XFER;
    for (uint32_t k = 0; k < m->nr_ranks && rc == CPIM_OK; k++) {
        if (r->prepare)
            r->prepare(r->ctx, m->rank_first[k], m->rank_n[k]);
        rc = run_set(m, m->ranks[k], m->rank_first[k], r, xfer ? DPU_XFER_ASYNC : DPU_XFER_DEFAULT,
                     t);
        if (rc == CPIM_OK)
            rc = launch(m, m->ranks[k], DPU_ASYNCHRONOUS, t);
        if (rc == CPIM_OK && xfer)
            rc = gather(m, m->ranks[k], m->rank_first[k], r, DPU_XFER_ASYNC, t);
    }
    /* Always drain the queues: the buffers of queued jobs belong to the
     * caller (so this is not a fault-injection checkpoint). */
    double t0 = cpim_now();
    dpu_error_t e = dpu_sync(m->set);
    t->kernel += cpim_now() - t0;
    if (rc == CPIM_OK)
        rc = status(m, e);
    if (rc == CPIM_OK && !xfer)
        rc = gather(m, m->set, 0, r, DPU_XFER_DEFAULT, t);
    return rc;
}
