/* alloc.h -- WRAM heap (virtual UPMEM, SDK names).
 * The heap is [__sys_heap_start, 64 KiB): WRAM after the image and the
 * tasklet stacks. mem_alloc is a bump allocator shared by all tasklets
 * (serialized by a runtime lock), results are 8-byte aligned, there is no
 * free. Exhausting the heap faults the DPU (VDPU_FAULT_HEAP_FULL, the SDK's
 * __FAULT_ALLOC_HEAP_FULL__). The heap pointer is a global: it persists across
 * launches and is only rewound by mem_reset() (call it at the start of main
 * when the DPU is launched several times) or by reloading the program. */
#ifndef _DPU_ALLOC_H_
#define _DPU_ALLOC_H_

#include <stddef.h>

/* as the SDK's alloc.h: the other allocators come with it */
#include <attributes.h>
#include <buddy_alloc.h>
#include <fsb_allocator.h>

/* Allocate size bytes (8-aligned). mem_alloc(0) returns the current heap top. */
void *mem_alloc(size_t size);
/* Rewind the heap to its start; returns the start. */
void *mem_reset(void);

#endif
