/*
 * mpi_tool.h -- cryptopim-mpi: the `cryptopim` commands spread over MPI
 * processes (one per PIM server), docs/MPI.md.
 *
 * The layer above the public API like tools/ (include/, tools/cli.h and
 * MPI): the arguments are parsed by tools/ (cli_encdec_parse, cli_common),
 * the crypto is the library's, the transport is MPI (Open MPI) and nothing
 * else.
 *
 * The commands (one file each) use run.h's helpers; main.c parses the
 * shared options and calls them.
 */
#ifndef CPIM_MPI_TOOL_H
#define CPIM_MPI_TOOL_H

#include "run.h"

int mpi_encdec(mpi_run *r, int argc, char **argv, cpim_dir dir); /* encdec.c */
int mpi_sha256sum(mpi_run *r, int argc, char **argv);            /* sum.c */
int mpi_ntt(mpi_run *r, int argc, char **argv);                  /* ntt.c */

#endif /* CPIM_MPI_TOOL_H */
