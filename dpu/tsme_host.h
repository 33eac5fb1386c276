/*
 * tsme_host.h -- the host side of "TSME for MRAM" (dpu/tsme.h), for host
 * programs that drive a TSME-built DPU program through <dpu.h> (the tests,
 * `cryptopim bench --experiment tsme`): the key image for the WRAM symbol
 * tsme_key, and the MRAM heap image encrypted or decrypted with the DPU's
 * tweak rule.
 *
 * The rule: heap offset o of DPU d lies in XTS data unit o / TSME_UNIT, whose
 * tweak is d << 32 | o / TSME_UNIT (plain64).  So a heap image [off, off+n)
 * of DPU d, off a multiple of TSME_UNIT, is cpim_aes_xts(first_unit =
 * d << 32 | off / TSME_UNIT, unit_size = TSME_UNIT) of any backend keyed
 * with the same XTS key (cpim_xts_set_key); n need only be a multiple of 16
 * (a shorter last unit is the first blocks of a whole one).  The layer is
 * what a resident region's XTS (cpim_region_xts) computes with 512-byte
 * units, except that a region's data starts after its 256-byte header and a
 * TSME program's at the heap pointer: the two are not interchangeable.
 *
 * Static inline, header only: includes src/crypto/aes.h (the key schedule)
 * and the public cryptopim.h.
 */
#ifndef CPIM_TSME_HOST_H
#define CPIM_TSME_HOST_H

#include <string.h>

#include "aes.h"
#include "cryptopim.h"
#include "tsme_args.h"

/* The tsme_key image of DPU `dpu` for the XTS key (32 bytes: AES-128-XTS,
 * 64: AES-256-XTS; key1 || key2).  Returns 0, or -1 for another length.
 * The caller wipes *k (cpim_wipe) when done with it. */
static inline int tsme_host_key(struct tsme_key_args *k, const uint8_t *key, size_t key_len,
                                uint32_t dpu)
{
    if (key_len != 32 && key_len != 64)
        return -1;
    cpim_crypto_aes_ks ek, dk, k2;
    const uint32_t half = (uint32_t)key_len / 2;
    cpim_crypto_aes_expand_enc(&ek, key, half);
    cpim_crypto_aes_dec_from_enc(&dk, &ek);
    cpim_crypto_aes_expand_enc(&k2, key + half, half);
    memset(k, 0, sizeof *k);
    memcpy(k->rk, ek.rk, sizeof k->rk);
    memcpy(k->dk, dk.rk, sizeof k->dk);
    memcpy(k->k2, k2.rk, sizeof k->k2);
    k->nr = ek.nr, k->dpu = dpu;
    cpim_wipe(&ek, sizeof ek), cpim_wipe(&dk, sizeof dk), cpim_wipe(&k2, sizeof k2);
    return 0;
}

/* Encrypts (CPIM_ENCRYPT) or decrypts n bytes of DPU `dpu`'s heap image
 * that starts at heap offset `off` (a multiple of TSME_UNIT) with ctx's XTS
 * key: what the DPU program reads through the layer, or finds there. */
static inline cpim_err tsme_host_crypt(cpim_ctx *ctx, cpim_dir dir, uint32_t dpu, uint32_t off,
                                       const void *in, void *out, size_t n)
{
    if (off % TSME_UNIT)
        return CPIM_ERR_INVALID_ARG;
    return cpim_aes_xts(ctx, dir, (uint64_t)dpu << 32 | off / TSME_UNIT, TSME_UNIT, in, out, n);
}

#endif /* CPIM_TSME_HOST_H */
