/*
 * tsme_args.h -- host/DPU contract of "TSME for MRAM" (dpu/tsme.h): the
 * WRAM symbol tsme_key that the host writes before a launch of a program
 * built with `-include tsme.h`, and overwrites with zeros after it.
 *
 * Fixed-width types only: compiled for the host and for the DPU.
 */
#ifndef CPIM_TSME_ARGS_H
#define CPIM_TSME_ARGS_H

#include <stdint.h>

#define TSME_UNIT     512u /* XTS data unit: bytes of the MRAM heap per tweak */
#define TSME_KEY_SYM  tsme_key
#define TSME_KEY_NAME "tsme_key"

/* FIPS-197 big-endian round-key words (src/crypto's cpim_crypto_aes_ks):
 * key1's encryption and equivalent-inverse decryption schedules, key2's
 * encryption schedule, the rounds, and this DPU's index (the tweak's high
 * word). */
struct tsme_key_args {
    uint32_t rk[60], dk[60], k2[60];
    uint32_t nr, dpu;
};

#endif /* CPIM_TSME_ARGS_H */
