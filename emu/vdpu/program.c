/* program.c -- load a DPU ELF (riscv32) into an immutable vdpu_program_t. */
#define _POSIX_C_SOURCE 200809L
#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jit.h"
#include "vdpu_internal.h"

static vdpu_err_t fail(char *msg, size_t msglen, vdpu_err_t e, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static vdpu_err_t fail(char *msg, size_t msglen, vdpu_err_t e, const char *fmt, ...)
{
    if (msg && msglen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, msglen, fmt, ap);
        va_end(ap);
    }
    return e;
}

void vdpu_program_free(vdpu_program_t *p)
{
    if (!p)
        return;
    free(p->code);
    free(p->code_rv32);
    free(p->text);
    free(p->wram_img);
    free(p->mram_img);
    free(p->syms);
    free(p->funcs);
    free(p->strtab);
    for (uint32_t i = 0; i < p->n_line_files; i++)
        free(p->line_files[i]);
    free(p->line_files);
    free(p->line_of);
    free(p->noted);
    vdpu_jit_release(p);
    free(p);
}

static int cmp_func(const void *a, const void *b)
{
    const vsym_t *x = *(const vsym_t *const *)a, *y = *(const vsym_t *const *)b;
    return x->value < y->value ? -1 : x->value > y->value;
}

static const vsym_t *find_sym(const vdpu_program_t *p, const char *name)
{
    const vsym_t *local = NULL;
    for (uint32_t i = 0; i < p->n_syms; i++)
        if (strcmp(p->syms[i].name, name) == 0) {
            if (p->syms[i].global)
                return &p->syms[i];
            if (!local)
                local = &p->syms[i];
        }
    return local;
}

static int in_range(uint64_t a, uint64_t n, uint64_t base, uint64_t size)
{
    return a >= base && a + n <= base + size;
}

/* Name of section s for messages: from the section name table when the name
 * lies inside it and is NUL-terminated there, else "?" (a crafted sh_name
 * must not make an error message read outside the file). */
/* The DPU-cost view of the code (vdpu_fuse) next to the plain RV32 one. The
 * fusion needs every place execution may enter other than by falling
 * through: branch and jump targets, return points, functions, the entry, and
 * IRAM addresses stored in the initial WRAM/MRAM images (jump tables,
 * function pointers). */
static int fuse_costs(vdpu_program_t *p)
{
    uint32_t n = p->n_insns;
    size_t bytes = ((size_t)n + 1) * sizeof(vinsn_t);
    uint8_t *tg = calloc((size_t)n + 1, 1);
    p->code_rv32 = malloc(bytes);
    if (!tg || !p->code_rv32) {
        free(tg);
        return -1;
    }
    memcpy(p->code_rv32, p->code, bytes);
    tg[p->entry] = VDPU_TG_ENTRY;
    for (uint32_t i = 0; i < n; i++) {
        const vinsn_t *I = &p->code[i];
        if (((I->op >= OP_BEQ && I->op <= OP_BGEU) || I->op == OP_JAL ||
             (I->op == OP_MUL_STEP && I->imm >= 0)) &&
            (uint32_t)I->imm < n)
            tg[I->imm] |= (I->op == OP_JAL && I->rd != 32) ? VDPU_TG_ENTRY : VDPU_TG_JOIN;
        if ((I->op == OP_JAL || I->op == OP_JALR) && I->rd != 32 && i + 1 < n)
            tg[i + 1] |= VDPU_TG_JOIN;
    }
    for (uint32_t k = 0; k < p->n_funcs; k++) {
        uint32_t a = p->funcs[k]->value - VDPU_IRAM_BASE;
        if ((a & 3) == 0 && a / 4 < n)
            tg[a / 4] |= VDPU_TG_ENTRY;
    }
    const uint8_t *imgs[2] = {p->wram_img, p->mram_img};
    uint32_t lens[2] = {p->wram_img ? VDPU_WRAM_SIZE : 0, p->mram_init_size};
    for (int m = 0; m < 2; m++)
        for (uint32_t o = 0; o + 4 <= lens[m]; o += 4) {
            uint32_t v;
            memcpy(&v, imgs[m] + o, 4);
            uint32_t a = v - VDPU_IRAM_BASE;
            if ((a & 3) == 0 && a / 4 < n)
                tg[a / 4] |= VDPU_TG_ENTRY;
        }
    int rc = vdpu_fuse(p->code, n, tg);
    free(tg);
    return rc;
}

static const char *sec_name(const uint8_t *shstr, uint32_t shstr_size, const Elf32_Shdr *s)
{
    if (!shstr || s->sh_name >= shstr_size ||
        !memchr(shstr + s->sh_name, 0, shstr_size - s->sh_name))
        return "?";
    return (const char *)shstr + s->sh_name;
}

vdpu_err_t vdpu_program_load_mem(const void *elf, size_t len, vdpu_program_t **out, char *msg,
                                 size_t msglen)
{
    if (msg && msglen)
        msg[0] = 0;
    if (!out || (!elf && len))
        return fail(msg, msglen, VDPU_ERR_ARG, "NULL argument");
    *out = NULL;
    const uint8_t *b = elf;
    if (len < sizeof(Elf32_Ehdr) || memcmp(b, ELFMAG, SELFMAG) != 0)
        return fail(msg, msglen, VDPU_ERR_ELF, "not an ELF file");
    Elf32_Ehdr eh;
    memcpy(&eh, b, sizeof eh);
    if (eh.e_ident[EI_CLASS] != ELFCLASS32 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
        eh.e_machine != EM_RISCV)
        return fail(msg, msglen, VDPU_ERR_ELF,
                    "not a 32-bit little-endian RISC-V ELF (build it with dpu-upmem-dpurte-clang)");
    if (eh.e_flags & 0x1 /* EF_RISCV_RVC */)
        return fail(msg, msglen, VDPU_ERR_ELF,
                    "ELF uses compressed (RVC) instructions; not supported");
    if (eh.e_shentsize != sizeof(Elf32_Shdr) || eh.e_shoff == 0 ||
        (uint64_t)eh.e_shoff + (uint64_t)eh.e_shnum * sizeof(Elf32_Shdr) > len ||
        eh.e_shstrndx >= eh.e_shnum)
        return fail(msg, msglen, VDPU_ERR_ELF, "bad section header table");

    Elf32_Shdr *sh = calloc(eh.e_shnum ? eh.e_shnum : 1, sizeof *sh);
    vdpu_program_t *p = calloc(1, sizeof *p);
    if (!sh || !p) {
        free(sh);
        free(p);
        return fail(msg, msglen, VDPU_ERR_NOMEM, "out of memory");
    }
    memcpy(sh, b + eh.e_shoff, (size_t)eh.e_shnum * sizeof *sh);
    vdpu_err_t err = VDPU_OK;
#define FAIL(e, ...)                                                                               \
    do {                                                                                           \
        err = fail(msg, msglen, e, __VA_ARGS__);                                                   \
        goto out_err;                                                                              \
    } while (0)
    /* Every section with contents must lie inside the file; from here on the
     * contents of a non-NOBITS section may be read without further checks.
     * A SHT_NOBITS section has no contents: its sh_offset means nothing, so
     * every place that reads contents first checks the type (has_bits). */
    for (unsigned i = 0; i < eh.e_shnum; i++)
        if (sh[i].sh_type != SHT_NOBITS && (uint64_t)sh[i].sh_offset + sh[i].sh_size > len)
            FAIL(VDPU_ERR_ELF, "section %u extends past end of file (offset %u + size %u > %zu)", i,
                 (unsigned)sh[i].sh_offset, (unsigned)sh[i].sh_size, len);
#define has_bits(s) ((s)->sh_type != SHT_NOBITS)
    const Elf32_Shdr *shs = &sh[eh.e_shstrndx];
    if (!has_bits(shs))
        FAIL(VDPU_ERR_ELF, "section name table (section %u) is SHT_NOBITS: it has no contents",
             (unsigned)eh.e_shstrndx);
    const uint8_t *shstr = b + shs->sh_offset;
#define NAME(s) sec_name(shstr, shs->sh_size, (s))

    p->wram_img = calloc(1, VDPU_WRAM_SIZE);
    if (!p->wram_img)
        FAIL(VDPU_ERR_NOMEM, "out of memory");
    p->wram_lo = VDPU_WRAM_SIZE;
    p->wram_hi = 0;
    const Elf32_Shdr *text = NULL;
    uint32_t mram_hi = 0, mram_init_hi = 0;
    /* pass 1: sizes */
    for (unsigned i = 1; i < eh.e_shnum; i++) {
        const Elf32_Shdr *s = &sh[i];
        if (!(s->sh_flags & SHF_ALLOC) || s->sh_size == 0)
            continue;
        const char *nm = NAME(s);
        uint64_t a = s->sh_addr, n = s->sh_size;
        if (s->sh_type == SHT_NOBITS && in_range(a, n, VDPU_ATOMIC_BASE, VDPU_ATOMIC_BITS)) {
            /* the atomic bits: names only, no memory (the interpreter keeps them) */
            continue;
        }
        if (in_range(a, n, VDPU_IRAM_BASE, 0x80000000ull)) {
            if (!(s->sh_flags & SHF_EXECINSTR))
                FAIL(VDPU_ERR_LAYOUT, "section %s in IRAM is not executable", nm);
            if (text)
                FAIL(VDPU_ERR_LAYOUT, "more than one code section (%s)", nm);
            text = s;
        } else if (in_range(a, n, VDPU_MRAM_BASE, 0x10000000ull)) {
            uint64_t hi = a + n - VDPU_MRAM_BASE;
            if (hi > VDPU_MRAM_SIZE)
                FAIL(VDPU_ERR_MRAM_BUDGET,
                     "MRAM budget exceeded: section %s ends at MRAM offset %llu > 64 MiB", nm,
                     (unsigned long long)hi);
            if (hi > mram_hi)
                mram_hi = (uint32_t)hi;
            if (s->sh_type != SHT_NOBITS && hi > mram_init_hi)
                mram_init_hi = (uint32_t)hi;
        } else if (in_range(a, n, VDPU_WRAM_BASE, 0x08000000ull)) {
            if (a + n > VDPU_WRAM_SIZE)
                FAIL(VDPU_ERR_WRAM_BUDGET,
                     "WRAM budget exceeded: section %s ends at 0x%llx > 64 KiB", nm,
                     (unsigned long long)(a + n));
            if (a < p->wram_lo)
                p->wram_lo = (uint32_t)a;
            if (a + n > p->wram_hi)
                p->wram_hi = (uint32_t)(a + n);
            if (s->sh_type != SHT_NOBITS)
                memcpy(p->wram_img + a, b + s->sh_offset, n);
        } else {
            FAIL(VDPU_ERR_LAYOUT, "section %s at 0x%08x is outside WRAM/MRAM/IRAM", nm,
                 (unsigned)a);
        }
    }
    if (!text)
        FAIL(VDPU_ERR_LAYOUT, "no code section in IRAM (0x80000000)");
    if (!has_bits(text))
        FAIL(VDPU_ERR_ELF, "code section %s is SHT_NOBITS: it has no instructions in the file",
             NAME(text));
    if (text->sh_addr != VDPU_IRAM_BASE || (text->sh_size & 3))
        FAIL(VDPU_ERR_LAYOUT, "code section must start at 0x80000000 and hold 4-byte instructions");
    p->n_insns = text->sh_size / 4;
    if (p->n_insns > VDPU_IRAM_MAX_INSNS)
        FAIL(VDPU_ERR_IRAM_BUDGET, "IRAM budget exceeded: %u instructions > 4096",
             (unsigned)p->n_insns);
    {
        uint32_t *words = malloc((size_t)p->n_insns * 4 + 4);
        p->code = malloc(((size_t)p->n_insns + 1) * sizeof(vinsn_t));
        if (!words || !p->code) {
            free(words);
            FAIL(VDPU_ERR_NOMEM, "out of memory");
        }
        memcpy(words, b + text->sh_offset, (size_t)p->n_insns * 4);
        vdpu_decode(words, p->n_insns, p->code);
        p->text = words; /* the instruction words, for a debugger's reads of IRAM */
    }
    if (eh.e_entry < VDPU_IRAM_BASE || ((eh.e_entry - VDPU_IRAM_BASE) & 3) ||
        (eh.e_entry - VDPU_IRAM_BASE) / 4 >= p->n_insns)
        FAIL(VDPU_ERR_LAYOUT, "entry point 0x%08x outside .text", (unsigned)eh.e_entry);
    p->entry = (eh.e_entry - VDPU_IRAM_BASE) / 4;
    p->mram_init_size = mram_init_hi;
    p->mram_used = mram_hi;
    if (mram_init_hi) {
        p->mram_img = calloc(1, mram_init_hi);
        if (!p->mram_img)
            FAIL(VDPU_ERR_NOMEM, "out of memory");
        for (unsigned i = 1; i < eh.e_shnum; i++) {
            const Elf32_Shdr *s = &sh[i];
            if ((s->sh_flags & SHF_ALLOC) && s->sh_type != SHT_NOBITS && s->sh_size &&
                in_range(s->sh_addr, s->sh_size, VDPU_MRAM_BASE, VDPU_MRAM_SIZE))
                memcpy(p->mram_img + (s->sh_addr - VDPU_MRAM_BASE), b + s->sh_offset, s->sh_size);
        }
    }
    if (p->wram_lo > p->wram_hi)
        p->wram_lo = p->wram_hi = 0;

    /* symbols */
    const Elf32_Shdr *symtab = NULL;
    for (unsigned i = 1; i < eh.e_shnum; i++)
        if (sh[i].sh_type == SHT_SYMTAB)
            symtab = &sh[i];
    if (!symtab || symtab->sh_link >= eh.e_shnum || symtab->sh_entsize != sizeof(Elf32_Sym))
        FAIL(VDPU_ERR_LAYOUT, "no symbol table (do not strip DPU programs)");
    {
        const Elf32_Shdr *st = &sh[symtab->sh_link];
        if (!has_bits(st))
            FAIL(VDPU_ERR_ELF,
                 "string table of the symbol table (section %u, %s) is SHT_NOBITS: it has no "
                 "contents",
                 (unsigned)symtab->sh_link, NAME(st));
        if (st->sh_type != SHT_STRTAB)
            FAIL(VDPU_ERR_ELF,
                 "string table of the symbol table (section %u, %s) is not SHT_STRTAB (type %u)",
                 (unsigned)symtab->sh_link, NAME(st), (unsigned)st->sh_type);
        /* size_t before the +1: sh_size is 32-bit and 0xffffffff + 1 wraps */
        p->strtab = malloc((size_t)st->sh_size + 1);
        if (!p->strtab)
            FAIL(VDPU_ERR_NOMEM, "out of memory");
        memcpy(p->strtab, b + st->sh_offset, st->sh_size);
        p->strtab[st->sh_size] = 0;
        uint32_t n = symtab->sh_size / sizeof(Elf32_Sym);
        p->syms = calloc(n ? n : 1, sizeof(vsym_t));
        p->funcs = calloc(n ? n : 1, sizeof(vsym_t *));
        if (!p->syms || !p->funcs)
            FAIL(VDPU_ERR_NOMEM, "out of memory");
        for (uint32_t i = 1; i < n; i++) {
            Elf32_Sym s;
            memcpy(&s, b + symtab->sh_offset + i * sizeof s, sizeof s);
            if (s.st_name >= st->sh_size || !p->strtab[s.st_name])
                continue;
            int type = ELF32_ST_TYPE(s.st_info);
            if (type == STT_SECTION || type == STT_FILE)
                continue;
            const char *nm = p->strtab + s.st_name;
            if (nm[0] == '.' && nm[1] == 'L')
                continue;
            vsym_t *v = &p->syms[p->n_syms++];
            v->name = p->strtab + s.st_name;
            v->value = s.st_value;
            v->size = s.st_size;
            v->type = (uint8_t)type;
            v->global = ELF32_ST_BIND(s.st_info) != STB_LOCAL;
            if (type == STT_FUNC && s.st_value >= VDPU_IRAM_BASE)
                p->funcs[p->n_funcs++] = v;
        }
        qsort(p->funcs, p->n_funcs, sizeof *p->funcs, cmp_func);
    }
    /* host-visible marks */
    {
        const vsym_t *hb = find_sym(p, "__sys_host_begin"), *he = find_sym(p, "__sys_host_end");
        for (uint32_t i = 0; i < p->n_syms; i++) {
            vsym_t *v = &p->syms[i];
            if (v->type != STT_OBJECT && strcmp(v->name, VDPU_SYM_MRAM_END) != 0)
                continue;
            if (in_range(v->value, 0, VDPU_MRAM_BASE, VDPU_MRAM_SIZE))
                v->host = 1;
            else if (hb && he && v->value >= hb->value && v->value < he->value)
                v->host = 1;
        }
    }
    /* tasklets and stacks */
    {
        const vsym_t *nt = find_sym(p, VDPU_SYM_NR_TASKLETS);
        if (!nt)
            FAIL(VDPU_ERR_LAYOUT,
                 "symbol __sys_nr_tasklets missing (link with dpu-upmem-dpurte-clang)");
        if (nt->value == 0 || nt->value > VDPU_MAX_TASKLETS)
            FAIL(VDPU_ERR_TASKLETS,
                 "NR_TASKLETS = %u: must be 1..24 (the DPU has 24 hardware threads)",
                 (unsigned)nt->value);
        p->nr_tasklets = nt->value;
        uint32_t top = p->wram_hi;
        for (unsigned k = 0; k < p->nr_tasklets; k++) {
            char n1[40], n2[40];
            snprintf(n1, sizeof n1, "__sys_stack_lo_%u", k);
            snprintf(n2, sizeof n2, "__sys_stack_hi_%u", k);
            const vsym_t *lo = find_sym(p, n1), *hi = find_sym(p, n2);
            if (!lo || !hi || hi->value <= lo->value)
                FAIL(VDPU_ERR_LAYOUT, "stack symbols of tasklet %u missing or empty", k);
            if (hi->value > VDPU_WRAM_SIZE)
                FAIL(VDPU_ERR_WRAM_BUDGET,
                     "WRAM budget exceeded: stack of tasklet %u ends at 0x%x > 64 KiB", k,
                     (unsigned)hi->value);
            if ((lo->value | hi->value) & 7)
                FAIL(VDPU_ERR_LAYOUT, "stack of tasklet %u not 8-aligned", k);
            p->stack_lo[k] = lo->value;
            p->stack_hi[k] = hi->value;
            if (hi->value > top)
                top = hi->value;
        }
        const vsym_t *we = find_sym(p, VDPU_SYM_WRAM_END);
        if (we && we->value > top)
            top = we->value;
        if (top > VDPU_WRAM_SIZE)
            FAIL(VDPU_ERR_WRAM_BUDGET, "WRAM budget exceeded: image + %u stacks = %u bytes > 65536",
                 p->nr_tasklets, (unsigned)top);
        p->wram_used = top;
    }
    {
        const vsym_t *c = find_sym(p, VDPU_SYM_CLOCKS);
        if (c && c->size == 4 && c->value <= VDPU_WRAM_SIZE - 4)
            p->clocks_addr = c->value;
    }
    if (fuse_costs(p) != 0)
        FAIL(VDPU_ERR_NOMEM, "out of memory");
    p->noted = calloc(p->n_insns + 1u, 1);
    p->jit = calloc(6, sizeof *p->jit);
    if (!p->noted || !p->jit)
        FAIL(VDPU_ERR_NOMEM, "out of memory");
    p->fingerprint = 0xcbf29ce484222325ull; /* FNV-1a of the code */
    for (size_t i = 0; i < (size_t)p->n_insns * 4; i++)
        p->fingerprint = (p->fingerprint ^ b[text->sh_offset + i]) * 0x100000001b3ull;
    {
        /* source lines, when the program has debug information */
        const uint8_t *sec[3] = {NULL, NULL, NULL};
        size_t sec_len[3] = {0, 0, 0};
        static const char *const names[3] = {".debug_line", ".debug_line_str", ".debug_str"};
        for (unsigned i = 1; i < eh.e_shnum; i++)
            for (unsigned k = 0; k < 3; k++)
                if (has_bits(&sh[i]) && strcmp(NAME(&sh[i]), names[k]) == 0) {
                    sec[k] = b + sh[i].sh_offset;
                    sec_len[k] = sh[i].sh_size;
                }
        if (vdpu_lines_load(p, sec[0], sec_len[0], sec[1], sec_len[1], sec[2], sec_len[2]) != 0)
            FAIL(VDPU_ERR_NOMEM, "out of memory");
    }
    free(sh);
    *out = p;
    return VDPU_OK;
out_err:
#undef NAME
#undef has_bits
#undef FAIL
    free(sh);
    vdpu_program_free(p);
    return err;
}

vdpu_err_t vdpu_program_load_file(const char *path, vdpu_program_t **out, char *msg, size_t msglen)
{
    if (out)
        *out = NULL;
    if (!path || !out)
        return fail(msg, msglen, VDPU_ERR_ARG, "NULL argument");
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(msg, msglen, VDPU_ERR_IO, "cannot open DPU program '%s'", path);
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (n < cap)
            break;
        if (cap >= ((size_t)256 << 20)) {
            free(buf);
            buf = NULL;
            break;
        }
        uint8_t *nb = realloc(buf, cap * 2);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    int ioerr = ferror(f);
    fclose(f);
    if (!buf)
        return fail(msg, msglen, VDPU_ERR_NOMEM, "out of memory reading '%s'", path);
    if (ioerr) {
        free(buf);
        return fail(msg, msglen, VDPU_ERR_IO, "read error on '%s'", path);
    }
    vdpu_err_t e = vdpu_program_load_mem(buf, n, out, msg, msglen);
    free(buf);
    return e;
}

unsigned vdpu_program_nr_tasklets(const vdpu_program_t *p)
{
    return p ? p->nr_tasklets : 0;
}

static void fill_sym(const vsym_t *v, vdpu_symbol_t *o)
{
    o->name = v->name;
    o->addr = v->value;
    o->size = v->size;
    o->host_visible = v->host;
    if (v->value >= VDPU_ATOMIC_BASE) { /* an atomic bit: not memory */
        o->mem = VDPU_MEM_ABS;
        o->offset = v->value;
    } else if (v->value >= VDPU_IRAM_BASE) {
        o->mem = VDPU_MEM_IRAM;
        o->offset = v->value - VDPU_IRAM_BASE;
    } else if (v->value >= VDPU_MRAM_BASE && v->value - VDPU_MRAM_BASE <= VDPU_MRAM_SIZE) {
        o->mem = VDPU_MEM_MRAM;
        o->offset = v->value - VDPU_MRAM_BASE;
    } else if (v->value <= VDPU_WRAM_SIZE && v->type != STT_NOTYPE) {
        o->mem = VDPU_MEM_WRAM;
        o->offset = v->value;
    } else if (v->value <= VDPU_WRAM_SIZE) {
        o->mem = VDPU_MEM_WRAM;
        o->offset = v->value;
    } else {
        o->mem = VDPU_MEM_ABS;
        o->offset = v->value;
    }
    if (strcmp(v->name, VDPU_SYM_MRAM_END) == 0 && o->mem == VDPU_MEM_MRAM)
        o->size = VDPU_MRAM_SIZE - o->offset;
    if (strcmp(v->name, VDPU_SYM_NR_TASKLETS) == 0) {
        o->mem = VDPU_MEM_ABS;
        o->offset = v->value;
    }
}

vdpu_err_t vdpu_program_symbol(const vdpu_program_t *p, const char *name, vdpu_symbol_t *out)
{
    if (!p || !name || !out)
        return VDPU_ERR_ARG;
    /* prefer a global definition: search all, keep the first OBJECT/FUNC hit */
    const vsym_t *v = find_sym(p, name);
    if (!v)
        return VDPU_ERR_NO_SYMBOL;
    fill_sym(v, out);
    return VDPU_OK;
}

vdpu_err_t vdpu_program_insn_cost(const vdpu_program_t *p, uint32_t pc, uint32_t *slots,
                                  uint32_t *target)
{
    if (!p || !slots || !target || pc < VDPU_IRAM_BASE || (pc & 3) ||
        (pc - VDPU_IRAM_BASE) / 4 >= p->n_insns)
        return VDPU_ERR_ARG;
    const vinsn_t *I = &p->code[(pc - VDPU_IRAM_BASE) / 4];
    *slots = I->cost;
    int jumps = (I->op >= OP_BEQ && I->op <= OP_BGEU) || I->op == OP_JAL;
    *target = jumps ? VDPU_IRAM_BASE + 4u * (uint32_t)I->imm : 0;
    return VDPU_OK;
}

const char *vdpu_program_func_name(const vdpu_program_t *p, uint32_t pc)
{
    if (!p || p->n_funcs == 0)
        return "?";
    uint32_t lo = 0, hi = p->n_funcs;
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        if (p->funcs[mid]->value <= pc)
            lo = mid;
        else
            hi = mid;
    }
    const vsym_t *f = p->funcs[lo];
    if (f->value <= pc && (pc - f->value < f->size || f->size == 0))
        return f->name;
    return "?";
}
