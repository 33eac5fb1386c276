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

#define __mram_ptr         __attribute__((address_space(255)))
#define __mram             __mram_ptr __attribute__((section(".mram"), aligned(8), used))
#define __mram_noinit      __mram_ptr __attribute__((section(".mram_noinit"), aligned(8), used))
#define __mram_keep        __mram
#define __mram_noinit_keep __mram_noinit

/* First free 8-aligned MRAM byte after all MRAM variables. */
extern __mram_ptr uint8_t __sys_used_mram_end[];
#define DPU_MRAM_HEAP_POINTER ((__mram_ptr void *)(__sys_used_mram_end))

#define __VDPU_DMA_BAD(n) ((n) < 8 || (n) > 2048 || ((n)&7) != 0)

/* MRAM -> WRAM. nb_of_bytes: 8..2048, multiple of 8; addresses 8-aligned. */
static inline __attribute__((always_inline, unused)) void
mram_read(const __mram_ptr void *from, void *to, unsigned int nb_of_bytes)
    __attribute__((diagnose_if(__VDPU_DMA_BAD(nb_of_bytes),
                               "mram_read: size must be 8..2048 and a multiple of 8", "error")))
{
    vdpu_ecall3(VDPU_SYS_MRAM_READ, (uint32_t)from, (uint32_t)to, nb_of_bytes);
}

/* WRAM -> MRAM. Same rules. */
static inline __attribute__((always_inline, unused)) void
mram_write(const void *from, __mram_ptr void *to, unsigned int nb_of_bytes)
    __attribute__((diagnose_if(__VDPU_DMA_BAD(nb_of_bytes),
                               "mram_write: size must be 8..2048 and a multiple of 8", "error")))
{
    vdpu_ecall3(VDPU_SYS_MRAM_WRITE, (uint32_t)from, (uint32_t)to, nb_of_bytes);
}

#endif
