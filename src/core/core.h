/*
 * core.h -- what api.c lends the operations of the core that are built on
 * the backends' ops (hmac.c): the context's backend and the common
 * prologue / epilogue of a call (busy flag, statistics).
 */
#ifndef CPIM_CORE_H
#define CPIM_CORE_H

#include "backend.h"

const cpim_backend_vt *cpim_core_vt(const cpim_ctx *ctx);
void *cpim_core_state(const cpim_ctx *ctx);
/* cpim_options.threads of the context (0 = all cores). */
unsigned cpim_core_threads(const cpim_ctx *ctx);
/* CPIM_ERR_BUSY when another thread has the context; else zeroes *st. */
cpim_err cpim_core_begin(cpim_ctx *ctx, cpim_stats *st, size_t bytes);
/* Records st as the context's last statistics (on success), frees the
 * context; returns rc. */
cpim_err cpim_core_finish(cpim_ctx *ctx, cpim_err rc, cpim_stats *st, double t0);

/* A resident region's backend object (tests: MRAM inspection, issue 17). */
void *cpim_core_region_impl(const cpim_region *region);

#endif /* CPIM_CORE_H */
