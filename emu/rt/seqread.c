/* seqread.c -- runtime of the sequential MRAM reader (seqread.h).
 * The cache holds two pages: [mram_addr, mram_addr + 2 * page). The pointer
 * handed out always lies in the first page, so an item of up to one page
 * starting there is contiguous. */
#include <alloc.h>
#include <seqread.h>
#include <stdint.h>

#include "../vdpu/abi.h"

/* see seqread.h */
seqreader_buffer_t __seqread_alloc(uint32_t page)
{
    return (seqreader_buffer_t)mem_alloc(2u * page);
}

static void load(seqreader_t *r, uint32_t page)
{
    __VDPU_DMA(0, r->wram_cache, r->mram_addr, 2u * page); /* one ldma */
}

/* see seqread.h */
void *__seqread_seek(__mram_ptr void *mram_addr, seqreader_t *r, uint32_t page)
{
    uintptr_t a = (uintptr_t)mram_addr;
    uintptr_t aligned = a & ~(uintptr_t)(page - 1u);
    if (aligned != r->mram_addr) {
        r->mram_addr = aligned;
        load(r, page);
    }
    return (void *)(r->wram_cache + (a - aligned));
}

/* see seqread.h: p left the first page; slide the window by whole pages. */
void *__seqread_refill(uintptr_t p, seqreader_t *r, uint32_t page)
{
    uintptr_t advance = (p - r->wram_cache) & ~(uintptr_t)(page - 1u);
    r->mram_addr += advance;
    load(r, page);
    return (void *)(p - advance);
}
