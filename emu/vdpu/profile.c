/* profile.c -- the profiler's collector (the hooks run.c calls when
 * vdpu->prof is set), profiles, their merging and their text form. The
 * attribution rules are in vprof.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vprof_internal.h"

#define NONE       UINT32_MAX
#define NODE_LIMIT (1u << 16) /* contexts per profile; deeper ones fold up */

static void prof_clear(vprof_t *p)
{
    memset(p->insn, 0, (size_t)p->n_insns * sizeof *p->insn);
    memset(p->tasklet, 0, sizeof p->tasklet);
    p->n_nodes = 0;
    p->runs = p->faults = p->cycles_sum = p->cycles_max = 0;
    p->instructions = p->slots = p->dma_count = p->dma_bytes = 0;
}

static vdpu_err_t prof_init(vprof_t *p, const vdpu_program_t *prog)
{
    memset(p, 0, sizeof *p);
    p->prog = prog;
    p->n_insns = prog->n_insns;
    p->nr_tasklets = prog->nr_tasklets;
    p->insn = calloc(prog->n_insns + 1u, sizeof *p->insn);
    return p->insn ? VDPU_OK : VDPU_ERR_NOMEM;
}

static void prof_fini(vprof_t *p)
{
    free(p->insn);
    free(p->node);
    p->insn = NULL;
    p->node = NULL;
}

vdpu_err_t vdpu_prof_new(const vdpu_program_t *prog, vprof_t **out)
{
    if (!prog || !out)
        return VDPU_ERR_ARG;
    *out = NULL;
    vprof_t *p = malloc(sizeof *p);
    if (!p)
        return VDPU_ERR_NOMEM;
    vdpu_err_t e = prof_init(p, prog);
    if (e) {
        free(p);
        return e;
    }
    *out = p;
    return VDPU_OK;
}

void vdpu_prof_free(vprof_t *p)
{
    if (!p)
        return;
    prof_fini(p);
    free(p);
}

/* The child of `parent` (NONE: a root) for func, created if missing; NONE
 * when the node table is full or cannot grow. */
static uint32_t node_child(vprof_t *p, uint32_t parent, uint32_t func)
{
    uint32_t c = parent == NONE ? (p->n_nodes ? 0 : NONE) : p->node[parent].child;
    /* roots are chained as siblings of node 0 */
    for (; c != NONE; c = p->node[c].sibling)
        if (p->node[c].func == func && p->node[c].parent == parent)
            return c;
    if (p->n_nodes >= NODE_LIMIT)
        return NONE;
    if (p->n_nodes == p->cap_nodes) {
        uint32_t cap = p->cap_nodes ? 2 * p->cap_nodes : 64;
        vprof_node_t *n = realloc(p->node, cap * sizeof *n);
        if (!n)
            return NONE;
        p->node = n;
        p->cap_nodes = cap;
    }
    uint32_t i = p->n_nodes++;
    vprof_node_t *n = &p->node[i];
    memset(n, 0, sizeof *n);
    n->parent = parent;
    n->func = func;
    n->child = NONE;
    if (parent == NONE) {
        n->sibling = NONE;
        if (i) { /* append to the roots' chain */
            uint32_t r = 0;
            while (p->node[r].sibling != NONE)
                r = p->node[r].sibling;
            p->node[r].sibling = i;
        }
    } else {
        n->sibling = p->node[parent].child;
        p->node[parent].child = i;
    }
    return i;
}

/* ------------------------------------------------------------ collector */

vdpu_err_t vdpu_profile_enable(vdpu_t *d, int on)
{
    if (!d)
        return VDPU_ERR_ARG;
    if (!on) {
        if (d->prof) {
            prof_fini(&d->prof->out);
            free(d->prof->tslots);
            free(d->prof->fidx);
            free(d->prof);
            d->prof = NULL;
        }
        return VDPU_OK;
    }
    if (!d->prof) {
        d->prof = calloc(1, sizeof *d->prof);
        if (!d->prof)
            return VDPU_ERR_NOMEM;
    }
    return VDPU_OK;
}

const vprof_t *vdpu_profile_last(const vdpu_t *d)
{
    return d && d->prof && d->prof->out.insn && d->prof->out.runs ? &d->prof->out : NULL;
}

void vdpu_prof_run_begin(vdpu_t *d)
{
    vprof_run_t *P = d->prof;
    const vdpu_program_t *prog = d->prog;
    if (P->out.prog != prog || !P->out.insn) {
        prof_fini(&P->out);
        free(P->tslots);
        free(P->fidx);
        P->tslots = NULL;
        P->fidx = NULL;
        if (prof_init(&P->out, prog) == VDPU_OK) {
            P->tslots = calloc((size_t)prog->nr_tasklets * prog->n_insns + 1u, sizeof *P->tslots);
            P->fidx = malloc(((size_t)prog->n_insns + 1u) * sizeof *P->fidx);
        }
        if (!P->tslots || !P->fidx) { /* out of memory: this DPU is not profiled */
            prof_fini(&P->out);
            free(P->tslots);
            free(P->fidx);
            free(P);
            d->prof = NULL;
            return;
        }
        /* the function entry of each instruction (ELF FUNC symbols) */
        uint32_t f = 0, k = 0;
        for (uint32_t i = 0; i < prog->n_insns; i++) {
            uint32_t a = VDPU_IRAM_BASE + 4u * i;
            while (k < prog->n_funcs && prog->funcs[k]->value <= a) {
                f = (prog->funcs[k]->value - VDPU_IRAM_BASE) / 4u;
                k++;
            }
            P->fidx[i] = f;
        }
    } else {
        prof_clear(&P->out);
        memset(P->tslots, 0, (size_t)prog->nr_tasklets * prog->n_insns * sizeof *P->tslots);
    }
    vprof_t *o = &P->out;
    o->clock_mhz = d->params.clock_mhz;
    o->timed = d->params.mode == VDPU_MODE_TIMED;
    for (unsigned k = 0; k < prog->nr_tasklets; k++) {
        uint32_t root = node_child(o, NONE, k);
        P->cur[k] = root == NONE ? NONE : node_child(o, root, P->fidx[prog->entry]);
        if (P->cur[k] == NONE) { /* out of memory: this DPU is not profiled */
            vdpu_profile_enable(d, 0);
            return;
        }
        P->first[k] = 0;
        P->started[k] = 0;
        P->blocked_seen[k] = 0;
        P->last_pc[k] = prog->entry;
        P->min_sp[k] = prog->stack_hi[k];
    }
}

void vdpu_prof_head(vdpu_t *d, const vtask_t *t, uint32_t pc)
{
    vprof_run_t *P = d->prof;
    unsigned k = (unsigned)(t - d->t);
    if (!P->started[k]) {
        P->started[k] = 1;
        P->first[k] = d->now;
    }
    uint64_t b = t->st.blocked_cycles - P->blocked_seen[k];
    if (b) { /* it was stopped since its last head, the stop ecall */
        P->blocked_seen[k] = t->st.blocked_cycles;
        P->out.insn[P->last_pc[k]].sync_wait += b;
        if (P->cur[k] != NONE)
            P->out.node[P->cur[k]].waits += b;
    }
    P->last_pc[k] = pc;
}

/* a call (jal/jalr writing ra), a return (jalr x0, 0(ra)), a tail call
 * (any other jump into another function's entry); 0 otherwise */
enum { CF_NONE, CF_CALL, CF_RET, CF_JUMP };
static int control(const vinsn_t *I)
{
    if (I->op == OP_JAL || I->op == OP_JALR) {
        if (I->rd == 1)
            return CF_CALL;
        if (I->op == OP_JALR && I->rs1 == 1 && I->imm == 0)
            return CF_RET;
        return CF_JUMP;
    }
    return CF_NONE;
}

void vdpu_prof_control(vdpu_t *d, const vtask_t *t, uint32_t pc, int with_next)
{
    vprof_run_t *P = d->prof;
    vprof_t *o = &P->out;
    const unsigned k = (unsigned)(t - d->t);
    const uint32_t cur = P->cur[k];
    /* a jump folded into this instruction, if it executed with it */
    const vinsn_t *I = &d->code[pc];
    int cf = control(I);
    if (cf == CF_NONE && with_next && pc + 1 < o->n_insns && d->code[pc + 1].cost == 0)
        cf = control(&d->code[pc + 1]);
    if (cf == CF_NONE || t->pc >= o->n_insns)
        return;
    uint32_t to = P->fidx[t->pc];
    if (cf == CF_CALL) {
        uint32_t c = node_child(o, cur, to);
        if (c != NONE)
            P->cur[k] = c;
    } else if (cf == CF_RET) {
        uint32_t up = o->node[cur].parent;
        if (up != NONE && o->node[up].parent != NONE) {
            P->cur[k] = up;
            if (o->node[up].func != to) /* not where it was called from: resync */
                P->cur[k] = node_child(o, o->node[up].parent, to);
        } else if (o->node[cur].func != to) {
            P->cur[k] = node_child(o, up, to); /* left the outermost function */
        }
    } else if (to != o->node[cur].func && t->pc == to) { /* tail call */
        uint32_t c = node_child(o, o->node[cur].parent, to);
        if (c != NONE)
            P->cur[k] = c;
    }
    if (P->cur[k] == NONE)
        P->cur[k] = cur;
}

void vdpu_prof_dma(vdpu_t *d, uint32_t pc, uint64_t n, uint64_t bytes, int write)
{
    vprof_insn_t *x = &d->prof->out.insn[pc];
    x->dma_count += n;
    if (write)
        x->mram_write += bytes;
    else
        x->mram_read += bytes;
}

void vdpu_prof_dma_wait(vdpu_t *d, const vtask_t *t, uint32_t pc, uint64_t cycles)
{
    vprof_run_t *P = d->prof;
    unsigned k = (unsigned)(t - d->t);
    P->out.insn[pc].dma_wait += cycles;
    P->out.tasklet[k].dma += cycles;
    if (P->cur[k] != NONE)
        P->out.node[P->cur[k]].waits += cycles;
}

void vdpu_prof_spin(vdpu_t *d, const vtask_t *t, uint32_t slots)
{
    d->prof->out.tasklet[t - d->t].spin += slots;
}

int vdpu_prof_is_write(const vinsn_t *I, const vtask_t *t)
{
    switch (I->op) {
    case OP_SDMA:
    case OP_SDMA_R:
    case OP_SB:
    case OP_SH:
    case OP_SW:
    case OP_SD:
        return 1;
    case OP_ECALL:
        return t->r[17] == VDPU_SYS_MRAM_WRITE;
    default:
        return 0;
    }
}

void vdpu_prof_run_end(vdpu_t *d)
{
    vprof_run_t *P = d->prof;
    vprof_t *o = &P->out;
    const vdpu_result_t *res = d->res;
    const unsigned nr = o->nr_tasklets;
    const uint64_t cycles = o->timed ? res->cycles : 0;
    o->runs = 1;
    o->faults = res->status == VDPU_STATUS_FAULT;
    o->cycles_sum = o->cycles_max = cycles;
    o->instructions = res->instructions;
    o->slots = res->slots;
    o->dma_count = res->dma_count;
    o->dma_bytes = res->dma_bytes;
    double f[VDPU_MAX_TASKLETS];
    for (unsigned k = 0; k < nr; k++) {
        const vtask_t *t = &d->t[k];
        vprof_tasklet_t *x = &o->tasklet[k];
        x->slots = t->st.slots;
        x->spin = x->spin > x->slots ? x->slots : x->spin;
        x->issue = x->slots - x->spin;
        x->stack_size = t->stack_hi - t->stack_lo;
        x->wram_low_sp = P->min_sp[k];
        x->stack_peak = t->stack_hi - P->min_sp[k];
        f[k] = 0;
        if (!o->timed)
            continue;
        /* a stop not followed by a head: the run ended (fault, deadlock) */
        uint64_t blocked = t->st.blocked_cycles;
        if (t->state == TS_BLOCKED && d->now > t->bsince)
            blocked += d->now - t->bsince;
        uint64_t end = t->state == TS_DONE ? t->st.cycles : cycles;
        if (end > cycles)
            end = cycles;
        x->boot = P->started[k] ? P->first[k] : end;
        x->sync = blocked;
        x->done = cycles - end;
        uint64_t used = x->boot + x->slots + x->dma + x->sync;
        x->revolver = end > used ? end - used : 0;
        if (used > end) /* cannot happen with a consistent model: keep the sum */
            x->sync -= used - end < x->sync ? used - end : x->sync;
        if (x->slots)
            f[k] = (double)(x->slots + x->revolver) / (double)x->slots;
        /* sync cycles not yet attributed (a stop still in force) */
        if (blocked > P->blocked_seen[k] && P->cur[k] != NONE) {
            o->insn[P->last_pc[k]].sync_wait += blocked - P->blocked_seen[k];
            o->node[P->cur[k]].waits += blocked - P->blocked_seen[k];
        }
    }
    for (uint32_t i = 0; i < o->n_insns; i++) {
        vprof_insn_t *x = &o->insn[i];
        double c = (double)(x->dma_wait + x->sync_wait);
        for (unsigned k = 0; k < nr; k++)
            c += (double)P->tslots[(size_t)k * o->n_insns + i] * f[k];
        x->cycles = o->timed ? c : 0;
    }
    for (uint32_t i = 0; i < o->n_nodes; i++) {
        vprof_node_t *n = &o->node[i];
        uint32_t r = i;
        while (o->node[r].parent != NONE)
            r = o->node[r].parent;
        unsigned k = o->node[r].func;
        n->cycles = o->timed ? (double)n->slots * f[k] + (double)n->waits : 0;
    }
}

/* ---------------------------------------------------------- merge, write */

vdpu_err_t vdpu_prof_merge(vprof_t *dst, const vprof_t *src)
{
    if (!dst || !src || dst->n_insns != src->n_insns || dst->nr_tasklets != src->nr_tasklets)
        return VDPU_ERR_ARG;
    if (!dst->runs) {
        dst->clock_mhz = src->clock_mhz;
        dst->timed = src->timed;
    }
    dst->runs += src->runs;
    dst->faults += src->faults;
    dst->cycles_sum += src->cycles_sum;
    if (src->cycles_max > dst->cycles_max)
        dst->cycles_max = src->cycles_max;
    dst->instructions += src->instructions;
    dst->slots += src->slots;
    dst->dma_count += src->dma_count;
    dst->dma_bytes += src->dma_bytes;
    for (unsigned k = 0; k < src->nr_tasklets; k++) {
        vprof_tasklet_t *a = &dst->tasklet[k];
        const vprof_tasklet_t *b = &src->tasklet[k];
        a->boot += b->boot;
        a->issue += b->issue;
        a->spin += b->spin;
        a->dma += b->dma;
        a->sync += b->sync;
        a->revolver += b->revolver;
        a->done += b->done;
        a->slots += b->slots;
        a->stack_size = b->stack_size;
        if (b->stack_peak > a->stack_peak)
            a->stack_peak = b->stack_peak;
        if (!a->wram_low_sp || b->wram_low_sp < a->wram_low_sp)
            a->wram_low_sp = b->wram_low_sp;
    }
    for (uint32_t i = 0; i < src->n_insns; i++) {
        vprof_insn_t *a = &dst->insn[i];
        const vprof_insn_t *b = &src->insn[i];
        a->count += b->count;
        a->slots += b->slots;
        a->dma_count += b->dma_count;
        a->mram_read += b->mram_read;
        a->mram_write += b->mram_write;
        a->dma_wait += b->dma_wait;
        a->sync_wait += b->sync_wait;
        a->cycles += b->cycles;
    }
    /* contexts by path: a parent's index is below its children's */
    if (!src->n_nodes)
        return VDPU_OK;
    uint32_t *map = malloc(src->n_nodes * sizeof *map);
    if (!map)
        return VDPU_ERR_NOMEM;
    for (uint32_t i = 0; i < src->n_nodes; i++) {
        const vprof_node_t *s = &src->node[i];
        uint32_t up = s->parent == NONE ? NONE : map[s->parent];
        uint32_t j = (s->parent != NONE && up == NONE) ? NONE : node_child(dst, up, s->func);
        if (j == NONE && up != NONE)
            j = up; /* table full: fold into the parent */
        map[i] = j;
        if (j != NONE) {
            dst->node[j].slots += s->slots;
            dst->node[j].waits += s->waits;
            dst->node[j].cycles += s->cycles;
        }
    }
    free(map);
    return VDPU_OK;
}

static const char *func_name(const vdpu_program_t *prog, uint32_t idx)
{
    return vdpu_program_func_name(prog, VDPU_IRAM_BASE + 4u * idx);
}

/* the folded stack of node i ("tasklet3;main;f") into buf */
static void node_path(const vprof_t *p, uint32_t i, char *buf, size_t len)
{
    uint32_t chain[256];
    unsigned n = 0;
    for (uint32_t j = i; j != NONE && n < 256; j = p->node[j].parent)
        chain[n++] = j;
    size_t o = 0;
    buf[0] = 0;
    while (n-- > 0 && o + 1 < len) {
        const vprof_node_t *x = &p->node[chain[n]];
        if (x->parent == NONE)
            o += (size_t)snprintf(buf + o, len - o, "tasklet%u", x->func);
        else
            o += (size_t)snprintf(buf + o, len - o, ";%s", func_name(p->prog, x->func));
    }
}

int vdpu_prof_write(FILE *f, const vprof_t *p, const char *name, const char *extra)
{
    if (!f || !p)
        return -1;
    const char *nm = name && *name ? name : "?";
    fprintf(f, "vdpu-profile 1\n");
    /* the name may hold spaces: the rest of the line */
    fprintf(f, "program %s\n", nm);
    fprintf(f, "mode %s clock_mhz %.6g tasklets %u insns %u\n", p->timed ? "timed" : "fast",
            p->clock_mhz, p->nr_tasklets, p->n_insns);
    fprintf(f,
            "runs %llu faults %llu cycles_sum %llu cycles_max %llu instructions %llu slots %llu "
            "dma_count %llu dma_bytes %llu\n",
            (unsigned long long)p->runs, (unsigned long long)p->faults,
            (unsigned long long)p->cycles_sum, (unsigned long long)p->cycles_max,
            (unsigned long long)p->instructions, (unsigned long long)p->slots,
            (unsigned long long)p->dma_count, (unsigned long long)p->dma_bytes);
    for (unsigned k = 0; k < p->nr_tasklets; k++) {
        const vprof_tasklet_t *t = &p->tasklet[k];
        fprintf(f,
                "tasklet %u boot %llu issue %llu spin %llu dma %llu sync %llu revolver %llu done "
                "%llu slots %llu stack_peak %u stack_size %u low_sp 0x%x\n",
                k, (unsigned long long)t->boot, (unsigned long long)t->issue,
                (unsigned long long)t->spin, (unsigned long long)t->dma,
                (unsigned long long)t->sync, (unsigned long long)t->revolver,
                (unsigned long long)t->done, (unsigned long long)t->slots, t->stack_peak,
                t->stack_size, t->wram_low_sp);
    }
    for (uint32_t i = 0; i < p->n_insns; i++) {
        const vprof_insn_t *x = &p->insn[i];
        if (!x->count && !x->slots && !x->sync_wait && !x->dma_wait)
            continue;
        fprintf(f, "insn 0x%08x %s %llu %llu %.0f %llu %llu %llu %llu %llu\n",
                VDPU_IRAM_BASE + 4u * i, func_name(p->prog, i), (unsigned long long)x->count,
                (unsigned long long)x->slots, x->cycles, (unsigned long long)x->dma_count,
                (unsigned long long)x->mram_read, (unsigned long long)x->mram_write,
                (unsigned long long)x->dma_wait, (unsigned long long)x->sync_wait);
    }
    char path[4096];
    for (uint32_t i = 0; i < p->n_nodes; i++) {
        const vprof_node_t *x = &p->node[i];
        if (x->parent == NONE || (!x->slots && !x->waits))
            continue;
        node_path(p, i, path, sizeof path);
        fprintf(f, "stack %.0f %s\n", x->cycles, path);
    }
    if (extra)
        fputs(extra, f);
    fprintf(f, "end\n");
    return ferror(f) ? -1 : 0;
}
