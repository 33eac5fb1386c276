/*
 * main.c -- cryptopim-mpi: MPI start-up, the options every command shares
 * (the link model's), and the dispatch to the commands (mpi_tool.h,
 * docs/MPI.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* The link model's range: 1 Mb/s or 1 ns up to 10^9 of either. */
#define NET_MIN 0.001
#define NET_MAX 1e9

/* Strips the cryptopim-mpi options (--net-gbps, --net-latency-us, --net-io,
 * --clocks) out of argv (in place; *argc updated) into r.  Defaults from
 * CRYPTOPIM_NET_GBPS, CRYPTOPIM_NET_LATENCY_US.  -1 after printing an error. */
static int mpi_options(mpi_run *r, int *argc, char **argv)
{
    r->net.bw_gbps = NET_GBPS_DEFAULT;
    r->net.lat_us = NET_LAT_US_DEFAULT;
    r->net.count_io = 1;
    if (cli_env_decimal("CRYPTOPIM_NET_GBPS", NET_MIN, NET_MAX, &r->net.bw_gbps) < 0 ||
        cli_env_decimal("CRYPTOPIM_NET_LATENCY_US", NET_MIN, NET_MAX, &r->net.lat_us) < 0)
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
            if (cli_parse_decimal("--net-gbps", val, NET_MIN, NET_MAX, &r->net.bw_gbps) != 0)
                return -1;
        } else if (n == 16 && strncmp(a, "--net-latency-us", n) == 0) {
            if (cli_parse_decimal("--net-latency-us", val, NET_MIN, NET_MAX, &r->net.lat_us) != 0)
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

/* ---- main ------------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    /* before MPI opens anything: a closed 0, 1 or 2 must not become one of its files */
    if (cli_guard_std_fds() != 0)
        return CLI_USAGE;
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
            cli_no_core_dumps();
            rc = mpi_encdec(&r, n, args, cmd[0] == 'e' ? CPIM_ENCRYPT : CPIM_DECRYPT);
        }
    } else if (r.rank == 0) {
        cli_error("unknown command %s (cryptopim-mpi runs enc, dec, sha256sum, ntt; see --help)",
                  cli_quote(cmd));
    }
    if (r.rank == 0)
        rc = cli_finish_stdout(cmd, rc);
    /* One exit status for the whole run (mpirun reports a process's). */
    int worst = rc;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return worst;
}
