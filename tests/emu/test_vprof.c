/* test_vprof.c -- the virtual DPU's profiler (emu/vdpu/vprof.h): a profiled
 * run is the unprofiled run (results, stats, memory), and the profile's
 * totals are the modeled clock's. Run from the repository root. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "vdpu.h"
#include "vprof.h"

#define OUTDIR   "build/tests/emu/elf"
#define CC       "sh emu/bin/dpu-upmem-dpurte-clang"
#define MRAM_CMP (256u * 1024u) /* MRAM compared: every program here stays below */

static int build(const char *out, const char *src, const char *flags, char *path, size_t plen)
{
    char cmd[1024];
    snprintf(path, plen, OUTDIR "/vprof_%s.elf", out);
    snprintf(cmd, sizeof cmd, "%s -O2 %s -o %s tests/emu/progs/%s >" OUTDIR "/vprof_%s.log 2>&1",
             CC, flags, path, src, out);
    return system(cmd);
}

typedef struct {
    const char *name, *src, *flags, *sym;
    uint32_t val;
} prog_t;

/* sync: barriers, mutexes, semaphores, handshakes; stream: 2 KiB DMAs from
 * 16 tasklets; bench_loop: WRAM loads/stores between ALU runs (the steady
 * state the scheduler skips); perf: the perfcounter, which reads pending
 * slots; faults' stack overflow: a run that ends in a fault */
static const prog_t progs[] = {
    {"sync", "sync.c", "-DNR_TASKLETS=8", NULL, 0},
    {"stream", "stream.c", "-DNR_TASKLETS=16", "total_bytes", 64u * 1024},
    {"bench_loop", "bench_loop.c", "-DNR_TASKLETS=12", "iterations", 2},
    {"perf", "perf.c", "-DNR_TASKLETS=4", NULL, 0},
};
#define NPROGS (sizeof progs / sizeof progs[0])

typedef struct {
    vdpu_result_t r;
    uint8_t *wram, *mram;
} outcome_t;

/* Runs prog on a fresh DPU (profiled when prof != NULL: a copy of its
 * profile is merged into *prof). Returns 0 when it ran. */
static int run_one(const vdpu_program_t *p, const prog_t *g, vdpu_mode_t mode, vprof_t **prof,
                   outcome_t *o)
{
    vdpu_params_t prm;
    vdpu_params_default(&prm);
    prm.mode = mode;
    prm.max_instructions = 2000000000ull;
    vdpu_t *d;
    if (vdpu_create(&prm, &d) || vdpu_load(d, p))
        return -1;
    int rc = -1;
    if (g->sym) {
        vdpu_symbol_t s;
        if (vdpu_program_symbol(p, g->sym, &s) ||
            vdpu_wram_write(d, s.offset, &g->val, sizeof g->val))
            goto out;
    }
    if (prof && (vdpu_profile_enable(d, 1) || vdpu_prof_new(p, prof)))
        goto out;
    if (vdpu_run(d, &o->r))
        goto out;
    o->wram = malloc(VDPU_WRAM_SIZE);
    o->mram = malloc(MRAM_CMP);
    if (!o->wram || !o->mram || vdpu_wram_read(d, 0, o->wram, VDPU_WRAM_SIZE) ||
        vdpu_mram_read(d, 0, o->mram, MRAM_CMP))
        goto out;
    if (prof && (!vdpu_profile_last(d) || vdpu_prof_merge(*prof, vdpu_profile_last(d))))
        goto out;
    rc = 0;
out:
    vdpu_free(d);
    return rc;
}

static void outcome_free(outcome_t *o)
{
    free(o->wram);
    free(o->mram);
}

/* "" when equal, else what differs */
static const char *diff(const outcome_t *a, const outcome_t *b)
{
    const vdpu_result_t *x = &a->r, *y = &b->r;
    if (x->status != y->status || x->fault_code != y->fault_code || x->fault_pc != y->fault_pc ||
        x->fault_tasklet != y->fault_tasklet || strcmp(x->fault_msg, y->fault_msg))
        return "status or fault";
    if (x->cycles != y->cycles)
        return "modeled cycles";
    if (x->instructions != y->instructions || x->slots != y->slots)
        return "instructions or slots";
    if (x->idle_cycles != y->idle_cycles || x->dma_count != y->dma_count ||
        x->dma_bytes != y->dma_bytes || x->dma_busy_cycles != y->dma_busy_cycles)
        return "idle or DMA stats";
    if (memcmp(x->tasklet, y->tasklet, sizeof x->tasklet))
        return "per-tasklet stats";
    if (memcmp(a->wram, b->wram, VDPU_WRAM_SIZE))
        return "WRAM";
    if (memcmp(a->mram, b->mram, MRAM_CMP))
        return "MRAM";
    return "";
}

/* "" when the profile's totals are the run's, else what is off */
static const char *totals(const vprof_t *p, const vdpu_result_t *r, char *buf, size_t len)
{
    uint64_t count = 0, slots = 0, dmas = 0, bytes = 0;
    double cyc = 0, ncyc = 0;
    for (uint32_t i = 0; i < p->n_insns; i++) {
        count += p->insn[i].count;
        slots += p->insn[i].slots;
        dmas += p->insn[i].dma_count;
        bytes += p->insn[i].mram_read + p->insn[i].mram_write;
        cyc += p->insn[i].cycles;
    }
    for (uint32_t i = 0; i < p->n_nodes; i++)
        ncyc += p->node[i].cycles;
    if (count != r->instructions || slots != r->slots) {
        snprintf(buf, len, "instructions %llu/%llu, slots %llu/%llu (profile/run)",
                 (unsigned long long)count, (unsigned long long)r->instructions,
                 (unsigned long long)slots, (unsigned long long)r->slots);
        return buf;
    }
    if (dmas != r->dma_count || bytes != r->dma_bytes) {
        snprintf(buf, len, "DMAs %llu/%llu, bytes %llu/%llu (profile/run)",
                 (unsigned long long)dmas, (unsigned long long)r->dma_count,
                 (unsigned long long)bytes, (unsigned long long)r->dma_bytes);
        return buf;
    }
    if (p->cycles_sum != r->cycles) {
        snprintf(buf, len, "cycles %llu, run %llu", (unsigned long long)p->cycles_sum,
                 (unsigned long long)r->cycles);
        return buf;
    }
    double outside = 0;
    for (unsigned k = 0; k < p->nr_tasklets; k++) {
        const vprof_tasklet_t *t = &p->tasklet[k];
        uint64_t sum = t->boot + t->issue + t->spin + t->dma + t->sync + t->revolver + t->done;
        if (sum != r->cycles) {
            snprintf(buf, len, "tasklet %u: categories sum to %llu, run %llu", k,
                     (unsigned long long)sum, (unsigned long long)r->cycles);
            return buf;
        }
        if (t->slots != r->tasklet[k].slots) {
            snprintf(buf, len, "tasklet %u: slots %llu, run %llu", k, (unsigned long long)t->slots,
                     (unsigned long long)r->tasklet[k].slots);
            return buf;
        }
        outside += (double)(t->boot + t->done);
    }
    double all = (double)p->nr_tasklets * (double)r->cycles;
    if (fabs(cyc + outside - all) > 1e-6 * all + 1 || fabs(ncyc - cyc) > 1e-6 * all + 1) {
        snprintf(buf, len,
                 "attributed cycles: instructions %.1f, contexts %.1f, boot+done %.0f, expected "
                 "%.0f tasklet-cycles",
                 cyc, ncyc, outside, all);
        return buf;
    }
    return "";
}

static void test_identical(void)
{
    for (size_t i = 0; i < NPROGS; i++) {
        const prog_t *g = &progs[i];
        char path[256], nm[96], msg[256], why[256];
        vdpu_program_t *p = NULL;
        if (build(g->name, g->src, g->flags, path, sizeof path) ||
            vdpu_program_load_file(path, &p, msg, sizeof msg)) {
            for (int m = 0; m < 2; m++) {
                snprintf(nm, sizeof nm, "vprof_%s_%s", g->name, m ? "fast" : "timed");
                test_failf(nm, "cannot build or load %s", path);
            }
            snprintf(nm, sizeof nm, "vprof_%s_totals", g->name);
            test_failf(nm, "cannot build or load %s", path);
            continue;
        }
        for (int m = 0; m < 2; m++) {
            vdpu_mode_t mode = m ? VDPU_MODE_FAST : VDPU_MODE_TIMED;
            snprintf(nm, sizeof nm, "vprof_%s_%s_identical", g->name, m ? "fast" : "timed");
            outcome_t a = {0}, b = {0};
            vprof_t *prof = NULL;
            if (run_one(p, g, mode, NULL, &a) || run_one(p, g, mode, &prof, &b)) {
                test_failf(nm, "cannot run %s", path);
            } else if (*diff(&a, &b)) {
                test_failf(nm, "profiled run differs: %s", diff(&a, &b));
            } else if (a.r.status != VDPU_STATUS_DONE) {
                test_failf(nm, "the program faulted: %s", a.r.fault_msg);
            } else {
                test_pass(nm);
            }
            if (!m) {
                snprintf(nm, sizeof nm, "vprof_%s_totals", g->name);
                const char *t = prof ? totals(prof, &b.r, why, sizeof why) : "no profile";
                if (*t)
                    test_failf(nm, "%s", t);
                else if (!strcmp(g->name, "sync") && !prof->tasklet[1].sync)
                    test_failf(nm, "no sync cycles in a program of barriers");
                else if (!strcmp(g->name, "stream") && !prof->tasklet[0].dma)
                    test_failf(nm, "no DMA wait in a program of 2 KiB DMAs");
                else
                    test_pass(nm);
            }
            vdpu_prof_free(prof);
            outcome_free(&a);
            outcome_free(&b);
        }
        vdpu_program_free(p);
    }
}

int main(int argc, char **argv)
{
    if (system("mkdir -p " OUTDIR) != 0) {
        fprintf(stderr, "test-vprof: cannot create " OUTDIR "\n");
        return 1;
    }
    test_register_group("vprof", test_identical, 3 * NPROGS);
    return test_main(argc, argv);
}
