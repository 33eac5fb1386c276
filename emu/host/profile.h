/*
 * profile.h -- the profile string ("key=value,...") and the host model's
 * parameter table. Layer: profile (see host.h); knows only the virtual DPU's
 * parameters (vdpu.h).
 */
#ifndef EMU_PROFILE_H
#define EMU_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../include/dpu.h"
#include "../vdpu/vdpu.h"
#include "host.h"

/* Parameters of the host<->DPU cost model; the one table of defaults with
 * sources is emu_model_param_table (profile.c). */
typedef struct {
    double serial_to_gbps;    /* P16 */
    double serial_from_gbps;  /* P17 */
    double serial_dpu_us;     /* P24 */
    double par_to_gbps;       /* P18 */
    double par_from_gbps;     /* P19 */
    double bcast_gbps;        /* P20 */
    double cap_to_gibps;      /* P21 */
    double cap_from_gibps;    /* P21 */
    double call_to_us;        /* P23 */
    double call_from_us;      /* P23 */
    double call_rank_to_us;   /* P23 */
    double call_rank_from_us; /* P23 */
    double launch_us;         /* P25 */
    double launch_rank_us;    /* P25 */
    double load_us;           /* P26 */
    double rank_ref_dpus;     /* rank size of the P18-P20 measurements */
    /* the power model (energy = power integrated over the modeled clock) */
    double dpu_idle_w;   /* every DPU of an allocated rank, all the time */
    double dpu_active_w; /* added per DPU while its launch runs          */
    double xfer_dpu_w;   /* added per DPU while a transfer moves its data */
} model_params_t;

typedef struct {
    const char *key; /* profile key                       */
    size_t offset;   /* into model_params_t               */
    double def;      /* default                           */
    const char *unit;
    const char *source; /* perf-facts row and provenance     */
} model_param_desc_t;

extern const model_param_desc_t emu_model_param_table[];
extern const unsigned emu_model_param_count;

/* hostTime: whether the program's own clock calls (gettimeofday, ...) read
 * the modeled host time (clock.h). KEEP: the profile does not say, the
 * process keeps what an earlier dpu_alloc set (real at start). */
typedef enum { EMU_HOST_TIME_KEEP, EMU_HOST_TIME_REAL, EMU_HOST_TIME_MODELED } emu_host_time_t;

/* A named machine (profile key machine=NAME): the profile it expands to,
 * below every explicit key (docs/VIRTUAL_UPMEM_HOST.md §5.1, MODEL.md). */
typedef struct {
    const char *name;
    const char *keys;   /* "key=value,..." */
    const char *what;   /* one line: what machine it is */
    const char *source; /* where each value comes from */
} emu_machine_t;

extern const emu_machine_t emu_machine_table[];
extern const unsigned emu_machine_count;

typedef struct {
    uint32_t nr_ranks;         /* machine size                     */
    uint32_t nr_dpus_per_rank; /* 1..64                            */
    uint64_t disabled_mask;    /* DPUs disabled in every rank      */
    uint64_t *rank_disabled;   /* [HOST_MAX_RANKS] extra per rank  */
    bool dispatch_on_all_ranks;
    bool disable_reset_on_alloc;
    uint32_t nr_jobs_per_rank;    /* queue capacity (>= 1)            */
    uint32_t sample_dpus;         /* sampleDpus: DPUs run per rank and
                                   * launch, 0 = all (see ops.c)       */
    uint32_t sample_ranks;        /* sampleRanks: ranks of the allocation
                                   * that run launches, 0 = all; the
                                   * others are charged their cycles
                                   * (see ops.c)                       */
    bool sample_reuse;            /* sampleReuse: identical DPU runs done
                                   * once (reuse.h)                     */
    bool host_thread_clock;       /* hostClock=thread                  */
    bool host_clock_none;         /* hostClock=none                    */
    emu_host_time_t host_time;    /* hostTime                          */
    const emu_machine_t *machine; /* machine=NAME, NULL if none       */
    bool disabled_by_machine;     /* rank_disabled holds the machine's
                                   * disabledDpus (an explicit one
                                   * replaces them)                    */
    bool sg_xfer_enable;          /* sgXferEnable: dpu_push_sg_xfer allowed */
    uint32_t sg_max_blocks;       /* sgXferMaxBlocksPerDpu, 0 = the
                                   * allocation's DPU count (the SDK's) */
    bool gdb;                     /* gdbserver=HOST:PORT given (dpugdb.h) */
    uint32_t gdb_addr;            /* its IPv4 address, host byte order  */
    uint32_t gdb_port;            /* 0: any free port (printed)         */
    uint32_t gdb_dpu;             /* gdbDpu=N: the N-th DPU of the first
                                   * launch (default 0)                 */
    char *dpu_profile;            /* profile=FILE: the DPU profile's file
                                   * (dpuprof.h), NULL = no profiling    */
    vdpu_params_t vdpu;
    model_params_t model;
} profile_t;

/* Builds the profile: defaults < the machine (the last machine=NAME of the
 * sources below) < UPMEM_PROFILE_BASE < text < UPMEM_PROFILE (the SDK's
 * order). Returns DPU_ERR_INVALID_PROFILE on an unknown key or a bad value,
 * with one line on stderr naming it. */
dpu_error_t emu_profile_build(const char *text, profile_t *out);
void emu_profile_release(profile_t *p);

#endif /* EMU_PROFILE_H */
