/* mram.h -- MRAM variables and DMA (virtual UPMEM, SDK names).
 * MRAM lives at DPU address 0x08000000 (64 MiB). Pointer values of MRAM
 * variables are absolute (0x08000000 + offset); DMA accepts both absolute
 * addresses and plain offsets (taken modulo 64 MiB). Direct dereference of
 * a __mram_ptr works for absolute addresses only. */
#ifndef _DPU_MRAM_H_
#define _DPU_MRAM_H_

#include <attributes.h>
#include <stdint.h>

#include "../vdpu/abi.h"

/* __mram_ptr, __mram, __mram_noinit and their _keep forms: attributes.h,
 * where the SDK has them. */

/* First free 8-aligned MRAM byte after all MRAM variables. */
extern __mram_ptr uint8_t __sys_used_mram_end[];
#define DPU_MRAM_HEAP_POINTER ((__mram_ptr void *)(__sys_used_mram_end))

#define __VDPU_DMA_BAD(n) ((n) < 8 || (n) > 2048 || ((n)&7) != 0)

/* One ldma (wr 0) / sdma (wr 1) instruction, as the SDK's
 * __builtin_dpu_ldma/sdma: WRAM address, MRAM address, size. Encoded in RV32's
 * custom-2 opcode (docs/VIRTUAL_DPU.md): a constant size as the DPU's 8-bit
 * immediate n/8 - 1 (funct7 = its low 7 bits, funct3 bit 1 = bit 7), any
 * other size in a register (funct3 4/5, the register in the rd field), so
 * that the interpreter can still check it (dmaRules, vdpu_rules_t). */
#define __VDPU_DMA(wr, wram, mram, n)                                                              \
    do {                                                                                           \
        if (__builtin_constant_p(n) && !__VDPU_DMA_BAD(n))                                         \
            __asm__ volatile(".insn r 0x5b, %2, %3, x0, %0, %1"                                    \
                             :                                                                     \
                             : "r"((uint32_t)(wram)), "r"((uint32_t)(mram)),                       \
                               "i"((wr) | ((((n) / 8 - 1) >> 7) << 1)), "i"(((n) / 8 - 1) & 0x7f)  \
                             : "memory");                                                          \
        else                                                                                       \
            __asm__ volatile(".insn r 0x5b, %3, 0, %2, %0, %1"                                     \
                             :                                                                     \
                             : "r"((uint32_t)(wram)), "r"((uint32_t)(mram)), "r"((uint32_t)(n)),   \
                               "i"(4 | (wr))                                                       \
                             : "memory");                                                          \
    } while (0)

/* MRAM -> WRAM. nb_of_bytes: 8..2048, multiple of 8; addresses 8-aligned. */
static inline __attribute__((always_inline, unused, nodebug)) void
mram_read(const __mram_ptr void *from, void *to, unsigned int nb_of_bytes)
    __attribute__((diagnose_if(__VDPU_DMA_BAD(nb_of_bytes),
                               "mram_read: size must be 8..2048 and a multiple of 8", "error")))
{
    __VDPU_DMA(0, to, from, nb_of_bytes);
}

/* WRAM -> MRAM. Same rules. */
static inline __attribute__((always_inline, unused, nodebug)) void
mram_write(const void *from, __mram_ptr void *to, unsigned int nb_of_bytes)
    __attribute__((diagnose_if(__VDPU_DMA_BAD(nb_of_bytes),
                               "mram_write: size must be 8..2048 and a multiple of 8", "error")))
{
    __VDPU_DMA(1, from, to, nb_of_bytes);
}

#endif
