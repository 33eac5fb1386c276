/* see parallel.h */
#define _POSIX_C_SOURCE 200809L
#include "parallel.h"

#include <pthread.h>
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
