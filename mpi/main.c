/*
 * main.c -- cryptopim-mpi: MPI start-up, the shared options, the stderr
 * capture and collective failure check, and the two clocks (mpi_tool.h,
 * docs/MPI.md).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "mpi_tool.h"

/* The link model's defaults (docs/MPI.md "Two clocks"):
 *  - 100 Gb/s: one EDR InfiniBand 4x or 100 GbE port per server, the rate
 *    the issue names; the line rate, no protocol overhead subtracted.
 *  - 2 us per message: the order of the small-message MPI latency over
 *    such a link (OSU micro-benchmarks' osu_latency reports about 1 us on
 *    EDR InfiniBand; rounded up to cover a switch hop and MPI software). */
#define NET_GBPS_DEFAULT   100.0
#define NET_LAT_US_DEFAULT 2.0
#define MSG_MAX            480 /* one failing rank's message as sent to rank 0 */

static const char mpi_help[] =
    "usage: mpirun -np N cryptopim-mpi COMMAND [OPTIONS] [--clocks]\n"
    "              [--net-gbps G] [--net-latency-us U] [--net-io shared|local]\n"
    "\n"
    "The cryptopim commands spread over N MPI processes (one per PIM server;\n"
    "each opens its own backend: with --backend pim its own UPMEM machine, on\n"
    "the virtual UPMEM its own virtual machine with the same profile).\n"
    "\n"
    "commands:\n"
    "  enc, dec   one file -i IN to -o OUT, each process a block-aligned byte\n"
    "             range (XTS: whole data units) through MPI-IO; same options and\n"
    "             bytes as `cryptopim enc|dec` (ECB, CTR, XTS, GCM); OUT appears\n"
    "             only when every process succeeded\n"
    "  sha256sum  many files, balanced over the processes by bytes; lines in\n"
    "             input order; -c, --tag, --quiet, --status, --strict, --warn\n"
    "  ntt        mul|forward|inverse of a batch of polynomials, split over the\n"
    "             processes by polynomials; same options and bytes as\n"
    "             `cryptopim ntt`; OUT appears only when every process succeeded\n"
    "\n"
    "  --clocks            print, on standard error, each process's modeled PIM\n"
    "                      time and the run's modeled time (slowest process +\n"
    "                      modeled network) next to the measured wall time\n"
    "  --net-gbps G        link model: G Gb/s per process (default 100;\n"
    "                      env CRYPTOPIM_NET_GBPS)\n"
    "  --net-latency-us U  link model: U microseconds per message (default 2;\n"
    "                      env CRYPTOPIM_NET_LATENCY_US)\n"
    "  --net-io M          shared (default): the files are on a network file\n"
    "                      system, MPI-IO bytes cross the link; local: they do not\n"
    "\n"
    "Exit status: as `cryptopim` (0 ok, 1 a file failed in sha256sum, 2 error).\n";

/* ---- options -------------------------------------------------------------------- */

static int parse_pos_double(const char *opt, const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = s ? strtod(s, &end) : 0;
    if (!s || !*s || *end || errno || !(v > 0) || v > 1e9) {
        cli_error("%s: expected a positive number, got %s", opt, s ? cli_quote(s) : "nothing");
        return -1;
    }
    *out = v;
    return 0;
}

int mpi_options(mpi_run *r, int *argc, char **argv)
{
    r->net.bw_gbps = NET_GBPS_DEFAULT;
    r->net.lat_us = NET_LAT_US_DEFAULT;
    r->net.count_io = 1;
    const char *e;
    if ((e = getenv("CRYPTOPIM_NET_GBPS")) &&
        parse_pos_double("CRYPTOPIM_NET_GBPS", e, &r->net.bw_gbps) != 0)
        return -1;
    if ((e = getenv("CRYPTOPIM_NET_LATENCY_US")) &&
        parse_pos_double("CRYPTOPIM_NET_LATENCY_US", e, &r->net.lat_us) != 0)
        return -1;
    int out = 0;
    for (int i = 0; i < *argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) { /* operands from here on */
            while (i < *argc)
                argv[out++] = argv[i++];
            break;
        }
        const char *eq = strchr(a, '=');
        size_t n = eq ? (size_t)(eq - a) : strlen(a);
        const char *val = eq ? eq + 1 : (i + 1 < *argc ? argv[i + 1] : NULL);
        int takes = !eq; /* the value is the next word */
        if (n == 8 && strncmp(a, "--clocks", n) == 0 && !eq) {
            r->clocks = 1;
            continue;
        }
        if (n == 10 && strncmp(a, "--net-gbps", n) == 0) {
            if (parse_pos_double("--net-gbps", val, &r->net.bw_gbps) != 0)
                return -1;
        } else if (n == 16 && strncmp(a, "--net-latency-us", n) == 0) {
            if (parse_pos_double("--net-latency-us", val, &r->net.lat_us) != 0)
                return -1;
        } else if (n == 8 && strncmp(a, "--net-io", n) == 0) {
            if (val && strcmp(val, "shared") == 0)
                r->net.count_io = 1;
            else if (val && strcmp(val, "local") == 0)
                r->net.count_io = 0;
            else {
                cli_error("--net-io: expected shared or local");
                return -1;
            }
        } else {
            argv[out++] = argv[i];
            continue;
        }
        i += takes;
    }
    *argc = out;
    argv[out] = NULL;
    return 0;
}

/* ---- failures ----------------------------------------------------------------------- */

static int g_capture_fd = -1;

void mpi_capture_stderr(mpi_run *r)
{
    if (r->rank == 0)
        return;
    char path[] = "/tmp/cryptopim-mpi-err-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return; /* messages then go to the real stderr: noisier, not wrong */
    unlink(path);
    fflush(stderr);
    if (dup2(fd, STDERR_FILENO) >= 0)
        g_capture_fd = fd;
    else
        close(fd);
}

/* The last line written to the captured stderr, without its prefix. */
static void last_message(char out[MSG_MAX])
{
    out[0] = '\0';
    fflush(stderr);
    if (g_capture_fd < 0)
        return;
    off_t end = lseek(g_capture_fd, 0, SEEK_END);
    if (end <= 0)
        return;
    char buf[4 * MSG_MAX];
    off_t from = end > (off_t)sizeof buf - 1 ? end - (off_t)sizeof buf + 1 : 0;
    ssize_t n = pread(g_capture_fd, buf, (size_t)(end - from), from);
    if (n <= 0)
        return;
    buf[n] = '\0';
    while (n > 0 && buf[n - 1] == '\n')
        buf[--n] = '\0';
    char *line = strrchr(buf, '\n');
    line = line ? line + 1 : buf;
    const char *prefix = CLI_NAME ": ";
    if (strncmp(line, prefix, strlen(prefix)) == 0)
        line += strlen(prefix);
    size_t len = strlen(line);
    if (len > MSG_MAX - 1)
        len = MSG_MAX - 1;
    memcpy(out, line, len);
    out[len] = '\0';
}

int mpi_all_ok(mpi_run *r, int ok)
{
    int mine = ok ? 1 : 0, all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    mpi_note_coll(r, sizeof(int));
    if (all)
        return 1;
    /* Who failed, and why: rank 0 gathers every rank's last message. */
    char msg[MSG_MAX];
    if (!mine)
        last_message(msg);
    else
        msg[0] = '\0';
    char *all_msgs = r->rank == 0 ? calloc((size_t)r->size, MSG_MAX) : NULL;
    int *flags = r->rank == 0 ? calloc((size_t)r->size, sizeof(int)) : NULL;
    MPI_Gather(msg, MSG_MAX, MPI_CHAR, all_msgs, MSG_MAX, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_Gather(&mine, 1, MPI_INT, flags, 1, MPI_INT, 0, MPI_COMM_WORLD);
    mpi_note_gather(r, MSG_MAX + sizeof(int));
    if (r->rank == 0 && all_msgs && flags) {
        for (int i = 1; i < r->size; i++) {
            const char *m = all_msgs + (size_t)i * MSG_MAX;
            if (flags[i] || !m[0])
                continue;
            /* A failure rank 0 had too (the same arguments, the same file)
             * was printed once already. */
            if (!flags[0])
                continue;
            cli_error("rank %d of %d: %s", i, r->size, m);
        }
    }
    free(all_msgs);
    free(flags);
    return 0;
}

/* ---- the two clocks ----------------------------------------------------------------- */

void mpi_note_call(mpi_run *r, cpim_ctx *ctx)
{
    cpim_stats st;
    if (cpim_last_stats(ctx, &st) != CPIM_OK)
        return;
    if (r->me.calls == 0)
        r->me.has_modeled = 1;
    r->me.calls++;
    r->me.bytes += st.bytes;
    r->me.compute_measured_s += st.measured.total_s;
    if (st.has_modeled)
        r->me.pim_modeled_s += st.modeled.total_s;
    else
        r->me.has_modeled = 0;
}

static unsigned tree_steps(int size)
{
    unsigned s = 0;
    while ((1 << s) < size)
        s++;
    return s;
}

void mpi_note_coll(mpi_run *r, uint64_t bytes)
{
    unsigned s = tree_steps(r->size);
    r->coll_steps += s;
    r->coll_bytes += (uint64_t)s * bytes;
}

void mpi_note_gather(mpi_run *r, uint64_t bytes_each)
{
    r->coll_steps += tree_steps(r->size);
    r->coll_bytes += (uint64_t)(r->size - 1) * bytes_each;
}

void mpi_report(mpi_run *r, const char *what)
{
    double wall = MPI_Wtime() - r->t0;
    double mine[6] = {r->me.pim_modeled_s, (double)r->me.has_modeled, r->me.compute_measured_s,
                      (double)r->me.bytes, (double)r->me.io_bytes,    (double)r->me.io_calls};
    double *all = r->rank == 0 ? calloc((size_t)r->size, sizeof mine) : NULL;
    MPI_Gather(mine, 6, MPI_DOUBLE, all, 6, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (r->rank != 0 || !all || !r->clocks) {
        free(all);
        return;
    }
    /* not counted in the network clock: the report is not part of the work */
    double bps = r->net.bw_gbps * 1e9 / 8, lat = r->net.lat_us * 1e-6;
    double slowest = 0, io_net = 0, io_total = 0;
    int modeled = 1;
    fprintf(stderr,
            "%s: %s on %d processes (measured = wall time here; modeled = the "
            "virtual UPMEM's and the link model's estimate for real servers)\n",
            CLI_NAME "-mpi", what, r->size);
    for (int i = 0; i < r->size; i++) {
        const double *p = all + 6 * i;
        double net_i = r->net.count_io ? p[4] / bps + p[5] * lat : 0;
        modeled &= p[1] != 0;
        if (p[0] > slowest)
            slowest = p[0];
        if (net_i > io_net)
            io_net = net_i;
        io_total += p[4];
        if (p[1] != 0)
            fprintf(stderr,
                    "  rank %d: %.0f bytes, PIM %.6f s (modeled), compute %.6f s (measured)\n", i,
                    p[3], p[0], p[2]);
        else
            fprintf(stderr,
                    "  rank %d: %.0f bytes, compute %.6f s (measured; no modeled clock "
                    "on this backend)\n",
                    i, p[3], p[2]);
    }
    double coll = (double)r->coll_steps * lat + (double)r->coll_bytes / bps;
    double net = io_net + coll;
    fprintf(stderr,
            "  network: %.6f s (modeled: %.0f Gb/s, %.1f us/message; MPI-IO %.0f bytes%s, "
            "%llu collective steps, %llu bytes)\n",
            net, r->net.bw_gbps, r->net.lat_us, io_total,
            r->net.count_io ? " over the links" : " local, not counted",
            (unsigned long long)r->coll_steps, (unsigned long long)r->coll_bytes);
    if (modeled)
        fprintf(stderr, "  run: %.6f s (modeled = slowest process %.6f s + network %.6f s)\n",
                slowest + net, slowest, net);
    else
        fprintf(stderr, "  run: no modeled time (a process ran on a backend without a modeled "
                        "clock)\n");
    fprintf(stderr, "  wall: %.6f s (measured, rank 0, MPI start-up excluded)\n", wall);
    free(all);
}

/* ---- main ------------------------------------------------------------------------------ */

/* As cryptopim: no core file and no debugger attach while keys are held. */
static void no_core_dumps(void)
{
    struct rlimit none = {0, 0};
    (void)setrlimit(RLIMIT_CORE, &none);
#ifdef PR_SET_DUMPABLE
    (void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#endif
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    mpi_run r;
    memset(&r, 0, sizeof r);
    MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &r.size);
    r.t0 = MPI_Wtime();
    int rc = CLI_USAGE;
    const char *cmd = argc >= 2 ? argv[1] : NULL;
    int n = argc - 2;
    char **args = argv + 2;
    if (!cmd) {
        if (r.rank == 0)
            fputs(mpi_help, stderr);
    } else if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        if (r.rank == 0)
            fputs(mpi_help, stdout);
        rc = CLI_OK;
    } else if (!strcmp(cmd, "--version")) {
        if (r.rank == 0)
            printf("%s-mpi %s\n", CLI_NAME, CLI_VERSION);
        rc = CLI_OK;
    } else if (!strcmp(cmd, "enc") || !strcmp(cmd, "dec") || !strcmp(cmd, "sha256sum") ||
               !strcmp(cmd, "ntt")) {
        mpi_capture_stderr(&r);
        if (mpi_options(&r, &n, args) != 0) {
            rc = CLI_USAGE;
        } else if (cmd[0] == 's') {
            rc = mpi_sha256sum(&r, n, args);
        } else if (cmd[0] == 'n') {
            rc = mpi_ntt(&r, n, args);
        } else {
            no_core_dumps();
            rc = mpi_encdec(&r, n, args, cmd[0] == 'e' ? CPIM_ENCRYPT : CPIM_DECRYPT);
        }
    } else if (r.rank == 0) {
        cli_error("unknown command %s (cryptopim-mpi runs enc, dec, sha256sum, ntt; see --help)",
                  cli_quote(cmd));
    }
    if (r.rank == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
        cli_error("cannot write standard output: %s", strerror(errno));
        if (!rc)
            rc = CLI_USAGE;
    }
    /* One exit status for the whole run (mpirun reports a process's). */
    int worst = rc;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return worst;
}
