/*
 * benchmark.c -- `cryptopim benchmark`: the table `cryptsetup benchmark`
 * prints (Algorithm | Key | Encryption | Decryption, MiB/s) for AES-ECB,
 * AES-CTR, AES-XTS and AES-GCM at every key size, one row per backend and,
 * for pim, per machine size (1 rank and 40 ranks by default), plus
 * cryptsetup's PBKDF2-sha256 line (speed_kdf_1chain, the one `cryptopim
 * speed` prints).
 *
 * Clocks.  A CPU backend's row is measured: wall time here (cpim_now, the
 * project's one timing module), best of >= 3 runs and >= min_time after a
 * warm-up, the threads of --threads (default all cores).  A pim row is
 * modeled: what the real UPMEM machine would take (the virtual UPMEM's
 * model of --machine, default `study`: 40 ranks x 64 DPUs at 450 MHz;
 * docs/MODEL.md), from cpim_last_stats; its runs are timing-only
 * (cpim_options.timing_only: one DPU per rank simulated, the kernels being
 * data-oblivious; output not returned), as `cryptopim bench` runs them, so
 * 40 ranks take seconds, not hours.  Host work in a modeled row is the
 * calling thread's CPU time (hostClock=thread, as `cryptopim bench`).
 *
 * Workloads: one buffer of --size bytes (default 8 MiB; pim: that much per
 * rank), ECB/CTR over it, XTS as dm-crypt's aes-xts-plain64 with 512-byte
 * data units (cryptsetup's default sector), GCM as one message with a
 * 12-byte IV and no AAD (its decryption checks the tag: the ciphertext is
 * the subject's own).  Before anything is timed, every subject's output of
 * every mode, key size and direction is checked on a small buffer against
 * the cpu backend (pim: a real run on 1 rank); a mismatch is an error
 * (exit 1).  MiB/s = 2^20 bytes/s, as cryptsetup.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "cli.h"
#include "quiet.h"
#include "speed_kdf.h"

#define MAX_SUBJECTS 16
#define MAX_RANKS    8
#define XTS_UNIT     512u
#define CHECK_LEN    (8u * XTS_UNIT + 48u) /* 8 whole units and a short one: a tail on pim */

static const char benchmark_help[] =
    "usage: cryptopim benchmark [--backend NAME]... [--pim-ranks LIST] [--machine NAME]\n"
    "                           [--size BYTES] [--threads N] [--csv]\n"
    "\n"
    "Prints the table of `cryptsetup benchmark` -- Algorithm | Key | Encryption |\n"
    "Decryption in MiB/s -- for aes-ecb, aes-ctr, aes-gcm (128b, 192b, 256b keys)\n"
    "and aes-xts (256b, 512b keys: AES-128 and AES-256, as cryptsetup names\n"
    "them; 512-byte data units, plain64 tweaks), one row per backend, and the\n"
    "PBKDF2-sha256 line (iterations per second, one chain, 256-bit key).\n"
    "\n"
    "  --backend NAME   a backend to measure (may be repeated); default: every\n"
    "                   available CPU backend with AES, and pim when available\n"
    "  --pim-ranks LIST the pim backend's machine sizes, comma-separated ranks\n"
    "                   (default 1,40; `none`: no pim rows)\n"
    "  --machine NAME   the machine the virtual UPMEM models (study, prim,\n"
    "                   dramatic; default study: 40 ranks x 64 DPUs at 450 MHz)\n"
    "  --size BYTES     buffer size (default 8 MiB; pim: per rank), a multiple\n"
    "                   of 512 (suffixes K, M)\n"
    "  --csv            rows `algorithm,key_bits,backend,ranks,dpus,threads,clock,\n"
    "                   bytes,encryption,decryption,unit`\n"
    "  --asap           instead: the AsAP study's comparison (docs/ASAP.md), AES\n"
    "                   encryption in cycles per byte and Mbps for this CPU (1 core,\n"
    "                   measured), one DPU, a chip, a rank and the largest\n"
    "                   --pim-ranks machine (modeled), beside the study's rows\n"
    "%s"
    "\n"
    "Every row says its clock: `measured` (wall time on this host, best of >= 3\n"
    "runs after a warm-up) for the CPU backends, `modeled` for pim (what the real\n"
    "UPMEM machine would take, from the virtual UPMEM's model; timing-only runs,\n"
    "one DPU per rank simulated) -- a modeled number is not a measurement.\n"
    "Outputs are checked against the cpu backend first.  MiB/s = 2^20 bytes/s.\n"
    "Exit status: 0, 1 if an output did not match or a run failed, 2 bad usage.\n";

enum alg { A_ECB, A_CTR, A_XTS, A_GCM, N_ALG };
static const char *const alg_name[N_ALG] = {"aes-ecb", "aes-ctr", "aes-xts", "aes-gcm"};
/* cryptsetup's key column: XTS counts both halves */
static const unsigned alg_keys[N_ALG][3] = {
    {128, 192, 256}, {128, 192, 256}, {256, 512, 0}, {128, 192, 256}};

static const uint8_t iv12[12] = {0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce,
                                 0xdb, 0xad, 0xde, 0xca, 0xf8, 0x88};

struct subject {
    const char *name;
    unsigned ranks; /* pim: ranks; else 0 */
    unsigned threads;
    unsigned dpus; /* pim: from its statistics */
    int pim;
    /* [alg][key][dir] seconds on the subject's clock; < 0: not provided */
    double s[N_ALG][3][2];
};

struct bm {
    size_t size, check_len;
    double min_time;
    unsigned min_runs, pim_runs;
    int csv, quick, failed;
    char profile[96];
    cli_common c;
    uint8_t key[64];
    uint8_t *in, *out, *ct;     /* size x ranks (largest) */
    uint8_t *cin, *cout, *cref; /* check_len */
    uint8_t tag[16];
};

static void fill(uint8_t *p, size_t n, uint64_t x)
{
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p[i] = (uint8_t)(x >> 32);
    }
}

static cpim_err set_key(cpim_ctx *ctx, const struct bm *b, enum alg a, unsigned bits)
{
    return a == A_XTS ? cpim_xts_set_key(ctx, b->key, bits / 8)
                      : cpim_aes_set_key(ctx, b->key, bits / 8);
}

/* One operation; GCM decryption reads the tag in b->tag (what this
 * subject's encryption of `in` wrote). */
static cpim_err op(cpim_ctx *ctx, struct bm *b, enum alg a, cpim_dir d, const uint8_t *in,
                   uint8_t *out, size_t len)
{
    uint8_t ctr[16];
    switch (a) {
    case A_ECB:
        return cpim_aes_ecb(ctx, d, in, out, len);
    case A_CTR:
        memset(ctr, 0, sizeof ctr), memcpy(ctr, iv12, 12);
        return cpim_aes_ctr(ctx, ctr, in, out, len);
    case A_XTS:
        return cpim_aes_xts(ctx, d, 0, XTS_UNIT, in, out, len);
    default:
        return d == CPIM_ENCRYPT
                   ? cpim_aes_gcm_encrypt(ctx, iv12, 12, NULL, 0, in, out, len, b->tag)
                   : cpim_aes_gcm_decrypt(ctx, iv12, 12, NULL, 0, in, out, len, b->tag);
    }
}

/* Checks name's output of (a, bits) in both directions on the check buffer
 * against the cpu backend's.  0 ok, 1 not provided, -1 mismatch or error. */
static int check(struct bm *b, cpim_ctx *ctx, cpim_ctx *ref, const char *name, enum alg a,
                 unsigned bits)
{
    cpim_err rc = set_key(ctx, b, a, bits);
    if (rc == CPIM_ERR_UNSUPPORTED)
        return 1;
    uint8_t rtag[16];
    size_t len = b->check_len;
    if (rc == CPIM_OK && (rc = set_key(ref, b, a, bits)) == CPIM_OK &&
        (rc = op(ref, b, a, CPIM_ENCRYPT, b->cin, b->cref, len)) == CPIM_OK) {
        memcpy(rtag, b->tag, 16);
        memset(b->tag, 0, 16);
        rc = op(ctx, b, a, CPIM_ENCRYPT, b->cin, b->cout, len);
    }
    if (rc == CPIM_ERR_UNSUPPORTED)
        return 1;
    if (rc == CPIM_OK &&
        (memcmp(b->cout, b->cref, len) || (a == A_GCM && memcmp(b->tag, rtag, 16)))) {
        cli_error("benchmark: %s %s-%ub encryption differs from the cpu backend", name, alg_name[a],
                  bits);
        return -1;
    }
    if (rc == CPIM_OK) { /* decryption: back to the plaintext (GCM: tag checked) */
        memset(b->cref, 0, len);
        rc = op(ctx, b, a, CPIM_DECRYPT, b->cout, b->cref, len);
        if (rc == CPIM_OK && memcmp(b->cref, b->cin, len)) {
            cli_error("benchmark: %s %s-%ub decryption does not give the plaintext back", name,
                      alg_name[a], bits);
            return -1;
        }
    }
    if (rc != CPIM_OK) {
        cli_error("benchmark: %s %s-%ub: %s", name, alg_name[a], bits, cpim_strerror(rc));
        return -1;
    }
    return 0;
}

/* Times (a, bits, dir) on ctx: measured best of runs (CPU), or the modeled
 * clock of timing-only runs (pim).  Returns seconds, or -1 on error. */
static double timed(struct bm *b, cpim_ctx *ctx, struct subject *su, enum alg a, cpim_dir d,
                    size_t len)
{
    const uint8_t *in = b->in;
    if (a == A_GCM && d == CPIM_DECRYPT) { /* a valid ciphertext and tag first */
        cpim_err rc = op(ctx, b, a, CPIM_ENCRYPT, b->in, b->ct, len);
        if (rc != CPIM_OK && !(su->pim && rc == CPIM_ERR_TIMING_ONLY))
            return -1;
        in = b->ct;
    }
    double best = 1e300, spent = 0;
    unsigned min_runs = su->pim ? b->pim_runs : b->min_runs;
    double min_time = su->pim ? 0 : b->min_time;
    for (int r = su->pim ? 0 : -1; r < (int)min_runs || spent < min_time; r++) {
        double t0 = cpim_now();
        cpim_err rc = op(ctx, b, a, d, in, b->out, len);
        double t = cpim_now() - t0;
        if (su->pim) {
            cpim_stats st;
            if (rc != CPIM_ERR_TIMING_ONLY || cpim_last_stats(ctx, &st) != CPIM_OK ||
                !st.has_modeled) {
                cli_error("benchmark: pim %u ranks %s: %s", su->ranks, alg_name[a],
                          rc == CPIM_ERR_TIMING_ONLY ? "no modeled clock" : cpim_strerror(rc));
                return -1;
            }
            su->dpus = st.dpus;
            t = st.modeled.total_s;
        } else if (rc != CPIM_OK) {
            cli_error("benchmark: %s %s: %s", su->name, alg_name[a], cpim_strerror(rc));
            return -1;
        }
        if (r < 0)
            continue; /* warm-up */
        spent += t;
        if (t < best)
            best = t;
    }
    return best;
}

/* Opens the subject: CPU backends with the common options, pim with the
 * machine profile, `ranks` ranks and, if timing, timing-only. */
static cpim_ctx *open_subject(struct bm *b, const struct subject *su, int timing)
{
    cpim_options o = b->c.opt;
    if (su->pim) {
        o.ranks = timing ? su->ranks : 1;
        o.dpus = 0;
        o.profile = b->profile;
        o.timing_only = timing;
    }
    return cli_open(su->name, &o);
}

static void run_subject(struct bm *b, struct subject *su, cpim_ctx *ref)
{
    size_t len = su->pim ? b->size * su->ranks : b->size;
    cpim_ctx *ctx = NULL;
    int ok[N_ALG][3];
    for (int a = 0; a < N_ALG; a++)
        for (int k = 0; k < 3; k++)
            su->s[a][k][0] = su->s[a][k][1] = -1;
    /* checked first; pim on a real 1-rank run (timing-only runs return nothing) */
    if (!(ctx = open_subject(b, su, 0))) {
        b->failed = 1;
        return;
    }
    for (int a = 0; a < N_ALG; a++)
        for (int k = 0; k < 3; k++) {
            int c = alg_keys[a][k] ? check(b, ctx, ref, su->name, (enum alg)a, alg_keys[a][k]) : 1;
            ok[a][k] = c == 0;
            if (c < 0)
                b->failed = 1;
        }
    if (su->pim) {
        cpim_close(ctx);
        if (!(ctx = open_subject(b, su, 1))) {
            b->failed = 1;
            return;
        }
    }
    for (int a = 0; a < N_ALG; a++)
        for (int k = 0; k < 3 && alg_keys[a][k]; k++) {
            if (!ok[a][k])
                continue;
            if (su->pim && !b->csv)
                fprintf(stderr, "benchmark: pim, %u rank(s), %s %ub (modeled, timing-only)\n",
                        su->ranks, alg_name[a], alg_keys[a][k]);
            if (set_key(ctx, b, (enum alg)a, alg_keys[a][k]) != CPIM_OK) {
                b->failed = 1;
                continue;
            }
            for (int d = 0; d < 2; d++) {
                double t = timed(b, ctx, su, (enum alg)a, (cpim_dir)d, len);
                if (t < 0)
                    b->failed = 1;
                su->s[a][k][d] = t > 0 ? t : -1;
            }
        }
    cpim_close(ctx);
}

static double mibps(size_t bytes, double s)
{
    return s > 0 ? (double)bytes / s / (1024.0 * 1024.0) : 0;
}

static void print_rows(const struct bm *b, const struct subject *subj, size_t ns)
{
    char who[48];
    if (!b->csv)
        printf("#     Algorithm |       Key |      Encryption |      Decryption | backend"
               "                  | clock\n");
    for (int a = 0; a < N_ALG; a++)
        for (int k = 0; k < 3 && alg_keys[a][k]; k++)
            for (size_t i = 0; i < ns; i++) {
                const struct subject *su = &subj[i];
                const double *s = su->s[a][k];
                size_t bytes = su->pim ? b->size * su->ranks : b->size;
                const char *clk =
                    cpim_clock_name(su->pim ? CPIM_CLOCK_MODELED : CPIM_CLOCK_MEASURED);
                if (s[0] < 0 && s[1] < 0)
                    continue; /* not provided by this backend */
                if (b->csv) {
                    printf("%s,%u,%s,%u,%u,%u,%s,%zu,%.1f,%.1f,MiB/s\n", alg_name[a],
                           alg_keys[a][k], su->name, su->ranks, su->dpus, su->threads, clk, bytes,
                           mibps(bytes, s[0]), mibps(bytes, s[1]));
                    continue;
                }
                if (su->pim)
                    snprintf(who, sizeof who, "pim, %u rank%s (%u DPUs)", su->ranks,
                             su->ranks == 1 ? "" : "s", su->dpus);
                else
                    snprintf(who, sizeof who, "%s, %u thread%s", su->name, su->threads,
                             su->threads == 1 ? "" : "s");
                printf("%15s %10ub %11.1f MiB/s %11.1f MiB/s   %-24s %s\n", alg_name[a],
                       alg_keys[a][k], mibps(bytes, s[0]), mibps(bytes, s[1]), who, clk);
            }
}

/* ---- --asap: the AsAP study's comparison (docs/ASAP.md) ------------------------------- */

/* The rows of Liu and Baas's table (seeds/003: "A High-Performance
 * Area-Efficient AES Cipher on a Many-Core Platform", Asilomar 2011,
 * "Comparison with Related Work"), AES-128 encryption: platform, method,
 * technology (nm), clock (MHz), cycles per byte as published (per core for
 * the CPUs, "one core" in the table; the whole design for the others),
 * the cores that figure covers, throughput in Mbps scaled to 65 nm as
 * published (0: not given).  Nothing here is ours. */
static const struct {
    const char *platform, *method;
    unsigned nm, mhz;
    double cpb;
    unsigned cores;
    double mbps_65nm;
} asap_seed[] = {
    {"Pentium 4 561", "bitslice", 90, 3600, 16.0, 1, 2492},
    {"Athlon 64 3500", "bitslice", 90, 2200, 10.6, 1, 2299},
    {"Core 2 Duo E6400", "bitslice", 65, 2130, 9.19, 1, 1854},
    {"Core 2 Quad Q6600 (one core)", "bitslice + SSSE3", 65, 2400, 9.32, 1, 2060},
    {"Core 2 Quad Q9550 (one core)", "bitslice + SSSE3", 45, 2830, 7.59, 1, 2065},
    {"Core i7 920 (one core)", "bitslice + SSSE3", 45, 2668, 6.92, 1, 2135},
    {"TI C6201 DSP", "-", 180, 200, 14.25, 1, 311},
    {"GeForce 8800 GTX", "T-box", 90, 575, 0, 0, 11500},
    {"AsAP (59 of 164 cores)", "pipelined over cores", 65, 1210, 9.5, 59, 1019},
};

/* This CPU's core clock, measured: a chain of dependent adds retires one
 * per cycle on every x86 core since the P6, so adds / seconds is the clock
 * the core ran at (turbo included), unlike the TSC's fixed rate.  Seconds
 * of this thread's CPU time, so that time the thread was descheduled on a
 * shared machine does not count as cycles. */
static double thread_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double measure_clock_hz(void)
{
    double best = 0;
#if defined(__x86_64__) || defined(__i386__)
    for (int r = 0; r < 5; r++) {
        const uint64_t n = 200000000u;
        uint64_t x = 0;
        double t0 = thread_cpu_s();
        for (uint64_t i = 0; i < n; i += 8)
            __asm__ volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
                             "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0"
                             : "+r"(x));
        double hz = (double)n / (thread_cpu_s() - t0);
        if (hz > best)
            best = hz;
    }
#endif
    return best; /* 0 elsewhere: no cycles for the CPU rows */
}

#ifdef HAVE_OPENSSL
#include <openssl/evp.h>
/* AES-NI on xmm: OpenSSL's EVP ECB (aesni_ecb_encrypt; OpenSSL has no VAES
 * ECB), one thread.  Returns the best seconds of `runs`, or -1. */
static double openssl_ecb(const uint8_t *key, unsigned bits, const uint8_t *in, uint8_t *out,
                          size_t len, unsigned runs, const uint8_t *want, size_t check)
{
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    const EVP_CIPHER *ci = bits == 128   ? EVP_aes_128_ecb()
                           : bits == 192 ? EVP_aes_192_ecb()
                                         : EVP_aes_256_ecb();
    double best = -1;
    int outl;
    if (c && EVP_EncryptInit_ex(c, ci, NULL, key, NULL) == 1 && EVP_CIPHER_CTX_set_padding(c, 0) &&
        EVP_EncryptUpdate(c, out, &outl, in, (int)check) == 1 && !memcmp(out, want, check)) {
        best = 1e300;
        for (unsigned r = 0; r <= runs; r++) {
            double t0 = thread_cpu_s(); /* as the other CPU rows of --asap */
            if (EVP_EncryptUpdate(c, out, &outl, in, (int)len) != 1)
                break;
            double t = thread_cpu_s() - t0;
            if (r && t < best) /* run 0: warm-up */
                best = t;
        }
    }
    EVP_CIPHER_CTX_free(c);
    return best;
}
#endif

static void asap_row(int csv, const char *platform, const char *method, const char *clk, double mhz,
                     unsigned keybits, double cpb, unsigned cores, double mbps)
{
    if (csv)
        printf("%s,%s,%s,%.0f,%u,%.4g,%u,%.4g,%.1f\n", platform, method, clk, mhz, keybits, cpb,
               cores, cores ? cpb * cores : 0, mbps);
    else
        printf("%-30s %-24s %-9s %6.0f %4u %10.4g %6u %11.4g %11.1f\n", platform, method, clk, mhz,
               keybits, cpb, cores, cores ? cpb * cores : 0, mbps);
}

/* ECB encryption on a pim machine of `dpus` DPUs (0: `ranks` ranks) on the
 * modeled clock: kernel cycles (cycles_profile) or the whole call.  Returns
 * seconds, fills *ndpus; -1 on error.  timing: a timing-only run. */
static double pim_ecb(struct bm *b, const char *profile, unsigned dpus, unsigned ranks, int timing,
                      unsigned bits, size_t len, int kernel, unsigned *ndpus)
{
    cpim_options o;
    cpim_options_init(&o);
    o.dpus = dpus, o.ranks = ranks, o.profile = profile, o.timing_only = timing;
    bench_quiet_yield(); /* between two UPMEM calls: a waiting measurement goes first */
    cpim_ctx *ctx = cli_open("pim", &o);
    cpim_stats st;
    double t = -1;
    if (ctx && cpim_aes_set_key(ctx, b->key, bits / 8) == CPIM_OK) {
        cpim_err rc = cpim_aes_ecb(ctx, CPIM_ENCRYPT, b->in, b->out, len);
        if ((rc == CPIM_OK || (timing && rc == CPIM_ERR_TIMING_ONLY)) &&
            cpim_last_stats(ctx, &st) == CPIM_OK && st.has_modeled) {
            t = kernel ? st.modeled.kernel_s : st.modeled.total_s;
            *ndpus = st.dpus;
        }
    }
    if (t < 0)
        cli_error("benchmark --asap: pim AES-%u ECB on %u DPUs / %u ranks failed", bits, dpus,
                  ranks);
    cpim_close(ctx);
    return t;
}

static int run_asap(struct bm *b, const char *machine, unsigned full_ranks)
{
    const size_t len = b->size, check = 4096;
    uint8_t *want = malloc(check);
    cpim_ctx *ref = cli_open("cpu", NULL);
    int failed = !want || !ref;
    char prof[160], cyc[200], nolaunch[200];
    double mhz = 0;
    snprintf(prof, sizeof prof, "machine=%s,hostClock=thread", machine);
    /* DPU cycles: the same machine at 1000 MHz without launch overhead, so
     * kernel seconds x 1e9 = DPU cycles (as `cryptopim bench`) */
    snprintf(cyc, sizeof cyc, "%s,clockMhz=1000,launchUs=0", prof);
    snprintf(nolaunch, sizeof nolaunch, "%s,launchUs=0", prof); /* the kernel alone */
    /* beside other jobs of make bench: the measured sections alone on the
     * cores, the modeled ones beside them (quiet.h) */
    bench_quiet_init();
    bench_quiet_begin();
    double hz = measure_clock_hz();
    bench_quiet_end();
    if (b->csv)
        puts("platform,method,clock,mhz,key_bits,cycles_per_byte,cores,cycles_per_byte_core,"
             "throughput_Mbps");
    else {
        printf("# AES-nnn encryption (ECB), cycles per byte and throughput (Mbps = 1e6 bits/s).\n"
               "# clock: seed = Liu & Baas 2011 (their table; Mbps scaled to 65 nm as published),\n"
               "# measured = this host, 1 thread (cycles = the thread's CPU seconds x %.0f MHz,\n"
               "# the core clock measured with a dependent-add chain; Mbps from those seconds),\n"
               "# modeled = the virtual UPMEM (machine=%s).\n"
               "# cores: units the c/B figure covers; c/B x cores = cycles per byte per core.\n",
               hz / 1e6, machine);
        printf("%-30s %-24s %-9s %6s %4s %10s %6s %11s %11s\n", "platform", "method", "clock",
               "MHz", "key", "c/B", "cores", "c/B x core", "Mbps");
    }
    for (size_t i = 0; i < sizeof asap_seed / sizeof asap_seed[0]; i++)
        asap_row(b->csv, asap_seed[i].platform, asap_seed[i].method, "seed", asap_seed[i].mhz, 128,
                 asap_seed[i].cpb, asap_seed[i].cores, asap_seed[i].mbps_65nm);
    for (unsigned bits = 128; bits <= 256 && !failed; bits += 64) {
        /* this CPU, measured, one thread; outputs checked against the cpu backend */
        cpim_aes_set_key(ref, b->key, bits / 8);
        cpim_aes_ecb(ref, CPIM_ENCRYPT, b->in, want, check);
        static const char *const be[2] = {"cpu", "aesni"};
        static const char *const what[2] = {"portable T-tables", "VAES (aesni backend)"};
        bench_quiet_begin();
        for (int k = 0; k < 2; k++) {
            cpim_options o = b->c.opt;
            o.threads = 1;
            cpim_backend_info info;
            if (cpim_backend_info_by_name(be[k], &info) != CPIM_OK || !info.available)
                continue;
            cpim_ctx *c = cli_open(be[k], &o);
            struct subject su = {.name = be[k], .threads = 1};
            double t = -1;
            if (c && cpim_aes_set_key(c, b->key, bits / 8) == CPIM_OK &&
                cpim_aes_ecb(c, CPIM_ENCRYPT, b->in, b->out, check) == CPIM_OK &&
                !memcmp(b->out, want, check))
                t = timed(b, c, &su, A_ECB, CPIM_ENCRYPT, len); /* warm-up and wall time */
            /* cycles: this thread's CPU time (one thread: the call runs on it),
             * best of min_runs, so that a shared machine's descheduling does
             * not count; Mbps from the same seconds */
            for (unsigned r = 0; t > 0 && r < b->min_runs; r++) {
                double t0 = thread_cpu_s();
                cpim_aes_ecb(c, CPIM_ENCRYPT, b->in, b->out, len);
                double tc = thread_cpu_s() - t0;
                if (r == 0 || tc < t)
                    t = tc;
            }
            cpim_close(c);
            if (t <= 0) {
                cli_error("benchmark --asap: %s AES-%u failed or differs", be[k], bits);
                failed = 1;
                continue;
            }
            asap_row(b->csv, "this CPU, 1 core", what[k], "measured", hz / 1e6, bits,
                     t * hz / (double)len, 1, (double)len * 8 / t / 1e6);
        }
#ifdef HAVE_OPENSSL
        double t = openssl_ecb(b->key, bits, b->in, b->out, len, b->min_runs, want, check);
        if (t > 0)
            asap_row(b->csv, "this CPU, 1 core", "AES-NI xmm (OpenSSL)", "measured", hz / 1e6, bits,
                     t * hz / (double)len, 1, (double)len * 8 / t / 1e6);
#endif
        bench_quiet_end();
        /* one DPU: kernel cycles per byte (1000 MHz profile), checked output */
        unsigned nd = 0;
        double kc = pim_ecb(b, cyc, 1, 0, 0, bits, len < (1u << 20) ? len : (1u << 20), 1, &nd);
        if (kc > 0 && memcmp(b->out, want, check)) {
            cli_error("benchmark --asap: pim AES-%u output differs from the cpu backend", bits);
            failed = 1;
        }
        size_t one = len < (1u << 20) ? len : (1u << 20);
        double cpb = kc * 1e9 / (double)one; /* DPU cycles per byte */
        /* the machine's DPU clock from the same kernel on its own profile */
        double kr = pim_ecb(b, nolaunch, 1, 0, 0, bits, one, 1, &nd);
        mhz = kr > 0 ? kc * 1e9 / kr / 1e6 : 0;
        if (kc <= 0 || kr <= 0) {
            failed = 1;
            break;
        }
        asap_row(b->csv, "UPMEM DPU (1 DPU, 16 tasklets)", "T-tables, kernel only", "modeled", mhz,
                 bits, cpb, 1, (double)one * 8 / kr / 1e6);
        asap_row(b->csv, "UPMEM chip (8 DPUs)", "T-tables, kernel only", "modeled", mhz, bits,
                 cpb / 8, 8, 8 * (double)one * 8 / kr / 1e6);
        /* a rank and the full machine, end to end (transfers included),
         * timing-only: cycles per byte at the DPU clock for the whole machine */
        unsigned rk[2] = {1, full_ranks};
        for (int m = 0; m < 2; m++) {
            double tt = pim_ecb(b, prof, 0, rk[m], 1, bits, len * rk[m], 0, &nd);
            if (tt <= 0) {
                failed = 1;
                continue;
            }
            char name[64];
            snprintf(name, sizeof name, "UPMEM, %u rank%s (%u DPUs)", rk[m], rk[m] > 1 ? "s" : "",
                     nd);
            asap_row(b->csv, name, "end to end (host I/O)", "modeled", mhz, bits,
                     tt * mhz * 1e6 / (double)(len * rk[m]), nd,
                     (double)(len * rk[m]) * 8 / tt / 1e6);
        }
    }
    free(want);
    cpim_close(ref);
    return failed;
}

/* "1,40" -> ranks; 0 on error.  "none" -> no ranks. */
static int parse_ranks(const char *s, unsigned *r, size_t *n)
{
    *n = 0;
    if (strcmp(s, "none") == 0)
        return 1;
    while (*s) {
        char *end;
        unsigned long v = strtoul(s, &end, 10);
        if (end == s || v < 1 || v > 4096 || *n == MAX_RANKS || (*end && *end != ','))
            return 0;
        r[(*n)++] = (unsigned)v;
        s = *end ? end + 1 : end;
    }
    return *n > 0;
}

static int parse_size(const char *s, size_t *out)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s)
        return 0;
    if (*end == 'K' || *end == 'k')
        v <<= 10, end++;
    else if (*end == 'M' || *end == 'm')
        v <<= 20, end++;
    if (*end || v == 0 || v % XTS_UNIT || v > (1ull << 30))
        return 0;
    *out = (size_t)v;
    return 1;
}

/* see bench.h */
int cmd_benchmark(int argc, char **argv)
{
    static struct bm b; /* large: the subjects' result tables */
    static struct subject subj[MAX_SUBJECTS];
    cli_args a;
    const char *opt, *operand, *machine = "study";
    const char *names[MAX_SUBJECTS];
    unsigned ranks[MAX_RANKS] = {1, 40};
    size_t nnames = 0, nranks = 2, ns = 0;
    int rc = CLI_FAIL, asap = 0;

    memset(&b, 0, sizeof b);
    memset(subj, 0, sizeof subj);
    b.size = 8u << 20;
    b.min_time = 0.2, b.min_runs = 3, b.pim_runs = 2;
    cli_common_init(&b.c);
    cli_args_init(&a, argc, argv);
    while (cli_next(&a, &opt, &operand)) {
        if (!opt) {
            cli_error("benchmark: unexpected operand (argument %d)", cli_arg_number(&a));
            return CLI_USAGE;
        }
        int k = cli_common_option(&b.c, &a, opt);
        if (k < 0)
            return CLI_USAGE;
        if (k > 0) {
            if (strcmp(opt, "--backend") == 0) {
                if (nnames == MAX_SUBJECTS) {
                    cli_error("benchmark: at most %d --backend options", MAX_SUBJECTS);
                    return CLI_USAGE;
                }
                names[nnames++] = b.c.backend;
            }
            continue;
        }
        const char *v;
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            printf(benchmark_help, cli_common_help);
            return CLI_OK;
        } else if (strcmp(opt, "--asap") == 0) {
            asap = 1;
        } else if (strcmp(opt, "--csv") == 0 || strcmp(opt, "--quick") == 0) {
            if (cli_has_inline_value(&a)) {
                cli_error("benchmark: option %s takes no value", opt);
                return CLI_USAGE;
            }
            *(opt[2] == 'c' ? &b.csv : &b.quick) = 1; /* --quick: undocumented, for tests */
        } else if (strcmp(opt, "--pim-ranks") == 0) {
            if (!(v = cli_value(&a, opt)))
                return CLI_USAGE;
            if (!parse_ranks(v, ranks, &nranks)) {
                cli_error("benchmark: --pim-ranks: bad list %s (e.g. 1,40, or none)", cli_quote(v));
                return CLI_USAGE;
            }
        } else if (strcmp(opt, "--machine") == 0) {
            if (!(machine = cli_value(&a, opt)))
                return CLI_USAGE;
        } else if (strcmp(opt, "--size") == 0) {
            if (!(v = cli_value(&a, opt)))
                return CLI_USAGE;
            if (!parse_size(v, &b.size)) {
                cli_error("benchmark: --size: %s is not a multiple of 512 bytes up to 1G",
                          cli_quote(v));
                return CLI_USAGE;
            }
        } else {
            cli_error("benchmark: unknown option %s (see `cryptopim benchmark --help`)",
                      cli_quote(opt));
            return CLI_USAGE;
        }
    }
    if (b.quick)
        b.min_time = 0.01, b.min_runs = 2, b.pim_runs = 1;
    snprintf(b.profile, sizeof b.profile, "machine=%s,hostClock=thread", machine);

    /* The subjects: the named backends, else the available CPU ones with AES
     * and pim; pim once per machine size. */
    if (!nnames) {
        for (size_t i = 0; i < cpim_backend_count() && nnames < MAX_SUBJECTS; i++) {
            cpim_backend_info info;
            if (cpim_backend_info_at(i, &info) == CPIM_OK && info.available &&
                strcmp(info.name, "auto") != 0)
                names[nnames++] = info.name;
        }
    }
    unsigned threads = b.c.opt.threads ? b.c.opt.threads : cpim_cores();
    for (size_t i = 0; i < nnames; i++) {
        if (strcmp(names[i], "pim") != 0) {
            if (ns < MAX_SUBJECTS)
                subj[ns++] = (struct subject){.name = names[i], .threads = threads};
            continue;
        }
        for (size_t r = 0; r < nranks && ns < MAX_SUBJECTS; r++)
            subj[ns++] = (struct subject){.name = "pim", .ranks = ranks[r], .pim = 1, .threads = 1};
    }

    size_t maxlen = b.size;
    unsigned full = 1; /* --asap: the largest machine */
    for (size_t r = 0; r < nranks; r++)
        full = ranks[r] > full ? ranks[r] : full;
    if (asap)
        maxlen = b.size * full;
    for (size_t i = 0; i < ns && !asap; i++)
        if (subj[i].pim && b.size * subj[i].ranks > maxlen)
            maxlen = b.size * subj[i].ranks;
    b.check_len = CHECK_LEN;
    b.in = malloc(maxlen), b.out = malloc(maxlen), b.ct = malloc(maxlen);
    b.cin = malloc(b.check_len), b.cout = malloc(b.check_len), b.cref = malloc(b.check_len);
    cpim_ctx *ref = cli_open("cpu", NULL);
    if (!b.in || !b.out || !b.ct || !b.cin || !b.cout || !b.cref || !ref) {
        cli_error("benchmark: out of memory for %zu-byte buffers", maxlen);
        goto out;
    }
    fill(b.in, maxlen, 0x9e3779b97f4a7c15u);
    fill(b.cin, b.check_len, 0x2545f4914f6cdd1du);
    fill(b.key, sizeof b.key, 0x853c49e6748fea9bu); /* its XTS halves differ */

    if (asap) {
        rc = run_asap(&b, machine, full) ? CLI_FAIL : CLI_OK;
        goto out;
    }
    /* PBKDF2 first, as cryptsetup prints it; one line per backend */
    char lines[MAX_SUBJECTS][160];
    size_t nlines = 0;
    if (b.csv)
        puts("algorithm,key_bits,backend,ranks,dpus,threads,clock,bytes,encryption,decryption,"
             "unit");
    for (size_t i = 0; i < nnames; i++) {
        double it, t;
        cpim_clock clk;
        cpim_options o = b.c.opt;
        int pim = strcmp(names[i], "pim") == 0;
        if (pim)
            o.profile = b.profile, o.ranks = 1;
        if (speed_kdf_1chain(names[i], &o, b.quick, &it, &t, &clk)) {
            b.failed = 1;
            continue;
        }
        if (b.csv)
            printf("pbkdf2-sha256,256,%s,%u,,1,%s,%.0f,%.0f,,iterations/s\n", names[i],
                   pim ? 1u : 0u, cpim_clock_name(clk), it, it / t);
        else
            snprintf(lines[nlines++], sizeof lines[0],
                     "PBKDF2-sha256   %10.0f iterations per second for 256-bit key   (%s, %s)",
                     it / t, names[i], cpim_clock_name(clk));
    }
    for (size_t i = 0; i < ns; i++)
        run_subject(&b, &subj[i], ref);

    if (!b.csv) {
        printf("# Tests are approximate using memory only (no storage IO).\n");
        printf("# measured = wall time on this host (best of >= %u runs); modeled = the virtual\n"
               "# UPMEM's model of machine=%s (not a measurement; timing-only runs).\n"
               "# MiB/s = 2^20 bytes/s; %zu bytes per run (pim: per rank); XTS: 512-byte units.\n",
               b.min_runs, machine, b.size);
        for (size_t i = 0; i < nlines; i++)
            printf("%s\n", lines[i]);
    }
    print_rows(&b, subj, ns);
    rc = b.failed ? CLI_FAIL : CLI_OK;
out:
    cpim_close(ref);
    free(b.in), free(b.out), free(b.ct), free(b.cin), free(b.cout), free(b.cref);
    cpim_wipe(b.key, sizeof b.key);
    return rc;
}
