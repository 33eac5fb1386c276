/* buddy_alloc.c -- buddy allocator (buddy_alloc.h).
 * Blocks of 16 << k bytes. meta[i] describes the 16-byte unit i of the
 * heap: 0 = not the head of a block, FREE | k = head of a free block of
 * order k, USED | k = head of an allocated block. Free blocks of order k
 * form a doubly linked list through their first two words. */
#include <alloc.h>
#include <atomic_bit.h>
#include <buddy_alloc.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../vdpu/abi.h"

#define MIN_SHIFT  4u
#define MAX_ORDERS 12u /* 16 << 11 = 32 KiB */
#define FREE       0x40u
#define USED       0x80u

typedef struct blk {
    struct blk *next, *prev;
} blk_t;

static uint8_t *heap;
static uint8_t *meta;
static uint32_t heap_size, top_order;
static blk_t *free_list[MAX_ORDERS];
static uint8_t __atomic_bit lock_bit;
#define LOCK()   __vdpu_acquire((uint32_t)&lock_bit)
#define UNLOCK() __vdpu_release((uint32_t)&lock_bit)

static void push(blk_t *b, uint32_t k)
{
    b->prev = NULL;
    b->next = free_list[k];
    if (b->next != NULL)
        b->next->prev = b;
    free_list[k] = b;
    meta[((uint8_t *)b - heap) >> MIN_SHIFT] = (uint8_t)(FREE | k);
}

static void unlink_blk(blk_t *b, uint32_t k)
{
    if (b->prev != NULL)
        b->prev->next = b->next;
    else
        free_list[k] = b->next;
    if (b->next != NULL)
        b->next->prev = b->prev;
    meta[((uint8_t *)b - heap) >> MIN_SHIFT] = 0;
}

static void reset_locked(void)
{
    for (uint32_t k = 0; k < MAX_ORDERS; k++)
        free_list[k] = NULL;
    memset(meta, 0, heap_size >> MIN_SHIFT);
    push((blk_t *)heap, top_order);
}

/* see buddy_alloc.h */
void buddy_init(size_t size_of_heap)
{
    uint32_t k = 0;
    while (k + 1 < MAX_ORDERS && (16u << k) < size_of_heap)
        k++;
    if ((16u << k) != size_of_heap || size_of_heap < 32u)
        vdpu_ecall2(VDPU_SYS_FAULT, VDPU_FAULT_HEAP_FULL,
                    (uint32_t) "buddy_init: heap size must be a power of two in 32..32768");
    LOCK();
    heap_size = (uint32_t)size_of_heap;
    top_order = k;
    heap = mem_alloc(heap_size);
    meta = mem_alloc(heap_size >> MIN_SHIFT);
    reset_locked();
    UNLOCK();
}

/* see buddy_alloc.h */
void buddy_reset(void)
{
    LOCK();
    if (heap != NULL)
        reset_locked();
    UNLOCK();
}

static uint32_t order_of(size_t size)
{
    uint32_t k = 0;
    while (k <= top_order && (16u << k) < size)
        k++;
    return k;
}

/* see buddy_alloc.h */
void *buddy_alloc(size_t size)
{
    uint32_t k = order_of(size);
    LOCK();
    uint32_t j = k;
    while (j <= top_order && free_list[j] == NULL)
        j++;
    if (heap == NULL || k > top_order || j > top_order) {
        UNLOCK();
        errno = ENOMEM;
        return NULL;
    }
    blk_t *b = free_list[j];
    unlink_blk(b, j);
    while (j > k) { /* split: keep the lower half, free the upper half */
        j--;
        push((blk_t *)((uint8_t *)b + (16u << j)), j);
    }
    meta[((uint8_t *)b - heap) >> MIN_SHIFT] = (uint8_t)(USED | k);
    UNLOCK();
    return b;
}

/* see buddy_alloc.h */
void buddy_free(void *pointer)
{
    if (pointer == NULL)
        return;
    LOCK();
    uint32_t off = (uint32_t)((uint8_t *)pointer - heap);
    uint32_t k = meta[off >> MIN_SHIFT] & 0x3Fu;
    for (; k < top_order; k++) {
        uint32_t buddy = off ^ (16u << k);
        if (meta[buddy >> MIN_SHIFT] != (FREE | k))
            break;
        unlink_blk((blk_t *)(heap + buddy), k);
        meta[off >> MIN_SHIFT] = 0;
        off &= ~(16u << k);
    }
    push((blk_t *)(heap + off), k);
    UNLOCK();
}

/* see buddy_alloc.h */
void *buddy_realloc(void *pointer, size_t size)
{
    if (pointer == NULL)
        return buddy_alloc(size);
    if (size == 0) {
        buddy_free(pointer);
        return NULL;
    }
    uint32_t old = 16u << (meta[((uint8_t *)pointer - heap) >> MIN_SHIFT] & 0x3Fu);
    if (size <= old && size > old / 2)
        return pointer;
    void *n = buddy_alloc(size);
    if (n != NULL) {
        memcpy(n, pointer, size < old ? size : old);
        buddy_free(pointer);
    }
    return n;
}
