/*
 * ct_valgrind.c -- ctgrind-style check that the host AES and GHASH are
 * constant-time: run under valgrind's memcheck by
 * tests/ct/ct_valgrind.sh.
 *
 * The key and the data (plaintext, ciphertext, AAD) are marked undefined
 * with VALGRIND_MAKE_MEM_UNDEFINED; memcheck then reports every conditional
 * branch and every memory address computed from them ("Conditional jump or
 * move depends on uninitialised value(s)", "Use of uninitialised value of
 * size 8" for a table index).  Lengths, counters, IVs and data unit numbers
 * stay defined: they are public.  No output is looked at (that would be a
 * branch on secret data).  The portable layer (src/cpu/portable.h) is what
 * the `cpu`, `shani` and `auto`-fallback backends run, so it is tested
 * directly, one thread.
 *
 *   ct-valgrind IMPL WIDTH MODE
 *     IMPL   ct | table   (table: the T-table code, the negative control)
 *     WIDTH  ct64 | avx2 | best   (masks CPU features; valgrind has no AVX-512)
 *     MODE   ecb | ctr | xts | gcm | all
 * Prints the width that ran.  Without <valgrind/memcheck.h> at build time
 * it exits 77 (the script then skips).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/cpu/portable.h"
#include "../src/cpu/x86_cpu.h"

#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define HAVE_MEMCHECK 1
#else
#define HAVE_MEMCHECK                     0
#define VALGRIND_MAKE_MEM_UNDEFINED(p, n) ((void)(p), (void)(n))
#endif

/* Small: under valgrind every instruction is interpreted.  200 bytes is 12
 * whole blocks and a partial one, so the widths' padded last group and the
 * CTR/XTS tails all run. */
#define LEN 200

static void secret(void *p, size_t n)
{
    VALGRIND_MAKE_MEM_UNDEFINED(p, n);
}

int main(int argc, char **argv)
{
    if (!HAVE_MEMCHECK) {
        fprintf(stderr, "ct-valgrind: built without <valgrind/memcheck.h>\n");
        return 77;
    }
    if (argc != 4) {
        fprintf(stderr, "usage: ct-valgrind ct|table ct64|avx2|best ecb|ctr|xts|gcm|all\n");
        return 2;
    }
    int table = strcmp(argv[1], "table") == 0;
    if (strcmp(argv[2], "ct64") == 0)
        cpim_x86_set_mask(~(unsigned)(CPIM_X86_AVX2 | CPIM_X86_AVX512));
    else if (strcmp(argv[2], "avx2") == 0)
        cpim_x86_set_mask(~(unsigned)CPIM_X86_AVX512);
    const char *mode = argv[3];
    int all = strcmp(mode, "all") == 0;
    printf("%s\n", table ? "t-table" : cpim_aes_ct_impl()->name);
    fflush(stdout);

    static uint8_t key[64], in[LEN], out[LEN], aad[20], tag[16];
    static cpim_portable_aes k;
    static cpim_portable_xts_keys xk;
    for (size_t i = 0; i < sizeof key; i++) /* defined bytes first, then declared secret */
        key[i] = (uint8_t)(i * 7 + 1);
    for (size_t kl = 16; kl <= 32; kl += 8) {
        uint8_t ctr[16] = {0xfe, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0xff, 0xff, 0xff, 0xf0};
        uint8_t iv12[12] = {1, 2, 3}, iv16[16] = {4, 5, 6};
        secret(key, sizeof key);
        secret(in, sizeof in);
        secret(aad, sizeof aad);
        if (table)
            cpim_portable_set_key_table(&k, key, kl);
        else
            cpim_portable_set_key(&k, key, kl);
        if (all || strcmp(mode, "ecb") == 0) {
            cpim_portable_ecb(&k, 1, CPIM_ENCRYPT, in, out, LEN & ~15u);
            cpim_portable_ecb(&k, 1, CPIM_DECRYPT, in, out, LEN & ~15u);
        }
        if (all || strcmp(mode, "ctr") == 0)
            cpim_portable_ctr(&k, 1, ctr, in, out, LEN);
        if (all || strcmp(mode, "gcm") == 0) {
            cpim_portable_gcm(&k, 1, CPIM_ENCRYPT, iv12, 12, aad, sizeof aad, in, out, LEN, tag);
            cpim_portable_gcm(&k, 1, CPIM_DECRYPT, iv16, 16, aad, sizeof aad, in, out, LEN, tag);
        }
        if (kl != 24 && (all || strcmp(mode, "xts") == 0)) {
            if (table)
                cpim_portable_xts_set_key_table(&xk, key, 2 * kl);
            else
                cpim_portable_xts_set_key(&xk, key, 2 * kl);
            /* units of 100 bytes: 6 blocks + stealing, then a 16-byte unit */
            cpim_portable_xts(&xk, 1, CPIM_ENCRYPT, 7, 100, in, out, 116);
            cpim_portable_xts(&xk, 1, CPIM_DECRYPT, 7, 100, in, out, 116);
        }
    }
    cpim_wipe(&k, sizeof k);
    cpim_wipe(&xk, sizeof xk);
    return 0;
}
