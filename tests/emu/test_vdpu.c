/* test_vdpu.c -- tests of the virtual DPU core (emu/vdpu) and its toolchain
 * (emu/bin/dpu-upmem-dpurte-clang). Run from the repository root; arguments
 * select groups by name prefix.  On the harness of tests/test.h: each
 * test_*() below is a group that builds its DPU program once and reports a
 * known number of verdicts (main() registers each with that number), so a
 * verdict a group forgets, or skips by returning early, is a failure. */
#define _POSIX_C_SOURCE 200809L
#include <elf.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jit.h"
#include "progs/dpu_isa.h"
#include "progs/isa_ops.h"
#include "test.h"
#include "vdpu.h"
#include "x64.h"

#define OUTDIR "build/tests/emu/elf"
#define CC     "sh emu/bin/dpu-upmem-dpurte-clang"

/* The verdicts of a group (test.h). */
#define pass test_pass
#define fail test_failf

static char last_log[4096];

/* Build tests/emu/progs/<src> with flags into OUTDIR/<out>.elf; returns 0 on success,
 * compiler output in last_log. */
static int build(const char *out, const char *src, const char *flags, char *path, size_t plen)
{
    char cmd[1024], logp[512];
    snprintf(path, plen, OUTDIR "/%s.elf", out);
    snprintf(logp, sizeof logp, OUTDIR "/%s.log", out);
    snprintf(cmd, sizeof cmd, "%s -O2 %s -o %s tests/emu/progs/%s >%s 2>&1", CC, flags, path, src,
             logp);
    int rc = system(cmd);
    last_log[0] = 0;
    FILE *f = fopen(logp, "r");
    if (f) {
        size_t n = fread(last_log, 1, sizeof last_log - 1, f);
        last_log[n] = 0;
        fclose(f);
    }
    return rc;
}

typedef struct {
    vdpu_program_t *p;
    vdpu_t *d;
} ctx_t;

static int open_prog(const char *name, const char *path, vdpu_mode_t mode, ctx_t *c)
{
    char msg[256];
    vdpu_err_t e = vdpu_program_load_file(path, &c->p, msg, sizeof msg);
    if (e) {
        fail(name, "load %s: %s (%s)", path, vdpu_strerror(e), msg);
        return -1;
    }
    vdpu_params_t prm;
    vdpu_params_default(&prm);
    prm.mode = mode;
    prm.max_instructions = 2000000000ull;
    if (vdpu_create(&prm, &c->d) || vdpu_load(c->d, c->p)) {
        fail(name, "cannot create/load DPU");
        vdpu_program_free(c->p);
        return -1;
    }
    return 0;
}

static void close_prog(ctx_t *c)
{
    vdpu_free(c->d);
    vdpu_program_free(c->p);
}

static int sym_rw(ctx_t *c, const char *sym, uint32_t off, void *buf, size_t n, int write)
{
    vdpu_symbol_t s;
    if (vdpu_program_symbol(c->p, sym, &s))
        return -1;
    if (off + n > s.size)
        return -1;
    if (s.mem == VDPU_MEM_WRAM)
        return write ? vdpu_wram_write(c->d, s.offset + off, buf, n)
                     : vdpu_wram_read(c->d, s.offset + off, buf, n);
    if (s.mem == VDPU_MEM_MRAM)
        return write ? vdpu_mram_write(c->d, s.offset + off, buf, n)
                     : vdpu_mram_read(c->d, s.offset + off, buf, n);
    return -1;
}
static int rd(ctx_t *c, const char *sym, void *buf, size_t n)
{
    return sym_rw(c, sym, 0, buf, n, 0);
}
static int wr(ctx_t *c, const char *sym, const void *buf, size_t n)
{
    return sym_rw(c, sym, 0, (void *)buf, n, 1);
}
static uint32_t rd32(ctx_t *c, const char *sym)
{
    uint32_t v = 0xdeadbeef;
    rd(c, sym, &v, 4);
    return v;
}
static void wr32(ctx_t *c, const char *sym, uint32_t v)
{
    wr(c, sym, &v, 4);
}

/* ------------------------------- steady-state skipping and translation check
 *
 * Every timed run of these tests through run() is run twice: as asked
 * (params.skip_steady = 1, the default: run.c skips the pending slots of a
 * steady round robin; params.jit = 1, the default: the run-ahead runs
 * translated to host code) and on a second DPU with both off, started from
 * the same WRAM and MRAM; every fast run likewise with the translation
 * (jit = 1) and interpreted (jit = 0). The two must agree in every result field and every byte of
 * WRAM and MRAM: the skipping and the translation are shortcuts of the interpreter and may not
 * change anything the DPU does, nor any modeled cycle or count. */
#define MCHUNK 65536u
static long long skip_runs, skip_steady_heads; /* for the skip_identical group */
static long long jit_runs, jit_entries;        /* for the jit_identical group */

static int nonzero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return 1;
    return 0;
}

/* 0 when c->d and ref hold the same WRAM and MRAM, else why. copy: make ref
 * equal to c->d first (MRAM in chunks, skipping those zero in both: the
 * programs touch a few of its 64 MiB). */
static int same_memory(ctx_t *c, vdpu_t *ref, int copy, char *why, size_t wn)
{
    static uint8_t a[MCHUNK], b[MCHUNK];
    for (uint32_t off = 0; off < VDPU_MRAM_SIZE + VDPU_WRAM_SIZE; off += MCHUNK) {
        /* MRAM's first 16 MiB and last 1 MiB: where these programs write
         * (reading all 64 MiB of both DPUs maps every page: most of the
         * test's time went there) */
        if (off == 16u << 20)
            off = VDPU_MRAM_SIZE - (1u << 20);
        int wram = off >= VDPU_MRAM_SIZE;
        uint32_t o = wram ? off - VDPU_MRAM_SIZE : off;
        uint32_t n = wram && VDPU_WRAM_SIZE - o < MCHUNK ? VDPU_WRAM_SIZE - o : MCHUNK;
        if (wram ? vdpu_wram_read(c->d, o, a, n) || vdpu_wram_read(ref, o, b, n)
                 : vdpu_mram_read(c->d, o, a, n) || vdpu_mram_read(ref, o, b, n)) {
            snprintf(why, wn, "cannot read %s at %u", wram ? "WRAM" : "MRAM", o);
            return -1;
        }
        if (!memcmp(a, b, n) || (!wram && !nonzero(a, n) && !nonzero(b, n)))
            continue;
        if (!copy) {
            uint32_t i = 0;
            while (a[i] == b[i])
                i++;
            snprintf(why, wn, "%s byte %u: %u with, %u without", wram ? "WRAM" : "MRAM", o + i,
                     a[i], b[i]);
            return -1;
        }
        if (wram ? vdpu_wram_write(ref, o, a, n) : vdpu_mram_write(ref, o, a, n)) {
            snprintf(why, wn, "cannot write the reference's %s", wram ? "WRAM" : "MRAM");
            return -1;
        }
    }
    return 0;
}

/* vdpu_run, and for a timed run with skipping the check above. -1 with a
 * failed verdict when the run could not happen or the two differ. */
static int run(const char *name, ctx_t *c, vdpu_result_t *r)
{
    const vdpu_params_t *prm = vdpu_get_params(c->d);
    const int timed = prm->mode == VDPU_MODE_TIMED;
    /* what the reference turns off */
    const char *what = timed ? "skipping or translation" : "translation";
    vdpu_t *ref = NULL;
    char why[300];
    if (prm->jit || (timed && prm->skip_steady)) {
        vdpu_params_t p2 = *prm;
        p2.skip_steady = 0;
        p2.jit = 0;
        if (vdpu_create(&p2, &ref) || vdpu_load(ref, c->p) ||
            same_memory(c, ref, 1, why, sizeof why)) {
            fail(name, "%s check: cannot set up the reference DPU", what);
            vdpu_free(ref);
            return -1;
        }
    }
    vdpu_err_t e = vdpu_run(c->d, r);
    if (e) {
        fail(name, "vdpu_run: %s", vdpu_strerror(e));
        vdpu_free(ref);
        return -1;
    }
    if (!ref)
        return 0;
    vdpu_result_t r2, r1 = *r;
    int rc = -1;
    if (vdpu_run(ref, &r2)) {
        fail(name, "%s check: the reference run failed", what);
    } else {
        skip_steady_heads += r1.steady_heads;
        jit_entries += r1.jit_entries;
        r1.steady_heads = r2.steady_heads = 0;
        r1.window_heads = r2.window_heads = r1.window_undone = r2.window_undone = 0;
        r1.jit_entries = r2.jit_entries = 0;
        /* noted once per program: the reference run, second, notes nothing */
        memset(r1.notes, 0, sizeof r1.notes);
        memset(r2.notes, 0, sizeof r2.notes);
        if (memcmp(&r1, &r2, sizeof r1))
            fail(name,
                 "%s changed the result: cycles %llu/%llu idle %llu/%llu instructions "
                 "%llu/%llu slots %llu/%llu status %d/%d fault %d/%d at %u/%u (with/without)",
                 what, (unsigned long long)r1.cycles, (unsigned long long)r2.cycles,
                 (unsigned long long)r1.idle_cycles, (unsigned long long)r2.idle_cycles,
                 (unsigned long long)r1.instructions, (unsigned long long)r2.instructions,
                 (unsigned long long)r1.slots, (unsigned long long)r2.slots, r1.status, r2.status,
                 r1.fault_code, r2.fault_code, r1.fault_pc, r2.fault_pc);
        else if (same_memory(c, ref, 0, why, sizeof why))
            fail(name, "%s changed memory: %s", what, why);
        else
            rc = 0;
    }
    if (timed)
        skip_runs++;
    if (prm->jit)
        jit_runs++;
    vdpu_free(ref);
    return rc;
}

static int run_ok(const char *name, ctx_t *c, vdpu_result_t *r)
{
    if (run(name, c, r))
        return -1;
    if (r->status != VDPU_STATUS_DONE) {
        fail(name, "DPU fault: %s (tasklet %d, %s)", r->fault_msg, r->fault_tasklet, r->fault_func);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ ISA */
static const uint32_t isa_inputs[ISA_NIN] = {
    0x00000000u, 0x00000001u, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x12345678u,
    0xdeadbeefu, 0x0000ff80u, 0x00008000u, 0xfffe0001u, 0x00000007u, 0xfffffff9u,
    0x55aa33ccu, 0x00010000u, 0x9e3779b9u, 0x00000003u,
};

static uint32_t ref_rotr(uint32_t x, unsigned n)
{
    n &= 31;
    return (x >> n) | (x << ((32 - n) & 31));
}
static uint32_t ref_orcb(uint32_t a)
{
    uint32_t r = 0;
    for (int i = 0; i < 4; i++)
        if ((a >> (8 * i)) & 0xff)
            r |= 0xffu << (8 * i);
    return r;
}

static void test_isa(const char *opt)
{
    char name[64], path[256], flags[64];
    snprintf(name, sizeof name, "isa_semantics%s", opt[0] ? "_O0" : "");
    snprintf(flags, sizeof flags, "%s", opt);
    char outn[32];
    snprintf(outn, sizeof outn, "isa%s", opt[0] ? "_O0" : "");
    if (build(outn, "isa.c", flags, path, sizeof path)) {
        fail(name, "build failed: %.300s", last_log);
        return;
    }
    uint32_t in[ISA_NIN];
    memcpy(in, isa_inputs, sizeof in);
    static uint32_t expect[ISA_NOUT];
    uint32_t nexp = isa_ops(in, expect);
    uint32_t a = in[0], b = in[1];
    (void)a;
    (void)b;
    for (int mode = 0; mode < 2; mode++) {
        char nm[80];
        snprintf(nm, sizeof nm, "%s_%s", name, mode ? "fast" : "timed");
        ctx_t c;
        if (open_prog(nm, path, mode ? VDPU_MODE_FAST : VDPU_MODE_TIMED, &c))
            continue;
        wr(&c, "in", in, sizeof in);
        vdpu_result_t r;
        if (run_ok(nm, &c, &r) == 0) {
            static uint32_t got[ISA_NOUT];
            rd(&c, "out", got, sizeof got);
            uint32_t n = rd32(&c, "nout");
            if (n != nexp)
                fail(nm, "DPU produced %u results, host %u", n, nexp);
            else {
                uint32_t bad = 0;
                for (uint32_t i = 0; i < n; i++)
                    if (got[i] != expect[i]) {
                        bad = i + 1;
                        break;
                    }
                if (bad)
                    fail(nm, "result %u differs: DPU 0x%08x host 0x%08x", bad - 1, got[bad - 1],
                         expect[bad - 1]);
                else
                    pass(nm);
            }
            /* explicit Zba/Zbb/M encodings vs reference */
            uint32_t ao[32];
            rd(&c, "asm_out", ao, sizeof ao);
            uint32_t x = in[0], y = in[1];
            uint32_t ref[] = {
                x & ~y,
                x | ~y,
                ~(x ^ y),
                (int32_t)x < (int32_t)y ? x : y,
                (int32_t)x > (int32_t)y ? x : y,
                x < y ? x : y,
                x > y ? x : y,
                ref_rotr(x, 32 - (y & 31)),
                ref_rotr(x, y),
                (x << 1) + y,
                (x << 2) + y,
                (x << 3) + y,
                x ? (uint32_t)__builtin_clz(x) : 32,
                x ? (uint32_t)__builtin_ctz(x) : 32,
                (uint32_t)__builtin_popcount(x),
                (uint32_t)(int32_t)(int8_t)x,
                (uint32_t)(int32_t)(int16_t)x,
                x & 0xffff,
                ref_orcb(x),
                __builtin_bswap32(x),
                ref_rotr(x, 7),
                0x80000000u,
                0u,
                0u /* mulh(INT_MIN,-1) high = 0 */,
                0xffffffffu /* mulhsu(-1, 0xffffffff) */,
                0xfffffffeu /* mulhu */,
            };
            char an[96];
            snprintf(an, sizeof an, "isa_explicit_encodings%s_%s", opt[0] ? "_O0" : "",
                     mode ? "fast" : "timed");
            int badk = -1;
            for (unsigned k = 0; k < sizeof ref / sizeof ref[0]; k++)
                if (ao[k] != ref[k]) {
                    badk = (int)k;
                    break;
                }
            if (badk >= 0)
                fail(an, "case %d: DPU 0x%08x expected 0x%08x", badk, ao[badk], ref[badk]);
            else
                pass(an);
        }
        close_prog(&c);
    }
}

/* --------------------------------------------------------------- faults */
typedef struct {
    int n;
    const char *name, *flags;
    int code;
    const char *substr, *func;
    int tasklet;
} fault_case_t;

static void test_faults(void)
{
    static const fault_case_t cases[] = {
        {1, "fault_dma_size_not_multiple_of_8", "", VDPU_FAULT_DMA_SIZE,
         "must be 8..2048 and a multiple of 8", "main", 0},
        {2, "fault_dma_size_too_big", "", VDPU_FAULT_DMA_SIZE, "DMA size 12288 bytes", "main", 0},
        {3, "fault_dma_wram_unaligned", "", VDPU_FAULT_DMA_ALIGN, "WRAM address", "main", 0},
        {4, "fault_dma_mram_unaligned", "", VDPU_FAULT_DMA_ALIGN, "MRAM address", "main", 0},
        {5, "fault_access_outside_wram_mram", "", VDPU_FAULT_BAD_ACCESS, "outside WRAM/MRAM",
         "main", 0},
        {6, "fault_store_into_iram", "", VDPU_FAULT_IRAM_STORE, "store into IRAM", "main", 0},
        {7, "fault_stack_overflow", "-DSTACK_SIZE_DEFAULT=512", VDPU_FAULT_STACK_OVERFLOW,
         "stack overflow: tasklet 0", "recurse", 0},
        {8, "fault_heap_full_via_runtime", "", VDPU_FAULT_HEAP_FULL, "heap full", "main", 0},
        {9, "fault_barrier_deadlock", "-DNR_TASKLETS=2", VDPU_FAULT_ALL_STOPPED,
         "every live tasklet stopped and none can resume them: tasklets 0 (stopRules=strict",
         "barrier_wait", 0},
        {10, "fault_illegal_instruction", "", VDPU_FAULT_ILLEGAL_INSN,
         "illegal instruction 0x0000007b", "main", 0},
        {11, "fault_halt", "", VDPU_FAULT_HALT, "halt() called", "main", 0},
        {12, "fault_assert", "", VDPU_FAULT_ASSERT, "assertion failed: vzero == 1 (", "main", 0},
        {13, "fault_division_by_zero", "", VDPU_FAULT_DIV_ZERO, "division by zero", "__vdpu_udiv32",
         0},
        {14, "fault_misaligned_load", "", VDPU_FAULT_MISALIGNED, "misaligned access: 4-byte load",
         "main", 0},
        {15, "fault_dma_past_mram_end", "", VDPU_FAULT_DMA_RANGE, "run past the end", "main", 0},
        {16, "fault_mutex_deadlock", "-DNR_TASKLETS=3", VDPU_FAULT_DEADLOCK,
         "2:acquire of atomic bit 200 (set by ", "main", -2},
        {18, "fault_resume_exited_tasklet", "-DNR_TASKLETS=2", VDPU_FAULT_BAD_ECALL,
         "resume(1): that tasklet has exited", "main", 0},
        {19, "fault_vmutex_deadlock", "-DNR_TASKLETS=3", VDPU_FAULT_DEADLOCK, "vmutex wait on WRAM",
         "main", -2},
        {20, "fault_all_stopped", "-DNR_TASKLETS=4", VDPU_FAULT_ALL_STOPPED, "tasklets 0,1,2,3",
         "main", 0},
        {21, "fault_resume_self", "-DNR_TASKLETS=2", VDPU_FAULT_DEADLOCK,
         "(1:resume of running tasklet 1 in main)", "main", 1},
        {22, "fault_atomic_bit_is_not_memory", "", VDPU_FAULT_BAD_ACCESS,
         "1-byte load at 0xf00000c8", "main", 0},
        {23, "fault_handshake_no_such_tasklet", "-DNR_TASKLETS=2", VDPU_FAULT_BAD_ECALL,
         "handshake_wait_for: no such tasklet", "handshake_wait_for", -2},
        {7, "fault_stack_overflow_tasklet3", "-DNR_TASKLETS=4 -DSTACK_SIZE_TASKLET_3=256",
         VDPU_FAULT_STACK_OVERFLOW, "stack overflow: tasklet", "recurse", -2},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const fault_case_t *fc = &cases[i];
        char flags[256], path[256];
        snprintf(flags, sizeof flags, "-DFAULT=%d %s", fc->n, fc->flags);
        if (build(fc->name, "faults.c", flags, path, sizeof path)) {
            fail(fc->name, "build failed: %.300s", last_log);
            continue;
        }
        for (int mode = 0; mode < 2; mode++) {
            char nm[128];
            snprintf(nm, sizeof nm, "%s_%s", fc->name, mode ? "fast" : "timed");
            ctx_t c;
            if (open_prog(nm, path, mode ? VDPU_MODE_FAST : VDPU_MODE_TIMED, &c))
                continue;
            /* the rules the hardware answers with something defined fault
             * only when asked (test_hardware_rules checks the default) */
            vdpu_params_t prm = *vdpu_get_params(c.d);
            prm.dma_rules = prm.stop_rules = VDPU_RULES_STRICT;
            vdpu_set_params(c.d, &prm);
            vdpu_result_t r;
            if (run(nm, &c, &r)) {
                close_prog(&c);
                continue;
            }
            if (r.status != VDPU_STATUS_FAULT)
                fail(nm, "no fault");
            else if (r.fault_code != fc->code)
                fail(nm, "fault code %d (%s), expected %d: %s", r.fault_code,
                     vdpu_fault_name(r.fault_code), fc->code, r.fault_msg);
            else if (!strstr(r.fault_msg, fc->substr))
                fail(nm, "message '%s' lacks '%s'", r.fault_msg, fc->substr);
            else if (strcmp(r.fault_func, fc->func) != 0)
                fail(nm, "function '%s', expected '%s' (%s)", r.fault_func, fc->func, r.fault_msg);
            else if (fc->tasklet >= 0 && r.fault_tasklet != fc->tasklet)
                fail(nm, "tasklet %d, expected %d", r.fault_tasklet, fc->tasklet);
            else if (fc->n == 7 && fc->tasklet == -2 && r.fault_tasklet != 3)
                fail(nm, "stack overflow in tasklet %d, expected 3 (the one with a 256-byte stack)",
                     r.fault_tasklet);
            else if (r.fault_pc < VDPU_IRAM_BASE)
                fail(nm, "fault pc 0x%x not in IRAM", r.fault_pc);
            else
                pass(nm);
            close_prog(&c);
        }
    }
}

/* The instruction watchdog (max_instructions) stops a runaway program with a
 * fault that names the looping code (tasklet, pc, function), in both modes
 * and with several tasklets, not the entry point 0x80000000. */
static void test_watchdog(void)
{
    char path[256];
    if (build("fault_watchdog", "faults.c", "-DFAULT=17 -DNR_TASKLETS=3", path, sizeof path)) {
        fail("fault_watchdog_names_looping_code", "build failed: %.300s", last_log);
        return;
    }
    for (int mode = 0; mode < 2; mode++) {
        char nm[128];
        snprintf(nm, sizeof nm, "fault_watchdog_names_looping_code_%s", mode ? "fast" : "timed");
        ctx_t c;
        if (open_prog(nm, path, mode ? VDPU_MODE_FAST : VDPU_MODE_TIMED, &c))
            continue;
        vdpu_params_t prm = *vdpu_get_params(c.d);
        prm.max_instructions = 200000;
        vdpu_set_params(c.d, &prm);
        vdpu_symbol_t spin;
        vdpu_result_t r;
        if (run(nm, &c, &r)) {
            close_prog(&c);
            continue;
        }
        if (vdpu_program_symbol(c.p, "spin", &spin))
            fail(nm, "no symbol spin");
        else if (r.status != VDPU_STATUS_FAULT || r.fault_code != VDPU_FAULT_INSN_LIMIT)
            fail(nm, "expected the watchdog fault, got status %d code %d (%s)", (int)r.status,
                 r.fault_code, r.fault_msg);
        else if (!strstr(r.fault_msg, "instruction limit of 200000"))
            fail(nm, "message '%s' lacks the limit", r.fault_msg);
        else if (r.fault_pc < spin.addr || r.fault_pc - spin.addr >= spin.size)
            fail(nm, "fault pc 0x%x is not in spin() [0x%x, +%u) (function '%s')", r.fault_pc,
                 spin.addr, spin.size, r.fault_func);
        else if (strcmp(r.fault_func, "spin") != 0)
            fail(nm, "function '%s', expected 'spin'", r.fault_func);
        else if (r.fault_tasklet < 0 || r.fault_tasklet >= 3)
            fail(nm, "tasklet %d, expected 0..2", r.fault_tasklet);
        else
            pass(nm);
        close_prog(&c);
    }
}

/* ------------------------------------------------ DMA rules: hardware */
/* params.dma_rules = VDPU_RULES_QUIET (and WARN, the default): rule-breaking
 * DMAs behave like ldma/sdma (addresses aligned down, size (n/8 - 1) &
 * 0xff); VDPU_RULES_STRICT faults. */
static void test_dma_rules(void)
{
    char path[256];
    if (build("dma_rules", "../host/dpu/dma_rules.c", "-DNR_TASKLETS=2", path, sizeof path)) {
        fail("dma_rules_hardware", "build failed: %.300s", last_log);
        return;
    }
    const uint64_t pat = 0xa5a5a5a5a5a5a5a5ull, sentinel = 0x5e5e5e5e5e5e5e5eull;
    uint64_t src[8];
    for (int i = 0; i < 8; i++)
        src[i] = 0x1111111111111111ull * (uint64_t)(i + 1);
    for (int mode = 0; mode < 2; mode++) {
        for (int hw = 0; hw < 2; hw++) {
            char nm[96];
            snprintf(nm, sizeof nm, "dma_rules_%s_%s", hw ? "hardware" : "strict",
                     mode ? "fast" : "timed");
            ctx_t c;
            if (open_prog(nm, path, mode ? VDPU_MODE_FAST : VDPU_MODE_TIMED, &c))
                continue;
            vdpu_params_t prm = *vdpu_get_params(c.d);
            prm.dma_rules = hw ? VDPU_RULES_QUIET : VDPU_RULES_STRICT;
            vdpu_set_params(c.d, &prm);
            wr(&c, "msrc", src, sizeof src);
            sym_rw(&c, "mdst", 256 * 8, (void *)&sentinel, 8, 1);
            vdpu_result_t r;
            if (run(nm, &c, &r)) {
                close_prog(&c);
                continue;
            }
            if (!hw) {
                if (r.status != VDPU_STATUS_FAULT || r.fault_code != VDPU_FAULT_DMA_ALIGN ||
                    !strstr(r.fault_msg, "MRAM address"))
                    fail(nm, "expected the MRAM alignment fault, got status %d: %s", r.status,
                         r.fault_msg);
                else
                    pass(nm);
                close_prog(&c);
                continue;
            }
            uint64_t res[8], got[257];
            rd(&c, "res", res, sizeof res);
            sym_rw(&c, "mdst", 0, got, sizeof got, 0);
            int ok256 = got[256] == sentinel;
            for (uint64_t i = 0; i < 256; i++)
                ok256 = ok256 && got[i] == i;
            if (r.status != VDPU_STATUS_DONE)
                fail(nm, "fault: %s", r.fault_msg);
            else if (res[0] != src[0] || res[1] != src[1])
                fail(nm, "MRAM address 4 mod 8 not aligned down");
            else if (res[2] != src[0] || res[3] != src[1] || res[4] != 0)
                fail(nm, "WRAM address 4 mod 8 not aligned down");
            else if (res[5] != src[0] || res[6] != pat || res[7] != pat)
                fail(nm, "12- or 2056-byte DMA did not move 8 bytes");
            else if (!ok256)
                fail(nm, "0-byte DMA did not move 2048 bytes");
            else
                pass(nm);
            close_prog(&c);
        }
    }
}

/* ----------------------------------------- watchdog by default: cycles */
/* A DPU that loops forever: on the hardware the launch never ends; here a
 * default cycle budget (maxCycles, params.max_cycles) ends it with a fault
 * that says where every tasklet is, its source line included when the
 * program has debug information. The default itself is checked too. */
static void test_cycle_watchdog(void)
{
    vdpu_params_t def;
    vdpu_params_default(&def);
    if (def.max_cycles != (uint64_t)1 << 36 || def.max_instructions != 0)
        fail("watchdog_default_budget", "default max_cycles %llu (expected 2^36), max_insns %llu",
             (unsigned long long)def.max_cycles, (unsigned long long)def.max_instructions);
    else
        pass("watchdog_default_budget");
    char path[256];
    if (build("fault_watchdog_g", "faults.c", "-g -DFAULT=17 -DNR_TASKLETS=3", path, sizeof path)) {
        fail("watchdog_cycles_names_lines", "build failed: %.300s", last_log);
        return;
    }
    for (int mode = 0; mode < 2; mode++) {
        char nm[128];
        snprintf(nm, sizeof nm, "watchdog_cycles_names_lines_%s", mode ? "fast" : "timed");
        ctx_t c;
        if (open_prog(nm, path, mode ? VDPU_MODE_FAST : VDPU_MODE_TIMED, &c))
            continue;
        vdpu_params_t prm = *vdpu_get_params(c.d);
        prm.max_instructions = 0; /* the default: only the cycle budget */
        prm.max_cycles = 300000;
        vdpu_set_params(c.d, &prm);
        vdpu_result_t r;
        if (run(nm, &c, &r)) {
            close_prog(&c);
            continue;
        }
        if (r.status != VDPU_STATUS_FAULT || r.fault_code != VDPU_FAULT_CYCLE_LIMIT)
            fail(nm, "expected the cycle watchdog, got status %d code %d (%s)", (int)r.status,
                 r.fault_code, r.fault_msg);
        else if (!strstr(r.fault_msg, "cycle limit of 300000") || !strstr(r.fault_msg, "maxCycles"))
            fail(nm, "message '%s' lacks the limit or its key", r.fault_msg);
        else if (!strstr(r.detail, "tasklet 0: running, pc 0x") ||
                 !strstr(r.detail, "tasklet 2: running") || !strstr(r.detail, "in spin (") ||
                 !strstr(r.detail, "faults.c:"))
            fail(nm, "tasklet places lack a tasklet, spin() or its source line:\n%s", r.detail);
        else if ((mode ? r.slots : r.cycles) > 300000 + 100000)
            fail(nm, "stopped late: %llu", (unsigned long long)(mode ? r.slots : r.cycles));
        else
            pass(nm);
        close_prog(&c);
    }
}

/* ------------------------------------- hardware behaviour by default */
/* The DMA rules and a run whose tasklets all stop: by default what the
 * hardware does, each place noted once per program (vdpu_result_t.notes),
 * QUIET counts without notes (the strict faults: test_faults). */
static void test_hardware_rules(void)
{
    static const struct {
        int n;
        const char *name, *flags, *note;
    } cases[] = {
        {1, "rules_dma_size", "",
         "DMA size rule (8..2048, a multiple of 8): mram_read of 12 bytes"},
        {3, "rules_dma_wram_align", "", "DMA alignment rule"},
        {4, "rules_dma_mram_align", "", "DMA alignment rule"},
        {9, "rules_barrier_stopped", "-DNR_TASKLETS=2", "tasklets 0 stopped"},
        {20, "rules_all_stopped", "-DNR_TASKLETS=4", "tasklets 0,1,2,3 stopped"},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char flags[128], path[256], nm[128];
        snprintf(flags, sizeof flags, "-g -DFAULT=%d %s", cases[i].n, cases[i].flags);
        if (build(cases[i].name, "faults.c", flags, path, sizeof path)) {
            fail(cases[i].name, "build failed: %.300s", last_log);
            continue;
        }
        for (int quiet = 0; quiet < 2; quiet++) {
            snprintf(nm, sizeof nm, "%s_%s", cases[i].name, quiet ? "quiet" : "warn_once");
            ctx_t c;
            if (open_prog(nm, path, VDPU_MODE_TIMED, &c))
                continue;
            vdpu_params_t prm = *vdpu_get_params(c.d);
            if (quiet)
                prm.dma_rules = prm.stop_rules = VDPU_RULES_QUIET;
            vdpu_set_params(c.d, &prm);
            /* the second run: another DPU running the same program */
            vdpu_result_t r, r2;
            vdpu_t *d2 = NULL;
            if (run(nm, &c, &r) || vdpu_create(&prm, &d2) || vdpu_load(d2, c.p) ||
                vdpu_run(d2, &r2)) {
                fail(nm, "run failed");
                vdpu_free(d2);
                close_prog(&c);
                continue;
            }
            vdpu_free(d2);
            int stop = cases[i].n == 9 || cases[i].n == 20;
            if (r.status != VDPU_STATUS_DONE || r2.status != VDPU_STATUS_DONE)
                fail(nm, "the run faulted: %s / %s", r.fault_msg, r2.fault_msg);
            else if (stop ? !r.stopped_early : r.dma_rule_hits == 0)
                fail(nm, "not counted (hits %llu, stopped %d)", (unsigned long long)r.dma_rule_hits,
                     r.stopped_early);
            else if (quiet && r.notes[0])
                fail(nm, "quiet, yet noted: %s", r.notes);
            else if (!quiet && (!strstr(r.notes, cases[i].note) ||
                                (!strstr(r.notes, ".c:") && !strstr(r.notes, ".h:"))))
                fail(nm, "note lacks '%s' or its source line: %s", cases[i].note, r.notes);
            else if (r2.notes[0])
                fail(nm, "noted again in the second run: %s", r2.notes);
            else
                pass(nm);
            close_prog(&c);
        }
    }
}

/* ------------------------------------------- runtime symbols, always */
/* The host-visible words the SDK's crt0 always defines (CLOCKS_PER_SEC,
 * error_storage) are in every program, readable by name, even when the DPU
 * code never refers to them (persist.c does not). */
static void test_runtime_symbols(void)
{
    const char *nm = "runtime_symbols_always_defined";
    char path[256];
    if (build("rtsyms", "persist.c", "-DNR_TASKLETS=1", path, sizeof path)) {
        fail(nm, "build failed: %.300s", last_log);
        return;
    }
    ctx_t c;
    if (open_prog(nm, path, VDPU_MODE_TIMED, &c))
        return;
    vdpu_symbol_t s1, s2;
    if (vdpu_program_symbol(c.p, "CLOCKS_PER_SEC", &s1) ||
        vdpu_program_symbol(c.p, "error_storage", &s2))
        fail(nm, "CLOCKS_PER_SEC or error_storage missing");
    else if (!s1.host_visible || !s2.host_visible || s1.size != 4 || s1.mem != VDPU_MEM_WRAM)
        fail(nm, "not host-visible 4-byte WRAM words");
    else if (rd32(&c, "CLOCKS_PER_SEC") != 350000000u || rd32(&c, "error_storage") != 0)
        fail(nm, "CLOCKS_PER_SEC %u (expected 350000000 at 350 MHz)", rd32(&c, "CLOCKS_PER_SEC"));
    else
        pass(nm);
    close_prog(&c);
}

/* ---------------------------------------- MRAM variables kept as the SDK */
/* The SDK links with --gc-sections and keeps only the _keep MRAM sections:
 * an unreferenced __mram_noinit variable, and the runtime's printf buffer
 * of a program whose printf is never called, take no MRAM, so the heap
 * pointer (__sys_used_mram_end) stays where a program without them has it
 * and data the host put there is read back. */
static void test_mram_gc(void)
{
    const char *nm = "mram_gc_heap_pointer_as_sdk";
    char path[256];
    if (build("mram_gc", "mram_gc.c", "-DNR_TASKLETS=1", path, sizeof path)) {
        fail(nm, "build failed: %.300s", last_log);
        return;
    }
    ctx_t c;
    if (open_prog(nm, path, VDPU_MODE_TIMED, &c))
        return;
    vdpu_symbol_t end, keep, s;
    const uint64_t data[4] = {10, 20, 30, 40};
    vdpu_result_t r;
    if (vdpu_program_symbol(c.p, "__sys_used_mram_end", &end) ||
        vdpu_program_symbol(c.p, "host_only", &keep))
        fail(nm, "__sys_used_mram_end or the _keep variable host_only missing");
    else if (vdpu_program_symbol(c.p, "unused_noinit", &s) == VDPU_OK)
        fail(nm, "the unreferenced __mram_noinit variable was kept");
    else if (vdpu_program_symbol(c.p, "__stdout_buffer", &s) == VDPU_OK)
        fail(nm, "the printf buffer of a never-called printf was kept (%u bytes)", s.size);
    else if (end.offset > 4096)
        fail(nm, "heap pointer at MRAM offset 0x%x, expected after 160 bytes of variables",
             end.offset);
    else if (vdpu_mram_write(c.d, end.offset, data, sizeof data) || run(nm, &c, &r) ||
             r.status != VDPU_STATUS_DONE)
        fail(nm, "run failed: %s", r.fault_msg);
    else if (rd32(&c, "sum") != 104)
        fail(nm, "sum %u, expected 104 (the host's data at the heap pointer + 4)", rd32(&c, "sum"));
    else
        pass(nm);
    close_prog(&c);
}

/* ---------------------------------------------------- link/loader limits */
static void test_limits(void)
{
    char path[256];
    if (build("lim_tasklets", "persist.c", "-DNR_TASKLETS=25", path, sizeof path) == 0)
        fail("limit_nr_tasklets_25_rejected_at_link", "link succeeded");
    else if (!strstr(last_log, "NR_TASKLETS > 24"))
        fail("limit_nr_tasklets_25_rejected_at_link", "unexpected message: %.300s", last_log);
    else
        pass("limit_nr_tasklets_25_rejected_at_link");

    if (build("lim_wram", "persist.c", "-DNR_TASKLETS=24 -DSTACK_SIZE_DEFAULT=4096", path,
              sizeof path) == 0)
        fail("limit_wram_budget_rejected_at_link", "link succeeded");
    else if (!strstr(last_log, "WRAM"))
        fail("limit_wram_budget_rejected_at_link", "unexpected message: %.300s", last_log);
    else
        pass("limit_wram_budget_rejected_at_link");

    if (build("lim_atomic", "faults.c", "-DFAULT=24", path, sizeof path) == 0)
        fail("limit_atomic_bits_rejected_at_link", "link succeeded");
    else if (!strstr(last_log, "atomic bits exceeded: more than 56"))
        fail("limit_atomic_bits_rejected_at_link", "unexpected message: %.300s", last_log);
    else
        pass("limit_atomic_bits_rejected_at_link");

    if (build("lim_iram", "iram_big.c", "", path, sizeof path) == 0)
        fail("limit_iram_budget_rejected_at_link", "link succeeded");
    else if (!strstr(last_log, "IRAM"))
        fail("limit_iram_budget_rejected_at_link", "unexpected message: %.300s", last_log);
    else
        pass("limit_iram_budget_rejected_at_link");

    if (build("lim_stack_odd", "persist.c", "-DSTACK_SIZE_DEFAULT=1020", path, sizeof path) == 0)
        fail("limit_stack_size_multiple_of_8", "build succeeded");
    else
        pass("limit_stack_size_multiple_of_8");

    /* loader: patch __sys_nr_tasklets to 25 in a valid ELF */
    if (build("lim_loader", "persist.c", "-DNR_TASKLETS=2", path, sizeof path)) {
        fail("limit_loader_rejects_nr_tasklets_25", "build failed: %.300s", last_log);
        return;
    }
    FILE *f = fopen(path, "rb");
    static uint8_t buf[1 << 20];
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        fclose(f);
    Elf32_Ehdr eh;
    memcpy(&eh, buf, sizeof eh);
    int patched = 0;
    for (unsigned i = 0; i < eh.e_shnum && n; i++) {
        Elf32_Shdr sh;
        memcpy(&sh, buf + eh.e_shoff + i * sizeof sh, sizeof sh);
        if (sh.sh_type != SHT_SYMTAB)
            continue;
        Elf32_Shdr st;
        memcpy(&st, buf + eh.e_shoff + sh.sh_link * sizeof st, sizeof st);
        for (uint32_t k = 0; k < sh.sh_size / sizeof(Elf32_Sym); k++) {
            Elf32_Sym s;
            memcpy(&s, buf + sh.sh_offset + k * sizeof s, sizeof s);
            if (strcmp((char *)buf + st.sh_offset + s.st_name, "__sys_nr_tasklets") == 0) {
                s.st_value = 25;
                memcpy(buf + sh.sh_offset + k * sizeof s, &s, sizeof s);
                patched = 1;
            }
        }
    }
    vdpu_program_t *p = NULL;
    char msg[256];
    vdpu_err_t e = vdpu_program_load_mem(buf, n, &p, msg, sizeof msg);
    if (!patched)
        fail("limit_loader_rejects_nr_tasklets_25", "symbol not found to patch");
    else if (e != VDPU_ERR_TASKLETS || p)
        fail("limit_loader_rejects_nr_tasklets_25", "got %s (%s)", vdpu_strerror(e), msg);
    else
        pass("limit_loader_rejects_nr_tasklets_25");
    vdpu_program_free(p);
    e = vdpu_program_load_mem("garbage", 7, &p, msg, sizeof msg);
    if (e != VDPU_ERR_ELF)
        fail("loader_rejects_non_elf", "got %s", vdpu_strerror(e));
    else
        pass("loader_rejects_non_elf");
}

/* ------------------------------------------------ crafted ELFs (loader) */
/* A real DPU ELF with one section header patched: each case made the loader
 * crash (ASan: heap overflow / wild read) before it checked SHT_NOBITS
 * sections. The patched files are written next to the base ELF so that the
 * fuzz corpus (tests/fuzz/corpus/elf/) can be refreshed from them. */
typedef struct {
    const char *test, *section; /* the section whose header is patched */
    uint32_t offset, size;      /* new sh_offset / sh_size (0 = keep)   */
    int bad_data_addr;          /* also move .data outside the memory map, so
                                   that the loader takes an error path that
                                   names a section */
    const char *expect;         /* substring of the loader's message      */
} crafted_case_t;

static int find_section(const uint8_t *buf, size_t n, const char *name, size_t *hdr_off)
{
    Elf32_Ehdr eh;
    if (n < sizeof eh)
        return -1;
    memcpy(&eh, buf, sizeof eh);
    if ((uint64_t)eh.e_shoff + (uint64_t)eh.e_shnum * sizeof(Elf32_Shdr) > n ||
        eh.e_shstrndx >= eh.e_shnum)
        return -1;
    Elf32_Shdr shs;
    memcpy(&shs, buf + eh.e_shoff + eh.e_shstrndx * sizeof shs, sizeof shs);
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        Elf32_Shdr sh;
        memcpy(&sh, buf + eh.e_shoff + i * sizeof sh, sizeof sh);
        if (sh.sh_name < shs.sh_size && shs.sh_offset + shs.sh_size <= n &&
            strcmp((const char *)buf + shs.sh_offset + sh.sh_name, name) == 0) {
            *hdr_off = eh.e_shoff + i * sizeof sh;
            return (int)i;
        }
    }
    return -1;
}

static void test_crafted_elf(void)
{
    static const crafted_case_t cases[] = {
        {"loader_rejects_nobits_strtab_size_4g", ".strtab", 0, 0xffffffffu, 0,
         "string table of the symbol table (section"},
        {"loader_rejects_nobits_text", ".text", 0xfffffff0u, 0, 0,
         "code section .text is SHT_NOBITS"},
        {"loader_rejects_nobits_shstrtab", ".shstrtab", 0xfffffff0u, 0, 1,
         "section name table (section"},
    };
    char path[256];
    if (build("crafted_base", "persist.c", "-DNR_TASKLETS=2", path, sizeof path)) {
        fail("loader_rejects_nobits_strtab_size_4g", "build failed: %.300s", last_log);
        return;
    }
    static uint8_t orig[1 << 20], buf[1 << 20];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(orig, 1, sizeof orig, f) : 0;
    if (f)
        fclose(f);
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const crafted_case_t *cc = &cases[i];
        memcpy(buf, orig, n);
        size_t off, doff;
        if (find_section(buf, n, cc->section, &off) < 0 ||
            (cc->bad_data_addr && find_section(buf, n, ".data", &doff) < 0)) {
            fail(cc->test, "%s: section %s not found", path, cc->section);
            continue;
        }
        Elf32_Shdr sh;
        memcpy(&sh, buf + off, sizeof sh);
        sh.sh_type = SHT_NOBITS;
        if (cc->offset)
            sh.sh_offset = cc->offset;
        if (cc->size)
            sh.sh_size = cc->size;
        memcpy(buf + off, &sh, sizeof sh);
        if (cc->bad_data_addr) {
            memcpy(&sh, buf + doff, sizeof sh);
            sh.sh_addr = 0x40000000u;
            memcpy(buf + doff, &sh, sizeof sh);
        }
        char out[300];
        snprintf(out, sizeof out, OUTDIR "/%s.elf", cc->test);
        FILE *o = fopen(out, "wb");
        if (o) {
            fwrite(buf, 1, n, o);
            fclose(o);
        }
        vdpu_program_t *p = NULL;
        char msg[256];
        vdpu_err_t e = vdpu_program_load_mem(buf, n, &p, msg, sizeof msg);
        if (e != VDPU_ERR_ELF || p)
            fail(cc->test, "got %s (%s), expected %s", vdpu_strerror(e), msg,
                 vdpu_strerror(VDPU_ERR_ELF));
        else if (!strstr(msg, cc->expect) || !strstr(msg, "SHT_NOBITS"))
            fail(cc->test, "message '%s' lacks '%s' and SHT_NOBITS", msg, cc->expect);
        else
            pass(cc->test);
        vdpu_program_free(p);
    }
    /* the unpatched file still loads (the checks reject only the crafted ones) */
    vdpu_program_t *p = NULL;
    char msg[256];
    vdpu_err_t e = vdpu_program_load_mem(orig, n, &p, msg, sizeof msg);
    if (e)
        fail("loader_accepts_unpatched_base", "%s (%s)", vdpu_strerror(e), msg);
    else
        pass("loader_accepts_unpatched_base");
    vdpu_program_free(p);
}

/* ---------------------------------------------------- persistence, perf */
static void test_persist(void)
{
    const char *nm = "globals_persist_across_runs";
    char path[256];
    if (build("persist", "persist.c", "-DNR_TASKLETS=1", path, sizeof path)) {
        fail(nm, "build failed: %.300s", last_log);
        return;
    }
    ctx_t c;
    if (open_prog(nm, path, VDPU_MODE_TIMED, &c))
        return;
    vdpu_result_t r;
    int ok = 1;
    for (int i = 0; i < 3 && ok; i++)
        ok = run_ok(nm, &c, &r) == 0;
    if (ok) {
        uint64_t m = 0;
        rd(&c, "mcount", &m, 8);
        uint32_t cnt = rd32(&c, "counter"), ini = rd32(&c, "initd");
        if (cnt != 3 || ini != 103 || m != 3)
            fail(nm, "after 3 runs counter=%u initd=%u mcount=%llu (expected 3, 103, 3)", cnt, ini,
                 (unsigned long long)m);
        else
            pass(nm);
        pass("sync_state_reset_at_boot");
        vdpu_load(c.d, c.p);
        if (run_ok("globals_reinitialized_by_load", &c, &r) == 0) {
            rd(&c, "mcount", &m, 8);
            if (rd32(&c, "counter") != 1 || rd32(&c, "initd") != 101 || m != 1)
                fail("globals_reinitialized_by_load", "counter=%u initd=%u mcount=%llu",
                     rd32(&c, "counter"), rd32(&c, "initd"), (unsigned long long)m);
            else
                pass("globals_reinitialized_by_load");
        }
        /* host visibility: __host and MRAM vars and the heap pointer are, plain globals are not */
        vdpu_symbol_t s;
        int hv = vdpu_program_symbol(c.p, "counter", &s) == 0 && s.host_visible &&
                 s.mem == VDPU_MEM_WRAM;
        hv = hv && vdpu_program_symbol(c.p, "mcount", &s) == 0 && s.host_visible &&
             s.mem == VDPU_MEM_MRAM;
        hv = hv && vdpu_program_symbol(c.p, "lock", &s) == 0 && !s.host_visible;
        hv = hv && vdpu_program_symbol(c.p, "__sys_used_mram_end", &s) == 0 && s.host_visible &&
             s.mem == VDPU_MEM_MRAM && s.offset == 8 && s.size == VDPU_MRAM_SIZE - 8;
        if (hv)
            pass("symbols_host_visibility");
        else
            fail("symbols_host_visibility", "wrong host_visible/mem/size flags");
    }
    close_prog(&c);
}

static void test_perf(void)
{
    const char *nm = "perfcounter_monotonic_16_cycle_granularity";
    char path[256];
    if (build("perf", "perf.c", "-DNR_TASKLETS=1", path, sizeof path)) {
        fail(nm, "build failed: %.300s", last_log);
        return;
    }
    ctx_t c;
    if (open_prog(nm, path, VDPU_MODE_TIMED, &c))
        return;
    vdpu_result_t r;
    if (run_ok(nm, &c, &r) == 0) {
        uint64_t s[64];
        rd(&c, "samples", s, sizeof s);
        int ok = 1;
        for (int i = 0; i < 64; i++) {
            if (s[i] & 15) {
                fail(nm, "sample %d = %llu not a multiple of 16", i, (unsigned long long)s[i]);
                ok = 0;
                break;
            }
            if (i && s[i] <= s[i - 1]) {
                fail(nm, "sample %d not increasing", i);
                ok = 0;
                break;
            }
        }
        if (ok && s[63] - s[0] < 63 * 11 * 4) {
            fail(nm, "too few cycles: %llu", (unsigned long long)(s[63] - s[0]));
            ok = 0;
        }
        if (ok)
            pass(nm);
        uint64_t id = 0;
        rd(&c, "instr_delta", &id, 8);
        if (id < 300 || id > 2000)
            fail("perfcounter_count_instructions", "%llu instructions for a 100-iteration loop",
                 (unsigned long long)id);
        else
            pass("perfcounter_count_instructions");
        if (rd32(&c, "clocks") != 350000000u)
            fail("clocks_per_sec_filled_by_loader", "CLOCKS_PER_SEC = %u", rd32(&c, "clocks"));
        else
            pass("clocks_per_sec_filled_by_loader");
    }
    close_prog(&c);
}

static void test_sync(void)
{
    char path[256];
    if (build("sync", "sync.c", "-DNR_TASKLETS=8", path, sizeof path)) {
        fail("sync_services", "build failed: %.300s", last_log);
        return;
    }
    for (int mode = 0; mode < 2; mode++) {
        char nm[64];
        snprintf(nm, sizeof nm, "sync_services_%s", mode ? "fast" : "timed");
        ctx_t c;
        if (open_prog(nm, path, mode ? VDPU_MODE_FAST : VDPU_MODE_TIMED, &c))
            continue;
        vdpu_result_t r;
        if (run_ok(nm, &c, &r) == 0) {
            uint32_t ab[8];
            rd(&c, "after_barrier", ab, sizeof ab);
            int ok = 1;
            for (int i = 0; i < 8; i++)
                if (ab[i] != 800) {
                    fail(nm, "tasklet %d saw counter %u after barrier (expected 800)", i, ab[i]);
                    ok = 0;
                    break;
                }
            if (ok && rd32(&c, "stop_order") != 12) {
                fail(nm, "stop/resume order %u (expected 12)", rd32(&c, "stop_order"));
                ok = 0;
            }
            if (ok && rd32(&c, "try_result") != 101) {
                fail(nm, "acquire_try taken/busy/taken = %03u (expected 101)",
                     rd32(&c, "try_result"));
                ok = 0;
            }
            if (ok && rd32(&c, "hs_result") != 1000) {
                fail(nm, "handshake result %u", rd32(&c, "hs_result"));
                ok = 0;
            }
            if (ok && mode == 0) {
                uint64_t blocked = 0;
                for (int i = 0; i < 8; i++)
                    blocked += r.tasklet[i].blocked_cycles;
                if (!blocked) {
                    fail(nm, "no blocked cycles counted");
                    ok = 0;
                }
            }
            if (ok)
                pass(nm);
        }
        close_prog(&c);
    }
}

/* ---------------------------------------------------------------- timing */
static void test_scaling(void)
{
    const char *nm = "timing_tasklet_scaling_linear_to_11_then_flat";
    double thr1 = 0, worst = 0;
    int worst_t = 0, ok = 1;
    char curve[512];
    size_t co = 0;
    curve[0] = 0;
    for (int T = 1; T <= 24 && ok; T++) {
        char path[256], flags[64], out[32];
        snprintf(flags, sizeof flags, "-DNR_TASKLETS=%d", T);
        snprintf(out, sizeof out, "scale_%d", T);
        if (build(out, "scale.c", flags, path, sizeof path)) {
            fail(nm, "build failed: %.300s", last_log);
            return;
        }
        ctx_t c;
        if (open_prog(nm, path, VDPU_MODE_TIMED, &c))
            return;
        wr32(&c, "iters", 2000);
        vdpu_result_t r;
        if (run_ok(nm, &c, &r)) {
            close_prog(&c);
            return;
        }
        double thr = (double)T / (double)r.cycles;
        if (T == 1)
            thr1 = thr;
        double sp = thr / thr1, ideal = T < 11 ? T : 11;
        double dev = fabs(sp / ideal - 1);
        if (dev > worst) {
            worst = dev;
            worst_t = T;
        }
        co += (size_t)snprintf(curve + co, sizeof curve - co, "%s%.2f", T > 1 ? " " : "", sp);
        close_prog(&c);
    }
    if (worst > 0.05)
        fail(nm, "speed-up deviates %.1f%% from min(T,11) at T=%d; curve: %s", 100 * worst, worst_t,
             curve);
    else {
        printf("# speed-up T=1..24: %s\n", curve);
        pass(nm);
    }
}

/* The translation to host code (fast mode, and timed mode's run-ahead) on
 * programs that exercise it:
 * the benchmark kernel (loads, stores, ALU, branches), DMA streaming, the
 * synchronisation services (exits on every ecall), the DPU's own
 * instructions (carry, mul_step/div_step through the runtime's multiply and
 * divide) and the RV32 ISA test, with quanta that end inside runs (1, 5) and
 * the default, with and without cost fusion, and timed. run() compares
 * each with the interpreter; the translated code must also have been
 * entered. */
static void test_jit_identical(void)
{
    const char *nm = "jit_identical_results_and_memory";
    static const struct {
        const char *out, *src, *flags, *sym;
        uint32_t val;
    } progs[] = {
        {"bench_loop_16", "bench_loop.c", "-DNR_TASKLETS=16", "iterations", 2},
        {"stream_16", "stream.c", "-DNR_TASKLETS=16", "total_bytes", 64u * 1024},
        {"sync", "sync.c", "-DNR_TASKLETS=8", NULL, 0},
        {"jit_dpu_isa", "dpu_isa.c", "", NULL, 0},
        {"jit_isa", "isa.c", "", NULL, 0},
    };
    static const uint32_t quanta[] = {1, 5, 4096};
    long long runs0 = jit_runs, entries0 = jit_entries;
    for (size_t k = 0; k < sizeof progs / sizeof progs[0]; k++) {
        char path[256];
        if (build(progs[k].out, progs[k].src, progs[k].flags, path, sizeof path)) {
            fail(nm, "build of %s failed: %.300s", progs[k].src, last_log);
            return;
        }
        for (size_t q = 0; q <= sizeof quanta / sizeof quanta[0]; q++) {
            for (uint32_t fusion = 0; fusion < 2; fusion++) {
                ctx_t c;
                /* timed once per program and fusion (the quantum is fast mode's) */
                int timed = q == sizeof quanta / sizeof quanta[0];
                if (open_prog(nm, path, timed ? VDPU_MODE_TIMED : VDPU_MODE_FAST, &c))
                    return;
                vdpu_params_t prm = *vdpu_get_params(c.d);
                prm.fast_quantum = timed ? prm.fast_quantum : quanta[q];
                prm.isa_fusion = fusion;
                if (vdpu_set_params(c.d, &prm)) {
                    fail(nm, "cannot set the parameters");
                    close_prog(&c);
                    return;
                }
                if (progs[k].sym)
                    wr32(&c, progs[k].sym, progs[k].val);
                vdpu_result_t r;
                int rc = run(nm, &c, &r);
                close_prog(&c);
                if (rc)
                    return;
            }
        }
    }
    if (jit_entries == entries0)
        fail(nm, "the translated code never ran (%lld runs)", jit_runs - runs0);
    else {
        printf("# translation: %lld runs equal to the interpreter (all groups so far: %lld), "
               "%lld entries into translated code\n",
               jit_runs - runs0, jit_runs, jit_entries - entries0);
        pass(nm);
    }
}

/* The translator's bounds: a whole IRAM of the instructions with the
 * longest translations (indirect jumps, div_step, a head before each: every
 * one a branch target; word stores, the window form's longest heads) fits
 * the buffer computed before emitting, in every form; and the encoder writes nothing past a
 * buffer's end, it marks the translation as failed instead. */
static void test_jit_bounds(void)
{
    const char *nm = "jit_whole_iram_of_longest_forms_fits_its_buffer";
#if defined(__x86_64__) && defined(__linux__)
    static uint32_t words[VDPU_IRAM_MAX_INSNS];
    static vinsn_t code[VDPU_IRAM_MAX_INSNS + 1];
    static const uint32_t forms[] = {
        0x7ff58567u, /* jalr a0, 2047(a1) */
        0x01f5152bu, /* div_step a0:a1, a0, 31 */
        0xfeb50ee3u, /* beq a0, a1, -4: the one before is a branch target */
        0x7ee5a023u, /* sw a4, 2016(a1): an access with its check */
    };
    int ok = 1;
    /* all indirect jumps (the longest body, each after a run's end: a head),
     * the mix, all word stores, all word stores in pairs (cost fusion makes
     * each pair one sd: the window form's longest head) */
    static const char *const what[] = {"jalr", "mixed instructions", "word stores",
                                       "paired word stores"};
    static const char *const form[] = {"fast", "run-ahead", "window"};
    static uint8_t no_target[VDPU_IRAM_MAX_INSNS + 1];
    for (int mix = 0; mix < 4 && ok; mix++) {
        for (uint32_t i = 0; i < VDPU_IRAM_MAX_INSNS; i++)
            words[i] = forms[mix == 1 ? i % (sizeof forms / sizeof forms[0])
                             : mix    ? 3
                                      : 0] +
                       (mix == 3 && (i & 1) ? 4u << 7 : 0); /* sw a4, 2020(a1) */
        vdpu_decode(words, VDPU_IRAM_MAX_INSNS, code);
        if (mix == 3 && (vdpu_fuse(code, VDPU_IRAM_MAX_INSNS, no_target) || code[1].cost != 0)) {
            fail(nm, "the word stores were not paired");
            ok = 0;
        }
        for (int pure = 0; pure < 3 && ok; pure++) {
            vdpu_jit_t *j = vdpu_jit_build(code, VDPU_IRAM_MAX_INSNS, pure);
            if (!j) {
                fail(nm, "the %s form of 4096 %s did not fit (or mmap failed)", form[pure],
                     what[mix]);
                ok = 0;
            }
            vdpu_jit_free(j);
        }
    }
    uint8_t buf[16];
    memset(buf, 0xa5, sizeof buf);
    vdpu_x64_t x = {buf, 10, 0, 0};
    for (int k = 0; k < 4; k++)
        vdpu_x64_load(&x, X_AX, X_BX, 0x100); /* 6 bytes each */
    if (ok && (!x.overflow || x.pos > 10 || buf[10] != 0xa5 || buf[15] != 0xa5)) {
        fail(nm, "the encoder wrote past its buffer (pos %zu of 10, overflow %d)", x.pos,
             x.overflow);
        ok = 0;
    }
    if (ok)
        pass(nm);
#else
    test_skipf(nm, "the translator is for x86-64 Linux");
#endif
}

/* The skipping on the interpreter benchmark's kernel (WRAM loads and
 * stores between ALU runs) and on 2 KiB-DMA streaming, at tasklet counts
 * below, at and above the revolver's 11 (test_scaling, also through run(),
 * goes to 24): run() compares
 * each with the cycle-by-cycle scheduler. The skipping must also have
 * happened (steady heads > 0), or this checks nothing. */
static void test_skip_identical(void)
{
    const char *nm = "skip_steady_identical_results_and_memory";
    static const int counts[] = {2, 3, 7, 11, 12, 13, 16}; /* 24: test_scaling */
    long long runs0 = skip_runs, heads0 = skip_steady_heads;
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        for (int prog = 0; prog < 2; prog++) {
            char path[256], flags[64], out[32];
            snprintf(flags, sizeof flags, "-DNR_TASKLETS=%d", counts[i]);
            snprintf(out, sizeof out, "%s_%d", prog ? "stream" : "bench_loop", counts[i]);
            if (build(out, prog ? "stream.c" : "bench_loop.c", flags, path, sizeof path)) {
                fail(nm, "build failed: %.300s", last_log);
                return;
            }
            ctx_t c;
            if (open_prog(nm, path, VDPU_MODE_TIMED, &c))
                return;
            wr32(&c, prog ? "total_bytes" : "iterations", prog ? 96u * 1024 : 3u);
            vdpu_result_t r;
            int rc = run_ok(nm, &c, &r);
            close_prog(&c);
            if (rc)
                return;
        }
    }
    if (skip_steady_heads == heads0)
        fail(nm, "the steady-state skipping never ran (%lld runs)", skip_runs - runs0);
    else {
        printf("# steady-state skipping: %lld runs equal to the cycle-by-cycle scheduler, %lld "
               "heads issued by it\n",
               skip_runs - runs0, skip_steady_heads - heads0);
        pass(nm);
    }
}

/* progs/SRC built for nr tasklets (as STEM_nr, unless `built` says the
 * last build was that one) and opened in timed mode; -1 after a reported
 * failure. */
static int open_at(const char *nm, const char *src, const char *stem, int nr, int built, ctx_t *c)
{
    char path[256], flags[64], out[32];
    snprintf(flags, sizeof flags, "-DNR_TASKLETS=%d", nr);
    snprintf(out, sizeof out, "%s_%d", stem, nr);
    snprintf(path, sizeof path, OUTDIR "/%s.elf", out);
    if (!built && build(out, src, flags, path, sizeof path)) {
        fail(nm, "build failed: %.300s", last_log);
        return -1;
    }
    return open_prog(nm, path, VDPU_MODE_TIMED, c) ? -1 : 0;
}

/* open_at's program with its global `var` set to val, run to completion by
 * run_ok (compared with the cycle-by-cycle scheduler) into *r; -1 after a
 * reported failure. */
static int run_at(const char *nm, const char *src, const char *stem, int nr, const char *var,
                  uint32_t val, vdpu_result_t *r)
{
    ctx_t c;
    if (open_at(nm, src, stem, nr, 0, &c))
        return -1;
    wr32(&c, var, val);
    int rc = run_ok(nm, &c, r);
    close_prog(&c);
    return rc;
}

/* The steady state's windows (each tasklet's heads run alone up to a
 * horizon, run.c): on tasklets that share WRAM words, read and written in
 * an order only the issue cycles decide, and stop at different cycles
 * (direct MRAM stores), at tasklet counts below and above the revolver's
 * 11. run() compares each with the cycle-by-cycle scheduler; the windows
 * must have run and some must have been undone (a conflict or a horizon
 * that came down), or this checks neither path. */
static void test_window(void)
{
    const char *nm = "steady_windows_identical_with_shared_words";
    static const int counts[] = {3, 4, 12, 16};
    long long heads = 0, undone = 0;
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        vdpu_result_t r;
        if (run_at(nm, "shared_words.c", "shared_words", counts[i], "iterations", 24, &r))
            return;
        heads += (long long)r.window_heads;
        undone += (long long)r.window_undone;
    }
    if (heads == 0 || undone == 0)
        fail(nm, "the windows did not run both ways: %lld heads, %lld undone", heads, undone);
    else {
        printf("# steady-state windows: %lld heads run a tasklet at a time, %lld windows undone\n",
               heads, undone);
        pass(nm);
    }
}

/* The windows on heads that are two word accesses the DPU does as one
 * (paired into an 8-byte ld/sd: the second costs no slot and runs in the
 * first's), on pairs every tasklet reads and writes, some writes to one word
 * of a pair only. run() compares each with the cycle-by-cycle scheduler;
 * the windows must have run most heads (each loop iteration's load is such
 * a pair: a window that stopped at them would run almost none) and some
 * must have been undone. */
static void test_window_pairs(void)
{
    const char *nm = "steady_windows_identical_with_paired_words";
    static const int counts[] = {2, 5, 12, 16};
    long long heads = 0, steady = 0, undone = 0;
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        vdpu_result_t r;
        if (run_at(nm, "paired_words.c", "paired_words", counts[i], "iterations", 24, &r))
            return;
        heads += (long long)r.window_heads;
        steady += (long long)r.steady_heads;
        undone += (long long)r.window_undone;
    }
    if (2 * heads < steady || undone == 0)
        fail(nm, "the windows ran %lld of %lld steady heads (want half at least), %lld undone",
             heads, steady, undone);
    else {
        printf("# paired words: %lld of %lld steady heads in windows, %lld windows undone\n", heads,
               steady, undone);
        pass(nm);
    }
}

/* The windows (and the translation's window form, which runs loads and
 * stores of 1, 2 and 4 bytes inline) on heads of every access size, signed
 * and unsigned, on bytes and halves the tasklets share, and a misaligned
 * word load in a steady state (which the translation must leave to the
 * interpreter: its outcome, or fault, at the same cycle and pc). run()
 * compares each with the cycle-by-cycle interpreter; the windows must have
 * run most heads. */
static void test_window_sizes(void)
{
    const char *nm = "steady_windows_identical_with_every_access_size";
    static const struct {
        int tasklets;
        uint32_t bad_at;
    } runs[] = {{1, 0}, {3, 0}, {12, 0}, {12, 9}, {16, 0}, {16, 13}};
    long long heads = 0, steady = 0;
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        /* one build per tasklet count */
        const int built = i > 0 && runs[i].tasklets == runs[i - 1].tasklets;
        ctx_t c;
        if (open_at(nm, "mixed_access.c", "mixed_access", runs[i].tasklets, built, &c))
            return;
        wr32(&c, "iterations", 16);
        wr32(&c, "bad_at", runs[i].bad_at);
        vdpu_result_t r;
        int rc = runs[i].bad_at ? run(nm, &c, &r) : run_ok(nm, &c, &r);
        close_prog(&c);
        if (rc)
            return;
        heads += (long long)r.window_heads;
        steady += (long long)r.steady_heads;
    }
    if (2 * heads < steady)
        fail(nm, "the windows ran %lld of %lld steady heads (want half at least)", heads, steady);
    else {
        printf("# every access size: %lld of %lld steady heads in windows\n", heads, steady);
        pass(nm);
    }
}

/* Tasklets that wait for 2 KiB DMAs between computations (dma_compute.c):
 * at 4 and 8 the others go on as a steady state while one waits (a
 * sleeper, run.c's steady_enter, up to its wake-up); at 11 to 13 (the ring
 * of the revolver with little slack) a tasklet rejoins
 * out of index order and that order persists; the steady state must follow
 * it (run.c's ring_order) or most heads go cycle by cycle. run() compares
 * each with the cycle-by-cycle scheduler; the steady state must have issued
 * most heads (about one per 5 instructions here; without ring_order it
 * issues almost none at 11 and 12 tasklets). */
static void test_ring_order(void)
{
    const char *nm = "steady_state_in_a_ring_out_of_index_order";
    long long heads = 0, insns = 0;
    static const int counts[] = {4, 8, 11, 12, 13};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        vdpu_result_t r;
        if (run_at(nm, "dma_compute.c", "dma_compute", counts[i], "blocks", 4, &r))
            return;
        heads += (long long)r.steady_heads;
        insns += (long long)r.instructions;
    }
    if (8 * heads < insns)
        fail(nm,
             "the steady state issued %lld heads for %lld instructions (want an eighth at least)",
             heads, insns);
    else {
        printf("# out of index order: %lld heads in steady states, %lld instructions\n", heads,
               insns);
        pass(nm);
    }
}

static void test_stream(void)
{
    const char *nm = "timing_mram_stream_2KiB_600_700_MBps";
    char path[256];
    if (build("stream", "stream.c", "-DNR_TASKLETS=16", path, sizeof path)) {
        fail(nm, "build failed: %.300s", last_log);
        return;
    }
    ctx_t c;
    if (open_prog(nm, path, VDPU_MODE_TIMED, &c))
        return;
    uint32_t total = 8u << 20;
    wr32(&c, "total_bytes", total);
    vdpu_result_t r;
    if (run_ok(nm, &c, &r) == 0) {
        double mbs = (double)total * 350e6 / (double)r.cycles / 1e6;
        if (r.dma_bytes != total)
            fail(nm, "DMA bytes %llu, expected %u", (unsigned long long)r.dma_bytes, total);
        else if (mbs < 600 || mbs > 700)
            fail(nm, "%.1f MB/s", mbs);
        else {
            printf("# MRAM read stream, 16 tasklets, 2 KiB DMAs: %.1f MB/s at 350 MHz (PrIM: 628 "
                   "MB/s)\n",
                   mbs);
            pass(nm);
        }
    }
    close_prog(&c);
    /* single tasklet: latency-bound, 2048 / (77 + 1024 + loop) cycles */
    if (build("stream1", "stream.c", "-DNR_TASKLETS=1", path, sizeof path) == 0 &&
        open_prog("timing_mram_stream_1_tasklet", path, VDPU_MODE_TIMED, &c) == 0) {
        wr32(&c, "total_bytes", 1u << 20);
        if (run_ok("timing_mram_stream_1_tasklet", &c, &r) == 0) {
            double mbs = (double)(1u << 20) * 350e6 / (double)r.cycles / 1e6;
            if (mbs < 550 || mbs > 651)
                fail("timing_mram_stream_1_tasklet", "%.1f MB/s (model bound 651)", mbs);
            else {
                printf("# MRAM read stream, 1 tasklet: %.1f MB/s\n", mbs);
                pass("timing_mram_stream_1_tasklet");
            }
        }
        close_prog(&c);
    }
}

static void test_prim_add(void)
{
    const char *nm = "timing_prim_int32_add_16_tasklets_within_20pct_of_58.56_MOPS";
    char path[256];
    if (build("prim_add", "prim_add.c", "-DNR_TASKLETS=16", path, sizeof path)) {
        fail(nm, "build failed: %.300s", last_log);
        return;
    }
    ctx_t c;
    if (open_prog(nm, path, VDPU_MODE_TIMED, &c))
        return;
    uint32_t reps = 50;
    wr32(&c, "reps", reps);
    wr32(&c, "scalar", 3);
    vdpu_result_t r;
    if (run_ok(nm, &c, &r) == 0) {
        double ops = (double)reps * 1024;
        double mops = ops * 350.0 / (double)r.cycles;
        if (fabs(mops / 58.56 - 1) > 0.20)
            fail(nm, "%.2f MOPS (%.2f instr/op)", mops, (double)r.instructions / ops);
        else {
            printf("# PrIM INT32 ADD, 16 tasklets: %.2f MOPS at 350 MHz (PrIM 58.56), %.2f "
                   "instructions/op\n",
                   mops, (double)r.instructions / ops);
            pass(nm);
        }
    }
    close_prog(&c);
}

static void test_modes_equal(void)
{
    const char *nm = "timed_and_fast_modes_agree_bench_loop";
    char path[256];
    if (build("bench_loop", "bench_loop.c", "-DNR_TASKLETS=12", path, sizeof path)) {
        fail(nm, "build failed: %.300s", last_log);
        return;
    }
    uint32_t sums[2][12];
    uint64_t insns[2] = {0, 0};
    for (int m = 0; m < 2; m++) {
        ctx_t c;
        if (open_prog(nm, path, m ? VDPU_MODE_FAST : VDPU_MODE_TIMED, &c))
            return;
        wr32(&c, "iterations", 5);
        vdpu_result_t r;
        if (run_ok(nm, &c, &r)) {
            close_prog(&c);
            return;
        }
        rd(&c, "checksum", sums[m], sizeof sums[m]);
        insns[m] = r.instructions;
        close_prog(&c);
    }
    if (memcmp(sums[0], sums[1], sizeof sums[0]) || insns[0] != insns[1])
        fail(nm, "results or instruction counts differ (%llu vs %llu)",
             (unsigned long long)insns[0], (unsigned long long)insns[1]);
    else
        pass(nm);
}

static void test_wrapper_path(void)
{
    const char *nm = "wrapper_via_symlink_on_PATH_from_other_cwd";
    char cwd[512], cmd[2048];
    if (!getcwd(cwd, sizeof cwd)) {
        fail(nm, "getcwd");
        return;
    }
    snprintf(cmd, sizeof cmd,
             "cd /tmp && PATH='%s/emu/bin':\"$PATH\" dpu-clang -DNR_TASKLETS=3 -O2 -o '%s/" OUTDIR
             "/via_path.elf' '%s/tests/emu/progs/persist.c' >/dev/null 2>&1",
             cwd, cwd, cwd);
    struct stat st;
    if (system(cmd) != 0 || stat(OUTDIR "/via_path.elf", &st) != 0)
        fail(nm, "build through PATH/symlink failed");
    else {
        vdpu_program_t *p;
        char msg[200];
        if (vdpu_program_load_file(OUTDIR "/via_path.elf", &p, msg, sizeof msg) ||
            vdpu_program_nr_tasklets(p) != 3)
            fail(nm, "bad program: %s", msg);
        else
            pass(nm);
        vdpu_program_free(p);
    }
}

/* ------------------------------------------------------------ DPU ISA */
/* host references of tests/emu/progs/dpu_isa.c */
static uint32_t ref_mul8(unsigned v, uint32_t a, uint32_t b)
{
    unsigned sa = v >> 2, sb = v & 3;
    uint32_t ba = (a >> (8 * (sa & 1))) & 0xff, bb = (b >> (8 * (sb & 1))) & 0xff;
    int32_t x = (sa & 2) ? (int8_t)ba : (int32_t)ba, y = (sb & 2) ? (int8_t)bb : (int32_t)bb;
    return (uint32_t)(x * y);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd32(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 32);
}

static int isa_expect(uint32_t *o, const uint32_t in[3], int i)
{
    uint32_t a = in[0], b = in[1], c = in[2], k = 0;
    o[k++] = a + b;
    o[k++] = a + (b << 5);
    o[k++] = a + (b << 31);
    o[k++] = a - (b << 3);
    o[k++] = a - (b << 17);
    o[k++] = a + (b >> 1);
    o[k++] = a + (b >> 30);
    o[k++] = a + b;
    o[k++] = a + ref_rotr(b, 32 - 13);
    uint64_t s = (((uint64_t)a << 32) | b) + (((uint64_t)c << 32) | a);
    o[k++] = (uint32_t)s;
    o[k++] = (uint32_t)(s >> 32);
    s = (((uint64_t)a << 32) | b) - (((uint64_t)c << 32) | a);
    o[k++] = (uint32_t)s;
    o[k++] = (uint32_t)(s >> 32);
    /* mul_step on (multiplier a, accumulator c), ra = b, shift 7 */
    o[k++] = a >> 1;
    o[k++] = c + ((a & 1) ? b << 7 : 0);
    /* div_step on (quotient a, remainder c), ra = b >> 12, shift 9 */
    uint64_t pv = (uint64_t)(b >> 12) << 9;
    if (c >= pv) {
        o[k++] = (a << 1) | 1;
        o[k++] = c - (uint32_t)pv;
    } else {
        o[k++] = a << 1;
        o[k++] = c;
    }
    o[k++] = a;
    o[k++] = b;
    uint32_t dv = (i & 1) ? (b >> (i % 31)) | 1u : b | 1u;
    o[k++] = a * b;
    o[k++] = a / dv;
    o[k++] = a % dv;
    int32_t sa = (int32_t)a, sd = (int32_t)dv;
    o[k++] = (sa == INT32_MIN && sd == -1) ? (uint32_t)INT32_MIN : (uint32_t)(sa / sd);
    o[k++] = (sa == INT32_MIN && sd == -1) ? 0u : (uint32_t)(sa % sd);
    uint64_t x = ((uint64_t)a << 32) | b, y = ((uint64_t)c << 32) | (a ^ b);
    uint64_t p = x * y, y2 = (i & 1) ? (y >> (i % 61)) | 1u : y | 1u;
    o[k++] = (uint32_t)p;
    o[k++] = (uint32_t)(p >> 32);
    p = (uint64_t)a * b;
    o[k++] = (uint32_t)p;
    o[k++] = (uint32_t)(p >> 32);
    p = x / y2;
    o[k++] = (uint32_t)p;
    o[k++] = (uint32_t)(p >> 32);
    p = x % y2;
    o[k++] = (uint32_t)p;
    o[k++] = (uint32_t)(p >> 32);
    int64_t sx = (int64_t)x, sy = (int64_t)y2;
    p = (sx == INT64_MIN && sy == -1) ? (uint64_t)INT64_MIN : (uint64_t)(sx / sy);
    o[k++] = (uint32_t)p;
    o[k++] = (uint32_t)(p >> 32);
    p = (sx == INT64_MIN && sy == -1) ? 0u : (uint64_t)(sx % sy);
    o[k++] = (uint32_t)p;
    o[k++] = (uint32_t)(p >> 32);
    return (int)k;
}

/* The DPU's own instructions against host references: every 8x8 product of
 * the 16 mul_x_y (exhaustive), random operands for the others and for the
 * runtime's multiply/divide helpers, in both modes and without cost fusion
 * (outputs must not depend on it); and what sequences cost. */
static void test_dpu_isa(void)
{
    char path[256];
    if (build("dpu_isa", "dpu_isa.c", "-Wall -Wextra -Werror", path, sizeof path)) {
        for (int k = 0; k < 5; k++)
            fail("dpu_isa_build", "build failed: %.300s", last_log);
        return;
    }
    static uint32_t in[DISA_N][3];
    for (int i = 0; i < DISA_N; i++)
        for (int j = 0; j < 3; j++)
            in[i][j] = (i < 4) ? (j == 1 ? 0x80000000u >> i : 0xffffffffu - (uint32_t)i) : rnd32();
    uint32_t cost[2][DISA_NCOST] = {{0}}, mulc[2][5] = {{0}};
    static const char *const names[3] = {"dpu_isa_timed", "dpu_isa_fast", "dpu_isa_unfused"};
    for (int m = 0; m < 3; m++) {
        ctx_t c;
        if (open_prog(names[m], path, m == 1 ? VDPU_MODE_FAST : VDPU_MODE_TIMED, &c))
            continue;
        if (m == 2) {
            vdpu_params_t prm;
            vdpu_params_default(&prm);
            prm.isa_fusion = 0;
            prm.max_instructions = 2000000000ull;
            vdpu_set_params(c.d, &prm);
        }
        vdpu_result_t r;
        wr(&c, "rin", in, sizeof in);
        if (run_ok(names[m], &c, &r)) {
            close_prog(&c);
            continue;
        }
        static uint32_t mul8[256 * 256];
        int bad = 0;
        char why[200] = "";
        vdpu_symbol_t sy;
        vdpu_program_symbol(c.p, "mul8_out", &sy);
        for (unsigned v = 0; v < 16 && !bad; v++) {
            vdpu_mram_read(c.d, sy.offset + v * sizeof mul8, mul8, sizeof mul8);
            for (uint32_t a = 0; a < 256 && !bad; a++)
                for (uint32_t b = 0; b < 256 && !bad; b++) {
                    uint32_t x = a | ((a ^ 0xa5u) << 8) | 0x12340000u;
                    uint32_t y = b | ((b ^ 0x3cu) << 8) | 0xfedc0000u;
                    uint32_t e = ref_mul8(v, x, y);
                    if (mul8[a * 256 + b] != e) {
                        bad = 1;
                        snprintf(why, sizeof why, "mul8 variant %u a=%u b=%u: %u, expected %u", v,
                                 a, b, mul8[a * 256 + b], e);
                    }
                }
        }
        static uint32_t out[DISA_N][DISA_NOUT];
        rd(&c, "rout", out, sizeof out);
        for (int i = 0; i < DISA_N && !bad; i++) {
            uint32_t e[DISA_NOUT];
            int n = isa_expect(e, in[i], i);
            for (int k = 0; k < n && !bad; k++)
                if (out[i][k] != e[k]) {
                    bad = 1;
                    snprintf(why, sizeof why,
                             "operands %08x %08x %08x, result %d: %08x, expected %08x", in[i][0],
                             in[i][1], in[i][2], k, out[i][k], e[k]);
                }
        }
        if (bad)
            fail(names[m], "%s", why);
        else
            pass(names[m]);
        if (m != 1)
            rd(&c, "cost", cost[m ? 1 : 0], sizeof cost[0]);
        if (m == 0)
            rd(&c, "mulc", mulc, sizeof mulc);
        close_prog(&c);
    }
    /* __mulsi3: one mul_step per bit of the smaller operand (at least one),
     * whichever side it is on: operands 0, 1, 3, 0xffffffff (index 0 is a
     * warm-up of the same call site) */
    int mok = 1;
    for (int j = 0; j < 2; j++)
        mok &= mulc[j][1] == mulc[j][2] && mulc[j][3] == mulc[j][2] + 1 &&
               mulc[j][4] == mulc[j][2] + 31 && mulc[j][2] > 0;
    if (mok && mulc[0][2] == mulc[1][2])
        pass("dpu_isa_mulsi3_cost");
    else
        fail("dpu_isa_mulsi3_cost",
             "mul(big, 0/1/3/big) %u %u %u %u, mul(0/1/3/big, big) %u %u %u %u", mulc[0][1],
             mulc[0][2], mulc[0][3], mulc[0][4], mulc[1][1], mulc[1][2], mulc[1][3], mulc[1][4]);
    uint32_t *k = cost[0];
    /* folded idioms (the counts include the same perfcounter calls): add;
     * sltu; add; add = 2 adds; lw/sw pair = 1 lw; addi; bnez = lui; addi =
     * 1 addi; a pair across 8 bytes = 2 lw. Without fusion: RV32 counts. */
    uint32_t *u = cost[1];
    if (k[4] == k[5] && k[6] == k[12] && k[7] == k[10] && k[8] == k[10] && k[9] == k[10] &&
        k[11] == k[12] + 1 && u[4] == u[5] + 2 && u[6] == u[12] + 1 && u[8] == u[10] + 1)
        pass("dpu_isa_fusion_cost");
    else
        fail("dpu_isa_fusion_cost",
             "fused: add64 %u vs 2 adds %u, lw pair %u sw pair %u vs lw %u, addi+bnez %u lui+addi "
             "%u vs addi %u, split pair %u; unfused: add64 %u adds %u lw pair %u lw %u",
             k[4], k[5], k[6], k[7], k[12], k[8], k[9], k[10], k[11], u[4], u[5], u[6], u[12]);
}

/* The DPU's load/store offset (cost.c, addressing modes): `add t, x, T; lw
 * t, 0(t)` with T a known constant is one load; not when the address is
 * used otherwise, T does not fit 24 bits or differs between paths; and
 * without fusion every RV32 instruction counts. Counts relative to one lw
 * (k[12]) as the sequences' comments in dpu_isa.c say. */
/* The DPU's conditions on ALU ops, move.u, the computed jump and the frame
 * pop (cost.c), against one addi (cost[10]) as dpu_isa.c's comments say;
 * unfused, every RV32 instruction counts */
static void check_condition_costs(const uint32_t *f, const uint32_t *u)
{
    uint32_t a = f[10], ua = u[10];
    if (f[19] == a && f[20] == a && f[21] == a && f[22] == a && f[23] == a + 1 && f[24] == a + 1 &&
        f[25] == a + 2 && f[26] == a + 4 && u[26] == ua + 5 && u[19] == ua + 1 && u[20] == ua + 1 &&
        u[21] == ua + 1 && u[22] == ua + 1 && u[24] == ua + 3 && u[25] == ua + 3)
        pass("dpu_isa_condition_cost");
    else
        fail("dpu_isa_condition_cost",
             "fused (addi = %u): branch+sub %u, sub+branch %u, beqz+clz %u, move.u %u, not a "
             "pair %u, computed jump %u, frame %u, frame with s1 %u; unfused (addi = %u): %u %u %u "
             "%u %u %u %u %u",
             a, f[19], f[20], f[21], f[22], f[23], f[24], f[25], f[26], ua, u[19], u[20], u[21],
             u[22], u[23], u[24], u[25], u[26]);
}

/* The DPU's compare with an immediate and the runtime's primitives as single
 * DPU instructions (cost.c), against one addi as dpu_isa.c's comments say */
static void check_service_costs(const uint32_t *f, const uint32_t *u)
{
    uint32_t a = f[10], ua = u[10];
    if (f[27] == a + 1 && f[28] == a + 2 && f[29] == a + 2 && u[27] == ua + 2 && u[29] == ua + 2)
        pass("dpu_isa_compare_imm_cost");
    else
        fail("dpu_isa_compare_imm_cost",
             "fused (addi = %u): dead %u, read after %u, too large %u; unfused (addi = %u): %u %u "
             "%u",
             a, f[27], f[28], f[29], ua, u[27], u[28], u[29]);
    if (f[30] == a + 1 && f[31] == a + 3 && f[32] == a + 1 && u[30] == ua + 4 && u[31] == ua + 5 &&
        u[32] == ua + 1)
        pass("dpu_isa_primitive_cost");
    else
        fail("dpu_isa_primitive_cost",
             "fused (addi = %u): acquire+release %u, operand read otherwise %u, yield %u; "
             "unfused (addi = %u): %u %u %u",
             a, f[30], f[31], f[32], ua, u[30], u[31], u[32]);
}

/* vdpu_program_insn_cost: main's instructions are 0 or 1 slot, some folded
 * (main holds the sequences above), its loop branches name targets inside
 * IRAM; addresses outside the program are refused */
static void check_insn_cost(const vdpu_program_t *p)
{
    vdpu_symbol_t f;
    uint32_t n = 0, slots = 0, branches = 0, s, t;
    int ok = vdpu_program_symbol(p, "main", &f) == VDPU_OK && f.size >= 4;
    for (uint32_t a = f.addr; ok && a < f.addr + f.size; a += 4) {
        ok = vdpu_program_insn_cost(p, a, &s, &t) == VDPU_OK && s <= 1 &&
             (t == 0 || (t >= VDPU_IRAM_BASE && (t & 3) == 0));
        n++;
        slots += s;
        branches += t != 0;
    }
    if (ok && slots < n && branches > 0 &&
        vdpu_program_insn_cost(p, VDPU_IRAM_BASE + 2, &s, &t) == VDPU_ERR_ARG &&
        vdpu_program_insn_cost(p, VDPU_IRAM_BASE + 4u * 4096u, &s, &t) == VDPU_ERR_ARG &&
        vdpu_program_insn_cost(p, 0, &s, &t) == VDPU_ERR_ARG)
        pass("dpu_isa_insn_cost_api");
    else
        fail("dpu_isa_insn_cost_api", "main: %u instructions, %u slots, %u branches (ok %d)", n,
             slots, branches, ok);
}

static void test_addressing_cost(void)
{
    char path[256];
    if (build("dpu_isa", "dpu_isa.c", "-Wall -Wextra -Werror", path, sizeof path)) {
        fail("dpu_isa_addressing_cost", "build failed: %.300s", last_log);
        return;
    }
    uint32_t k[2][DISA_NCOST] = {{0}}, got[2] = {0};
    for (int m = 0; m < 2; m++) {
        ctx_t c;
        if (open_prog("dpu_isa_addressing_cost", path, VDPU_MODE_TIMED, &c))
            return;
        vdpu_params_t prm;
        vdpu_params_default(&prm);
        prm.isa_fusion = m == 0;
        vdpu_set_params(c.d, &prm);
        vdpu_result_t r;
        if (run_ok("dpu_isa_addressing_cost", &c, &r)) {
            close_prog(&c);
            return;
        }
        rd(&c, "cost", k[m], sizeof k[m]);
        rd(&c, "tab_out", got, sizeof got);
        if (m == 0)
            check_insn_cost(c.p);
        close_prog(&c);
    }
    const uint32_t *f = k[0], *u = k[1], l = f[12], ul = u[12];
    if (f[13] == l + 1 && f[14] == l + 2 && f[15] == l + 3 && f[16] == l + 2 && f[17] == l + 3 &&
        f[18] == l + 2 && f[33] == l + 3 && f[34] == l + 4 && f[35] == l + 3 && u[13] == ul + 3 &&
        u[14] == ul + 4 && u[16] == ul + 2 && u[17] == ul + 4 && u[33] == ul + 5 && got[0] == 22 &&
        got[1] == 0x5a5a1234u)
        pass("dpu_isa_addressing_cost");
    else
        fail("dpu_isa_addressing_cost",
             "fused (lw = %u): T[x] %u, store %u, used otherwise %u, far %u, join differs %u, "
             "join same %u, dead after the branch %u, live after it %u, dead at a target %u; "
             "unfused (lw = %u): %u %u %u %u %u %u %u; values %u %u",
             l, f[13], f[14], f[15], f[16], f[17], f[18], f[33], f[34], f[35], ul, u[13], u[14],
             u[15], u[16], u[17], u[18], u[33], got[0], got[1]);
    check_condition_costs(k[0], k[1]);
    check_service_costs(k[0], k[1]);
}

static void test_isa_O2(void)
{
    test_isa("");
}

static void test_isa_O0(void)
{
    test_isa(" -O0");
}

int main(int argc, char **argv)
{
    if (system("mkdir -p " OUTDIR) != 0) {
        /* before the plan: run.sh reports the missing PLAN line */
        fprintf(stderr, "test-vdpu: cannot create " OUTDIR "\n");
        return 1;
    }
    /* name, group, number of verdicts it reports */
    test_register_group("isa", test_isa_O2, 4);
    test_register_group("isa_O0", test_isa_O0, 4);
    test_register_group("dpu_isa", test_dpu_isa, 5);
    test_register_group("addressing", test_addressing_cost, 5);
    test_register_group("faults", test_faults, 46);
    test_register_group("watchdog", test_watchdog, 2);
    test_register_group("dma_rules", test_dma_rules, 4);
    test_register_group("cycle_watchdog", test_cycle_watchdog, 3);
    test_register_group("hardware_rules", test_hardware_rules, 10);
    test_register_group("runtime_symbols", test_runtime_symbols, 1);
    test_register_group("mram_gc", test_mram_gc, 1);
    test_register_group("limits", test_limits, 7);
    test_register_group("crafted_elf", test_crafted_elf, 4);
    test_register_group("persist", test_persist, 4);
    test_register_group("perf", test_perf, 3);
    test_register_group("sync", test_sync, 2);
    test_register_group("modes_equal", test_modes_equal, 1);
    test_register_group("scaling", test_scaling, 1);
    test_register_group("stream", test_stream, 2);
    test_register_group("prim_add", test_prim_add, 1);
    test_register_group("wrapper_path", test_wrapper_path, 1);
    test_register_group("skip_identical", test_skip_identical, 1);
    test_register_group("window", test_window, 1);
    test_register_group("window_pairs", test_window_pairs, 1);
    test_register_group("window_sizes", test_window_sizes, 1);
    test_register_group("ring_order", test_ring_order, 1);
    test_register_group("jit_identical", test_jit_identical, 1);
    test_register_group("jit_bounds", test_jit_bounds, 1);
    return test_main(argc, argv);
}
