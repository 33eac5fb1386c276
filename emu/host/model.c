/*
 * model.c -- the modeled clock (design.md §3.3): one timeline for the host
 * and one per rank, the host<->DPU cost model and its parameter table,
 * per-phase totals, and the Chrome trace of modeled events.
 *
 * Rules:
 *  - host work: wall time between API calls (while no application thread is
 *    inside the library) advances the host timeline; the emulator's own time
 *    inside calls is simulation cost and is not counted;
 *  - a rank's job starts at max(host time at submission, end of the rank's
 *    previous job) and lasts its modeled cost;
 *  - a synchronous call advances the host timeline to the end of its jobs;
 *    an asynchronous one does not;
 *  - transfer cost = fixed cost per call + bytes / bandwidth, the bandwidth
 *    shared with the other ranks transferring at the same modeled time up
 *    to a system-wide cap; launch cost = overhead + slowest DPU's cycles /
 *    clock.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "host.h"

/* The one table of model parameters (upmem-perf-facts.md §6). Each row is
 * also a profile key. GB = 1e9 B, GiB = 2^30 B. */
const model_param_desc_t model_param_table[] = {
    {"serialToGBps", offsetof(model_params_t, serial_to_gbps), 0.33, "GB/s",
     "P16: CPU->DPU serial (dpu_copy_to on one DPU), PrIM [S]+[R]"},
    {"serialFromGBps", offsetof(model_params_t, serial_from_gbps), 0.12, "GB/s",
     "P17: DPU->CPU serial (dpu_copy_from), PrIM [R], uPIM HW data 0.11-0.12"},
    {"serialDpuUs", offsetof(model_params_t, serial_dpu_us), 17.0, "us",
     "P24: fixed cost of one serial copy (per DPU), uPIM HW data 17-20 us"},
    {"parallelToGBps", offsetof(model_params_t, par_to_gbps), 6.68, "GB/s",
     "P18: CPU->DPU push_xfer, one rank of 64 DPUs, PrIM [S]+[R]"},
    {"parallelFromGBps", offsetof(model_params_t, par_from_gbps), 4.74, "GB/s",
     "P19: DPU->CPU push_xfer, one rank, PrIM [R] (uPIM data 1.3-1.9: uncertain ~2.5x)"},
    {"broadcastGBps", offsetof(model_params_t, bcast_gbps), 16.88, "GB/s",
     "P20: broadcast to one rank of 64 DPUs (bytes delivered), PrIM [R]"},
    {"capToGiBps", offsetof(model_params_t, cap_to_gibps), 21.0, "GiB/s",
     "P21: system-wide CPU->DPU cap (32 ranks, SDK 2024.2), LK-light [V]"},
    {"capFromGiBps", offsetof(model_params_t, cap_from_gibps), 11.0, "GiB/s",
     "P21: system-wide DPU->CPU cap, LK-light [V]"},
    {"callToUs", offsetof(model_params_t, call_to_us), 100.0, "us",
     "P23: fixed cost of a CPU->DPU push/broadcast on one rank (0.1-0.2 ms)"},
    {"callFromUs", offsetof(model_params_t, call_from_us), 200.0, "us",
     "P23: fixed cost of a DPU->CPU push on one rank (0.1-0.2 ms; recv ~2x send)"},
    {"callRankToUs", offsetof(model_params_t, call_rank_to_us), 12.9, "us",
     "P23: extra fixed cost per additional rank in the call (0.5 ms at 32 ranks) [D]"},
    {"callRankFromUs", offsetof(model_params_t, call_rank_from_us), 25.8, "us",
     "P23: extra per additional rank, DPU->CPU (1.0 ms at 32 ranks) [D]"},
    {"launchUs", offsetof(model_params_t, launch_us), 100.0, "us",
     "P25: dpu_launch overhead, one rank (placeholder, unmeasured)"},
    {"launchRankUs", offsetof(model_params_t, launch_rank_us), 10.0, "us",
     "P25: extra launch overhead per additional rank (~0.5 ms at 40 ranks) [D]"},
    {"loadUs", offsetof(model_params_t, load_us), 0.0, "us",
     "P26: dpu_load (unknown, not on the steady-state path)"},
    {"rankRefDpus", offsetof(model_params_t, rank_ref_dpus), 64.0, "DPUs",
     "rank size of the P18-P20 measurements; k DPUs of a rank get BW(64)*(k/64)^a, "
     "a = ln(P18/P16)/ln 64 so that BW(1) = serial and BW(64) = P18 [D]"},
};
const unsigned model_param_count = sizeof model_param_table / sizeof model_param_table[0];

/* see host.h */
void model_params_default(model_params_t *m)
{
    for (unsigned i = 0; i < model_param_count; i++)
        memcpy((char *)m + model_param_table[i].offset, &model_param_table[i].def, sizeof(double));
}

/* see host.h */
double host_wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------- state */

typedef struct {
    double a, b;
} ival_t;

typedef struct {
    ival_t *v;
    size_t n, cap;
} ivals_t;

typedef struct {
    double start, end;
    const void *op;
    int dir;
} xfer_ival_t;

typedef struct {
    const char *name;
    uint32_t tid;
    double ts, dur;
    uint64_t bytes;
} event_t;

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static bool g_started;
static int g_inside;
static double g_last_exit;
static double g_host_t, g_host_work;
static ivals_t g_phase[DPU_EMU_NR_PHASES];
static double g_phase_sum[DPU_EMU_NR_PHASES];
static uint64_t g_bytes_to, g_bytes_from, g_nr_launch, g_nr_xfer, g_cycles_max;
static xfer_ival_t *g_xf;
static size_t g_nxf, g_capxf;
/* trace */
static char *g_trace_path;
static event_t *g_ev;
static size_t g_nev, g_capev;
static bool g_trace_atexit;

static void ivals_add(ivals_t *s, double a, double b)
{
    if (b <= a)
        return;
    if (s->n && a <= s->v[s->n - 1].b && b >= s->v[s->n - 1].a) {
        if (a < s->v[s->n - 1].a)
            s->v[s->n - 1].a = a;
        if (b > s->v[s->n - 1].b)
            s->v[s->n - 1].b = b;
        return;
    }
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        ival_t *v = realloc(s->v, cap * sizeof *v);
        if (v == NULL)
            return; /* statistics only: drop the interval */
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n].a = a;
    s->v[s->n].b = b;
    s->n++;
}

static int ival_cmp(const void *x, const void *y)
{
    const ival_t *p = x, *q = y;
    return (p->a > q->a) - (p->a < q->a);
}

/* Length of the union (sorts and merges in place). */
static double ivals_union(ivals_t *s)
{
    if (s->n == 0)
        return 0.0;
    qsort(s->v, s->n, sizeof *s->v, ival_cmp);
    size_t w = 0;
    for (size_t i = 1; i < s->n; i++) {
        if (s->v[i].a <= s->v[w].b) {
            if (s->v[i].b > s->v[w].b)
                s->v[w].b = s->v[i].b;
        } else {
            s->v[++w] = s->v[i];
        }
    }
    s->n = w + 1;
    double sum = 0.0;
    for (size_t i = 0; i < s->n; i++)
        sum += s->v[i].b - s->v[i].a;
    return sum;
}

static void trace_add(const char *name, uint32_t tid, double ts, double dur, uint64_t bytes)
{
    if (g_trace_path == NULL || dur <= 0.0)
        return;
    if (g_nev == g_capev) {
        size_t cap = g_capev ? g_capev * 2 : 1024;
        event_t *e = realloc(g_ev, cap * sizeof *e);
        if (e == NULL)
            return;
        g_ev = e;
        g_capev = cap;
    }
    g_ev[g_nev++] = (event_t){name, tid, ts, dur, bytes};
}

static dpu_error_t trace_write_locked(void)
{
    if (g_trace_path == NULL)
        return DPU_OK;
    FILE *f = fopen(g_trace_path, "w");
    if (f == NULL)
        return DPU_ERR_SYSTEM;
    fprintf(f, "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"clock\":\"modeled\"},"
               "\"traceEvents\":[\n");
    fprintf(f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"tid\":0,"
               "\"args\":{\"name\":\"virtual UPMEM (modeled clock)\"}}");
    fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":0,"
               "\"args\":{\"name\":\"host\"}}");
    uint32_t max_tid = 0;
    for (size_t i = 0; i < g_nev; i++)
        if (g_ev[i].tid > max_tid)
            max_tid = g_ev[i].tid;
    for (uint32_t t = 1; t <= max_tid; t++)
        fprintf(f,
                ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":%u,"
                "\"args\":{\"name\":\"rank %u\"}}",
                t, t - 1);
    for (size_t i = 0; i < g_nev; i++) {
        const event_t *e = &g_ev[i];
        fprintf(f,
                ",\n{\"name\":\"%s\",\"ph\":\"X\",\"pid\":0,\"tid\":%u,\"ts\":%.3f,"
                "\"dur\":%.3f,\"args\":{\"bytes\":%llu}}",
                e->name, e->tid, e->ts * 1e6, e->dur * 1e6, (unsigned long long)e->bytes);
    }
    fprintf(f, "\n]}\n");
    return fclose(f) == 0 ? DPU_OK : DPU_ERR_SYSTEM;
}

static void trace_atexit(void)
{
    pthread_mutex_lock(&g_mu);
    trace_write_locked();
    pthread_mutex_unlock(&g_mu);
}

static dpu_error_t trace_start_locked(const char *path)
{
    char *p = strdup(path);
    if (p == NULL)
        return DPU_ERR_SYSTEM;
    free(g_trace_path);
    g_trace_path = p;
    g_nev = 0;
    if (!g_trace_atexit) {
        atexit(trace_atexit);
        g_trace_atexit = true;
    }
    return DPU_OK;
}

/* ---------------------------------------------------------- host clock */

void model_api_enter(void);
void model_api_exit(void);

/* hostClock=thread: host work is the calling thread's CPU time, not wall
 * time (see model_set_host_clock in host.h). */
static bool g_thread_clock;
static _Thread_local double tls_exit_cpu = -1.0; /* CPU time at this thread's last exit */

static double thread_cpu(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return -1.0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* see host.h */
void model_set_host_clock(bool thread_cpu_time)
{
    pthread_mutex_lock(&g_mu);
    g_thread_clock = thread_cpu_time;
    pthread_mutex_unlock(&g_mu);
}

/* First API call of an application thread: host work since the last exit. */
void model_api_enter(void)
{
    double now = host_wall(), cpu = thread_cpu();
    pthread_mutex_lock(&g_mu);
    if (!g_started) {
        g_started = true;
        g_last_exit = now;
        const char *env = getenv("UPMEM_TRACE");
        if (env && *env)
            trace_start_locked(env);
    }
    if (g_inside++ == 0) {
        double d = now - g_last_exit;
        if (g_thread_clock && tls_exit_cpu >= 0.0 && cpu >= 0.0)
            d = cpu - tls_exit_cpu;
        if (d > 0.0) {
            trace_add("host work", 0, g_host_t, d, 0);
            g_host_t += d;
            g_host_work += d;
        }
    }
    pthread_mutex_unlock(&g_mu);
}

void model_api_exit(void)
{
    double now = host_wall();
    pthread_mutex_lock(&g_mu);
    if (--g_inside == 0)
        g_last_exit = now;
    pthread_mutex_unlock(&g_mu);
    tls_exit_cpu = thread_cpu();
}

/* see host.h */
double model_host_now(void)
{
    pthread_mutex_lock(&g_mu);
    double t = g_host_t;
    pthread_mutex_unlock(&g_mu);
    return t;
}

/* see host.h */
void model_host_advance_to(double t)
{
    pthread_mutex_lock(&g_mu);
    if (t > g_host_t) {
        trace_add("wait", 0, g_host_t, t - g_host_t, 0);
        g_host_t = t;
    }
    pthread_mutex_unlock(&g_mu);
}

/* ---------------------------------------------------------- rank clocks */

/* see host.h */
double model_job_start(struct dpu_rank_t *r, double submit)
{
    pthread_mutex_lock(&g_mu);
    double s = r->t_end > submit ? r->t_end : submit;
    pthread_mutex_unlock(&g_mu);
    return s;
}

/* see host.h */
double model_rank_end(struct dpu_rank_t *r)
{
    pthread_mutex_lock(&g_mu);
    double t = r->t_end;
    pthread_mutex_unlock(&g_mu);
    return t;
}

/* see host.h */
void model_rank_set_end(struct dpu_rank_t *r, double t)
{
    pthread_mutex_lock(&g_mu);
    r->t_end = t;
    pthread_mutex_unlock(&g_mu);
}

/* see host.h */
void model_rank_reset(struct dpu_rank_t *r)
{
    model_rank_set_end(r, model_host_now());
}

/* see host.h */
void model_job_end(struct dpu_rank_t *r, double start, double dur, dpu_emu_phase_t phase,
                   const char *name, uint64_t bytes, int dir)
{
    pthread_mutex_lock(&g_mu);
    r->t_end = start + dur;
    ivals_add(&g_phase[phase], start, start + dur);
    g_phase_sum[phase] += dur;
    if (phase == DPU_EMU_PHASE_CPU_DPU || phase == DPU_EMU_PHASE_DPU_CPU) {
        g_nr_xfer++;
        if (dir == 0)
            g_bytes_to += bytes;
        else
            g_bytes_from += bytes;
    }
    trace_add(name, r->id + 1, start, dur, bytes);
    pthread_mutex_unlock(&g_mu);
}

/* see host.h */
void op_note_done(op_t *op, double t)
{
    pthread_mutex_lock(&op->mu);
    if (t > op->t_done)
        op->t_done = t;
    pthread_mutex_unlock(&op->mu);
}

/* ---------------------------------------------------------- cost model */

/* Ranks of other calls transferring in direction dir during [a, b). */
static uint32_t overlapping_locked(const void *op, int dir, double a, double b)
{
    uint32_t n = 0;
    for (size_t i = 0; i < g_nxf; i++)
        if (g_xf[i].dir == dir && g_xf[i].op != op && g_xf[i].start < b && g_xf[i].end > a)
            n++;
    return n;
}

static void register_xfer_locked(const void *op, int dir, double a, double b)
{
    /* intervals ending before the host's present cannot overlap future jobs */
    size_t w = 0;
    for (size_t i = 0; i < g_nxf; i++)
        if (g_xf[i].end >= g_host_t)
            g_xf[w++] = g_xf[i];
    g_nxf = w;
    if (g_nxf == g_capxf) {
        size_t cap = g_capxf ? g_capxf * 2 : 256;
        xfer_ival_t *v = realloc(g_xf, cap * sizeof *v);
        if (v == NULL)
            return;
        g_xf = v;
        g_capxf = cap;
    }
    g_xf[g_nxf++] = (xfer_ival_t){a, b, op, dir};
}

/* see host.h */
double model_xfer_cost(struct dpu_rank_t *r, const op_t *op, uint32_t k, double start,
                       const void *op_id)
{
    const model_params_t *m = &r->prof->model;
    bool to = op->type == OP_XFER_TO;
    double len = (double)op->len;
    if (op->kind == XK_SERIAL)
        return m->serial_dpu_us * 1e-6 +
               len / ((to ? m->serial_to_gbps : m->serial_from_gbps) * 1e9);

    double ref = m->rank_ref_dpus > 1.0 ? m->rank_ref_dpus : 1.0;
    double par = to ? m->par_to_gbps : m->par_from_gbps;
    double ser = to ? m->serial_to_gbps : m->serial_from_gbps;
    double alpha = (ref > 1.0 && ser > 0.0 && par > 0.0) ? log(par / ser) / log(ref) : 1.0;
    double scale = pow((double)k / ref, alpha);
    double bw_rank, cap;
    if (op->kind == XK_BROADCAST) {
        bw_rank = m->bcast_gbps * 1e9 * scale;
        /* broadcast is P20/P18 times more efficient than a push on the shared path too */
        cap = m->cap_to_gibps * 1073741824.0 *
              (m->par_to_gbps > 0 ? m->bcast_gbps / m->par_to_gbps : 1);
    } else {
        bw_rank = par * 1e9 * scale;
        cap = (to ? m->cap_to_gibps : m->cap_from_gibps) * 1073741824.0;
    }
    double fixed = ((to ? m->call_to_us : m->call_from_us) +
                    (to ? m->call_rank_to_us : m->call_rank_from_us) * (op->call_ranks - 1)) *
                   1e-6;
    double bytes = len * k;
    int dir = to ? 0 : 1;
    uint32_t nr = op->call_ranks ? op->call_ranks : 1;

    pthread_mutex_lock(&g_mu);
    double bw = fmin(bw_rank, cap / nr);
    double est = fixed + bytes / bw;
    uint32_t n = nr + overlapping_locked(op_id, dir, start, start + est);
    bw = fmin(bw_rank, cap / n);
    double cost = fixed + bytes / bw;
    register_xfer_locked(op_id, dir, start, start + cost);
    pthread_mutex_unlock(&g_mu);
    return cost;
}

/* see host.h */
double model_launch_cost(struct dpu_rank_t *r, uint32_t call_ranks, uint64_t max_cycles)
{
    const profile_t *p = r->prof;
    double over = (p->model.launch_us + p->model.launch_rank_us * (call_ranks - 1)) * 1e-6;
    return over + (double)max_cycles / (p->vdpu.clock_mhz * 1e6);
}

/* see host.h */
void model_note_launch(uint64_t max_cycles)
{
    pthread_mutex_lock(&g_mu);
    g_nr_launch++;
    g_cycles_max = max_cycles;
    pthread_mutex_unlock(&g_mu);
}

/* ----------------------------------------------------------- dpu_emu.h */

/* see dpu_emu.h */
void dpu_emu_get_stats(dpu_emu_stats_t *s)
{
    api_enter();
    pthread_mutex_lock(&g_mu);
    memset(s, 0, sizeof *s);
    s->host_time = g_host_t;
    s->host_work = g_host_work;
    for (int p = 0; p < DPU_EMU_NR_PHASES; p++) {
        s->phase[p] = ivals_union(&g_phase[p]);
        s->phase_rank_sum[p] = g_phase_sum[p];
    }
    s->bytes_to_dpu = g_bytes_to;
    s->bytes_from_dpu = g_bytes_from;
    s->nr_launches = g_nr_launch;
    s->nr_transfers = g_nr_xfer;
    s->dpu_cycles_max = g_cycles_max;
    pthread_mutex_unlock(&g_mu);
    api_exit();
}

/* see dpu_emu.h */
double dpu_emu_host_time(void)
{
    api_enter();
    double t = model_host_now();
    api_exit();
    return t;
}

/* see dpu_emu.h */
double dpu_emu_rank_time(struct dpu_set_t set, uint32_t rank_index)
{
    if (set_check(set) != DPU_OK)
        return 0.0;
    struct dpu_rank_t **ranks, *one;
    struct dpu_t *single;
    uint32_t n = set_ranks(&set, &ranks, &one, &single);
    if (rank_index >= n)
        return 0.0;
    api_enter();
    ranks_quiesce(&ranks[rank_index], 1);
    double t = model_rank_end(ranks[rank_index]);
    api_exit();
    return t;
}

void allocs_foreach_rank(void (*fn)(struct dpu_rank_t *r));

static void quiesce_one(struct dpu_rank_t *r)
{
    ranks_quiesce(&r, 1);
}

static void zero_rank(struct dpu_rank_t *r)
{
    r->t_end = 0.0;
}

/* see dpu_emu.h */
void dpu_emu_reset(void)
{
    api_enter();
    allocs_foreach_rank(quiesce_one);
    pthread_mutex_lock(&g_mu);
    allocs_foreach_rank(zero_rank);
    g_host_t = g_host_work = 0.0;
    for (int p = 0; p < DPU_EMU_NR_PHASES; p++) {
        g_phase[p].n = 0;
        g_phase_sum[p] = 0.0;
    }
    g_bytes_to = g_bytes_from = g_nr_launch = g_nr_xfer = g_cycles_max = 0;
    g_nxf = 0;
    pthread_mutex_unlock(&g_mu);
    api_exit();
}

/* see dpu_emu.h */
dpu_error_t dpu_emu_trace_start(const char *path)
{
    if (path == NULL)
        return DPU_ERR_INTERNAL;
    pthread_mutex_lock(&g_mu);
    dpu_error_t err = trace_start_locked(path);
    pthread_mutex_unlock(&g_mu);
    return err;
}

/* see dpu_emu.h */
dpu_error_t dpu_emu_trace_stop(void)
{
    pthread_mutex_lock(&g_mu);
    dpu_error_t err = trace_write_locked();
    free(g_trace_path);
    g_trace_path = NULL;
    g_nev = 0;
    pthread_mutex_unlock(&g_mu);
    return err;
}

/* see dpu_emu.h */
void dpu_emu_print_stats(FILE *stream)
{
    dpu_emu_stats_t s;
    dpu_emu_get_stats(&s);
    fprintf(stream,
            "modeled clock: total %.3f ms = host work %.3f ms (measured) + CPU-DPU %.3f ms + "
            "kernel %.3f ms + DPU-CPU %.3f ms + other %.3f ms (minus overlap)\n",
            s.host_time * 1e3, s.host_work * 1e3, s.phase[DPU_EMU_PHASE_CPU_DPU] * 1e3,
            s.phase[DPU_EMU_PHASE_KERNEL] * 1e3, s.phase[DPU_EMU_PHASE_DPU_CPU] * 1e3,
            s.phase[DPU_EMU_PHASE_OTHER] * 1e3);
}
