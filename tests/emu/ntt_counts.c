/* ntt_counts.c -- the NTT DPU kernel (dpu/ntt.c) run standalone on one virtual DPU: checks
 * its output against a host reference (itself checked against the schoolbook negacyclic
 * product for N <= 1024) and prints the modeled instruction and cycle counts per butterfly.
 *
 * Built by `make build/emu/ntt-counts` (tests/emu/ntt.mk);
 * usage: build/emu/ntt-counts build/dpu/ntt-t16 [log_n [limbs [items [op [sched [log_m [bits]]]]]]]
 * bits: the moduli's size, 31 (the default) or up to 62 for the double-word program
 * (build/dpu/ntt64-tT, told apart by its name); the reference is 64-bit for both.
 * op: 0 forward, 1 inverse, 2 pointwise, 3 polymul, 4 tensor (items = ciphertext x limb
 * pairs); sched 0 cooperative, 1 one item per tasklet.  Exit status 0 when the output is
 * right.  Every count printed is modeled (the virtual DPU's timing model), not measured. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ntt_args.h"
#include "ntt_tab.h"
#include "vdpu.h"

typedef unsigned __int128 u128;

static uint64_t mulmod(uint64_t a, uint64_t b, uint64_t q)
{
    return (uint64_t)((u128)a * b % q);
}

static uint64_t powmod(uint64_t a, uint64_t e, uint64_t q)
{
    uint64_t r = 1;
    for (; e; e >>= 1, a = mulmod(a, a, q))
        if (e & 1)
            r = mulmod(r, a, q);
    return r;
}

/* Miller-Rabin with the first 12 primes as bases: exact below 3.3e24 */
static int prime(uint64_t q)
{
    static const uint64_t b[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
    if (q < 2)
        return 0;
    for (int i = 0; i < 12; i++)
        if (q % b[i] == 0)
            return q == b[i];
    uint64_t d = q - 1;
    int r = 0;
    for (; !(d & 1); d >>= 1)
        r++;
    for (int i = 0; i < 12; i++) {
        uint64_t x = powmod(b[i], d, q);
        if (x == 1 || x == q - 1)
            continue;
        int k = 1;
        for (; k < r && (x = mulmod(x, x, q)) != q - 1; k++)
            ;
        if (k == r)
            return 0;
    }
    return 1;
}

/* the k-th prime = 1 mod 2N below 2^bits (from the top) */
static uint64_t nth_prime(uint64_t n, unsigned k, unsigned bits)
{
    uint64_t q = ((1ull << bits) - 1) / (2 * n) * (2 * n) + 1;
    for (;; q -= 2 * n)
        if (q < (1ull << bits) && prime(q) && k-- == 0)
            return q;
}

static uint64_t find_psi(uint64_t q, uint64_t n)
{
    for (uint64_t g = 2;; g++) {
        uint64_t psi = powmod(g, (q - 1) / (2 * n), q);
        if (powmod(psi, n, q) == q - 1)
            return psi;
    }
}

static uint32_t bitrev(uint32_t x, unsigned bits)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < bits; i++, x >>= 1)
        r = r << 1 | (x & 1u);
    return r;
}

/* reference: out[k] = a(psi^(2 bitrev(k) + 1)), by the textbook O(N log N) loop */
static void ref_fwd(uint64_t *a, uint32_t n, unsigned log_n, uint64_t q, uint64_t psi)
{
    for (uint32_t m = 1, t = n / 2; m < n; m *= 2, t /= 2)
        for (uint32_t i = 0; i < m; i++) {
            uint64_t w = powmod(psi, bitrev(m + i, log_n), q);
            for (uint32_t j = 2 * i * t; j < 2 * i * t + t; j++) {
                uint64_t u = a[j], v = mulmod(a[j + t], w, q);
                a[j] = (u + v) % q, a[j + t] = (u + q - v) % q;
            }
        }
}

static void ref_inv(uint64_t *a, uint32_t n, unsigned log_n, uint64_t q, uint64_t psi)
{
    uint64_t ipsi = powmod(psi, q - 2, q), ninv = powmod(n, q - 2, q);
    for (uint32_t h = n / 2, t = 1; h >= 1; h /= 2, t *= 2)
        for (uint32_t i = 0; i < h; i++) {
            uint64_t w = powmod(ipsi, bitrev(h + i, log_n), q);
            for (uint32_t j = 2 * i * t; j < 2 * i * t + t; j++) {
                uint64_t u = a[j], v = a[j + t];
                a[j] = (u + v) % q, a[j + t] = mulmod((u + q - v) % q, w, q);
            }
        }
    for (uint32_t j = 0; j < n; j++)
        a[j] = mulmod(a[j], ninv, q);
}

static void naive_mul(const uint64_t *a, const uint64_t *b, uint64_t *c, uint32_t n, uint64_t q)
{
    for (uint32_t k = 0; k < n; k++)
        c[k] = 0;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) {
            uint64_t p = mulmod(a[i], b[j], q), k = (i + j) % n;
            c[k] = i + j < n ? (c[k] + p) % q : (c[k] + q - p) % q;
        }
}

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: ntt-counts build/dpu/ntt-tT [log_n limbs items op sched log_m]\n");
        return 2;
    }
    unsigned log_n = argc > 2 ? (unsigned)atoi(argv[2]) : 10;
    uint32_t L = argc > 3 ? (uint32_t)atoi(argv[3]) : 1,
             items = argc > 4 ? (uint32_t)atoi(argv[4]) : 16;
    uint32_t op = argc > 5 ? (uint32_t)atoi(argv[5]) : NTT_OP_POLYMUL;
    uint32_t sched = argc > 6 ? (uint32_t)atoi(argv[6]) : NTT_SCHED_COOP;
    uint32_t log_m = argc > 7 ? (uint32_t)atoi(argv[7]) : 0;
    const unsigned bits = argc > 8 ? (unsigned)atoi(argv[8]) : 31;
    const int dw = strstr(argv[1], "ntt64") != NULL; /* the double-word program */
    const uint32_t n = 1u << log_n, cb = dw ? 8 : 4; /* MRAM bytes per coefficient */
    if (log_n < 10 || log_n > 16 || L < 1 || L > NTT_MAX_LIMBS || op > NTT_OP_TENSOR ||
        (op == NTT_OP_TENSOR && items % L) || bits < 20 || bits > (dw ? 62u : 31u)) {
        fprintf(stderr, "ntt-counts: bad arguments\n");
        return 2;
    }
    char msg[256];
    vdpu_program_t *p;
    vdpu_t *d;
    if (vdpu_program_load_file(argv[1], &p, msg, sizeof msg)) {
        fprintf(stderr, "ntt-counts: %s: %s\n", argv[1], msg);
        return 1;
    }
    if (vdpu_create(NULL, &d) || vdpu_load(d, p))
        return 1;
    static struct ntt_job_args jw;
    static struct ntt_job_args64 jd;
    struct ntt_job_hdr *jh = dw ? &jd.h : &jw.h; /* the header of either */
    const void *job = dw ? (const void *)&jd : (const void *)&jw;
    const size_t job_size = dw ? sizeof jd : sizeof jw;
    uint64_t qs[NTT_MAX_LIMBS], psis[NTT_MAX_LIMBS];
    const uint32_t tabb = 4 * cb * n; /* table bytes per modulus */
    void *tab = malloc(tabb);
    vdpu_symbol_t heap, js;
    if (!tab || vdpu_program_symbol(p, VDPU_SYM_MRAM_END, &heap) ||
        vdpu_program_symbol(p, NTT_XSTR(NTT_JOB_SYM), &js))
        return 1;
    uint32_t off = 0;
    for (uint32_t j = 0; j < L; j++) {
        qs[j] = nth_prime(n, j, bits), psis[j] = find_psi(qs[j], n);
        if (dw) {
            cpim_pim_ntt_tab64(qs[j], psis[j], log_n, &jd.limb[j], tab, (uint64_t *)tab + 2 * n);
            jd.limb[j].fwd_off = off, jd.limb[j].inv_off = off + tabb / 2;
        } else {
            cpim_pim_ntt_tab((uint32_t)qs[j], (uint32_t)psis[j], log_n, &jw.limb[j], tab,
                             (uint32_t *)tab + 2 * n);
            jw.limb[j].fwd_off = off, jw.limb[j].inv_off = off + tabb / 2;
        }
        if (vdpu_mram_write(d, heap.offset + off, tab, tabb))
            return 1;
        off += tabb;
    }
    /* slots: a/c region, b/d region, e region */
    const uint32_t nin = op == NTT_OP_TENSOR ? 2 * items : items;
    const uint32_t nslots = op == NTT_OP_TENSOR      ? 7 * items
                            : op >= NTT_OP_POINTWISE ? 2 * items
                                                     : items;
    jh->op = op, jh->log_n = log_n, jh->log_m = log_m, jh->sched = sched, jh->nitems = items;
    jh->nlimbs = L, jh->limb0 = op == NTT_OP_TENSOR ? 0 : 1 % L, jh->data_off = off;
    jh->bslot = nin, jh->eslot = 2 * nin;
    uint64_t *mem = malloc((size_t)nslots * n * 8), *want = malloc((size_t)nslots * n * 8);
    uint64_t *tmp = malloc((size_t)4 * n * 8);
    if (!mem || !want || !tmp)
        return 1;
#define LIMB(s) (op == NTT_OP_TENSOR ? (s) % L : (jh->limb0 + (s) % nin) % L)
    for (uint32_t s = 0; s < 2 * nin && s < nslots; s++)
        for (uint32_t k = 0; k < n; k++) {
            uint64_t q = qs[LIMB(s)], v = rnd() % q;
            if (k < 3) /* the edges */
                v = k == 0 ? 0 : k == 1 ? q - 1 : v;
            mem[(size_t)s * n + k] = v;
        }
    memcpy(want, mem, (size_t)nslots * n * 8);
    /* the host reference, same layout */
    for (uint32_t u = 0; u < items; u++) {
        uint32_t j = op == NTT_OP_TENSOR ? u % L : (jh->limb0 + u) % L;
        uint64_t q = qs[j], psi = psis[j];
        if (op == NTT_OP_FORWARD)
            ref_fwd(want + (size_t)u * n, n, log_n, q, psi);
        else if (op == NTT_OP_INVERSE)
            ref_inv(want + (size_t)u * n, n, log_n, q, psi);
        else if (op == NTT_OP_POINTWISE)
            for (uint32_t k = 0; k < n; k++)
                want[(size_t)u * n + k] =
                    mulmod(want[(size_t)u * n + k], want[(size_t)(nin + u) * n + k], q);
        else if (op == NTT_OP_POLYMUL) {
            uint64_t *a = want + (size_t)u * n, *b = want + (size_t)(nin + u) * n;
            ref_fwd(a, n, log_n, q, psi), ref_fwd(b, n, log_n, q, psi);
            for (uint32_t k = 0; k < n; k++)
                a[k] = mulmod(a[k], b[k], q);
            ref_inv(a, n, log_n, q, psi);
            if (u == 0 && log_n == 10) { /* the reference against the schoolbook product */
                naive_mul(mem + (size_t)u * n, mem + (size_t)(nin + u) * n, tmp, n, q);
                if (memcmp(tmp, a, n * 8)) {
                    fprintf(stderr, "ntt-counts: host reference is wrong\n");
                    return 1;
                }
            }
        } else { /* tensor */
            uint32_t i = u / L,
                     s[4] = {u + i * L, u + i * L + L, nin + u + i * L, nin + u + i * L + L};
            for (int x = 0; x < 4; x++) {
                memcpy(tmp + x * n, mem + (size_t)s[x] * n, n * 8);
                ref_fwd(tmp + x * n, n, log_n, q, psi);
                memcpy(want + (size_t)s[x] * n, tmp + x * n, n * 8);
            }
            for (uint32_t r = 0; r < 3; r++) {
                uint64_t *e = want + (size_t)(2 * nin + u + 2 * i * L + r * L) * n;
                for (uint32_t k = 0; k < n; k++) {
                    uint64_t c0 = tmp[k], c1 = tmp[n + k], d0 = tmp[2 * n + k], d1 = tmp[3 * n + k];
                    e[k] = r == 0   ? mulmod(c0, d0, q)
                           : r == 2 ? mulmod(c1, d1, q)
                                    : (mulmod(c0, d1, q) + mulmod(c1, d0, q)) % q;
                }
                ref_inv(e, n, log_n, q, psi);
            }
        }
    }
    /* the inputs as 64-bit words after the slots (the word program narrows
     * them), or in the slots themselves (the double-word program) */
    const uint32_t nwide = op == NTT_OP_TENSOR      ? 4 * items
                           : op >= NTT_OP_POINTWISE ? 2 * items
                                                    : items;
    jh->wide_off = off + nslots * n * 4;
    const uint32_t in_off = dw ? off : jh->wide_off;
    vdpu_result_t r;
    if (vdpu_wram_write(d, js.offset, job, job_size) ||
        vdpu_mram_write(d, heap.offset + in_off, mem, (size_t)nwide * n * 8) || vdpu_run(d, &r))
        return 1;
    if (r.status != VDPU_STATUS_DONE) {
        fprintf(stderr, "ntt-counts: DPU fault %d: %s\n", r.fault_code, r.fault_msg);
        return 1;
    }
    /* results, widened by the word program at wide_off, in the double-word
     * program's slots: forward/inverse/pointwise/polymul from the a slots,
     * tensor from the e slots */
    size_t first = op == NTT_OP_TENSOR ? 2 * nin : 0, cnt = op == NTT_OP_TENSOR ? 3 * items : items;
    uint64_t *wide = malloc(cnt * n * 8);
    if (!wide ||
        vdpu_mram_read(d, heap.offset + (dw ? off + (uint32_t)(first * n * 8) : jh->wide_off), wide,
                       cnt * n * 8))
        return 1;
    int bad = 0;
    for (size_t i = 0; i < cnt * n; i++)
        bad |= wide[i] != want[first * n + i];
    /* butterflies of the op: forward/inverse N/2 log N each */
    double bfly = (double)n / 2 * log_n;
    double nt = op == NTT_OP_FORWARD || op == NTT_OP_INVERSE ? 1
                : op == NTT_OP_POLYMUL                       ? 3
                : op == NTT_OP_TENSOR                        ? 7
                                                             : 0;
    printf("%s log_n %u limbs %u (%u bits) items %u op %u sched %u: %s; modeled: %" PRIu64
           " instructions, %" PRIu64 " cycles (%.3f ms at 350 MHz), issue slots %.1f %%",
           argv[1], log_n, L, bits, items, op, sched, bad ? "WRONG" : "ok", r.instructions,
           r.cycles, r.cycles / 350e3, 100.0 * (double)r.slots / (double)r.cycles);
    if (nt > 0)
        printf(", %.1f cycles and %.1f instructions per butterfly (%g transforms)",
               r.cycles / (items * nt * bfly), r.instructions / (items * nt * bfly), items * nt);
    printf("\n");
    free(mem), free(want), free(tmp), free(tab), free(wide);
    vdpu_free(d);
    vdpu_program_free(p);
    return bad;
}
