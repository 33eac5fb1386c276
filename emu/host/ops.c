/*
 * ops.c -- the API calls that act on DPUs: load, symbols, transfers,
 * launch, sync, status, callbacks; and, for each kind of call, the exec
 * function that runs its jobs (the queue calls it through op->exec).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../include/dpu_program.h"
#include "dpugdb.h"
#include "dpuprof.h"
#include "entry.h"
#include "model.h"
#include "pool.h"
#include "prog.h"
#include "queue.h"
#include "reuse.h"
#include "set.h"

static void load_one(void *arg, uint32_t i)
{
    struct dpu_t **dpus = ((struct dpu_t ***)arg)[0];
    struct dpu_program_t *prog = (struct dpu_program_t *)((void **)arg)[1];
    struct dpu_t *d = dpus[i];
    d->fault = false;
    if (vdpu_load(d->v, prog->vp) != VDPU_OK)
        d->fault = true; /* reported by the caller */
}

static dpu_error_t exec_load(op_t *op, job_t *jobs, uint32_t n)
{
    uint32_t total = 0;
    for (uint32_t i = 0; i < n; i++)
        total += op->single ? 1 : jobs[i].rank->nr_enabled;
    struct dpu_t **dpus = malloc((total ? total : 1) * sizeof *dpus);
    if (dpus == NULL)
        return DPU_ERR_SYSTEM;
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        struct dpu_rank_t *r = jobs[i].rank;
        for (uint32_t j = 0; j < r->nr_dpus; j++)
            if (dpu_in_scope(&r->dpus[j], op->single))
                dpus[m++] = &r->dpus[j];
    }
    void *arg[2] = {dpus, op->program};
    emu_pool_for(m, load_one, arg);
    dpu_error_t err = DPU_OK;
    for (uint32_t i = 0; i < m; i++) {
        struct dpu_t *d = dpus[i];
        if (d->fault) {
            err = DPU_ERR_INTERNAL;
            d->fault = false;
            continue;
        }
        pthread_mutex_lock(&d->rank->mu);
        d->xfer_buf = NULL;
        pthread_mutex_unlock(&d->rank->mu);
        if (d->program != op->program) {
            struct dpu_program_t *old = d->program;
            emu_program_ref(op->program);
            d->program = op->program;
            if (old)
                emu_program_put(old);
        }
    }
    free(dpus);
    return err;
}

/* P26: loadUs per rank. */
static void model_load(op_t *op, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        struct dpu_rank_t *r = op->ranks[i];
        emu_rec_desc_t d = {.kind = EMU_REC_TIMED,
                            .op = op->model_id,
                            .prof = r->prof,
                            .call_ranks = op->call_ranks,
                            .phase = DPU_EMU_PHASE_OTHER,
                            .name = "load",
                            .dur = r->prof->model.load_us * 1e-6};
        op->recs[i] = emu_model_rec_new(&r->tl, &d);
    }
}

static dpu_error_t load_set(struct dpu_set_t set, const uint8_t *elf, size_t len, const char *what,
                            struct dpu_program_t **program)
{
    dpu_error_t err = emu_set_check(set);
    if (err != DPU_OK)
        return err;
    struct dpu_program_t *p;
    err = emu_program_get(elf, len, what, &p);
    if (err != DPU_OK)
        return err;
    op_t *op = emu_op_new(OP_LOAD, set, exec_load, model_load, 1);
    if (op == NULL) {
        emu_program_put(p);
        return DPU_ERR_SYSTEM;
    }
    op->program = p; /* the op's reference */
    err = emu_op_submit(op, set, false);
    if (err == DPU_OK && program)
        *program = p;
    emu_op_put(op);
    return err;
}

/* see dpu.h */
dpu_error_t dpu_load_from_memory(struct dpu_set_t set, uint8_t *buffer, size_t size,
                                 struct dpu_program_t **program)
{
    emu_api_enter();
    dpu_error_t err =
        buffer == NULL ? DPU_ERR_ELF_INVALID_FILE : load_set(set, buffer, size, NULL, program);
    emu_api_exit();
    return err;
}

/* see dpu.h */
dpu_error_t dpu_load_from_incbin(struct dpu_set_t set, struct dpu_incbin_t *incbin,
                                 struct dpu_program_t **program)
{
    emu_api_enter();
    dpu_error_t err = incbin == NULL
                          ? DPU_ERR_ELF_INVALID_FILE
                          : load_set(set, incbin->buffer, incbin->size, incbin->path, program);
    emu_api_exit();
    return err;
}

/* see dpu.h */
dpu_error_t dpu_load(struct dpu_set_t set, const char *path, struct dpu_program_t **program)
{
    emu_api_enter();
    dpu_error_t err = DPU_OK;
    uint8_t *buf = NULL;
    size_t len = 0;
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (f == NULL) {
        err = DPU_ERR_ELF_NO_SUCH_FILE;
    } else {
        size_t cap = 1 << 16;
        buf = malloc(cap);
        while (buf != NULL) {
            size_t got = fread(buf + len, 1, cap - len, f);
            len += got;
            if (len < cap)
                break;
            uint8_t *nb = realloc(buf, cap * 2);
            if (nb == NULL) {
                free(buf);
                buf = NULL;
            } else {
                buf = nb;
                cap *= 2;
            }
        }
        if (buf == NULL || ferror(f))
            err = buf == NULL ? DPU_ERR_SYSTEM : DPU_ERR_ELF_INVALID_FILE;
        fclose(f);
    }
    if (err == DPU_OK)
        err = load_set(set, buf, len, path, program);
    free(buf);
    emu_api_exit();
    return err;
}

/* see dpu.h */
dpu_error_t dpu_get_symbol(struct dpu_program_t *program, const char *name,
                           struct dpu_symbol_t *symbol)
{
    if (program == NULL)
        return DPU_ERR_NO_PROGRAM_LOADED;
    vdpu_symbol_t s;
    if (name == NULL || symbol == NULL || vdpu_program_symbol(program->vp, name, &s) != VDPU_OK ||
        !s.host_visible)
        return DPU_ERR_UNKNOWN_SYMBOL;
    symbol->address = s.addr;
    symbol->size = s.size;
    return DPU_OK;
}

/* -------------------------------------------------------- transfers */

/* The modeled timeline a job of r goes on: the rank's, or for a parallel
 * job (DPU_XFER_PARALLEL, DPU_CALLBACK_PARALLEL) its parallel lane, which
 * does not wait for the rank's kernels -- as the SDK's job list, which
 * runs a parallel job while the rank's DPUs run (dpu_thread_job.c). */
static emu_timeline_t *lane(struct dpu_rank_t *r, bool parallel)
{
    if (!parallel)
        return &r->tl;
    pthread_mutex_lock(&r->mu);
    if (r->tl_par.mr == NULL)
        emu_model_timeline_init(&r->tl_par, r->id);
    pthread_mutex_unlock(&r->mu);
    return &r->tl_par;
}

/* The common program of the DPUs in scope. */
static dpu_error_t set_program(struct dpu_set_t set, struct dpu_program_t **out)
{
    struct dpu_rank_t **ranks, *one;
    struct dpu_t *single;
    uint32_t n = set_ranks(&set, &ranks, &one, &single);
    struct dpu_program_t *p = NULL;
    bool seen = false, missing = false;
    for (uint32_t i = 0; i < n; i++) {
        struct dpu_rank_t *r = ranks[i];
        for (uint32_t j = 0; j < r->nr_dpus; j++) {
            struct dpu_t *d = &r->dpus[j];
            if (!dpu_in_scope(d, single))
                continue;
            if (d->program == NULL) {
                missing = true;
            } else if (!seen) {
                p = d->program;
                seen = true;
            } else if (d->program != p) {
                return DPU_ERR_DIFFERENT_DPU_PROGRAMS;
            }
        }
    }
    if (!seen)
        return DPU_ERR_NO_PROGRAM_LOADED;
    if (missing)
        return DPU_ERR_DIFFERENT_DPU_PROGRAMS;
    *out = p;
    return DPU_OK;
}

/* see dpu_program.h */
dpu_error_t dpu_get_common_program(struct dpu_set_t *dpu_set, struct dpu_program_t **program)
{
    if (dpu_set == NULL || program == NULL)
        return DPU_ERR_INTERNAL;
    dpu_error_t err = emu_set_check(*dpu_set);
    return err != DPU_OK ? err : set_program(*dpu_set, program);
}

typedef struct {
    vdpu_mem_t mem;
    uint32_t offset; /* of the symbol inside its memory */
    uint32_t size;
} target_t;

static dpu_error_t target_by_name(struct dpu_set_t set, const char *name, target_t *t)
{
    struct dpu_program_t *p;
    dpu_error_t err = set_program(set, &p);
    if (err != DPU_OK)
        return err;
    vdpu_symbol_t s;
    if (name == NULL || vdpu_program_symbol(p->vp, name, &s) != VDPU_OK || !s.host_visible)
        return DPU_ERR_UNKNOWN_SYMBOL;
    t->mem = s.mem;
    t->offset = s.offset;
    t->size = s.size;
    if (s.mem == VDPU_MEM_ABS)
        return DPU_ERR_UNKNOWN_SYMBOL;
    return DPU_OK;
}

static void target_by_symbol(struct dpu_symbol_t s, target_t *t)
{
    if (s.address >= VDPU_IRAM_BASE) {
        t->mem = VDPU_MEM_IRAM;
        t->offset = s.address - VDPU_IRAM_BASE;
    } else if (s.address >= VDPU_MRAM_BASE) {
        t->mem = VDPU_MEM_MRAM;
        t->offset = s.address - VDPU_MRAM_BASE;
    } else {
        t->mem = VDPU_MEM_WRAM;
        t->offset = s.address;
    }
    t->size = s.size;
}

/* The SDK's checks, in its order (upmem-api.md §1.5). */
static dpu_error_t target_check(const target_t *t, uint32_t offset, size_t len,
                                dpu_xfer_flags_t flags)
{
    if ((uint64_t)offset + len > t->size)
        return DPU_ERR_INVALID_SYMBOL_ACCESS;
    if ((flags & DPU_XFER_PARALLEL) && t->mem != VDPU_MEM_WRAM)
        return DPU_ERR_INVALID_PARALLEL_MEMORY_TRANSFER;
    uint64_t at = (uint64_t)t->offset + offset;
    switch (t->mem) {
    case VDPU_MEM_IRAM:
        /* the virtual DPU's code is not host-writable */
        return DPU_ERR_INVALID_IRAM_ACCESS;
    case VDPU_MEM_WRAM:
        if (at % 4 || len % 4 || at + len > VDPU_WRAM_SIZE)
            return DPU_ERR_INVALID_WRAM_ACCESS;
        return DPU_OK;
    case VDPU_MEM_MRAM:
        if (at % 8 || len % 8 || at + len > VDPU_MRAM_SIZE)
            return DPU_ERR_INVALID_MRAM_ACCESS;
        return DPU_OK;
    default:
        return DPU_ERR_INVALID_MEMORY_TRANSFER;
    }
}

/* Scope DPUs of a rank that hold a program (all, after checks). */
static dpu_error_t dpu_write(struct dpu_t *d, vdpu_mem_t mem, uint32_t at, const void *src,
                             size_t len)
{
    vdpu_err_t e = mem == VDPU_MEM_WRAM ? vdpu_wram_write(d->v, at, src, len)
                                        : vdpu_mram_write(d->v, at, src, len);
    if (e == VDPU_OK)
        return DPU_OK;
    return mem == VDPU_MEM_WRAM ? DPU_ERR_INVALID_WRAM_ACCESS : DPU_ERR_INVALID_MRAM_ACCESS;
}

static dpu_error_t dpu_read(struct dpu_t *d, vdpu_mem_t mem, uint32_t at, void *dst, size_t len)
{
    vdpu_err_t e = mem == VDPU_MEM_WRAM ? vdpu_wram_read(d->v, at, dst, len)
                                        : vdpu_mram_read(d->v, at, dst, len);
    if (e == VDPU_OK)
        return DPU_OK;
    return mem == VDPU_MEM_WRAM ? DPU_ERR_INVALID_WRAM_ACCESS : DPU_ERR_INVALID_MRAM_ACCESS;
}

static dpu_error_t exec_xfer(op_t *op, job_t *job)
{
    struct dpu_rank_t *r = job->rank;
    dpu_error_t err = DPU_OK, skipped = DPU_OK;
    uint32_t k = 0;
    for (uint32_t j = 0; j < r->nr_dpus && err == DPU_OK; j++) {
        struct dpu_t *d = &r->dpus[j];
        if (!dpu_in_scope(d, op->single))
            continue;
        void *b = op->bufs ? op->bufs[job->rank_pos][j] : NULL;
        if (op->bufs && b == NULL)
            continue;
        k++;
        if (op->type == OP_XFER_TO) {
            err = dpu_write(d, op->mem, op->offset, b ? b : op->src, op->len);
        } else if (d->not_simulated) {
            /* A timing-only launch skipped this DPU: its memory is not what
             * the program computes, so nothing is copied and the call fails.
             * The transfer is still priced (the experiments need its modeled
             * time), hence no early exit. */
            skipped = DPU_ERR_EMU_NOT_SIMULATED;
        } else {
            err = dpu_read(d, op->mem, op->offset, b ? b : op->dst, op->len);
        }
    }
    if (err == DPU_OK)
        err = skipped;
    return err;
}

/* Priced at submission from what moves: len bytes to or from each DPU of the
 * rank's scope (a push: each DPU with a prepared buffer). */
static void model_xfer(op_t *op, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        struct dpu_rank_t *r = op->ranks[i];
        uint32_t k = 0;
        for (uint32_t j = 0; j < r->nr_dpus; j++)
            if (dpu_in_scope(&r->dpus[j], op->single) && (!op->bufs || op->bufs[i][j]))
                k++;
        emu_rec_desc_t d = {.kind = EMU_REC_XFER,
                            .op = op->model_id,
                            .prof = r->prof,
                            .call_ranks = op->call_ranks,
                            .to = op->type == OP_XFER_TO,
                            .xk = op->kind,
                            .len = op->len,
                            .k = k};
        op->recs[i] = emu_model_rec_new(lane(r, op->parallel), &d);
    }
}

static dpu_error_t exec_xfers(op_t *op, job_t *jobs, uint32_t n)
{
    dpu_error_t err = DPU_OK;
    for (uint32_t i = 0; i < n; i++) {
        dpu_error_t e = exec_xfer(op, &jobs[i]);
        if (err == DPU_OK)
            err = e;
    }
    return err;
}

/* Queues or runs one transfer call. */
static dpu_error_t xfer_submit(struct dpu_set_t set, op_type_t type, xfer_kind_t kind,
                               const target_t *t, uint32_t offset, const void *src, void *dst,
                               size_t len, dpu_xfer_flags_t flags)
{
    dpu_error_t err = target_check(t, offset, len, flags);
    if (err != DPU_OK)
        return err;
    op_t *op = emu_op_new(type, set, exec_xfers, model_xfer, 1);
    if (op == NULL)
        return DPU_ERR_SYSTEM;
    op->kind = kind;
    op->parallel = (flags & DPU_XFER_PARALLEL) != 0;
    op->mem = t->mem;
    op->offset = t->offset + offset;
    op->len = len;
    op->src = src;
    op->dst = dst;
    if (kind == XK_PARALLEL) {
        /* snapshot the rank tables now; clear them unless NO_RESET */
        struct dpu_rank_t **ranks, *one;
        struct dpu_t *single;
        uint32_t n = set_ranks(&set, &ranks, &one, &single);
        op->bufs = calloc(n, sizeof *op->bufs);
        op->nbufs = op->bufs ? n : 0;
        for (uint32_t i = 0; i < n && op->bufs; i++) {
            struct dpu_rank_t *r = ranks[i];
            op->bufs[i] = calloc(r->nr_dpus, sizeof(void *));
            if (op->bufs[i] == NULL) {
                emu_op_put(op);
                return DPU_ERR_SYSTEM;
            }
            pthread_mutex_lock(&r->mu);
            for (uint32_t j = 0; j < r->nr_dpus; j++) {
                struct dpu_t *d = &r->dpus[j];
                if (!dpu_in_scope(d, single))
                    continue;
                op->bufs[i][j] = d->xfer_buf;
                if (!(flags & DPU_XFER_NO_RESET))
                    d->xfer_buf = NULL;
            }
            pthread_mutex_unlock(&r->mu);
        }
        if (op->bufs == NULL) {
            emu_op_put(op);
            return DPU_ERR_SYSTEM;
        }
    }
    err = emu_op_submit(op, set, (flags & DPU_XFER_ASYNC) != 0);
    emu_op_put(op);
    return err;
}

static dpu_error_t copy_to(struct dpu_set_t set, const target_t *t, uint32_t off, const void *src,
                           size_t len)
{
    if (len == 0)
        return DPU_OK;
    return xfer_submit(set, OP_XFER_TO, set.kind == DPU_SET_DPU ? XK_SERIAL : XK_BROADCAST, t, off,
                       src, NULL, len, DPU_XFER_DEFAULT);
}

static dpu_error_t copy_from(struct dpu_set_t set, const target_t *t, uint32_t off, void *dst,
                             size_t len)
{
    if (len == 0)
        return DPU_OK;
    return xfer_submit(set, OP_XFER_FROM, XK_SERIAL, t, off, NULL, dst, len, DPU_XFER_DEFAULT);
}

static dpu_error_t broadcast(struct dpu_set_t set, const target_t *t, uint32_t off, const void *src,
                             size_t len, dpu_xfer_flags_t flags)
{
    if (len == 0)
        return DPU_OK;
    return xfer_submit(set, OP_XFER_TO, set.kind == DPU_SET_DPU ? XK_SERIAL : XK_BROADCAST, t, off,
                       src, NULL, len, flags);
}

static dpu_error_t push(struct dpu_set_t set, dpu_xfer_t dir, const target_t *t, uint32_t off,
                        size_t len, dpu_xfer_flags_t flags)
{
    if (dir != DPU_XFER_TO_DPU && dir != DPU_XFER_FROM_DPU)
        return DPU_ERR_INVALID_MEMORY_TRANSFER;
    if (len == 0)
        return DPU_OK;
    return xfer_submit(set, dir == DPU_XFER_TO_DPU ? OP_XFER_TO : OP_XFER_FROM, XK_PARALLEL, t, off,
                       NULL, NULL, len, flags);
}

#define WITH_NAME(set, name, call)                                                                 \
    do {                                                                                           \
        emu_api_enter();                                                                           \
        target_t t_;                                                                               \
        dpu_error_t err_ = emu_set_check(set);                                                     \
        if (err_ == DPU_OK)                                                                        \
            err_ = target_by_name(set, name, &t_);                                                 \
        if (err_ == DPU_OK)                                                                        \
            err_ = call;                                                                           \
        emu_api_exit();                                                                            \
        return err_;                                                                               \
    } while (0)

#define WITH_SYMBOL(set, sym, call)                                                                \
    do {                                                                                           \
        emu_api_enter();                                                                           \
        target_t t_;                                                                               \
        dpu_error_t err_ = emu_set_check(set);                                                     \
        target_by_symbol(sym, &t_);                                                                \
        if (err_ == DPU_OK)                                                                        \
            err_ = call;                                                                           \
        emu_api_exit();                                                                            \
        return err_;                                                                               \
    } while (0)

/* see dpu.h */
dpu_error_t dpu_copy_to(struct dpu_set_t set, const char *name, uint32_t off, const void *src,
                        size_t len)
{
    WITH_NAME(set, name, copy_to(set, &t_, off, src, len));
}

/* see dpu.h */
dpu_error_t dpu_copy_to_symbol(struct dpu_set_t set, struct dpu_symbol_t sym, uint32_t off,
                               const void *src, size_t len)
{
    WITH_SYMBOL(set, sym, copy_to(set, &t_, off, src, len));
}

/* see dpu.h */
dpu_error_t dpu_copy_from(struct dpu_set_t set, const char *name, uint32_t off, void *dst,
                          size_t len)
{
    if (set.kind != DPU_SET_DPU)
        return DPU_ERR_INVALID_DPU_SET;
    WITH_NAME(set, name, copy_from(set, &t_, off, dst, len));
}

/* see dpu.h */
dpu_error_t dpu_copy_from_symbol(struct dpu_set_t set, struct dpu_symbol_t sym, uint32_t off,
                                 void *dst, size_t len)
{
    if (set.kind != DPU_SET_DPU)
        return DPU_ERR_INVALID_DPU_SET;
    WITH_SYMBOL(set, sym, copy_from(set, &t_, off, dst, len));
}

/* see dpu.h */
dpu_error_t dpu_broadcast_to(struct dpu_set_t set, const char *name, uint32_t off, const void *src,
                             size_t len, dpu_xfer_flags_t flags)
{
    WITH_NAME(set, name, broadcast(set, &t_, off, src, len, flags));
}

/* see dpu.h */
dpu_error_t dpu_broadcast_to_symbol(struct dpu_set_t set, struct dpu_symbol_t sym, uint32_t off,
                                    const void *src, size_t len, dpu_xfer_flags_t flags)
{
    WITH_SYMBOL(set, sym, broadcast(set, &t_, off, src, len, flags));
}

/* see dpu.h */
dpu_error_t dpu_push_xfer(struct dpu_set_t set, dpu_xfer_t xfer, const char *name, uint32_t off,
                          size_t len, dpu_xfer_flags_t flags)
{
    WITH_NAME(set, name, push(set, xfer, &t_, off, len, flags));
}

/* see dpu.h */
dpu_error_t dpu_push_xfer_symbol(struct dpu_set_t set, dpu_xfer_t xfer, struct dpu_symbol_t sym,
                                 uint32_t off, size_t len, dpu_xfer_flags_t flags)
{
    WITH_SYMBOL(set, sym, push(set, xfer, &t_, off, len, flags));
}

/* see dpu.h */
dpu_error_t dpu_prepare_xfer(struct dpu_set_t set, void *buffer)
{
    dpu_error_t err = emu_set_check(set);
    if (err != DPU_OK)
        return err;
    struct dpu_rank_t **ranks, *one;
    struct dpu_t *single;
    uint32_t n = set_ranks(&set, &ranks, &one, &single);
    for (uint32_t i = 0; i < n; i++) {
        struct dpu_rank_t *r = ranks[i];
        pthread_mutex_lock(&r->mu);
        for (uint32_t j = 0; j < r->nr_dpus; j++)
            if (dpu_in_scope(&r->dpus[j], single))
                r->dpus[j].xfer_buf = buffer;
        pthread_mutex_unlock(&r->mu);
    }
    return DPU_OK;
}

/* --------------------------------------------------- scatter/gather */

typedef struct {
    uint8_t *addr;
    uint32_t len;
} sg_blk_t;

typedef struct {
    sg_blk_t *b;
    uint32_t n;
    uint64_t total;
} sg_dpu_t;

/* The blocks of every DPU of the call: dpus[rank position][dpu index]. */
typedef struct {
    uint32_t nr_ranks;
    sg_dpu_t **dpus;
} sg_plan_t;

static void sg_plan_free(void *p)
{
    sg_plan_t *plan = p;
    if (plan == NULL)
        return;
    for (uint32_t i = 0; i < plan->nr_ranks && plan->dpus; i++) {
        for (uint32_t j = 0; plan->dpus[i] && j < HOST_MAX_DPUS_PER_RANK; j++)
            free(plan->dpus[i][j].b);
        free(plan->dpus[i]);
    }
    free(plan->dpus);
    free(plan);
}

/* The DPU's position in its allocation (what the SDK passes get_block:
 * the rank's offset in the allocated set plus the DPU's index in it). */
static uint32_t sg_dpu_index(const struct dpu_t *d)
{
    const alloc_t *a = d->rank->owner;
    uint32_t idx = 0;
    for (uint32_t i = 0; i < a->nr_ranks && a->ranks[i] != d->rank; i++)
        idx += a->ranks[i]->nr_enabled;
    for (uint32_t j = 0; j < d->index; j++)
        idx += d->rank->dpus[j].enabled;
    return idx;
}

/* Collects every DPU's blocks with the SDK's checks, in its order
 * (dpu_memory.c, sg_xfer_rank_handler): the block limit, then the length. */
static dpu_error_t sg_collect(struct dpu_set_t set, size_t length, const get_block_t *info,
                              bool check_length, sg_plan_t **out)
{
    struct dpu_rank_t **ranks, *one;
    struct dpu_t *single;
    uint32_t n = set_ranks(&set, &ranks, &one, &single);
    const alloc_t *a = ranks[0]->owner;
    uint32_t max_blocks = ranks[0]->prof->sg_max_blocks;
    if (max_blocks == 0)
        for (uint32_t i = 0; i < a->nr_ranks; i++)
            max_blocks += a->ranks[i]->nr_enabled;
    /* the SDK hands get_block a copy of the arguments made at the call */
    void *args = info->args;
    if (info->args_size > 0) {
        args = malloc(info->args_size);
        if (args == NULL)
            return DPU_ERR_SYSTEM;
        memcpy(args, info->args, info->args_size);
    }
    sg_plan_t *plan = calloc(1, sizeof *plan);
    dpu_error_t err = plan ? DPU_OK : DPU_ERR_SYSTEM;
    if (plan) {
        plan->dpus = calloc(n, sizeof *plan->dpus);
        plan->nr_ranks = plan->dpus ? n : 0;
        if (plan->dpus == NULL)
            err = DPU_ERR_SYSTEM;
    }
    for (uint32_t i = 0; i < n && err == DPU_OK; i++) {
        struct dpu_rank_t *r = ranks[i];
        plan->dpus[i] = calloc(HOST_MAX_DPUS_PER_RANK, sizeof *plan->dpus[i]);
        if (plan->dpus[i] == NULL) {
            err = DPU_ERR_SYSTEM;
            break;
        }
        for (uint32_t j = 0; j < r->nr_dpus && err == DPU_OK; j++) {
            struct dpu_t *d = &r->dpus[j];
            if (!dpu_in_scope(d, single))
                continue;
            sg_dpu_t *sd = &plan->dpus[i][j];
            uint32_t idx = sg_dpu_index(d), cap = 0;
            for (uint32_t b = 0;; b++) {
                struct sg_block_info bi = {NULL, 0};
                if (!info->f(&bi, idx, b, args)) {
                    if (check_length && sd->total != length)
                        err = DPU_ERR_SG_LENGTH_MISMATCH;
                    break;
                }
                if (b >= max_blocks) {
                    err = DPU_ERR_SG_TOO_MANY_BLOCKS;
                    break;
                }
                if (bi.length == 0)
                    continue;
                /* more than length: refused even without the check (the
                 * SDK's transfer matrix holds length bytes per DPU) */
                if (sd->total + bi.length > length || bi.addr == NULL) {
                    err = bi.addr == NULL ? DPU_ERR_INTERNAL : DPU_ERR_SG_LENGTH_MISMATCH;
                    break;
                }
                if (sd->n == cap) {
                    cap = cap ? cap * 2 : 4;
                    sg_blk_t *nb = realloc(sd->b, cap * sizeof *nb);
                    if (nb == NULL) {
                        err = DPU_ERR_SYSTEM;
                        break;
                    }
                    sd->b = nb;
                }
                sd->b[sd->n++] = (sg_blk_t){bi.addr, bi.length};
                sd->total += bi.length;
            }
        }
    }
    if (args != info->args)
        free(args);
    if (err != DPU_OK) {
        sg_plan_free(plan);
        return err;
    }
    *out = plan;
    return DPU_OK;
}

static dpu_error_t exec_sg(op_t *op, job_t *jobs, uint32_t n)
{
    static const uint8_t zeros[4096];
    const sg_plan_t *plan = op->sg;
    dpu_error_t err = DPU_OK;
    for (uint32_t i = 0; i < n && err == DPU_OK; i++) {
        struct dpu_rank_t *r = jobs[i].rank;
        const sg_dpu_t *dpus = plan->dpus[jobs[i].rank_pos];
        for (uint32_t j = 0; j < r->nr_dpus && err == DPU_OK; j++) {
            struct dpu_t *d = &r->dpus[j];
            const sg_dpu_t *sd = &dpus[j];
            if (!dpu_in_scope(d, op->single) || sd->total == 0)
                continue; /* a DPU without blocks is not part of the transfer */
            if (op->type == OP_XFER_FROM && d->not_simulated) {
                err = DPU_ERR_EMU_NOT_SIMULATED; /* see exec_xfer */
                continue;
            }
            uint32_t at = op->offset;
            for (uint32_t b = 0; b < sd->n && err == DPU_OK; b++) {
                err = op->type == OP_XFER_TO
                          ? dpu_write(d, VDPU_MEM_MRAM, at, sd->b[b].addr, sd->b[b].len)
                          : dpu_read(d, VDPU_MEM_MRAM, at, sd->b[b].addr, sd->b[b].len);
                at += sd->b[b].len;
            }
            /* DISABLE_LENGTH_CHECK: the rest of length is zero-filled */
            for (uint64_t left = op->len - sd->total;
                 op->type == OP_XFER_TO && left > 0 && err == DPU_OK;) {
                uint32_t c = left < sizeof zeros ? (uint32_t)left : (uint32_t)sizeof zeros;
                err = dpu_write(d, VDPU_MEM_MRAM, at, zeros, c);
                at += c;
                left -= c;
            }
        }
    }
    return err;
}

/* Priced as the push it is on hardware: length bytes to or from each DPU
 * that has blocks (the transfer matrix is length bytes per DPU). */
static void model_sg(op_t *op, uint32_t n)
{
    const sg_plan_t *plan = op->sg;
    for (uint32_t i = 0; i < n; i++) {
        struct dpu_rank_t *r = op->ranks[i];
        uint32_t k = 0;
        for (uint32_t j = 0; j < r->nr_dpus; j++)
            k += dpu_in_scope(&r->dpus[j], op->single) && plan->dpus[i][j].total > 0;
        emu_rec_desc_t d = {.kind = EMU_REC_XFER,
                            .op = op->model_id,
                            .prof = r->prof,
                            .call_ranks = op->call_ranks,
                            .to = op->type == OP_XFER_TO,
                            .xk = XK_PARALLEL,
                            .len = op->len,
                            .k = k};
        op->recs[i] = emu_model_rec_new(&r->tl, &d);
    }
}

static dpu_error_t sg_submit(struct dpu_set_t set, dpu_xfer_t xfer, const target_t *t, uint32_t off,
                             size_t length, get_block_t *info, dpu_sg_xfer_flags_t flags)
{
    if (set.kind == DPU_SET_DPU)
        return DPU_ERR_INTERNAL; /* the SDK: "scattered xfer to one DPU is not supported" */
    if (t->mem != VDPU_MEM_MRAM)
        return DPU_ERR_SG_NOT_MRAM_SYMBOL;
    if (info == NULL || info->f == NULL)
        return DPU_ERR_INTERNAL;
    if (xfer != DPU_XFER_TO_DPU && xfer != DPU_XFER_FROM_DPU)
        return DPU_ERR_INVALID_MEMORY_TRANSFER;
    struct dpu_rank_t **ranks, *one;
    struct dpu_t *single;
    uint32_t nr = set_ranks(&set, &ranks, &one, &single);
    for (uint32_t i = 0; i < nr; i++)
        if (!ranks[i]->prof->sg_xfer_enable)
            return DPU_ERR_SG_NOT_ACTIVATED;
    uint64_t at = (uint64_t)t->offset + off;
    if (length == 0)
        return DPU_OK;
    if (at % 8 || length % 8 || at + length > VDPU_MRAM_SIZE)
        return DPU_ERR_INVALID_MRAM_ACCESS;
    sg_plan_t *plan;
    dpu_error_t err =
        sg_collect(set, length, info, (flags & DPU_SG_XFER_DISABLE_LENGTH_CHECK) == 0, &plan);
    if (err != DPU_OK)
        return err;
    op_t *op =
        emu_op_new(xfer == DPU_XFER_TO_DPU ? OP_XFER_TO : OP_XFER_FROM, set, exec_sg, model_sg, 1);
    if (op == NULL) {
        sg_plan_free(plan);
        return DPU_ERR_SYSTEM;
    }
    op->sg = plan;
    op->sg_free = sg_plan_free;
    op->kind = XK_PARALLEL;
    op->mem = VDPU_MEM_MRAM;
    op->offset = (uint32_t)at;
    op->len = length;
    err = emu_op_submit(op, set, (flags & DPU_SG_XFER_ASYNC) != 0);
    emu_op_put(op);
    return err;
}

/* see dpu.h */
dpu_error_t dpu_push_sg_xfer(struct dpu_set_t set, dpu_xfer_t xfer, const char *name, uint32_t off,
                             size_t length, get_block_t *info, dpu_sg_xfer_flags_t flags)
{
    WITH_NAME(set, name, sg_submit(set, xfer, &t_, off, length, info, flags));
}

/* see dpu.h */
dpu_error_t dpu_push_sg_xfer_symbol(struct dpu_set_t set, dpu_xfer_t xfer, struct dpu_symbol_t sym,
                                    uint32_t off, size_t length, get_block_t *info,
                                    dpu_sg_xfer_flags_t flags)
{
    WITH_SYMBOL(set, sym, sg_submit(set, xfer, &t_, off, length, info, flags));
}

/* ----------------------------------------------------------- launch */

static void run_one(void *arg, uint32_t i)
{
    struct dpu_t *d = ((struct dpu_t **)arg)[i];
    if (d->res == NULL)
        d->res = malloc(sizeof *d->res);
    if (d->res == NULL) {
        d->fault = true;
        return;
    }
    /* sampleReuse (timing-only): an identical run's result; not with a DPU
     * profile or a debugger, which want the run itself */
    const profile_t *prof = d->rank->prof;
    void *token = NULL;
    d->reused = prof->sample_reuse && !prof->dpu_profile && !prof->gdb &&
                emu_reuse_begin(d->program, d->v, d->res, &token);
    if (d->reused) {
        d->fault = false;
        return;
    }
    vdpu_err_t e = vdpu_run(d->v, d->res);
    d->fault = e != VDPU_OK || d->res->status == VDPU_STATUS_FAULT;
    emu_reuse_end(token, d->v, d->res, !d->fault);
    if (d->rank->prof->dpu_profile && e == VDPU_OK)
        emu_dpuprof_add(d->rank->prof->dpu_profile, d->program, vdpu_profile_last(d->v));
    if (e != VDPU_OK) {
        memset(d->res, 0, sizeof *d->res);
        d->res->status = VDPU_STATUS_FAULT;
        d->res->fault_tasklet = -1;
        snprintf(d->res->fault_msg, sizeof d->res->fault_msg, "%s", vdpu_strerror(e));
    }
}

/* Modeled cycles of a run: the timed model's count, or in FAST mode (no
 * cycle count) a lower bound from the issue slots and the revolver rule. */
static uint64_t run_cycles(const struct dpu_t *d)
{
    const vdpu_result_t *res = d->res;
    if (res == NULL)
        return 0;
    if (res->cycles)
        return res->cycles;
    uint64_t c = res->slots, gap = vdpu_get_params(d->v)->timing.revolver_cycles;
    for (unsigned t = 0; t < res->nr_tasklets && t < VDPU_MAX_TASKLETS; t++)
        if (res->tasklet[t].slots * gap > c)
            c = res->tasklet[t].slots * gap;
    return c;
}

/* One line per launch call however many DPUs faulted (2,560 identical
 * lines helped nobody): the first faulting DPU, and how many others. */
static void report_fault(const struct dpu_t *d, uint32_t others)
{
    const vdpu_result_t *res = d->res;
    char more[64] = "";
    if (others)
        snprintf(more, sizeof more, " (and %u other DPU%s of this launch)", others,
                 others == 1 ? "" : "s");
    flockfile(stderr);
    fprintf(stderr,
            "DPU 0x%x (rank %u, dpu %u) faulted: tasklet %d, pc 0x%08x, function %s: %s%s%s",
            emu_dpu_id(d), d->rank->id, d->index, res->fault_tasklet, res->fault_pc,
            res->fault_func[0] ? res->fault_func : "?",
            res->fault_msg[0] ? res->fault_msg : vdpu_fault_name(res->fault_code), more,
            res->detail[0] ? "; " : "\n");
    /* where every live tasklet is (watchdog, deadlock), on the same line */
    const char *sep = "";
    for (const char *l = res->detail; *l;) {
        while (*l == ' ')
            l++;
        const char *e = strchr(l, '\n');
        int len = e ? (int)(e - l) : (int)strlen(l);
        fprintf(stderr, "%s%.*s", sep, len, l);
        sep = "; ";
        l += len + (e != NULL);
    }
    if (res->detail[0])
        fputc('\n', stderr);
    funlockfile(stderr);
}

/* Rules a program broke that the virtual DPU answered as the hardware does
 * (vdpu_rules_t): each place once per program (the virtual DPU marks them),
 * and at exit how many times in all. */
static uint64_t rule_dmas, rule_places, rule_stops;

static void __attribute__((destructor)) report_rules_total(void)
{
    uint64_t n = __atomic_load_n(&rule_dmas, __ATOMIC_RELAXED);
    uint64_t k = __atomic_load_n(&rule_places, __ATOMIC_RELAXED);
    uint64_t e = __atomic_load_n(&rule_stops, __ATOMIC_RELAXED);
    if (k == 0)
        return;
    fprintf(stderr,
            "virtual UPMEM: in all, %llu DMA%s broke the DMA rules and %llu run%s ended with "
            "stopped tasklets, at %llu place%s warned about above (done as the hardware does; "
            "dmaRules=strict / stopRules=strict make them faults, =quiet silences them)\n",
            (unsigned long long)n, n == 1 ? "" : "s", (unsigned long long)e, e == 1 ? "" : "s",
            (unsigned long long)k, k == 1 ? "" : "s");
}

static void report_notes(const struct dpu_t *d)
{
    const vdpu_result_t *res = d->res;
    if (res->dma_rule_hits)
        __atomic_fetch_add(&rule_dmas, res->dma_rule_hits, __ATOMIC_RELAXED);
    if (res->stopped_early)
        __atomic_fetch_add(&rule_stops, 1, __ATOMIC_RELAXED);
    if (!res->notes[0])
        return;
    flockfile(stderr);
    for (const char *l = res->notes; *l;) {
        const char *e = strchr(l, '\n');
        int len = e ? (int)(e - l) : (int)strlen(l);
        if (*l == ' ') { /* a tasklet's place under the warning before it */
            fprintf(stderr, "%.*s\n", len, l);
        } else {
            __atomic_fetch_add(&rule_places, 1, __ATOMIC_RELAXED);
            fprintf(stderr, "virtual UPMEM: warning: DPU 0x%x: %.*s\n", emu_dpu_id(d), len, l);
        }
        l += len + (e != NULL);
    }
    funlockfile(stderr);
}

/* Does DPU d of the launch scope run, or is it sampled away?  With the
 * profile key sampleDpus=N only the first N enabled DPUs of the scope in
 * each rank run; the caller promises that every DPU has the same work and
 * the kernel is data-oblivious, so the others would take the same cycles
 * (docs/VIRTUAL_UPMEM_HOST.md §5, docs/MODEL.md). */
static bool launch_runs(const struct dpu_rank_t *r, uint32_t pos_in_scope)
{
    return r->prof->sample_dpus == 0 || pos_in_scope < r->prof->sample_dpus;
}

/* sampleRanks=S (timing-only, docs/VIRTUAL_UPMEM_HOST.md §5): only the first
 * S ranks of the allocation (the executors) run launches; the i-th launch of
 * any other rank is charged the slowest of the executors' i-th launches
 * (launches counted per rank as they are submitted, DPU set launches apart)
 * and runs nothing: its DPUs' memory is left as it was and reads of them
 * fail (DPU_ERR_EMU_NOT_SIMULATED), as sampleDpus's.  The caller promises
 * what sampleDpus asks (equal work, data-oblivious kernel) for every rank
 * and the same sequence of launches on every rank; the library checks what
 * it can: the executors' i-th launch must exist (be submitted before) and
 * run the same program, else the rank runs its launch itself, as it does
 * when an executor's launch never ran (a dropped job). */
enum { LROLE_RUN = 0, LROLE_EXEC = 1, LROLE_CHARGED = 2 };

static uint8_t launch_role(const op_t *op, uint32_t pos)
{
    return op->lrole ? op->lrole[pos] : LROLE_RUN;
}

/* The program of every enabled DPU of r, or NULL if they differ. */
static const struct dpu_program_t *rank_program(const struct dpu_rank_t *r)
{
    const struct dpu_program_t *p = NULL;
    bool seen = false;
    for (uint32_t j = 0; j < r->nr_dpus; j++) {
        if (!r->dpus[j].enabled)
            continue;
        if (seen && r->dpus[j].program != p)
            return NULL;
        p = r->dpus[j].program;
        seen = true;
    }
    return p;
}

/* At submission (the submitting thread, in call order): numbers the launch
 * on each rank and gives each its role. */
static void sample_roles(op_t *op, uint32_t n)
{
    if (op->single || n == 0 || op->ranks[0]->prof->sample_ranks == 0)
        return;
    alloc_t *a = op->ranks[0]->owner;
    const uint32_t S = op->ranks[0]->prof->sample_ranks;
    op->lseq = calloc(n, sizeof *op->lseq);
    op->lrole = calloc(n, sizeof *op->lrole);
    if (op->lseq == NULL || op->lrole == NULL) {
        /* not counted on any rank: it runs everywhere, the numbering stays
         * aligned */
        free(op->lseq), free(op->lrole);
        op->lseq = NULL, op->lrole = NULL;
        return;
    }
    pthread_mutex_lock(&a->sample_mu);
    for (uint32_t i = 0; i < n; i++) {
        struct dpu_rank_t *r = op->ranks[i];
        const uint64_t seq = r->nlaunch++;
        const struct dpu_program_t *prog = rank_program(r);
        op->lseq[i] = seq;
        if (r->pos < S) {
            if (!r->sample_broken && r->nsamples == seq && r->nsamples == r->samples_cap) {
                uint64_t cap = r->samples_cap ? 2 * r->samples_cap : 64;
                emu_launch_sample_t *v = realloc(r->samples, cap * sizeof *v);
                if (v)
                    r->samples = v, r->samples_cap = cap;
            }
            if (!r->sample_broken && r->nsamples == seq && seq < r->samples_cap) {
                r->samples[seq] = (emu_launch_sample_t){prog, 0, EMU_SAMPLE_PENDING};
                r->nsamples++;
                op->lrole[i] = LROLE_EXEC;
            } else {
                r->sample_broken = true; /* later launches: charged ranks run */
            }
            continue;
        }
        bool ok = prog != NULL;
        for (uint32_t k = 0; k < S && k < a->nr_ranks && ok; k++) {
            const struct dpu_rank_t *e = a->ranks[k];
            ok = seq < e->nsamples && e->samples[seq].program == prog;
        }
        op->lrole[i] = ok ? LROLE_CHARGED : LROLE_RUN;
    }
    pthread_mutex_unlock(&a->sample_mu);
}

/* An executor's launch ended (state DONE with its cycles) or never will run
 * (FAILED): wakes the ranks charged with it. */
static void sample_publish(op_t *op, uint32_t pos, emu_sample_state_t state, uint64_t cycles)
{
    if (launch_role(op, pos) != LROLE_EXEC)
        return;
    struct dpu_rank_t *r = op->ranks[pos];
    alloc_t *a = r->owner;
    pthread_mutex_lock(&a->sample_mu);
    emu_launch_sample_t *smp = &r->samples[op->lseq[pos]];
    if (smp->state == EMU_SAMPLE_PENDING) {
        smp->cycles = cycles;
        smp->state = state;
    }
    pthread_cond_broadcast(&a->sample_cv);
    pthread_mutex_unlock(&a->sample_mu);
}

static void launch_cancel(op_t *op, uint32_t pos)
{
    sample_publish(op, pos, EMU_SAMPLE_FAILED, 0);
}

/* The cycles a charged rank takes: the executors' slowest for its launch
 * number, once they all ran; false if one never will (the rank runs). The
 * executors' jobs never wait for anyone, and an executor's launch is
 * submitted before the rank's, so the wait ends. */
static bool sample_wait(op_t *op, uint32_t pos, uint64_t *cycles)
{
    const struct dpu_rank_t *r = op->ranks[pos];
    alloc_t *a = r->owner;
    const uint32_t S = r->prof->sample_ranks;
    const uint64_t seq = op->lseq[pos];
    bool ok = true;
    uint64_t max = 0;
    pthread_mutex_lock(&a->sample_mu);
    for (uint32_t k = 0; k < S && k < a->nr_ranks; k++) {
        const emu_launch_sample_t *smp = &a->ranks[k]->samples[seq];
        while (smp->state == EMU_SAMPLE_PENDING) {
            pthread_cond_wait(&a->sample_cv, &a->sample_mu);
            smp = &a->ranks[k]->samples[seq]; /* (the array may have moved) */
        }
        if (smp->state == EMU_SAMPLE_FAILED)
            ok = false;
        else if (smp->cycles > max)
            max = smp->cycles;
    }
    pthread_mutex_unlock(&a->sample_mu);
    *cycles = max;
    return ok;
}

/* With profile=FILE, the trace's DPU-side spans of the launch record: each
 * tasklet of the rank's slowest executed DPU, from its first issue to its
 * exit (the profiler's boot and done). */
static void set_dpu_spans(emu_rec_t *rec, struct dpu_rank_t *r, const struct dpu_t *single,
                          uint64_t max)
{
    for (uint32_t j = 0; j < r->nr_dpus; j++) {
        struct dpu_t *d = &r->dpus[j];
        if (!dpu_in_scope(d, single) || d->not_simulated || d->res == NULL || d->res->cycles != max)
            continue;
        const vprof_t *p = vdpu_profile_last(d->v);
        if (p == NULL || !p->timed)
            return;
        uint64_t span[24][2];
        unsigned n = p->nr_tasklets < 24 ? p->nr_tasklets : 24;
        for (unsigned k = 0; k < n; k++) {
            span[k][0] = p->tasklet[k].boot;
            span[k][1] = p->cycles_max - p->tasklet[k].done;
        }
        emu_model_set_dpu_spans(rec, (const uint64_t(*)[2])span, n);
        return;
    }
}

/* Runs the DPUs of the jobs (of jobs[0..n)) that `pick` selects, in
 * parallel, and sets each rank's modeled cycles: its slowest executed DPU's.
 * Returns DPU_ERR_SYSTEM if it could not run them. */
static dpu_error_t run_ranks(op_t *op, job_t *jobs, uint32_t n, const bool *pick, dpu_error_t *err,
                             const struct dpu_t **first_fault, uint32_t *faults)
{
    uint32_t total = 0;
    for (uint32_t i = 0; i < n; i++)
        if (pick[i])
            total += op->single ? 1 : jobs[i].rank->nr_enabled;
    struct dpu_t **dpus = malloc((total ? total : 1) * sizeof *dpus);
    if (dpus == NULL)
        return DPU_ERR_SYSTEM;
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        struct dpu_rank_t *r = jobs[i].rank;
        uint32_t pos = 0;
        for (uint32_t j = 0; pick[i] && j < r->nr_dpus; j++)
            if (dpu_in_scope(&r->dpus[j], op->single) && launch_runs(r, pos++))
                dpus[m++] = &r->dpus[j];
    }
    emu_dpugdb_launch(dpus, m);
    emu_pool_for(m, run_one, dpus);
    if (m && dpus[0]->rank->prof->dpu_profile) {
        /* the launch's line in the DPU profile: its executed DPUs, by program */
        for (uint32_t i = 0; i < m; i++) {
            struct dpu_t *d = dpus[i];
            if (d->program == NULL || d->res == NULL)
                continue;
            emu_dpuprof_launch(d->rank->prof->dpu_profile, d->program, op->model_id, 1,
                               d->res->cycles, d->res->cycles, d->fault ? 1u : 0u);
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        if (!pick[i])
            continue;
        struct dpu_rank_t *r = jobs[i].rank;
        uint64_t max = 0;
        uint32_t pos = 0;
        for (uint32_t j = 0; j < r->nr_dpus; j++) {
            struct dpu_t *d = &r->dpus[j];
            if (!dpu_in_scope(d, op->single))
                continue;
            if (!launch_runs(r, pos++)) {
                /* not executed: memory untouched, no fault; its modeled
                 * cycles are the slowest executed DPU's (the max below);
                 * reads of it fail until it runs again */
                d->fault = false;
                d->not_simulated = true;
                continue;
            }
            /* a reused run (sampleReuse) did not compute the DPU's memory */
            d->not_simulated = d->reused;
            if (d->res)
                report_notes(d);
            uint64_t c = run_cycles(d);
            if (c > max)
                max = c;
            if (d->fault) {
                if ((*faults)++ == 0)
                    *first_fault = d;
                *err = DPU_ERR_DPU_FAULT;
            }
        }
        emu_rec_t **rec = emu_op_recs(op, jobs[i].rank_pos);
        if (rec)
            emu_model_set_cycles(rec[0], max);
        if (rec && r->prof->dpu_profile)
            set_dpu_spans(rec[0], r, op->single, max);
        sample_publish(op, jobs[i].rank_pos, EMU_SAMPLE_DONE, max);
    }
    free(dpus);
    return DPU_OK;
}

static dpu_error_t exec_launch(op_t *op, job_t *jobs, uint32_t n)
{
    bool *pick = calloc(n ? n : 1, sizeof *pick);
    dpu_error_t err = DPU_OK;
    const struct dpu_t *first_fault = NULL;
    uint32_t faults = 0;
    if (pick == NULL) {
        for (uint32_t i = 0; i < n; i++)
            sample_publish(op, jobs[i].rank_pos, EMU_SAMPLE_FAILED, 0);
        return DPU_ERR_SYSTEM;
    }
    /* the ranks that run (executors first: charged ranks wait for them) */
    bool charged = false;
    for (uint32_t i = 0; i < n; i++) {
        pick[i] = launch_role(op, jobs[i].rank_pos) != LROLE_CHARGED;
        charged |= !pick[i];
    }
    dpu_error_t sys = run_ranks(op, jobs, n, pick, &err, &first_fault, &faults);
    if (sys != DPU_OK) {
        for (uint32_t i = 0; i < n; i++)
            sample_publish(op, jobs[i].rank_pos, EMU_SAMPLE_FAILED, 0);
        free(pick);
        return sys;
    }
    if (charged) {
        /* the charged ranks: the executors' cycles, or run if they did not */
        bool again = false;
        for (uint32_t i = 0; i < n; i++) {
            bool was = !pick[i];
            pick[i] = false;
            uint64_t c;
            if (!was)
                continue;
            if (!sample_wait(op, jobs[i].rank_pos, &c)) {
                pick[i] = again = true;
                continue;
            }
            struct dpu_rank_t *r = jobs[i].rank;
            for (uint32_t j = 0; j < r->nr_dpus; j++)
                if (dpu_in_scope(&r->dpus[j], op->single)) {
                    r->dpus[j].fault = false;
                    r->dpus[j].not_simulated = true;
                }
            emu_rec_t **rec = emu_op_recs(op, jobs[i].rank_pos);
            if (rec)
                emu_model_set_cycles(rec[0], c);
        }
        if (again)
            sys = run_ranks(op, jobs, n, pick, &err, &first_fault, &faults);
    }
    free(pick);
    if (first_fault)
        report_fault(first_fault, faults - 1);
    return sys != DPU_OK ? sys : err;
}

/* P25 + the slowest DPU's cycles, known once the job ran (exec_launch). */
static void model_launch(op_t *op, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        struct dpu_rank_t *r = op->ranks[i];
        uint32_t k = 0; /* DPUs that run (sampled-away ones too: modeled alike) */
        for (uint32_t j = 0; j < r->nr_dpus; j++)
            k += dpu_in_scope(&r->dpus[j], op->single);
        emu_rec_desc_t d = {.kind = EMU_REC_LAUNCH,
                            .op = op->model_id,
                            .prof = r->prof,
                            .call_ranks = op->call_ranks,
                            .k = k};
        op->recs[i] = emu_model_rec_new(&r->tl, &d);
    }
    sample_roles(op, n);
}

/* see dpu.h */
dpu_error_t dpu_launch(struct dpu_set_t set, dpu_launch_policy_t policy)
{
    emu_api_enter();
    dpu_error_t err = emu_set_check(set);
    if (err == DPU_OK && policy != DPU_SYNCHRONOUS && policy != DPU_ASYNCHRONOUS)
        err = DPU_ERR_INVALID_LAUNCH_POLICY;
    if (err == DPU_OK) {
        struct dpu_program_t *p;
        err = set_program(set, &p);
        if (err == DPU_ERR_DIFFERENT_DPU_PROGRAMS) {
            /* different programs may run together; only a missing one is an error */
            struct dpu_rank_t **ranks, *one;
            struct dpu_t *single;
            uint32_t n = set_ranks(&set, &ranks, &one, &single);
            err = DPU_OK;
            for (uint32_t i = 0; i < n; i++)
                for (uint32_t j = 0; j < ranks[i]->nr_dpus; j++)
                    if (dpu_in_scope(&ranks[i]->dpus[j], single) && !ranks[i]->dpus[j].program)
                        err = DPU_ERR_NO_PROGRAM_LOADED;
        }
    }
    if (err == DPU_OK) {
        op_t *op = emu_op_new(OP_LAUNCH, set, exec_launch, model_launch, 1);
        if (op == NULL) {
            err = DPU_ERR_SYSTEM;
        } else {
            op->cancel = launch_cancel;
            err = emu_op_submit(op, set, policy == DPU_ASYNCHRONOUS);
            emu_op_put(op);
        }
    }
    emu_api_exit();
    return err;
}

/* ------------------------------------------------------ sync, status */

static dpu_error_t exec_sync(op_t *op, job_t *jobs, uint32_t n)
{
    (void)op;
    (void)jobs;
    (void)n;
    return DPU_OK;
}

/* A mark at the end of each rank's queue and of its parallel lane (if it
 * has one): the sync ends when they all do. */
static void model_sync(op_t *op, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        struct dpu_rank_t *r = op->ranks[i];
        emu_rec_t **rec = emu_op_recs(op, i);
        emu_rec_desc_t d = {.kind = EMU_REC_MARK, .op = op->model_id, .prof = r->prof};
        rec[0] = emu_model_rec_new(&r->tl, &d);
        pthread_mutex_lock(&r->mu);
        bool has_lane = r->tl_par.mr != NULL;
        pthread_mutex_unlock(&r->mu);
        rec[1] = has_lane ? emu_model_rec_new(&r->tl_par, &d) : NULL;
    }
}

static dpu_error_t do_sync(struct dpu_set_t set)
{
    dpu_error_t err = emu_set_check(set);
    if (err != DPU_OK)
        return err;
    op_t *op = emu_op_new(OP_SYNC, set, exec_sync, model_sync, 2);
    if (op == NULL)
        return DPU_ERR_SYSTEM;
    err = emu_op_submit(op, set, false);
    emu_op_put(op);
    return err;
}

/* see dpu.h */
dpu_error_t dpu_sync(struct dpu_set_t set)
{
    emu_api_enter();
    dpu_error_t err = do_sync(set);
    emu_api_exit();
    return err;
}

/* see dpu.h */
dpu_error_t dpu_status(struct dpu_set_t set, bool *done, bool *fault)
{
    emu_api_enter();
    dpu_error_t err = do_sync(set);
    if (err == DPU_OK || (err & 0xffff) == DPU_ERR_DPU_FAULT) {
        struct dpu_rank_t **ranks, *one;
        struct dpu_t *single;
        uint32_t n = set_ranks(&set, &ranks, &one, &single);
        bool f = false;
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t j = 0; j < ranks[i]->nr_dpus; j++)
                if (dpu_in_scope(&ranks[i]->dpus[j], single) && ranks[i]->dpus[j].fault)
                    f = true;
        if (done)
            *done = true;
        if (fault)
            *fault = f;
        err = DPU_OK;
    }
    emu_api_exit();
    return err;
}

/* --------------------------------------------------------- callbacks */

/* A callback's records on each rank: [barrier (SINGLE_CALL only),] own time. */
static inline uint32_t cb_own(const op_t *op)
{
    return op->rec_per_rank - 1;
}

static dpu_error_t exec_callback(op_t *op, job_t *jobs, uint32_t n)
{
    dpu_error_t err = DPU_OK;
    if (op->cb_single) {
        if (n < op->call_ranks) {
            /* a rank worker: the last rank to arrive makes the one call
             * while the others wait (they stay blocked, as in libdpu) */
            pthread_mutex_lock(&op->mu);
            bool last = ++op->cb_arrived == op->call_ranks;
            if (!last) {
                while (!op->cb_done)
                    pthread_cond_wait(&op->cv, &op->mu);
                pthread_mutex_unlock(&op->mu);
                return op->cb_err;
            }
            pthread_mutex_unlock(&op->mu);
        }
        /* on the modeled timelines: every rank waits at the barrier, then
         * runs what the callback calls on it, then the callback's own time */
        uint32_t nr = op->call_ranks;
        emu_rec_t **own_recs = op->recs ? calloc(nr, sizeof *own_recs) : NULL;
        for (uint32_t i = 0; own_recs && i < nr; i++)
            own_recs[i] = emu_op_recs(op, i)[cb_own(op)];
        emu_model_cb_enter(own_recs, own_recs ? nr : 0);
        emu_own_push(op->ranks, nr);
        emu_api_cb_begin();
        err = op->cb(op->set, (uint32_t)-1, op->cb_args);
        double own = emu_api_cb_end();
        emu_own_pop(nr);
        emu_model_cb_leave();
        for (uint32_t i = 0; own_recs && i < nr; i++)
            emu_model_set_own(own_recs[i], own);
        free(own_recs);
        pthread_mutex_lock(&op->mu);
        op->cb_done = true;
        op->cb_err = err;
        pthread_cond_broadcast(&op->cv);
        pthread_mutex_unlock(&op->mu);
        return err;
    }
    for (uint32_t i = 0; i < n; i++) {
        emu_rec_t **rec = emu_op_recs(op, jobs[i].rank_pos);
        emu_rec_t *own_rec = rec ? rec[cb_own(op)] : NULL;
        struct dpu_set_t one;
        uint32_t idx;
        if (op->single) {
            one = op->set;
            idx = (uint32_t)-1;
        } else {
            one.kind = DPU_SET_RANKS;
            one.list.nr_ranks = 1;
            /* point into the caller's set when possible (stable while it lives) */
            one.list.ranks = &op->set.list.ranks[jobs[i].rank_pos];
            idx = jobs[i].rank_pos;
        }
        emu_model_cb_enter(&own_rec, 1);
        emu_api_cb_begin();
        dpu_error_t e = op->cb(one, idx, op->cb_args);
        double own = emu_api_cb_end();
        emu_model_cb_leave();
        emu_model_set_own(own_rec, own);
        if (err == DPU_OK)
            err = e;
    }
    return err;
}

/* The callback's own time (measured, as host work) per rank; a SINGLE_CALL
 * callback starts on all its ranks together (a barrier). */
static void model_callback(op_t *op, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        struct dpu_rank_t *r = op->ranks[i];
        emu_rec_t **rec = emu_op_recs(op, i);
        emu_rec_desc_t d = {.kind = EMU_REC_BARRIER, .op = op->model_id, .prof = r->prof};
        emu_timeline_t *tl = lane(r, op->parallel);
        if (op->rec_per_rank == 2)
            rec[0] = emu_model_rec_new(tl, &d);
        d.kind = EMU_REC_CALLBACK;
        rec[cb_own(op)] = emu_model_rec_new(tl, &d);
    }
    if (op->rec_per_rank == 2) {
        emu_rec_t **b = malloc(n * sizeof *b);
        for (uint32_t i = 0; b && i < n; i++)
            b[i] = emu_op_recs(op, i)[0];
        if (b)
            emu_model_link(b, n);
        free(b);
    }
}

/* see dpu.h */
dpu_error_t dpu_callback(struct dpu_set_t set,
                         dpu_error_t (*callback)(struct dpu_set_t, uint32_t, void *), void *args,
                         dpu_callback_flags_t flags)
{
    emu_api_enter();
    dpu_error_t err = emu_set_check(set);
    if (err == DPU_OK && callback == NULL)
        err = DPU_ERR_INTERNAL;
    if (err == DPU_OK && (flags & DPU_CALLBACK_NONBLOCKING) && !(flags & DPU_CALLBACK_ASYNC))
        err = DPU_ERR_NONBLOCKING_SYNC_CALLBACK;
    if (err == DPU_OK) {
        bool single = (flags & DPU_CALLBACK_SINGLE_CALL) != 0 || set.kind == DPU_SET_DPU;
        op_t *op = emu_op_new(OP_CALLBACK, set, exec_callback, model_callback, single ? 2 : 1);
        if (op == NULL) {
            err = DPU_ERR_SYSTEM;
        } else {
            op->cb = callback;
            op->cb_args = args;
            op->cb_single = single;
            op->parallel = (flags & DPU_CALLBACK_PARALLEL) != 0;
            err = emu_op_submit(op, set, (flags & DPU_CALLBACK_ASYNC) != 0);
            emu_op_put(op);
        }
    }
    emu_api_exit();
    return err;
}
