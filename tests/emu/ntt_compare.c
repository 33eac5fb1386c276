/* ntt_compare.c -- the two NTT DPU kernels side by side on one virtual DPU (
 * "compare a 1D radix-2 kernel with a four-step/2D one"): dpu/ntt.c (four-step: up to
 * log_m - 2 strided stages per MRAM pass) and dpu/ntt_r2.c (1D radix-2: one MRAM pass per
 * strided stage, the contiguous tail in WRAM), same multiply, same WRAM blocks (2^8
 * coefficients up to 16 tasklets, 2^7 above), same job record and tables.  For N = 1024 ..
 * 16384, 1 / 8 / 16 / 24 tasklets, forward and inverse, a batch of 64 Ki coefficients
 * (65536 / N polynomials) and a single polynomial, it runs both, checks both outputs
 * against a host transform (the textbook loop on the same tables) and writes one CSV row
 * per run: modeled cycles, instructions and issue slots per butterfly, MRAM bytes moved
 * by the DMA engine per butterfly (data passes, twiddles, the 64-bit narrowing and
 * widening), the engine's busy share and the cycles tasklets spent waiting at barriers.
 * Every number is MODELED (the virtual DPU's timing model, docs/VIRTUAL_DPU.md), none is
 * measured.  It uses the virtual DPU directly (libvdpu), not <dpu.h>, because the host
 * library reports only the launch's cycles, not its instructions, slots or DMA bytes.
 *
 * Built by `make build/emu/ntt-compare` (tests/emu/ntt.mk); `make ntt-compare` writes
 * $(BENCH_OUT)/ntt-layout.csv and .png (part of `make bench`).
 * usage: ntt-compare DPU_DIR [--quick] [--out DIR]   (CSV on stdout without --out)
 * --quick: N = 1024 and 4096 at 16 tasklets (the test in `make test`).
 * Exit status 0 when every output was right. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gnuplot.h"
#include "ntt_args.h"
#include "ntt_tab.h"
#include "vdpu.h"

static uint32_t mulmod(uint32_t a, uint32_t b, uint32_t q)
{
    return (uint32_t)((uint64_t)a * b % q);
}

static uint32_t powmod(uint32_t a, uint64_t e, uint32_t q)
{
    uint32_t r = 1;
    for (; e; e >>= 1, a = mulmod(a, a, q))
        if (e & 1)
            r = mulmod(r, a, q);
    return r;
}

static int prime(uint32_t q)
{
    for (uint32_t d = 2; (uint64_t)d * d <= q; d++)
        if (q % d == 0)
            return 0;
    return q > 1;
}

/* the k-th prime = 1 mod 2N below 2^31, from the top */
static uint32_t nth_prime(uint32_t n, unsigned k)
{
    uint32_t q = ((1u << 31) - 1) / (2 * n) * (2 * n) + 1;
    for (;; q -= 2 * n)
        if (prime(q) && k-- == 0)
            return q;
}

static uint32_t find_psi(uint32_t q, uint32_t n)
{
    for (uint32_t g = 2;; g++) {
        uint32_t psi = powmod(g, (q - 1) / (2 * n), q);
        if (powmod(psi, n, q) == q - 1)
            return psi;
    }
}

/* The host transform on the kernels' own tables ({w, w'} pairs, entry m + i for group i of
 * the stage with m groups): Cooley-Tukey forward, Gentleman-Sande inverse times N^-1. */
static void host_ntt(uint32_t *a, uint32_t n, uint32_t q, const uint32_t *tab, int inv)
{
    if (!inv) {
        for (uint32_t m = 1, t = n / 2; m < n; m *= 2, t /= 2)
            for (uint32_t i = 0; i < m; i++)
                for (uint32_t j = 2 * i * t; j < 2 * i * t + t; j++) {
                    uint32_t u = a[j], v = mulmod(a[j + t], tab[2 * (m + i)], q);
                    a[j] = (u + v) % q, a[j + t] = (u + q - v) % q;
                }
        return;
    }
    for (uint32_t m = n / 2, t = 1; m >= 1; m /= 2, t *= 2)
        for (uint32_t i = 0; i < m; i++)
            for (uint32_t j = 2 * i * t; j < 2 * i * t + t; j++) {
                uint32_t u = a[j], v = a[j + t];
                a[j] = (u + v) % q, a[j + t] = mulmod((u + q - v) % q, tab[2 * (m + i)], q);
            }
    uint32_t ninv = powmod(n, q - 2, q);
    for (uint32_t j = 0; j < n; j++)
        a[j] = mulmod(a[j], ninv, q);
}

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint32_t rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

typedef struct {
    uint64_t cycles, instructions, slots, dma_bytes, dma_busy, blocked;
    int ok;
} run_out;

/* One launch of `prog` on a fresh virtual DPU: `items` polynomials of 2^log_n, one limb. */
static int run(const char *prog, unsigned log_n, uint32_t items, int inv, run_out *o)
{
    const uint32_t n = 1u << log_n;
    char msg[256];
    vdpu_program_t *p = NULL;
    vdpu_t *d = NULL;
    if (vdpu_program_load_file(prog, &p, msg, sizeof msg)) {
        fprintf(stderr, "ntt-compare: %s: %s\n", prog, msg);
        return -1;
    }
    struct ntt_job_args ja;
    memset(&ja, 0, sizeof ja);
    uint32_t *tab = malloc(16u * n), *want = malloc((size_t)items * n * 4);
    uint64_t *wide = malloc((size_t)items * n * 8);
    vdpu_symbol_t heap, js;
    int rc = -1;
    if (!tab || !want || !wide || vdpu_create(NULL, &d) || vdpu_load(d, p) ||
        vdpu_program_symbol(p, VDPU_SYM_MRAM_END, &heap) ||
        vdpu_program_symbol(p, NTT_XSTR(NTT_JOB_SYM), &js))
        goto out;
    const uint32_t q = nth_prime(n, 0);
    cpim_pim_ntt_tab(q, find_psi(q, n), log_n, &ja.limb[0], tab, tab + 2 * n);
    ja.limb[0].fwd_off = 0, ja.limb[0].inv_off = 8 * n;
    ja.op = inv ? NTT_OP_INVERSE : NTT_OP_FORWARD, ja.log_n = log_n, ja.sched = NTT_SCHED_COOP;
    ja.nitems = items, ja.nlimbs = 1, ja.data_off = 16 * n, ja.wide_off = 16 * n + items * n * 4;
    for (size_t i = 0; i < (size_t)items * n; i++) {
        want[i] = i % n == 0 ? 0 : i % n == 1 ? q - 1 : rnd() % q;
        wide[i] = want[i];
    }
    for (uint32_t u = 0; u < items; u++)
        host_ntt(want + (size_t)u * n, n, q, tab + (inv ? 2 * n : 0), inv);
    vdpu_result_t r;
    if (vdpu_mram_write(d, heap.offset, tab, 16u * n) ||
        vdpu_wram_write(d, js.offset, &ja, sizeof ja) ||
        vdpu_mram_write(d, heap.offset + ja.wide_off, wide, (size_t)items * n * 8) ||
        vdpu_run(d, &r))
        goto out;
    if (r.status != VDPU_STATUS_DONE) {
        fprintf(stderr, "ntt-compare: %s: DPU fault %d: %s\n", prog, r.fault_code, r.fault_msg);
        goto out;
    }
    if (vdpu_mram_read(d, heap.offset + ja.wide_off, wide, (size_t)items * n * 8))
        goto out;
    o->ok = 1;
    for (size_t i = 0; i < (size_t)items * n; i++)
        o->ok &= wide[i] == want[i];
    o->cycles = r.cycles, o->instructions = r.instructions, o->slots = r.slots;
    o->dma_bytes = r.dma_bytes, o->dma_busy = r.dma_busy_cycles, o->blocked = 0;
    for (unsigned t = 0; t < r.nr_tasklets; t++)
        o->blocked += r.tasklet[t].blocked_cycles;
    rc = 0;
out:
    free(tab), free(want), free(wide);
    vdpu_free(d);
    vdpu_program_free(p);
    return rc;
}

/* MRAM passes over the data of one transform (the narrowing and widening not counted). */
static unsigned passes(int r2, unsigned log_n, unsigned tasklets)
{
    uint32_t log_m = ntt_log_m_for(tasklets), s0[8], k[8];
    return r2 ? log_n - log_m + 1 : ntt_passes(log_n, log_m, s0, k);
}

int main(int argc, char **argv)
{
    const char *dir = NULL, *out = NULL;
    int quick = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
        else if (!dir && argv[i][0] != '-')
            dir = argv[i];
        else
            dir = NULL, argc = 0;
    }
    if (!dir) {
        fprintf(stderr, "usage: ntt-compare DPU_DIR [--quick] [--out DIR]\n");
        return 2;
    }
    char csv_path[1024];
    FILE *csv = stdout;
    if (out) {
        snprintf(csv_path, sizeof csv_path, "%s/ntt-layout.csv", out);
        if (!(csv = fopen(csv_path, "w"))) {
            perror(csv_path);
            return 1;
        }
    }
    static const unsigned tpts[] = {1, 8, 16, 24};
    /* [log_n - 10][tasklet point][inverse][one polynomial][radix-2] (for the plot) */
    static run_out res[5][4][2][2][2];
    fprintf(csv, "kernel,op,n,tasklets,polys,passes,cycles,instructions,slots,dma_bytes,"
                 "cycles_per_bfly,instr_per_bfly,mram_bytes_per_bfly,issue_slots_pct,"
                 "dma_busy_pct,barrier_wait_pct,r2_vs_4step_cycles,clock\n");
    int bad = 0;
    for (unsigned log_n = 10; log_n <= 14; log_n++)
        for (size_t ti = 0; ti < sizeof tpts / sizeof *tpts; ti++)
            for (int inv = 0; inv < 2; inv++)
                for (int single = 0; single < 2; single++) {
                    const unsigned t = tpts[ti];
                    if (quick && (t != 16 || (log_n != 10 && log_n != 12) || single))
                        continue;
                    if (single && t != 16) /* one polynomial: the cooperation case */
                        continue;
                    const uint32_t items = single ? 1u : 65536u >> log_n;
                    const double bfly = (double)items * (1u << log_n) / 2 * log_n;
                    run_out *o = res[log_n - 10][ti][inv][single];
                    for (int r2 = 0; r2 < 2; r2++) {
                        char prog[1024];
                        snprintf(prog, sizeof prog, "%s/ntt%s-t%u", dir, r2 ? "-r2" : "", t);
                        memset(&o[r2], 0, sizeof o[r2]);
                        if (run(prog, log_n, items, inv, &o[r2]) != 0 || !o[r2].ok) {
                            fprintf(stderr, "ntt-compare: %s N %u %s: %s\n", prog, 1u << log_n,
                                    inv ? "inverse" : "forward",
                                    o[r2].cycles ? "output WRONG" : "run failed");
                            bad = 1;
                        }
                    }
                    for (int r2 = 0; r2 < 2; r2++) {
                        const run_out *x = &o[r2];
                        fprintf(csv,
                                "%s,%s,%u,%u,%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
                                ",%.2f,%.2f,%.2f,%.1f,%.1f,%.1f,%.4f,modeled\n",
                                r2 ? "radix2-1d" : "four-step", inv ? "inverse" : "forward",
                                1u << log_n, t, items, passes(r2, log_n, t), x->cycles,
                                x->instructions, x->slots, x->dma_bytes, x->cycles / bfly,
                                x->instructions / bfly, x->dma_bytes / bfly,
                                x->cycles ? 100.0 * x->slots / x->cycles : 0,
                                x->cycles ? 100.0 * x->dma_busy / x->cycles : 0,
                                x->cycles ? 100.0 * x->blocked / ((double)x->cycles * t) : 0,
                                o[0].cycles ? (double)x->cycles / o[0].cycles : 0);
                    }
                    fflush(csv);
                    fprintf(stderr,
                            "ntt-compare: N %5u %-7s %2u tasklets %2u polys: four-step %.1f, "
                            "radix-2 %.1f cycles/butterfly (%+.1f %%), MRAM %.1f vs %.1f "
                            "bytes/butterfly (modeled)\n",
                            1u << log_n, inv ? "inverse" : "forward", t, items, o[0].cycles / bfly,
                            o[1].cycles / bfly,
                            o[0].cycles ? 100.0 * ((double)o[1].cycles / o[0].cycles - 1) : 0,
                            o[0].dma_bytes / bfly, o[1].dma_bytes / bfly);
                }
    if (out) {
        fclose(csv);
        char err[256];
        gp_pipe g;
        if (!gp_available())
            fprintf(stderr, "ntt-compare: no gnuplot: %s only\n", csv_path);
        else if (gp_begin(&g, out, "ntt-layout", 1100, 480, err, sizeof err) == 0) {
            /* forward only: the radix-2 kernel's modeled cycles over the four-step
             * one's per tasklet count (full batches) and for one polynomial on 16
             * tasklets; then both kernels' MRAM bytes per butterfly at 16 tasklets.
             * The series go inline (datablocks), one per line. */
            int pts[5] = {0}; /* points per ratio series: --quick leaves some empty */
            for (size_t ti = 0; ti <= 4; ti++) {
                const int one = ti == 4;
                fprintf(g.g, "$r%zu << EOD\n", ti);
                for (unsigned l = 0; l < 5; l++) {
                    const run_out *o = res[l][one ? 2 : ti][0][one];
                    if (o[0].cycles && o[1].cycles) {
                        fprintf(g.g, "%u %.5f\n", 1024u << l, (double)o[1].cycles / o[0].cycles);
                        pts[ti]++;
                    }
                }
                fprintf(g.g, "EOD\n");
            }
            for (int r2 = 0; r2 < 2; r2++) {
                fprintf(g.g, "$b%d << EOD\n", r2);
                for (unsigned l = 0; l < 5; l++) {
                    const run_out *o = &res[l][2][0][0][r2];
                    double bfly = (double)(65536u >> (l + 10)) * (512u << l) * (l + 10);
                    if (o->cycles)
                        fprintf(g.g, "%u %.3f\n", 1024u << l, o->dma_bytes / bfly);
                }
                fprintf(g.g, "EOD\n");
            }
            fprintf(g.g,
                    "set logscale x 2\nset key outside\nset multiplot layout 1,2\n"
                    "set xlabel 'N'\nset ylabel 'radix-2 cycles / four-step cycles (modeled)'\n"
                    "set title 'forward NTT on one DPU: 1D radix-2 vs four-step'\nplot ");
            for (size_t ti = 0, first = 1; ti <= 4; ti++)
                if (pts[ti]) {
                    fprintf(g.g, "%s$r%zu w lp lw 2 title '%u tasklets%s'", first ? "" : ", ", ti,
                            ti == 4 ? 16 : tpts[ti], ti == 4 ? ", 1 polynomial" : "");
                    first = 0;
                }
            fprintf(g.g, "\nset ylabel 'MRAM bytes per butterfly (modeled)'\n"
                         "set title 'DMA traffic, forward, 16 tasklets'\n"
                         "plot $b0 w lp lw 2 title 'four-step', $b1 w lp lw 2 title 'radix-2 1D'");
            fprintf(g.g, "\nunset multiplot\n");
            if (gp_end(&g, out, "ntt-layout", err, sizeof err) != 0)
                fprintf(stderr, "ntt-compare: plot: %s\n", err);
        } else
            fprintf(stderr, "ntt-compare: plot: %s\n", err);
    }
    return bad;
}
