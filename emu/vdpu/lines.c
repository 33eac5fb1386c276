/* lines.c -- source lines of a DPU program from its DWARF .debug_line
 * (versions 2 to 5, 32-bit DWARF), so that the virtual DPU's diagnostics
 * (watchdog, DMA rule warnings, stopped tasklets) can say "file.c:42".
 *
 * Debug information is optional and may be hostile: any malformed header or
 * opcode ends the parse and keeps what was decoded before it; nothing here
 * reads outside the section (every read is bounds checked through rd_t). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vdpu_internal.h"

#define MAX_FILES 4096u

typedef struct {
    const uint8_t *p, *end;
    int bad;
} rd_t;

static uint64_t rd_n(rd_t *r, unsigned n)
{
    uint64_t v = 0;
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = 1;
        return 0;
    }
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)r->p[i] << (8 * i);
    r->p += n;
    return v;
}

static uint64_t rd_uleb(rd_t *r)
{
    uint64_t v = 0;
    unsigned sh = 0;
    for (;;) {
        if (r->bad || r->p >= r->end) {
            r->bad = 1;
            return 0;
        }
        uint8_t b = *r->p++;
        if (sh < 64)
            v |= (uint64_t)(b & 0x7f) << sh;
        sh += 7;
        if (!(b & 0x80))
            return v;
    }
}

static int64_t rd_sleb(rd_t *r)
{
    uint64_t v = 0;
    unsigned sh = 0;
    uint8_t b;
    do {
        if (r->bad || r->p >= r->end) {
            r->bad = 1;
            return 0;
        }
        b = *r->p++;
        if (sh < 64)
            v |= (uint64_t)(b & 0x7f) << sh;
        sh += 7;
    } while (b & 0x80);
    if (sh < 64 && (b & 0x40))
        v |= ~(uint64_t)0 << sh;
    return (int64_t)v;
}

/* a NUL-terminated string inside [p, end), or NULL */
static const char *rd_str(rd_t *r)
{
    if (r->bad)
        return NULL;
    const uint8_t *z = memchr(r->p, 0, (size_t)(r->end - r->p));
    if (!z) {
        r->bad = 1;
        return NULL;
    }
    const char *s = (const char *)r->p;
    r->p = z + 1;
    return s;
}

static const char *str_at(const uint8_t *sec, size_t len, uint64_t off)
{
    if (!sec || off >= len || !memchr(sec + off, 0, len - off))
        return NULL;
    return (const char *)sec + off;
}

typedef struct {
    vdpu_program_t *p;
    const uint8_t *line_str, *str;
    size_t line_str_len, str_len;
    const char *files[MAX_FILES]; /* this unit's file table (into the sections) */
    unsigned nfiles;
    uint32_t file_base; /* the unit's files in p->line_files start here */
} ctx_t;

/* Read one attribute value of DWARF 5's entry formats: a path as a string
 * (else NULL), other content skipped. */
static const char *rd_form(ctx_t *c, rd_t *r, uint64_t form)
{
    switch (form) {
    case 0x08: /* DW_FORM_string */
        return rd_str(r);
    case 0x1f: /* DW_FORM_line_strp */
        return str_at(c->line_str, c->line_str_len, rd_n(r, 4));
    case 0x0e: /* DW_FORM_strp */
        return str_at(c->str, c->str_len, rd_n(r, 4));
    case 0x0f: /* DW_FORM_udata */
        rd_uleb(r);
        return NULL;
    case 0x0b: /* data1 */
        rd_n(r, 1);
        return NULL;
    case 0x05: /* data2 */
        rd_n(r, 2);
        return NULL;
    case 0x06: /* data4 */
        rd_n(r, 4);
        return NULL;
    case 0x07: /* data8 */
        rd_n(r, 8);
        return NULL;
    case 0x1e: /* data16 (MD5) */
        rd_n(r, 8);
        rd_n(r, 8);
        return NULL;
    case 0x09: { /* block */
        uint64_t n = rd_uleb(r);
        if (n > (uint64_t)(r->end - r->p))
            r->bad = 1;
        else
            r->p += n;
        return NULL;
    }
    default:
        r->bad = 1;
        return NULL;
    }
}

/* Append this unit's file names to the program's table (copied). */
static int keep_files(ctx_t *c)
{
    vdpu_program_t *p = c->p;
    if (c->nfiles == 0)
        return 0;
    if (p->n_line_files + c->nfiles > 0xffffu)
        return -1;
    char **nf = realloc(p->line_files, (p->n_line_files + c->nfiles) * sizeof *nf);
    if (!nf)
        return -1;
    p->line_files = nf;
    c->file_base = p->n_line_files;
    for (unsigned i = 0; i < c->nfiles; i++) {
        const char *s = c->files[i] ? c->files[i] : "?";
        char *dup = malloc(strlen(s) + 1);
        if (!dup)
            return -1;
        strcpy(dup, s);
        p->line_files[p->n_line_files++] = dup;
    }
    return 0;
}

/* Rows [a0, a1) of a sequence belong to (file, line): fill the per
 * instruction table where it covers IRAM .text. */
static void fill(ctx_t *c, uint64_t a0, uint64_t a1, uint64_t file, uint64_t line, int v5)
{
    vdpu_program_t *p = c->p;
    if (line == 0 || a1 <= a0 || a0 < VDPU_IRAM_BASE)
        return;
    uint64_t idx = file - (v5 ? 0 : 1);
    if (idx >= c->nfiles || line > 0xffffffffu)
        return;
    uint64_t i0 = (a0 - VDPU_IRAM_BASE + 3) / 4, i1 = (a1 - VDPU_IRAM_BASE + 3) / 4;
    if (i1 > p->n_insns)
        i1 = p->n_insns;
    for (uint64_t i = i0; i < i1; i++) {
        p->line_of[i].file = (uint16_t)(c->file_base + idx);
        p->line_of[i].line = (uint32_t)line;
    }
}

/* One line-number program unit; r is positioned after its unit_length and
 * ends at its end. Returns -1 on a malformed unit. */
static int unit(ctx_t *c, rd_t *r)
{
    unsigned ver = (unsigned)rd_n(r, 2);
    if (ver < 2 || ver > 5)
        return -1;
    if (ver >= 5) {
        if (rd_n(r, 1) != 4) /* address size */
            return -1;
        rd_n(r, 1); /* segment selector size */
    }
    uint64_t hlen = rd_n(r, 4);
    if (r->bad || hlen > (uint64_t)(r->end - r->p))
        return -1;
    const uint8_t *prog = r->p + hlen;
    unsigned min_len = (unsigned)rd_n(r, 1);
    if (ver >= 4)
        rd_n(r, 1); /* max ops per instruction (VLIW only) */
    rd_n(r, 1);     /* default_is_stmt */
    int line_base = (int8_t)rd_n(r, 1);
    unsigned line_range = (unsigned)rd_n(r, 1);
    unsigned op_base = (unsigned)rd_n(r, 1);
    if (r->bad || line_range == 0 || op_base == 0)
        return -1;
    uint8_t std_len[256] = {0};
    for (unsigned i = 1; i < op_base; i++)
        std_len[i] = (uint8_t)rd_n(r, 1);
    c->nfiles = 0;
    if (ver >= 5) {
        for (int pass = 0; pass < 2; pass++) { /* directories, then files */
            unsigned nfmt = (unsigned)rd_n(r, 1);
            uint64_t fmt[2 * 16];
            if (nfmt > 16)
                return -1;
            for (unsigned i = 0; i < nfmt; i++) {
                fmt[2 * i] = rd_uleb(r);
                fmt[2 * i + 1] = rd_uleb(r);
            }
            uint64_t n = rd_uleb(r);
            for (uint64_t e = 0; e < n && !r->bad; e++) {
                const char *path = NULL;
                for (unsigned i = 0; i < nfmt; i++) {
                    const char *s = rd_form(c, r, fmt[2 * i + 1]);
                    if (fmt[2 * i] == 1 /* DW_LNCT_path */)
                        path = s;
                }
                if (pass == 1) {
                    if (c->nfiles >= MAX_FILES)
                        return -1;
                    c->files[c->nfiles++] = path;
                }
            }
        }
    } else {
        while (!r->bad) { /* include directories: not needed */
            const char *s = rd_str(r);
            if (!s || !*s)
                break;
        }
        while (!r->bad) {
            const char *s = rd_str(r);
            if (!s || !*s)
                break;
            rd_uleb(r), rd_uleb(r), rd_uleb(r);
            if (c->nfiles >= MAX_FILES)
                return -1;
            c->files[c->nfiles++] = s;
        }
    }
    if (r->bad || keep_files(c) != 0)
        return -1;
    r->p = prog;
    /* the state machine (DWARF 5 §6.2.5) */
    uint64_t addr = 0, file = 1, line = 1, paddr = 0, pfile = 0, pline = 0;
    int have = 0, v5 = ver >= 5;
#define ROW()                                                                                      \
    do {                                                                                           \
        if (have)                                                                                  \
            fill(c, paddr, addr, pfile, pline, v5);                                                \
        paddr = addr, pfile = file, pline = line, have = 1;                                        \
    } while (0)
    while (!r->bad && r->p < r->end) {
        unsigned op = (unsigned)rd_n(r, 1);
        if (op >= op_base) {
            unsigned adj = op - op_base;
            addr += (uint64_t)(adj / line_range) * min_len;
            line += (uint64_t)(int64_t)(line_base + (int)(adj % line_range));
            ROW();
            continue;
        }
        switch (op) {
        case 0: { /* extended */
            uint64_t n = rd_uleb(r);
            if (r->bad || n == 0 || n > (uint64_t)(r->end - r->p))
                return -1;
            const uint8_t *next = r->p + n;
            unsigned sub = (unsigned)rd_n(r, 1);
            if (sub == 1) { /* end_sequence */
                ROW();
                have = 0;
                addr = 0, file = 1, line = 1;
            } else if (sub == 2) { /* set_address */
                addr = rd_n(r, n - 1 > 8 ? 8 : (unsigned)(n - 1));
            }
            r->p = next;
            break;
        }
        case 1: /* copy */
            ROW();
            break;
        case 2:
            addr += rd_uleb(r) * min_len;
            break;
        case 3:
            line += (uint64_t)rd_sleb(r);
            break;
        case 4:
            file = rd_uleb(r);
            break;
        case 8:
            addr += (uint64_t)((255u - op_base) / line_range) * min_len;
            break;
        case 9:
            addr += rd_n(r, 2);
            break;
        default: /* column, flags, isa, unknown: skip their operands */
            for (unsigned i = 0; i < std_len[op]; i++)
                rd_uleb(r);
            break;
        }
    }
#undef ROW
    return r->bad ? -1 : 0;
}

/* see vdpu_internal.h */
int vdpu_lines_load(vdpu_program_t *p, const uint8_t *line, size_t line_len,
                    const uint8_t *line_str, size_t line_str_len, const uint8_t *str,
                    size_t str_len)
{
    if (!line || line_len == 0 || p->n_insns == 0)
        return 0;
    p->line_of = calloc(p->n_insns, sizeof *p->line_of);
    ctx_t *c = calloc(1, sizeof *c);
    if (!p->line_of || !c) {
        free(c);
        return -1;
    }
    c->p = p;
    c->line_str = line_str, c->line_str_len = line_str_len;
    c->str = str, c->str_len = str_len;
    rd_t all = {line, line + line_len, 0};
    while (!all.bad && all.p < all.end) {
        uint64_t n = rd_n(&all, 4);
        if (all.bad || n >= 0xfffffff0u || n > (uint64_t)(all.end - all.p))
            break; /* 64-bit DWARF or a truncated unit: keep what we have */
        rd_t u = {all.p, all.p + n, 0};
        all.p += n;
        if (unit(c, &u) != 0)
            break;
    }
    free(c);
    return 0;
}

/* see vdpu.h */
int vdpu_program_line(const vdpu_program_t *p, uint32_t pc, const char **file, unsigned *line)
{
    uint32_t i = (pc - VDPU_IRAM_BASE) / 4;
    if (!p || !p->line_of || pc < VDPU_IRAM_BASE || i >= p->n_insns || p->line_of[i].line == 0)
        return 0;
    if (file)
        *file = p->line_files[p->line_of[i].file];
    if (line)
        *line = p->line_of[i].line;
    return 1;
}

/* see vdpu.h */
void vdpu_program_where(const vdpu_program_t *p, uint32_t pc, char *buf, size_t n)
{
    const char *f;
    unsigned l;
    if (!buf || n == 0)
        return;
    if (vdpu_program_line(p, pc, &f, &l))
        snprintf(buf, n, "pc 0x%08x in %s (%s:%u)", pc, vdpu_program_func_name(p, pc), f, l);
    else
        snprintf(buf, n, "pc 0x%08x in %s", pc, vdpu_program_func_name(p, pc));
}
