/*
 * prog.c -- the program cache: identical ELF bytes are parsed once and the
 * parsed program is shared by every DPU that loads them.
 */
#include "prog.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t g_prog_mu = PTHREAD_MUTEX_INITIALIZER;
static struct dpu_program_t *g_progs; /* live programs, for reuse */

/* see prog.h */
void emu_program_put(struct dpu_program_t *p)
{
    pthread_mutex_lock(&g_prog_mu);
    bool last = --p->refs == 0;
    if (last) {
        for (struct dpu_program_t **pp = &g_progs; *pp; pp = &(*pp)->next) {
            if (*pp == p) {
                *pp = p->next;
                break;
            }
        }
    }
    pthread_mutex_unlock(&g_prog_mu);
    if (last) {
        vdpu_program_free(p->vp);
        free(p->name);
        free(p);
    }
}

/* see prog.h */
void emu_program_ref(struct dpu_program_t *p)
{
    pthread_mutex_lock(&g_prog_mu);
    p->refs++;
    pthread_mutex_unlock(&g_prog_mu);
}

static uint64_t fnv1a(const uint8_t *b, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static dpu_error_t map_vdpu_load_error(vdpu_err_t e)
{
    switch (e) {
    case VDPU_OK:
        return DPU_OK;
    case VDPU_ERR_IO:
        return DPU_ERR_ELF_NO_SUCH_FILE;
    case VDPU_ERR_NOMEM:
        return DPU_ERR_SYSTEM;
    case VDPU_ERR_TASKLETS:
        return DPU_ERR_TOO_MANY_TASKLETS;
    case VDPU_ERR_WRAM_BUDGET:
        return DPU_ERR_INVALID_WRAM_ACCESS;
    case VDPU_ERR_IRAM_BUDGET:
        return DPU_ERR_INVALID_IRAM_ACCESS;
    case VDPU_ERR_MRAM_BUDGET:
        return DPU_ERR_INVALID_MRAM_ACCESS;
    default:
        return DPU_ERR_ELF_INVALID_FILE;
    }
}

/* see prog.h */
dpu_error_t emu_program_get(const uint8_t *elf, size_t len, const char *what,
                            struct dpu_program_t **out)
{
    uint64_t h = fnv1a(elf, len);
    pthread_mutex_lock(&g_prog_mu);
    for (struct dpu_program_t *p = g_progs; p; p = p->next) {
        if (p->hash == h && p->size == len) {
            p->refs++;
            pthread_mutex_unlock(&g_prog_mu);
            *out = p;
            return DPU_OK;
        }
    }
    pthread_mutex_unlock(&g_prog_mu);
    struct dpu_program_t *p = calloc(1, sizeof *p);
    if (p == NULL)
        return DPU_ERR_SYSTEM;
    char msg[512] = "";
    vdpu_err_t ve = vdpu_program_load_mem(elf, len, &p->vp, msg, sizeof msg);
    if (ve != VDPU_OK) {
        /* libdpu logs why a load failed; the rule's name helps the user */
        fprintf(stderr, "dpu_load: %s: %s\n", what ? what : "(memory)",
                msg[0] ? msg : vdpu_strerror(ve));
        free(p);
        return map_vdpu_load_error(ve);
    }
    p->name = strdup(what ? what : "(memory)");
    p->hash = h;
    p->size = len;
    p->refs = 1;
    pthread_mutex_lock(&g_prog_mu);
    p->next = g_progs;
    g_progs = p;
    pthread_mutex_unlock(&g_prog_mu);
    *out = p;
    return DPU_OK;
}
