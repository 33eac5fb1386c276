/* see gcm_run.h */
#include "gcm_run.h"

#include <string.h>

#include "gcm.h"

void cpim_gcm_ghash_bytes(const cpim_gcm_ops *ops, uint8_t y[16], const uint8_t *p, size_t len)
{
    if (len >= 16)
        ops->ghash(ops->state, y, p, len / 16);
    if (len % 16) {
        uint8_t b[16] = {0};
        memcpy(b, p + len - len % 16, len % 16);
        ops->ghash(ops->state, y, b, 1);
        cpim_wipe(b, sizeof b);
    }
}

void cpim_gcm_j0(const cpim_gcm_ops *ops, const uint8_t *iv, size_t iv_len, uint8_t j0[16])
{
    memset(j0, 0, 16);
    if (iv_len == 12) {
        memcpy(j0, iv, 12);
        j0[15] = 1;
        return;
    }
    uint8_t lb[16];
    cpim_gcm_ghash_bytes(ops, j0, iv, iv_len);
    cpim_crypto_gcm_len_block(lb, 0, iv_len);
    ops->ghash(ops->state, j0, lb, 1);
}

void cpim_gcm_ctr32(const cpim_gcm_ops *ops, uint8_t c[16], const uint8_t *in, uint8_t *out,
                    size_t len)
{
    while (len) {
        uint32_t low = (uint32_t)c[12] << 24 | (uint32_t)c[13] << 16 | (uint32_t)c[14] << 8 | c[15];
        /* blocks before the low word wraps: 2^32 - low */
        uint64_t room = (uint64_t)1 << 32;
        room -= low;
        size_t n = len;
        if ((uint64_t)(n + 15) / 16 > room)
            n = (size_t)(room * 16);
        uint8_t c0[16];
        memcpy(c0, c, 16);
        ops->ctr(ops->state, c, in, out, n);
        /* ops->ctr advanced c with a 128-bit carry: redo it as inc32 */
        memcpy(c, c0, 16);
        cpim_crypto_gcm_inc32(c, (uint32_t)((n + 15) / 16));
        cpim_wipe(c0, sizeof c0);
        in += n, out += n, len -= n;
    }
}

void cpim_gcm_run(const cpim_gcm_ops *ops, cpim_dir dir, const uint8_t *iv, size_t iv_len,
                  const uint8_t *aad, size_t aad_len, const uint8_t *in, uint8_t *out, size_t len,
                  uint8_t tag[16])
{
    uint8_t j0[16], c[16], y[16] = {0}, lb[16];
    cpim_gcm_j0(ops, iv, iv_len, j0);
    memcpy(c, j0, 16);
    cpim_crypto_gcm_inc32(c, 1);
    if (aad_len)
        cpim_gcm_ghash_bytes(ops, y, aad, aad_len);
    for (size_t off = 0; off < len; off += GCM_RUN_PIECE) {
        size_t n = len - off < GCM_RUN_PIECE ? len - off : GCM_RUN_PIECE;
        if (dir == CPIM_DECRYPT)
            cpim_gcm_ghash_bytes(ops, y, in + off, n);
        cpim_gcm_ctr32(ops, c, in + off, out + off, n);
        if (dir == CPIM_ENCRYPT)
            cpim_gcm_ghash_bytes(ops, y, out + off, n);
    }
    cpim_crypto_gcm_len_block(lb, aad_len, len);
    ops->ghash(ops->state, y, lb, 1);
    ops->encrypt1(ops->state, j0, tag);
    for (int i = 0; i < 16; i++)
        tag[i] ^= y[i];
    cpim_wipe(j0, sizeof j0);
    cpim_wipe(c, sizeof c);
    cpim_wipe(y, sizeof y);
}
