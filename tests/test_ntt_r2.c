/*
 * test_ntt_r2.c -- the 1D radix-2 NTT DPU kernel (dpu/ntt_r2.c, the four-step
 * kernel's comparison; not used by the pim backend) run through <dpu.h> on one
 * virtual DPU: its forward and inverse transforms equal the cpu backend's
 * (cpim_ntt_forward / cpim_ntt_inverse, the portable reference) for N = 1024
 * and 4096 with two moduli (one near 2^31, one near 2^24) in one RNS base,
 * inputs with the extreme values 0 and q - 1; an op it does not do is refused
 * (ntt_r2_status) with the data untouched.  Small: 2 polynomials x 2 limbs on
 * 4 tasklets.
 */
#include <dpu.h>
#include <stdlib.h>
#include <string.h>

#include "cryptopim.h"
#include "cryptopim_ntt.h"
#include "ntt_args.h"
#include "ntt_tab.h"
#include "test.h"

#ifdef DPU_EMU
#define R2_PROG  CPIM_DPU_DIR "/ntt-r2-t4"
#define R2_POLYS 2u
#define R2_L     2u

static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t q)
{
    return a * b % q;
}

static uint64_t powmod(uint64_t a, uint64_t e, uint64_t q)
{
    uint64_t r = 1;
    for (; e; e >>= 1, a = mulmod(a, a, q))
        if (e & 1)
            r = mulmod(r, a, q);
    return r;
}

static int is_prime(uint64_t q)
{
    for (uint64_t d = 2; d * d <= q; d++)
        if (q % d == 0)
            return 0;
    return q > 1;
}

/* The largest prime q = 1 mod 2n below `below`. */
static uint64_t prime_below(uint64_t below, uint64_t n)
{
    uint64_t q = (below - 1) / (2 * n) * (2 * n) + 1;
    while (!is_prime(q))
        q -= 2 * n;
    return q;
}

/* psi as cryptopim_ntt.h documents it: x^((q-1)/2N) for the smallest x = 2, 3, ...
 * of order 2N (so the DPU's tables match the cpu backend's NTT domain). */
static uint64_t doc_psi(uint64_t q, uint64_t n)
{
    for (uint64_t x = 2;; x++) {
        uint64_t p = powmod(x, (q - 1) / (2 * n), q);
        if (powmod(p, n, q) == q - 1)
            return p;
    }
}

/* One launch of the radix-2 kernel on `in` (R2_POLYS x R2_L x n, the API's layout: item
 * u = polynomial u / L, limb u % L); the widened result into out.  Returns the kernel's
 * ntt_r2_status, or -1 if a <dpu.h> call failed. */
static int run_r2(uint32_t op, unsigned log_n, const uint64_t *q, const uint64_t *in, uint64_t *out)
{
    const uint32_t n = 1u << log_n, items = R2_POLYS * R2_L;
    struct ntt_job_args ja;
    memset(&ja, 0, sizeof ja);
    uint32_t *tab = malloc(16u * n);
    struct dpu_set_t set, dpu;
    if (!tab || dpu_alloc(1, "nrRanks=1,nrDpusPerRank=1", &set) != DPU_OK) {
        free(tab);
        return -1;
    }
    dpu_error_t e = dpu_load(set, R2_PROG, NULL);
    DPU_FOREACH (set, dpu) /* the one DPU: memory transfers take a single DPU */
        break;
    uint32_t off = 0;
    for (uint32_t j = 0; j < R2_L && e == DPU_OK; j++) {
        cpim_pim_ntt_tab((uint32_t)q[j], (uint32_t)doc_psi(q[j], n), log_n, &ja.limb[j], tab,
                         tab + 2 * n);
        ja.limb[j].fwd_off = off, ja.limb[j].inv_off = off + 8 * n;
        e = dpu_copy_to(dpu, DPU_MRAM_HEAP_POINTER_NAME, off, tab, 16u * n);
        off += 16 * n;
    }
    ja.op = op, ja.log_n = log_n, ja.nitems = items, ja.nlimbs = R2_L, ja.limb0 = 0;
    ja.data_off = off, ja.wide_off = off + items * n * 4;
    if (e == DPU_OK)
        e = dpu_copy_to(dpu, NTT_XSTR(NTT_JOB_SYM), 0, &ja, sizeof ja);
    if (e == DPU_OK)
        e = dpu_copy_to(dpu, DPU_MRAM_HEAP_POINTER_NAME, ja.wide_off, in, (size_t)items * n * 8);
    if (e == DPU_OK)
        e = dpu_launch(set, DPU_SYNCHRONOUS);
    uint32_t status = 0;
    if (e == DPU_OK)
        e = dpu_copy_from(dpu, "ntt_r2_status", 0, &status, sizeof status);
    if (e == DPU_OK)
        e = dpu_copy_from(dpu, DPU_MRAM_HEAP_POINTER_NAME, ja.wide_off, out, (size_t)items * n * 8);
    dpu_free(set);
    free(tab);
    CHECK(e == DPU_OK, "%s: <dpu.h> error %d", R2_PROG, e);
    return e == DPU_OK ? (int)status : -1;
}

/* forward and inverse at 2^log_n against the cpu backend */
static void r2_case(size_t log_n, size_t unused)
{
    (void)unused;
    const size_t n = (size_t)1 << log_n, words = R2_POLYS * R2_L * n;
    const uint64_t q[R2_L] = {prime_below(1ull << 31, n), prime_below(1ull << 24, n)};
    uint64_t *in = malloc(words * 8), *want = malloc(words * 8), *got = malloc(words * 8);
    cpim_ctx *cpu = NULL;
    cpim_ntt *ring = NULL;
    if (!in || !want || !got || cpim_open(&cpu, "cpu", NULL) != CPIM_OK ||
        cpim_ntt_create(cpu, n, q, R2_L, &ring) != CPIM_OK) {
        CHECK(0, "set-up");
        goto out;
    }
    uint64_t x = 0x9e3779b97f4a7c15ull ^ log_n;
    for (size_t i = 0; i < words; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint64_t qi = q[(i / n) % R2_L], k = i % n;
        in[i] = k == 0 ? 0 : k == 1 || k == n - 1 ? qi - 1 : x % qi;
    }
    for (uint32_t op = NTT_OP_FORWARD; op <= NTT_OP_INVERSE; op++) {
        cpim_err rc = op == NTT_OP_FORWARD ? cpim_ntt_forward(ring, in, want, R2_POLYS)
                                           : cpim_ntt_inverse(ring, in, want, R2_POLYS);
        CHECK(rc == CPIM_OK, "cpu reference: %s", cpim_strerror(rc));
        memset(got, 0xa5, words * 8);
        int st = run_r2(op, (unsigned)log_n, q, in, got);
        CHECK(st == 0, "N %zu op %u: status %d", n, op, st);
        if (st == 0)
            CHECK_MEM(got, want, words * 8,
                      op == NTT_OP_FORWARD ? "radix-2 forward == cpu's"
                                           : "radix-2 inverse == cpu's");
    }
out:
    cpim_ntt_destroy(ring);
    cpim_close(cpu);
    free(in), free(want), free(got);
}

TEST(ntt_r2_refuses_other_ops)
{
    const size_t n = 1024, words = R2_POLYS * R2_L * n;
    const uint64_t q[R2_L] = {prime_below(1ull << 31, n), prime_below(1ull << 24, n)};
    uint64_t *in = calloc(words, 8), *got = malloc(words * 8);
    if (!in || !got) {
        CHECK(0, "out of memory");
    } else {
        for (size_t i = 0; i < words; i++)
            in[i] = i % 1000;
        /* the wide region is left as pushed: the kernel did nothing */
        CHECK(run_r2(NTT_OP_POLYMUL, 10, q, in, got) == 1, "polymul: status 1");
        CHECK_MEM(got, in, words * 8, "data untouched");
    }
    free(in), free(got);
}

static void register_r2(void) __attribute__((constructor));
static void register_r2(void)
{
    test_register_case("ntt_r2_n1024", r2_case, 10, 0);
    test_register_case("ntt_r2_n4096", r2_case, 12, 0);
}
#endif
