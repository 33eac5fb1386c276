/*
 * model.c -- the modeled clock (design.md §3.3): one timeline for the host
 * and one per rank, the host<->DPU cost model, per-phase totals, and the
 * Chrome trace of modeled events. The model's parameters and their table
 * belong to the profile (emu_model_param_table in profile.c).
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
#include "model.h"

#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"

/* see model.h */
double emu_host_wall(void)
{
    struct timespec ts;
    emu_clock_real(CLOCK_MONOTONIC, &ts); /* never the program's (modeled) clock */
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

/* hostClock=thread: host work is the calling thread's CPU time, not wall
 * time (see emu_model_set_host_clock in model.h). */
static bool g_thread_clock;
static _Thread_local double tls_exit_cpu = -1.0; /* CPU time at this thread's last exit */

static double thread_cpu(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return -1.0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* see model.h */
void emu_model_set_host_clock(bool thread_cpu_time)
{
    pthread_mutex_lock(&g_mu);
    g_thread_clock = thread_cpu_time;
    pthread_mutex_unlock(&g_mu);
}

/* see model.h */
void emu_model_api_enter(void)
{
    double now = emu_host_wall(), cpu = thread_cpu();
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

/* see model.h */
void emu_model_api_exit(void)
{
    double now = emu_host_wall();
    pthread_mutex_lock(&g_mu);
    if (--g_inside == 0)
        g_last_exit = now;
    pthread_mutex_unlock(&g_mu);
    tls_exit_cpu = thread_cpu();
}

/* see model.h */
double emu_model_host_now(void)
{
    pthread_mutex_lock(&g_mu);
    double t = g_host_t;
    pthread_mutex_unlock(&g_mu);
    return t;
}

/* see model.h */
double emu_model_host_present(void)
{
    double now = emu_host_wall(), cpu = thread_cpu();
    pthread_mutex_lock(&g_mu);
    double t = g_host_t;
    if (g_started && g_inside == 0) { /* what the next API entry would add */
        double d = now - g_last_exit;
        if (g_thread_clock && tls_exit_cpu >= 0.0 && cpu >= 0.0)
            d = cpu - tls_exit_cpu;
        if (d > 0.0)
            t += d;
    }
    pthread_mutex_unlock(&g_mu);
    return t;
}

/* see model.h */
void emu_model_host_advance_to(double t)
{
    pthread_mutex_lock(&g_mu);
    if (t > g_host_t) {
        trace_add("wait", 0, g_host_t, t - g_host_t, 0);
        g_host_t = t;
    }
    pthread_mutex_unlock(&g_mu);
}

/* ---------------------------------------------------------- rank clocks */

/* see model.h */
void emu_model_timeline_init(emu_timeline_t *tl, uint32_t rank_id)
{
    tl->trace_row = rank_id + 1;
    emu_model_rank_set_end(tl, emu_model_host_now());
}

/* see model.h */
double emu_model_job_start(emu_timeline_t *tl, double submit)
{
    pthread_mutex_lock(&g_mu);
    double s = tl->t_end > submit ? tl->t_end : submit;
    pthread_mutex_unlock(&g_mu);
    return s;
}

/* see model.h */
double emu_model_rank_end(emu_timeline_t *tl)
{
    pthread_mutex_lock(&g_mu);
    double t = tl->t_end;
    pthread_mutex_unlock(&g_mu);
    return t;
}

/* see model.h */
void emu_model_rank_set_end(emu_timeline_t *tl, double t)
{
    pthread_mutex_lock(&g_mu);
    tl->t_end = t;
    pthread_mutex_unlock(&g_mu);
}

/* see model.h */
void emu_model_job_end(emu_timeline_t *tl, double start, double dur, dpu_emu_phase_t phase,
                       const char *name, uint64_t bytes, int dir)
{
    pthread_mutex_lock(&g_mu);
    tl->t_end = start + dur;
    ivals_add(&g_phase[phase], start, start + dur);
    g_phase_sum[phase] += dur;
    if (phase == DPU_EMU_PHASE_CPU_DPU || phase == DPU_EMU_PHASE_DPU_CPU) {
        g_nr_xfer++;
        if (dir == 0)
            g_bytes_to += bytes;
        else
            g_bytes_from += bytes;
    }
    trace_add(name, tl->trace_row, start, dur, bytes);
    pthread_mutex_unlock(&g_mu);
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

/* see model.h */
double emu_model_xfer_cost(const model_params_t *m, bool to, xfer_kind_t kind, size_t nbytes,
                           uint32_t call_ranks, uint32_t k, double start, const void *op_id)
{
    double len = (double)nbytes;
    if (kind == XK_SERIAL)
        return m->serial_dpu_us * 1e-6 +
               len / ((to ? m->serial_to_gbps : m->serial_from_gbps) * 1e9);

    double ref = m->rank_ref_dpus > 1.0 ? m->rank_ref_dpus : 1.0;
    double par = to ? m->par_to_gbps : m->par_from_gbps;
    double ser = to ? m->serial_to_gbps : m->serial_from_gbps;
    double alpha = (ref > 1.0 && ser > 0.0 && par > 0.0) ? log(par / ser) / log(ref) : 1.0;
    double scale = pow((double)k / ref, alpha);
    double bw_rank, cap;
    if (kind == XK_BROADCAST) {
        bw_rank = m->bcast_gbps * 1e9 * scale;
        /* broadcast is P20/P18 times more efficient than a push on the shared path too */
        cap = m->cap_to_gibps * 1073741824.0 *
              (m->par_to_gbps > 0 ? m->bcast_gbps / m->par_to_gbps : 1);
    } else {
        bw_rank = par * 1e9 * scale;
        cap = (to ? m->cap_to_gibps : m->cap_from_gibps) * 1073741824.0;
    }
    double fixed = ((to ? m->call_to_us : m->call_from_us) +
                    (to ? m->call_rank_to_us : m->call_rank_from_us) * (call_ranks - 1)) *
                   1e-6;
    double bytes = len * k;
    int dir = to ? 0 : 1;
    uint32_t nr = call_ranks ? call_ranks : 1;

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

/* see model.h */
double emu_model_launch_cost(const profile_t *p, uint32_t call_ranks, uint64_t max_cycles)
{
    double over = (p->model.launch_us + p->model.launch_rank_us * (call_ranks - 1)) * 1e-6;
    return over + (double)max_cycles / (p->vdpu.clock_mhz * 1e6);
}

/* see model.h */
void emu_model_note_launch(uint64_t max_cycles)
{
    pthread_mutex_lock(&g_mu);
    g_nr_launch++;
    g_cycles_max = max_cycles;
    pthread_mutex_unlock(&g_mu);
}

/* ------------------------------------------------- for <dpu_emu.h> */

/* see model.h */
void emu_model_get_stats(dpu_emu_stats_t *s)
{
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
}

/* see model.h */
void emu_model_reset(void)
{
    pthread_mutex_lock(&g_mu);
    g_host_t = g_host_work = 0.0;
    for (int p = 0; p < DPU_EMU_NR_PHASES; p++) {
        g_phase[p].n = 0;
        g_phase_sum[p] = 0.0;
    }
    g_bytes_to = g_bytes_from = g_nr_launch = g_nr_xfer = g_cycles_max = 0;
    g_nxf = 0;
    pthread_mutex_unlock(&g_mu);
}

/* see model.h */
dpu_error_t emu_model_trace_start(const char *path)
{
    pthread_mutex_lock(&g_mu);
    dpu_error_t err = trace_start_locked(path);
    pthread_mutex_unlock(&g_mu);
    return err;
}

/* see model.h */
dpu_error_t emu_model_trace_stop(void)
{
    pthread_mutex_lock(&g_mu);
    dpu_error_t err = trace_write_locked();
    free(g_trace_path);
    g_trace_path = NULL;
    g_nev = 0;
    pthread_mutex_unlock(&g_mu);
    return err;
}
