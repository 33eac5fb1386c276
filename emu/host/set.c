/*
 * set.c -- allocation, freeing, counting and iteration of DPU sets. The
 * entry points dpu_alloc / dpu_free are in alloc.c: freeing must first stop
 * the ranks' workers, which belong to the queue above this layer.
 */
#include "set.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../vdpu/vprof.h"
#include "pool.h"

static pthread_mutex_t g_alloc_mu = PTHREAD_MUTEX_INITIALIZER;
static bool g_rank_used[HOST_MAX_RANKS];
static alloc_t *g_allocs;
/* Also guards g_allocs, taken for writing (under g_alloc_mu) only to link
 * or unlink an allocation: set checks read the list under it, never under
 * g_alloc_mu, which emu_alloc_foreach_rank holds while ranks finish queued
 * jobs -- a queued callback checking a set must not wait for it. */
static pthread_rwlock_t g_live_lock = PTHREAD_RWLOCK_INITIALIZER;

/* A freed allocation's rank array is kept, every entry set to the address
 * of this marker, so that a set value still held by the program (the whole
 * set, or a rank of it from DPU_RANK_FOREACH: both point into that array)
 * reads the marker rather than freed memory. The arrays stay on g_retired
 * (reachable, so no leak report): nr_ranks pointers per dpu_free. */
static char g_freed_rank;
#define FREED_RANK ((struct dpu_rank_t *)(void *)&g_freed_rank)
typedef struct retired {
    struct dpu_rank_t **ranks;
    struct retired *next;
} retired_t;
static retired_t *g_retired;

/* Whether d is a DPU of a live allocation (compares addresses only: a
 * freed DPU's memory is never read). Under g_live_lock. */
static bool dpu_is_live(const struct dpu_t *d)
{
    for (const alloc_t *a = g_allocs; a; a = a->next)
        for (uint32_t i = 0; i < a->nr_ranks; i++) {
            const struct dpu_rank_t *r = a->ranks[i];
            if ((uintptr_t)d >= (uintptr_t)r->dpus &&
                (uintptr_t)d < (uintptr_t)(r->dpus + r->nr_dpus))
                return true;
        }
    return false;
}

/* see set.h */
uint32_t emu_dpu_id(const struct dpu_t *d)
{
    return (d->rank->id << 16) | ((d->index / DPU_MAX_NR_DPUS_PER_CI) << 8) |
           (d->index % DPU_MAX_NR_DPUS_PER_CI);
}

/* see set.h */
dpu_error_t emu_set_check(struct dpu_set_t set)
{
    if (set.kind == DPU_SET_DPU) {
        if (set.dpu == NULL)
            return DPU_ERR_INVALID_DPU_SET;
        pthread_rwlock_rdlock(&g_live_lock);
        bool live = dpu_is_live(set.dpu);
        pthread_rwlock_unlock(&g_live_lock);
        return live ? DPU_OK : DPU_ERR_INVALID_DPU_SET;
    }
    if (set.kind != DPU_SET_RANKS || set.list.nr_ranks == 0 || set.list.ranks == NULL)
        return DPU_ERR_INVALID_DPU_SET;
    for (uint32_t i = 0; i < set.list.nr_ranks; i++)
        if (set.list.ranks[i] == NULL || set.list.ranks[i] == FREED_RANK)
            return DPU_ERR_INVALID_DPU_SET;
    return DPU_OK;
}

static void rank_destroy(struct dpu_rank_t *r)
{
    if (r == NULL)
        return;
    for (uint32_t i = 0; i < r->nr_dpus; i++) {
        struct dpu_t *d = &r->dpus[i];
        if (d->v)
            vdpu_free(d->v);
        if (d->program)
            emu_program_put(d->program);
        free(d->res);
    }
    free(r->dpus);
    free(r->samples);
    emu_model_timeline_retire(&r->tl);
    emu_model_timeline_retire(&r->tl_par);
    pthread_mutex_destroy(&r->mu);
    pthread_mutex_destroy(&r->user_mu);
    pthread_cond_destroy(&r->cv);
    free(r);
}

static struct dpu_rank_t *rank_create(alloc_t *a, uint32_t id, dpu_error_t *err)
{
    const profile_t *p = &a->prof;
    struct dpu_rank_t *r = calloc(1, sizeof *r);
    if (r == NULL) {
        *err = DPU_ERR_SYSTEM;
        return NULL;
    }
    r->id = id;
    r->owner = a;
    r->prof = p;
    r->nr_dpus = p->nr_dpus_per_rank;
    pthread_mutex_init(&r->mu, NULL);
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&r->user_mu, &attr);
    pthread_mutexattr_destroy(&attr);
    pthread_cond_init(&r->cv, NULL);
    r->dpus = calloc(r->nr_dpus, sizeof *r->dpus);
    if (r->dpus == NULL) {
        rank_destroy(r);
        *err = DPU_ERR_SYSTEM;
        return NULL;
    }
    uint64_t off = p->disabled_mask | p->rank_disabled[id];
    for (uint32_t i = 0; i < r->nr_dpus; i++) {
        struct dpu_t *d = &r->dpus[i];
        d->rank = r;
        d->index = i;
        d->enabled = !((off >> i) & 1u);
        r->nr_enabled += d->enabled; /* the vdpu comes later (create_dpus) */
    }
    emu_model_timeline_init(&r->tl, id);
    return r;
}

static uint32_t working_dpus(const profile_t *p, uint32_t id)
{
    uint64_t off = p->disabled_mask | p->rank_disabled[id];
    uint32_t n = 0;
    for (uint32_t i = 0; i < p->nr_dpus_per_rank; i++)
        n += !((off >> i) & 1u);
    return n;
}

/* Disables enabled DPUs (from the end) until the rank keeps `keep`. */
static void rank_trim(struct dpu_rank_t *r, uint32_t keep)
{
    for (uint32_t i = r->nr_dpus; i-- > 0 && r->nr_enabled > keep;) {
        struct dpu_t *d = &r->dpus[i];
        if (!d->enabled)
            continue;
        d->enabled = false;
        r->nr_enabled--;
    }
}

/* All DPUs of an allocation, in order (NULL-free array of n). */
static struct dpu_t **alloc_dpus(alloc_t *a, uint32_t *n, bool enabled_only)
{
    uint32_t total = 0;
    for (uint32_t i = 0; i < a->nr_ranks; i++)
        total += a->ranks[i]->nr_dpus;
    struct dpu_t **v = malloc((total ? total : 1) * sizeof *v);
    *n = 0;
    for (uint32_t i = 0; v && i < a->nr_ranks; i++)
        for (uint32_t j = 0; j < a->ranks[i]->nr_dpus; j++)
            if (!enabled_only || a->ranks[i]->dpus[j].enabled)
                v[(*n)++] = &a->ranks[i]->dpus[j];
    return v;
}

static void create_one(void *arg, uint32_t i)
{
    struct dpu_t *d = ((struct dpu_t **)arg)[i];
    if (vdpu_create(&d->rank->prof->vdpu, &d->v) != VDPU_OK)
        d->v = NULL;
    else if (d->rank->prof->dpu_profile && vdpu_profile_enable(d->v, 1) != VDPU_OK)
        fprintf(stderr, "virtual UPMEM: profile=%s: out of memory, a DPU is not profiled\n",
                d->rank->prof->dpu_profile);
}

static void free_one(void *arg, uint32_t i)
{
    struct dpu_t *d = ((struct dpu_t **)arg)[i];
    vdpu_free(d->v);
    d->v = NULL;
}

/* Creates the virtual DPUs of the enabled DPUs, on every core (vdpu_create
 * zeroes a WRAM and reserves an MRAM each). */
static dpu_error_t create_dpus(alloc_t *a)
{
    uint32_t n;
    struct dpu_t **v = alloc_dpus(a, &n, true);
    if (v == NULL)
        return DPU_ERR_SYSTEM;
    emu_pool_for(n, create_one, v);
    dpu_error_t err = DPU_OK;
    for (uint32_t i = 0; i < n; i++)
        if (v[i]->v == NULL)
            err = DPU_ERR_ALLOCATION;
    free(v);
    return err;
}

/* Destroys a; retire: keep its rank array, poisoned (see g_freed_rank),
 * since the program may still hold sets pointing into it. */
static void alloc_destroy_ex(alloc_t *a, bool retire)
{
    uint32_t n;
    struct dpu_t **v = alloc_dpus(a, &n, false);
    if (v) {
        emu_pool_for(n, free_one, v); /* munmap of many MRAMs, on every core */
        free(v);
    }
    for (uint32_t i = 0; i < a->nr_ranks; i++)
        rank_destroy(a->ranks[i]);
    retired_t *t = retire && a->ranks ? malloc(sizeof *t) : NULL;
    if (t != NULL) {
        for (uint32_t i = 0; i < a->nr_ranks; i++)
            a->ranks[i] = FREED_RANK;
        t->ranks = a->ranks;
        pthread_mutex_lock(&g_alloc_mu);
        t->next = g_retired;
        g_retired = t;
        pthread_mutex_unlock(&g_alloc_mu);
    } else {
        free(a->ranks);
    }
    emu_profile_release(&a->prof);
    pthread_mutex_destroy(&a->sample_mu);
    pthread_cond_destroy(&a->sample_cv);
    free(a);
}

static void alloc_destroy(alloc_t *a)
{
    alloc_destroy_ex(a, false);
}

/* see set.h */
dpu_error_t emu_alloc_begin(const char *profile, alloc_t **out)
{
    *out = NULL;
    alloc_t *a = calloc(1, sizeof *a);
    if (a == NULL)
        return DPU_ERR_SYSTEM;
    dpu_error_t err = emu_profile_build(profile, &a->prof);
    if (err != DPU_OK) {
        free(a);
        return err;
    }
    pthread_mutex_init(&a->sample_mu, NULL);
    pthread_cond_init(&a->sample_cv, NULL);
    const profile_t *p = &a->prof;
    emu_model_set_host_clock(p->host_clock_none     ? EMU_HOST_CLOCK_NONE
                             : p->host_thread_clock ? EMU_HOST_CLOCK_THREAD
                                                    : EMU_HOST_CLOCK_WALL);
    *out = a;
    return DPU_OK;
}

/* see set.h */
dpu_error_t emu_alloc_new(alloc_t *a, uint32_t nr_dpus, uint32_t nr_ranks, struct dpu_set_t *set)
{
    if (set == NULL) {
        alloc_destroy(a);
        return DPU_ERR_INVALID_DPU_SET;
    }
    dpu_error_t err = DPU_OK;
    const profile_t *p = &a->prof;
    uint32_t ids[HOST_MAX_RANKS];
    uint32_t n = 0, have = 0;

    pthread_mutex_lock(&g_alloc_mu);
    bool all = (nr_dpus == DPU_ALLOCATE_ALL) || (nr_dpus == 0 && nr_ranks == DPU_ALLOCATE_ALL);
    for (uint32_t id = 0; id < p->nr_ranks; id++) {
        if (g_rank_used[id])
            continue;
        uint32_t w = working_dpus(p, id);
        if (w == 0)
            continue;
        if (!all) {
            if (nr_dpus == 0 && n == nr_ranks)
                break;
            if (nr_dpus != 0 && have >= nr_dpus && !p->dispatch_on_all_ranks)
                break;
            if (nr_dpus != 0 && p->dispatch_on_all_ranks && n == nr_dpus)
                break;
        }
        ids[n++] = id;
        have += w;
    }
    bool enough = all ? n > 0 : (nr_dpus == 0 ? n == nr_ranks : have >= nr_dpus);
    if (!enough) {
        pthread_mutex_unlock(&g_alloc_mu);
        alloc_destroy(a);
        return DPU_ERR_ALLOCATION;
    }
    for (uint32_t i = 0; i < n; i++)
        g_rank_used[ids[i]] = true;
    pthread_mutex_unlock(&g_alloc_mu);

    a->ranks = calloc(n, sizeof *a->ranks);
    if (a->ranks == NULL)
        err = DPU_ERR_SYSTEM;
    for (uint32_t i = 0; i < n && err == DPU_OK; i++) {
        a->ranks[i] = rank_create(a, ids[i], &err);
        if (a->ranks[i]) {
            a->ranks[i]->pos = i;
            a->nr_ranks = i + 1;
        }
    }
    if (err == DPU_OK && nr_dpus != 0 && nr_dpus != DPU_ALLOCATE_ALL) {
        if (p->dispatch_on_all_ranks) {
            /* spread nr_dpus as evenly as possible over the ranks */
            uint32_t left = nr_dpus;
            for (uint32_t i = 0; i < n; i++) {
                uint32_t share = left / (n - i) + (left % (n - i) != 0);
                if (share > a->ranks[i]->nr_enabled)
                    share = a->ranks[i]->nr_enabled;
                rank_trim(a->ranks[i], share);
                left -= share;
            }
        } else {
            uint32_t surplus = have - nr_dpus;
            for (uint32_t i = n; i-- > 0 && surplus > 0;) {
                struct dpu_rank_t *r = a->ranks[i];
                uint32_t cut = surplus < r->nr_enabled ? surplus : r->nr_enabled;
                rank_trim(r, r->nr_enabled - cut);
                surplus -= cut;
            }
        }
    }
    if (err == DPU_OK)
        err = create_dpus(a);
    if (err != DPU_OK) {
        pthread_mutex_lock(&g_alloc_mu);
        for (uint32_t i = 0; i < n; i++)
            g_rank_used[ids[i]] = false;
        pthread_mutex_unlock(&g_alloc_mu);
        alloc_destroy(a);
        return err;
    }
    pthread_mutex_lock(&g_alloc_mu);
    pthread_rwlock_wrlock(&g_live_lock);
    a->next = g_allocs;
    g_allocs = a;
    pthread_rwlock_unlock(&g_live_lock);
    pthread_mutex_unlock(&g_alloc_mu);
    set->kind = DPU_SET_RANKS;
    set->list.nr_ranks = a->nr_ranks;
    set->list.ranks = a->ranks;
    return DPU_OK;
}

/* see set.h */
alloc_t *emu_alloc_take(struct dpu_set_t set)
{
    alloc_t *a = NULL;
    pthread_mutex_lock(&g_alloc_mu);
    if (set.kind == DPU_SET_RANKS) {
        for (alloc_t **pp = &g_allocs; *pp; pp = &(*pp)->next) {
            if ((*pp)->ranks == set.list.ranks && (*pp)->nr_ranks == set.list.nr_ranks) {
                a = *pp;
                pthread_rwlock_wrlock(&g_live_lock);
                *pp = a->next;
                pthread_rwlock_unlock(&g_live_lock);
                break;
            }
        }
    }
    pthread_mutex_unlock(&g_alloc_mu);
    return a;
}

/* see set.h */
alloc_t *emu_alloc_take_rank(const struct dpu_rank_t *r)
{
    alloc_t *a = NULL;
    pthread_mutex_lock(&g_alloc_mu);
    for (alloc_t **pp = &g_allocs; r != NULL && *pp; pp = &(*pp)->next) {
        if ((*pp)->nr_ranks == 1 && (*pp)->ranks[0] == r) {
            a = *pp;
            pthread_rwlock_wrlock(&g_live_lock);
            *pp = a->next;
            pthread_rwlock_unlock(&g_live_lock);
            break;
        }
    }
    pthread_mutex_unlock(&g_alloc_mu);
    return a;
}

/* see set.h */
void emu_alloc_release(alloc_t *a)
{
    uint32_t ids[HOST_MAX_RANKS];
    uint32_t n = a->nr_ranks;
    for (uint32_t i = 0; i < n; i++)
        ids[i] = a->ranks[i]->id;
    alloc_destroy_ex(a, true);
    pthread_mutex_lock(&g_alloc_mu);
    for (uint32_t i = 0; i < n; i++)
        g_rank_used[ids[i]] = false;
    pthread_mutex_unlock(&g_alloc_mu);
}

/* see dpu.h */
dpu_error_t dpu_get_nr_dpus(struct dpu_set_t set, uint32_t *nr_dpus)
{
    dpu_error_t err = emu_set_check(set);
    if (err != DPU_OK || nr_dpus == NULL)
        return err != DPU_OK ? err : DPU_ERR_INTERNAL;
    if (set.kind == DPU_SET_DPU) {
        *nr_dpus = 1;
        return DPU_OK;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < set.list.nr_ranks; i++)
        n += set.list.ranks[i]->nr_enabled;
    *nr_dpus = n;
    return DPU_OK;
}

/* see dpu.h */
dpu_error_t dpu_get_nr_ranks(struct dpu_set_t set, uint32_t *nr_ranks)
{
    dpu_error_t err = emu_set_check(set);
    if (err != DPU_OK || nr_ranks == NULL)
        return err != DPU_OK ? err : DPU_ERR_INTERNAL;
    *nr_ranks = set.kind == DPU_SET_DPU ? 1 : set.list.nr_ranks;
    return DPU_OK;
}

/* ------------------------------------------------------------ iterators */

/* Moves the cursor to the first enabled DPU at or after it. */
static void dpu_it_settle(struct dpu_set_dpu_iterator_t *it)
{
    if (it->set.kind == DPU_SET_DPU) {
        it->has_next = it->rank_index == 0 && it->set.dpu != NULL;
        it->next.kind = DPU_SET_DPU;
        it->next.dpu = it->has_next ? it->set.dpu : NULL;
        return;
    }
    while (it->rank_index < it->set.list.nr_ranks) {
        struct dpu_rank_t *r = it->set.list.ranks[it->rank_index];
        while (it->dpu_index < r->nr_dpus && !r->dpus[it->dpu_index].enabled)
            it->dpu_index++;
        if (it->dpu_index < r->nr_dpus) {
            it->has_next = true;
            it->next.kind = DPU_SET_DPU;
            it->next.dpu = &r->dpus[it->dpu_index];
            return;
        }
        it->rank_index++;
        it->dpu_index = 0;
    }
    it->has_next = false;
    it->next.kind = DPU_SET_DPU;
    it->next.dpu = NULL;
}

/* see dpu.h */
struct dpu_set_dpu_iterator_t dpu_set_dpu_iterator_from(struct dpu_set_t *set)
{
    struct dpu_set_dpu_iterator_t it;
    memset(&it, 0, sizeof it);
    it.set = *set;
    if (emu_set_check(*set) != DPU_OK) {
        it.has_next = false;
        it.next.kind = DPU_SET_DPU;
        it.next.dpu = NULL;
        return it;
    }
    dpu_it_settle(&it);
    return it;
}

/* see dpu.h */
void dpu_set_dpu_iterator_next(struct dpu_set_dpu_iterator_t *it)
{
    if (!it->has_next)
        return;
    it->count++;
    if (it->set.kind == DPU_SET_DPU)
        it->rank_index = 1;
    else
        it->dpu_index++;
    dpu_it_settle(it);
}

static void rank_it_settle(struct dpu_set_rank_iterator_t *it)
{
    uint32_t n = it->set.kind == DPU_SET_DPU ? 1 : it->set.list.nr_ranks;
    it->has_next = it->count < n;
    if (it->has_next && it->set.kind == DPU_SET_DPU) {
        /* a DPU set is its own only "rank", as in the SDK (dpu_set.c of
         * 2025.1): what is done to it touches that DPU, not its rank */
        it->next = it->set;
        return;
    }
    it->next.kind = DPU_SET_RANKS;
    it->next.list.nr_ranks = it->has_next ? 1 : 0;
    it->next.list.ranks = it->has_next ? &it->set.list.ranks[it->count] : NULL;
}

/* see dpu.h */
struct dpu_set_rank_iterator_t dpu_set_rank_iterator_from(struct dpu_set_t *set)
{
    struct dpu_set_rank_iterator_t it;
    memset(&it, 0, sizeof it);
    it.set = *set;
    if (emu_set_check(*set) != DPU_OK) {
        it.has_next = false;
        it.next.kind = DPU_SET_RANKS;
        return it;
    }
    rank_it_settle(&it);
    return it;
}

/* see dpu.h */
void dpu_set_rank_iterator_next(struct dpu_set_rank_iterator_t *it)
{
    if (!it->has_next)
        return;
    it->count++;
    rank_it_settle(it);
}

/* see set.h */
void emu_alloc_foreach_rank(void (*fn)(struct dpu_rank_t *r))
{
    pthread_mutex_lock(&g_alloc_mu);
    for (alloc_t *a = g_allocs; a; a = a->next)
        for (uint32_t i = 0; i < a->nr_ranks; i++)
            fn(a->ranks[i]);
    pthread_mutex_unlock(&g_alloc_mu);
}
