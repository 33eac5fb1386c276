/* kernel_counts.c -- dynamic instruction counts of the project's DPU kernels
 * (build/dpu/aes-t16, build/dpu/sha256-t16) on the virtual DPU: RV32
 * instructions (isaFusion=0: one slot each) against DPU instructions
 * (isaFusion=1: the RV32 idioms the DPU does in one instruction folded), from
 * one run each on modeled data (zeros: both kernels are data-oblivious).
 * Prints modeled numbers. Usage: kernel_counts AES_ELF SHA_ELF
 * (make kernel-counts, tests/emu/kernels.mk). */
#include <stdio.h>
#include <string.h>

#include "../../dpu/aes_args.h"
#include "../../dpu/sha256_args.h"
#include "vdpu.h"

static int sym(vdpu_program_t *p, const char *n, vdpu_symbol_t *s)
{
    if (vdpu_program_symbol(p, n, s)) {
        fprintf(stderr, "kernel_counts: no symbol %s\n", n);
        return -1;
    }
    return 0;
}

/* run prog once with isa_fusion = fuse; returns 0 and the result */
static int run(const char *path, int aes, int fuse, vdpu_result_t *r, uint32_t *bytes)
{
    char msg[256];
    vdpu_program_t *p;
    vdpu_t *d;
    if (vdpu_program_load_file(path, &p, msg, sizeof msg)) {
        fprintf(stderr, "kernel_counts: %s: %s\n", path, msg);
        return -1;
    }
    vdpu_params_t prm;
    vdpu_params_default(&prm);
    prm.isa_fusion = (uint32_t)fuse;
    if (vdpu_create(&prm, &d) || vdpu_load(d, p)) {
        vdpu_program_free(p);
        return -1;
    }
    vdpu_symbol_t heap, s1, s2;
    int rc = sym(p, VDPU_SYM_MRAM_END, &heap);
    if (!rc && aes) {
        struct aes_key_args k;
        memset(&k, 0, sizeof k);
        k.nr = 10;
        k.op = AES_OP_CTR;
        struct aes_job_args j = {64u << 10, 0, {0, 0, 0, 0}};
        *bytes = j.nbytes;
        rc = sym(p, AES_XSTR(AES_KEY_SYM), &s1) || sym(p, AES_XSTR(AES_JOB_SYM), &s2) ||
             vdpu_wram_write(d, s1.offset, &k, sizeof k) ||
             vdpu_wram_write(d, s2.offset, &j, sizeof j);
    } else if (!rc) {
        /* 16 messages of 4 KiB, one per tasklet */
        struct sha_job_args j = {16, 1u << 20, 1u << 19, 0};
        *bytes = 16u * 4096u;
        rc = sym(p, SHA_XSTR(SHA_JOB_SYM), &s1) || vdpu_wram_write(d, s1.offset, &j, sizeof j);
        for (uint32_t m = 0; m < 16 && !rc; m++) {
            struct sha_msg e = {m * 4096u, 4096u, SHA_F_FINAL, 0, 0};
            rc = vdpu_mram_write(d, heap.offset + j.table_off + m * sizeof e, &e, sizeof e);
        }
    }
    if (!rc)
        rc = vdpu_run(d, r) || r->status != VDPU_STATUS_DONE;
    vdpu_free(d);
    vdpu_program_free(p);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: kernel_counts AES_ELF SHA_ELF\n");
        return 2;
    }
    printf(
        "kernel    bytes  RV32 instr/B  DPU instr/B  DPU/RV32  modeled cycles/B (RV32 -> DPU)\n");
    for (int k = 0; k < 2; k++) {
        vdpu_result_t a, b;
        uint32_t n = 0;
        if (run(argv[1 + k], k == 0, 0, &a, &n) || run(argv[1 + k], k == 0, 1, &b, &n)) {
            fprintf(stderr, "kernel_counts: run of %s failed\n", argv[1 + k]);
            return 1;
        }
        printf("%-8s %6u  %12.2f  %11.2f  %8.3f  %.2f -> %.2f\n", k ? "SHA-256" : "AES-128", n,
               (double)a.instructions / n, (double)b.instructions / n,
               (double)b.instructions / (double)a.instructions, (double)a.cycles / n,
               (double)b.cycles / n);
    }
    return 0;
}
