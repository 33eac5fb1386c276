/*
 * host.h -- internals of the virtual UPMEM host library (the .c files of emu/host).
 *
 * Objects: an allocation (what dpu_alloc returned) owns ranks; a rank owns
 * DPUs (each a vdpu_t), an in-order job queue served by one lazily started
 * worker thread, the per-DPU prepared-transfer table and a modeled timeline.
 * An operation (op_t) is one API call; it becomes one job per rank. Jobs of
 * a rank run strictly in order, one at a time (rank->busy); ranks are
 * independent. A synchronous call on ranks with nothing queued runs inline
 * in the caller; otherwise it queues its jobs and waits for them.
 */
#ifndef EMU_HOST_H
#define EMU_HOST_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "../include/dpu.h"
#include "../include/dpu_emu.h"
#include "../vdpu/vdpu.h"

#define HOST_MAX_RANKS         1024u /* profile limit on nrRanks                 */
#define HOST_MAX_DPUS_PER_RANK 64u

/* ---------------------------------------------------------------- model */

/* Parameters of the host<->DPU cost model; the one table of defaults with
 * sources is model_params[] in model.c. */
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
} model_params_t;

typedef struct {
    const char *key; /* profile key                       */
    size_t offset;   /* into model_params_t               */
    double def;      /* default                           */
    const char *unit;
    const char *source; /* perf-facts row and provenance     */
} model_param_desc_t;

extern const model_param_desc_t model_param_table[];
extern const unsigned model_param_count;
void model_params_default(model_params_t *m);

/* -------------------------------------------------------------- profile */

typedef struct {
    uint32_t nr_ranks;         /* machine size                     */
    uint32_t nr_dpus_per_rank; /* 1..64                            */
    uint64_t disabled_mask;    /* DPUs disabled in every rank      */
    uint64_t *rank_disabled;   /* [HOST_MAX_RANKS] extra per rank  */
    bool dispatch_on_all_ranks;
    bool disable_reset_on_alloc;
    uint32_t nr_jobs_per_rank; /* queue capacity (>= 1)            */
    uint32_t sample_dpus;      /* sampleDpus: DPUs run per rank and
                                * launch, 0 = all (see ops.c)       */
    bool host_thread_clock;    /* hostClock=thread                  */
    vdpu_params_t vdpu;
    model_params_t model;
} profile_t;

/* Builds the profile: defaults < UPMEM_PROFILE_BASE < UPMEM_PROFILE < text.
 * Returns DPU_ERR_INVALID_PROFILE on an unknown key or a bad value. */
dpu_error_t profile_build(const char *text, profile_t *out);
void profile_release(profile_t *p);

/* -------------------------------------------------------------- objects */

struct dpu_program_t {
    vdpu_program_t *vp;
    uint64_t hash; /* of the ELF bytes (program cache key)  */
    size_t size;
    int refs; /* DPUs holding it + cache users (g_prog_mu) */
    struct dpu_program_t *next;
};

struct dpu_t {
    struct dpu_rank_t *rank;
    uint32_t index; /* in the rank                       */
    bool enabled;   /* visible to the API                */
    vdpu_t *v;
    struct dpu_program_t *program; /* NULL until loaded                 */
    void *xfer_buf;                /* prepared buffer (rank's table)    */
    bool fault;                    /* last launch faulted               */
    bool not_simulated;            /* skipped by a sampled launch: its
                                      memory is not what the program
                                      computes, so reads of it fail      */
    vdpu_result_t *res;            /* last run (allocated on first run) */
};

typedef struct job job_t;
typedef struct alloc alloc_t;

struct dpu_rank_t {
    uint32_t id;      /* machine rank id                       */
    uint32_t nr_dpus; /* DPUs in the rank (incl. disabled)     */
    uint32_t nr_enabled;
    struct dpu_t *dpus;
    alloc_t *owner;
    const profile_t *prof;

    pthread_mutex_t mu; /* queue, busy, sticky, xfer table       */
    pthread_cond_t cv;
    job_t *head, *tail;
    uint32_t qlen;
    bool busy; /* a job of this rank is executing       */
    bool worker_on, stop;
    pthread_t worker;
    dpu_error_t sticky; /* async error, DPU_OK if none           */

    double t_end; /* modeled end of its last job (g_model) */
};

struct alloc {
    struct dpu_rank_t **ranks;
    uint32_t nr_ranks;
    profile_t prof;
    alloc_t *next;
};

/* Iterates the enabled DPUs of a set: for a DPU set only that DPU. */
static inline bool dpu_in_scope(const struct dpu_t *d, const struct dpu_t *single)
{
    return d->enabled && (single == NULL || d == single);
}

/* ------------------------------------------------------------------ ops */

typedef enum {
    OP_LAUNCH = 0, /* SDK job type numbers (DPU_ERR_ASYNC_JOBS)     */
    OP_SYNC = 2,
    OP_XFER_TO = 5,
    OP_XFER_FROM = 8,
    OP_CALLBACK = 12,
    OP_LOAD = 13,
} op_type_t;

typedef enum { XK_SERIAL, XK_PARALLEL, XK_BROADCAST } xfer_kind_t;

typedef struct op {
    op_type_t type;
    int refs;             /* jobs + submitter (op_mu)          */
    struct dpu_t *single; /* DPU set, else NULL                */
    uint32_t call_ranks;  /* ranks taking part in the call     */
    struct dpu_set_t set; /* the call's set (callbacks)        */
    /* transfers */
    xfer_kind_t kind;
    vdpu_mem_t mem;
    uint32_t offset; /* inside the memory                 */
    size_t len;
    const void *src; /* broadcast / copy source           */
    void *dst;       /* copy_from destination             */
    void ***bufs;    /* [rank in call][dpu] push snapshot */
    uint32_t nbufs;
    struct dpu_rank_t **ranks; /* the call's ranks (bufs index)     */
    /* load */
    struct dpu_program_t *program;
    /* callback */
    dpu_error_t (*cb)(struct dpu_set_t, uint32_t, void *);
    void *cb_args;
    bool cb_single;
    uint32_t cb_arrived; /* SINGLE_CALL across rank workers   */
    bool cb_done;
    dpu_error_t cb_err;
    /* completion (synchronous calls) */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint32_t pending;
    dpu_error_t err;
    double t_done; /* max modeled end of its jobs      */
} op_t;

struct job {
    job_t *next;
    op_t *op;
    struct dpu_rank_t *rank;
    uint32_t rank_pos; /* index of rank in op->ranks        */
    double submit_t;   /* modeled host time at submission   */
    bool sync;         /* a waiter counts on it             */
};

op_t *op_new(op_type_t type, struct dpu_set_t set);
void op_put(op_t *op);

/* Runs op on every rank of the set (sync: waits, returns its error; async:
 * queues). Handles sticky errors and inline execution. */
dpu_error_t op_submit(op_t *op, struct dpu_set_t set, bool async);
/* Waits until nothing is queued or running on the set's ranks. */
void ranks_quiesce(struct dpu_rank_t **ranks, uint32_t n);
void rank_stop_worker(struct dpu_rank_t *r);

/* Executes op on the given ranks (the caller owns them). Returns the error. */
dpu_error_t op_exec(op_t *op, job_t *jobs, uint32_t n);

/* ----------------------------------------------------------------- pool */

/* Calls fn(arg, i) for i in [0, n) on the DPU thread pool (every core) and
 * the calling thread; returns when all calls returned. */
void pool_for(uint32_t n, void (*fn)(void *arg, uint32_t i), void *arg);

/* -------------------------------------------------- API entry and clock */

void api_enter(void);
void api_exit(void);
/* Wall clock (seconds, monotonic). */
double host_wall(void);
/* Marks the current thread as a library worker (its calls are not host work). */
void api_mark_worker(void);

/* Callback support: time spent in nested API calls by this thread. */
void api_cb_begin(void);
double api_cb_end(void); /* own time of the callback (wall minus nested API) */

/* Thread ownership: a thread running a rank's job owns that rank; its API
 * calls on owned ranks execute immediately. */
void own_push(struct dpu_rank_t *const *ranks, uint32_t n);
void own_pop(uint32_t n);
bool own_has(const struct dpu_rank_t *r);

double model_host_now(void);
/* Host work between API calls is measured as wall time (default), or with
 * thread_cpu_time as the CPU time of the thread calling in: immune to the
 * simulator's own threads competing for the cores, exact for a host that
 * does its work on one thread and never blocks (profile key hostClock; the
 * last dpu_alloc decides, process-wide). */
void model_set_host_clock(bool thread_cpu_time);
double model_rank_end(struct dpu_rank_t *r);
void model_rank_set_end(struct dpu_rank_t *r, double t);
/* Records the modeled end of one of op's jobs (for the synchronous waiter). */
void op_note_done(op_t *op, double t);
/* Host waited for modeled time t (a synchronous completion). */
void model_host_advance_to(double t);
/* Start of a job on rank r submitted at host time submit. */
double model_job_start(struct dpu_rank_t *r, double submit);
/* Ends a job: rank timeline to start+dur, phase bookkeeping, trace. */
void model_job_end(struct dpu_rank_t *r, double start, double dur, dpu_emu_phase_t phase,
                   const char *name, uint64_t bytes, int dir);
/* Transfer cost (seconds) for one rank's part of a call. */
double model_xfer_cost(struct dpu_rank_t *r, const op_t *op, uint32_t ndpus, double start,
                       const void *op_id);
double model_launch_cost(struct dpu_rank_t *r, uint32_t call_ranks, uint64_t max_cycles);
void model_note_launch(uint64_t max_cycles);
void model_rank_reset(struct dpu_rank_t *r);
void trace_maybe_start_from_env(void);

/* --------------------------------------------------------------- misc */

/* The set's ranks as a list (a DPU set gives its one rank). */
static inline uint32_t set_ranks(struct dpu_set_t *set, struct dpu_rank_t ***out,
                                 struct dpu_rank_t **one, struct dpu_t **single)
{
    if (set->kind == DPU_SET_DPU) {
        *one = set->dpu->rank;
        *out = one;
        *single = set->dpu;
        return 1;
    }
    *out = set->list.ranks;
    *single = NULL;
    return set->list.nr_ranks;
}
dpu_error_t set_check(struct dpu_set_t set);
uint32_t dpu_id_of(const struct dpu_t *d);
void program_put(struct dpu_program_t *p);

#endif /* EMU_HOST_H */
