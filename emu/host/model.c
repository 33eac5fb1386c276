/*
 * model.c -- the modeled clock (design.md §3.3): one timeline for the host
 * and one per rank, the host<->DPU cost model, per-phase totals, and the
 * Chrome trace of modeled events. The model's parameters and their table
 * belong to the profile (emu_model_param_table in profile.c).
 *
 * Rules (docs/VIRTUAL_UPMEM_HOST.md §4):
 *  - host work: the time between API calls (wall, the calling thread's CPU
 *    time, or none: profile key hostClock) advances the host timeline; the
 *    emulator's own time inside calls is simulation cost and is not counted;
 *  - every job of a rank is a record of the rank's queue; it starts at
 *    max(host time at submission, end of the rank's previous record);
 *  - a synchronous call advances the host timeline to the end of its
 *    records; an asynchronous one does not;
 *  - a transfer is its call's fixed cost, then its bytes at a rate shared
 *    with the other transfers of its direction (max-min fair under each
 *    one's own bandwidth and the system cap), re-computed whenever a
 *    transfer starts or ends; launch = overhead + slowest DPU's cycles /
 *    clock.
 *
 * The rank timelines are a discrete-event simulation run in time order
 * (sim_run), lazily, when the host needs a time; see model.h for why its
 * results are final and independent of thread scheduling.
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
    const char *name;
    uint32_t tid;
    double ts, dur;
    uint64_t bytes;
    uint64_t seq; /* recording order: ties of ts keep it in the file */
} event_t;

struct emu_rec {
    emu_rec_t *prev, *next; /* the rank's queue of records not yet simulated */
    emu_rec_t *link;        /* EMU_REC_BARRIER: next of its group (circular) */
    emu_mrank_t *mr;
    uint64_t seq, op;
    int refs;
    emu_rec_kind_t kind;
    dpu_emu_phase_t phase;
    bool ready, cancelled, done;
    int dir; /* transfers: 0 = CPU->DPU, 1 = DPU->CPU */
    const char *name;
    double submit; /* host time at submission (earliest start) */
    double fixed;  /* the timed part: a transfer's fixed cost, else the whole job */
    double bytes;  /* transfer: bytes moved at the shared rate */
    double rmax;   /* transfer: its own bandwidth (bytes/s) */
    double w;      /* transfer: cap units per byte */
    double cap;    /* transfer: its direction's cap (cap units/s) */
    double launch_over, clock_hz;
    double watts; /* power it adds while it runs (the power model) */
    uint64_t payload, cycles;
    double end;           /* once done */
    uint64_t (*spans)[2]; /* launch: its tasklets' DPU-side spans (trace), or NULL */
    unsigned nspans;
};

/* Simulation state of a rank: its current record and where it stands. A
 * projection (emu_model_rank_end) saves and restores exactly this.
 * ST_OPEN: a launch that started before its cycles are known (its worker is
 * still simulating the kernel); it ends at or after start + its overhead. */
enum { ST_IDLE, ST_TIMED, ST_DATA, ST_BARRIER, ST_OPEN };
typedef struct {
    emu_rec_t *cur; /* the record being simulated or next (== head when committing) */
    int st;
    double prev_end;    /* end of the rank's last simulated record */
    double start;       /* cur's start */
    double t_timed_end; /* ST_TIMED: end of the timed part */
    double left;        /* ST_DATA: bytes left */
    double rate;        /* ST_DATA: current rate (bytes/s) */
    double ev;          /* ST_DATA: projected end at that rate */
} msim_t;

struct emu_mrank {
    emu_mrank_t *next; /* all queues, creation order (determines tie order) */
    uint32_t row;      /* trace row: rank id + 1 */
    bool retired;
    emu_rec_t *head, *tail;
    msim_t s;
};

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_cv = PTHREAD_COND_INITIALIZER; /* a record ready or simulated */
static bool g_started;
static int g_inside;
static double g_last_exit;
static double g_host_t, g_host_work;
static double g_sim_t; /* the simulation's present: everything before it is final */
static uint64_t g_seq, g_op_seq;
static emu_mrank_t *g_ranks, *g_ranks_tail;
static size_t g_nranks;
static emu_mrank_t **g_scr; /* scratch for rate computation, g_nranks long */
static size_t g_scr_cap;
static ivals_t g_phase[DPU_EMU_NR_PHASES];
/* Per-rank sums in fixed point (2^-90 s): a launch whose cycles come after
 * the simulation passed its end (nothing depended on it) is added late, and
 * an integer sum does not depend on the order of the additions. */
#define FX_SHIFT 90
static __int128 g_phase_fx[DPU_EMU_NR_PHASES];
/* Modeled energy, fixed point as the phase sums (order-independent): what
 * the records that ended added, per phase; and the static power of the
 * allocated ranks, integrated on the host timeline up to g_static_t. */
static __int128 g_energy_fx[DPU_EMU_NR_PHASES];
static double g_static_w, g_static_t, g_static_j;
static uint64_t g_bytes_to, g_bytes_from, g_nr_launch, g_nr_xfer, g_cycles_max, g_last_launch_op;
/* trace */
/* rows: 0 the host, rank id + 1 a rank, TRACE_DPU_ROW the tasklets of its
 * slowest DPU in a launch (DPU-side spans, with profile=FILE) */
#define TRACE_DPU_BASE        100000u
#define TRACE_DPU_ROW(row, k) (TRACE_DPU_BASE + (row)*32u + (k))
static char *g_trace_path;
static event_t *g_ev;
static size_t g_nev, g_capev;
static uint64_t g_ev_seq;
static bool g_trace_atexit;
/* segment log (tests) */
static bool g_seg_on;
static emu_model_seg_t *g_seg;
static size_t g_nseg, g_capseg;

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
    g_ev[g_nev++] = (event_t){name, tid, ts, dur, bytes, g_ev_seq++};
}

static int event_cmp(const void *x, const void *y)
{
    const event_t *p = x, *q = y;
    if (p->ts != q->ts)
        return p->ts < q->ts ? -1 : 1;
    if (p->tid != q->tid)
        return p->tid < q->tid ? -1 : 1;
    return (p->seq > q->seq) - (p->seq < q->seq);
}

static dpu_error_t trace_write_locked(void)
{
    if (g_trace_path == NULL)
        return DPU_OK;
    FILE *f = fopen(g_trace_path, "w");
    if (f == NULL)
        return DPU_ERR_SYSTEM;
    /* rank events are recorded when the simulation ends them, the host's as
     * the host goes: in the file, by start time */
    if (g_nev > 1)
        qsort(g_ev, g_nev, sizeof *g_ev, event_cmp);
    fprintf(f, "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"clock\":\"modeled\"},"
               "\"traceEvents\":[\n");
    fprintf(f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"tid\":0,"
               "\"args\":{\"name\":\"virtual UPMEM (modeled clock)\"}}");
    fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":0,"
               "\"args\":{\"name\":\"host\"}}");
    uint32_t max_tid = 0;
    for (size_t i = 0; i < g_nev; i++)
        if (g_ev[i].tid > max_tid && g_ev[i].tid < TRACE_DPU_BASE)
            max_tid = g_ev[i].tid;
    for (uint32_t t = 1; t <= max_tid; t++)
        fprintf(f,
                ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":%u,"
                "\"args\":{\"name\":\"rank %u\"}}",
                t, t - 1);
    /* the DPU-side rows that have events (a name each, once) */
    for (size_t i = 0; i < g_nev; i++) {
        uint32_t t = g_ev[i].tid;
        if (t < TRACE_DPU_BASE)
            continue;
        size_t j = 0;
        while (j < i && g_ev[j].tid != t)
            j++;
        if (j < i)
            continue;
        fprintf(f,
                ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":%u,"
                "\"args\":{\"name\":\"rank %u, slowest DPU, tasklet %u\"}}",
                t, (t - TRACE_DPU_BASE) / 32u - 1u, (t - TRACE_DPU_BASE) % 32u);
    }
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

static void trace_atexit(void);

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

/* ----------------------------------------------------- thread state */

static _Thread_local bool tls_worker; /* a library worker thread */
#define CB_MAX 16
static _Thread_local struct {
    emu_rec_t *const *own;
    uint32_t n;
} tls_cb[CB_MAX];
static _Thread_local uint32_t tls_cb_depth;

/* A library worker, or a callback (whose own record is not ready while it
 * runs), must not wait for the simulation: it could wait for itself. */
static bool no_wait(void)
{
    return tls_worker || tls_cb_depth > 0;
}

/* see model.h */
void emu_model_mark_worker(void)
{
    tls_worker = true;
}

/* ---------------------------------------------------------- host clock */

/* hostClock (see emu_host_clock_t in model.h) */
static emu_host_clock_t g_host_clock;
static _Thread_local double tls_exit_cpu = -1.0; /* CPU time at this thread's last exit */

static double thread_cpu(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return -1.0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* see model.h */
void emu_model_set_host_clock(emu_host_clock_t clock)
{
    pthread_mutex_lock(&g_mu);
    g_host_clock = clock;
    pthread_mutex_unlock(&g_mu);
}

static void sim_run(double target, bool (*done)(void *), void *arg, bool may_wait, bool open_ok);

static void trace_atexit(void)
{
    pthread_mutex_lock(&g_mu);
    /* nothing will be submitted any more: simulate what is known */
    sim_run(INFINITY, NULL, NULL, false, false);
    trace_write_locked();
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
    if (g_inside++ == 0 && g_host_clock != EMU_HOST_CLOCK_NONE) {
        double d = now - g_last_exit;
        if (g_host_clock == EMU_HOST_CLOCK_THREAD && tls_exit_cpu >= 0.0 && cpu >= 0.0)
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
    /* what the next API entry would add (nothing with hostClock=none) */
    if (g_started && g_inside == 0 && g_host_clock != EMU_HOST_CLOCK_NONE) {
        double d = now - g_last_exit;
        if (g_host_clock == EMU_HOST_CLOCK_THREAD && tls_exit_cpu >= 0.0 && cpu >= 0.0)
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

/* ------------------------------------------------------ records, queues */

static void rec_unref_locked(emu_rec_t *r)
{
    if (--r->refs == 0) {
        free(r->spans);
        free(r);
    }
}

/* see model.h */
void emu_model_timeline_init(emu_timeline_t *tl, uint32_t rank_id)
{
    emu_mrank_t *mr = calloc(1, sizeof *mr);
    tl->mr = NULL;
    if (mr == NULL)
        return; /* this rank's jobs take no modeled time */
    mr->row = rank_id + 1;
    pthread_mutex_lock(&g_mu);
    if (g_nranks + 1 > g_scr_cap) {
        size_t cap = g_scr_cap ? g_scr_cap * 2 : 64;
        emu_mrank_t **v = realloc(g_scr, cap * sizeof *v);
        if (v == NULL) {
            pthread_mutex_unlock(&g_mu);
            free(mr);
            return;
        }
        g_scr = v;
        g_scr_cap = cap;
    }
    if (g_ranks_tail)
        g_ranks_tail->next = mr;
    else
        g_ranks = mr;
    g_ranks_tail = mr;
    g_nranks++;
    tl->mr = mr;
    pthread_mutex_unlock(&g_mu);
}

/* Frees the retired queues whose records are all simulated. */
static void prune_ranks_locked(void)
{
    emu_mrank_t *prev = NULL, *mr = g_ranks;
    while (mr) {
        emu_mrank_t *next = mr->next;
        if (mr->retired && mr->head == NULL) {
            if (prev)
                prev->next = next;
            else
                g_ranks = next;
            if (g_ranks_tail == mr)
                g_ranks_tail = prev;
            g_nranks--;
            free(mr);
        } else {
            prev = mr;
        }
        mr = next;
    }
}

/* see model.h */
void emu_model_timeline_retire(emu_timeline_t *tl)
{
    pthread_mutex_lock(&g_mu);
    if (tl->mr)
        tl->mr->retired = true;
    tl->mr = NULL;
    prune_ranks_locked();
    pthread_mutex_unlock(&g_mu);
}

/* see model.h */
uint64_t emu_model_op_id(void)
{
    pthread_mutex_lock(&g_mu);
    uint64_t id = ++g_op_seq;
    pthread_mutex_unlock(&g_mu);
    return id;
}

/* Transfer prices (upmem-perf-facts.md §6; the parameter table in profile.c). */
static void price_xfer(emu_rec_t *r, const emu_rec_desc_t *d)
{
    const model_params_t *m = &d->prof->model;
    double len = (double)d->len, k = (double)d->k;
    r->dir = d->to ? 0 : 1;
    r->phase = d->to ? DPU_EMU_PHASE_CPU_DPU : DPU_EMU_PHASE_DPU_CPU;
    r->name = d->xk == XK_SERIAL ? "copy" : d->xk == XK_BROADCAST ? "broadcast" : "push";
    r->payload = (uint64_t)d->len * d->k;
    r->watts = m->xfer_dpu_w * k;
    r->w = 1.0;
    r->cap = (d->to ? m->cap_to_gibps : m->cap_from_gibps) * 1073741824.0;
    double ser = (d->to ? m->serial_to_gbps : m->serial_from_gbps) * 1e9;
    r->rmax = ser;
    if (d->k == 0)
        return; /* nothing moves: no cost */
    if (d->xk == XK_SERIAL) {
        /* P16/P17 + P24: one DPU after the other, per DPU */
        r->fixed = m->serial_dpu_us * 1e-6;
        r->bytes = len;
        return;
    }
    /* k DPUs of a rank: BW(k) = BW(64) (k/64)^a with a = ln(BW(64)/BW(1)) /
     * ln 64, so that one DPU gets the serial figure (P16/P17) and 64 the
     * rank's (P18/P19; P20 for a broadcast, bytes delivered: a one-DPU
     * broadcast is a one-DPU copy) [D]. */
    double ref = m->rank_ref_dpus > 1.0 ? m->rank_ref_dpus : 1.0;
    double top = d->xk == XK_BROADCAST ? m->bcast_gbps : d->to ? m->par_to_gbps : m->par_from_gbps;
    double alpha = ref > 1.0 ? log(top * 1e9 / ser) / log(ref) : 1.0;
    r->rmax = top * 1e9 * pow(k / ref, alpha);
    r->fixed = ((d->to ? m->call_to_us : m->call_from_us) +
                (d->to ? m->call_rank_to_us : m->call_rank_from_us) * (d->call_ranks - 1)) *
               1e-6;
    r->bytes = len * k;
    /* a broadcast keeps its P20/P18 advantage on the shared path too: each
     * byte it delivers uses P18/P20 of the CPU->DPU cap */
    if (d->xk == XK_BROADCAST)
        r->w = m->par_to_gbps / m->bcast_gbps;
}

/* The callback's own record on mr that this thread is running, if any. */
static emu_rec_t *cb_owner(const emu_mrank_t *mr)
{
    uint32_t depth = tls_cb_depth < CB_MAX ? tls_cb_depth : CB_MAX;
    for (uint32_t f = depth; f-- > 0;)
        for (uint32_t i = 0; i < tls_cb[f].n; i++) {
            emu_rec_t *o = tls_cb[f].own[i];
            if (o && o->mr == mr && !o->done)
                return o;
        }
    return NULL;
}

/* see model.h */
emu_rec_t *emu_model_rec_new(emu_timeline_t *tl, const emu_rec_desc_t *d)
{
    if (tl == NULL || tl->mr == NULL)
        return NULL;
    emu_rec_t *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->kind = d->kind;
    r->op = d->op;
    r->refs = 2; /* the queue's and the caller's */
    r->phase = DPU_EMU_PHASE_OTHER;
    switch (d->kind) {
    case EMU_REC_XFER:
        price_xfer(r, d);
        break;
    case EMU_REC_LAUNCH:
        /* P25: overhead per call and per extra rank; cycles come later */
        r->phase = DPU_EMU_PHASE_KERNEL;
        r->name = "launch";
        r->launch_over =
            (d->prof->model.launch_us + d->prof->model.launch_rank_us * (d->call_ranks - 1)) * 1e-6;
        r->clock_hz = d->prof->vdpu.clock_mhz * 1e6;
        r->fixed = r->launch_over;
        r->watts = d->prof->model.dpu_active_w * (double)d->k;
        break;
    case EMU_REC_TIMED:
        r->phase = d->phase;
        r->name = d->name;
        r->fixed = d->dur;
        break;
    case EMU_REC_CALLBACK:
        r->name = "callback";
        break;
    case EMU_REC_MARK:
    case EMU_REC_BARRIER:
        break;
    }
    pthread_mutex_lock(&g_mu);
    emu_mrank_t *mr = tl->mr;
    r->mr = mr;
    r->seq = ++g_seq;
    emu_rec_t *own = cb_owner(mr);
    if (own) {
        /* a call from inside a callback on its own rank: part of the
         * callback, before its own time, in the order made */
        r->submit = own->submit;
        r->next = own;
        r->prev = own->prev;
        if (own->prev)
            own->prev->next = r;
        else
            mr->head = r;
        own->prev = r;
        if (mr->s.cur == own)
            mr->s.cur = r;
    } else {
        /* later than anything already simulated, which is final */
        r->submit = g_host_t > g_sim_t ? g_host_t : g_sim_t;
        r->prev = mr->tail;
        if (mr->tail)
            mr->tail->next = r;
        else
            mr->head = r;
        mr->tail = r;
        if (mr->s.cur == NULL)
            mr->s.cur = r;
    }
    pthread_mutex_unlock(&g_mu);
    return r;
}

/* see model.h */
void emu_model_link(emu_rec_t *const *recs, uint32_t n)
{
    pthread_mutex_lock(&g_mu);
    emu_rec_t *first = NULL, *last = NULL;
    for (uint32_t i = 0; i < n; i++) {
        if (recs[i] == NULL)
            continue;
        if (last)
            last->link = recs[i];
        else
            first = recs[i];
        last = recs[i];
    }
    if (last)
        last->link = first;
    pthread_mutex_unlock(&g_mu);
}

/* see model.h */
void emu_model_set_cycles(emu_rec_t *r, uint64_t max_cycles)
{
    if (r == NULL)
        return;
    pthread_mutex_lock(&g_mu);
    r->cycles = max_cycles;
    r->fixed = r->launch_over + (double)max_cycles / r->clock_hz;
    pthread_mutex_unlock(&g_mu);
}

/* see model.h */
void emu_model_set_dpu_spans(emu_rec_t *r, const uint64_t (*span)[2], unsigned n)
{
    if (r == NULL || n == 0 || n > 24)
        return;
    pthread_mutex_lock(&g_mu);
    if (g_trace_path != NULL && r->spans == NULL) {
        r->spans = malloc(n * sizeof *r->spans);
        if (r->spans != NULL) {
            memcpy(r->spans, span, n * sizeof *r->spans);
            r->nspans = n;
        }
    }
    pthread_mutex_unlock(&g_mu);
}

/* see model.h */
void emu_model_set_own(emu_rec_t *r, double own)
{
    if (r == NULL)
        return;
    pthread_mutex_lock(&g_mu);
    /* a callback is host code: measured like host work, or not at all */
    r->fixed = g_host_clock == EMU_HOST_CLOCK_NONE || !(own > 0.0) ? 0.0 : own;
    pthread_mutex_unlock(&g_mu);
}

/* see model.h */
void emu_model_ready(emu_rec_t *r)
{
    if (r == NULL)
        return;
    pthread_mutex_lock(&g_mu);
    r->ready = true;
    pthread_cond_broadcast(&g_cv);
    pthread_mutex_unlock(&g_mu);
}

/* see model.h */
void emu_model_cancel(emu_rec_t *r)
{
    if (r == NULL)
        return;
    pthread_mutex_lock(&g_mu);
    r->cancelled = true;
    r->ready = true;
    pthread_cond_broadcast(&g_cv);
    pthread_mutex_unlock(&g_mu);
}

/* see model.h */
void emu_model_put(emu_rec_t *r)
{
    if (r == NULL)
        return;
    pthread_mutex_lock(&g_mu);
    rec_unref_locked(r);
    pthread_mutex_unlock(&g_mu);
}

/* see model.h */
void emu_model_cb_enter(emu_rec_t *const *own, uint32_t n)
{
    if (tls_cb_depth < CB_MAX) {
        tls_cb[tls_cb_depth].own = own;
        tls_cb[tls_cb_depth].n = n;
    }
    tls_cb_depth++;
}

/* see model.h */
void emu_model_cb_leave(void)
{
    tls_cb_depth--;
}

/* ---------------------------------------------------------- simulation */

/* Totals and trace of a record the simulation ended at `end`. */
static void account_locked(const emu_mrank_t *mr, const emu_rec_t *r, double start, double end)
{
    if (r->cancelled)
        return; /* never executed: takes no time, counts for nothing */
    double dur = end - start;
    switch (r->kind) {
    case EMU_REC_XFER:
        g_nr_xfer++;
        if (r->dir == 0)
            g_bytes_to += r->payload;
        else
            g_bytes_from += r->payload;
        break;
    case EMU_REC_LAUNCH:
        g_nr_launch++;
        /* the slowest DPU of the last launch call (whatever the order in
         * which its records end) */
        if (r->op > g_last_launch_op) {
            g_last_launch_op = r->op;
            g_cycles_max = r->cycles;
        } else if (r->op == g_last_launch_op && r->cycles > g_cycles_max) {
            g_cycles_max = r->cycles;
        }
        break;
    case EMU_REC_MARK:
    case EMU_REC_BARRIER:
        return;
    default:
        break;
    }
    ivals_add(&g_phase[r->phase], start, end);
    g_phase_fx[r->phase] += (__int128)ldexp(dur, FX_SHIFT);
    g_energy_fx[r->phase] += (__int128)ldexp(dur * r->watts, FX_SHIFT);
    trace_add(r->name, mr->row, start, dur, r->payload);
    /* the slowest DPU's tasklets, each on its own row under the rank's */
    static const char *const tasklet_names[24] = {
        "tasklet 0",  "tasklet 1",  "tasklet 2",  "tasklet 3",  "tasklet 4",  "tasklet 5",
        "tasklet 6",  "tasklet 7",  "tasklet 8",  "tasklet 9",  "tasklet 10", "tasklet 11",
        "tasklet 12", "tasklet 13", "tasklet 14", "tasklet 15", "tasklet 16", "tasklet 17",
        "tasklet 18", "tasklet 19", "tasklet 20", "tasklet 21", "tasklet 22", "tasklet 23"};
    for (unsigned k = 0; k < r->nspans && k < 24; k++)
        trace_add(tasklet_names[k], TRACE_DPU_ROW(mr->row, k),
                  start + r->launch_over + (double)r->spans[k][0] / r->clock_hz,
                  (double)(r->spans[k][1] - r->spans[k][0]) / r->clock_hz, 0);
}

/* mr's current record ends at `end`; committing also records it and takes
 * it off the queue, a projection only moves the cursor. */
static void rec_finish(emu_mrank_t *mr, double end, bool commit)
{
    emu_rec_t *r = mr->s.cur;
    mr->s.prev_end = end;
    mr->s.st = ST_IDLE;
    mr->s.cur = r->next;
    if (!commit)
        return;
    r->done = true;
    r->end = end;
    if (r->link && r->link != r) {
        /* a dropped member leaves its barrier group before it can be freed
         * (the others may still wait) */
        emu_rec_t *p = r->link;
        while (p->link != r)
            p = p->link;
        p->link = r->link;
        r->link = NULL;
    }
    account_locked(mr, r, mr->s.start, end);
    mr->head = r->next;
    if (mr->head)
        mr->head->prev = NULL;
    else
        mr->tail = NULL;
    r->next = r->prev = NULL;
    rec_unref_locked(r);
}

/* Every (not cancelled) record of r's barrier group waits at it. */
static bool group_arrived(emu_rec_t *r)
{
    emu_rec_t *x = r;
    do {
        if (!x->cancelled && (x->mr->s.cur != x || x->mr->s.st != ST_BARRIER))
            return false;
        x = x->link ? x->link : x;
    } while (x != r);
    return true;
}

/* Starts, at g_sim_t, every record that can start (zero-length ones end at
 * once). Returns true if one could start now but is not ready: the
 * simulation cannot pass g_sim_t before it is. */
static bool start_heads(bool commit)
{
    bool blocked = false, again;
    do {
        again = false;
        for (emu_mrank_t *mr = g_ranks; mr; mr = mr->next) {
            msim_t *s = &mr->s;
            if (s->st == ST_OPEN && s->cur->ready) {
                /* its cycles are known now: it ends at start + duration,
                 * perhaps before g_sim_t if nothing waited for it */
                double end = s->start + (s->cur->cancelled ? 0.0 : s->cur->fixed);
                if (end > g_sim_t) {
                    s->st = ST_TIMED;
                    s->t_timed_end = end;
                } else {
                    rec_finish(mr, end, commit);
                }
            }
            while (s->st == ST_IDLE && s->cur) {
                emu_rec_t *r = s->cur;
                double earliest = r->submit > s->prev_end ? r->submit : s->prev_end;
                if (earliest > g_sim_t)
                    break;
                s->start = g_sim_t;
                if (!r->ready && r->kind == EMU_REC_LAUNCH) {
                    /* a launch needs no bandwidth: it may start before its
                     * cycles are known (sim_run waits for them only when
                     * something depends on its end) */
                    s->st = ST_OPEN;
                    break;
                }
                if (!r->ready) {
                    blocked = true;
                    break;
                }
                if (r->kind == EMU_REC_BARRIER && !r->cancelled) {
                    s->st = ST_BARRIER;
                    again = true;
                    break;
                }
                if (r->cancelled || (r->fixed <= 0.0 && r->bytes <= 0.0)) {
                    rec_finish(mr, g_sim_t, commit);
                    continue;
                }
                if (r->fixed > 0.0) {
                    s->st = ST_TIMED;
                    s->t_timed_end = g_sim_t + r->fixed;
                } else {
                    s->st = ST_DATA;
                    s->left = r->bytes;
                }
            }
        }
        for (emu_mrank_t *mr = g_ranks; mr; mr = mr->next) {
            if (mr->s.st != ST_BARRIER || !group_arrived(mr->s.cur))
                continue;
            /* the group starts: every member ends now; committing, the
             * group dissolves first (a member may be freed on ending) */
            emu_rec_t *r = mr->s.cur, *x = r;
            do {
                emu_rec_t *nx = x->link ? x->link : x;
                if (commit)
                    x->link = NULL;
                if (!x->cancelled)
                    rec_finish(x->mr, g_sim_t, commit);
                x = nx;
            } while (x != r);
            again = true;
        }
    } while (again);
    return blocked;
}

/* Rates of the transfers in their shared phase: per direction, max-min
 * fair (water-filling) in cap units under each one's own bandwidth, the
 * total within the direction's cap. */
static void compute_rates(void)
{
    for (int dir = 0; dir < 2; dir++) {
        size_t n = 0;
        double cap = INFINITY;
        for (emu_mrank_t *mr = g_ranks; mr; mr = mr->next) {
            if (mr->s.st != ST_DATA || mr->s.cur->dir != dir)
                continue;
            /* insertion sort by own limit in cap units, then age */
            emu_rec_t *r = mr->s.cur;
            double u = r->rmax * r->w;
            size_t i = n++;
            while (i > 0) {
                emu_rec_t *q = g_scr[i - 1]->s.cur;
                double uq = q->rmax * q->w;
                if (uq < u || (uq == u && q->seq < r->seq))
                    break;
                g_scr[i] = g_scr[i - 1];
                i--;
            }
            g_scr[i] = mr;
            if (r->cap < cap)
                cap = r->cap;
        }
        double c = cap;
        size_t i = 0, m = n;
        for (; i < n; i++) {
            emu_rec_t *r = g_scr[i]->s.cur;
            double u = r->rmax * r->w;
            if (u > c / (double)m)
                break;
            g_scr[i]->s.rate = r->rmax; /* below its fair share: its own bandwidth */
            c -= u;
            m--;
        }
        double share = m ? c / (double)m : 0.0;
        for (; i < n; i++)
            g_scr[i]->s.rate = share / g_scr[i]->s.cur->w;
    }
}

/* Time of the next start or end (INFINITY: none). */
static double next_event(void)
{
    double t = INFINITY;
    for (emu_mrank_t *mr = g_ranks; mr; mr = mr->next) {
        msim_t *s = &mr->s;
        double e = INFINITY;
        if (s->st == ST_IDLE && s->cur)
            e = s->cur->submit > s->prev_end ? s->cur->submit : s->prev_end;
        else if (s->st == ST_TIMED)
            e = s->t_timed_end;
        else if (s->st == ST_DATA)
            e = s->ev = g_sim_t + s->left / s->rate;
        if (e < t)
            t = e;
    }
    return t;
}

static void seg_log(const emu_mrank_t *mr, double t1)
{
    if (g_nseg == g_capseg) {
        size_t cap = g_capseg ? g_capseg * 2 : 1024;
        emu_model_seg_t *v = realloc(g_seg, cap * sizeof *v);
        if (v == NULL)
            return;
        g_seg = v;
        g_capseg = cap;
    }
    const emu_rec_t *r = mr->s.cur;
    g_seg[g_nseg++] = (emu_model_seg_t){g_sim_t, t1,      mr->row, r->dir, mr->s.rate,
                                        r->w,    r->rmax, r->cap,  r->seq, r->bytes};
}

/* Moves the simulation to t (the next event) and ends what ends there. */
static void step_to(double t, bool commit)
{
    double dt = t - g_sim_t;
    for (emu_mrank_t *mr = g_ranks; mr; mr = mr->next) {
        msim_t *s = &mr->s;
        if (s->st != ST_DATA)
            continue;
        if (commit && g_seg_on)
            seg_log(mr, t);
        s->left = s->ev <= t ? 0.0 : s->left - s->rate * dt;
    }
    g_sim_t = t;
    for (emu_mrank_t *mr = g_ranks; mr; mr = mr->next) {
        msim_t *s = &mr->s;
        if (s->st == ST_TIMED && s->t_timed_end <= t) {
            if (s->cur->kind == EMU_REC_XFER && s->cur->bytes > 0.0) {
                s->st = ST_DATA;
                s->left = s->cur->bytes;
            } else {
                rec_finish(mr, t, commit);
            }
        } else if (s->st == ST_DATA && s->left <= s->cur->bytes * 1e-12) {
            /* rounding residue of a transfer ending at t (at most 1e-12 of it) */
            rec_finish(mr, t, commit);
        }
    }
}

/* Must the simulation know an open launch's end before it goes on to t?
 * Yes if t may be at or after that end (it ends at or after start +
 * overhead) and something depends on it: the rank's next record, or, when
 * the caller needs the whole timeline up to `horizon` (not open_ok), the
 * totals. */
static bool open_blocks(double t, double horizon, bool open_ok)
{
    for (emu_mrank_t *mr = g_ranks; mr; mr = mr->next) {
        const msim_t *s = &mr->s;
        if (s->st != ST_OPEN)
            continue;
        double lb = s->start + s->cur->launch_over;
        if (s->cur->next ? t >= lb : !open_ok && horizon >= lb)
            return true;
    }
    return false;
}

/* Runs the simulation in time order, committing, up to `target` or until
 * done(arg); waits for records to become ready when may_wait (else stops
 * at the first one that is not). open_ok: a launch still running on its
 * worker may stay open if nothing depends on its end (a synchronous
 * completion elsewhere need not wait for that kernel's simulation). */
static void sim_run(double target, bool (*done)(void *), void *arg, bool may_wait, bool open_ok)
{
    for (;;) {
        bool blocked = start_heads(true);
        if (done && done(arg))
            break;
        double t = INFINITY;
        if (!blocked) {
            compute_rates();
            t = next_event();
            blocked = open_blocks(t, t < target ? t : target, open_ok);
        }
        if (blocked) {
            if (!may_wait || g_sim_t >= target)
                break;
            pthread_cond_wait(&g_cv, &g_mu);
            continue;
        }
        if (!(t <= target) || t == INFINITY)
            break;
        step_to(t, true);
    }
    prune_ranks_locked();
    pthread_cond_broadcast(&g_cv);
}

typedef struct {
    emu_rec_t *const *recs;
    uint32_t n;
} wait_arg_t;

static bool all_done(void *arg)
{
    const wait_arg_t *a = arg;
    for (uint32_t i = 0; i < a->n; i++)
        if (a->recs[i] && !a->recs[i]->done)
            return false;
    return true;
}

/* see model.h */
double emu_model_wait(emu_rec_t *const *recs, uint32_t n)
{
    wait_arg_t a = {recs, n};
    pthread_mutex_lock(&g_mu);
    /* a worker or a callback only runs what is known, up to the host's
     * present, so that it never waits for itself */
    if (no_wait())
        sim_run(g_host_t, all_done, &a, false, true);
    else
        sim_run(INFINITY, all_done, &a, true, true);
    double end = -1.0;
    if (all_done(&a))
        for (uint32_t i = 0; i < n; i++)
            if (recs[i] && recs[i]->end > end)
                end = recs[i]->end;
    pthread_mutex_unlock(&g_mu);
    return end;
}

/* ------------------------------------------------- for <dpu_emu.h> */

/* see model.h */
void emu_model_get_stats(dpu_emu_stats_t *s)
{
    pthread_mutex_lock(&g_mu);
    sim_run(g_host_t, NULL, NULL, !no_wait(), false);
    double h = g_host_t;
    memset(s, 0, sizeof *s);
    s->host_time = h;
    s->host_work = g_host_work;
    /* what runs at the host's present counts up to the present */
    ivals_t extra[DPU_EMU_NR_PHASES];
    memset(extra, 0, sizeof extra);
    __int128 fx[DPU_EMU_NR_PHASES], efx[DPU_EMU_NR_PHASES];
    for (int p = 0; p < DPU_EMU_NR_PHASES; p++) {
        fx[p] = g_phase_fx[p];
        efx[p] = g_energy_fx[p];
    }
    for (emu_mrank_t *mr = g_ranks; mr; mr = mr->next) {
        const msim_t *m = &mr->s;
        if ((m->st == ST_TIMED || m->st == ST_DATA || m->st == ST_OPEN) && m->start < h) {
            dpu_emu_phase_t p = m->cur->phase;
            ivals_add(&extra[p], m->start, h);
            fx[p] += (__int128)ldexp(h - m->start, FX_SHIFT);
            efx[p] += (__int128)ldexp((h - m->start) * m->cur->watts, FX_SHIFT);
        }
    }
    for (int p = 0; p < DPU_EMU_NR_PHASES; p++)
        s->phase_rank_sum[p] = ldexp((double)fx[p], -FX_SHIFT);
    s->energy_static = g_static_j + (h > g_static_t ? g_static_w * (h - g_static_t) : 0.0);
    s->energy = s->energy_static;
    for (int p = 0; p < DPU_EMU_NR_PHASES; p++) {
        s->energy_phase[p] = ldexp((double)efx[p], -FX_SHIFT);
        s->energy += s->energy_phase[p];
    }
    for (int p = 0; p < DPU_EMU_NR_PHASES; p++) {
        ivals_union(&g_phase[p]);
        for (size_t i = 0; i < g_phase[p].n; i++)
            ivals_add(&extra[p], g_phase[p].v[i].a, g_phase[p].v[i].b);
        s->phase[p] = ivals_union(&extra[p]);
        free(extra[p].v);
    }
    s->bytes_to_dpu = g_bytes_to;
    s->bytes_from_dpu = g_bytes_from;
    s->nr_launches = g_nr_launch;
    s->nr_transfers = g_nr_xfer;
    s->dpu_cycles_max = g_cycles_max;
    pthread_mutex_unlock(&g_mu);
}

typedef struct {
    const emu_mrank_t *mr;
} drained_arg_t;

/* see model.h */
void emu_model_static_power(double delta_w)
{
    pthread_mutex_lock(&g_mu);
    if (g_host_t > g_static_t)
        g_static_j += g_static_w * (g_host_t - g_static_t);
    g_static_t = g_host_t > g_static_t ? g_host_t : g_static_t;
    g_static_w += delta_w;
    if (g_static_w < 1e-12)
        g_static_w = 0.0; /* every allocation freed: no rounding residue */
    pthread_mutex_unlock(&g_mu);
}

/* see model.h */
double emu_model_rank_end(emu_timeline_t *tl)
{
    pthread_mutex_lock(&g_mu);
    emu_mrank_t *target = tl->mr;
    double t = 0.0;
    msim_t *save = malloc((g_nranks ? g_nranks : 1) * sizeof *save);
    if (target == NULL || save == NULL) {
        pthread_mutex_unlock(&g_mu);
        free(save);
        return t;
    }
    /* a projection: run on the rank states, then put them back */
    size_t i = 0;
    for (emu_mrank_t *mr = g_ranks; mr; mr = mr->next)
        save[i++] = mr->s;
    double sim_t = g_sim_t;
    for (;;) {
        bool blocked = start_heads(false);
        if (target->s.cur == NULL || blocked)
            break;
        compute_rates();
        double e = next_event();
        if (e == INFINITY || open_blocks(e, e, false))
            break;
        step_to(e, false);
    }
    t = target->s.prev_end;
    i = 0;
    for (emu_mrank_t *mr = g_ranks; mr; mr = mr->next)
        mr->s = save[i++];
    g_sim_t = sim_t;
    pthread_mutex_unlock(&g_mu);
    free(save);
    return t;
}

/* see model.h */
void emu_model_reset(void)
{
    pthread_mutex_lock(&g_mu);
    sim_run(INFINITY, NULL, NULL, !no_wait(), false);
    g_host_t = g_host_work = g_sim_t = 0.0;
    for (emu_mrank_t *mr = g_ranks; mr; mr = mr->next) {
        mr->s.prev_end = 0.0;
        /* left over only if a record never became ready: start afresh */
        for (emu_rec_t *r = mr->head; r; r = r->next)
            r->submit = 0.0;
    }
    for (int p = 0; p < DPU_EMU_NR_PHASES; p++) {
        g_phase[p].n = 0;
        g_phase_fx[p] = 0;
        g_energy_fx[p] = 0;
    }
    g_static_j = g_static_t = 0.0; /* the allocated ranks keep drawing g_static_w */
    g_bytes_to = g_bytes_from = g_nr_launch = g_nr_xfer = g_cycles_max = 0;
    g_last_launch_op = 0;
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
    /* the trace holds the modeled timeline up to the host's present */
    sim_run(g_host_t, NULL, NULL, !no_wait(), false);
    dpu_error_t err = trace_write_locked();
    free(g_trace_path);
    g_trace_path = NULL;
    g_nev = 0;
    pthread_mutex_unlock(&g_mu);
    return err;
}

/* ---------------------------------------------------- test support */

/* see model.h */
void emu_model_debug_segments(bool on)
{
    pthread_mutex_lock(&g_mu);
    g_seg_on = on;
    if (on)
        g_nseg = 0;
    pthread_mutex_unlock(&g_mu);
}

/* see model.h */
emu_model_seg_t *emu_model_debug_take(size_t *n)
{
    pthread_mutex_lock(&g_mu);
    emu_model_seg_t *v = g_nseg ? malloc(g_nseg * sizeof *v) : NULL;
    *n = v ? g_nseg : 0;
    if (v)
        memcpy(v, g_seg, g_nseg * sizeof *v);
    pthread_mutex_unlock(&g_mu);
    return v;
}
