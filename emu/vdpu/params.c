/*
 * params.c -- THE table of the virtual DPU's numeric parameters: default,
 * unit, valid range, source, profile key. Sources: upmem-perf-facts.md §6
 * (P-numbers) and §1-§2, in the project's shared docs (design.md §3.1).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "vdpu.h"

#define FIELD(f) offsetof(vdpu_params_t, f), sizeof(((vdpu_params_t *)0)->f)
#define U32_MAX  4294967295.0
#define U64_MAX  18446744073709551615.0

const vdpu_param_desc_t vdpu_param_table[] = {
    /* at most 4294: CLOCKS_PER_SEC (Hz) is a 32-bit word on the DPU, and
     * vdpu_load converting a larger double would be undefined (found by
     * fuzz_profile) */
    {"clockMhz", FIELD(clock_mhz), VDPU_PARAM_DOUBLE, 350.0, 0.0, 4294.0, 1, "MHz",
     "P1: v1A DPU clock, PrIM's 2,556-DPU system (400 for v1B, 267 on old systems); "
     "at most 4294 (CLOCKS_PER_SEC, in Hz, is a 32-bit word)"},
    {"revolverCycles", FIELD(timing.revolver_cycles), VDPU_PARAM_U32, 11, 1, U32_MAX, 0, "cycles",
     "P3: a tasklet issues at most once every 11 cycles (HC31, uPIMulator)"},
    /* DPU code is compiled without M: multiplies and divides run the runtime's
     * __mulsi3/__udivsi3/... (emu/rt/muldiv.S, libgcc.c) with mul_step and
     * div_step, so their cost comes out of execution. These three only price
     * RV32 M instructions written by hand in asm (documented fallback). */
    {"mulSlots", FIELD(timing.mul_slots), VDPU_PARAM_U32, 28, 1, U32_MAX, 0, "slots",
     "fallback for a hand-written RV32 mul only (compiled code calls __mulsi3): P8, PrIM INT32 "
     "MUL 10.27 MOPS = ~34 instr/op incl. loop => ~28 for the op"},
    {"mulhSlots", FIELD(timing.mulh_slots), VDPU_PARAM_U32, 56, 1, U32_MAX, 0, "slots",
     "fallback for a hand-written mulh/mulhsu/mulhu only: P9-derived, the 64-bit product ~2x mul"},
    {"divSlots", FIELD(timing.div_slots), VDPU_PARAM_U32, 25, 1, U32_MAX, 0, "slots",
     "fallback for a hand-written div/divu/rem/remu only (compiled code calls __udivsi3...): P8, "
     "PrIM INT32 DIV 11.27 MOPS = ~31 instr/op incl. loop => ~25 for the op"},
    {"dmaReadAlpha", FIELD(timing.dma_read_alpha), VDPU_PARAM_U32, 77, 0, U32_MAX, 0, "cycles",
     "P12: mram_read latency 77 + 0.5*S cycles (PrIM)"},
    {"dmaWriteAlpha", FIELD(timing.dma_write_alpha), VDPU_PARAM_U32, 61, 0, U32_MAX, 0, "cycles",
     "P13: mram_write latency 61 + 0.5*S cycles (PrIM)"},
    {"dmaBetaX2", FIELD(timing.dma_beta_x2), VDPU_PARAM_U32, 1, 0, U32_MAX, 0, "cycles/2 B",
     "P12/P13/P14: beta = 0.5 cycle per byte, a 2 B/cycle engine"},
    {"mramDirectBytes", FIELD(timing.mram_direct_bytes), VDPU_PARAM_U32, 8, 1, VDPU_DMA_MAX, 0,
     "bytes", "upmem-api.md §2.3: a direct __mram_ptr load/store costs an 8-byte DMA"},
    {"dmaEnginePct", FIELD(timing.dma_engine_pct), VDPU_PARAM_U32, 111, 1, U32_MAX, 0, "%",
     "P14: the engine sustains ~0.9 of 2 B/cycle (PrIM 628/633 MB/s, uPIMulator ~600 MB/s), "
     "so each transfer occupies it 111% of beta*S; P15: one engine per DPU"},
    /* the TSME study's what-if: no such hardware exists (docs/RESIDENT.md) */
    {"dmaAesCyclesPerBlock", FIELD(timing.dma_aes_cycles_per_block), VDPU_PARAM_DOUBLE, 0.0, 0.0,
     1e6, 0, "cycles/16 B",
     "hypothetical hardware, ours: an AES engine on the MRAM<->WRAM DMA path taking this many "
     "cycles per 16-byte block (0: none); prices every DMA, the emulator does NOT encrypt MRAM"},
    {"dmaAesPipelined", FIELD(timing.dma_aes_pipelined), VDPU_PARAM_U32, 0, 0, 1, 0, "0/1",
     "hypothetical hardware, ours: 1 = the engine is pipelined with the transfer (one block's "
     "latency dmaAesCyclesPerBlock per DMA, then blocks at the DMA's rate or the engine's 1 per "
     "cycle, whichever is slower); 0 = each block's cycles add to the transfer"},
    {"fastQuantum", FIELD(fast_quantum), VDPU_PARAM_U32, 4096, 1, U32_MAX, 0, "instructions",
     "mode=fast: instructions a tasklet runs per turn (interpreter setting, no hardware figure)"},
    {"isaFusion", FIELD(isa_fusion), VDPU_PARAM_U32, 1, 0, 1, 0, "0/1",
     "1: RV32 idioms that are one DPU instruction (add;sltu;add = add;addc, lw;lw at 8k/8k+4 = "
     "ld, sw;sw = sd, ALU op + branch on its result = op with condition, lui;addi = move, "
     "auipc;jalr = call) cost the DPU's slots (UPMEM ISA as used by the SDK's compiler-rt); "
     "0: one slot per RV32 instruction"},
    {"vdpuJit", FIELD(jit), VDPU_PARAM_U32, 1, 0, 1, 0, "0/1",
     "1 runs the program translated to x86-64 host code where it can (mode=fast: its quanta; "
     "timed: the run-ahead between heads), with the same results, memory, counts and modeled "
     "cycles as the interpreter (docs/VIRTUAL_DPU.md); 0 interprets everything (interpreter "
     "setting, no hardware figure)"},
    {"maxInstructions", FIELD(max_instructions), VDPU_PARAM_U64, 0, 0, U64_MAX, 0, "instructions",
     "watchdog: real instructions per run, 0 = none (no hardware figure)"},
    /* 2^36 cycles: about 196 s of DPU time at 350 MHz (172 s at 400 MHz),
     * orders of magnitude above the kernels of the published benchmarks, yet
     * a bound: on the hardware a DPU that loops forever keeps the launch
     * waiting forever; here the launch fails with every tasklet's place */
    {"maxCycles", FIELD(max_cycles), VDPU_PARAM_U64, 68719476736.0, 0, U64_MAX, 0, "cycles",
     "watchdog: modeled DPU cycles per run (issue slots with mode=fast), 0 = none; the default "
     "2^36 is ~196 s of DPU time at 350 MHz, far above any real kernel (no hardware figure: "
     "on the DPU an endless loop never ends the launch)"},
};
const unsigned vdpu_param_count = sizeof vdpu_param_table / sizeof vdpu_param_table[0];

/* see vdpu.h */
double vdpu_param_get(const vdpu_params_t *p, const vdpu_param_desc_t *d)
{
    const char *at = (const char *)p + d->offset;
    uint32_t u32;
    uint64_t u64;
    double x;
    switch (d->type) {
    case VDPU_PARAM_U32:
        memcpy(&u32, at, sizeof u32);
        return (double)u32;
    case VDPU_PARAM_U64:
        memcpy(&u64, at, sizeof u64);
        return (double)u64;
    case VDPU_PARAM_DOUBLE:
        memcpy(&x, at, sizeof x);
        return x;
    }
    return 0.0;
}

static void param_set_default(vdpu_params_t *p, const vdpu_param_desc_t *d)
{
    char *at = (char *)p + d->offset;
    uint32_t u32 = (uint32_t)d->def;
    uint64_t u64 = (uint64_t)d->def;
    switch (d->type) {
    case VDPU_PARAM_U32:
        memcpy(at, &u32, sizeof u32);
        break;
    case VDPU_PARAM_U64:
        memcpy(at, &u64, sizeof u64);
        break;
    case VDPU_PARAM_DOUBLE:
        memcpy(at, &d->def, sizeof d->def);
        break;
    }
}

/* see vdpu.h */
void vdpu_params_default(vdpu_params_t *p)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    p->mode = VDPU_MODE_TIMED;
    p->dma_rules = VDPU_RULES_WARN;
    p->stop_rules = VDPU_RULES_WARN;
    p->skip_steady = 1;
    for (unsigned i = 0; i < vdpu_param_count; i++)
        param_set_default(p, &vdpu_param_table[i]);
}

/* see vdpu.h */
const char *vdpu_param_check(const vdpu_params_t *p, const vdpu_param_desc_t *d)
{
    /* a thread's own buffer: profiles are built on many threads at once */
    static _Thread_local char why[128];
    double x = vdpu_param_get(p, d);
    /* !(x >= lo) also refuses a NaN */
    if (d->lo_excluded ? !(x > d->lo) : !(x >= d->lo)) {
        snprintf(why, sizeof why, "%s must be %s %g", d->key, d->lo_excluded ? ">" : ">=", d->lo);
        return why;
    }
    if (x > d->hi) {
        snprintf(why, sizeof why, "%s must be %.0f..%.0f", d->key, d->lo, d->hi);
        return why;
    }
    return NULL;
}

/* see vdpu.h */
const char *vdpu_params_check(const vdpu_params_t *p)
{
    for (unsigned i = 0; i < vdpu_param_count; i++) {
        const char *why = vdpu_param_check(p, &vdpu_param_table[i]);
        if (why)
            return why;
    }
    if (p->mode != VDPU_MODE_TIMED && p->mode != VDPU_MODE_FAST)
        return "mode must be timed or fast";
    if ((unsigned)p->dma_rules > VDPU_RULES_STRICT)
        return "dmaRules must be warn, quiet or strict";
    if ((unsigned)p->stop_rules > VDPU_RULES_STRICT)
        return "stopRules must be warn, quiet or strict";
    return NULL;
}
