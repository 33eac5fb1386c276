/*
 * pool.c -- the DPU thread pool: runs independent per-DPU work items (a
 * launch, a load) on every core. The submitting thread takes items too, so
 * a batch always progresses even when every pool thread is busy with other
 * ranks' batches.
 */
#include "pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "entry.h"

typedef struct batch {
    void (*fn)(void *arg, uint32_t i);
    void *arg;
    uint32_t n, next, done;
    struct batch *link;
    pthread_cond_t cv; /* done == n */
} batch_t;

static pthread_mutex_t g_pool_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_pool_cv = PTHREAD_COND_INITIALIZER;
static batch_t *g_batches;
static unsigned g_pool_threads; /* started */
static pthread_once_t g_pool_once = PTHREAD_ONCE_INIT;

/* Takes one item of the first batch that has one left (g_pool_mu held). */
static batch_t *take(uint32_t *idx)
{
    for (batch_t *b = g_batches; b; b = b->link) {
        if (b->next < b->n) {
            *idx = b->next++;
            return b;
        }
    }
    return NULL;
}

static void finish(batch_t *b)
{
    if (++b->done == b->n)
        pthread_cond_broadcast(&b->cv);
}

static void *pool_main(void *unused)
{
    (void)unused;
    emu_api_mark_worker();
    pthread_mutex_lock(&g_pool_mu);
    for (;;) {
        uint32_t i;
        batch_t *b = take(&i);
        if (b == NULL) {
            pthread_cond_wait(&g_pool_cv, &g_pool_mu);
            continue;
        }
        pthread_mutex_unlock(&g_pool_mu);
        b->fn(b->arg, i);
        pthread_mutex_lock(&g_pool_mu);
        finish(b);
    }
    return NULL;
}

static void pool_start(void)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1)
        cores = 1;
    /* the submitting thread works too: cores - 1 helpers use every core */
    for (long i = 0; i < cores - 1 && i < 256; i++) {
        pthread_t t;
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        if (pthread_create(&t, &at, pool_main, NULL) == 0)
            g_pool_threads++;
        pthread_attr_destroy(&at);
    }
}

/* see pool.h */
void emu_pool_for(uint32_t n, void (*fn)(void *arg, uint32_t i), void *arg)
{
    if (n == 0)
        return;
    if (n == 1) {
        fn(arg, 0);
        return;
    }
    pthread_once(&g_pool_once, pool_start);
    batch_t b = {.fn = fn, .arg = arg, .n = n};
    pthread_cond_init(&b.cv, NULL);
    pthread_mutex_lock(&g_pool_mu);
    b.link = g_batches;
    g_batches = &b;
    pthread_cond_broadcast(&g_pool_cv);
    while (b.next < b.n) {
        uint32_t i = b.next++;
        pthread_mutex_unlock(&g_pool_mu);
        fn(arg, i);
        pthread_mutex_lock(&g_pool_mu);
        finish(&b);
    }
    while (b.done < b.n)
        pthread_cond_wait(&b.cv, &g_pool_mu);
    for (batch_t **pp = &g_batches; *pp; pp = &(*pp)->link) {
        if (*pp == &b) {
            *pp = b.link;
            break;
        }
    }
    pthread_mutex_unlock(&g_pool_mu);
    pthread_cond_destroy(&b.cv);
}
