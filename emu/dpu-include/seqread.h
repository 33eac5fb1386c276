/* seqread.h -- sequential reader of MRAM (virtual UPMEM, SDK names).
 * seqread_alloc() takes a 2 * SEQREAD_CACHE_SIZE cache from the WRAM heap;
 * seqread_init(cache, mram_addr, &reader) maps mram_addr (any alignment) and
 * returns the WRAM pointer to its first byte; seqread_get(ptr, inc, &reader)
 * advances by inc bytes (inc < SEQREAD_CACHE_SIZE for contiguous items; larger
 * increments work too) and refills the cache with one DMA when ptr leaves the
 * first page; seqread_seek(mram_addr, &reader) jumps; seqread_tell(ptr,
 * &reader) gives the MRAM address of ptr. An item of up to
 * SEQREAD_CACHE_SIZE bytes at ptr is always contiguous in the cache.
 * SEQREAD_CACHE_SIZE: 32, 64, 128, 256 (default), 512 or 1024, defined before
 * including this header. */
#ifndef _DPU_SEQREAD_H_
#define _DPU_SEQREAD_H_

#include <macro_utils.h>
#include <mram.h>
#include <stdint.h>

#ifndef SEQREAD_CACHE_SIZE
#define SEQREAD_CACHE_SIZE 256
#endif

_Static_assert(SEQREAD_CACHE_SIZE == 32 || SEQREAD_CACHE_SIZE == 64 || SEQREAD_CACHE_SIZE == 128 ||
                   SEQREAD_CACHE_SIZE == 256 || SEQREAD_CACHE_SIZE == 512 ||
                   SEQREAD_CACHE_SIZE == 1024,
               "seqread error: invalid cache size defined");

typedef uintptr_t seqreader_buffer_t;

typedef struct {
    seqreader_buffer_t wram_cache; /* 2 pages of WRAM                         */
    uintptr_t mram_addr;           /* MRAM address mapped at wram_cache (page aligned) */
} seqreader_t;

/* runtime (emu/rt/seqread.c); page = SEQREAD_CACHE_SIZE */
seqreader_buffer_t __seqread_alloc(uint32_t page);
void *__seqread_seek(__mram_ptr void *mram_addr, seqreader_t *reader, uint32_t page);
void *__seqread_refill(uintptr_t ptr, seqreader_t *reader, uint32_t page);

#define seqread_alloc() __seqread_alloc(SEQREAD_CACHE_SIZE)

static inline __attribute__((always_inline, unused)) void *
seqread_init(seqreader_buffer_t cache, __mram_ptr void *mram_addr, seqreader_t *reader)
{
    reader->wram_cache = cache;
    reader->mram_addr = (uintptr_t)-1; /* force a load */
    return __seqread_seek(mram_addr, reader, SEQREAD_CACHE_SIZE);
}

static inline __attribute__((always_inline, unused)) void *seqread_get(void *ptr, uint32_t inc,
                                                                       seqreader_t *reader)
{
    uintptr_t p = (uintptr_t)ptr + inc;
    if (__builtin_expect(p < reader->wram_cache + SEQREAD_CACHE_SIZE, 1))
        return (void *)p;
    return __seqread_refill(p, reader, SEQREAD_CACHE_SIZE);
}

static inline __attribute__((always_inline, unused)) void *seqread_seek(__mram_ptr void *mram_addr,
                                                                        seqreader_t *reader)
{
    return __seqread_seek(mram_addr, reader, SEQREAD_CACHE_SIZE);
}

static inline __attribute__((always_inline, unused)) __mram_ptr void *
seqread_tell(void *ptr, seqreader_t *reader)
{
    return (__mram_ptr void *)(reader->mram_addr + ((uintptr_t)ptr - reader->wram_cache));
}

#endif
