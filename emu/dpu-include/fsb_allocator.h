/* fsb_allocator.h -- fixed-size-block allocator (virtual UPMEM, SDK names).
 * fsb_alloc(block_size, nb_of_blocks) carves nb_of_blocks blocks (block_size
 * rounded up to 8) out of the WRAM heap with mem_alloc; fsb_get() returns a
 * free block or NULL; fsb_free() gives one back. Thread-safe (runtime lock). */
#ifndef _DPU_FSB_ALLOCATOR_H_
#define _DPU_FSB_ALLOCATOR_H_

typedef void **fsb_allocator_t;

fsb_allocator_t fsb_alloc(unsigned int block_size, unsigned int nb_of_blocks);
void *fsb_get(fsb_allocator_t allocator);
void fsb_free(fsb_allocator_t allocator, void *ptr);

#endif
