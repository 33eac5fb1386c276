/* kernel_rows.c -- the modeled rows of docs/KERNELS.md's first table: the
 * AES DPU kernel (ECB encrypt, ECB decrypt, CTR for 128/192/256-bit keys) on
 * 256 KiB and the SHA-256 kernel on 16 messages of 32 KiB, one DPU of the
 * virtual UPMEM, default model parameters (timed mode). Each configuration
 * runs twice and the second run is reported (the first also builds the WRAM
 * tables). Every output is checked against src/crypto first, so the counts
 * are of correct runs. Prints modeled numbers: instructions and cycles per
 * payload byte and the share of issue slots used.
 * Usage: kernel_rows AES_ELF... [--sha SHA_ELF] (make kernel-counts). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aes.h"
#include "aes_args.h"
#include "aes_dpu_run.h"
#include "sha256.h"
#include "sha256_args.h"
#include "vdpu.h"

#define BYTES   (256u << 10)
#define SHA_N   16u
#define SHA_LEN (32u << 10)

static uint8_t in[BYTES], out[BYTES], want[BYTES];
static uint8_t msgs[SHA_N * SHA_LEN];

static int open_dpu(const char *path, vdpu_program_t **p, vdpu_t **d)
{
    char msg[256];
    if (vdpu_program_load_file(path, p, msg, sizeof msg)) {
        fprintf(stderr, "kernel_rows: %s: %s\n", path, msg);
        return -1;
    }
    vdpu_params_t prm;
    vdpu_params_default(&prm);
    if (vdpu_create(&prm, d)) {
        vdpu_program_free(*p);
        return -1;
    }
    if (vdpu_load(*d, *p)) {
        vdpu_free(*d);
        vdpu_program_free(*p);
        return -1;
    }
    return 0;
}

/* one AES configuration; op AES_OP_ECB_ENC / _DEC / _CTR */
static int run_aes(const char *path, uint32_t op, uint32_t klen, vdpu_result_t *r)
{
    vdpu_program_t *p;
    vdpu_t *d;
    if (open_dpu(path, &p, &d))
        return -1;
    uint8_t key[32];
    for (unsigned i = 0; i < sizeof key; i++)
        key[i] = (uint8_t)(i * 29 + 7);
    cpim_crypto_aes_ks ke, kd;
    cpim_crypto_aes_expand_enc(&ke, key, klen);
    cpim_crypto_aes_dec_from_enc(&kd, &ke);
    const cpim_crypto_aes_ks *k = op == AES_OP_ECB_DEC ? &kd : &ke;
    struct aes_key_args ka;
    aes_dpu_key_args(&ka, k, op);
    /* CTR: the low 32 bits near their end, so the carry crosses words */
    struct aes_job_args j = {BYTES, 0, {0x01020304u, 0x05060708u, 0x090a0b0cu, 0xffffff80u}};
    int rc = aes_dpu_run(d, p, &ka, &j, in, out, BYTES, r);
    if (!rc) {
        if (op == AES_OP_CTR) {
            uint8_t ctr[16];
            for (int w = 0; w < 4; w++)
                for (int b = 0; b < 4; b++)
                    ctr[4 * w + b] = (uint8_t)(j.ctr[w] >> (24 - 8 * b));
            cpim_crypto_aes_ctr(k, ctr, in, want, BYTES);
        } else if (op == AES_OP_ECB_DEC) {
            cpim_crypto_aes_decrypt(k, in, want, BYTES / 16);
        } else {
            cpim_crypto_aes_encrypt(k, in, want, BYTES / 16);
        }
        if (memcmp(out, want, BYTES)) {
            fprintf(stderr, "kernel_rows: %s: wrong output\n", path);
            rc = -1;
        }
    }
    vdpu_free(d);
    vdpu_program_free(p);
    return rc;
}

/* SHA-256: one message of SHA_LEN bytes per tasklet of a 16-tasklet DPU */
static int run_sha(const char *path, vdpu_result_t *r)
{
    vdpu_program_t *p;
    vdpu_t *d;
    if (open_dpu(path, &p, &d))
        return -1;
    const uint32_t table = SHA_N * SHA_LEN, state = table + SHA_N * 24u;
    struct sha_job_args j = {SHA_N, state, table, 0};
    vdpu_symbol_t heap, s1;
    int rc = vdpu_program_symbol(p, VDPU_SYM_MRAM_END, &heap) ||
             vdpu_program_symbol(p, SHA_XSTR(SHA_JOB_SYM), &s1) ||
             vdpu_mram_write(d, heap.offset, msgs, sizeof msgs);
    for (uint32_t m = 0; m < SHA_N && !rc; m++) {
        struct sha_msg e = {m * SHA_LEN, SHA_LEN, SHA_F_FINAL, 0, 0};
        rc = vdpu_mram_write(d, heap.offset + table + m * sizeof e, &e, sizeof e);
    }
    for (int pass = 0; pass < 2 && !rc; pass++)
        rc = vdpu_wram_write(d, s1.offset, &j, sizeof j) || vdpu_run(d, r) ||
             r->status != VDPU_STATUS_DONE;
    for (uint32_t m = 0; m < SHA_N && !rc; m++) {
        uint8_t got[32], ref[32];
        cpim_crypto_sha256(msgs + m * SHA_LEN, SHA_LEN, ref);
        rc = vdpu_mram_read(d, heap.offset + state + 32u * m, got, 32);
        if (!rc && memcmp(got, ref, 32)) {
            fprintf(stderr, "kernel_rows: %s: wrong digest of message %u\n", path, m);
            rc = -1;
        }
    }
    vdpu_free(d);
    vdpu_program_free(p);
    return rc;
}

static void row(const char *prog, const char *what, const vdpu_result_t *r, double bytes)
{
    printf("%-22s %-22s %8.2f %9.2f %9.1f %%\n", prog, what, (double)r->instructions / bytes,
           (double)r->cycles / bytes, 100.0 * (double)r->slots / (double)r->cycles);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: kernel_rows AES_ELF... [--sha SHA_ELF]\n");
        return 2;
    }
    for (unsigned i = 0; i < BYTES; i++)
        in[i] = (uint8_t)(i * 2654435761u >> 13);
    for (unsigned i = 0; i < sizeof msgs; i++)
        msgs[i] = (uint8_t)(i * 40503u >> 7);
    printf("modeled, one DPU: program   kernel                 instr/B  cycles/B  slots used\n");
    for (int a = 1; a < argc; a++) {
        const char *base = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a];
        vdpu_result_t r;
        if (!strcmp(argv[a], "--sha") && a + 1 < argc) {
            a++;
            base = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a];
            if (run_sha(argv[a], &r))
                return 1;
            row(base, "SHA-256 16 x 32 KiB", &r, (double)SHA_N * SHA_LEN);
            continue;
        }
        static const char *const opn[3] = {"ECB enc", "ECB dec", "CTR"};
        for (uint32_t klen = 16; klen <= 32; klen += 8)
            for (uint32_t op = 0; op < 3; op++) {
                char what[40];
                if (run_aes(argv[a], op, klen, &r))
                    return 1;
                snprintf(what, sizeof what, "AES-%u %s 256 KiB", klen * 8, opn[op]);
                row(base, what, &r, BYTES);
            }
    }
    return 0;
}
