/* diag.c -- the virtual DPU's diagnostics that are not faults: a rule the
 * program broke and that was answered as the hardware does, reported once
 * per (rule, program, instruction); and the place of every live tasklet
 * when a run stops without finishing (watchdog, deadlock, every tasklet
 * stopped). The library never prints: both go into vdpu_result_t for the
 * host to print. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vdpu_internal.h"

/* Places noted in this process, across programs parsed again from the same
 * code (a program freed and loaded again is the same program to its
 * user): (fingerprint of the code, instruction, rule) keys in an
 * open-addressing set. Past NOTED_MAX places nothing more is noted (the
 * count still is, by the host). */
#define NOTED_MAX 4096u
static uint64_t noted_keys[2 * NOTED_MAX];
static unsigned noted_n;
static pthread_mutex_t noted_lock = PTHREAD_MUTEX_INITIALIZER;

static int first_time(uint64_t key)
{
    int first = 0;
    key |= 1; /* 0 marks a free slot */
    pthread_mutex_lock(&noted_lock);
    unsigned i = (unsigned)(key * 0x9e3779b97f4a7c15ull >> 40) % (2 * NOTED_MAX);
    while (noted_keys[i] && noted_keys[i] != key)
        i = (i + 1) % (2 * NOTED_MAX);
    if (!noted_keys[i] && noted_n < NOTED_MAX) {
        noted_keys[i] = key;
        noted_n++;
        first = 1;
    }
    pthread_mutex_unlock(&noted_lock);
    return first;
}

/* see vdpu_internal.h */
int vdpu_note(vdpu_t *d, uint32_t pc_index, unsigned bit, const char *fmt, ...)
{
    const vdpu_program_t *p = d->prog;
    if (pc_index >= p->n_insns)
        pc_index = p->n_insns; /* the spare mark after the last instruction */
    /* the first DPU (of any thread) to meet the place reports it: the
     * program's own marks first (no lock), then the process's */
    if (__atomic_fetch_or(&p->noted[pc_index], (uint8_t)bit, __ATOMIC_RELAXED) & bit)
        return 0;
    if (!first_time(p->fingerprint ^ ((uint64_t)pc_index << 8 | bit)))
        return 0;
    vdpu_result_t *r = d->res;
    size_t o = strlen(r->notes);
    if (o + 2 >= sizeof r->notes)
        return 1;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(r->notes + o, sizeof r->notes - o, fmt, ap);
    va_end(ap);
    if (k < 0)
        return 1;
    o += (size_t)k;
    if (o + 1 < sizeof r->notes) {
        char where[200];
        vdpu_program_where(p, VDPU_IRAM_BASE + 4u * pc_index, where, sizeof where);
        snprintf(r->notes + o, sizeof r->notes - o, " at %s\n", where);
    } else {
        r->notes[sizeof r->notes - 2] = '\n';
    }
    return 1;
}

/* see vdpu_internal.h */
uint32_t vdpu_tasklet_pc(const vdpu_t *d, unsigned i)
{
    const vtask_t *w = &d->t[i];
    /* a stopped tasklet's pc is past its stop; a spinning one's is its ecall */
    return w->state == TS_BLOCKED && w->pc > 0 ? w->pc - 1 : w->pc;
}

/* see vdpu_internal.h */
void vdpu_describe_tasklets(vdpu_t *d)
{
    vdpu_result_t *r = d->res;
    size_t o = 0;
    r->detail[0] = 0;
    for (unsigned i = 0; i < d->nr && o + 1 < sizeof r->detail; i++) {
        const vtask_t *w = &d->t[i];
        const char *st;
        switch (w->state) {
        case TS_DONE:
            continue;
        case TS_WAITBOOT:
            st = "not booted";
            break;
        case TS_BLOCKED:
            st = "stopped";
            break;
        default:
            st = w->spin == SPIN_ACQUIRE  ? "spinning on an atomic bit"
                 : w->spin == SPIN_RESUME ? "spinning on the resume of a running tasklet"
                 : w->spin == SPIN_VWAIT  ? "spinning on a vmutex"
                                          : "running";
            break;
        }
        char where[200];
        if (w->state == TS_WAITBOOT)
            snprintf(where, sizeof where, "-");
        else
            vdpu_program_where(d->prog, VDPU_IRAM_BASE + 4u * vdpu_tasklet_pc(d, i), where,
                               sizeof where);
        int k =
            snprintf(r->detail + o, sizeof r->detail - o, "  tasklet %u: %s, %s\n", i, st, where);
        if (k < 0)
            break;
        o += (size_t)k;
    }
    if (o >= sizeof r->detail)
        memcpy(r->detail + sizeof r->detail - 5, "...\n", 5);
}
