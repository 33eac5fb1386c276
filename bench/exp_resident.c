/*
 * exp_resident.c -- `cryptopim bench --experiment resident`:
 * encrypt, re-key and hash all data resident in the DPUs' MRAM in place
 * (cpim_region_*, no data transfer) against the CryptoPIM study's path
 * through the memory bus (transfer in, kernel, transfer out: the pim
 * backend's cpim_aes_xts / cpim_sha256_batch) and against AES-NI / SHA-NI
 * on this host, over 1..40 ranks with the same bytes per DPU.
 *
 * Rows in the long CSV schema (exp.h); kernel aes-xts-encrypt, aes-xts-rekey
 * or sha256-merkle; impl pim (mode in-place: resident region; mode
 * async-exec: through the bus) or aesni / shani; phases cpu-dpu, kernel,
 * dpu-cpu, total, and host-cpu-per-GB (time_s = host CPU seconds per GB of
 * payload: measured by getrusage for the CPU rows; for pim rows the modeled
 * transfer time, as the host's cores drive UPMEM transfers).
 *  - pim rows are on the modeled clock (the virtual UPMEM; sampled: a
 *    timing-only run with sampleDpus=1 and sampleRanks=1, one DPU of the
 *    first rank simulated and every other DPU charged its cycles: the
 *    kernel is data-oblivious and every DPU of every rank does the same
 *    work, docs/VIRTUAL_UPMEM_HOST.md §5);
 *  - in place: 32 MiB per DPU (80 GiB at 40 ranks); through the bus the
 *    same bytes in calls of 512 KiB per DPU (the host cannot hold 80 GiB),
 *    their modeled phases summed: the study's path for data larger than
 *    one call;
 *  - through the bus, a re-key is two passes (decrypt, encrypt): the study's
 *    path has no fused kernel, so its row is the sum of the two passes'
 *    phases (the encryption pass's, twice: XTS decryption costs the same
 *    transfers and, on the DPU, within a few percent the same kernel);
 *  - AES-NI / SHA-NI rows are measured on this host over at most 256 MiB
 *    (throughput does not depend on the size beyond the caches), all cores.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "exp.h"
#include "quiet.h"
#include "resident_part.h"

static const uint8_t xkey[32] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16,
                                 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
static const uint8_t xkey2[32] = {32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17,
                                  16, 15, 14, 13, 12, 11, 10, 9,  8,  7,  6,  5,  4,  3,  2,  1};
#define UNIT 4096u

/* One row: 16 tasklets (the pim runs'), no speedup. */
static void row(bench *b, const char *kernel, const char *impl, const char *mode, unsigned ranks,
                unsigned dpus, unsigned threads, size_t bytes, const char *phase, double t,
                cpim_clock clock, double joules)
{
    row_cfg c = {kernel, impl, mode, ranks, dpus, 16, threads, bytes};
    bench_row(b, &c, phase, t, 0, clock, joules);
}

/* The phases of a pim call (scaled by k: a re-key through the bus is two passes). */
static void pim_rows(bench *b, const char *kernel, const char *mode, const cpim_stats *st, double k,
                     size_t bytes)
{
    const cpim_phases *p = &st->modeled;
    row(b, kernel, "pim", mode, st->ranks, st->dpus, 0, bytes, "cpu-dpu", k * p->cpu_dpu_s,
        p->clock, -1);
    row(b, kernel, "pim", mode, st->ranks, st->dpus, 0, bytes, "kernel", k * p->kernel_s, p->clock,
        -1);
    row(b, kernel, "pim", mode, st->ranks, st->dpus, 0, bytes, "dpu-cpu", k * p->dpu_cpu_s,
        p->clock, -1);
    row(b, kernel, "pim", mode, st->ranks, st->dpus, 0, bytes, "total", k * p->total_s, p->clock,
        k * st->modeled_joules);
    row(b, kernel, "pim", mode, st->ranks, st->dpus, 0, bytes, "host-cpu-per-GB",
        k * (p->cpu_dpu_s + p->dpu_cpu_s) / ((double)bytes / 1e9), p->clock, -1);
}

static cpim_ctx *open_pim(bench *b, unsigned ranks)
{
    bench_quiet_yield();
    cpim_options o;
    cpim_options_init(&o);
    o.ranks = ranks;
    o.tasklets = 16;
    o.mode = CPIM_PIM_ASYNC_EXEC;
    /* sampled: the first rank's first DPU runs, the rest are charged */
    char prof[512];
    if (bench_sampled(b)) {
        snprintf(prof, sizeof prof, "%s%ssampleRanks=1,sampleReuse=1",
                 bench_profile(b) ? bench_profile(b) : "",
                 bench_profile(b) && bench_profile(b)[0] ? "," : "");
        o.profile = prof;
    } else {
        o.profile = bench_profile(b);
    }
    o.timing_only = bench_sampled(b);
    cpim_ctx *ctx = NULL;
    return cpim_open(&ctx, "pim", &o) == CPIM_OK ? ctx : NULL;
}

/* acc += st (the modeled phases and energy of one more call) */
static void add_stats(cpim_stats *acc, const cpim_stats *st)
{
    if (acc->ranks == 0) {
        *acc = *st;
        return;
    }
    acc->modeled.cpu_dpu_s += st->modeled.cpu_dpu_s;
    acc->modeled.kernel_s += st->modeled.kernel_s;
    acc->modeled.dpu_cpu_s += st->modeled.dpu_cpu_s;
    acc->modeled.total_s += st->modeled.total_s;
    acc->modeled_joules += st->modeled_joules;
}

static int ok(bench *b, cpim_err rc)
{
    return rc == CPIM_OK || (bench_sampled(b) && rc == CPIM_ERR_TIMING_ONLY);
}

/* A context of the auto backend (AES-NI / SHA-NI where present) with XTS
 * key `key`: the reference of the unsampled runs' checks. */
static cpim_ctx *open_ref(const uint8_t *key)
{
    cpim_ctx *ctx = NULL;
    if (cpim_open(&ctx, "auto", NULL) != CPIM_OK)
        return NULL;
    if (key && cpim_xts_set_key(ctx, key, 32) != CPIM_OK) {
        cpim_close(ctx);
        return NULL;
    }
    return ctx;
}

/* An unsampled in-place run's outputs: the region was all zeros, then
 * encrypted under xkey and re-keyed to xkey2, so DPU d's share must be the
 * XTS encryption of zeros under xkey2 with the tweaks (d << 32) + i, and
 * the digests those of its units.  0, or -1 (reported). */
static int check_region(bench *b, cpim_region *reg, const uint8_t (*digests)[32])
{
    uint32_t dpus = 0;
    uint64_t per = 0;
    size_t unit = 0;
    cpim_ctx *ref = open_ref(xkey2);
    uint8_t *zero = NULL, *want = NULL, *got = NULL, (*dig)[32] = NULL;
    const uint8_t **msgs = NULL;
    size_t *lens = NULL, bad = 0, n = 0;
    cpim_err rc = ref ? cpim_region_layout(reg, &dpus, &per, &unit) : CPIM_ERR_NOMEM;
    if (rc == CPIM_OK) {
        n = (size_t)(per / unit);
        zero = calloc(per, 1), want = malloc(per), got = malloc(per);
        dig = malloc(n * sizeof *dig), msgs = malloc(n * sizeof *msgs),
        lens = malloc(n * sizeof *lens);
        if (!zero || !want || !got || !dig || !msgs || !lens)
            rc = CPIM_ERR_NOMEM;
    }
    for (uint32_t d = 0; rc == CPIM_OK && d < dpus; d++) {
        rc = cpim_aes_xts(ref, CPIM_ENCRYPT, (uint64_t)d << 32, unit, zero, want, per);
        if (rc == CPIM_OK)
            rc = cpim_region_read(reg, d * per, got, per);
        for (size_t i = 0; i < n; i++)
            msgs[i] = want + i * unit, lens[i] = unit;
        if (rc == CPIM_OK)
            rc = cpim_sha256_batch(ref, msgs, lens, n, dig);
        if (rc == CPIM_OK)
            bad += memcmp(got, want, per) != 0 || memcmp(dig, digests + (size_t)d * n, n * 32) != 0;
    }
    free(zero), free(want), free(got), free(dig), free(msgs), free(lens);
    cpim_close(ref);
    if (rc != CPIM_OK || bad) {
        fprintf(stderr, "bench: resident: in place, %u DPUs: %s\n", dpus,
                rc != CPIM_OK ? cpim_strerror(rc)
                              : "output wrong (MRAM or digests differ from the reference)");
        b->failed = 1;
        return -1;
    }
    if (bad == 0)
        bench_progress("resident: in place, %u DPUs: every DPU's MRAM and digests checked", dpus);
    return 0;
}

/* In place: a region of `per` bytes on each DPU of `ranks` ranks; the
 * stats of its XTS encryption, re-key and SHA-256 + Merkle root into st[3]
 * and its size into *bytes.  0, or -1 (printed). */
static int resident_run(bench *b, unsigned ranks, size_t per, cpim_stats st[3], size_t *bytes)
{
    cpim_ctx *ctx = open_pim(b, ranks);
    cpim_region *reg = NULL;
    cpim_err rc =
        ctx ? cpim_region_create(ctx, (uint64_t)ranks * 64 * per, UNIT, &reg) : CPIM_ERR_PIM_ALLOC;
    if (rc != CPIM_OK) {
        fprintf(stderr, "bench: resident: %u ranks: %s\n", ranks, cpim_strerror(rc));
        cpim_close(ctx);
        return -1;
    }
    *bytes = (size_t)cpim_region_size(reg);
    uint8_t root[32];
    /* unsampled: the digests too, to check them (only they cross the bus
     * either way) */
    uint8_t(*digests)[32] = bench_sampled(b) ? NULL : malloc(*bytes / UNIT * 32);
    memset(st, 0, 3 * sizeof *st);
    rc =
        bench_sampled(b) || digests ? cpim_region_xts(reg, CPIM_ENCRYPT, xkey, 32) : CPIM_ERR_NOMEM;
    if (ok(b, rc) && (rc = cpim_region_last_stats(reg, &st[0])) == CPIM_OK)
        rc = cpim_region_xts_rekey(reg, xkey, 32, xkey2, 32);
    if (ok(b, rc) && (rc = cpim_region_last_stats(reg, &st[1])) == CPIM_OK)
        rc = cpim_region_sha256(reg, digests, root);
    if (ok(b, rc))
        rc = cpim_region_last_stats(reg, &st[2]);
    if (!ok(b, rc))
        fprintf(stderr, "bench: resident: %u ranks in place: %s\n", ranks, cpim_strerror(rc));
    int failed = !ok(b, rc) || (!bench_sampled(b) && check_region(b, reg, digests) != 0);
    free(digests);
    cpim_region_free(reg);
    cpim_close(ctx);
    return failed ? -1 : 0;
}

static int resident_point(bench *b, unsigned ranks, size_t per)
{
    static const char *const kernels[3] = {"aes-xts-encrypt", "aes-xts-rekey", "sha256-merkle"};
    cpim_stats st[3];
    size_t bytes = 0;
    if (resident_run(b, ranks, per, st, &bytes) != 0)
        return -1;
    for (int i = 0; i < 3; i++)
        pim_rows(b, kernels[i], "in-place", &st[i], 1, bytes);
    return 0;
}

/* see exp.h */
int bench_resident_server(bench *b, unsigned ranks, size_t per, double t[3], unsigned *dpus,
                          size_t *bytes)
{
    cpim_stats st[3];
    if (resident_run(b, ranks, per, st, bytes) != 0)
        return -1;
    for (int i = 0; i < 3; i++)
        t[i] = st[i].modeled.total_s;
    *dpus = st[0].dpus;
    return 0;
}

/* Through the bus: `rounds` calls on a host buffer of `bytes` (the next
 * units each time), their modeled phases summed. */
static int bus_point(bench *b, unsigned ranks, uint8_t *buf, size_t bytes, unsigned rounds,
                     const uint8_t **msgs, size_t *lens, uint8_t (*dig)[32])
{
    cpim_ctx *ctx = open_pim(b, ranks);
    if (!ctx)
        return -1;
    cpim_stats st, xts = {0}, sha = {0};
    const size_t n = bytes / UNIT;
    /* unsampled: every call's output checked against the auto backend's */
    const int check = !bench_sampled(b);
    cpim_ctx *ref = check ? open_ref(xkey) : NULL;
    uint8_t *want = check ? malloc(bytes) : NULL;
    uint8_t(*want_dig)[32] = check ? malloc(n * 32) : NULL;
    cpim_err rc =
        !check || (ref && want && want_dig) ? cpim_xts_set_key(ctx, xkey, 32) : CPIM_ERR_NOMEM;
    size_t wrong = 0;
    for (unsigned k = 0; k < rounds && ok(b, rc); k++) {
        bench_quiet_yield();
        if (check)
            rc = cpim_aes_xts(ref, CPIM_ENCRYPT, (uint64_t)k * n, UNIT, buf, want, bytes);
        if (ok(b, rc))
            rc = cpim_aes_xts(ctx, CPIM_ENCRYPT, (uint64_t)k * n, UNIT, buf, buf, bytes);
        if (ok(b, rc) && cpim_last_stats(ctx, &st) == CPIM_OK)
            add_stats(&xts, &st);
        wrong += check && rc == CPIM_OK && memcmp(buf, want, bytes) != 0;
    }
    if (ok(b, rc)) {
        pim_rows(b, "aes-xts-encrypt", "async-exec", &xts, 1, rounds * bytes);
        pim_rows(b, "aes-xts-rekey", "async-exec", &xts, 2, rounds * bytes);
    }
    for (size_t i = 0; i < n; i++)
        msgs[i] = buf + i * UNIT, lens[i] = UNIT;
    if (check && ok(b, rc))
        rc = cpim_sha256_batch(ref, msgs, lens, n, want_dig);
    for (unsigned k = 0; k < rounds && ok(b, rc); k++) {
        bench_quiet_yield();
        rc = cpim_sha256_batch(ctx, msgs, lens, n, dig);
        if (ok(b, rc) && cpim_last_stats(ctx, &st) == CPIM_OK)
            add_stats(&sha, &st);
        wrong += check && rc == CPIM_OK && memcmp(dig, want_dig, n * 32) != 0;
    }
    if (ok(b, rc))
        pim_rows(b, "sha256-merkle", "async-exec", &sha, 1, rounds * bytes);
    if (!ok(b, rc))
        fprintf(stderr, "bench: resident: %u ranks through the bus: %s\n", ranks,
                cpim_strerror(rc));
    else if (wrong) {
        fprintf(stderr,
                "bench: resident: %u ranks through the bus: %zu of %u calls' output wrong\n", ranks,
                wrong, 2 * rounds);
        b->failed = 1;
    } else if (check)
        bench_progress("resident: %u ranks through the bus: every call's output checked", ranks);
    cpim_close(ref);
    free(want), free(want_dig);
    cpim_close(ctx);
    return ok(b, rc) && !wrong ? 0 : -1;
}

static double cpu_s(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec * 1e-6 + (double)u.ru_stime.tv_sec +
           u.ru_stime.tv_usec * 1e-6;
}

/* AES-NI XTS (encrypt; re-key = decrypt + encrypt) and SHA-NI on this host:
 * best of 3, measured. */
static void host_rows(bench *b, uint8_t *buf, size_t bytes, const uint8_t **msgs, size_t *lens,
                      uint8_t (*dig)[32])
{
    static const char *const kernels[] = {"aes-xts-encrypt", "aes-xts-rekey", "sha256-merkle"};
    for (int k = 0; k < 3; k++) {
        const char *be = k == 2 ? "shani" : "aesni";
        cpim_backend_info info;
        if (cpim_backend_info_by_name(be, &info) != CPIM_OK || !info.available)
            continue;
        cpim_ctx *ctx = NULL;
        if (cpim_open(&ctx, be, NULL) != CPIM_OK)
            continue;
        cpim_xts_set_key(ctx, xkey, 32);
        double best = 1e300, best_cpu = 0;
        bench_quiet_begin(); /* alone on the host's cores (quiet.h) */
        for (int rep = 0; rep < 3; rep++) {
            double c0 = cpu_s(), t0 = cpim_now();
            cpim_err rc;
            if (k == 2) {
                size_t n = bytes / UNIT;
                for (size_t i = 0; i < n; i++)
                    msgs[i] = buf + i * UNIT, lens[i] = UNIT;
                rc = cpim_sha256_batch(ctx, msgs, lens, n, dig);
            } else {
                rc = cpim_aes_xts(ctx, CPIM_ENCRYPT, 0, UNIT, buf, buf, bytes);
                if (k == 1 && rc == CPIM_OK)
                    rc = cpim_aes_xts(ctx, CPIM_DECRYPT, 0, UNIT, buf, buf, bytes);
            }
            double t = cpim_now() - t0, c = cpu_s() - c0;
            if (rc == CPIM_OK && t < best)
                best = t, best_cpu = c;
        }
        bench_quiet_end();
        if (best < 1e300) {
            unsigned th = cpim_cores();
            row(b, kernels[k], be, "host", 0, 0, th, bytes, "total", best, CPIM_CLOCK_MEASURED, -1);
            row(b, kernels[k], be, "host", 0, 0, th, bytes, "host-cpu-per-GB",
                best_cpu / ((double)bytes / 1e9), CPIM_CLOCK_MEASURED, -1);
        }
        cpim_close(ctx);
    }
}

/* Bytes of physical memory of this host (0 if unknown: then nothing fits). */
static double host_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && size > 0 ? (double)pages * (double)size : 0;
}

int exp_resident(bench *b)
{
    if (!bench_pim_available()) {
        bench_progress("resident: the pim backend is unavailable: skipped");
        return 0;
    }
    static const unsigned full_pts[] = {1, 2, 16, 40}; /* the committed run (docs/RESIDENT.md) */
    static const unsigned small_pts[] = {1, 2};
    const int small = b->quick;
    const unsigned *pts = small ? small_pts : full_pts;
    size_t npts = small ? 2 : sizeof full_pts / sizeof full_pts[0];
    /* the host rows' size: that of the run's own points, whatever
     * CRYPTOPIM_RESIDENT_RANKS picks, so a split run measures what one
     * process would */
    const size_t per_bus = b->quick ? (16u << 10) : (512u << 10);
    const size_t host_all = (size_t)pts[npts - 1] * 64 * per_bus;
    const size_t host_bytes = host_all < (256u << 20) ? host_all : (256u << 20);
    /* CRYPTOPIM_RESIDENT_RANKS=R1,R2,...: only these points */
    unsigned pick[16];
    const char *only = getenv("CRYPTOPIM_RESIDENT_RANKS");
    if (only && *only) {
        size_t n = 0;
        for (const char *c = only; *c && n < 16;) {
            char *end;
            /* digits only: strtoul alone would take " 5", "+5" and "-5" */
            unsigned long v = *c >= '0' && *c <= '9' ? strtoul(c, &end, 10) : 0;
            if (!v || v > 40 || (*end && *end != ',')) {
                fprintf(stderr, "bench: resident: bad CRYPTOPIM_RESIDENT_RANKS '%s'\n", only);
                return -1;
            }
            pick[n++] = (unsigned)v;
            c = *end ? end + 1 : end;
        }
        pts = pick, npts = n;
    }
    /* CRYPTOPIM_RESIDENT_PART: the part of a run split over processes
     * that this one does (resident_part.h) */
    resident_part part;
    if (resident_part_parse(getenv("CRYPTOPIM_RESIDENT_PART"), &part) != 0) {
        fprintf(stderr,
                "bench: resident: bad CRYPTOPIM_RESIDENT_PART '%s' (host, in-place, bus, "
                "in-place.I, bus.I or bus.I+: the I-th point, from 0, I <= 15)\n",
                getenv("CRYPTOPIM_RESIDENT_PART"));
        return -1;
    }
    const int what = (int)part.what;
    unsigned from = part.from, to = part.to;
    b->partial = what != RP_ALL;
    const int do_host = what == RP_ALL || what == RP_HOST,
              do_in = what == RP_ALL || what == RP_IN_PLACE,
              do_bus = what == RP_ALL || what == RP_BUS;
    if (to > npts)
        to = (unsigned)npts;
    if (what == RP_HOST)
        from = to = 0;
    /* in place: 32 MiB per DPU (80 GiB at 40 ranks; no host memory: the
     * region's zero fill gives MRAM pages back, emu/vdpu/dpu.c); simulated
     * per point: one DPU's 32 MiB per pass (sampleRanks; the points' wall
     * times: docs/RESIDENT.md).  Through the bus: the same bytes per DPU, in calls of 512 KiB per
     * DPU from a host buffer (1.25 GiB at 40 ranks), one DPU's 512 KiB simulated per call. */
    const size_t per_res = b->quick ? (32u << 10) : (32u << 20);
    const unsigned rounds = (unsigned)(per_res / per_bus);
    size_t host_max = do_host ? host_bytes : 0;
    for (unsigned i = from; i < to && do_bus; i++)
        if ((size_t)pts[i] * 64 * per_bus > host_max)
            host_max = (size_t)pts[i] * 64 * per_bus;
    uint8_t *buf = NULL;
    const uint8_t **msgs = NULL;
    size_t *lens = NULL;
    uint8_t(*dig)[32] = NULL;
    int rc = 0;
    if (host_max) {
        buf = calloc(host_max, 1);
        msgs = calloc(host_max / UNIT, sizeof *msgs);
        lens = calloc(host_max / UNIT, sizeof *lens);
        dig = calloc(host_max / UNIT, 32);
        rc = buf && msgs && lens && dig ? 0 : -1;
        if (rc != 0)
            fprintf(stderr, "bench: resident: out of memory (%zu MiB)\n", host_max >> 20);
        else
            for (size_t i = 0; i < host_max; i++)
                buf[i] = (uint8_t)(i * 131 + (i >> 12));
    }
    if (rc == 0 && do_host) {
        fprintf(stderr, "bench: resident: AES-NI / SHA-NI on %zu MiB (measured)\n",
                host_bytes >> 20);
        host_rows(b, buf, host_bytes, msgs, lens, dig);
    }
    for (size_t i = from; i < to && rc == 0; i++) {
        const unsigned r = pts[i];
        fprintf(
            stderr,
            "bench: resident: %u ranks, %zu KiB/DPU (in place; bus: %u calls of %zu KiB/DPU)%s\n",
            r, per_res >> 10, rounds, per_bus >> 10, bench_sampled(b) ? " (sampled)" : "");
        double t0 = cpim_now();
        /* unsampled, every DPU's share is its own data, held in this
         * host's memory (the virtual DPUs' MRAM): refuse a point that
         * cannot fit rather than be killed when memory runs out */
        const double need = (double)r * 64 * per_res, have = host_memory();
        if (do_in && !bench_sampled(b) && need > have) {
            fprintf(stderr,
                    "bench: resident: %u ranks in place without sampling needs %.1f GiB of "
                    "MRAM in this host's memory, which has %.1f GiB: not run\n",
                    r, need / (1u << 30), have / (1u << 30));
            b->failed = 1;
        } else if (do_in && resident_point(b, r, per_res) != 0)
            rc = -1;
        if (do_bus && bus_point(b, r, buf, (size_t)r * 64 * per_bus, rounds, msgs, lens, dig) != 0)
            rc = -1;
        fprintf(stderr, "bench: resident: %u ranks done in %.0f s (measured)\n", r,
                cpim_now() - t0);
    }
    free(buf), free(msgs), free(lens), free(dig);
    return rc;
}
