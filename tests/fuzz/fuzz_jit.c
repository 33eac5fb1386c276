/*
 * fuzz_jit.c -- fuzz target: the translation to host code (emu/vdpu/jit.c)
 * against the interpreter.
 *
 * The input's bytes choose a random valid DPU program: ALU and shift
 * instructions, Zba/Zbb, the DPU's own instructions (mul8, lsl_add...,
 * carry ops, mul_step/div_step, ld/sd, ldma/sdma), branches, calls and
 * indirect jumps, loads and stores (mostly into the tasklet's WRAM area,
 * some misaligned, outside WRAM, into MRAM or IRAM: faults), stack pointer
 * moves (stack faults), runtime services (DMA, atomic bits, perfcounter,
 * yield), RV32 multiply/divide, ebreak, word pairs that cost fusion makes
 * one ld/sd; on 1, 2, 4 or 12 tasklets
 * (tasklet 0 boots the others), whose loads and stores sometimes go to 64
 * bytes they all share (the steady state's windows must then see their
 * conflicts). The program is written as a minimal ELF and loaded through
 * vdpu_program_load_mem, then run in FAST mode with a quantum and cost fusion
 * chosen by the input, on two DPUs created once: translated (vdpuJit=1) and
 * interpreted (vdpuJit=0), from the same zeroed WRAM and MRAM window; one
 * input in two runs in timed mode instead (the run-ahead's translation with
 * the steady-state skipping, against neither). Every
 * result field, all of WRAM and the MRAM window the program's DMAs address
 * must agree; a difference aborts (a finding for libFuzzer, a missing
 * verdict in the replay of `make test`).
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vdpu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXI      400u     /* instructions */
#define MWIN      0x10000u /* MRAM window compared: tasklet areas at 0x1000 * id */
#define DATA_BASE 0x2000u  /* tasklet k's WRAM area: DATA_BASE + 0x400 * k */
#define SHARED    0x1f00u  /* 64 bytes every tasklet loads from and stores to */
#define STK_BASE  0x8000u  /* tasklet k's stack: STK_BASE + 0x400 * k, 1 KiB */

typedef struct {
    const uint8_t *p;
    size_t n, at;
} in_t;

static uint32_t byte(in_t *in)
{
    return in->at < in->n ? in->p[in->at++] : 0;
}

static uint32_t u16(in_t *in)
{
    return byte(in) | byte(in) << 8;
}

/* ---------------------------------------------------- RV32 encodings */
static uint32_t enc_r(uint32_t f7, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t rd,
                      uint32_t opc)
{
    return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}
static uint32_t enc_i(int32_t imm, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t opc)
{
    return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}
static uint32_t enc_s(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t opc)
{
    uint32_t u = (uint32_t)imm & 0xfff;
    return (u >> 5) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (u & 31) << 7 | opc;
}
static uint32_t enc_b(int32_t off, uint32_t rs2, uint32_t rs1, uint32_t f3)
{
    uint32_t u = (uint32_t)off;
    return ((u >> 12) & 1) << 31 | ((u >> 5) & 63) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
           ((u >> 1) & 15) << 8 | ((u >> 11) & 1) << 7 | 0x63;
}
static uint32_t enc_j(int32_t off, uint32_t rd)
{
    uint32_t u = (uint32_t)off;
    return ((u >> 20) & 1) << 31 | ((u >> 1) & 1023) << 21 | ((u >> 11) & 1) << 20 |
           ((u >> 12) & 255) << 12 | rd << 7 | 0x6f;
}
#define LI(rd, v) enc_i((v), 0, 0, (rd), 0x13)

/* registers the program writes, the ones it reads, and pairs */
static const uint8_t wr_regs[] = {5, 6, 7, 10, 11, 12, 13, 14, 15, 28, 29, 30, 31, 0};
static const uint8_t rd_regs[] = {5, 6, 7, 10, 11, 12, 13, 14, 15, 28, 29, 30, 31, 0, 8, 9, 1, 18};
static const uint8_t pairs[] = {6, 10, 12, 14, 28, 30};
enum {
    S0 = 8,
    S1 = 9,
    S2 = 18,
    S3 = 19, /* SHARED */
    A0 = 10,
    A1 = 11,
    A2 = 12,
    A7 = 17,
    T0 = 5,
    T1 = 6,
    T2 = 7,
    T4 = 29
};

/* the epilogue: a store per written register but x0, the carry's two, EXIT's two */
#define EPI_LEN ((uint32_t)sizeof wr_regs - 1 + 4)

static uint32_t wreg(in_t *in)
{
    return wr_regs[byte(in) % sizeof wr_regs];
}
static uint32_t rreg(in_t *in)
{
    return rd_regs[byte(in) % sizeof rd_regs];
}

/* the program: prologue, body from the input, epilogue (EXIT) */
static uint32_t gen(in_t *in, uint32_t *w)
{
    uint32_t n = 0;
    w[n++] = enc_i(0xf14, 0, 2, T0, 0x73);             /* csrr t0, mhartid */
    w[n++] = (DATA_BASE >> 12) << 12 | S0 << 7 | 0x37; /* lui s0, DATA_BASE */
    w[n++] = enc_i(10, T0, 1, T1, 0x13);               /* slli t1, t0, 10 */
    w[n++] = enc_r(0, T1, S0, 0, S0, 0x33);            /* add s0, s0, t1 */
    w[n++] = (VDPU_MRAM_BASE >> 12) << 12 | S1 << 7 | 0x37;
    w[n++] = enc_i(12, T0, 1, T1, 0x13);    /* slli t1, t0, 12 */
    w[n++] = enc_r(0, T1, S1, 0, S1, 0x33); /* add s1, s1, t1 */
    /* ra = the epilogue: a return before any call ends the tasklet */
    w[n++] = (VDPU_IRAM_BASE >> 12) << 12 | 1 << 7 | 0x37;                 /* lui ra, IRAM */
    w[n++] = enc_i((int32_t)(4 * (MAXI - EPI_LEN)), 1, 0, 1, 0x13);        /* + the epilogue */
    w[n++] = LI(S2, 40);                                                   /* the loop budget */
    w[n++] = (DATA_BASE >> 12) << 12 | S3 << 7 | 0x37;                     /* lui s3, DATA_BASE */
    w[n++] = enc_i((int32_t)SHARED - (int32_t)DATA_BASE, S3, 0, S3, 0x13); /* s3 = SHARED */
    w[n++] = enc_b(12, 0, T0, 1);                                          /* bnez t0, +3 */
    w[n++] = LI(A7, 15);                                                   /* BOOT */
    w[n++] = 0x73;                                                         /* ecall */
    /* the epilogue: the registers and the carry flag stored to the tasklet's
     * area (so the comparison of WRAM sees them), then EXIT */
    const uint32_t body = n, end = MAXI - EPI_LEN;
    while (n < end - 6 && in->at < in->n) {
        uint32_t k = byte(in) % 24, rd = wreg(in), rs1 = rreg(in), rs2 = rreg(in);
        int32_t imm = (int32_t)(u16(in) & 0xfff) - 2048;
        /* a branch or jump target inside the body or the epilogue */
        int32_t tgt = (int32_t)n + (int32_t)(byte(in) % 24) - 10;
        if (tgt < (int32_t)body)
            tgt = (int32_t)body;
        int32_t off = 4 * (tgt - (int32_t)n);
        switch (k) {
        case 0: { /* register-immediate ALU */
            static const uint8_t f3s[] = {0, 2, 3, 4, 6, 7};
            uint32_t f3 = f3s[byte(in) % 6];
            w[n++] = enc_i(imm, rs1, f3, rd, 0x13);
            break;
        }
        case 1: { /* shifts by an immediate, Zbb unary: imm[11:0] and funct3 */
            static const struct {
                uint16_t top;
                uint8_t f3, shamt;
            } f[] = {{0x000, 1, 1}, {0x000, 5, 1}, {0x400, 5, 1}, {0x600, 5, 1},
                     {0x600, 1, 0}, {0x601, 1, 0}, {0x602, 1, 0}, {0x604, 1, 0},
                     {0x605, 1, 0}, {0x287, 5, 0}, {0x698, 5, 0}};
            uint32_t j = byte(in) % (sizeof f / sizeof f[0]), sh = byte(in) & 31;
            w[n++] = enc_i((int32_t)(f[j].top | (f[j].shamt ? sh : 0)), rs1, f[j].f3, rd, 0x13);
            break;
        }
        case 2:
        case 3: { /* register-register ALU, Zba/Zbb */
            static const uint16_t ops[][2] = {{0, 0},    {0, 1},    {0, 2},    {0, 3},    {0, 4},
                                              {0, 5},    {0, 6},    {0, 7},    {0x20, 0}, {0x20, 5},
                                              {0x20, 4}, {0x20, 6}, {0x20, 7}, {0x10, 2}, {0x10, 4},
                                              {0x10, 6}, {0x05, 4}, {0x05, 5}, {0x05, 6}, {0x05, 7},
                                              {0x30, 1}, {0x30, 5}};
            uint32_t j = byte(in) % (sizeof ops / sizeof ops[0]);
            w[n++] = enc_r(ops[j][0], rs2, rs1, ops[j][1], rd, 0x33);
            break;
        }
        case 4: /* lui */
            w[n++] = (u16(in) << 12) | rd << 7 | 0x37;
            break;
        case 5:
        case 6: { /* loads: mostly in the tasklet's area, sometimes anywhere */
            static const uint8_t f3s[] = {0, 1, 2, 4, 5};
            /* aligned to its size but now and then */
            uint32_t base = byte(in) % 8 ? S0 : rs1, f3 = f3s[byte(in) % 5];
            if (byte(in) % 16)
                imm &= -(1 << (f3 & 3));
            if (base == S0 && byte(in) % 4 == 0) /* a word the others touch too */
                base = S3, imm &= 0x3f;
            w[n++] = enc_i(imm & 0x7ff, base, f3, rd == 0 ? 5 : rd, 0x03);
            break;
        }
        case 7:
        case 8: { /* stores */
            uint32_t base = byte(in) % 8 ? S0 : rs1, f3 = byte(in) % 3;
            if (byte(in) % 16)
                imm &= -(1 << f3);
            if (base == S0 && byte(in) % 4 == 0)
                base = S3, imm &= 0x3f;
            w[n++] = enc_s(imm & 0x7ff, rs2, base, f3, 0x23);
            break;
        }
        case 9: { /* the DPU's ALU instructions (custom-0) */
            uint32_t j = byte(in) % 3, f7 = byte(in);
            if (j == 0)
                w[n++] = enc_r(f7 % 16, rs2, rs1, 0, rd, 0x0b);
            else if (j == 1)
                w[n++] = enc_r(f7 % 32, rs2, rs1, 1 + byte(in) % 4, rd, 0x0b);
            else
                w[n++] = enc_r(f7 % 4, rs2, rs1, 5, rd, 0x0b);
            break;
        }
        case 10: { /* pair ops (custom-1): mul_step, div_step, ld, sd */
            uint32_t pr = pairs[byte(in) % sizeof pairs], j = byte(in) % 4, sh = byte(in) & 31;
            uint32_t jump = 0;
            if (j == 0 && byte(in) % 2 && tgt > (int32_t)n)
                jump = (uint32_t)(tgt - (int32_t)n);
            if (j <= 1)
                w[n++] = ((jump << 5 | sh) << 20) | rs1 << 15 | j << 12 | pr << 7 | 0x2b;
            else if (j == 2)
                w[n++] = enc_i(imm & 0x7f8, S0, 2, pr, 0x2b);
            else
                w[n++] = enc_s(imm & 0x7f8, pr, S0, 3, 0x2b);
            break;
        }
        case 11:
        case 12:
        case 19:
        case 20: /* conditional branches; a backward one spends the loop budget
                  * (s2): past it the branch is skipped, so most runs end */
            if (off <= 0) {
                w[n++] = enc_i(-1, S2, 0, S2, 0x13); /* addi s2, s2, -1 */
                w[n++] = enc_b(8, 0, S2, 4);         /* blt s2, x0, +2 */
                off -= 8;
            }
            w[n++] = enc_b(off, rs2, rs1, (uint32_t) "\0\1\4\5\6\7"[byte(in) % 6]);
            break;
        case 13: /* jal (a call when rd is ra), jalr (mostly a return) */
            if (byte(in) % 2 && off > 0)
                w[n++] = enc_j(off, byte(in) % 2 ? 1 : 0);
            else if (byte(in) % 4 == 0)
                w[n++] = enc_i(0, 1, 0, 0, 0x67); /* ret */
            else
                w[n++] = enc_i(imm, rs1, 0, rd, 0x67);
            break;
        case 14: { /* a DMA through the runtime's services */
            uint32_t sz = 8 * (1 + byte(in) % 8), wo = (byte(in) % 64) * 8,
                     mo = (byte(in) % 64) * 8;
            uint32_t wr = byte(in) % 2;
            w[n++] = enc_i((int32_t)(wr ? wo : mo), wr ? S0 : S1, 0, A0, 0x13);
            w[n++] = enc_i((int32_t)(wr ? mo : wo), wr ? S1 : S0, 0, A1, 0x13);
            w[n++] = LI(A2, (int32_t)(byte(in) % 16 ? sz : (uint32_t)imm & 0x7ff));
            w[n++] = LI(A7, wr ? 3 : 2);
            w[n++] = 0x73;
            break;
        }
        case 15: { /* ldma / sdma (custom-2) */
            uint32_t wo = (byte(in) % 64) * 8, mo = (byte(in) % 64) * 8;
            w[n++] = enc_i((int32_t)wo, S0, 0, T2, 0x13);
            w[n++] = enc_i((int32_t)mo, S1, 0, T4, 0x13);
            w[n++] = enc_r(byte(in) % 8, T4, T2, byte(in) % 2, 0, 0x5b);
            break;
        }
        case 16: { /* atomic bits, perfcounter, yield */
            static const uint8_t svc[] = {4, 5, 6, 13, 14, 5};
            w[n++] = LI(A0, (int32_t)(200 + byte(in) % 4));
            w[n++] = LI(A7, svc[byte(in) % sizeof svc]);
            w[n++] = 0x73;
            break;
        }
        case 17: /* sp moves (checked) and a store through sp */
            if (byte(in) % 4)
                break;
            w[n++] = enc_i((int32_t)(byte(in) % 64) * 8 - 256, 2, 0, 2, 0x13);
            w[n++] = enc_s((int32_t)(byte(in) % 16) * 4, rs2, 2, 2, 0x23);
            break;
        case 18: /* RV32 multiply, rarely divide (interpreter only) */
            w[n++] = enc_r(1, rs2, rs1, byte(in) % 16 ? byte(in) % 4 : 4 + byte(in) % 4, rd, 0x33);
            break;
        case 21:
        case 22: /* the DPU's ALU instructions again: they are most of real kernels */
            w[n++] = enc_r(byte(in) % 4, rs2, rs1, 5, rd, 0x0b);
            break;
        default: { /* rarely: ebreak, an illegal word; or two word loads or
                    * stores at 8k and 8k + 4 from one base, which cost fusion
                    * pairs into one ld/sd (the second costs no slot), now and
                    * then with an instruction between them */
            const uint32_t c = byte(in) % 8;
            if (c == 0) {
                w[n++] = byte(in) % 2 ? 0x00100073u : 0xffffffffu;
            } else if (c <= 3) {
                const uint32_t base = byte(in) % 4 ? S0 : S3, st = byte(in) % 2;
                const int32_t o = (int32_t)(byte(in) % (base == S3 ? 8 : 64)) * 8;
                const int32_t o1 = byte(in) % 2 ? o : o + 4, o2 = o1 == o ? o + 4 : o;
                const uint32_t r2 = wreg(in);
                w[n++] = st ? enc_s(o1, rs2, base, 2, 0x23) : enc_i(o1, base, 2, rd, 0x03);
                if (c == 3) /* between them: the second is then a head of its own */
                    w[n++] = enc_i(imm, rs1, 0, rd == 5 ? 6 : 5, 0x13);
                w[n++] = st ? enc_s(o2, rreg(in), base, 2, 0x23) : enc_i(o2, base, 2, r2, 0x03);
            }
            break;
        }
        }
    }
    while (n < end)
        w[n++] = LI(0, 0); /* nop */
    for (uint32_t k = 0; k + 1 < sizeof wr_regs; k++)
        w[n++] = enc_s((int32_t)(0x380 + 4 * k), wr_regs[k], S0, 2, 0x23);
    w[n++] = enc_r(1, 0, 0, 5, T0, 0x0b);   /* addc t0, x0, x0: t0 = carry */
    w[n++] = enc_s(0x3fc, T0, S0, 2, 0x23); /* sw t0, 0x3fc(s0) */
    w[n++] = LI(A7, 0);                     /* EXIT */
    w[n++] = 0x73;
    return n; /* MAXI */
}

/* ------------------------------------------------- a minimal DPU ELF */
static size_t add_str(char *tab, size_t *len, const char *s)
{
    size_t at = *len;
    memcpy(tab + at, s, strlen(s) + 1);
    *len += strlen(s) + 1;
    return at;
}

static size_t make_elf(uint8_t *out, const uint32_t *words, uint32_t n, unsigned nr)
{
    char str[1024], shstr[64];
    size_t sl = 0, shl = 0;
    Elf32_Sym syms[2 + 2 * 12];
    unsigned ns = 0;
    memset(syms, 0, sizeof syms);
    str[sl++] = 0;
    shstr[shl++] = 0;
    ns++; /* the null symbol */
    syms[ns].st_name = (Elf32_Word)add_str(str, &sl, "__sys_nr_tasklets");
    syms[ns].st_value = nr;
    syms[ns].st_shndx = SHN_ABS;
    syms[ns++].st_info = ELF32_ST_INFO(STB_GLOBAL, STT_NOTYPE);
    for (unsigned k = 0; k < nr; k++) {
        char nm[32];
        for (int hi = 0; hi < 2; hi++) {
            snprintf(nm, sizeof nm, "__sys_stack_%s_%u", hi ? "hi" : "lo", k);
            syms[ns].st_name = (Elf32_Word)add_str(str, &sl, nm);
            syms[ns].st_value = STK_BASE + 0x400u * (k + (unsigned)hi);
            syms[ns].st_shndx = SHN_ABS;
            syms[ns++].st_info = ELF32_ST_INFO(STB_GLOBAL, STT_NOTYPE);
        }
    }
    size_t n_text = add_str(shstr, &shl, ".text"), n_sym = add_str(shstr, &shl, ".symtab");
    size_t n_str = add_str(shstr, &shl, ".strtab"), n_sh = add_str(shstr, &shl, ".shstrtab");
    size_t o_text = sizeof(Elf32_Ehdr), o_sym = o_text + 4 * n;
    size_t o_str = o_sym + ns * sizeof(Elf32_Sym), o_shs = o_str + sl;
    size_t o_sh = (o_shs + shl + 3) & ~(size_t)3;
    Elf32_Ehdr eh;
    memset(&eh, 0, sizeof eh);
    memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS32;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_ident[EI_VERSION] = EV_CURRENT;
    eh.e_type = ET_EXEC;
    eh.e_machine = EM_RISCV;
    eh.e_version = EV_CURRENT;
    eh.e_entry = VDPU_IRAM_BASE;
    eh.e_shoff = (Elf32_Off)o_sh;
    eh.e_ehsize = sizeof eh;
    eh.e_shentsize = sizeof(Elf32_Shdr);
    eh.e_shnum = 5;
    eh.e_shstrndx = 4;
    Elf32_Shdr sh[5];
    memset(sh, 0, sizeof sh);
    sh[1] = (Elf32_Shdr){(Elf32_Word)n_text,
                         SHT_PROGBITS,
                         SHF_ALLOC | SHF_EXECINSTR,
                         VDPU_IRAM_BASE,
                         (Elf32_Off)o_text,
                         4 * n,
                         0,
                         0,
                         4,
                         0};
    sh[2] = (Elf32_Shdr){(Elf32_Word)n_sym,
                         SHT_SYMTAB,
                         0,
                         0,
                         (Elf32_Off)o_sym,
                         (Elf32_Word)(ns * sizeof(Elf32_Sym)),
                         3,
                         1,
                         4,
                         sizeof(Elf32_Sym)};
    sh[3] = (Elf32_Shdr){(Elf32_Word)n_str, SHT_STRTAB, 0, 0, (Elf32_Off)o_str,
                         (Elf32_Word)sl,    0,          0, 1, 0};
    sh[4] = (Elf32_Shdr){(Elf32_Word)n_sh, SHT_STRTAB, 0, 0, (Elf32_Off)o_shs,
                         (Elf32_Word)shl,  0,          0, 1, 0};
    memcpy(out, &eh, sizeof eh);
    memcpy(out + o_text, words, 4 * n);
    memcpy(out + o_sym, syms, ns * sizeof(Elf32_Sym));
    memcpy(out + o_str, str, sl);
    memcpy(out + o_shs, shstr, shl);
    memset(out + o_shs + shl, 0, o_sh - (o_shs + shl));
    memcpy(out + o_sh, sh, sizeof sh);
    return o_sh + sizeof sh;
}

/* ---------------------------------------------------------- the check */
static vdpu_t *dpu[2]; /* translated, interpreted */

static void differ(const char *what)
{
    fprintf(stderr, "fuzz_jit: the translation changed %s\n", what);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint32_t words[MAXI];
    static uint8_t elf[MAXI * 4 + 4096];
    static uint8_t m0[VDPU_WRAM_SIZE], m1[VDPU_WRAM_SIZE];
    static const uint32_t quanta[] = {1, 2, 3, 7, 64, 4096};
    in_t in = {data, size, 0};
    uint32_t cfg = byte(&in);
    static const unsigned nrs[] = {1, 2, 4, 12}; /* 12: the revolver's ring full */
    unsigned nr = nrs[cfg % 4];
    uint32_t n = gen(&in, words);
    size_t len = make_elf(elf, words, n, nr);
    vdpu_program_t *p = NULL;
    char msg[256];
    if (vdpu_program_load_mem(elf, len, &p, msg, sizeof msg) != VDPU_OK) {
        fprintf(stderr, "fuzz_jit: the generated program does not load: %s\n", msg);
        abort();
    }
    vdpu_result_t r[2];
    for (int k = 0; k < 2; k++) {
        vdpu_params_t prm;
        vdpu_params_default(&prm);
        /* timed now and then: the run-ahead's translation, against the
         * interpreter without the steady-state skipping either */
        prm.mode = (cfg >> 6) & 1 ? VDPU_MODE_TIMED : VDPU_MODE_FAST;
        prm.skip_steady = k == 0;
        prm.fast_quantum = quanta[(cfg >> 2) % 6];
        prm.isa_fusion = (cfg >> 5) & 1;
        prm.max_instructions = 200000;
        prm.dma_rules = VDPU_RULES_QUIET;
        prm.jit = k == 0;
        if (!dpu[k] && vdpu_create(&prm, &dpu[k]) != VDPU_OK)
            abort();
        /* load first: the DPU still points at the previous input's program,
         * freed, which vdpu_set_params would read (CLOCKS_PER_SEC) */
        if (vdpu_load(dpu[k], p) != VDPU_OK || vdpu_set_params(dpu[k], &prm) != VDPU_OK)
            abort();
        memset(m0, 0, sizeof m0);
        vdpu_wram_write(dpu[k], 0, m0, VDPU_WRAM_SIZE);
        vdpu_mram_write(dpu[k], 0, m0, MWIN);
        if (vdpu_run(dpu[k], &r[k]) != VDPU_OK)
            abort();
    }
    r[0].jit_entries = r[1].jit_entries = 0;
    r[0].steady_heads = r[1].steady_heads = 0;
    r[0].window_heads = r[1].window_heads = r[0].window_undone = r[1].window_undone = 0;
    memset(r[0].notes, 0, sizeof r[0].notes);
    memset(r[1].notes, 0, sizeof r[1].notes);
    if (memcmp(&r[0], &r[1], sizeof r[0]))
        differ("the result");
    vdpu_wram_read(dpu[0], 0, m0, VDPU_WRAM_SIZE);
    vdpu_wram_read(dpu[1], 0, m1, VDPU_WRAM_SIZE);
    if (memcmp(m0, m1, VDPU_WRAM_SIZE))
        differ("WRAM");
    vdpu_mram_read(dpu[0], 0, m0, MWIN);
    vdpu_mram_read(dpu[1], 0, m1, MWIN);
    if (memcmp(m0, m1, MWIN))
        differ("MRAM");
    vdpu_program_free(p);
    return 0;
}
