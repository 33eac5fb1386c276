/*
 * dpu_lib.h -- what the DPU programs of dpu/ share: stringification of the
 * host-visible symbol names, the tasklets' shares of a job, the wiping of
 * secrets from WRAM, the chunk size a program can afford per tasklet, and
 * the compile-time check of its WRAM budget.  Macros and one static
 * function: every program compiles them into its own image (a DPU program
 * is one translation unit plus the portable primitives of src/crypto).
 */
#ifndef CPIM_DPU_LIB_H
#define CPIM_DPU_LIB_H

#include <stdint.h>

/* DPU_STR(x): x macro-expanded, then made a string (the host looks the
 * symbols of the *_args.h contracts up by name). */
#define DPU_STR_(x) #x
#define DPU_STR(x)  DPU_STR_(x)

#ifdef NR_TASKLETS /* the rest is for the DPU programs, not their hosts */

/* Tasklet t's share of n equal items: [TASKLET_BEGIN(n, t), TASKLET_END(n, t)).
 * Contiguous runs that differ by at most one item, so every tasklet does
 * the same work and none waits for a straggler; together they cover
 * [0, n) exactly.  n * NR_TASKLETS must fit the type of n. */
#define TASKLET_BEGIN(n, t) ((n) * (t) / NR_TASKLETS)
#define TASKLET_END(n, t)   ((n) * ((t) + 1) / NR_TASKLETS)

/* DPU_CHUNK(cap, budget): the bytes of a tasklet's WRAM buffer -- the
 * largest of 2048 (the largest DMA), 1024, 512 and 256 that is at most cap
 * and lets NR_TASKLETS buffers fit `budget` bytes (the WRAM the program
 * leaves to its buffers after its tables and the stacks).  Large chunks
 * amortise a DMA's fixed cost over more work; the budget is what keeps the
 * whole program within WRAM (DPU_WRAM_CHECK). */
#define DPU_CHUNK(cap, budget)                                                                     \
    ((cap) >= 2048u && NR_TASKLETS * 2048u <= (budget)   ? 2048u                                   \
     : (cap) >= 1024u && NR_TASKLETS * 1024u <= (budget) ? 1024u                                   \
     : (cap) >= 512u && NR_TASKLETS * 512u <= (budget)   ? 512u                                    \
                                                         : 256u)

/* The stack of each tasklet (the SDK's default unless the build sets it). */
#ifdef STACK_SIZE_DEFAULT
#define DPU_STACK_BYTES STACK_SIZE_DEFAULT
#else
#define DPU_STACK_BYTES 1024
#endif
#define DPU_WRAM_BYTES 65536

/* DPU_WRAM_CHECK(bytes): fails the build when `bytes` of the program's own
 * WRAM (buffers + tables) plus every tasklet's stack exceed the 64 KiB of
 * WRAM -- the check the linker would only make later, and with a less
 * useful message. */
#define DPU_WRAM_CHECK(bytes)                                                                      \
    _Static_assert((bytes) + NR_TASKLETS * DPU_STACK_BYTES <= DPU_WRAM_BYTES,                      \
                   "buffers + tables + NR_TASKLETS x stack exceed the 64 KiB of WRAM")

/* Zeroes n words in a way the compiler keeps: the point is to leave no key
 * material in WRAM after the kernel, which no later read of ours observes
 * (the next program on this DPU, or a host read, would). */
static __attribute__((unused)) void wipe_words(uint32_t *p, uint32_t n)
{
    volatile uint32_t *v = p;
    for (uint32_t i = 0; i < n; i++)
        v[i] = 0;
}

#endif /* NR_TASKLETS */

#endif /* CPIM_DPU_LIB_H */
