/* mram_unaligned.c -- runtime of mram_unaligned.h. */
#include <mram.h>
#include <mram_unaligned.h>
#include <stdint.h>
#include <vmutex.h>

#include "../vdpu/abi.h"

static void fault_unaligned(const char *msg)
{
    vdpu_ecall2(VDPU_SYS_FAULT, VDPU_FAULT_UNALIGNED_MRAM, (uint32_t)msg);
}

static inline void dma_read(uint32_t mram, void *wram, uint32_t n)
{
    __VDPU_DMA(0, wram, mram, n); /* one ldma, as mram_read */
}

static inline void dma_write(const void *wram, uint32_t mram, uint32_t n)
{
    __VDPU_DMA(1, wram, mram, n); /* one sdma, as mram_write */
}

/* see mram_unaligned.h */
void *mram_read_unaligned(const __mram_ptr void *from, void *buffer, unsigned int nb_of_bytes)
{
    uint32_t a = (uint32_t)from;
    uint32_t off = a & 7u;
    if (nb_of_bytes > 2048u)
        fault_unaligned("mram_read_unaligned: more than 2048 bytes");
    uint32_t total = (off + nb_of_bytes + 7u) & ~7u;
    if (total > 2048u) {
        dma_read(a - off, buffer, 2048u);
        dma_read(a - off + 2048u, (uint8_t *)buffer + 2048u, total - 2048u);
    } else if (total != 0) {
        dma_read(a - off, buffer, total);
    }
    return (uint8_t *)buffer + off;
}

/* Read-modify-write of the 8-byte MRAM word at d & ~7 with n bytes from f. */
static void patch_word(uint32_t d, const uint8_t *f, uint32_t n)
{
    uint64_t word __attribute__((aligned(8)));
    uint8_t *w = (uint8_t *)&word + (d & 7u);
    dma_read(d & ~7u, &word, 8u);
    for (uint32_t i = 0; i < n; i++)
        w[i] = f[i];
    dma_write(&word, d & ~7u, 8u);
}

/* see mram_unaligned.h */
void mram_write_unaligned(const void *from, __mram_ptr void *dest, unsigned int nb_of_bytes)
{
    uint32_t d = (uint32_t)dest;
    const uint8_t *f = from;
    uint32_t n = nb_of_bytes;
    if (((uint32_t)f ^ d) & 7u)
        fault_unaligned("mram_write_unaligned: the WRAM source and the MRAM destination must have "
                        "the same misalignment (address % 8)");
    if (n == 0)
        return;
    if (d & 7u) {
        uint32_t head = 8u - (d & 7u);
        if (head > n)
            head = n;
        patch_word(d, f, head);
        d += head;
        f += head;
        n -= head;
    }
    while (n >= 8u) {
        uint32_t chunk = n & ~7u;
        if (chunk > 2048u)
            chunk = 2048u;
        dma_write(f, d, chunk);
        d += chunk;
        f += chunk;
        n -= chunk;
    }
    if (n != 0)
        patch_word(d, f, n);
}

/* One virtual mutex per (dest / 8) % 256 over 8 hardware mutexes, as the
 * SDK's helpers use a vmutex. */
VMUTEX_INIT(mram_atomic_vm, 256, 8);

/* see mram_unaligned.h */
void __mram_update_atomic(uint32_t dest, uint32_t width, uint32_t value,
                          void (*update_func)(void *, void *), void *args)
{
    if (dest & (width - 1u))
        fault_unaligned("mram_*_int_atomic: the int address in MRAM must be 4-aligned");
    uint16_t key = (uint16_t)((dest >> 3) & 0xFFu);
    uint64_t word __attribute__((aligned(8)));
    uint8_t *p = (uint8_t *)&word + (dest & 7u);
    vmutex_lock(&mram_atomic_vm, key);
    dma_read(dest & ~7u, &word, 8u);
    if (update_func != 0)
        update_func(p, args);
    else if (width == 4u)
        *(uint32_t *)p = value;
    else
        *p = (uint8_t)value;
    dma_write(&word, dest & ~7u, 8u);
    vmutex_unlock(&mram_atomic_vm, key);
}
