/* jit.h -- the translator of the virtual DPU: predecoded DPU code (vinsn_t)
 * to x86-64 machine code, run in place of the interpreter's fast path in
 * mode=fast (docs/VIRTUAL_DPU.md, "Translation to host code").
 *
 * Contract of a translation: entering it at instruction index pc, with
 * `left` issue slots of budget not yet charged for the run that starts at
 * pc, it executes exactly what exec_core (run.c) would execute from there,
 * charging each straight-line run's `run` slot sum (cost.c's, never its
 * own) when the run is entered, and returns at an instruction index p with
 * the budget left such that nothing of the run from p on is charged: p is an
 * instruction it does not translate (ecall, DMA, multiply, ...), one whose
 * check failed (an access that is not an aligned WRAM one, a jump outside
 * .text, sp leaving its stack), a run that does not fit in what is left, or
 * an indirect jump to a place with no entry. The interpreter then goes on at
 * p as if it had entered that run itself, so faults, services and the end of
 * the quantum happen in the interpreter, at the same instruction. */
#ifndef VDPU_JIT_H
#define VDPU_JIT_H

#include <string.h>

#include "vdpu_internal.h"

typedef struct vdpu_jit vdpu_jit_t;

/* The translation of `code` (n instructions plus the sentinel), or NULL
 * where there is none: a host that is not x86-64 Linux, out of memory, or
 * the executable mapping refused.
 *
 * pure = 0: the form above, for fast mode (loads and stores inline).
 * pure = 1: the form for timed mode's run-ahead (run.c's runahead()): only
 * instructions that touch nothing but the tasklet's registers run; the
 * budget counts records (runahead's cap) instead of slots, charged per run
 * as its record count and refunded the same way, and the slots of what ran
 * are returned beside it; a load or store exits like an instruction not
 * translated (it is a head, issued at its cycle by the scheduler).
 * pure = 2: the window form (run.c's win_part, a member's part of a window):
 * the run-ahead form, in which the heads that are a load or store of 1, 2 or
 * 4 bytes alone in their issue slot (cost 1, the next one's not 0) run inline as
 * the window runs them (vdpu_jit_win below) instead of exiting; entries at
 * every head and at those instructions. */
vdpu_jit_t *vdpu_jit_build(const vinsn_t *code, uint32_t n, int pure);
void vdpu_jit_free(vdpu_jit_t *j);

/* The program's translation of its code (fused: code, else code_rv32) in
 * the form `pure`, built on first use and shared by every DPU and thread
 * that runs the program (published atomically; a thread that loses the race
 * frees its own). NULL when there is none. */
const vdpu_jit_t *vdpu_jit_get(const vdpu_program_t *p, int fused, int pure);

/* Free the program's translations (vdpu_program_free). */
void vdpu_jit_release(vdpu_program_t *p);

/* The entry of the run at instruction index pc, NULL when there is none;
 * vdpu_jit_entries: the table of them (n + 1), for a lookup inline. */
const void *vdpu_jit_entry(const vdpu_jit_t *j, uint32_t pc);
const void *const *vdpu_jit_entries(const vdpu_jit_t *j);

/* The translated code's signature (its prologue's registers: jit.c) and the
 * first members of every translation, so that the call below is inline in
 * the interpreter's loops: a call per run-ahead segment */
typedef uint64_t (*vdpu_jit_fn_t)(uint32_t *R, uint8_t *W, uint32_t left, const void *const *table,
                                  vtask_t *t, const void *entry);
typedef struct {
    vdpu_jit_fn_t fn;
    const void *const *table; /* where translated code may jump, by pc */
} vdpu_jit_head_t;

/* Enter at `entry` (vdpu_jit_entry's, not NULL) with tasklet t's registers,
 * the DPU's WRAM W and *left of budget; returns the instruction index where
 * the translation stopped, updates *left (contract above) and sets *slots to
 * the issue slots of what ran (the pure form; 0 in the other, whose budget
 * is in slots already). */
static inline uint32_t vdpu_jit_run(const vdpu_jit_t *j, const void *entry, vtask_t *t, uint8_t *W,
                                    uint32_t *left, uint32_t *slots)
{
    const vdpu_jit_head_t *h = (const vdpu_jit_head_t *)(const void *)j;
    const uint64_t r = h->fn(t->r, W, *left, h->table, t, entry);
    *left = (uint32_t)(r >> 32);
    *slots = (uint32_t)r >> 16;
    return (uint32_t)r & 0xffff;
}

/* The window form's state (read and written by the translated code at fixed
 * offsets). A head's cycle is the one before + L * (1 + the slots of the
 * run-ahead between them); it runs when before T, its address is an aligned
 * WRAM word, its stamp (run.c's win_stamp, on st with generation g) shows no
 * conflict at relative cycle H - c0 and, for a store, the undo log has room;
 * otherwise the translation exits at it with nothing of it done. */
typedef struct {
    uint64_t H;                  /* in: the cycle of the head before the entry's
                                    (entry's - L); out: of the last head run */
    uint64_t L, T;               /* period, horizon */
    uint32_t *st;                /* the stamps, one per WRAM word */
    void *undo;                  /* the undo log: {word index, old value} */
    uint64_t ins, slots, nheads; /* added to: each head 1 + its run-ahead's */
    uint32_t c0;                 /* a head's relative cycle is H - c0 (32-bit) */
    uint32_t g;                  /* the window's generation << 24 */
    uint32_t nu, ucap;           /* undo entries used, and there is room for */
    uint32_t xa, xe;             /* scratch: a pair's second address and stamp */
    uint32_t left, sl;           /* out: records left of the run-ahead cap (64)
                                    and slots of the run-ahead after the last
                                    head (it stopped at the returned index) */
} vdpu_jit_wctx_t;

/* The heads the window form runs: 1 for a load or store of 1, 2 or 4 bytes
 * alone in its issue slot (cost 1, the next one's not 0); 2 for two word
 * loads or two word stores that cost fusion pairs into one ld/sd (the second
 * costs 0, the one after it not; two different words), the second's base
 * register not written by the first; else 0. */
static inline int vdpu_jit_win_head(const vinsn_t *code, uint32_t i)
{
    const vinsn_t *I = &code[i], *B = I + 1;
    if (I->op < OP_LB || I->op > OP_SW || I->cost != 1)
        return 0;
    if (B->cost != 0)
        return 1;
    /* (two words, 8k and 8k + 4 from one base, as cost.c pairs them) */
    return (I->op == OP_LW || I->op == OP_SW) && B->op == I->op && B[1].cost != 0 &&
                   B->rs1 == I->rs1 && (B->imm - I->imm == 4 || I->imm - B->imm == 4) &&
                   (I->op == OP_SW || I->rd != B->rs1)
               ? 2
               : 0;
}

typedef uint32_t (*vdpu_jit_wfn_t)(uint32_t *R, uint8_t *W, vdpu_jit_wctx_t *c,
                                   const void *const *table, vtask_t *t, const void *entry);

/* Enter the window form at `entry` (the entry of a head it runs): runs heads
 * and their run-aheads until one it does not run; returns the instruction
 * index where it stopped (a head not run, or inside a run-ahead: the rest of
 * it is the interpreter's), c updated. */
static inline uint32_t vdpu_jit_win(const vdpu_jit_t *j, const void *entry, vtask_t *t, uint8_t *W,
                                    vdpu_jit_wctx_t *c)
{
    const vdpu_jit_head_t *h = (const vdpu_jit_head_t *)(const void *)j;
    vdpu_jit_wfn_t fn;
    _Static_assert(sizeof fn == sizeof h->fn, "one code address");
    memcpy(&fn, &h->fn, sizeof fn);
    return fn(t->r, W, c, h->table, t, entry) & 0xffffu;
}

#endif
