/*
 * clock.c -- the real clocks, and the program's own clock calls on the
 * modeled clock (clock.h; docs/VIRTUAL_UPMEM_HOST.md §4.1).
 *
 * Why here: PrIM and most UPMEM host programs time themselves with the
 * host's wall clock (gettimeofday in PrIM's support/timer.h), so on the
 * virtual UPMEM they print how long the *simulation* took. A program links
 * libdpu.a statically, so the definitions below take the place of libc's
 * for the whole executable (libc's are shared: the executable's own
 * definition wins); shared libraries keep calling libc's. With the modeled
 * time off (the default) each passes straight to libc's clock_gettime,
 * found with dlsym(RTLD_NEXT) (vDSO speed; the raw system call if dlsym
 * finds nothing, as in a fully static executable).
 *
 * With it on, the realtime, monotonic (+ raw, coarse, boottime, TAI) and
 * process-CPU clocks return "value at switch-on + modeled host time since
 * switch-on", so a program's timer differences are modeled durations;
 * thread-CPU clocks stay real (hostClock=thread measures host work with
 * them, and a thread's CPU time has no modeled counterpart).
 *
 * The library itself never reads these: it calls emu_clock_real.
 */
#define _GNU_SOURCE /* RTLD_NEXT, syscall, struct timezone */
#include "clock.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

/* ------------------------------------------------------------ real clock */

typedef int (*real_clock_fn)(clockid_t, struct timespec *);
static _Atomic real_clock_fn g_real;

static int real_by_syscall(clockid_t id, struct timespec *ts)
{
    return syscall(SYS_clock_gettime, id, ts) == 0 ? 0 : -1;
}

/* libc's clock_gettime: the next definition after this executable's (ours),
 * resolved once (two threads racing both find the same one). */
static real_clock_fn real_resolve(void)
{
    void *sym = dlsym(RTLD_NEXT, "clock_gettime");
    real_clock_fn f = NULL;
    _Static_assert(sizeof sym == sizeof f, "function and data pointers differ");
    memcpy(&f, &sym, sizeof f); /* POSIX: dlsym's result may be a function */
    if (f == NULL || f == clock_gettime)
        f = real_by_syscall;
    atomic_store_explicit(&g_real, f, memory_order_release);
    return f;
}

/* see clock.h */
int emu_clock_real(clockid_t id, struct timespec *ts)
{
    real_clock_fn f = atomic_load_explicit(&g_real, memory_order_acquire);
    if (f == NULL)
        f = real_resolve();
    return f(id, ts);
}

/* ---------------------------------------------------------- modeled time */

/* The clocks that become modeled, each with its own offset. */
static const clockid_t g_ids[] = {
    CLOCK_REALTIME,        CLOCK_MONOTONIC,        CLOCK_PROCESS_CPUTIME_ID, CLOCK_MONOTONIC_RAW,
    CLOCK_REALTIME_COARSE, CLOCK_MONOTONIC_COARSE, CLOCK_BOOTTIME,           CLOCK_TAI,
};
#define NR_IDS (sizeof g_ids / sizeof g_ids[0])

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static atomic_bool g_on;         /* fast path: modeled time is on      */
static emu_clock_source_t g_src; /* under g_mu                        */
static int64_t g_offset[NR_IDS]; /* real ns at switch-on - modeled ns  */
static bool g_has[NR_IDS];       /* the real clock exists here         */
static double g_last;            /* last modeled time read             */
static int64_t g_shift;          /* keeps the clocks from going back   */
/* This thread is inside a modeled read: a nested call (a signal handler,
 * or anything the source might call) reads the real clock instead of
 * taking g_mu again. */
static _Thread_local bool tls_busy;

static int64_t ts_ns(const struct timespec *ts)
{
    return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

static int64_t sec_ns(double s)
{
    return (int64_t)llround(s * 1e9);
}

static void ns_ts(int64_t ns, struct timespec *ts)
{
    int64_t s = ns / 1000000000, r = ns % 1000000000;
    if (r < 0) { /* not for the clocks' real values, but a program may run early */
        r += 1000000000;
        s--;
    }
    ts->tv_sec = (time_t)s;
    ts->tv_nsec = (long)r;
}

/* see clock.h */
void emu_clock_set_source(emu_clock_source_t source)
{
    tls_busy = true;
    pthread_mutex_lock(&g_mu);
    if (source == NULL) {
        atomic_store(&g_on, false);
        g_src = NULL;
    } else if (g_src == NULL) {
        double now = source();
        for (size_t k = 0; k < NR_IDS; k++) {
            struct timespec ts;
            g_has[k] = emu_clock_real(g_ids[k], &ts) == 0;
            g_offset[k] = g_has[k] ? ts_ns(&ts) - sec_ns(now) : 0;
        }
        g_last = now;
        g_shift = 0;
        g_src = source;
        atomic_store(&g_on, true);
    }
    pthread_mutex_unlock(&g_mu);
    tls_busy = false;
}

/* see clock.h */
bool emu_clock_modeled(void)
{
    return atomic_load(&g_on);
}

/* Clock k of g_ids on the modeled clock; false if the modeled time is off
 * (or this is a nested call): then the caller reads the real clock. */
static bool modeled(size_t k, struct timespec *ts)
{
    if (!atomic_load_explicit(&g_on, memory_order_acquire) || tls_busy)
        return false;
    tls_busy = true;
    pthread_mutex_lock(&g_mu);
    bool ok = g_src != NULL && g_has[k];
    if (ok) {
        double now = g_src();
        /* The modeled time may step back: dpu_emu_reset restarts it at 0,
         * and with hostClock=thread the host work another thread's API call
         * adds can be less than the wall time read meanwhile. A clock must
         * not go back, so the step is absorbed: the clocks stand still for
         * it and advance with the modeled time from there. */
        if (now < g_last)
            g_shift += sec_ns(g_last) - sec_ns(now);
        g_last = now;
        ns_ts(g_offset[k] + g_shift + sec_ns(now), ts);
    }
    pthread_mutex_unlock(&g_mu);
    tls_busy = false;
    return ok;
}

static int read_clock(clockid_t id, struct timespec *ts)
{
    for (size_t k = 0; k < NR_IDS; k++)
        if (g_ids[k] == id)
            return modeled(k, ts) ? 0 : emu_clock_real(id, ts);
    return emu_clock_real(id, ts); /* thread CPU, CPU-time ids of other threads */
}

/* --------------------------------------- the program's clock calls (libc) */

int clock_gettime(clockid_t id, struct timespec *ts)
{
    return read_clock(id, ts);
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
    struct timespec ts;
    if (tz != NULL) /* obsolete; glibc fills it with zeros too */
        memset(tz, 0, sizeof(struct timezone));
    if (read_clock(CLOCK_REALTIME, &ts) != 0)
        return -1;
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = (suseconds_t)(ts.tv_nsec / 1000);
    return 0;
}

time_t time(time_t *out)
{
    struct timespec ts;
    if (read_clock(CLOCK_REALTIME, &ts) != 0)
        return (time_t)-1;
    if (out != NULL)
        *out = ts.tv_sec;
    return ts.tv_sec;
}

int timespec_get(struct timespec *ts, int base)
{
    if (base != TIME_UTC || read_clock(CLOCK_REALTIME, ts) != 0)
        return 0;
    return base;
}

/* CPU time of the process: with the modeled time on, modeled host time (the
 * program's CPU time is host work, and clock() is a common timer). */
clock_t clock(void)
{
    struct timespec ts;
    if (read_clock(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return (clock_t)-1;
    return (clock_t)(ts.tv_sec * CLOCKS_PER_SEC + ts.tv_nsec / (1000000000 / CLOCKS_PER_SEC));
}
