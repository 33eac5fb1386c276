/*
 * run.c -- what every cryptopim-mpi command shares (run.h): the standard
 * error capture of ranks > 0, the collective failure check, and the two
 * clocks (docs/MPI.md).
 */
#include "run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MSG_MAX 480 /* one failing rank's message as sent to rank 0 */

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

int mpi_parse_verdict(mpi_run *r, int state)
{
    int mine[2] = {state, -state}, all[2];
    MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    mpi_note_coll(r, sizeof mine);
    if (all[0] == -all[1])
        return state; /* every process the same */
    if (all[0] == MPI_REFUSED) {
        (void)mpi_all_ok(r, state != MPI_REFUSED); /* the refusing ranks' messages */
    } else if (r->rank == 0) {
        cli_error("the processes were given different arguments (--help on some of them "
                  "only); every process must be given the same");
    }
    return MPI_REFUSED;
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
