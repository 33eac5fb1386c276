/*
 * aesni_ni.c -- the `aesni` backend's key schedule (aeskeygenassist) and
 * its AES-NI tier: 8 xmm blocks in flight (aesni.c's header: why).
 */
#include "aesni_ni.h"

#include <string.h>

#include "aesni.h"
#include "cryptopim.h"

#ifdef CPIM_HAVE_X86

/* ---- key schedule ---------------------------------------------------------------------- */

/* SubWord through aeskeygenassist: with w in every dword, dword 0 of the
 * result is SubWord(w).  Words are little-endian loads of the key bytes, so
 * RotWord is a right rotation by 8 and Rcon goes in the low byte. */
TGT_NI static uint32_t sub_word(uint32_t w)
{
    __m128i v = _mm_set1_epi32((int)w);
    return (uint32_t)_mm_cvtsi128_si32(_mm_aeskeygenassist_si128(v, 0));
}

TGT_NI void cpim_aesni_expand_key(struct aesni_state *s, const uint8_t *key, size_t key_len)
{
    unsigned nk = (unsigned)(key_len / 4), nr = nk + 6, total = 4 * (nr + 1);
    uint32_t w[4 * (AESNI_MAX_ROUNDS + 1)];
    uint32_t rcon = 1;
    memcpy(w, key, key_len);
    for (unsigned i = nk; i < total; i++) {
        uint32_t t = w[i - 1];
        if (i % nk == 0) {
            t = sub_word(t);
            t = ((t >> 8) | (t << 24)) ^ rcon;
            rcon = ((rcon << 1) ^ ((rcon >> 7) * 0x1b)) & 0xff;
        } else if (nk > 6 && i % nk == 4) {
            t = sub_word(t);
        }
        w[i] = w[i - nk] ^ t;
    }
    memcpy(s->ek, w, 16 * (nr + 1));
    /* Equivalent inverse cipher (FIPS-197 5.3.5) for aesdec. */
    memcpy(s->dk, s->ek + 16 * nr, 16);
    for (unsigned r = 1; r < nr; r++) {
        __m128i k = _mm_loadu_si128((const __m128i *)(s->ek + 16 * (nr - r)));
        _mm_storeu_si128((__m128i *)(s->dk + 16 * r), _mm_aesimc_si128(k));
    }
    memcpy(s->dk + 16 * nr, s->ek, 16);
    s->nr = nr;
    cpim_wipe(w, sizeof w);
}

DEFINE_TIER(TGT_NI, ni)

#endif /* CPIM_HAVE_X86 */
