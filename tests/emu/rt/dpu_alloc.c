/* dpu_alloc.c -- mem_alloc/mem_reset/fsb (NR_TASKLETS=4).
 * mode 0: reset, allocate, record; mode 1: allocate without reset (heap
 * pointer persists); mode 2: exhaust the heap (must fault HEAP_FULL). */
#include <alloc.h>
#include <barrier.h>
#include <defs.h>
#include <fsb_allocator.h>
#include <stdint.h>

__host uint32_t mode;
__host uint32_t heap_start; /* mem_reset() result                 */
__host uint32_t top_after;  /* mem_alloc(0) at the end            */
__host uint32_t ptrs[NR_TASKLETS][3];
__host uint32_t fsb_ok;

BARRIER_INIT(bar, NR_TASKLETS);

int main(void)
{
    uint32_t id = me();
    if (id == 0) {
        if (mode == 0)
            heap_start = (uint32_t)mem_reset();
        if (mode == 2)
            mem_alloc(70000);
    }
    barrier_wait(&bar);
    ptrs[id][0] = (uint32_t)mem_alloc(1 + id);
    ptrs[id][1] = (uint32_t)mem_alloc(13);
    ptrs[id][2] = (uint32_t)mem_alloc(8 * id + 3);
    uint8_t *p = (uint8_t *)ptrs[id][1];
    for (int i = 0; i < 13; i++)
        p[i] = (uint8_t)(id + 1);
    barrier_wait(&bar);
    if (id == 0) {
        fsb_allocator_t a = fsb_alloc(12, 3);
        void *b0 = fsb_get(a), *b1 = fsb_get(a), *b2 = fsb_get(a), *b3 = fsb_get(a);
        fsb_free(a, b1);
        void *b4 = fsb_get(a);
        fsb_ok = b0 && b1 && b2 && !b3 && b4 == b1 && b0 != b2 && ((uint32_t)b0 & 7) == 0;
        top_after = (uint32_t)mem_alloc(0);
    }
    return 0;
}
