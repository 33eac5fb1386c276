/*
 * core.h -- what the files of the core share (context.c, aes_api.c,
 * sha_api.c, hmac_api.c, ntt_api.c, region_api.c, engine.c): the context,
 * and the common prologue / epilogue of a call (busy flag, statistics).
 */
#ifndef CPIM_CORE_H
#define CPIM_CORE_H

#include <stdatomic.h>

#include "backend.h"

/* A family of a context: the backend whose engine serves it, and that
 * backend's state in this context (one state per backend: a backend serving
 * several families is opened once). */
typedef struct cpim_ctx_family {
    const cpim_backend *by; /* NULL: no engine, CPIM_ERR_UNSUPPORTED */
    void *state;
} cpim_ctx_family;

struct cpim_ctx {
    const cpim_backend *be; /* the backend named at cpim_open */
    cpim_ctx_family fam[CPIM_FAMILIES];
    int has_key;
    int has_xts_key;
    cpim_stats last;
    int last_plain;   /* `last` was written by cpim_core_done */
    unsigned threads; /* cpim_options.threads, for the core's own parallel work */
    int unmeasured;   /* cpim_options.unmeasured: no measured clock read */
    atomic_flag busy; /* set while a call runs (see CPIM_ERR_BUSY) */
};

/* The start of a call on the measured clock (cpim_now), or 0 on an
 * unmeasured context (no clock read). */
static inline double cpim_core_now(const cpim_ctx *ctx)
{
    return ctx->unmeasured ? 0 : cpim_now();
}

/* st's measured figures at the end of a call that started at t0: the
 * total from t0 if the engine set none, every one 0 on an unmeasured
 * context. */
static inline void cpim_core_measured(const cpim_ctx *ctx, cpim_stats *st, double t0)
{
    if (ctx->unmeasured)
        st->measured = (cpim_phases){.clock = CPIM_CLOCK_MEASURED};
    else if (st->measured.total_s <= 0)
        st->measured.total_s = cpim_now() - t0;
}

/* CPIM_ERR_BUSY when another thread has the context; else zeroes *st (its
 * bytes set, each clock named). */
cpim_err cpim_core_begin(cpim_ctx *ctx, cpim_stats *st, size_t bytes);
/* Records st as the context's last statistics (on success or a timing-only
 * run; the measured total from t0 if the engine set none, every measured
 * figure 0 on an unmeasured context), frees the context; returns rc. */
cpim_err cpim_core_finish(cpim_ctx *ctx, cpim_err rc, cpim_stats *st, double t0);
/* cpim_core_finish of a successful call taken with atomic_flag_test_and_set
 * on ctx->busy (no cpim_core_begin) whose statistics are only its `bytes`:
 * writes them straight into the context's last ones, frees the context. */
void cpim_core_done(cpim_ctx *ctx, size_t bytes, double t0);

/* A resident region's backend object (tests: MRAM inspection). */
void *cpim_core_region_impl(const cpim_region *region);

#endif /* CPIM_CORE_H */
