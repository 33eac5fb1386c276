/* alloc.c -- WRAM heap: mem_alloc/mem_reset (alloc.h) and the fixed-size-block
 * allocator (fsb_allocator.h). */
#include <alloc.h>
#include <atomic_bit.h>
#include <fsb_allocator.h>
#include <stddef.h>
#include <stdint.h>

#include "../vdpu/abi.h"

extern uint8_t __sys_heap_start[];

/* Current heap top. A plain global: it persists across launches like any
 * other global (the SDK's documented behaviour); mem_reset rewinds it. */
uint32_t __sys_heap_pointer = (uint32_t)__sys_heap_start;

/* the heap's atomic bit, as the SDK's __heap_pointer bit */
static uint8_t __atomic_bit heap_bit;
#define HEAP_LOCK ((uint32_t)&heap_bit)

/* see alloc.h */
void *mem_alloc(size_t size)
{
    __vdpu_acquire(HEAP_LOCK);
    uint32_t p = (__sys_heap_pointer + 7u) & ~7u;
    if (size > VDPU_WRAM_SIZE || p + size > VDPU_WRAM_SIZE)
        vdpu_ecall2(
            VDPU_SYS_FAULT, VDPU_FAULT_HEAP_FULL,
            (uint32_t) "mem_alloc: WRAM heap exhausted (heap is [__sys_heap_start, 64 KiB))");
    if (size != 0)
        __sys_heap_pointer = p + size;
    else
        p = __sys_heap_pointer;
    __vdpu_release(HEAP_LOCK);
    return (void *)p;
}

/* see alloc.h */
void *mem_reset(void)
{
    __vdpu_acquire(HEAP_LOCK);
    __sys_heap_pointer = (uint32_t)__sys_heap_start;
    __vdpu_release(HEAP_LOCK);
    return __sys_heap_start;
}

/* ---------------------------------------------------------------- fsb */
/* Layout: nb blocks chained through their first word, then one word holding
 * the head of the free list; the allocator handle points to that word. */
static uint8_t __atomic_bit fsb_bit;
#define FSB_LOCK ((uint32_t)&fsb_bit)

/* see fsb_allocator.h */
fsb_allocator_t fsb_alloc(unsigned int block_size, unsigned int nb_of_blocks)
{
    block_size = block_size == 0 ? 8u : (block_size + 7u) & ~7u;
    if (nb_of_blocks == 0 || block_size > VDPU_WRAM_SIZE || nb_of_blocks > VDPU_WRAM_SIZE / 8u)
        vdpu_ecall2(VDPU_SYS_FAULT, VDPU_FAULT_HEAP_FULL,
                    (uint32_t) "fsb_alloc: request exceeds WRAM");
    uint8_t *mem = mem_alloc(block_size * nb_of_blocks + 8u);
    uint8_t *b = mem;
    for (unsigned int i = 0; i + 1 < nb_of_blocks; i++, b += block_size)
        *(void **)b = b + block_size;
    *(void **)b = NULL;
    void **head = (void **)(b + block_size);
    *head = mem;
    return head;
}

/* see fsb_allocator.h */
void *fsb_get(fsb_allocator_t allocator)
{
    __vdpu_acquire(FSB_LOCK);
    void **blk = *allocator;
    if (blk != NULL)
        *allocator = *blk;
    __vdpu_release(FSB_LOCK);
    return blk;
}

/* see fsb_allocator.h */
void fsb_free(fsb_allocator_t allocator, void *ptr)
{
    __vdpu_acquire(FSB_LOCK);
    *(void **)ptr = *allocator;
    *allocator = ptr;
    __vdpu_release(FSB_LOCK);
}
