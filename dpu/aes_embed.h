/*
 * aes_embed.h -- dpu/aes.c's AES kernels (T-table sweeps, the CTR chunk
 * kernel) in a DPU program with a main of its own: dpu/gcm.c and
 * dpu/resident.c include this instead of repeating the prologue, so the
 * programs cannot drift apart.
 *
 * Both need 8 to 16 KiB of WRAM that aes.c gives to its chunk buffers (the
 * GHASH tables; the encryption tables of XTS re-keying), so their chunks
 * are smaller: 2048 bytes up to 8 tasklets, 1024 up to 16 and 512 above
 * (buffers + tables + stacks fit 64 KiB).  Which of aes.c's kernels a
 * program leaves unused differs (GCM: decryption and the 128-bit counter),
 * hence the silenced warnings.
 */
#ifndef CPIM_DPU_AES_EMBED_H
#define CPIM_DPU_AES_EMBED_H

#if NR_TASKLETS <= 8
#define CHUNK 2048u
#elif NR_TASKLETS <= 16
#define CHUNK 1024u
#else
#define CHUNK 512u
#endif
#define AES_NO_MAIN
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wunused-function"
#pragma clang diagnostic ignored "-Wunused-variable"
#include "aes.c"
#pragma clang diagnostic pop

#endif
