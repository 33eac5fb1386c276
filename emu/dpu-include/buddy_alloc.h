/* buddy_alloc.h -- buddy allocator over a block of the WRAM heap
 * (virtual UPMEM, SDK names). buddy_init(size_of_heap) once per boot
 * (a power of two, 32..32768; the block is taken with mem_alloc);
 * buddy_alloc(size) returns a block of the next power of two >= size
 * (minimum 16 bytes, 8-aligned) or NULL with errno = ENOMEM;
 * buddy_free(p) (NULL is ignored); buddy_realloc(p, size) (NULL p = alloc,
 * size 0 = free, contents kept up to the smaller size); buddy_reset() frees
 * every block. Serialized by a runtime lock. */
#ifndef _DPU_BUDDY_ALLOC_H_
#define _DPU_BUDDY_ALLOC_H_

#include <stddef.h>

void buddy_init(size_t size_of_heap);
void *buddy_alloc(size_t size);
void buddy_free(void *pointer);
void *buddy_realloc(void *pointer, size_t size);
void buddy_reset(void);

#endif
