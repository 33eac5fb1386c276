/*
 * reuse.c -- runs of identical DPUs done once (reuse.h).
 */
#include "reuse.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef enum { R_PENDING, R_DONE, R_FAILED } r_state_t;

typedef struct entry {
    uint64_t key; /* hash of everything below: a quick reject only */
    uint64_t prog_hash;
    size_t prog_size;
    vdpu_params_t params;
    uint8_t *wram_in, *wram_out; /* VDPU_WRAM_SIZE each */
    vdpu_result_t res;
    r_state_t state;
    struct entry *next;
} entry_t;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static entry_t *entries;
static unsigned n_entries;

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static bool same(const entry_t *e, uint64_t key, const struct dpu_program_t *p,
                 const vdpu_params_t *params, const uint8_t *wram)
{
    return e->key == key && e->prog_hash == p->hash && e->prog_size == p->size &&
           !memcmp(&e->params, params, sizeof *params) && !memcmp(e->wram_in, wram, VDPU_WRAM_SIZE);
}

bool emu_reuse_begin(const struct dpu_program_t *p, vdpu_t *v, vdpu_result_t *res, void **token)
{
    *token = NULL;
    uint8_t *wram = malloc(VDPU_WRAM_SIZE);
    if (wram == NULL || vdpu_wram_read(v, 0, wram, VDPU_WRAM_SIZE) != VDPU_OK) {
        free(wram);
        return false;
    }
    const vdpu_params_t *params = vdpu_get_params(v);
    uint64_t key = fnv(0xcbf29ce484222325ull, &p->hash, sizeof p->hash);
    key = fnv(key, params, sizeof *params);
    key = fnv(key, wram, VDPU_WRAM_SIZE);
    pthread_mutex_lock(&mu);
    entry_t *e = entries;
    while (e && !same(e, key, p, params, wram))
        e = e->next;
    while (e && e->state == R_PENDING)
        pthread_cond_wait(&cv, &mu); /* (entries are never freed) */
    if (e && e->state == R_DONE) {
        *res = e->res;
        const uint8_t *out = e->wram_out;
        pthread_mutex_unlock(&mu);
        free(wram);
        /* its WRAM after the run: the next launch sees what a simulated
         * one would have left (the MRAM is not reproduced) */
        return vdpu_wram_write(v, 0, out, VDPU_WRAM_SIZE) == VDPU_OK;
    }
    bool keep = e == NULL && n_entries < EMU_REUSE_MAX; /* else: a faulted run's twin, or full */
    if (keep && (e = calloc(1, sizeof *e)) != NULL &&
        (e->wram_out = malloc(VDPU_WRAM_SIZE)) == NULL) {
        free(e);
        e = NULL;
    }
    if (!keep || e == NULL) {
        pthread_mutex_unlock(&mu);
        free(wram);
        return false; /* just run */
    }
    e->key = key;
    e->prog_hash = p->hash;
    e->prog_size = p->size;
    e->params = *params;
    e->wram_in = wram;
    e->state = R_PENDING;
    e->next = entries;
    entries = e;
    n_entries++;
    pthread_mutex_unlock(&mu);
    *token = e;
    return false;
}

void emu_reuse_end(void *token, const vdpu_t *v, const vdpu_result_t *res, bool ok)
{
    entry_t *e = token;
    if (e == NULL)
        return;
    ok = ok && vdpu_wram_read(v, 0, e->wram_out, VDPU_WRAM_SIZE) == VDPU_OK;
    pthread_mutex_lock(&mu);
    if (ok) {
        e->res = *res;
        /* what the run met for the first time was reported once, by it */
        e->res.notes[0] = '\0';
        e->res.detail[0] = '\0';
        e->state = R_DONE;
    } else {
        e->state = R_FAILED;
    }
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
}
