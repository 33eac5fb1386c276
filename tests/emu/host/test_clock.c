/*
 * tests/emu/host/test_clock.c -- the program's own clock calls on the
 * modeled clock (hostTime=modeled, emu/host/clock.c), the real SDK's
 * profile keys, and the named machines (machine=NAME).
 *
 * Linked into test-host (with the other tests/emu/host files); they register
 * themselves (TEST) and run from the folder holding basic.dpu.
 */
#define _DEFAULT_SOURCE
#include <dpu.h>
#include <dpu_emu.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "profile.h"
#include "test.h"

#define CHECK_ERR(call, want)                                                                      \
    do {                                                                                           \
        dpu_error_t e_ = (call);                                                                   \
        CHECK(e_ == (want), "line %d: %s returned %d, want %d (%s)", __LINE__, #call, (int)e_,     \
              (int)(want), #want);                                                                 \
    } while (0)
#define OK(call) CHECK_ERR(call, DPU_OK)

/* PrIM's support/timer.h (Timer, start, stop), as its benchmarks time
 * themselves: microseconds of gettimeofday, accumulated per slot. */
typedef struct {
    struct timeval startTime[4], stopTime[4];
    double time[4];
} prim_timer;

static void prim_start(prim_timer *t, int i, int rep)
{
    if (rep == 0)
        t->time[i] = 0.0;
    gettimeofday(&t->startTime[i], NULL);
}

static void prim_stop(prim_timer *t, int i)
{
    gettimeofday(&t->stopTime[i], NULL);
    t->time[i] += (t->stopTime[i].tv_sec - t->startTime[i].tv_sec) * 1000000.0 +
                  (t->stopTime[i].tv_usec - t->startTime[i].tv_usec);
}

static double ts_s(const struct timespec *ts)
{
    return (double)ts->tv_sec + (double)ts->tv_nsec * 1e-9;
}

/* ",hostClock=none" when the profile knows it (host work charged as zero,
 * so the timers must equal the phases exactly), else "". */
static const char *g_none;

static const char *host_clock_none(void)
{
    if (g_none != NULL)
        return g_none;
    struct dpu_set_t set;
    int fd = dup(2), null = open("/dev/null", O_WRONLY);
    dup2(null, 2); /* the refusal's line on stderr is expected */
    dpu_error_t e = dpu_alloc(1, "hostClock=none", &set);
    dup2(fd, 2);
    close(fd);
    close(null);
    if (e != DPU_OK)
        return g_none = "";
    dpu_free(set);
    return g_none = ",hostClock=none";
}

/* One timed step as PrIM times it, with clock_gettime and clock() read
 * inside the same window: each must equal the step's modeled phase time,
 * plus at most the host work the model counted around it, to the clock's
 * resolution (gettimeofday and clock(): 1 us; clock_gettime: 1 ns). */
typedef struct {
    dpu_emu_stats_t s0;
    prim_timer t;
    struct timespec m0, r0;
    clock_t c0;
} window;

static void window_open(window *w)
{
    dpu_emu_get_stats(&w->s0);
    prim_start(&w->t, 1, 0);
    clock_gettime(CLOCK_MONOTONIC, &w->m0);
    clock_gettime(CLOCK_REALTIME, &w->r0);
    w->c0 = clock();
}

static double window_close(window *w, dpu_emu_phase_t phase, const char *what)
{
    clock_t c1 = clock();
    struct timespec m1, r1;
    clock_gettime(CLOCK_REALTIME, &r1);
    clock_gettime(CLOCK_MONOTONIC, &m1);
    prim_stop(&w->t, 1);
    dpu_emu_stats_t s1;
    dpu_emu_get_stats(&s1);
    double want = s1.phase[phase] - w->s0.phase[phase];
    double hw = s1.host_work - w->s0.host_work;
    double timer = w->t.time[1] * 1e-6, mono = ts_s(&m1) - ts_s(&w->m0);
    double real = ts_s(&r1) - ts_s(&w->r0);
    double cpu = (double)(c1 - w->c0) / CLOCKS_PER_SEC;
    CHECK(timer >= want - 1.001e-6 && timer <= want + hw + 1.001e-6,
          "%s: PrIM timer %.9f s, modeled phase %.9f s (+ host work %.9f s)", what, timer, want,
          hw);
    /* the double sums of the model round at ~1e-15 s; the clocks at 1 ns */
    CHECK(mono >= want - 2e-9 && mono <= want + hw + 2e-9,
          "%s: CLOCK_MONOTONIC %.9f s, modeled phase %.9f s (+ %.9f)", what, mono, want, hw);
    CHECK(real >= want - 2e-6 && real <= want + hw + 2e-6,
          "%s: CLOCK_REALTIME %.9f s, modeled phase %.9f s (+ %.9f)", what, real, want, hw);
    CHECK(cpu >= want - 2.001e-6 && cpu <= want + hw + 2.001e-6,
          "%s: clock() %.9f s, modeled phase %.9f s (+ %.9f)", what, cpu, want, hw);
    printf("# %s: PrIM timer %.6f ms, modeled %.6f ms, host work %.6f ms (hostClock%s)\n", what,
           timer * 1e3, want * 1e3, hw * 1e3, *g_none ? "=none" : "=wall");
    return want;
}

/* A PrIM-style host program (CPU-DPU, kernel, DPU-CPU, each bracketed by
 * PrIM's timer) prints the modeled phase times with hostTime=modeled. */
TEST(emu_host_modeled_time_prim_timer)
{
    char profile[128];
    snprintf(profile, sizeof profile, "nrRanks=1,nrDpusPerRank=4,hostTime=modeled%s",
             host_clock_none());
    struct dpu_set_t set, dpu;
    OK(dpu_alloc(4, profile, &set));
    CHECK(emu_clock_modeled(), "hostTime=modeled did not turn the modeled time on");
    OK(dpu_load(set, "basic.dpu", NULL));
    enum { N = 4096 };
    static uint64_t in[4][N], out[4][N];
    for (int d = 0; d < 4; d++)
        for (int i = 0; i < N; i++)
            in[d][i] = (uint64_t)(d * N + i);
    uint32_t n = N, i;
    uint64_t bias = 7;
    OK(dpu_broadcast_to(set, "n_elems", 0, &n, sizeof n, DPU_XFER_DEFAULT));
    OK(dpu_broadcast_to(set, "bias", 0, &bias, sizeof bias, DPU_XFER_DEFAULT));

    window w;
    window_open(&w); /* PrIM CPU-DPU, SERIAL */
    DPU_FOREACH (set, dpu, i)
        OK(dpu_copy_to(dpu, DPU_MRAM_HEAP_POINTER_NAME, 0, in[i], sizeof in[i]));
    double to = window_close(&w, DPU_EMU_PHASE_CPU_DPU, "CPU-DPU (4 x dpu_copy_to)");
    window_open(&w);
    OK(dpu_launch(set, DPU_SYNCHRONOUS));
    double k = window_close(&w, DPU_EMU_PHASE_KERNEL, "DPU kernel (dpu_launch)");
    window_open(&w); /* PrIM DPU-CPU, PUSH */
    DPU_FOREACH (set, dpu, i)
        OK(dpu_prepare_xfer(dpu, out[i]));
    OK(dpu_push_xfer(set, DPU_XFER_FROM_DPU, DPU_MRAM_HEAP_POINTER_NAME, sizeof in[0],
                     sizeof out[0], DPU_XFER_DEFAULT));
    double from = window_close(&w, DPU_EMU_PHASE_DPU_CPU, "DPU-CPU (dpu_push_xfer)");
    CHECK(to > 0 && k > 0 && from > 0, "a phase was not priced: %g %g %g", to, k, from);
    for (int d = 0; d < 4; d++)
        CHECK(out[d][5] == in[d][5] * 2 + bias, "DPU %d computed %llu", d,
              (unsigned long long)out[d][5]);
    OK(dpu_free(set));
    OK(dpu_alloc(1, "hostTime=real", &set)); /* the real clocks for the later tests */
    CHECK(!emu_clock_modeled(), "hostTime=real did not turn the modeled time off");
    OK(dpu_free(set));
}

/* Host work between calls is charged as hostClock says: a 30 ms sleep
 * advances the modeled clock with hostClock=wall, not with =thread; the
 * clock never goes back, not even over dpu_emu_reset; time(), timespec_get
 * and gettimeofday agree. */
TEST(emu_host_modeled_time_host_work)
{
    struct dpu_set_t set;
    OK(dpu_alloc(1, "hostTime=modeled,hostClock=thread", &set));
    struct timespec a, b, c;
    clock_gettime(CLOCK_MONOTONIC, &a);
    usleep(30000);
    clock_gettime(CLOCK_MONOTONIC, &b);
    CHECK(ts_s(&b) - ts_s(&a) < 0.010,
          "hostClock=thread: a 30 ms sleep advanced the modeled clock by %.6f s",
          ts_s(&b) - ts_s(&a));
    OK(dpu_free(set));
    OK(dpu_alloc(1, "hostTime=modeled,hostClock=wall", &set));
    clock_gettime(CLOCK_MONOTONIC, &a);
    usleep(30000);
    clock_gettime(CLOCK_MONOTONIC, &b);
    CHECK(ts_s(&b) - ts_s(&a) >= 0.029,
          "hostClock=wall: a 30 ms sleep advanced the modeled clock by %.6f s",
          ts_s(&b) - ts_s(&a));
    dpu_emu_reset(); /* the modeled host time restarts at 0 */
    clock_gettime(CLOCK_MONOTONIC, &c);
    CHECK(ts_s(&c) >= ts_s(&b), "the clock went back over dpu_emu_reset: %.9f -> %.9f", ts_s(&b),
          ts_s(&c));
    struct timeval tv;
    struct timespec ts;
    gettimeofday(&tv, NULL);
    time_t t = time(NULL);
    CHECK(t == tv.tv_sec || t == tv.tv_sec + 1, "time() %lld, gettimeofday %lld", (long long)t,
          (long long)tv.tv_sec);
    CHECK(timespec_get(&ts, TIME_UTC) == TIME_UTC && ts.tv_sec >= tv.tv_sec &&
              ts.tv_sec <= tv.tv_sec + 1,
          "timespec_get %lld, gettimeofday %lld", (long long)ts.tv_sec, (long long)tv.tv_sec);
    /* thread CPU time stays real (hostClock=thread measures with it) */
    struct timespec r0, th, r1;
    emu_clock_real(CLOCK_THREAD_CPUTIME_ID, &r0);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &th);
    emu_clock_real(CLOCK_THREAD_CPUTIME_ID, &r1);
    CHECK(ts_s(&th) >= ts_s(&r0) && ts_s(&th) <= ts_s(&r1), "thread CPU time is not the real one");
    OK(dpu_free(set));
    /* a profile without hostTime keeps the mode; hostTime=real ends it */
    OK(dpu_alloc(1, NULL, &set));
    CHECK(emu_clock_modeled(), "a profile without hostTime turned the modeled time off");
    OK(dpu_free(set));
    OK(dpu_alloc(1, "hostTime=real", &set));
    CHECK(!emu_clock_modeled(), "hostTime=real did not turn the modeled time off");
    struct timespec m, r2;
    emu_clock_real(CLOCK_MONOTONIC, &r0);
    clock_gettime(CLOCK_MONOTONIC, &m);
    emu_clock_real(CLOCK_MONOTONIC, &r2);
    CHECK(ts_s(&m) >= ts_s(&r0) && ts_s(&m) <= ts_s(&r2),
          "off, CLOCK_MONOTONIC is not the real one");
    OK(dpu_free(set));
    CHECK_ERR(dpu_alloc(1, "hostTime=simulated", &set), DPU_ERR_INVALID_PROFILE);
}

/* hostClock=none holds from the call that allocates with it: the host's
 * time before that call (here a 20 ms sleep after a hostClock=wall
 * allocation and a reset) is not charged, so a run that starts with a
 * reset starts its modeled timeline at 0 whatever the clock before it. */
TEST(emu_host_clock_none_from_its_alloc)
{
    if (!*host_clock_none()) {
        test_skip("the profile has no hostClock=none");
        return;
    }
    struct dpu_set_t set;
    OK(dpu_alloc(1, "hostClock=wall", &set));
    OK(dpu_free(set));
    dpu_emu_reset();
    usleep(20000);
    OK(dpu_alloc(1, "hostClock=none", &set));
    dpu_emu_stats_t s;
    dpu_emu_get_stats(&s);
    CHECK(s.host_work == 0.0 && s.host_time == 0.0,
          "after a reset, host work %.9f s and host time %.9f s charged before the hostClock=none "
          "allocation",
          s.host_work, s.host_time);
    OK(dpu_free(set));
    OK(dpu_alloc(1, "hostClock=wall", &set)); /* the default again for the later tests */
    OK(dpu_free(set));
}

static atomic_bool g_stop;

/* Reads the modeled clocks until told to stop; returns how many reads went
 * back in time (never may). */
static void *clock_reader(void *arg)
{
    (void)arg;
    long back = 0;
    struct timespec prev = {0, 0}, now;
    struct timeval tv_prev = {0, 0}, tv;
    while (!atomic_load(&g_stop)) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        gettimeofday(&tv, NULL);
        back += ts_s(&now) < ts_s(&prev);
        back += tv.tv_sec < tv_prev.tv_sec ||
                (tv.tv_sec == tv_prev.tv_sec && tv.tv_usec < tv_prev.tv_usec);
        prev = now;
        tv_prev = tv;
    }
    return (void *)back;
}

/* Threads reading the modeled clocks while the main thread calls the API
 * (and resets the model): no crash, no deadlock, no clock going back. */
TEST(emu_host_modeled_time_threads)
{
    struct dpu_set_t set;
    OK(dpu_alloc(4, "nrRanks=2,nrDpusPerRank=2,hostTime=modeled,hostClock=thread", &set));
    OK(dpu_load(set, "basic.dpu", NULL));
    atomic_store(&g_stop, false);
    pthread_t th[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&th[i], NULL, clock_reader, NULL);
    static uint64_t buf[1024];
    for (int i = 0; i < 200; i++) {
        OK(dpu_broadcast_to(set, DPU_MRAM_HEAP_POINTER_NAME, 0, buf, sizeof buf,
                            i % 2 ? DPU_XFER_ASYNC : DPU_XFER_DEFAULT));
        if (i % 50 == 49) {
            OK(dpu_sync(set));
            dpu_emu_reset();
        }
    }
    OK(dpu_sync(set));
    atomic_store(&g_stop, true);
    for (int i = 0; i < 3; i++) {
        void *back;
        pthread_join(th[i], &back);
        CHECK(back == NULL, "reader %d saw a clock go back %ld times", i, (long)back);
    }
    OK(dpu_free(set));
    OK(dpu_alloc(1, "hostTime=real", &set));
    OK(dpu_free(set));
}

/* Builds a profile from text; returns the error. */
static dpu_error_t build(const char *text, profile_t *p)
{
    return emu_profile_build(text, p);
}

/* stderr of fn(arg) (at most cap - 1 bytes). */
static void capture_stderr(dpu_error_t (*fn)(const char *), const char *arg, dpu_error_t *err,
                           char *out, size_t cap)
{
    char path[] = "/tmp/cpim-stderr-XXXXXX";
    int fd = mkstemp(path), saved = dup(2);
    fflush(stderr);
    dup2(fd, 2);
    *err = fn(arg);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    lseek(fd, 0, SEEK_SET);
    ssize_t got = read(fd, out, cap - 1);
    out[got > 0 ? got : 0] = '\0';
    close(fd);
    unlink(path);
}

static dpu_error_t alloc_free(const char *profile)
{
    struct dpu_set_t set;
    dpu_error_t e = dpu_alloc(1, profile, &set);
    if (e == DPU_OK)
        dpu_free(set);
    return e;
}

/* Every key of upmem-api.md §1.2 and the strings public programs pass to
 * dpu_alloc are accepted; a typo is refused, naming the key and the key it
 * is probably a typo of; a value the SDK could not parse is refused. */
TEST(emu_host_profile_sdk_keys)
{
    static const char *const accepted[] = {
        "nrThreadPerPool=8", /* PrIM Microbenchmarks/CPU-DPU */
        "poolThreshold1Thread=0,poolThreshold2Threads=0,poolThreshold4Threads=0,"
        "nrThreadPerPool=4",
        "cycleAccurate=true,nrJobsPerRank=64",                        /* upvc */
        "nrJobPerRank=64,dispatchOnAllRanks=true,cycleAccurate=true", /* UPIS */
        "nrJobsPerRank=256,sgXferEnable=true",                        /* dpu_olap */
        "backend=simulator",
        "backend=hw",
        "regionMode=perf",
        "nrThreadsPerRank=0",
        "nrThreadsPerRank=1",
        "disableResetOnAlloc=true",
        "sgXferEnable=true,sgXferMaxBlocksPerDpu=32", /* alone: refused, as by the SDK */
        "disabledMask=0x3",
        "chipId=0x42",
        "chipId=2",
        "enableProfiling=statistics",
        "profilingDpuId=0",
        "clockDivision=2",
        "ignoreVersion=true",
        "disableSafeChecks=true",
        "mramAccessByDpuOnly=false",
        "tryRepairIram=1",
        "ignoreVpd=true",
        "cmdsBufferSize=1024",
        "iramSize=4096,mramSize=67108864,wramSize=65536",
        "rankPath=/dev/dpu_rank0",
    };
    for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; i++)
        CHECK(alloc_free(accepted[i]) == DPU_OK, "refused \"%s\"", accepted[i]);
    char msg[512];
    dpu_error_t e;
    capture_stderr(alloc_free, "nrThreadsPerPool=8", &e, msg, sizeof msg);
    CHECK(e == DPU_ERR_INVALID_PROFILE, "the typo nrThreadsPerPool was accepted");
    CHECK(strstr(msg, "nrThreadsPerPool") && strstr(msg, "did you mean nrThreadPerPool"),
          "the message does not name the key and its likely spelling: %s", msg);
    capture_stderr(alloc_free, "nrThreadPerPool=eight", &e, msg, sizeof msg);
    CHECK(e == DPU_ERR_INVALID_PROFILE, "nrThreadPerPool=eight was accepted");
    CHECK(strstr(msg, "nrThreadPerPool") && strstr(msg, "invalid value"),
          "the message does not name the key and say the value is bad: %s", msg);
    capture_stderr(alloc_free, "totallyUnknown=1", &e, msg, sizeof msg);
    CHECK(e == DPU_ERR_INVALID_PROFILE && strstr(msg, "totallyUnknown: unknown key"),
          "unknown key: %d, %s", (int)e, msg);
}

/* machine=NAME expands as documented (the doc's rows are checked against
 * emu_machine_table by tests/emu/lib/params); explicit keys override it from
 * any source and in any order; an unknown machine is refused; the
 * allocations have the published DPU counts. */
TEST(emu_host_machines)
{
    profile_t p;
    OK(build("machine=study", &p));
    CHECK(p.nr_ranks == 40 && p.nr_dpus_per_rank == 64 && p.vdpu.clock_mhz == 450.0 && p.machine &&
              !strcmp(p.machine->name, "study"),
          "study: %u ranks x %u, %g MHz", p.nr_ranks, p.nr_dpus_per_rank, p.vdpu.clock_mhz);
    emu_profile_release(&p);
    OK(build("machine=dramatic", &p));
    CHECK(p.nr_ranks == 6 && p.vdpu.clock_mhz == 400.0 && p.rank_disabled[5] == 1ull << 63,
          "dramatic: %u ranks, %g MHz, rank 5 mask %llx", p.nr_ranks, p.vdpu.clock_mhz,
          (unsigned long long)p.rank_disabled[5]);
    emu_profile_release(&p);
    OK(build("clockMhz=400,machine=study", &p)); /* before the machine in the same string */
    CHECK(p.vdpu.clock_mhz == 400.0 && p.nr_ranks == 40, "explicit clockMhz: %g MHz",
          p.vdpu.clock_mhz);
    emu_profile_release(&p);
    /* an explicit key of the lowest source beats the machine of a higher one */
    setenv("UPMEM_PROFILE_BASE", "clockMhz=300", 1);
    OK(build("machine=study", &p));
    CHECK(p.vdpu.clock_mhz == 300.0, "UPMEM_PROFILE_BASE clockMhz under machine=study: %g MHz",
          p.vdpu.clock_mhz);
    emu_profile_release(&p);
    unsetenv("UPMEM_PROFILE_BASE");
    /* the machine of the highest source wins: UPMEM_PROFILE, above the
     * program's string as in the SDK */
    setenv("UPMEM_PROFILE", "machine=dramatic", 1);
    OK(build("machine=prim", &p));
    CHECK(p.nr_ranks == 6 && p.vdpu.clock_mhz == 400.0, "UPMEM_PROFILE's machine: %u ranks %g MHz",
          p.nr_ranks, p.vdpu.clock_mhz);
    emu_profile_release(&p);
    unsetenv("UPMEM_PROFILE");
    OK(build("machine=prim,disabledDpus=0.1", &p)); /* replaces the machine's list */
    CHECK(p.rank_disabled[0] == 2 && p.rank_disabled[36] == 0,
          "explicit disabledDpus: rank 0 %llx, rank 36 %llx",
          (unsigned long long)p.rank_disabled[0], (unsigned long long)p.rank_disabled[36]);
    emu_profile_release(&p);
    char msg[512];
    dpu_error_t e;
    capture_stderr(alloc_free, "machine=cray", &e, msg, sizeof msg);
    CHECK(e == DPU_ERR_INVALID_PROFILE && strstr(msg, "unknown machine") && strstr(msg, "study"),
          "machine=cray: %d, %s", (int)e, msg);
    static const struct {
        const char *profile;
        uint32_t dpus, ranks;
    } want[] = {
        {"machine=prim", 2556, 40}, {"machine=study", 2560, 40}, {"machine=dramatic", 383, 6}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        struct dpu_set_t set;
        uint32_t nd = 0, nr = 0;
        OK(dpu_alloc(DPU_ALLOCATE_ALL, want[i].profile, &set));
        OK(dpu_get_nr_dpus(set, &nd));
        OK(dpu_get_nr_ranks(set, &nr));
        CHECK(nd == want[i].dpus && nr == want[i].ranks, "%s: %u DPUs in %u ranks", want[i].profile,
              nd, nr);
        OK(dpu_free(set));
    }
}
