/*
 * api.c -- the public API (see cryptopim.h): argument checks, statistics,
 * and the thin wrappers that are the only callers of backend vtables.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cryptopim.h"

struct cpim_ctx {
    const cpim_backend_vt *vt;
    void *state;
    int has_key;
    cpim_stats last;
    atomic_flag busy; /* set while a call runs (see CPIM_ERR_BUSY) */
};

static const char *const err_text[CPIM_ERR_COUNT_] = {
    /* CPIM_OK */ "success",
    /* CPIM_ERR_INVALID_ARG */ "invalid argument",
    /* CPIM_ERR_UNKNOWN_BACKEND */ "unknown backend",
    /* CPIM_ERR_UNAVAILABLE */ "backend not available on this machine",
    /* CPIM_ERR_UNSUPPORTED */ "operation not supported by this backend",
    /* CPIM_ERR_KEY_LENGTH */ "AES key must be 16, 24 or 32 bytes",
    /* CPIM_ERR_NO_KEY */ "no AES key set",
    /* CPIM_ERR_LENGTH */ "length must be a multiple of the AES block size (16 bytes)",
    /* CPIM_ERR_NOMEM */ "out of memory",
    /* CPIM_ERR_THREAD */ "could not start a worker thread",
    /* CPIM_ERR_PIM_ALLOC */ "not enough DPUs available",
    /* CPIM_ERR_PIM_LOAD */ "DPU program missing or invalid",
    /* CPIM_ERR_PIM_FAULT */ "a DPU faulted while running the kernel",
    /* CPIM_ERR_PIM */ "UPMEM error",
    /* CPIM_ERR_TIMING_ONLY */ "timing-only run: the operation was timed, its output discarded",
    /* CPIM_ERR_BUSY */ "context in use by another thread",
};

/* see cryptopim.h */
const char *cpim_version(void)
{
    return CPIM_VERSION_STRING;
}

const char *cpim_strerror(cpim_err err)
{
    if ((unsigned)err < CPIM_ERR_COUNT_)
        return err_text[err];
    return "unknown error code";
}

const char *cpim_clock_name(cpim_clock clock)
{
    return clock == CPIM_CLOCK_MODELED ? "modeled" : "measured";
}

void cpim_wipe(void *p, size_t n)
{
    volatile unsigned char *v = p;
    while (n--)
        *v++ = 0;
}

void cpim_options_init(cpim_options *opt)
{
    if (opt)
        memset(opt, 0, sizeof *opt);
}

static void fill_info(const cpim_backend_vt *vt, cpim_backend_info *info)
{
    const char *why = "";
    info->name = vt->name;
    info->description = vt->description;
    info->available = vt->available(&why);
    info->why = info->available ? "" : (why ? why : "unavailable");
}

size_t cpim_backend_count(void)
{
    return cpim_backend_nr();
}

cpim_err cpim_backend_info_at(size_t index, cpim_backend_info *info)
{
    const cpim_backend_vt *vt = cpim_backend_at(index);
    if (!info)
        return CPIM_ERR_INVALID_ARG;
    if (!vt)
        return CPIM_ERR_UNKNOWN_BACKEND;
    fill_info(vt, info);
    return CPIM_OK;
}

cpim_err cpim_backend_info_by_name(const char *name, cpim_backend_info *info)
{
    const cpim_backend_vt *vt = cpim_backend_find(name);
    if (!info)
        return CPIM_ERR_INVALID_ARG;
    if (!vt)
        return CPIM_ERR_UNKNOWN_BACKEND;
    fill_info(vt, info);
    return CPIM_OK;
}

cpim_err cpim_open(cpim_ctx **out, const char *backend, const cpim_options *opt)
{
    if (!out)
        return CPIM_ERR_INVALID_ARG;
    *out = NULL;
    const cpim_backend_vt *vt = cpim_backend_find(backend);
    if (!vt)
        return CPIM_ERR_UNKNOWN_BACKEND;
    const char *why = NULL;
    cpim_options defaults;
    if (!opt) {
        cpim_options_init(&defaults);
        opt = &defaults;
    }
    if (vt->available_for ? !vt->available_for(opt, &why) : !vt->available(&why))
        return CPIM_ERR_UNAVAILABLE;
    if (opt->tasklets > 24 || opt->mode > CPIM_PIM_ASYNC_EXEC)
        return CPIM_ERR_INVALID_ARG;
    cpim_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return CPIM_ERR_NOMEM;
    ctx->vt = vt;
    atomic_flag_clear(&ctx->busy);
    cpim_err rc = vt->open ? vt->open(&ctx->state, opt) : CPIM_OK;
    if (rc != CPIM_OK) {
        free(ctx);
        return rc;
    }
    *out = ctx;
    return CPIM_OK;
}

void cpim_close(cpim_ctx *ctx)
{
    if (!ctx)
        return;
    if (ctx->vt->close)
        ctx->vt->close(ctx->state);
    cpim_wipe(ctx, sizeof *ctx);
    free(ctx);
}

const char *cpim_ctx_backend(const cpim_ctx *ctx)
{
    return ctx ? ctx->vt->name : NULL;
}

cpim_err cpim_aes_set_key(cpim_ctx *ctx, const uint8_t *key, size_t key_len)
{
    if (!ctx || !key)
        return CPIM_ERR_INVALID_ARG;
    if (key_len != 16 && key_len != 24 && key_len != 32)
        return CPIM_ERR_KEY_LENGTH;
    if (!ctx->vt->set_key)
        return CPIM_ERR_UNSUPPORTED;
    if (atomic_flag_test_and_set(&ctx->busy))
        return CPIM_ERR_BUSY;
    cpim_err rc = ctx->vt->set_key(ctx->state, key, key_len);
    ctx->has_key = rc == CPIM_OK;
    atomic_flag_clear(&ctx->busy);
    return rc;
}

/* Common prologue/epilogue of every operation: the context taken (a
 * second thread gets CPIM_ERR_BUSY instead of racing on the backend's
 * state), fresh stats, measured total if the backend did not set one. */
static cpim_err begin(cpim_ctx *ctx, cpim_stats *st, size_t bytes)
{
    if (atomic_flag_test_and_set(&ctx->busy))
        return CPIM_ERR_BUSY;
    memset(st, 0, sizeof *st);
    st->bytes = bytes;
    st->measured.clock = CPIM_CLOCK_MEASURED;
    st->modeled.clock = CPIM_CLOCK_MODELED;
    return CPIM_OK;
}

static cpim_err finish(cpim_ctx *ctx, cpim_err rc, cpim_stats *st, double t0)
{
    if (rc == CPIM_OK || rc == CPIM_ERR_TIMING_ONLY) {
        if (st->measured.total_s <= 0)
            st->measured.total_s = cpim_now() - t0;
        ctx->last = *st;
    }
    atomic_flag_clear(&ctx->busy);
    return rc;
}

cpim_err cpim_aes_ecb(cpim_ctx *ctx, cpim_dir dir, const uint8_t *in, uint8_t *out, size_t len)
{
    if (!ctx || (len && (!in || !out)) || (dir != CPIM_ENCRYPT && dir != CPIM_DECRYPT))
        return CPIM_ERR_INVALID_ARG;
    if (!ctx->has_key)
        return CPIM_ERR_NO_KEY;
    if (len % 16)
        return CPIM_ERR_LENGTH;
    if (!ctx->vt->aes_ecb)
        return CPIM_ERR_UNSUPPORTED;
    cpim_stats st;
    if (begin(ctx, &st, len) != CPIM_OK)
        return CPIM_ERR_BUSY;
    double t0 = cpim_now();
    cpim_err rc = len ? ctx->vt->aes_ecb(ctx->state, dir, in, out, len, &st) : CPIM_OK;
    return finish(ctx, rc, &st, t0);
}

cpim_err cpim_aes_ctr(cpim_ctx *ctx, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                      size_t len)
{
    if (!ctx || !counter || (len && (!in || !out)))
        return CPIM_ERR_INVALID_ARG;
    if (!ctx->has_key)
        return CPIM_ERR_NO_KEY;
    if (!ctx->vt->aes_ctr)
        return CPIM_ERR_UNSUPPORTED;
    cpim_stats st;
    if (begin(ctx, &st, len) != CPIM_OK)
        return CPIM_ERR_BUSY;
    double t0 = cpim_now();
    cpim_err rc = len ? ctx->vt->aes_ctr(ctx->state, counter, in, out, len, &st) : CPIM_OK;
    return finish(ctx, rc, &st, t0);
}

cpim_err cpim_sha256_batch(cpim_ctx *ctx, const uint8_t *const *msgs, const size_t *lens,
                           size_t count, uint8_t (*digests)[32])
{
    if (!ctx || (count && (!msgs || !lens || !digests)))
        return CPIM_ERR_INVALID_ARG;
    size_t total = 0;
    for (size_t i = 0; i < count; i++) {
        if (lens[i] && !msgs[i])
            return CPIM_ERR_INVALID_ARG;
        total += lens[i];
    }
    if (!ctx->vt->sha256_batch)
        return CPIM_ERR_UNSUPPORTED;
    cpim_stats st;
    if (begin(ctx, &st, total) != CPIM_OK)
        return CPIM_ERR_BUSY;
    double t0 = cpim_now();
    cpim_err rc =
        count ? ctx->vt->sha256_batch(ctx->state, msgs, lens, count, digests, &st) : CPIM_OK;
    return finish(ctx, rc, &st, t0);
}

cpim_err cpim_last_stats(const cpim_ctx *ctx, cpim_stats *stats)
{
    if (!ctx || !stats)
        return CPIM_ERR_INVALID_ARG;
    *stats = ctx->last;
    return CPIM_OK;
}
