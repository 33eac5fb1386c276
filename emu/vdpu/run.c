/* run.c -- the interpreter: predecoded RV32IM+Zba+Zbb, runtime services
 * (ecall), and the two schedulers (timed revolver model / fast untimed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdbstub_internal.h"
#include "jit.h"
#include "vdpu_internal.h"
#include "vprof_internal.h"

#define LIKELY(x)   __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

static inline uint32_t rotr(uint32_t a, uint32_t s)
{
    s &= 31;
    return (a >> s) | (a << ((32 - s) & 31));
}

static inline uint32_t orcb(uint32_t a)
{
    uint32_t r = 0;
    for (int i = 0; i < 4; i++)
        if ((a >> (8 * i)) & 0xff)
            r |= 0xffu << (8 * i);
    return r;
}

/* the DPU's 8x8-bit multiplies: sel bits 3:2 pick the byte of a, 1:0 of b:
 * 0 = unsigned low (bits 7:0), 1 = unsigned high (15:8), 2 = signed low,
 * 3 = signed high (mul_ul_ul .. mul_sh_sh) */
static inline uint32_t mul8(uint32_t sel, uint32_t a, uint32_t b)
{
    uint32_t sa = sel >> 2, sb = sel & 3;
    uint32_t ba = (a >> (8 * (sa & 1))) & 0xff, bb = (b >> (8 * (sb & 1))) & 0xff;
    int32_t x = (sa & 2) ? (int32_t)(int8_t)ba : (int32_t)ba;
    int32_t y = (sb & 2) ? (int32_t)(int8_t)bb : (int32_t)bb;
    return (uint32_t)(x * y);
}

/* add.c/addc/sub.c/subc: the 32-bit result in the low word, the new carry
 * flag in bit 32. The DPU's carry after a subtraction is "no borrow", as
 * sub = a + ~b + 1 (ARM convention): subc = a + ~b + carry. */
static inline uint64_t carry_op(int op, uint32_t a, uint32_t b, uint32_t c)
{
    switch (op) {
    case OP_ADD_C:
        return (uint64_t)a + b;
    case OP_ADDC:
        return (uint64_t)a + b + c;
    case OP_SUB_C:
        return (uint64_t)a + (uint32_t)~b + 1u;
    default:
        return (uint64_t)a + (uint32_t)~b + c; /* OP_SUBC */
    }
}

/* mul_step on the pair p[0] (multiplier, shifted right) / p[1] (accumulator):
 * if the multiplier's bit 0 is set, add ra << shift. Returns the new
 * multiplier (the DPU's `z` condition jumps when it is 0). */
static inline uint32_t mul_step(uint32_t *p, uint32_t ra, uint32_t shift)
{
    uint32_t e = p[0], o = p[1];
    if (e & 1)
        o += ra << shift;
    e >>= 1;
    p[0] = e;
    p[1] = o;
    return e;
}

/* div_step on the pair p[0] (quotient bits, shifted in) / p[1] (dividend,
 * becoming the remainder): if p[1] >= ra << shift, subtract it and shift in
 * a 1, else a 0 (the SDK's description: compiler-rt/lib/builtins/dpu/udiv64.c) */
static inline void div_step(uint32_t *p, uint32_t ra, uint32_t shift)
{
    uint64_t pv = (uint64_t)ra << shift;
    uint32_t q = p[0], r = p[1];
    if (r >= pv) {
        r -= (uint32_t)pv;
        q = (q << 1) | 1u;
    } else {
        q <<= 1;
    }
    p[0] = q;
    p[1] = r;
}

/* Dense one-line handlers, one per op: keep the layout. */
/* clang-format off */
/* ALU semantics shared by the fast switch (constant op, inlined) and the
 * checked sp path (runtime op). Division is handled separately. */
static inline __attribute__((always_inline)) uint32_t alu(int op, uint32_t a, uint32_t b)
{
    switch (op) {
    case OP_LI: return b;
    case OP_ADDI: case OP_ADD: case OP_ADDI_SP: return a + b;
    case OP_SUB: return a - b;
    case OP_SLTI: case OP_SLT: return (int32_t)a < (int32_t)b;
    case OP_SLTIU: case OP_SLTU: return a < b;
    case OP_XORI: case OP_XOR: return a ^ b;
    case OP_ORI: case OP_OR: return a | b;
    case OP_ANDI: case OP_AND: return a & b;
    case OP_SLLI: case OP_SLL: return a << (b & 31);
    case OP_SRLI: case OP_SRL: return a >> (b & 31);
    case OP_SRAI: case OP_SRA: return (uint32_t)((int32_t)a >> (b & 31));
    case OP_RORI: case OP_ROR: return rotr(a, b);
    case OP_ROL: return rotr(a, 32 - (b & 31));
    case OP_CLZ: return a ? (uint32_t)__builtin_clz(a) : 32u;
    case OP_CTZ: return a ? (uint32_t)__builtin_ctz(a) : 32u;
    case OP_CPOP: return (uint32_t)__builtin_popcount(a);
    case OP_SEXTB: return (uint32_t)(int32_t)(int8_t)(uint8_t)a;
    case OP_SEXTH: return (uint32_t)(int32_t)(int16_t)(uint16_t)a;
    case OP_ZEXTH: return a & 0xffffu;
    case OP_ORCB: return orcb(a);
    case OP_REV8: return __builtin_bswap32(a);
    case OP_ANDN: return a & ~b;
    case OP_ORN: return a | ~b;
    case OP_XNOR: return ~(a ^ b);
    case OP_MAX: return (int32_t)a > (int32_t)b ? a : b;
    case OP_MAXU: return a > b ? a : b;
    case OP_MIN: return (int32_t)a < (int32_t)b ? a : b;
    case OP_MINU: return a < b ? a : b;
    case OP_SH1ADD: return (a << 1) + b;
    case OP_SH2ADD: return (a << 2) + b;
    case OP_SH3ADD: return (a << 3) + b;
    case OP_MUL: return a * b;
    case OP_MULH: return (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int64_t)(int32_t)b) >> 32);
    case OP_MULHSU: return (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int64_t)(uint64_t)b) >> 32);
    case OP_MULHU: return (uint32_t)(((uint64_t)a * (uint64_t)b) >> 32);
    default: return 0;
    }
}
/* clang-format on */

/* ------------------------------------------------------------ DMA timing */
static void charge_dma(vdpu_t *d, vtask_t *t, int write, uint32_t n)
{
    const vdpu_timing_t *tm = &d->params.timing;
    uint64_t xfer = ((uint64_t)n * tm->dma_beta_x2 + 1) / 2;
    uint64_t occ = (xfer * tm->dma_engine_pct + 99) / 100;
    uint64_t aes_fill = 0;
    if (tm->dma_aes_cycles_per_block > 0) {
        /* the TSME study's what-if (hypothetical hardware): an AES engine between
         * MRAM and WRAM.  Not pipelined, it holds the DMA engine for its
         * cycles on every block; pipelined, the first block's latency is
         * added to this DMA only (the next DMA may start meanwhile) and the
         * stream runs at the slower of the DMA's and the engine's one block
         * per cycle.  Prices only: the bytes moved are unchanged. */
        const uint64_t blocks = (n + 15u) / 16u;
        const uint64_t c = (uint64_t)(tm->dma_aes_cycles_per_block * (double)blocks + 0.999999);
        if (tm->dma_aes_pipelined) {
            aes_fill = (uint64_t)(tm->dma_aes_cycles_per_block + 0.999999);
            if (blocks > occ)
                occ = blocks, xfer = xfer > blocks ? xfer : blocks;
        } else {
            xfer += c, occ += c;
        }
    }
    d->res->dma_count++;
    d->res->dma_bytes += n;
    d->res->dma_busy_cycles += occ;
    t->st.dma_count++;
    if (d->params.mode == VDPU_MODE_TIMED) {
        /* latency alpha overlaps with other DMAs; the transfer part occupies
         * the DPU's single DMA engine */
        uint64_t start = d->now + (write ? tm->dma_write_alpha : tm->dma_read_alpha);
        if (start < d->engine_free)
            start = d->engine_free;
        uint64_t done = start + xfer + aes_fill;
        d->engine_free = start + occ;
        t->dma_done = done;
        t->st.dma_cycles += done - d->now;
    }
}

static int tid(const vdpu_t *d, const vtask_t *t)
{
    return (int)(t - d->t);
}

/* Loads/stores that are not aligned WRAM accesses. Returns 1 if done. */
static __attribute__((noinline)) int slow_access(vdpu_t *d, vtask_t *t, uint32_t a, unsigned size,
                                                 int store, uint32_t *val)
{
    const char *what = store ? "store" : "load";
    if (a & (size - 1)) {
        vdpu_fault(d, tid(d, t), t->pc, VDPU_FAULT_MISALIGNED,
                   "misaligned access: %u-byte %s at 0x%08x (must be %u-aligned)", size, what, a,
                   size);
        return 0;
    }
    if (a - VDPU_MRAM_BASE < VDPU_MRAM_SIZE) {
        uint8_t *p = d->mram + (a - VDPU_MRAM_BASE);
        if (store) {
            memcpy(p, val, size); /* little-endian host; size 8: val[0..1] */
        } else {
            uint32_t v[2] = {0, 0};
            memcpy(v, p, size);
            val[0] = v[0];
            if (size == 8)
                val[1] = v[1];
        }
        charge_dma(d, t, store, d->params.timing.mram_direct_bytes);
        return 1;
    }
    if (store && a - VDPU_IRAM_BASE < VDPU_IRAM_SIZE) {
        vdpu_fault(d, tid(d, t), t->pc, VDPU_FAULT_IRAM_STORE,
                   "store into IRAM: %u-byte store at 0x%08x (IRAM is read-only)", size, a);
        return 0;
    }
    vdpu_fault(d, tid(d, t), t->pc, VDPU_FAULT_BAD_ACCESS,
               "access outside WRAM/MRAM: %u-byte %s at 0x%08x (WRAM is [0x0,0x10000), MRAM is "
               "[0x08000000,0x0c000000))",
               size, what, a);
    return 0;
}

static __attribute__((noinline)) void stack_fault(vdpu_t *d, vtask_t *t, uint32_t sp)
{
    vdpu_fault(
        d, tid(d, t), t->pc, VDPU_FAULT_STACK_OVERFLOW,
        "stack overflow: tasklet %d set sp=0x%x outside its stack [0x%x,0x%x] (%u bytes; raise "
        "STACK_SIZE_DEFAULT or STACK_SIZE_TASKLET_%d)",
        tid(d, t), sp, t->stack_lo, t->stack_hi, t->stack_hi - t->stack_lo, tid(d, t));
}

/* ------------------------------------------------------ synchronisation */
/* The DPU's primitives (VDPU_SYS_ACQUIRE ... RELEASE_WAIT, abi.h): the
 * runtime builds mutexes, barriers, semaphores and handshakes from them as
 * the SDK does, so their cost is the instructions they execute, a spinning
 * acquire included. A tasklet is "stuck" when it is stopped, not booted, or
 * spins on something only another tasklet's instruction can change: an
 * atomic bit that is set, the resume of a tasklet that runs, a vmutex's WRAM
 * bit that is set. When every live tasklet is stuck nothing can ever change
 * again: that is the deadlock fault. Checked whenever a tasklet becomes stuck
 * (stop, exit, or the first failed attempt of a spin), against the live
 * state, so it is exact: no watchdog, no false alarm. (A wait written as a
 * plain loop in C is not a spin the interpreter can see; only the optional
 * instruction limit stops such a program.) */
static void stop_tasklet(vdpu_t *d, vtask_t *t)
{
    t->state = TS_BLOCKED;
    t->bkind = BK_STOP;
    t->bsince = d->now;
}

static void wake(vdpu_t *d, vtask_t *w)
{
    w->state = TS_RUN;
    w->bkind = BK_NONE;
    if (d->params.mode == VDPU_MODE_TIMED) {
        w->st.blocked_cycles += d->now - w->bsince;
        if (w->ready < d->now + 1)
            w->ready = d->now + 1;
    }
}

static int wram_byte(const vdpu_t *d, uint32_t a)
{
    return a < VDPU_WRAM_SIZE ? d->wram[a] : 0;
}

/* 1 if t cannot make progress until another tasklet acts (see above) */
static int stuck(const vdpu_t *d, const vtask_t *t)
{
    if (t->state == TS_BLOCKED || t->state == TS_WAITBOOT)
        return 1;
    if (t->state != TS_RUN)
        return 0;
    switch (t->spin) {
    case SPIN_ACQUIRE:
        return d->bits[t->spin_arg] != 0;
    case SPIN_RESUME: {
        /* its next attempt succeeds on a stopped tasklet, faults on an exited one */
        const vtask_t *x = &d->t[t->spin_arg];
        return x->state == TS_RUN;
    }
    case SPIN_VWAIT:
        return (wram_byte(d, t->spin_arg) & t->spin_mask) != 0;
    default:
        return 0;
    }
}

/* The fault: names every live tasklet, what it waits for and where. */
static void deadlock(vdpu_t *d)
{
    char buf[240];
    size_t o = 0;
    int first = -1;
    uint32_t first_pc = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < d->nr; i++) {
        const vtask_t *w = &d->t[i];
        if (w->state == TS_DONE)
            continue;
        /* a stopped tasklet's pc is past its stop; a spinning one's is its ecall */
        uint32_t pc = w->state == TS_BLOCKED ? w->pc - 1 : w->pc;
        const char *fn = vdpu_program_func_name(d->prog, VDPU_IRAM_BASE + 4u * pc);
        char what[96];
        if (w->state == TS_WAITBOOT)
            snprintf(what, sizeof what, "not booted");
        else if (w->state == TS_BLOCKED)
            snprintf(what, sizeof what, "stopped in %s", fn);
        else if (w->spin == SPIN_ACQUIRE)
            snprintf(what, sizeof what, "acquire of atomic bit %u (set by %d) in %s", w->spin_arg,
                     d->bit_taker[w->spin_arg], fn);
        else if (w->spin == SPIN_RESUME)
            snprintf(what, sizeof what, "resume of running tasklet %u in %s", w->spin_arg, fn);
        else
            snprintf(what, sizeof what, "vmutex wait on WRAM 0x%x bit 0x%x in %s", w->spin_arg,
                     w->spin_mask, fn);
        if (o < sizeof buf - 1)
            o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%u:%s", o ? ", " : "", i, what);
        if (first < 0) {
            first = (int)i;
            first_pc = pc;
        }
    }
    vdpu_fault(d, first, first_pc, VDPU_FAULT_DEADLOCK,
               "deadlock: every live tasklet is stopped or spins on what only another can change, "
               "the hardware would spin forever (%s)",
               buf);
    vdpu_describe_tasklets(d);
}

/* Nothing can run and some tasklets are stopped or not booted: nothing can
 * resume them, and on the hardware a DPU whose tasklets have all stopped has
 * finished its run (the SDK's barrier, semaphore and handshake park their
 * waiters with `stop`), so the run ends as done; stopRules=strict makes it a
 * fault, stopRules=warn (the default) notes it once per place. */
static void all_stopped(vdpu_t *d)
{
    int first = -1;
    char who[100] = "";
    size_t o = 0;
    for (unsigned i = 0; i < d->nr; i++) {
        if (d->t[i].state != TS_BLOCKED && d->t[i].state != TS_WAITBOOT)
            continue;
        if (first < 0)
            first = (int)i;
        if (o < sizeof who - 1)
            o += (size_t)snprintf(who + o, sizeof who - o, "%s%u", o ? "," : "", i);
    }
    if (first < 0)
        return;
    vdpu_describe_tasklets(d);
    if (d->params.stop_rules == VDPU_RULES_STRICT) {
        vdpu_fault(d, first, vdpu_tasklet_pc(d, (unsigned)first), VDPU_FAULT_ALL_STOPPED,
                   "every live tasklet stopped and none can resume them: tasklets %s "
                   "(stopRules=strict; the hardware ends the run here)",
                   who);
        return;
    }
    d->res->stopped_early = 1;
    if (d->params.stop_rules == VDPU_RULES_WARN &&
        vdpu_note(
            d, vdpu_tasklet_pc(d, (unsigned)first), VDPU_NOTE_STOPPED,
            "stopped tasklets: the run ended with tasklets %s stopped and nothing left to "
            "resume them, as on the hardware: their work is undone (stopRules=strict makes it "
            "a fault); tasklet %d waits",
            who, first)) {
        size_t e = strlen(d->res->notes);
        snprintf(d->res->notes + e, sizeof d->res->notes - e, "%s", d->res->detail);
    }
}

/* Called when a tasklet became stuck: faults if every live tasklet is and
 * one of them spins (on the hardware it would spin forever). */
static int check_deadlock(vdpu_t *d)
{
    int spinning = 0;
    for (unsigned i = 0; i < d->nr; i++) {
        const vtask_t *w = &d->t[i];
        if (w->state == TS_DONE)
            continue;
        if (!stuck(d, w))
            return 0;
        spinning |= w->state == TS_RUN;
    }
    /* only stopped (or unbooted) tasklets left: the schedulers end the run
     * when nothing can issue (all_stopped) */
    if (!spinning)
        return 0;
    deadlock(d);
    return 1;
}

/* The ecall did not complete: issue it again at the tasklet's next slot.
 * The first failed attempt of a spin is the moment the tasklet may have
 * become stuck. Returns 1 (the run of instructions ends here). */
static int spin_again(vdpu_t *d, vtask_t *t, uint8_t kind, uint32_t arg, uint32_t mask)
{
    t->pc--;
    if (t->spin != kind || t->spin_arg != arg || t->spin_mask != mask) {
        t->spin = kind;
        t->spin_arg = arg;
        t->spin_mask = mask;
        check_deadlock(d);
    }
    return 1;
}

static uint64_t perf_value(vdpu_t *d, uint64_t slots_now)
{
    uint64_t raw;
    if (d->perf_mode == VDPU_PERF_INSTRUCTIONS) {
        if (d->params.mode == VDPU_MODE_TIMED) /* slots executed ahead are not issued yet */
            for (unsigned i = 0; i < d->nr; i++)
                slots_now -= d->t[i].pending;
        return slots_now - d->perf_base;
    }
    if (d->perf_mode == VDPU_PERF_NOTHING)
        return d->perf_base;
    raw = d->params.mode == VDPU_MODE_TIMED ? d->now : slots_now;
    return (raw - d->perf_base) & ~(uint64_t)15;
}

/* A DMA that breaks the SDK's rules (size 8..2048 and a multiple of 8, both
 * addresses 8-aligned): a fault under dmaRules=strict, else what ldma/sdma
 * do (vdpu.h, vdpu_rules_t), counted and noted once per place. Returns 1 on
 * the fault. */
static __attribute__((noinline)) int dma_rule(vdpu_t *d, vtask_t *t, int wr, uint32_t *ma,
                                              uint32_t *wa, uint32_t *n, uint32_t pc, int size_bad)
{
    const char *fn = wr ? "mram_write" : "mram_read";
    const uint32_t hn = ((((*n >> 3) - 1u) & 0xffu) + 1u) << 3;
    if (d->params.dma_rules == VDPU_RULES_STRICT) {
        if (size_bad)
            vdpu_fault(
                d, tid(d, t), pc, VDPU_FAULT_DMA_SIZE,
                "%s: DMA size %u bytes: must be 8..2048 and a multiple of 8 (dmaRules=strict; "
                "the hardware would move %u bytes)",
                fn, *n, hn);
        else
            vdpu_fault(d, tid(d, t), pc, VDPU_FAULT_DMA_ALIGN,
                       "%s: %s address 0x%x is not 8-byte aligned (dmaRules=strict; the hardware "
                       "would use 0x%x)",
                       fn, (*wa & 7) ? "WRAM" : "MRAM", (*wa & 7) ? *wa : *ma,
                       ((*wa & 7) ? *wa : *ma) & ~7u);
        return 1;
    }
    d->res->dma_rule_hits++;
    if (d->params.dma_rules == VDPU_RULES_WARN) {
        if (size_bad)
            vdpu_note(d, pc, VDPU_NOTE_DMA_SIZE,
                      "DMA size rule (8..2048, a multiple of 8): %s of %u bytes moved %u bytes, as "
                      "the hardware does (dmaRules=strict makes it a fault)",
                      fn, *n, hn);
        if ((*wa | *ma) & 7)
            vdpu_note(d, pc, VDPU_NOTE_DMA_ALIGN,
                      "DMA alignment rule (8-byte addresses): %s at WRAM 0x%x / MRAM 0x%x used "
                      "0x%x / 0x%x, as the hardware does (dmaRules=strict makes it a fault)",
                      fn, *wa, *ma, *wa & ~7u, *ma & ~7u);
    }
    *n = hn;
    *wa &= ~7u;
    *ma &= ~7u;
    return 0;
}

/* One DMA (mram_read/mram_write: the ecall service or the ldma/sdma
 * instruction at instruction index pc). Returns 0 when done, 1 on a fault. */
static __attribute__((noinline)) int do_dma(vdpu_t *d, vtask_t *t, int wr, uint32_t ma, uint32_t wa,
                                            uint32_t n, uint32_t pc)
{
    int me = tid(d, t);
    const char *fn = wr ? "mram_write" : "mram_read";
    const int size_bad = n < VDPU_DMA_MIN || n > VDPU_DMA_MAX || (n & 7);
    if (UNLIKELY(size_bad || ((wa | ma) & 7)))
        if (dma_rule(d, t, wr, &ma, &wa, &n, pc, size_bad))
            return 1;
    uint32_t mo = ma & (VDPU_MRAM_SIZE - 1);
    if (wa > VDPU_WRAM_SIZE - n || mo > VDPU_MRAM_SIZE - n) {
        vdpu_fault(d, me, pc, VDPU_FAULT_DMA_RANGE,
                   "%s: %u bytes at WRAM 0x%x / MRAM offset 0x%x run past the end of WRAM (64 KiB) "
                   "or MRAM (64 MiB)",
                   fn, n, wa, mo);
        return 1;
    }
    if (wr)
        memcpy(d->mram + mo, d->wram + wa, n);
    else
        memcpy(d->wram + wa, d->mram + mo, n);
    charge_dma(d, t, wr, n);
    return 0;
}

/* Runtime services. t->pc points at the ecall. Returns 0 to continue with
 * the next instruction, 1 if the tasklet stopped (blocked, exited, fault). */
static __attribute__((noinline)) int do_ecall(vdpu_t *d, vtask_t *t, uint64_t slots_now)
{
    uint32_t *R = t->r;
    uint32_t nr = R[17], a0 = R[10], a1 = R[11], a2 = R[12];
    int me = tid(d, t);
    t->pc++; /* resume after the ecall */
    switch (nr) {
    case VDPU_SYS_EXIT:
        t->state = TS_DONE;
        t->st.cycles = d->now + 1;
        check_deadlock(d);
        return 1;
    case VDPU_SYS_FAULT: {
        char m[200];
        size_t k = 0;
        if (a1 && a1 < VDPU_WRAM_SIZE)
            for (; k + 1 < sizeof m && a1 + k < VDPU_WRAM_SIZE && d->wram[a1 + k]; k++)
                m[k] = (char)d->wram[a1 + k];
        m[k] = 0;
        vdpu_fault(d, me, t->pc - 1, (int)a0, "%s%s%s", vdpu_fault_name((int)a0), k ? ": " : "", m);
        return 1;
    }
    case VDPU_SYS_MRAM_READ:
    case VDPU_SYS_MRAM_WRITE: {
        int wr = nr == VDPU_SYS_MRAM_WRITE;
        return do_dma(d, t, wr, wr ? a1 : a0, wr ? a0 : a1, a2, t->pc - 1);
    }
    case VDPU_SYS_ACQUIRE:
    case VDPU_SYS_ACQUIRE_TRY: {
        uint32_t bit = a0 & (VDPU_ATOMIC_BITS - 1u);
        if (d->bits[bit]) {
            if (nr == VDPU_SYS_ACQUIRE)
                return spin_again(d, t, SPIN_ACQUIRE, bit, 0);
            R[10] = 0;
            return 0;
        }
        d->bits[bit] = 1;
        d->bit_taker[bit] = (int8_t)me;
        t->spin = SPIN_NONE;
        if (nr == VDPU_SYS_ACQUIRE_TRY)
            R[10] = 1;
        return 0;
    }
    case VDPU_SYS_RELEASE:
        d->bits[a0 & (VDPU_ATOMIC_BITS - 1u)] = 0;
        return 0;
    case VDPU_SYS_STOP:
        stop_tasklet(d, t);
        check_deadlock(d);
        return 1;
    case VDPU_SYS_RESUME: {
        if (a0 >= d->nr) {
            vdpu_fault(d, me, t->pc - 1, VDPU_FAULT_BAD_ECALL,
                       "resume(%u): no such tasklet (NR_TASKLETS=%u)", a0, d->nr);
            return 1;
        }
        vtask_t *x = &d->t[a0];
        if (x->state == TS_DONE) {
            vdpu_fault(d, me, t->pc - 1, VDPU_FAULT_BAD_ECALL,
                       "resume(%u): that tasklet has exited", a0);
            return 1;
        }
        if (x->state == TS_RUN)
            return spin_again(d, t, SPIN_RESUME, a0, 0);
        /* stopped, or not booted yet (booting is a resume) */
        wake(d, x);
        t->spin = SPIN_NONE;
        return 0;
    }
    case VDPU_SYS_RELEASE_WAIT: {
        if (a1 >= VDPU_WRAM_SIZE || a2 == 0 || a2 > 0xffu) {
            vdpu_fault(d, me, t->pc - 1, VDPU_FAULT_BAD_ECALL,
                       "vmutex wait: 0x%x is not a WRAM byte or mask 0x%x not in 1..0xff", a1, a2);
            return 1;
        }
        if (t->spin == SPIN_VWAIT && t->spin_arg == a1 && t->spin_mask == a2) {
            /* a retry: the bit was released by the first attempt, and the
             * SDK's loop around it is charged (its first instruction is this
             * ecall's own slot) */
            t->svc_slots += VDPU_VMUTEX_RETRY_SLOTS - 1u;
            t->st.slots += VDPU_VMUTEX_RETRY_SLOTS - 1u;
            d->total_slots += VDPU_VMUTEX_RETRY_SLOTS - 1u;
        } else {
            d->bits[a0 & (VDPU_ATOMIC_BITS - 1u)] = 0;
        }
        if (d->wram[a1] & a2)
            return spin_again(d, t, SPIN_VWAIT, a1, a2);
        t->spin = SPIN_NONE;
        return 0;
    }
    case VDPU_SYS_PERF_CONFIG: {
        if (a0 > VDPU_PERF_NOTHING) {
            vdpu_fault(d, me, t->pc - 1, VDPU_FAULT_PERFCOUNTER,
                       "perfcounter_config(%u): configuration not supported on v1A", a0);
            return 1;
        }
        uint64_t v = perf_value(d, slots_now);
        int mode = a0 == VDPU_PERF_SAME ? d->perf_mode : (int)a0;
        if (mode == VDPU_PERF_NOTHING) {
            d->perf_mode = mode;
            d->perf_base = a1 ? 0 : v; /* frozen value */
        } else if (a1 || mode != d->perf_mode) {
            uint64_t raw = (mode == VDPU_PERF_CYCLES && d->params.mode == VDPU_MODE_TIMED)
                               ? d->now
                               : slots_now;
            uint64_t keep = a1 ? 0 : v;
            d->perf_mode = mode;
            d->perf_base = raw - keep;
        }
        R[10] = (uint32_t)v;
        R[11] = (uint32_t)(v >> 32);
        return 0;
    }
    case VDPU_SYS_PERF_GET: {
        uint64_t v = perf_value(d, slots_now);
        R[10] = (uint32_t)v;
        R[11] = (uint32_t)(v >> 32);
        return 0;
    }
    case VDPU_SYS_YIELD:
        return 0;
    case VDPU_SYS_BOOT:
        if (me == 0)
            for (unsigned i = 1; i < d->nr; i++)
                if (d->t[i].state == TS_WAITBOOT) {
                    d->t[i].state = TS_RUN;
                    d->t[i].ready = d->now + 1;
                }
        return 0;
    default:
        vdpu_fault(d, me, t->pc - 1, VDPU_FAULT_BAD_ECALL, "unknown runtime service %u (a7)", nr);
        return 1;
    }
}

static __attribute__((noinline)) void insn_fault(vdpu_t *d, vtask_t *t, const vinsn_t *I)
{
    if (I->op == OP_BADJUMP)
        vdpu_fault(d, tid(d, t), t->pc, VDPU_FAULT_BAD_PC,
                   "jump/branch target or fall-through outside .text (IRAM holds %u instructions)",
                   d->prog->n_insns);
    else if (I->op == OP_EBREAK)
        vdpu_fault(d, tid(d, t), t->pc, VDPU_FAULT_HALT, "halt: ebreak/trap instruction");
    else
        vdpu_fault(
            d, tid(d, t), t->pc, VDPU_FAULT_ILLEGAL_INSN,
            "illegal instruction 0x%08x (not RV32IM+Zba+Zbb, or unsupported CSR/load into sp)",
            (uint32_t)I->imm);
}

static __attribute__((noinline)) int bad_jalr(vdpu_t *d, vtask_t *t, uint32_t target)
{
    vdpu_fault(d, tid(d, t), t->pc, VDPU_FAULT_BAD_PC,
               "indirect jump to 0x%08x outside .text [0x80000000,0x%08x)", target,
               VDPU_IRAM_BASE + 4u * d->prog->n_insns);
    return 1;
}

static __attribute__((noinline)) void div_fault(vdpu_t *d, vtask_t *t)
{
    vdpu_fault(d, tid(d, t), t->pc, VDPU_FAULT_DIV_ZERO, "division by zero (integer div/rem by 0)");
}

/* Dispatch: with GCC/clang, "threaded" dispatch through a table of label
 * addresses (computed goto): every handler ends with its own indirect jump,
 * which the host's branch predictor learns per handler instead of through
 * one shared switch jump, and no bounds check on the op. Other compilers get
 * the same handlers as the cases of a switch. */
#if defined(__GNUC__) && !defined(VDPU_NO_THREADED)
#define VDPU_THREADED 1
#else
#define VDPU_THREADED 0
#endif
/* GCC refuses to inline or clone a function that keeps label addresses in
 * a static table (they would belong to one copy); clang has no noclone */
#if defined(__GNUC__) && !defined(__clang__)
#define VDPU_ONE_COPY __attribute__((noinline, noclone))
#else
#define VDPU_ONE_COPY __attribute__((noinline))
#endif

/* Execute up to `budget` (>= 1) instructions of tasklet t. Returns the
 * number of instructions executed; *stopped = 1 if the tasklet stopped
 * (blocked, exited, faulted) rather than exhausting the budget.
 *
 * Budget: instead of a check per instruction, the budget is charged once per
 * straight-line run (vinsn_t.run, computed at decode time) when the run is
 * entered, i.e. at the start and after every branch or jump. A run that does
 * not fit in what is left is executed in "stepping" mode, one charge and one
 * check per instruction, so exactly `budget` instructions execute (budget 1 =
 * one instruction, as the timed scheduler needs). When a tasklet stops inside
 * a run, the charged but not executed rest of the run is refunded.
 * noinline (and noclone): the label table must belong to one copy. */
/* Dense one-line handlers, one per op: keep the layout. */
/* clang-format off */
static VDPU_ONE_COPY uint32_t
exec_core(vdpu_t *d, vtask_t *t, uint32_t budget, uint32_t *extra_slots, int *stopped)
{
    const vinsn_t *code = d->code;
    const uint32_t n_insns = d->prog->n_insns;
    uint32_t *R = t->r;
    uint8_t *W = d->wram;
    uint32_t pc = t->pc;
    uint32_t left = budget; /* not yet charged */
    uint32_t extra = 0;
    const uint32_t mul_x = d->params.timing.mul_slots - 1;
    const uint32_t mulh_x = d->params.timing.mulh_slots - 1;
    const uint32_t div_x = d->params.timing.div_slots - 1;
    int stop = 0;
    const vinsn_t *I;
    const struct vdpu_jit *jit = d->jit;
    const void *const *jtab = jit ? vdpu_jit_entries(jit) : NULL;
    const void *jent;

#if VDPU_THREADED
#define VDPU_HANDLER_ADDR(name) &&L_OP_##name,
#define VDPU_STEP_ADDR(name) &&step,
    static const void *const handlers[OP__COUNT] = { VDPU_OPS(VDPU_HANDLER_ADDR) };
    static const void *const step_tbl[OP__COUNT] = { VDPU_OPS(VDPU_STEP_ADDR) };
#undef VDPU_HANDLER_ADDR
#undef VDPU_STEP_ADDR
    const void *const *disp = handlers; /* step_tbl while stepping */
#define CASE(op) L_##op:
#define DISPATCH() do { I = &code[pc]; goto *disp[I->op]; } while (0)
#define SET_STEPPING(s) (disp = (s) ? step_tbl : handlers)
#define STEPPING (disp == step_tbl)
#else
    int stepping = 0;
#define CASE(op) case op:
#define DISPATCH() goto dispatch
#define SET_STEPPING(s) (stepping = (s))
#define STEPPING stepping
#endif
/* enter the run starting at pc: charge it whole, or step through it; a run
 * that fits and has a translation runs translated (jit.h: it returns where
 * the interpreter enters the rest, which it does without the translation,
 * so the instruction there executes here) */
#define ENTER() do { \
        uint32_t run_ = code[pc].run; \
        if (LIKELY(run_ <= left)) { \
            if (jtab && (jent = jtab[pc]) != NULL) goto translated; \
            left -= run_; SET_STEPPING(0); } \
        else SET_STEPPING(1); \
        DISPATCH(); } while (0)
#define ENTER_INTERPRETED() do { \
        uint32_t run_ = code[pc].run; \
        if (LIKELY(run_ <= left)) { left -= run_; SET_STEPPING(0); } \
        else SET_STEPPING(1); \
        DISPATCH(); } while (0)
#define NEXT do { pc++; DISPATCH(); } while (0)
#define BRANCH(cond) do { pc = (cond) ? (uint32_t)I->imm : pc + 1; ENTER(); } while (0)
#define RRI(op) CASE(op) R[I->rd] = alu(op, R[I->rs1], (uint32_t)I->imm); NEXT;
#define RRR(op) CASE(op) R[I->rd] = alu(op, R[I->rs1], R[I->rs2]); NEXT;
/* the instruction at pc did not execute: refund it and the rest of its run */
#define STOP do { left += STEPPING ? code[pc].cost : code[pc].run; t->pc = pc; stop = 1; goto out; } while (0)
#define LOAD(op, size, mask, T, CONV) \
    CASE(op) { \
        uint32_t a = R[I->rs1] + (uint32_t)I->imm; \
        if (LIKELY((a & (mask)) == 0)) { T v; memcpy(&v, W + a, size); R[I->rd] = CONV; } \
        else { uint32_t raw = 0; t->pc = pc; if (!slow_access(d, t, a, size, 0, &raw)) STOP; \
               T v = (T)raw; R[I->rd] = CONV; } \
        NEXT; }
#define STORE(op, size, mask, T) \
    CASE(op) { \
        uint32_t a = R[I->rs1] + (uint32_t)I->imm; \
        if (LIKELY((a & (mask)) == 0)) { T v = (T)R[I->rs2]; memcpy(W + a, &v, size); } \
        else { uint32_t v = R[I->rs2]; t->pc = pc; if (!slow_access(d, t, a, size, 1, &v)) STOP; } \
        NEXT; }

    ENTER();

translated:
    d->res->jit_entries++;
    {
        uint32_t slots_;
        pc = vdpu_jit_run(jit, jent, t, W, &left, &slots_);
    }
    ENTER_INTERPRETED();

#if VDPU_THREADED
step: /* stepping mode: charge and check per instruction (a folded
       instruction, cost 0, always goes with the one before it) */
    if (left < I->cost)
        goto budget_out;
    left -= I->cost;
    goto *handlers[I->op];
#else
dispatch:
    I = &code[pc];
    if (stepping) {
        if (left < I->cost)
            goto budget_out;
        left -= I->cost;
    }
    switch (I->op) {
#endif
    RRI(OP_LI)
    RRI(OP_ADDI) RRI(OP_SLTI) RRI(OP_SLTIU) RRI(OP_XORI) RRI(OP_ORI) RRI(OP_ANDI)
    RRI(OP_SLLI) RRI(OP_SRLI) RRI(OP_SRAI) RRI(OP_RORI)
    RRI(OP_CLZ) RRI(OP_CTZ) RRI(OP_CPOP) RRI(OP_SEXTB) RRI(OP_SEXTH) RRI(OP_ZEXTH)
    RRI(OP_ORCB) RRI(OP_REV8)
    RRR(OP_ADD) RRR(OP_SUB) RRR(OP_SLL) RRR(OP_SLT) RRR(OP_SLTU) RRR(OP_XOR)
    RRR(OP_SRL) RRR(OP_SRA) RRR(OP_OR) RRR(OP_AND)
    RRR(OP_ANDN) RRR(OP_ORN) RRR(OP_XNOR) RRR(OP_MAX) RRR(OP_MAXU) RRR(OP_MIN)
    RRR(OP_MINU) RRR(OP_ROL) RRR(OP_ROR) RRR(OP_SH1ADD) RRR(OP_SH2ADD) RRR(OP_SH3ADD)
    CASE(OP_MUL) R[I->rd] = R[I->rs1] * R[I->rs2]; extra += mul_x; NEXT;
    CASE(OP_MULH) R[I->rd] = alu(OP_MULH, R[I->rs1], R[I->rs2]); extra += mulh_x; NEXT;
    CASE(OP_MULHSU) R[I->rd] = alu(OP_MULHSU, R[I->rs1], R[I->rs2]); extra += mulh_x; NEXT;
    CASE(OP_MULHU) R[I->rd] = alu(OP_MULHU, R[I->rs1], R[I->rs2]); extra += mulh_x; NEXT;
    CASE(OP_DIV) CASE(OP_REM) {
        int32_t a = (int32_t)R[I->rs1], b = (int32_t)R[I->rs2];
        if (UNLIKELY(b == 0)) { t->pc = pc; div_fault(d, t); STOP; }
        int32_t q, r;
        if (UNLIKELY(a == INT32_MIN && b == -1)) { q = INT32_MIN; r = 0; }
        else { q = a / b; r = a % b; }
        R[I->rd] = (uint32_t)(I->op == OP_DIV ? q : r);
        extra += div_x;
        NEXT;
    }
    CASE(OP_DIVU) CASE(OP_REMU) {
        uint32_t a = R[I->rs1], b = R[I->rs2];
        if (UNLIKELY(b == 0)) { t->pc = pc; div_fault(d, t); STOP; }
        R[I->rd] = I->op == OP_DIVU ? a / b : a % b;
        extra += div_x;
        NEXT;
    }
    CASE(OP_MUL8) R[I->rd] = mul8((uint32_t)I->imm, R[I->rs1], R[I->rs2]); NEXT;
    CASE(OP_LSL_ADD) R[I->rd] = R[I->rs1] + (R[I->rs2] << I->imm); NEXT;
    CASE(OP_LSL_SUB) R[I->rd] = R[I->rs1] - (R[I->rs2] << I->imm); NEXT;
    CASE(OP_LSR_ADD) R[I->rd] = R[I->rs1] + (R[I->rs2] >> I->imm); NEXT;
    CASE(OP_ROL_ADD) R[I->rd] = R[I->rs1] + rotr(R[I->rs2], 32u - (uint32_t)I->imm); NEXT;
    CASE(OP_ADD_C) CASE(OP_ADDC) CASE(OP_SUB_C) CASE(OP_SUBC) {
        uint64_t s = carry_op(I->op, R[I->rs1], R[I->rs2], t->carry);
        t->carry = (uint32_t)(s >> 32); R[I->rd] = (uint32_t)s;
        NEXT;
    }
    CASE(OP_MUL_STEP) {
        uint32_t e = mul_step(R + I->rd, R[I->rs1], I->rs2);
        if (I->imm < 0) NEXT;
        pc = e == 0 ? (uint32_t)I->imm : pc + 1;
        ENTER();
    }
    CASE(OP_DIV_STEP) div_step(R + I->rd, R[I->rs1], I->rs2); NEXT;
    CASE(OP_LD) {
        uint32_t a = R[I->rs1] + (uint32_t)I->imm, v[2];
        if (LIKELY((a & 0xffff0007u) == 0)) memcpy(v, W + a, 8);
        else { t->pc = pc; if (!slow_access(d, t, a, 8, 0, v)) STOP; }
        R[I->rd] = v[0]; R[I->rd + 1] = v[1];
        NEXT;
    }
    CASE(OP_SD) {
        uint32_t a = R[I->rs1] + (uint32_t)I->imm, v[2] = {R[I->rs2], R[I->rs2 + 1]};
        if (LIKELY((a & 0xffff0007u) == 0)) memcpy(W + a, v, 8);
        else { t->pc = pc; if (!slow_access(d, t, a, 8, 1, v)) STOP; }
        NEXT;
    }
    CASE(OP_LDMA) CASE(OP_SDMA) CASE(OP_LDMA_R) CASE(OP_SDMA_R) {
        int wr = I->op == OP_SDMA || I->op == OP_SDMA_R;
        uint32_t n = (I->op == OP_LDMA_R || I->op == OP_SDMA_R) ? R[I->imm] : (uint32_t)I->imm;
        t->pc = pc;
        if (do_dma(d, t, wr, R[I->rs2], R[I->rs1], n, pc)) STOP;
        NEXT;
    }
    CASE(OP_ADDI_SP) {
        uint32_t v = R[I->rs1] + (uint32_t)I->imm;
        if (UNLIKELY(v - t->stack_lo > t->stack_hi - t->stack_lo)) { t->pc = pc; stack_fault(d, t, v); STOP; }
        R[2] = v;
        NEXT;
    }
    CASE(OP_SPCHK_I) CASE(OP_SPCHK_R) {
        uint32_t v = I->op == OP_SPCHK_I ? alu(I->rs2, R[I->rs1], (uint32_t)I->imm)
                                         : alu(I->imm, R[I->rs1], R[I->rs2]);
        if (I->op == OP_SPCHK_R && (I->imm == OP_DIV || I->imm == OP_DIVU || I->imm == OP_REM || I->imm == OP_REMU)) {
            t->pc = pc; insn_fault(d, t, I); STOP;
        }
        if (UNLIKELY(v - t->stack_lo > t->stack_hi - t->stack_lo)) { t->pc = pc; stack_fault(d, t, v); STOP; }
        R[2] = v;
        NEXT;
    }
    LOAD(OP_LW, 4, 0xffff0003u, uint32_t, v)
    LOAD(OP_LBU, 1, 0xffff0000u, uint8_t, (uint32_t)v)
    LOAD(OP_LB, 1, 0xffff0000u, int8_t, (uint32_t)(int32_t)v)
    LOAD(OP_LHU, 2, 0xffff0001u, uint16_t, (uint32_t)v)
    LOAD(OP_LH, 2, 0xffff0001u, int16_t, (uint32_t)(int32_t)v)
    STORE(OP_SW, 4, 0xffff0003u, uint32_t)
    STORE(OP_SH, 2, 0xffff0001u, uint16_t)
    STORE(OP_SB, 1, 0xffff0000u, uint8_t)
    CASE(OP_BEQ) BRANCH(R[I->rs1] == R[I->rs2]);
    CASE(OP_BNE) BRANCH(R[I->rs1] != R[I->rs2]);
    CASE(OP_BLT) BRANCH((int32_t)R[I->rs1] < (int32_t)R[I->rs2]);
    CASE(OP_BGE) BRANCH((int32_t)R[I->rs1] >= (int32_t)R[I->rs2]);
    CASE(OP_BLTU) BRANCH(R[I->rs1] < R[I->rs2]);
    CASE(OP_BGEU) BRANCH(R[I->rs1] >= R[I->rs2]);
    CASE(OP_JAL) R[I->rd] = VDPU_IRAM_BASE + 4u * (pc + 1); pc = (uint32_t)I->imm; ENTER();
    CASE(OP_JALR) {
        uint32_t tgt = (R[I->rs1] + (uint32_t)I->imm) & ~1u;
        uint32_t idx = (tgt - VDPU_IRAM_BASE) >> 2;
        if (UNLIKELY((tgt & 3) || tgt < VDPU_IRAM_BASE || idx >= n_insns)) {
            t->pc = pc; bad_jalr(d, t, tgt); STOP;
        }
        R[I->rd] = VDPU_IRAM_BASE + 4u * (pc + 1);
        pc = idx;
        ENTER();
    }
    CASE(OP_NOP) NEXT;
    CASE(OP_HARTID) R[I->rd] = (uint32_t)tid(d, t); NEXT;
    CASE(OP_ECALL) {
        /* not an end of run: executed so far = charged minus the rest of
         * the run after this ecall (nothing while stepping) */
        uint32_t after = STEPPING ? 0u : (uint32_t)code[pc].run - code[pc].cost;
        uint32_t done = budget - left - after;
        t->pc = pc;
        if (d->params.mode != VDPU_MODE_TIMED)
            d->now = d->total_slots + done + extra;
        int s = do_ecall(d, t, d->total_slots + done + extra);
        if (s) { left += after; stop = 1; goto out; }
        pc = t->pc;
        DISPATCH();
    }
    CASE(OP_ILLEGAL) CASE(OP_BADJUMP) CASE(OP_EBREAK)
        t->pc = pc;
        insn_fault(d, t, I);
        STOP;
#if !VDPU_THREADED
    default: /* not produced by the decoder */
        t->pc = pc;
        insn_fault(d, t, I);
        STOP;
    }
#endif
budget_out:
    t->pc = pc;
out:
    R[32] = 0;
    *extra_slots = extra;
    *stopped = stop;
    return budget - left;
#undef CASE
#undef DISPATCH
#undef SET_STEPPING
#undef STEPPING
#undef ENTER
#undef ENTER_INTERPRETED
#undef NEXT
#undef BRANCH
#undef RRI
#undef RRR
#undef STOP
#undef LOAD
#undef STORE
}
/* clang-format on */

/* Timed mode: after a tasklet's instruction issued, execute ahead the
 * following instructions that only touch its own registers (ALU, mul/div,
 * branches, jumps) and cannot fault; their issue slots become `pending`
 * slots the scheduler consumes later at the revolver rate. Memory accesses,
 * ecalls and anything that would fault stay "heads" executed at their exact
 * issue time, so the interleaving of visible effects is identical to
 * issuing every instruction separately. Returns slots; *ninsn = insns. */
/* Dense one-line handlers, one per op: keep the layout. */
/* clang-format off */
static inline __attribute__((always_inline)) uint32_t
runahead(vdpu_t *d, vtask_t *t, uint32_t cap, uint32_t *ninsn)
{
    const vinsn_t *code = d->code;
    const uint32_t n_insns = d->prog->n_insns;
    uint32_t *R = t->r;
    uint32_t pc = t->pc, n = 0, slots = 0, ins = 0;
    const void *jent;
    if (d->jit_pure_ent && (jent = d->jit_pure_ent[pc]) != NULL) {
        /* translated (jit.h): what it ran has no extra slots, so its slots
         * are its instructions too; the loop below goes on from where it
         * stopped (usually at once: a head) */
        uint32_t left = cap;
        pc = vdpu_jit_run(d->jit_pure, jent, t, d->wram, &left, &slots);
        n = cap - left;
        ins = slots;
        d->res->jit_entries++;
        const int op = code[pc].op;
        if ((op >= OP_LB && op <= OP_SW) || op == OP_LD || op == OP_SD) /* a head: done */
            goto out;
    }
    const uint32_t mul_s = d->params.timing.mul_slots;
    const uint32_t mulh_s = d->params.timing.mulh_slots;
    const uint32_t div_s = d->params.timing.div_slots;
#define A_RRI(op) case op: R[I->rd] = alu(op, R[I->rs1], (uint32_t)I->imm); pc++; break
#define A_RRR(op) case op: R[I->rd] = alu(op, R[I->rs1], R[I->rs2]); pc++; break
    while (n < cap) {
        const vinsn_t *I = &code[pc];
        switch (I->op) {
        A_RRI(OP_LI);
        A_RRI(OP_ADDI); A_RRI(OP_SLTI); A_RRI(OP_SLTIU); A_RRI(OP_XORI); A_RRI(OP_ORI); A_RRI(OP_ANDI);
        A_RRI(OP_SLLI); A_RRI(OP_SRLI); A_RRI(OP_SRAI); A_RRI(OP_RORI);
        A_RRI(OP_CLZ); A_RRI(OP_CTZ); A_RRI(OP_CPOP); A_RRI(OP_SEXTB); A_RRI(OP_SEXTH); A_RRI(OP_ZEXTH);
        A_RRI(OP_ORCB); A_RRI(OP_REV8);
        A_RRR(OP_ADD); A_RRR(OP_SUB); A_RRR(OP_SLL); A_RRR(OP_SLT); A_RRR(OP_SLTU); A_RRR(OP_XOR);
        A_RRR(OP_SRL); A_RRR(OP_SRA); A_RRR(OP_OR); A_RRR(OP_AND);
        A_RRR(OP_ANDN); A_RRR(OP_ORN); A_RRR(OP_XNOR); A_RRR(OP_MAX); A_RRR(OP_MAXU); A_RRR(OP_MIN);
        A_RRR(OP_MINU); A_RRR(OP_ROL); A_RRR(OP_ROR); A_RRR(OP_SH1ADD); A_RRR(OP_SH2ADD); A_RRR(OP_SH3ADD);
        case OP_MUL: R[I->rd] = R[I->rs1] * R[I->rs2]; pc++; slots += mul_s - 1; break;
        case OP_MULH: case OP_MULHSU: case OP_MULHU:
            R[I->rd] = alu(I->op, R[I->rs1], R[I->rs2]); pc++; slots += mulh_s - 1; break;
        case OP_MUL8: R[I->rd] = mul8((uint32_t)I->imm, R[I->rs1], R[I->rs2]); pc++; break;
        case OP_LSL_ADD: R[I->rd] = R[I->rs1] + (R[I->rs2] << I->imm); pc++; break;
        case OP_LSL_SUB: R[I->rd] = R[I->rs1] - (R[I->rs2] << I->imm); pc++; break;
        case OP_LSR_ADD: R[I->rd] = R[I->rs1] + (R[I->rs2] >> I->imm); pc++; break;
        case OP_ROL_ADD: R[I->rd] = R[I->rs1] + rotr(R[I->rs2], 32u - (uint32_t)I->imm); pc++; break;
        case OP_ADD_C: case OP_ADDC: case OP_SUB_C: case OP_SUBC: {
            uint64_t s = carry_op(I->op, R[I->rs1], R[I->rs2], t->carry);
            t->carry = (uint32_t)(s >> 32); R[I->rd] = (uint32_t)s; pc++; break;
        }
        case OP_MUL_STEP: {
            uint32_t e = mul_step(R + I->rd, R[I->rs1], I->rs2);
            pc = (I->imm >= 0 && e == 0) ? (uint32_t)I->imm : pc + 1; break;
        }
        case OP_DIV_STEP: div_step(R + I->rd, R[I->rs1], I->rs2); pc++; break;
        case OP_DIV: case OP_REM: {
            int32_t a = (int32_t)R[I->rs1], b = (int32_t)R[I->rs2];
            if (b == 0)
                goto out;
            int32_t q, r;
            if (a == INT32_MIN && b == -1) { q = INT32_MIN; r = 0; }
            else { q = a / b; r = a % b; }
            R[I->rd] = (uint32_t)(I->op == OP_DIV ? q : r);
            pc++; slots += div_s - 1; break;
        }
        case OP_DIVU: case OP_REMU: {
            uint32_t a = R[I->rs1], b = R[I->rs2];
            if (b == 0)
                goto out;
            R[I->rd] = I->op == OP_DIVU ? a / b : a % b;
            pc++; slots += div_s - 1; break;
        }
        case OP_ADDI_SP: {
            uint32_t v = R[I->rs1] + (uint32_t)I->imm;
            if (v - t->stack_lo > t->stack_hi - t->stack_lo)
                goto out;
            R[2] = v; pc++; break;
        }
        case OP_BEQ: pc = R[I->rs1] == R[I->rs2] ? (uint32_t)I->imm : pc + 1; break;
        case OP_BNE: pc = R[I->rs1] != R[I->rs2] ? (uint32_t)I->imm : pc + 1; break;
        case OP_BLT: pc = (int32_t)R[I->rs1] < (int32_t)R[I->rs2] ? (uint32_t)I->imm : pc + 1; break;
        case OP_BGE: pc = (int32_t)R[I->rs1] >= (int32_t)R[I->rs2] ? (uint32_t)I->imm : pc + 1; break;
        case OP_BLTU: pc = R[I->rs1] < R[I->rs2] ? (uint32_t)I->imm : pc + 1; break;
        case OP_BGEU: pc = R[I->rs1] >= R[I->rs2] ? (uint32_t)I->imm : pc + 1; break;
        case OP_JAL: R[I->rd] = VDPU_IRAM_BASE + 4u * (pc + 1); pc = (uint32_t)I->imm; break;
        case OP_JALR: {
            uint32_t tgt = (R[I->rs1] + (uint32_t)I->imm) & ~1u;
            uint32_t idx = (tgt - VDPU_IRAM_BASE) >> 2;
            if ((tgt & 3) || tgt < VDPU_IRAM_BASE || idx >= n_insns)
                goto out;
            R[I->rd] = VDPU_IRAM_BASE + 4u * (pc + 1);
            pc = idx; break;
        }
        case OP_NOP: pc++; break;
        case OP_HARTID: R[I->rd] = (uint32_t)tid(d, t); pc++; break;
        default:
            goto out;
        }
        /* I executed: its own slots (0 when folded) plus the extra ones */
        slots += I->cost;
        ins += I->cost;
        n++;
    }
out:
#undef A_RRI
#undef A_RRR
    R[32] = 0;
    t->pc = pc;
    *ninsn = ins;
    return slots;
}
/* clang-format on */

static void account(vdpu_t *d, vtask_t *t, uint32_t n, uint32_t extra)
{
    t->st.instructions += n;
    t->st.slots += (uint64_t)n + extra;
    d->res->instructions += n;
    d->total_slots += (uint64_t)n + extra;
}

/* t: the tasklet that issued last. The fault names it and its pc (the next
 * instruction it would execute), which is inside the code that ran away;
 * naming no tasklet would report pc index 0, i.e. 0x80000000 (the entry). */
static int check_watchdog(vdpu_t *d, const vtask_t *t)
{
    const int tk = t ? (int)(t - d->t) : -1;
    const uint32_t pc = t ? t->pc : 0;
    if (d->params.max_instructions && d->res->instructions > d->params.max_instructions) {
        vdpu_fault(d, tk, pc, VDPU_FAULT_INSN_LIMIT,
                   "instruction limit of %llu exceeded (watchdog, profile key maxInstructions)",
                   (unsigned long long)d->params.max_instructions);
        vdpu_describe_tasklets(d);
        return 1;
    }
    /* modeled cycles; FAST mode has none, its issue slots are a lower bound */
    const uint64_t c = d->params.mode == VDPU_MODE_TIMED ? d->now : d->total_slots;
    if (d->params.max_cycles && c > d->params.max_cycles) {
        vdpu_fault(d, tk, pc, VDPU_FAULT_CYCLE_LIMIT,
                   "cycle limit of %llu exceeded (watchdog: the DPU would still be running on the "
                   "hardware; profile key maxCycles raises the limit, maxCycles=0 lifts it)",
                   (unsigned long long)d->params.max_cycles);
        vdpu_describe_tasklets(d);
        return 1;
    }
    return 0;
}

static void fast_turn_slow(vdpu_t *d, vtask_t *t, uint32_t q);

static void run_fast(vdpu_t *d)
{
    const uint32_t q = d->params.fast_quantum;
    for (;;) {
        int any = 0;
        vtask_t *last = NULL; /* the last tasklet of the round still running */
        for (unsigned i = 0; i < d->nr && !d->faulted; i++) {
            vtask_t *t = &d->t[i];
            if (t->state != TS_RUN)
                continue;
            any = 1;
            if (UNLIKELY(d->slow)) {
                fast_turn_slow(d, t, q);
            } else {
                uint32_t extra;
                int stopped;
                uint32_t n = exec_core(d, t, q, &extra, &stopped);
                account(d, t, n, extra);
            }
            t->svc_slots = 0; /* untimed: the slots are counted, nothing to schedule */
            if (t->state != TS_DONE)
                last = t;
        }
        if (d->faulted || check_watchdog(d, last))
            return;
        if (!any) {
            all_stopped(d);
            return;
        }
    }
}

/* One instruction of tasklet t with the profiler and the gdb stub's hooks
 * around it (for issue_head_slow and fast_turn_slow): gdb may stop before
 * it, the profiler attributes its slots, DMAs and spins; returns the
 * instructions run (exec_core's n, accounted). */
static uint32_t observed_step(vdpu_t *d, vtask_t *t, uint32_t *extra, int *stopped)
{
    const uint32_t pc0 = t->pc;
    if (d->dbg)
        vdpu_gdb_before(d, t, pc0);
    const vinsn_t *I = &d->code[pc0];
    const int wr = vdpu_prof_is_write(I, t);
    const uint64_t dn = d->res->dma_count, db = d->res->dma_bytes;
    if (d->prof)
        vdpu_prof_head(d, t, pc0);
    if (d->dbg)
        vdpu_gdb_access(d, t, pc0);
    uint32_t n = exec_core(d, t, 1, extra, stopped);
    account(d, t, n, *extra);
    if (d->prof) {
        vdpu_prof_insn(d, t, pc0, n, n + *extra + t->svc_slots, 1);
        if (d->res->dma_count != dn)
            vdpu_prof_dma(d, pc0, d->res->dma_count - dn, d->res->dma_bytes - db, wr);
        if (I->op == OP_ECALL && !d->faulted && t->state == TS_RUN && t->pc == pc0)
            vdpu_prof_spin(d, t, n + *extra + t->svc_slots);
    }
    return n;
}

/* issue_head with the profiler (vprof.h) or the gdb stub (gdbstub.h) on:
 * the same instructions in the same order, the runahead one instruction at
 * a time so that each is attributed and may stop in gdb; the scheduler
 * state it leaves is issue_head's. */
static __attribute__((noinline)) void issue_head_slow(vdpu_t *d, vtask_t *t, uint64_t now,
                                                      uint32_t *extra_out)
{
    d->now = now;
    uint32_t extra = 0;
    int stopped = 0;
    const uint32_t pc0 = t->pc;
    observed_step(d, t, &extra, &stopped);
    if (d->faulted) {
        if (d->dbg)
            vdpu_gdb_fault(d);
        return;
    }
    if (d->dbg)
        vdpu_gdb_after(d, t);
    /* runahead(.., 64, ..) is 64 runs of runahead(.., 1, ..) */
    if (!d->dbg) { /* the profiler alone: accounted once, as issue_head does */
        uint32_t ra_ins = 0, ra_slots = 0;
        for (unsigned i = 0; !stopped && i < 64; i++) {
            uint32_t pc = t->pc, ins;
            uint32_t s = runahead(d, t, 1, &ins);
            if (!s && !ins && t->pc == pc)
                break;
            ra_ins += ins;
            ra_slots += s;
            vdpu_prof_insn(d, t, pc, ins, s, 0);
        }
        if (ra_ins || ra_slots)
            account(d, t, ra_ins, ra_slots - ra_ins);
        extra += ra_slots;
    }
    for (unsigned i = 0; !stopped && d->dbg && i < 64; i++) {
        uint32_t pc = t->pc, ins;
        vdpu_gdb_before(d, t, pc); /* may stop: counts must be up to date */
        uint32_t s = runahead(d, t, 1, &ins);
        if (!s && !ins && t->pc == pc)
            break;
        account(d, t, ins, s - ins);
        extra += s;
        if (d->prof)
            vdpu_prof_insn(d, t, pc, ins, s, 0);
    }
    extra += t->svc_slots;
    t->svc_slots = 0;
    t->pending = extra;
    t->ready = now + d->params.timing.revolver_cycles;
    if (t->dma_done) {
        if (t->dma_done > t->ready) {
            if (d->prof)
                vdpu_prof_dma_wait(d, t, pc0, t->dma_done - t->ready);
            t->ready = t->dma_done;
        }
        t->dma_done = 0;
    }
    *extra_out = extra;
}

/* One FAST-mode turn of at most q slots with the profiler or the gdb stub
 * on: the instructions exec_core(d, t, q, ..) runs, one at a time. */
static __attribute__((noinline)) void fast_turn_slow(vdpu_t *d, vtask_t *t, uint32_t q)
{
    for (uint32_t done = 0; done < q;) {
        uint32_t extra = 0;
        int stopped = 0;
        uint32_t n = observed_step(d, t, &extra, &stopped);
        t->svc_slots = 0;
        done += n;
        if (d->faulted) {
            if (d->dbg)
                vdpu_gdb_fault(d);
            return;
        }
        if (d->dbg)
            vdpu_gdb_after(d, t);
        if (stopped || n == 0)
            return;
    }
}

/* 1 when t is the only tasklet that can issue (all others done, blocked or
 * waiting to boot). */
static int only_runnable(const vdpu_t *d, const vtask_t *t)
{
    for (unsigned i = 0; i < d->nr; i++)
        if (d->t[i].state == TS_RUN && &d->t[i] != t)
            return 0;
    return 1;
}

/* The head instruction of t at cycle `now` and the run of pure instructions
 * after it (runahead): what the timed scheduler does when a tasklet with
 * no pending slots issues. Leaves t->pending (slots it owes) and t->ready. */
static inline __attribute__((always_inline)) void issue_head(vdpu_t *d, vtask_t *t, uint64_t now,
                                                             uint32_t *extra_out)
{
    if (UNLIKELY(d->slow)) {
        issue_head_slow(d, t, now, extra_out);
        return;
    }
    d->now = now;
    uint32_t extra = 0;
    int stopped = 0;
    /* The commonest heads, a word load or store in WRAM, without the call:
     * exactly exec_core's fast path (same address check; a folded
     * instruction after it, cost 0, would go with it, so not then). */
    const vinsn_t *I = &d->code[t->pc];
    uint32_t a;
    if ((I->op == OP_LW || I->op == OP_SW) && I->cost == 1 && d->code[t->pc + 1].cost != 0 &&
        ((a = t->r[I->rs1] + (uint32_t)I->imm) & 0xffff0003u) == 0) {
        if (I->op == OP_LW)
            memcpy(&t->r[I->rd], d->wram + a, 4);
        else
            memcpy(d->wram + a, &t->r[I->rs2], 4);
        t->r[32] = 0;
        t->pc++;
        account(d, t, 1, 0);
    } else {
        uint32_t n = exec_core(d, t, 1, &extra, &stopped);
        account(d, t, n, extra);
        if (d->faulted)
            return;
    }
    if (!stopped) {
        uint32_t ra_n;
        uint32_t ra_slots = runahead(d, t, 64, &ra_n);
        if (ra_n)
            account(d, t, ra_n, ra_slots - ra_n);
        extra += ra_slots;
    }
    /* slots a service charged beyond its ecall (already accounted) */
    extra += t->svc_slots;
    t->svc_slots = 0;
    t->pending = extra;
    t->ready = now + d->params.timing.revolver_cycles;
    if (t->dma_done) {
        if (t->dma_done > t->ready)
            t->ready = t->dma_done;
        t->dma_done = 0;
    }
    *extra_out = extra;
}

/* ---------------------------------------------------- steady-state skipping
 *
 * Most of a compute kernel's cycles are pending slots: issue slots of pure
 * instructions that runahead already executed, which the scheduler hands
 * out one per cycle. In a steady state their hand-out is periodic and
 * needs no scheduling at all:
 *  - N >= revolver runnable tasklets whose ready times let each take its
 *    round-robin turn (member j of the ring after `last` ready by now + j):
 *    they issue in ring order, one per cycle, each every L = N cycles;
 *  - N < revolver runnable tasklets with distinct issue times within one
 *    revolver period: each issues exactly when ready, every L = revolver
 *    cycles (nobody else is ready in its cycle).
 * In both, member j's turns are tau_j + m*L, so its next head issues at
 * h_j = (its next turn) + pending_j * L whatever the others do. The heads
 * are then executed in time order (memory accesses, DMA and the engine keep
 * their exact order and cycles) and the pending slots are skipped. The
 * state stays steady as long as a head neither changes which tasklets run
 * (only services do: ecalls end the skipping before they issue) nor makes
 * its tasklet miss its next turn (a DMA that completes later). Anything
 * else ends the skipping, and the exact state (pending, ready, last, idle)
 * is rebuilt for the cycle-by-cycle scheduler, which then continues as if
 * it had issued every slot itself: results and cycles are identical
 * (test: vdpu_skip_identical compares both on every test program). */
#define STEADY_W 4096u /* calendar span (cycles): a head further ahead ends the skipping */
typedef struct {
    unsigned n;                         /* members */
    uint64_t L;                         /* period */
    uint64_t t0;                        /* cycle the skipping started */
    uint64_t wake;                      /* the earliest a sleeper is ready (UINT64_MAX: none) */
    uint8_t idx[VDPU_MAX_TASKLETS];     /* tasklet of member j */
    uint64_t tau0[VDPU_MAX_TASKLETS];   /* first turn in the skipping */
    uint64_t tau[VDPU_MAX_TASKLETS];    /* first turn after its last head (or tau0) */
    uint64_t h[VDPU_MAX_TASKLETS];      /* next head */
    uint64_t ready0[VDPU_MAX_TASKLETS]; /* t->ready as of tau (the head's or the entry's) */
    /* the next heads as a calendar (a bit per cycle, mod STEADY_W): finding
     * the earliest is a find-first-set over the next words instead of a scan
     * of every member (that scan cost a third of the time at 16 tasklets) */
    uint64_t cal[STEADY_W / 64];
    uint8_t who[STEADY_W]; /* member whose head is at that cycle */
} steady_t;

static inline void cal_put(steady_t *s, uint64_t h, unsigned j)
{
    unsigned p = (unsigned)(h & (STEADY_W - 1));
    s->cal[p >> 6] |= (uint64_t)1 << (p & 63);
    s->who[p] = (uint8_t)j;
}

/* The member with the earliest head after `after` (every head is in
 * (after, after + STEADY_W)); removes it from the calendar. */
static inline unsigned cal_pop(steady_t *s, uint64_t after)
{
    unsigned p = (unsigned)((after + 1) & (STEADY_W - 1));
    unsigned w = p >> 6;
    uint64_t m = s->cal[w] & (~(uint64_t)0 << (p & 63));
    while (!m) {
        w = (w + 1) & (STEADY_W / 64 - 1);
        m = s->cal[w];
    }
    unsigned b = (unsigned)__builtin_ctzll(m);
    s->cal[w] &= ~((uint64_t)1 << b);
    return s->who[w * 64 + b];
}

/* n >= revolver runnable tasklets that do not issue in ring order (with 11
 * to 13 of them a tasklet that waited for a DMA can rejoin out of order, and
 * with so little slack that order persists): the order they do issue in,
 * when it is periodic. Round robin picks, each cycle, the first tasklet after
 * the last issuer that is ready; with every tasklet ready 11 cycles after
 * its issue, who can issue at a cycle depends only on the 10 issuers before
 * it. So when round robin, run here from the actual ready times for two
 * rounds of n cycles, issues every cycle, each tasklet once per round, and
 * the second round in the first's order, every later round repeats it: the
 * tasklet at position j issues at now + j + m * n. A head that makes its
 * tasklet late for its turn (a DMA) ends the steady state, as in ring order
 * (a late tasklet that is not the one to issue changes no pick: the pick
 * is still the first of the others after the last issuer). Fills s->idx and
 * s->tau0; 0 when not periodic so. */
static int ring_order(const vdpu_t *d, uint64_t now, unsigned last, unsigned n, steady_t *s)
{
    const uint64_t rev = d->params.timing.revolver_cycles;
    const unsigned nr = d->nr;
    uint64_t ready[VDPU_MAX_TASKLETS];
    uint8_t ord[2 * VDPU_MAX_TASKLETS];
    uint32_t seen = 0;
    for (unsigned k = 0; k < nr; k++)
        ready[k] = UINT64_MAX;
    for (unsigned j = 0; j < n; j++) /* the members: sleepers issue nothing before s->wake */
        ready[s->idx[j]] = d->t[s->idx[j]].ready;
    for (unsigned c = 0; c < 2 * n; c++) {
        unsigned k = last, i;
        for (i = 0; i < nr; i++) {
            if (++k == nr)
                k = 0;
            if (ready[k] <= now + c)
                break;
        }
        if (i == nr)
            return 0; /* an idle cycle */
        if (c < n) {
            if (seen & (1u << k))
                return 0; /* twice in a round: someone is missing */
            seen |= 1u << k;
        } else if (ord[c - n] != k) {
            return 0;
        }
        ord[c] = (uint8_t)k;
        ready[k] = now + c + rev;
        last = k;
    }
    for (unsigned j = 0; j < n; j++) {
        s->idx[j] = ord[j];
        s->tau0[j] = now + j;
    }
    return 1;
}

/* Can the skipping start at cycle `now` (the scheduler about to pick after
 * `last`)? Fills s; 0 when the state is not steady. */
static int steady_enter(const vdpu_t *d, uint64_t now, unsigned last, steady_t *s)
{
    const uint64_t rev = d->params.timing.revolver_cycles;
    const unsigned nr = d->nr;
    unsigned n = 0, nc = 0, k = last;
    for (unsigned i = 0; i < nr; i++)
        nc += d->t[i].state == TS_RUN;
    /* a sleeper: a runnable tasklet that cannot issue in the first round
     * (waiting for its DMA); it issues nothing before it is ready, so the
     * others are a steady state of their own up to then (s->wake), when the
     * skipping ends */
    const uint64_t asleep = now + (nc > rev ? nc : rev);
    s->wake = UINT64_MAX;
    for (unsigned i = 0; i < nr; i++) {
        if (++k == nr)
            k = 0;
        if (d->t[k].state != TS_RUN)
            continue;
        if (d->t[k].ready >= asleep) {
            if (d->t[k].ready < s->wake)
                s->wake = d->t[k].ready;
        } else {
            s->idx[n++] = (uint8_t)k;
        }
    }
    if (n == 0)
        return 0;
    /* one tasklet alone is the case n < rev below with one member (its
     * heads every rev cycles plus its pending slots): the windows then run
     * its heads without any conflict to look for */
    s->n = n;
    s->t0 = now;
    if (n >= rev) {
        s->L = n;
        for (unsigned j = 0; j < n; j++) {
            if (d->t[s->idx[j]].ready > now + j) {
                if (!ring_order(d, now, last, n, s))
                    return 0;
                break;
            }
            s->tau0[j] = now + j;
        }
    } else {
        s->L = rev;
        uint64_t seen[VDPU_MAX_TASKLETS];
        for (unsigned j = 0; j < n; j++) {
            uint64_t e = d->t[s->idx[j]].ready;
            if (e < now)
                e = now;
            if (e >= now + rev)
                return 0;
            for (unsigned q = 0; q < j; q++)
                if (seen[q] == e)
                    return 0;
            seen[j] = e;
            s->tau0[j] = e;
        }
    }
    for (unsigned j = 0; j < n; j++) {
        const vtask_t *t = &d->t[s->idx[j]];
        s->tau[j] = s->tau0[j];
        s->h[j] = s->tau0[j] + (uint64_t)t->pending * s->L;
        s->ready0[j] = t->ready;
        if (s->h[j] - now >= STEADY_W)
            return 0;
    }
    memset(s->cal, 0, sizeof s->cal);
    for (unsigned j = 0; j < n; j++)
        cal_put(s, s->h[j], j);
    return 1;
}

/* The exact scheduler state at the start of cycle T (every member's turns
 * before T taken, none at T): pending, ready, the last issuer and the idle
 * cycles since s->t0. */
static void steady_leave(vdpu_t *d, const steady_t *s, uint64_t T, unsigned *last, uint64_t *idle)
{
    const uint64_t rev = d->params.timing.revolver_cycles, L = s->L;
    uint64_t issued = 0, last_turn = 0;
    int have_last = 0;
    for (unsigned j = 0; j < s->n; j++) {
        vtask_t *t = &d->t[s->idx[j]];
        uint64_t nt = s->tau[j];
        if (nt < T)
            nt += (T - nt + L - 1) / L * L; /* its first turn at or after T */
        t->pending = (uint32_t)((s->h[j] - nt) / L);
        t->ready = nt > s->tau[j] ? nt - L + rev : s->ready0[j];
        issued += (nt - s->tau0[j]) / L;
        if (nt > s->tau0[j] && (!have_last || nt - L > last_turn)) {
            last_turn = nt - L;
            *last = s->idx[j];
            have_last = 1;
        }
    }
    *idle += (T - s->t0) - issued;
}

/* ------------------------------------------- steady state, one tasklet at a time
 *
 * In a steady state each member's issue cycles are fixed whatever the
 * others do (above): member j's heads are at h_j, h_j + L(1 + pending), ...
 * What still ties the members together is only what their heads touch. A
 * window runs the members one after the other, each through all its heads
 * before a horizon T, when those heads are aligned WRAM loads and stores
 * (the inline access of issue_head: anything else, a service, a DMA, an
 * MRAM or faulting access, ends that member's part of the window at its
 * cycle, and the horizon with it). WRAM then sees the accesses in another
 * order than the cycles', which is unobservable unless two members touch
 * the same word and one of them writes: each word keeps, for this window,
 * the cycle of its last write and of its latest read, and an access whose
 * own cycle is earlier than a conflicting one already done (a read before
 * a write already done, a write before a read or write already done) is a
 * conflict. Without one, every read returns what it returns in cycle order
 * and every word ends with its last write in cycle order, so registers,
 * WRAM and every count are those of the heads run in cycle order. On a
 * conflict, or when a member's part ended before heads the members before
 * it already ran (the horizon came down), the window is undone: WRAM from
 * an undo log of the words written, the members' state from a copy. The
 * first try runs every member, so its horizon is the lowest head that ends
 * a part; as none of its reads below that horizon saw a write above it (a
 * conflict), the second try runs the same heads below it and ends there.
 * A conflict leaves the heads to the calendar for a while. Tests: the
 * group window (tasklets sharing words), skip_identical and every timed
 * run of test_vdpu.c (compared with the skipping and the translation off),
 * fuzz_jit. */
#define WIN_SPAN 4095u           /* cycles per window: its relative cycles fit 12 bits */
#define WIN_UNDO (4u * WIN_SPAN) /* one head per cycle, 2 accesses of 2 words at most each */

/* A word's stamp: bits 31:24 the window that set it (else: not touched in
 * this one), 23:12 the cycle of its last write and 11:0 of its latest read,
 * relative to the window (+1, so 0 is none) */
#define WS_GEN(e) ((e) >> 24)
#define WS_WT(e)  (((e) >> 12) & 0xfffu)
#define WS_RT(e)  ((e)&0xfffu)

typedef struct vdpu_win vdpu_win_t;
struct vdpu_win {
    uint32_t gen; /* 1..255 */
    uint32_t nundo;
    uint32_t st[VDPU_WRAM_SIZE / 4];
    struct {
        uint32_t w, old; /* word index, its value before the window's write */
    } undo[WIN_UNDO];
    vtask_t save[VDPU_MAX_TASKLETS];
    uint64_t tau[VDPU_MAX_TASKLETS], h[VDPU_MAX_TASKLETS], ready0[VDPU_MAX_TASKLETS];
    /* heads the calendar runs before the next window (16 << misses), and the
     * failed or short windows that set it, less the good ones since: a
     * program whose steady states are short (a DMA every few heads) or whose
     * tasklets share words is left to the calendar, which then pays for a
     * window only now and then */
    uint32_t wait, misses;
};

void vdpu_win_free(vdpu_t *d)
{
    if (!d->win)
        return;
    volatile uint8_t *p = (volatile uint8_t *)d->win; /* WRAM words, registers */
    for (size_t i = 0; i < sizeof *d->win; i++)
        p[i] = 0;
    free(d->win);
    d->win = NULL;
}

/* Stamps word wi for an access at relative cycle c: 0 when it conflicts */
static inline int win_stamp(vdpu_win_t *w, uint32_t wi, uint32_t c, int store)
{
    uint32_t e = w->st[wi];
    if (WS_GEN(e) != w->gen)
        e = w->gen << 24;
    if (WS_WT(e) > c || (store && WS_RT(e) > c))
        return 0;
    if (store)
        w->st[wi] = (e & 0xff000fffu) | c << 12;
    else if (WS_RT(e) < c)
        w->st[wi] = (e & ~0xfffu) | c;
    return 1;
}

/* the heads a window runs: access size, | WIN_ST for a store, | WIN_SX for a
 * sign-extended load (a table, not a switch: the op alternates between heads) */
enum { WIN_ST = 16, WIN_SX = 32 };
static const uint8_t win_kind[OP__COUNT] = {
    [OP_LW] = 4,          [OP_LBU] = 1,         [OP_LB] = 1 | WIN_SX, [OP_LHU] = 2,
    [OP_LH] = 2 | WIN_SX, [OP_LD] = 8,          [OP_SW] = 4 | WIN_ST, [OP_SB] = 1 | WIN_ST,
    [OP_SH] = 2 | WIN_ST, [OP_SD] = 8 | WIN_ST,
};

/* One aligned WRAM access of kind k (win_kind) at address a by instruction
 * I of t, stamped at relative cycle c, as exec_core does it: 1 done, -1 a
 * conflict (the window is undone: nothing needs restoring here). */
static inline __attribute__((always_inline)) int
win_do(vdpu_win_t *w, uint8_t *W, uint32_t *R, const vinsn_t *I, unsigned k, uint32_t a, uint32_t c)
{
    const unsigned size = k & 15u;
    const uint32_t wi = a >> 2;
    const int store = (k & WIN_ST) != 0;
    if (!win_stamp(w, wi, c, store) || (size == 8 && !win_stamp(w, wi + 1, c, store)))
        return -1;
    if (store) {
        if (w->nundo + 2 > WIN_UNDO)
            return -1; /* one head per cycle, two stores in one at most but for
                          rare three-access slots: treated as a conflict, exact */
        memcpy(&w->undo[w->nundo].old, W + 4 * wi, 4);
        w->undo[w->nundo++].w = wi;
        if (size == 8) {
            memcpy(&w->undo[w->nundo].old, W + 4 * wi + 4, 4);
            w->undo[w->nundo++].w = wi + 1;
        }
        if (size == 4) {
            memcpy(W + a, &R[I->rs2], 4);
        } else if (size == 1) {
            W[a] = (uint8_t)R[I->rs2];
        } else if (size == 2) {
            const uint16_t v = (uint16_t)R[I->rs2];
            memcpy(W + a, &v, 2);
        } else {
            const uint32_t v[2] = {R[I->rs2], R[I->rs2 + 1]};
            memcpy(W + a, v, 8);
        }
    } else if (size == 4) {
        memcpy(&R[I->rd], W + a, 4);
    } else if (size == 1) {
        R[I->rd] = (k & WIN_SX) ? (uint32_t)(int32_t)(int8_t)W[a] : W[a];
    } else if (size == 2) {
        uint16_t v;
        memcpy(&v, W + a, 2);
        R[I->rd] = (k & WIN_SX) ? (uint32_t)(int32_t)(int16_t)v : v;
    } else {
        uint32_t v[2];
        memcpy(v, W + a, 8);
        R[I->rd] = v[0];
        R[I->rd + 1] = v[1];
    }
    R[32] = 0;
    return 1;
}

/* Instructions a window runs inside a head's issue slot besides accesses:
 * register-only ones that cannot fault and cost one slot (alu()'s ops, no
 * multiply or divide: those have slots of their own), and conditional
 * branches */
static inline int win_alu(int op)
{
    return op == OP_LI || (op >= OP_FIRST_IMM && op <= OP_LAST_IMM) ||
           (op >= OP_FIRST_REG && op <= OP_SH3ADD);
}

/* 1 when instruction X writes register r (the sink, 32, is no register) */
static inline int win_writes(const vinsn_t *X, unsigned k, unsigned r)
{
    if (k & WIN_ST)
        return 0;
    return X->rd == r || ((k & 15u) == 8 && X->rd + 1u == r);
}

/* The rest of win_access: a head whose issue slot holds more than one
 * instruction. exec_core with a budget of 1 runs, from the head, the
 * instructions of cost 0 before the first of cost 1, that one, and those of
 * cost 0 after it. The window runs such a slot when it is: an access of cost
 * 0 (folded into an earlier one's ld/sd) or none, then an access, an ALU
 * instruction or a conditional branch of cost 1, then (not after a branch)
 * an access of cost 0 or none, each access an aligned WRAM one whose address
 * is known before anything runs (no earlier part of the slot writes its
 * base register). Otherwise 0 and t untouched. */
static __attribute__((noinline)) int win_slot(vdpu_t *d, vdpu_win_t *w, vtask_t *t, uint32_t c)
{
    const vinsn_t *code = d->code;
    const uint32_t n = d->prog->n_insns;
    uint32_t pc = t->pc, *R = t->r;
    const vinsn_t *lead = NULL, *S, *trail = NULL;
    unsigned kl = 0, ks, kt = 0;
    uint32_t al = 0, as = 0, at = 0;
    if (code[pc].cost == 0) {
        lead = &code[pc];
        kl = win_kind[lead->op];
        al = R[lead->rs1] + (uint32_t)lead->imm;
        if (!kl || (al & (0xffff0000u | ((kl & 15u) - 1))) != 0)
            return 0;
        pc++; /* a folded instruction is never the sentinel: pc < n */
    }
    S = &code[pc];
    ks = win_kind[S->op];
    const int br = S->op >= OP_BEQ && S->op <= OP_BGEU;
    if (S->cost != 1 || (!ks && !br && !win_alu(S->op)))
        return 0;
    if (ks) {
        if (lead && win_writes(lead, kl, S->rs1))
            return 0;
        as = R[S->rs1] + (uint32_t)S->imm;
        if ((as & (0xffff0000u | ((ks & 15u) - 1))) != 0)
            return 0;
    }
    if (br) {
        /* where it goes must start a slot of its own (else exec_core runs a
         * folded instruction there in this one) */
        if ((uint32_t)S->imm > n || code[S->imm].cost == 0 || S[1].cost == 0 ||
            (lead && (win_writes(lead, kl, S->rs1) || win_writes(lead, kl, S->rs2))))
            return 0;
    } else if (S[1].cost == 0) {
        trail = &S[1]; /* not the sentinel: that costs 1 */
        kt = win_kind[trail->op];
        if (!kt || trail[1].cost == 0 || (lead && win_writes(lead, kl, trail->rs1)) ||
            (ks ? win_writes(S, ks, trail->rs1) : S->rd == trail->rs1))
            return 0;
        at = R[trail->rs1] + (uint32_t)trail->imm;
        if ((at & (0xffff0000u | ((kt & 15u) - 1))) != 0)
            return 0;
    }
    /* nothing can fail now but a conflict, which undoes the whole window */
    uint8_t *W = d->wram;
    if (lead && win_do(w, W, R, lead, kl, al, c) < 0)
        return -1;
    if (ks) {
        if (win_do(w, W, R, S, ks, as, c) < 0)
            return -1;
        pc++;
    } else if (br) {
        const uint32_t x = R[S->rs1], y = R[S->rs2];
        int taken;
        switch (S->op) {
        case OP_BEQ:
            taken = x == y;
            break;
        case OP_BNE:
            taken = x != y;
            break;
        case OP_BLT:
            taken = (int32_t)x < (int32_t)y;
            break;
        case OP_BGE:
            taken = (int32_t)x >= (int32_t)y;
            break;
        case OP_BLTU:
            taken = x < y;
            break;
        default:
            taken = x >= y;
            break;
        }
        pc = taken ? (uint32_t)S->imm : pc + 1;
    } else {
        const uint32_t b = S->op <= OP_LAST_IMM ? (uint32_t)S->imm : R[S->rs2];
        R[S->rd] = alu(S->op, R[S->rs1], b);
        R[32] = 0;
        pc++;
    }
    if (trail) {
        if (win_do(w, W, R, trail, kt, at, c) < 0)
            return -1;
        pc++;
    }
    t->pc = pc;
    return 1;
}

/* The head of t, when it is what issue_head runs at its cycle as aligned
 * WRAM accesses (and the register-only instructions exec_core runs in the
 * same issue slot: win_slot): does it at relative cycle c, as exec_core
 * does. 1: done; 0: not such a head (t untouched); -1: a conflict (the
 * window is undone). */
static inline int win_access(vdpu_t *d, vdpu_win_t *w, vtask_t *t, uint32_t c)
{
    const vinsn_t *I = &d->code[t->pc];
    const unsigned k = win_kind[I->op];
    uint32_t *R = t->r;
    const uint32_t a = R[I->rs1] + (uint32_t)I->imm;
    /* the commonest: one access alone in its slot */
    if (LIKELY(k && I->cost == 1 && I[1].cost != 0)) {
        if ((a & (0xffff0000u | ((k & 15u) - 1))) != 0)
            return 0;
        t->pc++;
        return win_do(w, d->wram, R, I, k, a, c);
    }
    return win_slot(d, w, t, c);
}

/* What a member's part of a window did (win_part) */
typedef struct {
    uint64_t H;     /* its next head, not run */
    uint64_t lastH; /* its last head run (nheads > 0) */
    uint64_t ins, slots, nheads;
    uint32_t last_ra; /* the slots of the run-ahead after that head */
} win_part_t;

/* Member t's heads from cycle H while before T: each head (win_access at its
 * cycle relative to T0) and its run-ahead, the next head L cycles per slot
 * later. 1: reached T; 0: stopped at a head the window does not run (o->H);
 * -1: a conflict. A function of its own (not inlined): the per-head loop
 * then keeps its values in registers. */
static __attribute__((noinline)) int win_part(vdpu_t *d, vdpu_win_t *w, vtask_t *t, uint64_t H,
                                              uint64_t T, uint64_t T0, uint64_t L, win_part_t *o)
{
    /* locals, not loads through d and w after every access: a store to
     * WRAM (bytes) may alias anything for the compiler */
    const vinsn_t *const code = d->code;
    uint8_t *const W = d->wram;
    uint32_t *const st = w->st, *const R = t->r;
    const uint32_t g = w->gen << 24;
    uint32_t nu = w->nundo;
    uint64_t ins = 0, slots = 0, nheads = 0, lastH = 0;
    uint32_t last_ra = 0;
    int r = 1;
    /* the window form of the translation (jit.h) runs the heads that are a
     * load or store of 1, 2 or 4 bytes alone in their slots and the
     * run-ahead between them, the rest is here */
    const vdpu_jit_t *const wj = d->jit_win;
    const void *const *const wtab = wj ? vdpu_jit_entries(wj) : NULL;
    vdpu_jit_wctx_t cx = {.L = L,
                          .T = T,
                          .st = st,
                          .undo = w->undo,
                          .c0 = (uint32_t)(T0 - 1),
                          .g = g,
                          .ucap = WIN_UNDO};
    while (H < T) {
        const uint32_t c = (uint32_t)(H - T0 + 1);
        const vinsn_t *I = &code[t->pc];
        const unsigned k = win_kind[I->op];
        const uint32_t a = R[I->rs1] + (uint32_t)I->imm;
        const void *ent;
        if (wtab && (ent = wtab[t->pc]) != NULL && vdpu_jit_win_head(code, t->pc)) {
            cx.H = H - L; /* so that the entry's head is at H */
            cx.sl = 0;
            cx.left = 64;
            cx.nu = nu;
            cx.ins = cx.slots = cx.nheads = 0;
            t->pc = vdpu_jit_win(wj, ent, t, W, &cx);
            d->res->jit_entries++;
            nu = cx.nu;
            if (cx.nheads) {
                /* the run-ahead after its last head: the interpreter's
                 * where it stopped inside it */
                uint32_t ra_slots = cx.sl, ra_ins = cx.sl;
                const int op = code[t->pc].op;
                if (!((op >= OP_LB && op <= OP_SW) || op == OP_LD || op == OP_SD)) {
                    uint32_t n2, s2 = runahead(d, t, cx.left, &n2);
                    ra_slots += s2;
                    ra_ins += n2;
                }
                ins += cx.ins + ra_ins;
                slots += cx.slots + ra_slots;
                nheads += cx.nheads;
                last_ra = ra_slots;
                lastH = cx.H;
                H = cx.H + L + (uint64_t)ra_slots * L;
                r = 1;
                continue;
            }
            /* it ran none: the head it stopped at is the one below */
        }
        if (LIKELY(k && (k & 15u) == 4 && I->cost == 1 && I[1].cost != 0 &&
                   (a & 0xffff0003u) == 0)) {
            /* the commonest head, a word access alone in its slot: win_do
             * with its stamp (win_stamp) inline */
            const uint32_t wi = a >> 2;
            uint32_t e = st[wi];
            if ((e & 0xff000000u) != g)
                e = g;
            if (k & WIN_ST) {
                if (WS_WT(e) > c || WS_RT(e) > c || nu + 1 > WIN_UNDO) {
                    r = -1;
                    break;
                }
                st[wi] = (e & 0xff000fffu) | c << 12;
                memcpy(&w->undo[nu].old, W + a, 4);
                w->undo[nu++].w = wi;
                memcpy(W + a, &R[I->rs2], 4);
            } else {
                if (WS_WT(e) > c) {
                    r = -1;
                    break;
                }
                if (WS_RT(e) < c)
                    st[wi] = (e & ~0xfffu) | c;
                memcpy(&R[I->rd], W + a, 4);
                R[32] = 0;
            }
            t->pc++;
        } else {
            w->nundo = nu;
            r = win_access(d, w, t, c);
            nu = w->nundo;
            if (r <= 0)
                break;
        }
        uint32_t ra_n, ra_slots = runahead(d, t, 64, &ra_n);
        ins += 1u + ra_n;
        slots += 1u + ra_slots;
        last_ra = ra_slots;
        lastH = H;
        H += L + (uint64_t)ra_slots * L;
        nheads++;
        r = 1;
    }
    w->nundo = nu;
    *o = (win_part_t){H, lastH, ins, slots, nheads, last_ra};
    return r;
}

enum { WIN_FAIL, WIN_STOPPED, WIN_FULL };

/* One window from cycle T0 (every head before it done, the calendar's
 * `after` + 1) to at most T0 + WIN_SPAN: on success every member's heads
 * before the horizon S are done, none at or after it, and *S is set
 * (WIN_FULL: the whole span; WIN_STOPPED: a member's next head at S is not
 * one the window runs). WIN_FAIL: nothing changed. */
static int win_run(vdpu_t *d, steady_t *s, uint64_t T0, uint64_t *S, uint64_t *wd)
{
    vdpu_win_t *w = d->win;
    const uint64_t L = s->L, rev = d->params.timing.revolver_cycles;
    uint64_t T = T0 + WIN_SPAN;
    if (d->params.max_cycles && d->params.max_cycles < T - 1)
        T = d->params.max_cycles + 1; /* no head past the watchdog's limit */
    if (s->wake < T)
        T = s->wake; /* nor past a sleeper's wake-up (steady_enter) */
    if (T <= T0)
        return WIN_FAIL;
    const uint64_t ins0 = d->res->instructions, slots0 = d->total_slots, je0 = d->res->jit_entries;
    for (unsigned j = 0; j < s->n; j++) {
        w->save[j] = d->t[s->idx[j]];
        w->tau[j] = s->tau[j], w->h[j] = s->h[j], w->ready0[j] = s->ready0[j];
    }
    int full = 1; /* no member's part ended before the span (kept by the retry) */
    for (int attempt = 0; attempt < 2; attempt++) {
        if (++w->gen == 256) {
            memset(w->st, 0, sizeof w->st);
            w->gen = 1;
        }
        w->nundo = 0;
        uint64_t maxH = 0, nheads = 0; /* no head is at cycle 0: T0 > 0 after the boot */
        int bad = 0;
        /* bad: 1 a conflict (undo, give up), 2 the horizon came down
         * below heads already run (undo, try again below it; the members
         * after still run, so that it comes down to its lowest now) */
        for (unsigned j = 0; j < s->n && bad != 1; j++) {
            vtask_t *t = &d->t[s->idx[j]];
            win_part_t o;
            const int r = win_part(d, w, t, s->h[j], T, T0, L, &o);
            if (r < 0) {
                bad = 1;
            } else if (r == 0) {
                full = 0;
                T = o.H; /* the horizon comes down to this head */
                if (maxH >= T)
                    bad = 2; /* members before ran heads past it */
            }
            if (o.nheads) {
                t->pending = o.last_ra;
                t->ready = o.lastH + rev;
                s->tau[j] = o.lastH + L;
                if (o.lastH > maxH)
                    maxH = o.lastH;
                nheads += o.nheads;
            }
            s->h[j] = o.H;
            s->ready0[j] = t->ready;
            t->st.instructions += o.ins;
            t->st.slots += o.slots;
            d->res->instructions += o.ins;
            d->total_slots += o.slots;
        }
        if (!bad && d->params.max_instructions && d->res->instructions > d->params.max_instructions)
            bad = 1; /* the calendar stops at the head the limit passes */
        if (!bad) {
            *wd = (*wd + nheads) & ((1u << 12) - 1); /* their checks all pass: see above */
            d->res->steady_heads += nheads;
            d->res->window_heads += nheads;
            *S = T;
            if (nheads)
                d->now = maxH; /* as the last head in cycle order left it */
            return full ? WIN_FULL : WIN_STOPPED;
        }
        /* undo: WRAM newest first, the members as they were */
        for (uint32_t k = w->nundo; k-- > 0;)
            memcpy(d->wram + 4 * w->undo[k].w, &w->undo[k].old, 4);
        for (unsigned j = 0; j < s->n; j++) {
            d->t[s->idx[j]] = w->save[j];
            s->tau[j] = w->tau[j], s->h[j] = w->h[j], s->ready0[j] = w->ready0[j];
        }
        d->res->instructions = ins0;
        d->total_slots = slots0;
        d->res->jit_entries = je0;
        d->res->window_undone++;
        if (bad == 1)
            break;
    }
    return WIN_FAIL;
}

enum { STEADY_CONTINUE, STEADY_BREAK };

/* Run heads in time order while the state stays steady. On return the
 * scheduler state is exact at *now (STEADY_CONTINUE: go on cycle by cycle;
 * STEADY_BREAK: the run ended in a fault, as run_timed's own break). */
static int steady_run(vdpu_t *d, steady_t *s, uint64_t *now, unsigned *last, uint64_t *idle,
                      uint64_t *wd)
{
    const vinsn_t *code = d->code;
    const uint64_t L = s->L;
    uint64_t prev = s->t0 - 1; /* every head is after it */
    vdpu_win_t *const w = d->slow ? NULL : d->win ? d->win : (d->win = calloc(1, sizeof *d->win));
    for (;;) {
        if (w && w->wait == 0) {
            uint64_t S;
            const int r = win_run(d, s, prev + 1, &S, wd);
            /* a window that failed or ran fewer than 8 turns of each member */
            if (r == WIN_FAIL || (r == WIN_STOPPED && S - (prev + 1) < 8 * L)) {
                w->misses += w->misses < 8;
                w->wait = 16u << w->misses;
            } else {
                w->misses -= w->misses > 0;
                w->wait = r == WIN_STOPPED; /* the calendar runs the head at S first */
            }
            if (r != WIN_FAIL) {
                for (unsigned q = 0; q < s->n; q++)
                    if (s->h[q] - S >= STEADY_W - 1) { /* past the calendar's span */
                        steady_leave(d, s, S, last, idle);
                        *now = S;
                        return STEADY_CONTINUE;
                    }
                memset(s->cal, 0, sizeof s->cal);
                for (unsigned q = 0; q < s->n; q++)
                    cal_put(s, s->h[q], q);
                prev = S - 1;
                if (r == WIN_FULL)
                    continue;
                /* a member's head at S is not the window's: the calendar runs it */
            }
        } else if (w) {
            w->wait--;
        }
        const unsigned j = cal_pop(s, prev);
        const uint64_t H = s->h[j];
        prev = H;
        vtask_t *t = &d->t[s->idx[j]];
        /* a sleeper is ready: it takes turns from here, which the steady
         * state does not know; the exact scheduler goes on */
        if (H >= s->wake) {
            steady_leave(d, s, s->wake, last, idle);
            *now = s->wake;
            return STEADY_CONTINUE;
        }
        /* services read and change other tasklets' state (pending slots in
         * perf counters, wake-ups): let the exact scheduler issue them; so
         * does the watchdog once past its limit */
        if (code[t->pc].op == OP_ECALL ||
            (d->params.max_instructions && d->res->instructions > d->params.max_instructions)) {
            steady_leave(d, s, H, last, idle);
            *now = H;
            return STEADY_CONTINUE;
        }
        uint32_t extra;
        issue_head(d, t, H, &extra);
        d->res->steady_heads++;
        s->tau[j] = H + L;
        s->h[j] = H + L + (uint64_t)t->pending * L;
        s->ready0[j] = t->ready;
        if (d->faulted) {
            s->tau[j] = H; /* the faulting head is not an issued slot */
            s->h[j] = H;
            steady_leave(d, s, H, last, idle);
            *now = H;
            return STEADY_BREAK;
        }
        int wd_fault = 0;
        cal_put(s, s->h[j], j); /* harmless if leaving: the calendar is rebuilt on entry */
        if (UNLIKELY(++*wd >= (1u << 12))) {
            *wd = 0;
            wd_fault = check_watchdog(d, t);
        }
        if (wd_fault || t->state != TS_RUN || t->ready > H + L || s->h[j] - H >= STEADY_W) {
            steady_leave(d, s, H + 1, last, idle);
            *last = s->idx[j];
            *now = H + 1;
            return wd_fault ? STEADY_BREAK : STEADY_CONTINUE;
        }
    }
}

static void run_timed(vdpu_t *d)
{
    const uint64_t rev = d->params.timing.revolver_cycles;
    const unsigned nr = d->nr;
    unsigned last = nr - 1;
    uint64_t now = 0, idle = 0, wd = 0;
    unsigned backoff = 0; /* heads to wait before trying to skip again */
    steady_t steady;
    for (;;) {
        /* round robin: first tasklet after `last` allowed to issue now */
        vtask_t *pick = NULL;
        uint64_t minready = UINT64_MAX;
        unsigned k = last;
        for (unsigned i = 0; i < nr; i++) {
            if (++k == nr)
                k = 0;
            vtask_t *t = &d->t[k];
            if (t->state != TS_RUN)
                continue;
            if (t->ready <= now) {
                pick = t;
                break;
            }
            if (t->ready < minready)
                minready = t->ready;
        }
        if (!pick) {
            if (minready == UINT64_MAX) {
                d->now = now;
                all_stopped(d);
                break;
            }
            idle += minready - now;
            now = minready;
            continue;
        }
        if (pick->pending) {
            /* further issue slot of a multi-slot instruction (mul/div) */
            last = k;
            pick->pending--;
            pick->ready = now + rev;
            now++;
            continue;
        }
        if (d->params.skip_steady && d->code[pick->pc].op != OP_ECALL) {
            if (backoff)
                backoff--;
            else if (steady_enter(d, now, last, &steady)) {
                if (steady_run(d, &steady, &now, &last, &idle, &wd) == STEADY_BREAK)
                    break;
                backoff = nr;
                continue;
            } else {
                backoff = nr;
            }
        }
        last = k;
        uint32_t extra;
        issue_head(d, pick, now, &extra);
        if (d->faulted)
            break;
        if (extra && pick->state == TS_RUN && only_runnable(d, pick)) {
            /* Alone in the pipeline: nobody can take an issue slot from this
             * tasklet before its next head instruction (blocked tasklets are
             * only woken by heads, and waiting-to-boot ones by tasklet 0), so
             * its pending slots issue one per revolver period from `ready`.
             * Consume them at once instead of one scheduler turn each; the
             * cycles are identical, only the loop count drops. Those slots
             * are issue cycles, not idle ones: the later jump over the gap
             * counts the whole span as idle, so take them back here. */
            pick->ready += (uint64_t)extra * rev;
            pick->pending = 0;
            idle -= extra;
        }
        now++;
        if (UNLIKELY(++wd >= (1u << 12))) {
            wd = 0;
            if (check_watchdog(d, pick))
                break;
        }
    }
    d->now = now;
    d->res->cycles = now;
    d->res->idle_cycles = idle;
}

vdpu_err_t vdpu_run(vdpu_t *d, vdpu_result_t *res)
{
    if (!d)
        return VDPU_ERR_ARG;
    if (!d->prog)
        return VDPU_ERR_NOT_LOADED;
    const vdpu_program_t *p = d->prog;
    if (!res)
        res = &d->scratch;
    memset(res, 0, sizeof *res);
    res->fault_tasklet = -1;
    d->res = res;
    d->faulted = 0;
    d->nr = p->nr_tasklets;
    d->now = 0;
    d->engine_free = 0;
    memset(d->bits, 0, sizeof d->bits); /* crt0 of the SDK clears them at boot */
    memset(d->bit_taker, -1, sizeof d->bit_taker);
    d->perf_mode = VDPU_PERF_CYCLES;
    d->perf_base = 0;
    d->total_slots = 0;
    memset(d->t, 0, sizeof d->t);
    for (unsigned k = 0; k < d->nr; k++) {
        vtask_t *t = &d->t[k];
        t->pc = p->entry;
        t->stack_lo = p->stack_lo[k];
        t->stack_hi = p->stack_hi[k];
        t->r[2] = p->stack_hi[k];
        t->state = k == 0 ? TS_RUN : TS_WAITBOOT;
    }
    res->nr_tasklets = d->nr;
    d->code = d->params.isa_fusion ? p->code : p->code_rv32;
    if (d->prof)
        vdpu_prof_run_begin(d);
    if (d->dbg)
        vdpu_gdb_run_begin(d);
    d->slow = d->prof != NULL || d->dbg != NULL;
    /* translated code runs fast mode's quanta, and timed mode's run-ahead */
    d->jit = d->jit_pure = d->jit_win = NULL;
    d->jit_pure_ent = NULL;
    if (d->params.jit && !d->slow) {
        if (d->params.mode == VDPU_MODE_FAST)
            d->jit = vdpu_jit_get(p, d->params.isa_fusion != 0, 0);
        else {
            d->jit_pure = vdpu_jit_get(p, d->params.isa_fusion != 0, 1);
            d->jit_win = vdpu_jit_get(p, d->params.isa_fusion != 0, 2);
        }
        d->jit_pure_ent = d->jit_pure ? vdpu_jit_entries(d->jit_pure) : NULL;
    }
    if (d->params.mode == VDPU_MODE_TIMED)
        run_timed(d);
    else
        run_fast(d);
    res->slots = d->total_slots;
    if (!d->faulted)
        res->status = VDPU_STATUS_DONE;
    for (unsigned k = 0; k < d->nr; k++) {
        res->tasklet[k] = d->t[k].st;
        if (d->params.mode == VDPU_MODE_TIMED && d->t[k].state != TS_DONE)
            res->tasklet[k].cycles = res->cycles;
    }
    if (d->prof)
        vdpu_prof_run_end(d);
    if (d->dbg)
        vdpu_gdb_run_end(d);
    d->res = &d->scratch;
    return VDPU_OK;
}
