/*
 * run.h -- what every cryptopim-mpi command shares: the run's state, the
 * collective failure check and the two clocks (run.c, docs/MPI.md).
 *
 * Conventions: every process parses and checks the same arguments; rank 0
 * alone writes to the real standard error and output.  The other ranks'
 * standard error goes to a private file (mpi_capture_stderr), and when a
 * collective check finds a failure, rank 0 prints each failing rank's last
 * message as `cryptopim: rank R: ...`.
 */
#ifndef CPIM_MPI_RUN_H
#define CPIM_MPI_RUN_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"

/* The link model (docs/MPI.md "Two clocks"): each process has its own link
 * of bw_gbps; every message costs lat_us plus its bytes at that rate. */
typedef struct mpi_net {
    double bw_gbps; /* link rate, Gb/s (10^9 bits/s) */
    double lat_us;  /* per message, microseconds */
    int count_io;   /* 1: MPI-IO file bytes cross the link (a shared file system) */
} mpi_net;

/* What one process did: its clocks and what it moved through MPI. */
typedef struct mpi_tally {
    double pim_modeled_s;      /* sum of its calls' modeled totals (virtual UPMEM) */
    int has_modeled;           /* every call had a modeled clock */
    double compute_measured_s; /* sum of its calls' measured totals */
    uint64_t bytes;            /* payload bytes it processed */
    uint64_t io_bytes;         /* file bytes read + written (MPI-IO; ntt: its input reads) */
    uint64_t io_calls;         /* MPI-IO read/write calls */
    uint64_t calls;            /* library calls */
} mpi_tally;

typedef struct mpi_run {
    int rank, size;
    mpi_net net;
    int clocks; /* --clocks: print the clock report */
    double t0;  /* measured start (after MPI_Init) */
    /* collectives on the critical path, for the network clock */
    uint64_t coll_steps; /* message steps (ceil(log2 size) per tree collective) */
    uint64_t coll_bytes; /* bytes through rank 0's link */
    mpi_tally me;
} mpi_run;

/* Ranks > 0: standard error to a private unlinked file (see above). */
void mpi_capture_stderr(mpi_run *r);
/* Collective: 1 if every process passed ok != 0; else rank 0 prints the
 * failing ranks' messages, and 0.  Counts as one tree collective. */
int mpi_all_ok(mpi_run *r, int ok);
/* Collective, right after a command's arguments are parsed: state is
 * MPI_PARSED, MPI_HELP (--help: the caller prints it on rank 0) or
 * MPI_REFUSED (the error printed).  Returns the state every process shares;
 * when they differ (a rank given other arguments), rank 0 prints the
 * refusing ranks' messages, or that the ranks disagree, and every process
 * gets MPI_REFUSED -- so that no process is left waiting in a collective
 * the others never reach.  Counts as one tree collective. */
enum { MPI_PARSED = 0, MPI_HELP = 1, MPI_REFUSED = 2 };
int mpi_parse_verdict(mpi_run *r, int state);
/* The statistics of the call just made on ctx, into r->me. */
void mpi_note_call(mpi_run *r, cpim_ctx *ctx);
/* A tree collective of `bytes` per message (broadcast, reduce) or a gather
 * of `bytes` from each rank into rank 0. */
void mpi_note_coll(mpi_run *r, uint64_t bytes);
void mpi_note_gather(mpi_run *r, uint64_t bytes_each);
/* Collective: gathers the tallies and, with --clocks, rank 0 prints the
 * report (each figure with its clock). */
void mpi_report(mpi_run *r, const char *what);

#endif /* CPIM_MPI_RUN_H */
