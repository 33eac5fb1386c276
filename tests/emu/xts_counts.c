/* xts_counts.c -- modeled instruction counts of the AES DPU kernel's XTS
 * mode against its ECB mode (docs/KERNELS.md): one DPU of the virtual UPMEM,
 * default model parameters (timed mode), 256 KiB of random data, AES-128 and
 * AES-256, data units of 512 and 4096 bytes.  Each configuration runs twice
 * and the second run is reported (the first also builds the WRAM tables).
 * The output is checked against src/crypto (cpim_crypto_aes_encrypt /
 * cpim_crypto_aes_xts_unit), so the counts are of correct runs.  Prints
 * modeled numbers.  Built and run by `make kernel-counts` (tests/emu/kernels.mk).
 * Usage: xts-counts build/dpu/aes-t16 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aes.h"
#include "aes_args.h"
#include "aes_dpu_run.h"
#include "vdpu.h"

#define BYTES (256u << 10)

static uint8_t in[BYTES], out[BYTES], want[BYTES];

static int run(const char *path, int xts, int dec, uint32_t klen, uint32_t usz, vdpu_result_t *r)
{
    char msg[256];
    vdpu_program_t *p;
    vdpu_t *d;
    if (vdpu_program_load_file(path, &p, msg, sizeof msg)) {
        fprintf(stderr, "xts_counts: %s: %s\n", path, msg);
        return -1;
    }
    vdpu_params_t prm;
    vdpu_params_default(&prm);
    if (vdpu_create(&prm, &d) || vdpu_load(d, p))
        return -1;
    uint8_t key[64];
    for (unsigned i = 0; i < sizeof key; i++)
        key[i] = (uint8_t)(i * 29 + 7);
    cpim_crypto_aes_ks k1e, k1d, k2;
    cpim_crypto_aes_expand_enc(&k1e, key, klen);
    cpim_crypto_aes_dec_from_enc(&k1d, &k1e);
    cpim_crypto_aes_expand_enc(&k2, key + klen, klen);
    const cpim_crypto_aes_ks *k1 = dec ? &k1d : &k1e;
    struct aes_key_args ka;
    aes_dpu_key_args(&ka, k1,
                     xts ? (dec ? AES_OP_XTS_DEC : AES_OP_XTS_ENC)
                         : (dec ? AES_OP_ECB_DEC : AES_OP_ECB_ENC));
    ka.xts_k2 = k2;
    const uint64_t unit0 = 0x123456789ull;
    struct aes_job_args j = {BYTES, 0, {0, 0, 0, 0}};
    if (xts)
        j = (struct aes_job_args){BYTES, 0, {(uint32_t)unit0, (uint32_t)(unit0 >> 32), usz, usz}};
    int rc = aes_dpu_run(d, p, &ka, &j, in, out, BYTES, r);
    if (!rc) {
        for (uint32_t off = 0; off < BYTES; off += xts ? usz : BYTES) {
            if (xts)
                cpim_crypto_aes_xts_unit(k1, &k2, dec, unit0 + off / usz, in + off, want + off,
                                         usz);
            else if (dec)
                cpim_crypto_aes_decrypt(k1, in, want, BYTES / 16);
            else
                cpim_crypto_aes_encrypt(k1, in, want, BYTES / 16);
        }
        if (memcmp(out, want, BYTES)) {
            fprintf(stderr, "xts_counts: wrong output\n");
            rc = -1;
        }
    }
    vdpu_free(d);
    vdpu_program_free(p);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: xts_counts build/dpu/aes-t16\n");
        return 2;
    }
    for (unsigned i = 0; i < BYTES; i++)
        in[i] = (uint8_t)(i * 2654435761u >> 13);
    printf("modeled, one DPU, %u KiB: kernel            instr/B  cycles/B  slots used  vs ECB\n",
           BYTES >> 10);
    for (uint32_t klen = 16; klen <= 32; klen += 16) {
        for (int dec = 0; dec < 2; dec++) {
            vdpu_result_t e;
            if (run(argv[1], 0, dec, klen, 0, &e))
                return 1;
            double ecb = (double)e.instructions / BYTES;
            printf("AES-%u ECB %s                          %7.2f  %8.2f  %9.1f %%\n", klen * 8,
                   dec ? "dec" : "enc", ecb, (double)e.cycles / BYTES,
                   100.0 * (double)e.slots / (double)e.cycles);
            for (uint32_t usz = 512; usz <= 4096; usz *= 8) {
                vdpu_result_t x;
                if (run(argv[1], 1, dec, klen, usz, &x))
                    return 1;
                double v = (double)x.instructions / BYTES;
                printf("AES-%u XTS %s, %4u-byte units            %7.2f  %8.2f  %9.1f %%  %.3fx\n",
                       klen * 8, dec ? "dec" : "enc", usz, v, (double)x.cycles / BYTES,
                       100.0 * (double)x.slots / (double)x.cycles, v / ecb);
            }
        }
    }
    return 0;
}
