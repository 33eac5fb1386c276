/*
 * tsme.h -- "TSME for MRAM": transparent AES-XTS encryption of a
 * DPU program's MRAM heap, opted into at build time with no change to the
 * program's source:
 *
 *     dpu-upmem-dpurte-clang -DNR_TASKLETS=16 -Idpu -Isrc/crypto -include tsme.h \
 *         -o prog prog.c build/dpu/obj/cpim_crypto_aes.o
 *
 * Included before the program's own headers, it redirects mram_read,
 * mram_write, mram_read_unaligned, mram_write_unaligned and the seqread
 * reader (seqread_init / _get / _seek) so that what reaches MRAM is
 * ciphertext and what reaches WRAM is clear text.
 *
 *  - Cipher: AES-XTS (IEEE 1619) in data units of TSME_UNIT = 512 bytes of
 *    the MRAM heap: unit u (heap offset / 512) of DPU d has the plain64
 *    tweak d << 32 | u -- the DPU and the MRAM address, so equal data at two
 *    places or on two DPUs encrypts differently.  The host encrypts a
 *    program's inputs and decrypts its outputs with the same numbering
 *    (dpu/tsme_host.h: cpim_aes_xts with first_unit = d << 32 | offset /
 *    512; see docs/RESIDENT.md).  MRAM below the heap (the program's own __mram
 *    variables) is not encrypted.
 *  - Key: the WRAM symbol tsme_key (struct tsme_key_args), written by the
 *    host before the launch, never in MRAM; the host overwrites it with
 *    zeros after the run (the program is not ours to make it wipe it).
 *  - Granularity: the cipher works on 16-byte blocks, counted from the heap
 *    pointer (which is only 8-byte aligned).  Accesses need only
 *    MRAM's 8-byte alignment: a read of half a block decrypts the whole
 *    block into a 16-byte scratch; a write of half a block is a
 *    read-modify-write of it, so two tasklets writing the two halves of one
 *    16-byte block at once would race (unlike plain MRAM): such programs
 *    need TSME_UNIT-aligned ownership.  Writes go through a per-tasklet
 *    256-byte WRAM bounce buffer (the caller's buffer is const).
 *  - Cost: software AES on the DPU, ~116 DPU cycles per byte moved at 16
 *    tasklets (modeled; a plain T-table loop and a tweak recomputed per
 *    call, not dpu/aes.c's tuned kernel) -- the point of `cryptopim bench
 *    --experiment tsme`, which also models the hypothetical hardware
 *    alternative, an AES engine on the DMA path (docs/RESIDENT.md).
 */
#ifndef CPIM_TSME_H
#define CPIM_TSME_H

#include <defs.h>
#include <mram.h>
#include <stdint.h>
/* the reader's refills go through the decrypting read below */
#define __seqread_seek   tsme_seqread_seek
#define __seqread_refill tsme_seqread_refill
#include <seqread.h>
#undef __seqread_seek
#undef __seqread_refill
#include <mram_unaligned.h>

#include "aes.h"       /* src/crypto: the tables (link build/dpu/obj/cpim_crypto_aes.o) */
#include "tsme_args.h" /* struct tsme_key_args, TSME_UNIT (host side: tsme_host.h) */
#include "xts_alpha.h" /* dpu_xts_alpha */

#define TSME_BOUNCE 256u

/* written by the host before the launch, zeroed by it after */
__host struct tsme_key_args TSME_KEY_SYM;

static __dma_aligned uint8_t tsme_bounce[NR_TASKLETS][TSME_BOUNCE];

static inline uint32_t tsme_rotr(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32u - n));
}

#define TSME_B(x, k) (((x) >> (8 * (k))) & 0xffu)

/* One AES block on FIPS words s[4] in place: encryption (te0 + rotations,
 * sbox) or the equivalent inverse cipher (td0, inv_sbox). */
static __attribute__((unused)) void tsme_aes(uint32_t s[4], int dec)
{
    const uint32_t *rk = dec ? TSME_KEY_SYM.dk : TSME_KEY_SYM.rk;
    const uint32_t *T = dec ? cpim_crypto_aes_td0 : cpim_crypto_aes_te0;
    const uint8_t *S = dec ? cpim_crypto_aes_inv_sbox : cpim_crypto_aes_sbox;
    const uint32_t nr = TSME_KEY_SYM.nr;
    /* row r of output column c comes from column c + r (enc) or c - r (dec) */
    const int d1 = dec ? 3 : 1, d3 = dec ? 1 : 3;
    uint32_t o[4];
    for (int c = 0; c < 4; c++)
        s[c] ^= rk[c];
    for (uint32_t r = 1; r < nr; r++) {
        rk += 4;
        for (int c = 0; c < 4; c++)
            o[c] = T[s[c] >> 24] ^ tsme_rotr(T[TSME_B(s[(c + d1) & 3], 2)], 8) ^
                   tsme_rotr(T[TSME_B(s[(c + 2) & 3], 1)], 16) ^
                   tsme_rotr(T[TSME_B(s[(c + d3) & 3], 0)], 24) ^ rk[c];
        for (int c = 0; c < 4; c++)
            s[c] = o[c];
    }
    rk += 4;
    for (int c = 0; c < 4; c++)
        o[c] = ((uint32_t)S[s[c] >> 24] << 24 | (uint32_t)S[TSME_B(s[(c + d1) & 3], 2)] << 16 |
                (uint32_t)S[TSME_B(s[(c + 2) & 3], 1)] << 8 | S[TSME_B(s[(c + d3) & 3], 0)]) ^
               rk[c];
    for (int c = 0; c < 4; c++)
        s[c] = o[c], o[c] = 0;
}

/* XTS over the n bytes (a multiple of 16) at w (4-byte aligned) that live
 * at heap offset off (16-aligned), in place. */
static __attribute__((unused)) void tsme_crypt(uint8_t *w, uint32_t off, uint32_t n, int dec)
{
    uint32_t T[4], s[4], u = 0xffffffffu;
    for (uint32_t i = 0; i < n; i += 16, off += 16) {
        if (off / TSME_UNIT != u) { /* a unit's first block here: E(key2, d << 32 | u) * alpha^j */
            u = off / TSME_UNIT;
            const uint32_t *k2 = TSME_KEY_SYM.k2;
            T[0] = __builtin_bswap32(u), T[1] = __builtin_bswap32(TSME_KEY_SYM.dpu), T[2] = 0,
            T[3] = 0;
            /* tsme_aes uses key1: key2's schedule swapped in for one block */
            uint32_t o[4], x[4] = {T[0] ^ k2[0], T[1] ^ k2[1], k2[2], k2[3]};
            const uint32_t *te = cpim_crypto_aes_te0;
            const uint8_t *S = cpim_crypto_aes_sbox;
            for (uint32_t r = 1; r < TSME_KEY_SYM.nr; r++) {
                k2 += 4;
                for (int c = 0; c < 4; c++)
                    o[c] = te[x[c] >> 24] ^ tsme_rotr(te[TSME_B(x[(c + 1) & 3], 2)], 8) ^
                           tsme_rotr(te[TSME_B(x[(c + 2) & 3], 1)], 16) ^
                           tsme_rotr(te[TSME_B(x[(c + 3) & 3], 0)], 24) ^ k2[c];
                for (int c = 0; c < 4; c++)
                    x[c] = o[c];
            }
            k2 += 4;
            for (int c = 0; c < 4; c++)
                T[c] = __builtin_bswap32(
                    ((uint32_t)S[x[c] >> 24] << 24 | (uint32_t)S[TSME_B(x[(c + 1) & 3], 2)] << 16 |
                     (uint32_t)S[TSME_B(x[(c + 2) & 3], 1)] << 8 | S[TSME_B(x[(c + 3) & 3], 0)]) ^
                    k2[c]);
            for (uint32_t j = (off % TSME_UNIT) / 16; j; j--)
                dpu_xts_alpha(T);
            for (int c = 0; c < 4; c++)
                x[c] = o[c] = 0;
        }
        uint32_t *q = (uint32_t *)(w + i);
        for (int c = 0; c < 4; c++)
            s[c] = __builtin_bswap32(q[c] ^ T[c]);
        tsme_aes(s, dec);
        for (int c = 0; c < 4; c++)
            q[c] = __builtin_bswap32(s[c]) ^ T[c], s[c] = 0;
        dpu_xts_alpha(T);
    }
    for (int c = 0; c < 4; c++)
        T[c] = 0;
}

static inline uint32_t tsme_heap(void)
{
    return (uint32_t)(uintptr_t)DPU_MRAM_HEAP_POINTER;
}

/* Heap offset of a 16-byte block: the range [a, a + n) of MRAM, a and n
 * multiples of 16, read and decrypted into w. */
static __attribute__((unused)) void tsme_fetch(uint32_t a, uint8_t *w, uint32_t n)
{
    mram_read((__mram_ptr const void *)(uintptr_t)a, w, n);
    tsme_crypt(w, a - tsme_heap(), n, 1);
}

static __attribute__((unused)) void tsme_mram_read(const __mram_ptr void *from, void *to,
                                                   unsigned int n)
{
    /* blocks are 16-byte aligned from the heap pointer (which itself is
     * only 8-byte aligned) */
    uint32_t a = (uint32_t)(uintptr_t)from;
    uint8_t *t = to;
    if (a < tsme_heap()) {
        /* below the heap: clear; a range across its start (seqread's pages
         * are aligned on absolute addresses, the heap pointer only to 8)
         * is split there */
        const uint32_t below = tsme_heap() - a < n ? tsme_heap() - a : n;
        mram_read(from, to, below);
        if (below == n)
            return;
        a += below, t += below, n -= below;
    }
    uint32_t blk[4] __attribute__((aligned(8)));
    if ((a - tsme_heap()) % 16) { /* the second half of a block */
        tsme_fetch(a - 8, (uint8_t *)blk, 16);
        __builtin_memcpy(t, (uint8_t *)blk + 8, 8);
        a += 8, t += 8, n -= 8;
    }
    uint32_t mid = n & ~15u;
    for (uint32_t done = 0, k; done < mid; done += k) {
        /* one DMA moves at most 2048 bytes (tsme_mram_read_unaligned's
         * widened ranges can be longer) */
        k = mid - done < 2048u ? mid - done : 2048u;
        mram_read((__mram_ptr const void *)(uintptr_t)(a + done), t + done, k);
        tsme_crypt(t + done, a + done - tsme_heap(), k, 1);
    }
    if (n % 16) { /* the first half of a block */
        tsme_fetch(a + mid, (uint8_t *)blk, 16);
        __builtin_memcpy(t + mid, blk, 8);
    }
    blk[0] = blk[1] = blk[2] = blk[3] = 0;
}

static __attribute__((unused)) void tsme_mram_write(const void *from, __mram_ptr void *to,
                                                    unsigned int n)
{
    const uint32_t h = tsme_heap();
    uint32_t a = (uint32_t)(uintptr_t)to;
    const uint8_t *f = from;
    uint8_t *b = tsme_bounce[me()];
    if (a < h) { /* a range across the heap's start: the part below is clear */
        const uint32_t below = h - a < n ? h - a : n;
        mram_write(from, to, below);
        a += below, f += below, n -= below;
    }
    while (n) {
        /* one bounce-full of whole blocks covering [a, a + k) (heap offsets) */
        const uint32_t r = a - h, lo = r & ~15u, head = r - lo;
        uint32_t k = n < TSME_BOUNCE - head ? n : TSME_BOUNCE - head;
        const uint32_t hi = (r + k + 15) & ~15u;
        if (head)
            tsme_fetch(h + lo, b, 16); /* keep the other half of a shared block */
        if ((r + k) % 16 && hi - 16 >= lo + (head ? 16 : 0))
            tsme_fetch(h + hi - 16, b + (hi - 16 - lo), 16);
        __builtin_memcpy(b + head, f, k);
        tsme_crypt(b, lo, hi - lo, 0);
        mram_write(b, (__mram_ptr void *)(uintptr_t)(h + lo), hi - lo);
        a += k, f += k, n -= k;
    }
    for (uint32_t i = 0; i < TSME_BOUNCE; i++)
        b[i] = 0; /* clear text of the last write */
}

static __attribute__((unused)) void *tsme_mram_read_unaligned(const __mram_ptr void *from,
                                                              void *buffer, unsigned int n)
{
    uint32_t a = (uint32_t)(uintptr_t)from, lo = a & ~7u, hi = (a + n + 7) & ~7u;
    tsme_mram_read((__mram_ptr const void *)(uintptr_t)lo, buffer, hi - lo);
    return (uint8_t *)buffer + (a - lo);
}

static __attribute__((unused)) void tsme_mram_write_unaligned(const void *from,
                                                              __mram_ptr void *dest, unsigned int n)
{
    uint32_t a = (uint32_t)(uintptr_t)dest;
    const uint8_t *f = from;
    uint64_t w;
    while (n) { /* 8-byte words: read, patch, write (through the cipher) */
        uint32_t lo = a & ~7u, k = 8 - (a - lo) < n ? 8 - (a - lo) : n;
        tsme_mram_read((__mram_ptr const void *)(uintptr_t)lo, &w, 8);
        __builtin_memcpy((uint8_t *)&w + (a - lo), f, k);
        tsme_mram_write(&w, (__mram_ptr void *)(uintptr_t)lo, 8);
        a += k, f += k, n -= k;
    }
    w = 0;
}

/* seqread.h's runtime, through the decrypting read (the cache is two
 * pages; see emu/rt/seqread.c) */
static __attribute__((unused)) void tsme_seq_load(seqreader_t *r, uint32_t page)
{
    tsme_mram_read((__mram_ptr const void *)r->mram_addr, (void *)r->wram_cache, 2u * page);
}

/* external (seqread.h declares them so), weak: several files of one
 * program may include this header */
__attribute__((weak)) void *tsme_seqread_seek(__mram_ptr void *mram_addr, seqreader_t *r,
                                              uint32_t page)
{
    uintptr_t a = (uintptr_t)mram_addr, aligned = a & ~(uintptr_t)(page - 1u);
    if (aligned != r->mram_addr) {
        r->mram_addr = aligned;
        tsme_seq_load(r, page);
    }
    return (void *)(r->wram_cache + (a - aligned));
}

__attribute__((weak)) void *tsme_seqread_refill(uintptr_t p, seqreader_t *r, uint32_t page)
{
    uintptr_t advance = (p - r->wram_cache) & ~(uintptr_t)(page - 1u);
    r->mram_addr += advance;
    tsme_seq_load(r, page);
    return (void *)(p - advance);
}

#define mram_read(f, t, n)            tsme_mram_read((f), (t), (n))
#define mram_write(f, t, n)           tsme_mram_write((f), (t), (n))
#define mram_read_unaligned(f, b, n)  tsme_mram_read_unaligned((f), (b), (n))
#define mram_write_unaligned(f, d, n) tsme_mram_write_unaligned((f), (d), (n))

#endif /* CPIM_TSME_H */
