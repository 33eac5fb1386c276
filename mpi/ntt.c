/*
 * ntt.c -- `cryptopim-mpi ntt mul|forward|inverse`: the batch of
 * `cryptopim ntt` (tools/ntt.c, ntt_job.h) spread over the processes by
 * polynomials (docs/MPI.md).
 *
 * Every process reads and checks the whole input files -- small next to the
 * work, and it lets any process name a bad coefficient exactly as
 * `cryptopim ntt` does; with --net-io shared those reads count on the link
 * model -- then computes the polynomials of its own range on its own
 * backend: count / N each, the remainder to the first ranks (a process may
 * get none).  Rank 0 gathers the results (MPI_Gatherv) and writes OUT with
 * the writer of `cryptopim ntt`, so the bytes are the same, and only once
 * every process has succeeded: OUT appears whole or not at all.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "argcheck.h"
#include "mpi_tool.h"
#include "ntt_job.h"

/* The input file's bytes and one read call, on this process's tally. */
static void note_read(mpi_run *r, const char *path)
{
    struct stat sb;
    if (stat(path, &sb) == 0 && sb.st_size > 0)
        r->me.io_bytes += (uint64_t)sb.st_size;
    r->me.io_calls++;
}

int mpi_ntt(mpi_run *r, int argc, char **argv)
{
    cli_ntt_job j;
    int rc = cli_ntt_parse(&j, argc, argv) != CLI_OK ? MPI_REFUSED : j.help ? MPI_HELP : MPI_PARSED;
    rc = mpi_parse_verdict(r, rc);
    if (rc == MPI_REFUSED)
        return CLI_USAGE;
    if (rc == MPI_HELP) {
        if (r->rank == 0)
            printf(cli_ntt_help, cli_common_help);
        return CLI_OK;
    }
    /* Every process reads the input files itself and computes with its own
     * arguments: they must be rank 0's (argcheck.h), or nothing is written. */
    mpi_check chk;
    mpi_check_begin(r, &chk);
    mpi_check_part(&chk, "arguments");
    mpi_check_argv(&chk, argc, argv);
    mpi_check_part(&chk, "input data");
    mpi_check_file(&chk, j.files[0], 1);
    mpi_check_file(&chk, j.mul ? j.files[1] : NULL, 1);
    if (!mpi_check_end(r, &chk))
        return CLI_USAGE;
    const char *backend = j.common.backend ? j.common.backend : "auto";
    rc = CLI_USAGE;
    cpim_ntt *ring = NULL;
    uint64_t *va = NULL, *vb = NULL, *mine = NULL, *all = NULL;
    int *counts = NULL, *displs = NULL;
    size_t na = 0, nb = 0, pa = 0, pb = 0;

    /* Each process its own backend (pim: its own machine, the same options). */
    cpim_ctx *ctx = cli_open(backend, &j.common.opt);
    int ok = ctx != NULL;
    if (ok) {
        cpim_err e = cpim_ntt_create(ctx, j.n, j.q, j.L, &ring);
        if (e == CPIM_ERR_NTT_PARAM)
            cli_ntt_explain(ctx, &j);
        else if (e != CPIM_OK)
            cli_error("ntt: %s", cpim_strerror(e));
        ok = e == CPIM_OK;
    }
    if (ok) {
        note_read(r, j.files[0]);
        ok = (va = cli_ntt_load(&j, j.files[0], &na, &pa)) != NULL;
    }
    if (ok && j.mul) {
        note_read(r, j.files[1]);
        ok = (vb = cli_ntt_load(&j, j.files[1], &nb, &pb)) != NULL;
        if (ok && pa != pb) {
            cli_error("ntt mul: %s has %zu polynomials, %s has %zu", j.files[0], pa, j.files[1],
                      pb);
            ok = 0;
        }
    }
    /* MPI counts are ints: 2^31 - 1 coefficients (16 GiB) in one gather. */
    if (ok && na > (size_t)INT_MAX) {
        cli_error("ntt: %zu coefficients are more than one MPI gather carries (%d)", na, INT_MAX);
        ok = 0;
    }
    if (!mpi_all_ok(r, ok))
        goto done;

    /* This rank's polynomials [lo, lo + cnt). */
    const size_t per = j.L * j.n, size = (size_t)r->size, rank = (size_t)r->rank;
    const size_t q = pa / size, rem = pa % size;
    const size_t lo = q * rank + (rank < rem ? rank : rem), cnt = q + (rank < rem);
    mine = malloc(cnt ? cnt * per * sizeof *mine : 1);
    ok = mine != NULL;
    if (!ok)
        cli_error("out of memory");
    if (ok && cnt) {
        cpim_err e = cli_ntt_apply(&j, ring, va + lo * per, vb ? vb + lo * per : NULL, mine, cnt);
        if (e != CPIM_OK)
            cli_error("ntt %s: %s", j.op, cpim_strerror(e));
        ok = e == CPIM_OK;
        mpi_note_call(r, ctx);
    }
    if (r->rank == 0) {
        all = malloc(na * sizeof *all);
        counts = malloc(size * sizeof *counts);
        displs = malloc(size * sizeof *displs);
        if (!all || !counts || !displs) {
            cli_error("out of memory");
            ok = 0;
        } else
            for (size_t i = 0; i < size; i++) {
                counts[i] = (int)((q + (i < rem)) * per);
                displs[i] = (int)((q * i + (i < rem ? i : rem)) * per);
            }
    }
    if (!mpi_all_ok(r, ok)) {
        rc = CLI_FAIL;
        goto done;
    }
    MPI_Gatherv(mine, (int)(cnt * per), MPI_UINT64_T, all, counts, displs, MPI_UINT64_T, 0,
                MPI_COMM_WORLD);
    mpi_note_gather(r, (q + (rem > 0)) * per * sizeof *mine);

    /* Rank 0 writes: through a temporary file and a rename (cli_output). */
    ok = 1;
    if (r->rank == 0) {
        cli_output o;
        char scratch[65536];
        ok = cli_output_open(&o, j.out_path) == 0;
        if (ok && cli_ntt_write(&j, &o, all, na) < 0) {
            cli_output_abort(&o);
            ok = 0;
        } else if (ok)
            ok = cli_output_commit(&o, scratch, sizeof scratch) == 0;
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    mpi_note_coll(r, sizeof ok);
    rc = ok ? CLI_OK : CLI_FAIL;
    char what[160];
    snprintf(what, sizeof what, "ntt %s, %zu polynomials of N = %u x %zu moduli, backend %s", j.op,
             pa, j.n, j.L, backend);
    mpi_report(r, what);
done:
    free(va), free(vb), free(mine), free(all), free(counts), free(displs);
    cpim_ntt_destroy(ring);
    if (ctx)
        cpim_close(ctx);
    return rc;
}
