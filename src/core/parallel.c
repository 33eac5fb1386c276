/* see parallel.h */
#define _POSIX_C_SOURCE 200809L
#include "parallel.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#define MAX_THREADS 256

unsigned cpim_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1u : (unsigned)n;
}

struct job {
    cpim_range_fn fn;
    void *arg;
    size_t begin, end;
};

static void *run_job(void *p)
{
    struct job *j = p;
    j->fn(j->arg, j->begin, j->end);
    return NULL;
}

cpim_err cpim_parallel_for(unsigned threads, size_t n, size_t grain, cpim_range_fn fn, void *arg)
{
    if (grain == 0)
        grain = 1;
    /* one share: the caller's thread, without asking how many cores there
     * are (sysconf reads a file: a cost per call of small jobs) */
    if (threads == 1 || n <= grain) {
        if (n)
            fn(arg, 0, n);
        return CPIM_OK;
    }
    if (threads == 0)
        threads = cpim_cores();
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    size_t units = (n + grain - 1) / grain;
    if (threads > units)
        threads = (unsigned)units;
    if (threads <= 1) {
        if (n)
            fn(arg, 0, n);
        return CPIM_OK;
    }
    /* Equal shares of whole grains; the caller's thread takes share 0. */
    struct job jobs[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    size_t per = units / threads, extra = units % threads, at = 0;
    for (unsigned t = 0; t < threads; t++) {
        size_t u = per + (t < extra ? 1 : 0);
        size_t end = at + u * grain;
        jobs[t] = (struct job){fn, arg, at, end > n ? n : end};
        at = jobs[t].end;
    }
    cpim_err rc = CPIM_OK;
    unsigned started = 1;
    for (unsigned t = 1; t < threads; t++, started++) {
        if (pthread_create(&tid[t], NULL, run_job, &jobs[t]) != 0) {
            rc = CPIM_ERR_THREAD;
            break;
        }
    }
    run_job(&jobs[0]);
    for (unsigned t = started; t < threads; t++)
        run_job(&jobs[t]); /* threads that could not start: do it here */
    for (unsigned t = 1; t < started; t++)
        pthread_join(tid[t], NULL);
    return rc;
}

struct msgs_job {
    cpim_msgs_fn fn;
    void *arg;
    const size_t *first; /* run r is messages [first[r], first[r + 1]) */
};

static void run_msgs(void *p, size_t rb, size_t re)
{
    const struct msgs_job *j = p;
    for (size_t r = rb; r < re; r++)
        if (j->first[r] < j->first[r + 1])
            j->fn(j->arg, j->first[r], j->first[r + 1]);
}

cpim_err cpim_parallel_msgs(unsigned threads, const size_t *lens, size_t count,
                            uint64_t min_parallel, cpim_msgs_fn fn, void *arg)
{
    if (threads == 0)
        threads = cpim_cores();
    uint64_t total = 0;
    for (size_t i = 0; i < count; i++)
        total += (uint64_t)lens[i] + 64;
    if (threads > count)
        threads = (unsigned)count;
    size_t *first = NULL;
    if (threads > 1 && total >= min_parallel)
        first = malloc((threads + 1) * sizeof *first);
    if (!first) {
        if (count)
            fn(arg, 0, count);
        return CPIM_OK;
    }
    /* Run r ends after the message that crosses r * total / threads bytes
     * (a message goes to the run holding more than half of it). */
    uint64_t acc = 0;
    size_t i = 0;
    first[0] = 0;
    for (unsigned r = 1; r < threads; r++) {
        uint64_t goal = total / threads * r;
        while (i < count && acc + (uint64_t)lens[i] / 2 + 32 < goal)
            acc += (uint64_t)lens[i++] + 64;
        first[r] = i;
    }
    first[threads] = count;
    struct msgs_job j = {fn, arg, first};
    cpim_err rc = cpim_parallel_for(threads, threads, 1, run_msgs, &j);
    free(first);
    return rc;
}
