/*
 * aes.h -- the portable AES of cryptopim (FIPS-197), used by the `cpu`
 * backend on the host and by the DPU programs (dpu/) on the DPUs.
 *
 * Names: `cpim_crypto_` ("cryptopim crypto core") marks the portable
 * primitives, so they never clash with the public `cpim_` API.
 *
 * Portability: plain C99 with fixed-width types; depends on <stdint.h> only
 * (no libc at all, no size_t), so the same file compiles for the host, for
 * the 32-bit DPU and for the virtual DPU (clang --target=riscv32
 * -march=rv32im_zba_zbb -ffreestanding).  Lengths are uint32_t: callers with
 * more than 4 GiB split the work.  Every structure crossing host <-> DPU uses
 * fixed-width fields only.
 *
 * Implementation: table-driven ("T-table") AES on 32-bit big-endian column
 * words, with fully unrolled rounds.  Two table sets, same results (every
 * name below prefixed with cpim_crypto_aes):
 *
 *   set        functions             tables (all const)          WRAM
 *   ---------  --------------------  --------------------------  ------
 *   4-table    _encrypt, _ctr        _te0.._te3, _sbox           4352 B
 *              _decrypt              _td0.._td3, _inv_sbox       4352 B
 *   1-table    _encrypt_1t, _ctr_1t  _te0, _sbox                 1280 B
 *              _decrypt_1t           _td0, _inv_sbox             1280 B
 *   key setup  _expand_*             _sbox (+ _td0 for decrypt)  -
 *
 * The 1-table set replaces te1..te3 by rotations of te0 (3 rotates more per
 * column and round, one `rori` each with Zbb): it is for a DPU program that
 * needs its 64 KiB of WRAM for buffers.  A key schedule is 244 bytes.
 *
 * NOT CONSTANT-TIME on a CPU with caches: the table index depends on key and
 * data, so cache timing can leak the key to code sharing the CPU.  On a DPU
 * WRAM has uniform latency and no cache, so there the lookups do not leak.
 * Use the `aesni` backend for secrets on a shared CPU.
 *
 * Buffers: in == out (in place) is allowed for every bulk function; other
 * overlaps are not.  No alignment is required (4-byte aligned buffers take a
 * faster load/store path on little-endian GCC/clang targets).
 */
#ifndef CPIM_AES_H
#define CPIM_AES_H

#include <stdint.h>

#define CPIM_AES_BLOCK      16u
#define CPIM_AES_MAX_ROUNDS 14u

/* An expanded key: 4 * (nr + 1) round-key words, big-endian column words
 * as in FIPS-197.  A decryption schedule is for the equivalent inverse
 * cipher (FIPS-197 5.3.5): reversed, with InvMixColumns applied to the
 * middle round keys.  Fixed size and fixed-width so that it can be copied
 * to a DPU as is. */
typedef struct cpim_crypto_aes_ks {
    uint32_t rk[4 * (CPIM_AES_MAX_ROUNDS + 1)];
    uint32_t nr; /* rounds: 10, 12 or 14 */
} cpim_crypto_aes_ks;

/* The tables, reachable so that a DPU program can place them in WRAM.
 * te[k][x] = the MixColumns column of S-box(x) rotated right by 8k bits;
 * td[k][x] likewise for InvMixColumns of InvS-box(x). */
extern const uint8_t cpim_crypto_aes_sbox[256];
extern const uint8_t cpim_crypto_aes_inv_sbox[256];
extern const uint32_t cpim_crypto_aes_te0[256], cpim_crypto_aes_te1[256], cpim_crypto_aes_te2[256],
    cpim_crypto_aes_te3[256];
extern const uint32_t cpim_crypto_aes_td0[256], cpim_crypto_aes_td1[256], cpim_crypto_aes_td2[256],
    cpim_crypto_aes_td3[256];

/* Key expansion (FIPS-197 5.2) of a key_len = 16, 24 or 32 byte key into an
 * encryption (or decryption) schedule.  Returns the number of rounds, or 0
 * (and ks untouched) for any other key length. */
uint32_t cpim_crypto_aes_expand_enc(cpim_crypto_aes_ks *ks, const uint8_t *key, uint32_t key_len);
uint32_t cpim_crypto_aes_expand_dec(cpim_crypto_aes_ks *ks, const uint8_t *key, uint32_t key_len);
/* The decryption schedule from an encryption one (dk != ek). */
void cpim_crypto_aes_dec_from_enc(cpim_crypto_aes_ks *dk, const cpim_crypto_aes_ks *ek);

/* ECB on nblocks 16-byte blocks (4-table set). */
void cpim_crypto_aes_encrypt(const cpim_crypto_aes_ks *ek, const uint8_t *in, uint8_t *out,
                             uint32_t nblocks);
void cpim_crypto_aes_decrypt(const cpim_crypto_aes_ks *dk, const uint8_t *in, uint8_t *out,
                             uint32_t nblocks);

/* CTR (SP 800-38A 6.5, as OpenSSL): ctr is a 128-bit big-endian counter
 * block, encrypted then incremented (mod 2^128) once per block.  A final
 * partial block uses the first len % 16 bytes of its keystream block.  On
 * return ctr has advanced by ceil(len / 16). */
void cpim_crypto_aes_ctr(const cpim_crypto_aes_ks *ek, uint8_t ctr[16], const uint8_t *in,
                         uint8_t *out, uint32_t len);

/* The same three with the 1-table set (smaller tables, a little slower). */
void cpim_crypto_aes_encrypt_1t(const cpim_crypto_aes_ks *ek, const uint8_t *in, uint8_t *out,
                                uint32_t nblocks);
void cpim_crypto_aes_decrypt_1t(const cpim_crypto_aes_ks *dk, const uint8_t *in, uint8_t *out,
                                uint32_t nblocks);
void cpim_crypto_aes_ctr_1t(const cpim_crypto_aes_ks *ek, uint8_t ctr[16], const uint8_t *in,
                            uint8_t *out, uint32_t len);

/* XTS (IEEE 1619-2007, SP 800-38E) on one data unit of len >= 16 bytes
 * (4-table set): the tweak is E(k2, unit as 64-bit little-endian || 8 zero
 * bytes) (dm-crypt plain64), multiplied by alpha in GF(2^128) per block; a
 * unit that is not a multiple of 16 ends with ciphertext stealing.  k1 is
 * key1's encryption schedule (dec = 0) or decryption schedule (dec = 1);
 * k2 is always key2's encryption schedule.  len < 16 does nothing. */
void cpim_crypto_aes_xts_unit(const cpim_crypto_aes_ks *k1, const cpim_crypto_aes_ks *k2, int dec,
                              uint64_t unit, const uint8_t *in, uint8_t *out, uint32_t len);

/* ctr += n as 128-bit big-endian integers, mod 2^128 (the start counter of
 * block n of a CTR stream). */
void cpim_crypto_aes_ctr_add(uint8_t ctr[16], uint64_t n);

#endif /* CPIM_AES_H */
