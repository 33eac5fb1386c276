/*
 * argcheck.h -- the collective argument check of cryptopim-mpi (argcheck.c,
 * docs/MPI.md, docs/SECURITY.md "cryptopim-mpi").
 *
 * mpirun gives every process the same command line, but a wrapper script, a
 * per-node environment or a stale file on one node (a key file, an input
 * copy) can still make one process compute with other values -- and the
 * output would be a splice of two computations.  So before any output is
 * written, each process digests what decides the output, part by part
 * (the key, the IV, the input file...), and compares it with rank 0's; a
 * difference fails the run on every process, and rank 0 names the rank
 * and the parts: `rank 3's key differs from rank 0's`.
 *
 * What a part's digest is:
 *  - a public part (a name, a number, a file's identity): SHA-256 of a
 *    domain separator, the part's name and its bytes;
 *  - the key: HMAC-SHA256 keyed by the key over a domain separator and 32
 *    random bytes that rank 0 draws for this run and broadcasts.  The key
 *    never leaves its process; what the other processes (and the MPI
 *    transport) see is one PRF output on a fresh nonce: it tells whether
 *    two processes hold the same key in this run, and nothing that links
 *    two runs or helps find the key faster than trying keys one by one.
 *  - a file's identity: its size and type, and with `sample` the SHA-256 of
 *    its first and last 4 KiB (the middle is not read: the check costs the
 *    same for any file size; a copy that differs only in its middle, at the
 *    same size, is not caught -- GCM's tag still catches it on dec).
 *    Neither its name nor its time stamps: a file copied to each node's
 *    local disk is the same input.
 *
 * Use: mpi_check_begin (collective), then on every process the same
 * sequence of parts (mpi_check_part + feeds, or mpi_check_key), then
 * mpi_check_end (collective).  Every process must add the same parts in
 * the same order: the names are compared too.
 */
#ifndef CPIM_MPI_ARGCHECK_H
#define CPIM_MPI_ARGCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "run.h"

#define MPI_CHECK_PARTS 12

typedef struct mpi_check {
    size_t n;                            /* parts added (at most MPI_CHECK_PARTS) */
    const char *what[MPI_CHECK_PARTS];   /* each part's name, for the message */
    uint8_t digest[MPI_CHECK_PARTS][32]; /* each part's digest */
    int open;                            /* the last part is still being fed */
    cpim_sha256_state st;                /* its hash */
    cpim_ctx *ctx;                       /* a cpu context for the hashes */
    uint8_t nonce[32];                   /* rank 0's, for the key's digest */
    int failed;                          /* a digest could not be made (printed) */
} mpi_check;

/* Collective: opens the hashing context and spreads rank 0's nonce.  A
 * failure is printed here and fails mpi_check_end on every process. */
void mpi_check_begin(mpi_run *r, mpi_check *c);
/* Starts the part `what` (a string that outlives the check). */
void mpi_check_part(mpi_check *c, const char *what);
/* Feeds the current part: bytes, a number, a string (NULL differs from ""). */
void mpi_check_bytes(mpi_check *c, const void *p, size_t n);
void mpi_check_u64(mpi_check *c, uint64_t v);
void mpi_check_str(mpi_check *c, const char *s);
/* Feeds the identity of the file at path (see above; sample: hash its first
 * and last 4 KiB too).  A file that cannot be read has the identity of its
 * errno: the same on every process that cannot read it. */
void mpi_check_file(mpi_check *c, const char *path, int sample);
/* Feeds the words of a command's argv, without the options of cli_common
 * (--backend, --dpus, --pim-profile...: each process may run on its own
 * kind of machine, and they do not change the output). */
void mpi_check_argv(mpi_check *c, int argc, char **argv);
/* A whole part from a key (see above). */
void mpi_check_key(mpi_check *c, const char *what, const uint8_t *key, size_t len);
/* Collective: 1 if every process's parts equal rank 0's; else 0 on every
 * process, rank 0 having printed one line per differing rank.  Frees c's
 * resources in either case. */
int mpi_check_end(mpi_run *r, mpi_check *c);

#endif /* CPIM_MPI_ARGCHECK_H */
