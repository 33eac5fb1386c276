/*
 * study.c -- `cryptopim study`: the CryptoPIM study's workloads (`make run`).
 *
 * AES-128 ECB encryption of an 8 MiB buffer and SHA-256 of 1024 messages of
 * 32 KiB, on the pim backend with 1 rank and with 40 ranks in each host mode
 * (sync, async-xfer = PIM #1, async-exec = PIM #2), 16 tasklets, plus the
 * CPU backends of this machine.  Every output is checked against the `cpu`
 * backend.  Prints one table (or --csv); every time says its clock:
 * `measured` (wall time here) or `modeled` (what the UPMEM server would
 * take, from the virtual UPMEM's timing model; never a measurement).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "cryptopim.h"

#define AES_BYTES (8u << 20)
#define SHA_MSGS  1024u
#define SHA_LEN   (32u << 10)

static const uint8_t study_key[16] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
                                      0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c};

struct work {
    uint8_t *in, *out, *ref; /* AES */
    const uint8_t **msgs;    /* SHA */
    size_t *lens;
    uint8_t (*dig)[32], (*dref)[32];
};

static int csv;

static const char study_help[] =
    "usage: cryptopim study [--csv]\n"
    "\n"
    "Runs the CryptoPIM study's workloads (what `make run` shows): AES-128-ECB\n"
    "encryption of 8 MiB and SHA-256 of 1024 messages of 32 KiB on the pim\n"
    "backend with 1 rank and with 40 ranks in each host mode (sync, async-xfer,\n"
    "async-exec), 16 tasklets, and on this machine's CPU backends.  Every output\n"
    "is checked against the cpu backend.  Times in ms: cpu-dpu, kernel, dpu-cpu,\n"
    "total, and GB/s; the clock column says `measured` (wall time here) or\n"
    "`modeled` (what the UPMEM server would take; never a measurement).\n"
    "\n"
    "  --csv   rows alg,backend,mode,ranks,dpus,tasklets,cpu_dpu_s,kernel_s,\n"
    "          dpu_cpu_s,total_s,gbps,clock,check\n"
    "\n"
    "Exit status: 0, 1 if an output did not match or a run failed, 2 bad usage.\n";

static void row(const char *alg, const char *backend, const char *mode, const cpim_stats *st,
                const cpim_phases *ph, int ok)
{
    double gbs = ph->total_s > 0 ? (double)st->bytes / ph->total_s / 1e9 : 0;
    const char *clk = cpim_clock_name(ph->clock);
    if (csv) {
        printf("%s,%s,%s,%u,%u,%u,%.6f,%.6f,%.6f,%.6f,%.3f,%s,%s\n", alg, backend, mode, st->ranks,
               st->dpus, st->tasklets, ph->cpu_dpu_s, ph->kernel_s, ph->dpu_cpu_s, ph->total_s, gbs,
               clk, ok ? "ok" : "MISMATCH");
        return;
    }
    char r[16] = "-", d[16] = "-", t[16] = "-";
    if (st->dpus) {
        snprintf(r, sizeof r, "%u", st->ranks);
        snprintf(d, sizeof d, "%u", st->dpus);
        snprintf(t, sizeof t, "%u", st->tasklets);
    }
    printf("%-7s %-7s %-10s %5s %5s %3s %10.3f %10.3f %10.3f %10.3f %7.3f %-8s %s\n", alg, backend,
           mode, r, d, t, ph->cpu_dpu_s * 1e3, ph->kernel_s * 1e3, ph->dpu_cpu_s * 1e3,
           ph->total_s * 1e3, gbs, clk, ok ? "ok" : "MISMATCH");
}

/* Runs one algorithm on ctx; 1 if the output equals the reference. */
static int run_one(cpim_ctx *ctx, int sha, struct work *w, cpim_err *rc)
{
    if (sha) {
        *rc = cpim_sha256_batch(ctx, w->msgs, w->lens, SHA_MSGS, w->dig);
        return *rc == CPIM_OK && memcmp(w->dig, w->dref, SHA_MSGS * 32) == 0;
    }
    *rc = cpim_aes_set_key(ctx, study_key, 16);
    if (*rc == CPIM_OK)
        *rc = cpim_aes_ecb(ctx, CPIM_ENCRYPT, w->in, w->out, AES_BYTES);
    return *rc == CPIM_OK && memcmp(w->out, w->ref, AES_BYTES) == 0;
}

static int report(const char *alg, const char *backend, const char *mode, cpim_ctx *ctx, int ok)
{
    cpim_stats st;
    cpim_last_stats(ctx, &st);
    row(alg, backend, mode, &st, &st.measured, ok);
    if (st.has_modeled)
        row(alg, backend, mode, &st, &st.modeled, ok);
    return ok;
}

int cmd_study(int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--csv") == 0) {
            csv = 1;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(study_help, stdout);
            return CLI_OK;
        } else {
            cli_error("study: unknown option %s (usage: cryptopim study [--csv])",
                      cli_quote(argv[i]));
            return CLI_USAGE;
        }
    }
    struct work w;
    memset(&w, 0, sizeof w);
    w.in = malloc(AES_BYTES), w.out = malloc(AES_BYTES), w.ref = malloc(AES_BYTES);
    uint8_t *data = malloc((size_t)SHA_MSGS * SHA_LEN);
    w.msgs = malloc(SHA_MSGS * sizeof *w.msgs);
    w.lens = malloc(SHA_MSGS * sizeof *w.lens);
    w.dig = malloc(SHA_MSGS * 32), w.dref = malloc(SHA_MSGS * 32);
    if (!w.in || !w.out || !w.ref || !data || !w.msgs || !w.lens || !w.dig || !w.dref) {
        cli_error("study: out of memory");
        return CLI_FAIL;
    }
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (size_t i = 0; i < AES_BYTES; i++)
        w.in[i] = (uint8_t)((x = x * 6364136223846793005u + 1442695040888963407u) >> 56);
    for (size_t i = 0; i < (size_t)SHA_MSGS * SHA_LEN; i++)
        data[i] = (uint8_t)((x = x * 6364136223846793005u + 1442695040888963407u) >> 56);
    for (unsigned i = 0; i < SHA_MSGS; i++)
        w.msgs[i] = data + (size_t)i * SHA_LEN, w.lens[i] = SHA_LEN;

    int all_ok = 1;
    cpim_err rc;
    cpim_ctx *cpu = cli_open("cpu", NULL);
    if (!cpu)
        return CLI_FAIL;
    if ((rc = cpim_aes_set_key(cpu, study_key, 16)) != CPIM_OK ||
        (rc = cpim_aes_ecb(cpu, CPIM_ENCRYPT, w.in, w.ref, AES_BYTES)) != CPIM_OK ||
        (rc = cpim_sha256_batch(cpu, w.msgs, w.lens, SHA_MSGS, w.dref)) != CPIM_OK) {
        cli_error("study: cpu reference: %s", cpim_strerror(rc));
        return CLI_FAIL;
    }
    if (csv)
        printf("algorithm,backend,mode,ranks,dpus,tasklets,cpu_dpu_s,kernel_s,dpu_cpu_s,"
               "total_s,GB_per_s,clock,check\n");
    else
        printf("%-7s %-7s %-10s %5s %5s %3s %10s %10s %10s %10s %7s %-8s %s\n", "alg", "backend",
               "mode", "ranks", "DPUs", "T", "CPU-DPU/ms", "kernel/ms", "DPU-CPU/ms", "total/ms",
               "GB/s", "clock", "check");
    static const char *const modes[] = {"sync", "async-xfer", "async-exec"};
    for (int sha = 0; sha < 2; sha++) {
        const char *alg = sha ? "SHA-256" : "AES-128";
        static const char *const cpus[] = {"cpu", "aesni", "shani"};
        for (int b = 0; b < 3; b++) {
            cpim_backend_info info;
            if (cpim_backend_info_by_name(cpus[b], &info) != CPIM_OK || !info.available)
                continue;
            cpim_ctx *c = NULL;
            if (cpim_open(&c, cpus[b], NULL) != CPIM_OK)
                continue;
            int ok = run_one(c, sha, &w, &rc);
            if (rc == CPIM_OK)
                all_ok &= report(alg, cpus[b], "-", c, ok);
            cpim_close(c);
        }
        for (unsigned ranks = 1; ranks <= 40; ranks += 39)
            for (int m = 0; m < 3; m++) {
                cpim_options o;
                cpim_options_init(&o);
                o.ranks = ranks;
                o.tasklets = 16;
                o.mode = (cpim_pim_mode)m;
                /* Host work between UPMEM calls is modeled from this
                 * thread's CPU time, so the simulator's own threads on this
                 * machine's cores do not inflate it (docs/MODEL.md);
                 * UPMEM_PROFILE=hostClock=none overrides it (the SDK's
                 * precedence) for bit-reproducible modeled rows. */
                o.profile = "hostClock=thread";
                cpim_ctx *p = cli_open("pim", &o);
                if (!p) {
                    all_ok = 0;
                    continue;
                }
                int ok = run_one(p, sha, &w, &rc);
                if (rc != CPIM_OK) {
                    cli_error("study: pim %s: %s", modes[m], cpim_strerror(rc));
                    all_ok = 0;
                } else {
                    all_ok &= report(alg, "pim", modes[m], p, ok);
                }
                cpim_close(p);
            }
    }
    cpim_close(cpu);
    if (!csv)
        printf("clock: measured = wall time on this machine; modeled = the virtual UPMEM's "
               "model of the UPMEM server (not a measurement). check: output == cpu backend.\n");
    free(w.in), free(w.out), free(w.ref), free(data), free(w.msgs), free(w.lens);
    free(w.dig), free(w.dref);
    return all_ok ? CLI_OK : CLI_FAIL;
}
