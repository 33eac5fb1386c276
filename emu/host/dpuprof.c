/*
 * dpuprof.c -- profile=FILE (see dpuprof.h): the sums per program and file,
 * and their writing at exit, through a temporary file renamed into place so
 * that FILE is whole or absent, never half written.
 */
#include "dpuprof.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    uint64_t id, cycles_max, cycles_sum;
    uint32_t dpus, faults;
} launch_t;

typedef struct sum {
    char *file;
    struct dpu_program_t *prog; /* one reference held */
    vprof_t *prof;
    launch_t *launch; /* in the order they ran */
    size_t nlaunch, cap;
    struct sum *next;
} sum_t;

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static sum_t *g_sums; /* newest first */
static int g_atexit;

/* Writes every file once, its programs in the order they first ran. */
static void write_all(void)
{
    pthread_mutex_lock(&g_mu);
    /* oldest first: reverse the list */
    sum_t *rev = NULL;
    while (g_sums) {
        sum_t *s = g_sums;
        g_sums = s->next;
        s->next = rev;
        rev = s;
    }
    g_sums = rev;
    for (sum_t *s = g_sums; s; s = s->next) {
        if (!s->file)
            continue; /* written with an earlier one of the same file */
        const char *file = s->file;
        size_t n = strlen(file) + 32;
        char *tmp = malloc(n);
        FILE *f = NULL;
        if (tmp) {
            snprintf(tmp, n, "%s.%ld.tmp", file, (long)getpid());
            f = fopen(tmp, "w");
        }
        int bad = f == NULL;
        if (f) {
            for (sum_t *t = s; t; t = t->next) {
                if (!t->file || strcmp(t->file, file))
                    continue;
                char *extra = NULL;
                size_t elen = 0;
                FILE *e = open_memstream(&extra, &elen);
                for (size_t i = 0; e && i < t->nlaunch; i++)
                    fprintf(e, "launch %zu dpus %u cycles_max %llu cycles_sum %llu faults %u\n",
                            i + 1, t->launch[i].dpus, (unsigned long long)t->launch[i].cycles_max,
                            (unsigned long long)t->launch[i].cycles_sum, t->launch[i].faults);
                if (!e || fclose(e) != 0 || vdpu_prof_write(f, t->prof, t->prog->name, extra) != 0)
                    bad = 1;
                free(extra);
                if (t != s) {
                    free(t->file);
                    t->file = NULL;
                }
            }
            if (fclose(f) != 0)
                bad = 1;
        }
        if (bad || rename(tmp, file) != 0) {
            fprintf(stderr, "virtual UPMEM: profile=%s: cannot write the DPU profile\n", file);
            if (tmp)
                unlink(tmp);
        }
        free(tmp);
        free(s->file);
        s->file = NULL;
    }
    pthread_mutex_unlock(&g_mu);
}

/* FILE's sum for prog, created if missing (NULL: out of memory, said);
 * with g_mu held */
static sum_t *sum_for(const char *file, struct dpu_program_t *prog)
{
    sum_t *s = g_sums;
    while (s && (s->prog != prog || strcmp(s->file, file)))
        s = s->next;
    if (s)
        return s;
    s = calloc(1, sizeof *s);
    if (s && (s->file = strdup(file)) != NULL && vdpu_prof_new(prog->vp, &s->prof) == VDPU_OK) {
        emu_program_ref(prog);
        s->prog = prog;
        s->next = g_sums;
        g_sums = s;
        if (!g_atexit) {
            atexit(write_all);
            g_atexit = 1;
        }
        return s;
    }
    if (s)
        free(s->file);
    free(s);
    fprintf(stderr, "virtual UPMEM: profile=%s: out of memory, a DPU run is missing\n", file);
    return NULL;
}

/* see dpuprof.h */
void emu_dpuprof_launch(const char *file, struct dpu_program_t *prog, uint64_t id, uint32_t dpus,
                        uint64_t cycles_max, uint64_t cycles_sum, uint32_t faults)
{
    if (!file || !prog)
        return;
    pthread_mutex_lock(&g_mu);
    sum_t *s = sum_for(file, prog);
    launch_t *l = NULL;
    if (s && s->nlaunch && s->launch[s->nlaunch - 1].id == id) {
        l = &s->launch[s->nlaunch - 1];
    } else if (s) {
        if (s->nlaunch == s->cap) {
            size_t cap = s->cap ? 2 * s->cap : 16;
            launch_t *n = realloc(s->launch, cap * sizeof *n);
            if (n) {
                s->launch = n;
                s->cap = cap;
            }
        }
        if (s->nlaunch < s->cap) {
            l = &s->launch[s->nlaunch++];
            memset(l, 0, sizeof *l);
            l->id = id;
        }
    }
    if (l) {
        l->dpus += dpus;
        l->faults += faults;
        l->cycles_sum += cycles_sum;
        if (cycles_max > l->cycles_max)
            l->cycles_max = cycles_max;
    }
    pthread_mutex_unlock(&g_mu);
}

/* see dpuprof.h */
void emu_dpuprof_add(const char *file, struct dpu_program_t *prog, const vprof_t *run)
{
    if (!file || !prog)
        return;
    pthread_mutex_lock(&g_mu);
    if (!run) { /* the DPU's profiler ran out of memory and turned itself off */
        static int told;
        if (!told)
            fprintf(stderr, "virtual UPMEM: profile=%s: out of memory, DPU runs are missing\n",
                    file);
        told = 1;
        pthread_mutex_unlock(&g_mu);
        return;
    }
    sum_t *s = sum_for(file, prog);
    if (s && vdpu_prof_merge(s->prof, run) != VDPU_OK)
        fprintf(stderr, "virtual UPMEM: profile=%s: a DPU run could not be added\n", file);
    pthread_mutex_unlock(&g_mu);
}
