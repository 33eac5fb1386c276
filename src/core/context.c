/*
 * context.c -- the public API's contexts (see cryptopim.h): version and
 * errors, backend information, open and close, the common prologue and
 * epilogue of every call (core.h), the last call's statistics.  The
 * operations are in aes_api.c, sha_api.c, hmac_api.c, ntt_api.c and
 * region_api.c.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "core.h"
#include "cryptopim.h"

static const char *const err_text[CPIM_ERR_COUNT_] = {
    /* CPIM_OK */ "success",
    /* CPIM_ERR_INVALID_ARG */ "invalid argument",
    /* CPIM_ERR_UNKNOWN_BACKEND */ "unknown backend",
    /* CPIM_ERR_UNAVAILABLE */ "backend not available on this machine",
    /* CPIM_ERR_UNSUPPORTED */ "operation not supported by this backend",
    /* CPIM_ERR_KEY_LENGTH */ "AES key must be 16, 24 or 32 bytes",
    /* CPIM_ERR_NO_KEY */ "no AES key set",
    /* CPIM_ERR_LENGTH */
    "bad length: ECB needs a multiple of 16 bytes, XTS a last data unit of at least 16",
    /* CPIM_ERR_NOMEM */ "out of memory",
    /* CPIM_ERR_THREAD */ "could not start a worker thread",
    /* CPIM_ERR_PIM_ALLOC */ "not enough DPUs available",
    /* CPIM_ERR_PIM_LOAD */ "DPU program missing or invalid",
    /* CPIM_ERR_PIM_FAULT */ "a DPU faulted while running the kernel",
    /* CPIM_ERR_PIM */ "UPMEM error",
    /* CPIM_ERR_TIMING_ONLY */ "timing-only run: the operation was timed, its output discarded",
    /* CPIM_ERR_BUSY */ "context in use by another thread",
    /* CPIM_ERR_XTS_WEAK_KEY */ "XTS key refused: its two halves are equal",
    /* CPIM_ERR_AUTH */ "authentication failed",
    /* CPIM_ERR_NTT_PARAM (parenthesised: clang-14's -Wstring-concatenation, `make fuzz`) */
    ("NTT parameters refused: N must be a power of two in 1024..65536, each modulus a distinct "
     "prime q = 1 mod 2N below 2^62, batch not too large"),
    /* CPIM_ERR_NTT_COEFF */ "NTT input coefficient not below its modulus",
    /* CPIM_ERR_REGION_SIZE */ "resident region larger than its DPUs' MRAM",
    /* CPIM_ERR_REGION_INTERRUPTED */
    "resident region interrupted: repeat the interrupted operation to finish it",
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

/* memset at its full speed, then an empty asm that the compiler must
 * assume reads the memory: the stores cannot be removed as dead (the
 * technique of glibc's explicit_bzero).  A volatile byte loop did the
 * same at one byte per cycle, which showed in every small operation. */
void cpim_wipe(void *p, size_t n)
{
    if (n == 0)
        return;
    memset(p, 0, n);
#if defined(__GNUC__) || defined(__clang__)
    __asm__ __volatile__("" : : "r"(p) : "memory");
#else
    volatile unsigned char *v = p;
    for (size_t i = 0; i < n; i++)
        v[i] = 0;
#endif
}

void cpim_options_init(cpim_options *opt)
{
    if (opt)
        memset(opt, 0, sizeof *opt);
}

static void fill_info(const cpim_backend *be, cpim_backend_info *info)
{
    const char *why = "";
    info->name = be->name;
    info->description = be->description;
    info->available = be->available(&why);
    info->why = info->available ? "" : (why ? why : "unavailable");
}

size_t cpim_backend_count(void)
{
    return cpim_backend_nr();
}

cpim_err cpim_backend_info_at(size_t index, cpim_backend_info *info)
{
    const cpim_backend *be = cpim_backend_at(index);
    if (!info)
        return CPIM_ERR_INVALID_ARG;
    if (!be)
        return CPIM_ERR_UNKNOWN_BACKEND;
    fill_info(be, info);
    return CPIM_OK;
}

cpim_err cpim_backend_info_by_name(const char *name, cpim_backend_info *info)
{
    const cpim_backend *be = cpim_backend_find(name);
    if (!info)
        return CPIM_ERR_INVALID_ARG;
    if (!be)
        return CPIM_ERR_UNKNOWN_BACKEND;
    fill_info(be, info);
    return CPIM_OK;
}

size_t cpim_backend_chunk(const char *name)
{
    const cpim_backend *be = cpim_backend_find(name);
    return be ? be->chunk : CPIM_BACKEND_CHUNK;
}

int cpim_backend_constant_time(const char *name)
{
    const cpim_backend *be = cpim_backend_find(name);
    return be ? be->constant_time : -1;
}

/* Closes each backend opened for ctx's families once. */
static void close_families(cpim_ctx *ctx)
{
    for (int f = 0; f < CPIM_FAMILIES; f++) {
        const cpim_backend *by = ctx->fam[f].by;
        int first = by != NULL;
        for (int g = 0; g < f && first; g++)
            first = ctx->fam[g].by != by;
        if (first && by->close)
            by->close(ctx->fam[f].state);
    }
}

/* Opens the backend serving each family of be (backend.h), each once. */
static cpim_err open_families(cpim_ctx *ctx, const cpim_backend *be, const cpim_options *opt)
{
    for (int f = 0; f < CPIM_FAMILIES; f++) {
        const cpim_backend *by = cpim_backend_serving(be, (cpim_family)f);
        if (!by)
            continue;
        int g = 0;
        while (g < f && ctx->fam[g].by != by)
            g++;
        if (g < f) { /* opened already for family g */
            ctx->fam[f] = ctx->fam[g];
            continue;
        }
        void *state = NULL;
        cpim_err rc = by->open ? by->open(&state, opt) : CPIM_OK;
        if (rc != CPIM_OK)
            return rc;
        ctx->fam[f].by = by;
        ctx->fam[f].state = state;
    }
    return CPIM_OK;
}

cpim_err cpim_open(cpim_ctx **out, const char *backend, const cpim_options *opt)
{
    if (!out)
        return CPIM_ERR_INVALID_ARG;
    *out = NULL;
    const cpim_backend *be = cpim_backend_find(backend);
    if (!be)
        return CPIM_ERR_UNKNOWN_BACKEND;
    const char *why = NULL;
    cpim_options defaults;
    if (!opt) {
        cpim_options_init(&defaults);
        opt = &defaults;
    }
    if (be->available_for ? !be->available_for(opt, &why) : !be->available(&why))
        return CPIM_ERR_UNAVAILABLE;
    if (opt->tasklets > 24 || opt->mode > CPIM_PIM_ASYNC_EXEC)
        return CPIM_ERR_INVALID_ARG;
    cpim_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return CPIM_ERR_NOMEM;
    ctx->be = be;
    ctx->threads = opt->threads;
    ctx->unmeasured = opt->unmeasured != 0;
    atomic_flag_clear(&ctx->busy);
    cpim_err rc = open_families(ctx, be, opt);
    if (rc != CPIM_OK) {
        close_families(ctx);
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
    close_families(ctx);
    cpim_wipe(ctx, sizeof *ctx);
    free(ctx);
}

const char *cpim_ctx_backend(const cpim_ctx *ctx)
{
    return ctx ? ctx->be->name : NULL;
}

/* Common prologue/epilogue of every operation: the context taken (a
 * second thread gets CPIM_ERR_BUSY instead of racing on the backend's
 * state), fresh stats, measured total if the backend did not set one. */
cpim_err cpim_core_begin(cpim_ctx *ctx, cpim_stats *st, size_t bytes)
{
    if (atomic_flag_test_and_set(&ctx->busy))
        return CPIM_ERR_BUSY;
    memset(st, 0, sizeof *st);
    st->bytes = bytes;
    st->measured.clock = CPIM_CLOCK_MEASURED;
    st->modeled.clock = CPIM_CLOCK_MODELED;
    return CPIM_OK;
}

cpim_err cpim_core_finish(cpim_ctx *ctx, cpim_err rc, cpim_stats *st, double t0)
{
    if (rc == CPIM_OK || rc == CPIM_ERR_TIMING_ONLY) {
        cpim_core_measured(ctx, st, t0);
        ctx->last = *st;
        ctx->last_plain = 0;
    }
    atomic_flag_clear_explicit(&ctx->busy, memory_order_release);
    return rc;
}

void cpim_core_done(cpim_ctx *ctx, size_t bytes, double t0)
{
    cpim_stats *st = &ctx->last; /* the context is still taken: nobody reads it */
    /* after a record of this kind only bytes and the measured total can
     * differ: clearing the whole record (a `rep stos`) was most of the
     * time of this function on a 64-byte digest */
    if (!ctx->last_plain) {
        memset(st, 0, sizeof *st);
        st->measured.clock = CPIM_CLOCK_MEASURED;
        st->modeled.clock = CPIM_CLOCK_MODELED;
        ctx->last_plain = 1;
    }
    st->bytes = bytes;
    st->measured.total_s = 0;
    cpim_core_measured(ctx, st, t0);
    atomic_flag_clear_explicit(&ctx->busy, memory_order_release);
}

cpim_err cpim_last_stats(const cpim_ctx *ctx, cpim_stats *stats)
{
    if (!ctx || !stats)
        return CPIM_ERR_INVALID_ARG;
    *stats = ctx->last;
    return CPIM_OK;
}
