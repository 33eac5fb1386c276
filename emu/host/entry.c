/*
 * entry.c -- API entry/exit: host work on the modeled clock is the time
 * between the application's calls, so the library counts nesting per thread
 * and ignores its own worker threads; callbacks subtract their nested calls.
 */
#include "entry.h"

#include "model.h"

/* ------------------------------------------------- thread-local state */

#define OWN_MAX 16
static _Thread_local struct {
    struct dpu_rank_t *const *ranks;
    uint32_t n;
} tls_own[OWN_MAX];
static _Thread_local uint32_t tls_own_depth;
static _Thread_local int tls_depth;        /* API nesting on this thread     */
static _Thread_local bool tls_worker;      /* library thread                 */
static _Thread_local int tls_cb_base = -1; /* depth when a callback started  */
static _Thread_local double tls_cb_start, tls_cb_nested, tls_cb_enter;

/* see entry.h */
void emu_own_push(struct dpu_rank_t *const *ranks, uint32_t n)
{
    if (tls_own_depth < OWN_MAX) {
        tls_own[tls_own_depth].ranks = ranks;
        tls_own[tls_own_depth].n = n;
    }
    tls_own_depth++;
}

/* see entry.h */
void emu_own_pop(uint32_t n)
{
    (void)n;
    tls_own_depth--;
}

/* see entry.h */
bool emu_own_has(const struct dpu_rank_t *r)
{
    uint32_t depth = tls_own_depth < OWN_MAX ? tls_own_depth : OWN_MAX;
    for (uint32_t f = 0; f < depth; f++)
        for (uint32_t i = 0; i < tls_own[f].n; i++)
            if (tls_own[f].ranks[i] == r)
                return true;
    return false;
}

/* see entry.h */
void emu_api_enter(void)
{
    if (tls_cb_base >= 0 && tls_depth == tls_cb_base)
        tls_cb_enter = emu_host_wall();
    if (tls_depth++ == 0 && !tls_worker)
        emu_model_api_enter();
}

/* see entry.h */
void emu_api_exit(void)
{
    if (--tls_depth == 0 && !tls_worker)
        emu_model_api_exit();
    if (tls_cb_base >= 0 && tls_depth == tls_cb_base)
        tls_cb_nested += emu_host_wall() - tls_cb_enter;
}

/* see entry.h */
void emu_api_mark_worker(void)
{
    tls_worker = true;
    emu_model_mark_worker();
}

/* see entry.h */
void emu_api_cb_begin(void)
{
    tls_cb_base = tls_depth;
    tls_cb_nested = 0.0;
    tls_cb_start = emu_host_wall();
}

/* see entry.h */
double emu_api_cb_end(void)
{
    double own = emu_host_wall() - tls_cb_start - tls_cb_nested;
    tls_cb_base = -1;
    return own > 0.0 ? own : 0.0;
}
