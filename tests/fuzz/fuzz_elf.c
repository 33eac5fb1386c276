/*
 * fuzz_elf.c -- fuzz target: the virtual DPU's ELF loader
 * (vdpu_program_load_mem), then a short run of what it accepted.
 *
 * Inputs are DPU ELF files. A program that loads is run in FAST mode with a
 * tiny instruction budget on one DPU created once (creating a DPU maps 64
 * MiB of MRAM, too slow per input): the loader's output (predecoded code,
 * images, stack and symbol layout) is what the interpreter trusts, so a run
 * checks that trust too.
 *
 * LLVMFuzzerCustomMutator below is structure-aware: byte flips on an ELF
 * almost always die at the first header checks, so it edits header fields,
 * section and program headers, symbols and string tables in place (the file
 * stays mostly well-formed and the size unchanged), and falls back to
 * libFuzzer's own mutator otherwise.
 *
 * The run is translated to host code (vdpuJit, the default) and repeated
 * interpreted on a second DPU: a difference in any result field or in WRAM
 * aborts, so the ELF corpus also goes through the translator.
 */
#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vdpu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
/* libFuzzer's mutator; absent (NULL) in the replay driver of `make test` */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) __attribute__((weak));

static vdpu_t *dpu, *dpu_interp; /* translated (the default), interpreted */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    vdpu_program_t *p = NULL;
    char msg[256];
    if (vdpu_program_load_mem(data, size, &p, msg, sizeof msg) != VDPU_OK)
        return 0;
    /* what the host library reads from a program: its tasklets, symbols
     * by name (the runtime's and ones a host program asks for), and the
     * function at an address (fault reports) */
    (void)vdpu_program_nr_tasklets(p);
    static const char *const names[] = {
        "__sys_nr_tasklets",   "__sys_host_begin", "main",    "DPU_MRAM_HEAP_POINTER",
        "__sys_used_mram_end", "aes_key_args",     "buffers", ""};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        vdpu_symbol_t s;
        if (vdpu_program_symbol(p, names[i], &s) == VDPU_OK)
            (void)vdpu_program_func_name(p, s.addr);
    }
    for (uint32_t pc = 0; pc < 64; pc += 4)
        (void)vdpu_program_func_name(p, VDPU_IRAM_BASE + pc);
    if (!dpu) {
        vdpu_params_t prm;
        vdpu_params_default(&prm);
        prm.mode = VDPU_MODE_FAST;
        prm.fast_quantum = 64;
        prm.max_instructions = 4096;
        if (vdpu_create(&prm, &dpu) != VDPU_OK)
            dpu = NULL;
        prm.jit = 0;
        if (vdpu_create(&prm, &dpu_interp) != VDPU_OK)
            dpu_interp = NULL;
    }
    if (dpu && dpu_interp && vdpu_load(dpu, p) == VDPU_OK && vdpu_load(dpu_interp, p) == VDPU_OK) {
        /* the run translated to host code must be the interpreter's: every
         * result field and WRAM (both DPUs have seen the same programs) */
        static uint8_t w0[VDPU_WRAM_SIZE], w1[VDPU_WRAM_SIZE];
        vdpu_result_t r, r1;
        if (vdpu_run(dpu, &r) == VDPU_OK && vdpu_run(dpu_interp, &r1) == VDPU_OK) {
            r.jit_entries = r1.jit_entries = 0;
            memset(r.notes, 0, sizeof r.notes); /* a place is noted once per program */
            memset(r1.notes, 0, sizeof r1.notes);
            vdpu_wram_read(dpu, 0, w0, sizeof w0);
            vdpu_wram_read(dpu_interp, 0, w1, sizeof w1);
            if (memcmp(&r, &r1, sizeof r) || memcmp(w0, w1, sizeof w0)) {
                fprintf(stderr, "fuzz_elf: the translated run differs from the interpreted one\n");
                abort();
            }
        }
        /* the next load must not see this program (it is freed below) */
    }
    vdpu_program_free(p);
    return 0;
}

/* ------------------------------------------------------------ mutator */

static uint32_t rng_state;

static uint32_t rnd(void)
{
    /* xorshift32: deterministic per seed, so libFuzzer can replay */
    uint32_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return rng_state = x ? x : 0x2545f491u;
}

static uint32_t below(uint32_t n)
{
    return n ? rnd() % n : 0;
}

/* A value that tends to sit on a boundary the loader checks. */
static uint32_t interesting(uint32_t old, size_t file_size)
{
    static const uint32_t vals[] = {
        0,           1,           2,           3,           4,           7,
        8,           16,          40,          0x7f,        0x80,        0xff,
        0x100,       0x7fff,      0x8000,      0xffff,      0x10000,     0x10001,
        0x4000,      0x7ffffff,   0x8000000,   0x8000008,   0xc000000,   0xbfffff8,
        0x10000000,  0x7fffffff,  0x80000000u, 0x80000004u, 0x80004000u, 0xfffffff0u,
        0xfffffffcu, 0xffffffffu, 24,          25,          4096,        4097,
    };
    switch (below(6)) {
    case 0:
    case 1:
        return vals[below(sizeof vals / sizeof vals[0])];
    case 2:
        return old + (below(17) - 8); /* near the old value */
    case 3:
        return (uint32_t)file_size - below(64);
    case 4:
        return old ^ (1u << below(32));
    default:
        return rnd();
    }
}

static void put32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
}
static uint32_t get32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static void put16(uint8_t *p, uint16_t v)
{
    memcpy(p, &v, 2);
}

/* mutate the 4-byte field at data[off] if it is inside the file */
static int mutate32(uint8_t *data, size_t size, uint64_t off)
{
    if (off + 4 > size)
        return 0;
    put32(data + off, interesting(get32(data + off), size));
    return 1;
}

static int mutate_ehdr(uint8_t *d, size_t size)
{
    static const size_t f32[] = {offsetof(Elf32_Ehdr, e_entry), offsetof(Elf32_Ehdr, e_phoff),
                                 offsetof(Elf32_Ehdr, e_shoff), offsetof(Elf32_Ehdr, e_flags)};
    static const size_t f16[] = {offsetof(Elf32_Ehdr, e_phnum), offsetof(Elf32_Ehdr, e_shnum),
                                 offsetof(Elf32_Ehdr, e_shstrndx),
                                 offsetof(Elf32_Ehdr, e_shentsize),
                                 offsetof(Elf32_Ehdr, e_phentsize)};
    if (below(2))
        return mutate32(d, size, f32[below(4)]);
    size_t o = f16[below(5)];
    uint16_t v;
    memcpy(&v, d + o, 2);
    put16(d + o, below(2) ? (uint16_t)(v + below(5) - 2) : (uint16_t)interesting(v, size));
    return 1;
}

static int mutate_shdr(uint8_t *d, size_t size, const Elf32_Ehdr *eh, unsigned i)
{
    uint64_t base = eh->e_shoff + (uint64_t)i * sizeof(Elf32_Shdr);
    if (base + sizeof(Elf32_Shdr) > size)
        return 0;
    static const uint32_t types[] = {SHT_NULL,   SHT_PROGBITS, SHT_SYMTAB, SHT_STRTAB,
                                     SHT_NOBITS, SHT_DYNSYM,   SHT_REL,    0x70000003};
    switch (below(9)) {
    case 0: /* the type: NOBITS above all, the case the loader got wrong */
        put32(d + base + offsetof(Elf32_Shdr, sh_type),
              below(2) ? SHT_NOBITS : types[below(sizeof types / sizeof types[0])]);
        return 1;
    case 1:
        return mutate32(d, size, base + offsetof(Elf32_Shdr, sh_offset));
    case 2:
        return mutate32(d, size, base + offsetof(Elf32_Shdr, sh_size));
    case 3:
        return mutate32(d, size, base + offsetof(Elf32_Shdr, sh_addr));
    case 4:
        put32(d + base + offsetof(Elf32_Shdr, sh_link),
              below(2) ? below(eh->e_shnum + 2u) : interesting(0, size));
        return 1;
    case 5:
        return mutate32(d, size, base + offsetof(Elf32_Shdr, sh_info));
    case 6:
        put32(d + base + offsetof(Elf32_Shdr, sh_entsize), below(2) ? 16 : interesting(16, size));
        return 1;
    case 7: {
        uint32_t f = get32(d + base + offsetof(Elf32_Shdr, sh_flags));
        f ^= below(2) ? (uint32_t)(SHF_ALLOC << below(3)) : interesting(f, size);
        put32(d + base + offsetof(Elf32_Shdr, sh_flags), f);
        return 1;
    }
    default:
        return mutate32(d, size, base + offsetof(Elf32_Shdr, sh_name));
    }
}

static int mutate_phdr(uint8_t *d, size_t size, const Elf32_Ehdr *eh)
{
    if (eh->e_phnum == 0)
        return 0;
    uint64_t base = eh->e_phoff + (uint64_t)below(eh->e_phnum) * sizeof(Elf32_Phdr);
    return mutate32(d, size, base + 4u * below(sizeof(Elf32_Phdr) / 4));
}

/* the section header of the first section of type t, or NULL */
static const uint8_t *find_type(const uint8_t *d, size_t size, const Elf32_Ehdr *eh, uint32_t t,
                                Elf32_Shdr *out)
{
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        uint64_t o = eh->e_shoff + (uint64_t)i * sizeof *out;
        if (o + sizeof *out > size)
            return NULL;
        memcpy(out, d + o, sizeof *out);
        if (out->sh_type == t && out->sh_type != SHT_NOBITS &&
            (uint64_t)out->sh_offset + out->sh_size <= size)
            return d + o;
    }
    return NULL;
}

static int mutate_sym(uint8_t *d, size_t size, const Elf32_Ehdr *eh)
{
    Elf32_Shdr st;
    if (!find_type(d, size, eh, SHT_SYMTAB, &st) || st.sh_size < 2 * sizeof(Elf32_Sym))
        return 0;
    uint32_t k = 1 + below(st.sh_size / sizeof(Elf32_Sym) - 1);
    uint64_t o = st.sh_offset + (uint64_t)k * sizeof(Elf32_Sym);
    switch (below(5)) {
    case 0:
        return mutate32(d, size, o + offsetof(Elf32_Sym, st_name));
    case 1:
        return mutate32(d, size, o + offsetof(Elf32_Sym, st_value));
    case 2:
        return mutate32(d, size, o + offsetof(Elf32_Sym, st_size));
    case 3:
        d[o + offsetof(Elf32_Sym, st_info)] = (uint8_t)rnd();
        return 1;
    default:
        put16(d + o + offsetof(Elf32_Sym, st_shndx), (uint16_t)interesting(1, size));
        return 1;
    }
}

/* Names the loader and the runtime look up: renaming a symbol to one of them
 * (or a near miss) makes the loader use a value it did not expect. */
static const char *const names[] = {
    "__sys_nr_tasklets",
    "__sys_stack_lo_0",
    "__sys_stack_hi_0",
    "__sys_stack_hi_23",
    "__sys_host_begin",
    "__sys_host_end",
    "__sys_used_mram_end",
    "__sys_wram_end",
    "CLOCKS_PER_SEC",
    "main",
    ".Lx",
    "",
};

static int mutate_strings(uint8_t *d, size_t size, const Elf32_Ehdr *eh)
{
    Elf32_Shdr st;
    /* the first STRTAB is usually .shstrtab, the symbol names are in the one
     * the symbol table links to: pick either */
    Elf32_Shdr sym;
    if (below(2) && find_type(d, size, eh, SHT_SYMTAB, &sym) && sym.sh_link < eh->e_shnum) {
        uint64_t o = eh->e_shoff + (uint64_t)sym.sh_link * sizeof st;
        if (o + sizeof st > size)
            return 0;
        memcpy(&st, d + o, sizeof st);
        if (st.sh_type == SHT_NOBITS || (uint64_t)st.sh_offset + st.sh_size > size)
            return 0;
    } else if (!find_type(d, size, eh, SHT_STRTAB, &st)) {
        return 0;
    }
    if (st.sh_size == 0)
        return 0;
    uint8_t *s = d + st.sh_offset;
    uint32_t at = below(st.sh_size);
    switch (below(3)) {
    case 0: { /* overwrite a string with a known name, if it fits */
        const char *nm = names[below(sizeof names / sizeof names[0])];
        size_t n = strlen(nm) + 1;
        if (at + n > st.sh_size)
            return 0;
        memcpy(s + at, nm, n);
        return 1;
    }
    case 1: /* drop or add a terminator */
        s[at] = s[at] ? 0 : 'A';
        if (below(4) == 0)
            s[st.sh_size - 1] = 'Z'; /* an unterminated table */
        return 1;
    default:
        s[at] = (uint8_t)("_.0123456789abcdefghst"[below(22)]);
        return 1;
    }
}

/* libFuzzer's mutator on the contents of one section (e.g. .text) */
static int mutate_contents(uint8_t *d, size_t size, const Elf32_Ehdr *eh)
{
    if (!LLVMFuzzerMutate || eh->e_shnum == 0)
        return 0;
    uint64_t o = eh->e_shoff + (uint64_t)below(eh->e_shnum) * sizeof(Elf32_Shdr);
    Elf32_Shdr s;
    if (o + sizeof s > size)
        return 0;
    memcpy(&s, d + o, sizeof s);
    if (s.sh_type == SHT_NOBITS || s.sh_size == 0 || (uint64_t)s.sh_offset + s.sh_size > size)
        return 0;
    /* fixed size: the section must keep its place in the file */
    size_t n = LLVMFuzzerMutate(d + s.sh_offset, s.sh_size, s.sh_size);
    if (n < s.sh_size)
        memset(d + s.sh_offset + n, 0, s.sh_size - n);
    return 1;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    rng_state = seed ? seed : 1;
    Elf32_Ehdr eh;
    int elf = size >= sizeof eh && size <= max_size && memcmp(data, ELFMAG, SELFMAG) == 0;
    if (elf)
        memcpy(&eh, data, sizeof eh);
    /* one edit in most rounds, sometimes a few on top of each other */
    unsigned edits = elf ? 1 + (below(4) == 0) * below(4) : 0, done = 0;
    for (unsigned k = 0; k < edits; k++) {
        memcpy(&eh, data, sizeof eh); /* an earlier edit may have changed it */
        switch (below(16)) {
        case 0:
            done += mutate_ehdr(data, size);
            break;
        case 1:
            done += mutate_phdr(data, size, &eh);
            break;
        case 2:
        case 3:
            done += mutate_sym(data, size, &eh);
            break;
        case 4:
        case 5:
            done += mutate_strings(data, size, &eh);
            break;
        case 6:
        case 7:
            done += mutate_contents(data, size, &eh);
            break;
        case 8:
            break; /* plain byte-level mutation below */
        default:
            if (eh.e_shnum)
                done += mutate_shdr(data, size, &eh, below(eh.e_shnum));
            break;
        }
    }
    if (done)
        return size;
    if (LLVMFuzzerMutate)
        return LLVMFuzzerMutate(data, size, max_size);
    /* replay driver: no libFuzzer; flip one byte so the round still differs */
    if (size)
        data[below((uint32_t)size)] ^= (uint8_t)(1u << below(8));
    return size;
}
