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

typedef struct sum {
    char *file;
    struct dpu_program_t *prog; /* one reference held */
    vprof_t *prof;
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
                if (vdpu_prof_write(f, t->prof, t->prog->name) != 0)
                    bad = 1;
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
    sum_t *s = g_sums;
    while (s && (s->prog != prog || strcmp(s->file, file)))
        s = s->next;
    if (!s) {
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
        } else {
            if (s)
                free(s->file);
            free(s);
            s = NULL;
            fprintf(stderr, "virtual UPMEM: profile=%s: out of memory, a DPU run is missing\n",
                    file);
        }
    }
    if (s && vdpu_prof_merge(s->prof, run) != VDPU_OK)
        fprintf(stderr, "virtual UPMEM: profile=%s: a DPU run could not be added\n", file);
    pthread_mutex_unlock(&g_mu);
}
