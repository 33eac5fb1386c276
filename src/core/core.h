/*
 * core.h -- what the files of the core share (context.c, aes_api.c,
 * sha_api.c, hmac_api.c, ntt_api.c, region_api.c): the context, and the
 * common prologue / epilogue of a call (busy flag, statistics).
 */
#ifndef CPIM_CORE_H
#define CPIM_CORE_H

#include <stdatomic.h>

#include "backend.h"

struct cpim_ctx {
    const cpim_backend_vt *vt;
    void *state;
    int has_key;
    int has_xts_key;
    cpim_stats last;
    unsigned threads; /* cpim_options.threads, for the core's own parallel work */
    atomic_flag busy; /* set while a call runs (see CPIM_ERR_BUSY) */
};

const cpim_backend_vt *cpim_core_vt(const cpim_ctx *ctx);
void *cpim_core_state(const cpim_ctx *ctx);
/* cpim_options.threads of the context (0 = all cores). */
unsigned cpim_core_threads(const cpim_ctx *ctx);
/* CPIM_ERR_BUSY when another thread has the context; else zeroes *st (its
 * bytes set, each clock named). */
cpim_err cpim_core_begin(cpim_ctx *ctx, cpim_stats *st, size_t bytes);
/* Records st as the context's last statistics (on success or a timing-only
 * run; the measured total from t0 if the backend set none), frees the
 * context; returns rc. */
cpim_err cpim_core_finish(cpim_ctx *ctx, cpim_err rc, cpim_stats *st, double t0);
/* The common tail of the key setters (arguments checked): the context
 * taken, `set` called, *has set only when it succeeded. */
cpim_err cpim_core_install_key(cpim_ctx *ctx,
                               cpim_err (*set)(void *state, const uint8_t *key, size_t key_len),
                               const uint8_t *key, size_t key_len, int *has);

/* A resident region's backend object (tests: MRAM inspection). */
void *cpim_core_region_impl(const cpim_region *region);

#endif /* CPIM_CORE_H */
