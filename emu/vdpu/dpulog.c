/* dpulog.c -- host side of the DPU printf (see dpulog.h). */
#include "dpulog.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Layout of the DPU-side state (emu/rt/stdio.c, struct __stdout_state). */
enum { ST_TOTAL = 0, ST_WRAPPED = 4, ST_SIZE = 12 };
#define MAX_ARGS  24u
#define MAX_FIELD 9999 /* largest width/precision honoured */
#define KIND_U32  0u
#define KIND_U64  1u
#define KIND_DBL  2u
#define KIND_STR  3u

/* see dpulog.h */
const char *vdpu_log_strerror(dpulog_err_t err)
{
    static const char *const msg[DPULOG_ERR__COUNT] = {
        /* DPULOG_OK */ "ok",
        /* DPULOG_ERR_ARG */ "bad argument or no program loaded",
        /* DPULOG_ERR_NO_CONTEXT */ "the DPU program has no printf buffer (printf not linked)",
        /* DPULOG_ERR_WRAPPED */
        ("the DPU printf buffer wrapped since boot (records lost; "
         "enlarge it with STDOUT_BUFFER_INIT)"),
        /* DPULOG_ERR_CORRUPT */ "malformed printf record in the DPU log buffer",
        /* DPULOG_ERR_NOMEM */ "out of host memory",
        /* DPULOG_ERR_IO */ "cannot write the DPU log to the stream",
    };
    if ((unsigned)err >= DPULOG_ERR__COUNT)
        return "unknown dpulog error";
    return msg[err];
}

typedef struct {
    unsigned kind;
    uint64_t v;    /* value bits (u32 zero-extended) or string pointer */
    const char *s; /* KIND_STR: bytes inside the log copy               */
} arg_t;

typedef struct {
    const vdpu_t *dpu;
    FILE *out;
    char *wstr; /* scratch for strings read from WRAM                */
    int io_error;
} ctx_t;

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* NUL-terminated string at WRAM address addr, bounded by the end of WRAM;
 * NULL when addr is outside WRAM. Valid until the next call. */
static const char *wram_string(ctx_t *c, uint32_t addr)
{
    if (addr >= VDPU_WRAM_SIZE)
        return NULL;
    uint32_t n = VDPU_WRAM_SIZE - addr;
    if (vdpu_wram_read(c->dpu, addr, c->wstr, n) != VDPU_OK)
        return NULL;
    c->wstr[n] = '\0';
    return c->wstr;
}

static void emit(ctx_t *c, const char *spec, ...) __attribute__((format(printf, 2, 3)));
static void emit(ctx_t *c, const char *spec, ...)
{
    va_list ap;
    va_start(ap, spec);
    if (vfprintf(c->out, spec, ap) < 0)
        c->io_error = 1;
    va_end(ap);
}

static void emit_text(ctx_t *c, const char *s, size_t n)
{
    if (n != 0 && fwrite(s, 1, n, c->out) != n)
        c->io_error = 1;
}

/* Integer value of an argument for a conversion of `bits` (8, 16, 32, 64):
 * sizes follow the DPU (long = 64-bit); a 32-bit argument is widened. */
static uint64_t int_value(const arg_t *a, unsigned bits, int is_signed)
{
    uint64_t v = a->v;
    if (a->kind == KIND_U32 || a->kind == KIND_STR) {
        v &= 0xFFFFFFFFu;
        if (is_signed && bits == 64)
            v = (uint64_t)(int64_t)(int32_t)(uint32_t)v;
    }
    switch (bits) {
    case 8:
        return is_signed ? (uint64_t)(int64_t)(int8_t)(uint8_t)v : (uint8_t)v;
    case 16:
        return is_signed ? (uint64_t)(int64_t)(int16_t)(uint16_t)v : (uint16_t)v;
    case 32:
        return is_signed ? (uint64_t)(int64_t)(int32_t)(uint32_t)v : (uint32_t)v;
    default:
        return v;
    }
}

/* Format one record: fmt with its arguments. */
static void format_record(ctx_t *c, const char *fmt, const arg_t *args, unsigned nargs)
{
    unsigned next = 0;
    const char *p = fmt;
    while (*p != '\0') {
        const char *pct = strchr(p, '%');
        if (pct == NULL) {
            emit_text(c, p, strlen(p));
            break;
        }
        emit_text(c, p, (size_t)(pct - p));
        const char *q = pct + 1;
        if (*q == '%') {
            emit_text(c, "%", 1);
            p = q + 1;
            continue;
        }
        /* spec = flags width .precision (with '*' resolved) */
        char spec[64];
        size_t sl = 0;
        spec[sl++] = '%';
        while (*q != '\0' && strchr("-+ #0'", *q) != NULL) {
            if (sl < 8)
                spec[sl++] = *q;
            q++;
        }
        for (int part = 0; part < 2; part++) {
            if (part == 1) {
                if (*q != '.')
                    break;
                spec[sl++] = '.';
                q++;
            }
            if (*q == '*') {
                int v = next < nargs ? (int)(int32_t)(uint32_t)args[next].v : 0;
                next++;
                /* a width/precision beyond MAX_FIELD is a bug or a corrupt record */
                v = v > MAX_FIELD ? MAX_FIELD : v < -MAX_FIELD ? -MAX_FIELD : v;
                if (part == 1 && v < 0) { /* negative precision = none */
                    sl--;
                } else {
                    char num[16];
                    int len = snprintf(num, sizeof num, "%d", v);
                    if (len > 0 && sl + (size_t)len < 48) {
                        memcpy(spec + sl, num, (size_t)len);
                        sl += (size_t)len;
                    }
                }
                q++;
            } else {
                size_t nd = 0;
                while (*q >= '0' && *q <= '9') {
                    if (nd++ < 4) /* at most 9999 (see MAX_FIELD) */
                        spec[sl++] = *q;
                    q++;
                }
            }
        }
        unsigned bits = 32;
        int nl = 0;
        for (;; q++) {
            if (*q == 'l')
                nl++;
            else if (*q == 'h')
                bits = bits == 16 ? 8 : 16;
            else if (*q == 'L' || *q == 'j' || *q == 'q')
                nl = 2;
            else if (*q == 'z' || *q == 't')
                bits = 32;
            else
                break;
        }
        if (nl > 0)
            bits = 64; /* DPU: long and long long are 64-bit */
        char conv = *q;
        if (conv == '\0') { /* dangling spec: print it as is */
            emit_text(c, pct, strlen(pct));
            break;
        }
        p = q + 1;
        if (conv == 'n')
            continue;
        if (strchr("diouxXcspfFeEgGaA", conv) == NULL || next >= nargs) {
            emit_text(c, pct, (size_t)(p - pct)); /* unknown or missing argument */
            continue;
        }
        const arg_t *a = &args[next++];
        switch (conv) {
        case 'd':
        case 'i':
            memcpy(spec + sl, "lld", 4);
            emit(c, spec, (long long)(int64_t)int_value(a, bits, 1));
            break;
        case 'o':
        case 'u':
        case 'x':
        case 'X':
            spec[sl] = 'l';
            spec[sl + 1] = 'l';
            spec[sl + 2] = conv;
            spec[sl + 3] = '\0';
            emit(c, spec, (unsigned long long)int_value(a, bits, 0));
            break;
        case 'c':
            memcpy(spec + sl, "c", 2);
            emit(c, spec, (int)(unsigned char)a->v);
            break;
        case 's': {
            const char *s = a->s;
            if (s == NULL)
                s = (uint32_t)a->v == 0 ? "(null)" : wram_string(c, (uint32_t)a->v);
            if (s == NULL)
                s = "(bad pointer)";
            memcpy(spec + sl, "s", 2);
            emit(c, spec, s);
            break;
        }
        case 'p': {
            char tmp[24];
            snprintf(tmp, sizeof tmp, "0x%x", (unsigned)(uint32_t)a->v);
            memcpy(spec + sl, "s", 2);
            emit(c, spec, tmp);
            break;
        }
        default: { /* f F e E g G a A */
            double d;
            uint64_t bits64 = a->kind == KIND_U32 ? (uint32_t)a->v : a->v;
            memcpy(&d, &bits64, sizeof d);
            spec[sl] = conv;
            spec[sl + 1] = '\0';
            emit(c, spec, d);
            break;
        }
        }
    }
}

/* see dpulog.h */
dpulog_err_t vdpu_log_read(const vdpu_t *dpu, FILE *stream)
{
    if (dpu == NULL || stream == NULL)
        return DPULOG_ERR_ARG;
    const vdpu_program_t *prog = vdpu_loaded_program(dpu);
    if (prog == NULL)
        return DPULOG_ERR_ARG;
    vdpu_symbol_t buf, st;
    if (vdpu_program_symbol(prog, "__stdout_buffer", &buf) != VDPU_OK || buf.mem != VDPU_MEM_MRAM ||
        vdpu_program_symbol(prog, "__stdout_buffer_state", &st) != VDPU_OK ||
        st.mem != VDPU_MEM_WRAM)
        return DPULOG_ERR_NO_CONTEXT;
    uint32_t size = buf.size;
    vdpu_symbol_t sz;
    if (vdpu_program_symbol(prog, "__stdout_buffer_size", &sz) == VDPU_OK &&
        sz.mem == VDPU_MEM_WRAM)
        vdpu_wram_read(dpu, sz.offset, &size, sizeof size);
    uint8_t state[ST_SIZE];
    if (vdpu_wram_read(dpu, st.offset, state, sizeof state) != VDPU_OK)
        return DPULOG_ERR_CORRUPT;
    uint32_t total = rd32(state + ST_TOTAL);
    if (rd32(state + ST_WRAPPED) != 0 || total > size)
        return DPULOG_ERR_WRAPPED;
    if (total == 0)
        return DPULOG_OK;
    if ((total & 7u) != 0 || buf.offset > VDPU_MRAM_SIZE - total)
        return DPULOG_ERR_CORRUPT;

    uint8_t *log = malloc((size_t)total + 1);
    ctx_t c = {dpu, stream, malloc(VDPU_WRAM_SIZE + 1), 0};
    dpulog_err_t err = DPULOG_OK;
    if (log == NULL || c.wstr == NULL) {
        err = DPULOG_ERR_NOMEM;
        goto out;
    }
    if (vdpu_mram_read(dpu, buf.offset, log, total) != VDPU_OK) {
        err = DPULOG_ERR_CORRUPT;
        goto out;
    }
    log[total] = '\0'; /* strings are bounded by the end of the copy */

    char *fmt_copy = NULL;
    uint32_t pos = 0;
    while (pos < total && err == DPULOG_OK) {
        if (total - pos < 12) {
            err = DPULOG_ERR_CORRUPT;
            break;
        }
        uint32_t fmt_addr = rd32(log + pos);
        uint64_t desc = rd32(log + pos + 4) | (uint64_t)rd32(log + pos + 8) << 32;
        pos += 12;
        unsigned nargs = (unsigned)(desc & 31u);
        if (nargs > MAX_ARGS) {
            err = DPULOG_ERR_CORRUPT;
            break;
        }
        const char *fmt;
        if (desc & 0x20u) {
            fmt = (const char *)log + pos;
            pos += (uint32_t)((strlen(fmt) + 1 + 3) & ~(size_t)3);
        } else {
            fmt = wram_string(&c, fmt_addr);
            if (fmt == NULL) {
                err = DPULOG_ERR_CORRUPT;
                break;
            }
            /* keep it: %s arguments by address reuse the WRAM scratch */
            free(fmt_copy);
            fmt_copy = strdup(fmt);
            if (fmt_copy == NULL) {
                err = DPULOG_ERR_NOMEM;
                break;
            }
            fmt = fmt_copy;
        }
        arg_t args[MAX_ARGS];
        for (unsigned i = 0; i < nargs && err == DPULOG_OK; i++) {
            unsigned kind = (unsigned)(desc >> (6 + 2 * i)) & 3u;
            uint32_t need = kind == KIND_U32 || kind == KIND_STR ? 4u : 8u;
            if (pos > total || total - pos < need) {
                err = DPULOG_ERR_CORRUPT;
                break;
            }
            args[i].kind = kind;
            args[i].s = NULL;
            args[i].v = rd32(log + pos);
            if (need == 8)
                args[i].v |= (uint64_t)rd32(log + pos + 4) << 32;
            pos += need;
            if (kind == KIND_STR) {
                args[i].s = (const char *)log + pos;
                pos += (uint32_t)((strlen(args[i].s) + 1 + 3) & ~(size_t)3);
            }
        }
        if (err != DPULOG_OK || pos > total) {
            err = DPULOG_ERR_CORRUPT;
            break;
        }
        pos = (pos + 7u) & ~7u;
        format_record(&c, fmt, args, nargs);
        if (c.io_error)
            err = DPULOG_ERR_IO;
    }
    free(fmt_copy);
out:
    free(c.wstr);
    free(log);
    if (err == DPULOG_OK && fflush(stream) != 0)
        err = DPULOG_ERR_IO;
    return err;
}
