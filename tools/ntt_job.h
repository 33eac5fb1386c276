/*
 * ntt_job.h -- the pieces of `cryptopim ntt` (tools/ntt.c) that
 * cryptopim-mpi's `ntt` (mpi/ntt.c) runs too, so that both read, check,
 * compute and write batches the same way (and so give the same bytes).
 * Every function that can fail prints its error (cli_error) first.
 */
#ifndef CPIM_NTT_JOB_H
#define CPIM_NTT_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "cryptopim_ntt.h"

typedef struct cli_ntt_job {
    const char *op; /* "mul", "forward" or "inverse" */
    int mul, fwd;   /* which (inverse when neither) */
    unsigned n;     /* -n */
    size_t L;       /* number of -q moduli */
    uint64_t q[CPIM_NTT_MAX_MODULI];
    const char *files[2]; /* A, and B for mul */
    const char *out_path; /* -o, NULL = standard output */
    int binary;           /* --binary */
    int help;             /* --help was asked for: print cli_ntt_help, exit 0 */
    cli_common common;
} cli_ntt_job;

/* printf format: one %s, cli_common_help */
extern const char cli_ntt_help[];

/* The arguments after `ntt`; CLI_OK (see j->help) or CLI_USAGE. */
int cli_ntt_parse(cli_ntt_job *j, int argc, char **argv);
/* After cpim_ntt_create() refused with CPIM_ERR_NTT_PARAM: says which
 * parameter. */
void cli_ntt_explain(cpim_ctx *ctx, const cli_ntt_job *j);
/* A whole input file, checked (layout, every coefficient < its modulus):
 * *nv numbers, *polys polynomials; NULL on error. */
uint64_t *cli_ntt_load(const cli_ntt_job *j, const char *path, size_t *nv, size_t *polys);
/* The job's operation on `polys` polynomials (b: mul only). */
cpim_err cli_ntt_apply(const cli_ntt_job *j, cpim_ntt *ring, const uint64_t *a, const uint64_t *b,
                       uint64_t *out, size_t polys);
/* nv numbers to o, in the job's format; 0 or -1. */
int cli_ntt_write(const cli_ntt_job *j, cli_output *o, const uint64_t *v, size_t nv);

#endif /* CPIM_NTT_JOB_H */
