/* attributes.h -- DPU-side attributes (virtual UPMEM, SDK names). */
#ifndef _DPU_ATTRIBUTES_H_
#define _DPU_ATTRIBUTES_H_

#define __VDPU_STR_(x) #x
#define __VDPU_STR(x)  __VDPU_STR_(x)

/* 8-byte alignment required for DMA buffers. */
#define __dma_aligned __attribute__((aligned(8)))
#define __keep        __attribute__((used))
#define __used        __attribute__((used))
#define __noinline    __attribute__((noinline))
#ifndef __section
#define __section(s) __attribute__((section(s)))
#endif
/* Host-visible WRAM variable: placed in .data.__sys_host.<n> (one section per
 * variable so const and non-const __host variables can share a file); the
 * linker script gathers them between __sys_host_begin and __sys_host_end. */
#define __host                                                                                     \
    __attribute__((section(".data.__sys_host." __VDPU_STR(__COUNTER__)), aligned(8), used))
/* An atomic bit: a name in the non-loaded `.atomic` region whose address's
 * low byte is the bit number (atomic_bit.h, emu/rt/dpu.lds). */
#define __atomic_bit       __attribute__((section(".atomic"), used))
#define __lower_data(name) __attribute__((used))

#define DEPRECATED __attribute__((deprecated))
#if __STDC_VERSION__ >= 201112L
#define __NO_RETURN _Noreturn
#else
#define __NO_RETURN
#endif
#define __weak       __attribute__((weak))
#define __aligned(a) __attribute__((aligned(a)))

/* MRAM: the address space of MRAM pointers, and MRAM variables. */
#define __mram_ptr    __attribute__((address_space(255)))
#define __mram        __mram_ptr __attribute__((section(".mram"), aligned(8), used))
#define __mram_noinit __mram_ptr __attribute__((section(".mram_noinit"), aligned(8), used))
/* As the SDK's: the linker drops a __mram / __mram_noinit variable that no
 * code it keeps refers to (its sections are collected like any other); the
 * _keep ones stay, for variables only the host reads or writes by name. */
#define __mram_keep __mram_ptr __attribute__((section(".mram.keep"), aligned(8), used))
#define __mram_noinit_keep                                                                         \
    __mram_ptr __attribute__((section(".mram_noinit.keep"), aligned(8), used))

#endif
