/* vdpu_run.c -- run a virtual-DPU ELF and print the result (debug harness).
 * usage: vdpu-run [--fast] [--mhz F] [--runs N] [--u32 SYMBOL]... prog.elf
 *        vdpu-run --loops FUNC prog.elf   (no run: FUNC's RV32 instructions and
 *        DPU issue slots under the cost rules, in all and per loop, i.e. per
 *        backward branch or jump inside FUNC; docs/KERNELS.md) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vdpu.h"

/* the RV32 instructions and DPU slots of [lo, hi] (IRAM addresses) */
static void range_cost(const vdpu_program_t *p, uint32_t lo, uint32_t hi, uint32_t *n,
                       uint32_t *slots)
{
    *n = *slots = 0;
    for (uint32_t a = lo; a <= hi; a += 4) {
        uint32_t s, t;
        if (vdpu_program_insn_cost(p, a, &s, &t) == VDPU_OK) {
            (*n)++;
            *slots += s;
        }
    }
}

static int print_loops(const vdpu_program_t *p, const char *func)
{
    vdpu_symbol_t f;
    if (vdpu_program_symbol(p, func, &f) || f.size < 4 || f.addr < VDPU_IRAM_BASE) {
        fprintf(stderr, "vdpu-run: no function %s\n", func);
        return 1;
    }
    uint32_t end = f.addr + f.size - 4, n, s;
    range_cost(p, f.addr, end, &n, &s);
    printf("%s: %u RV32 instructions, %u DPU issue slots (modeled, static)\n", func, n, s);
    for (uint32_t a = f.addr; a <= end; a += 4) {
        uint32_t c, t;
        if (vdpu_program_insn_cost(p, a, &c, &t) == VDPU_OK && t >= f.addr && t <= a) {
            range_cost(p, t, a, &n, &s);
            printf("loop 0x%08x..0x%08x: %u RV32 instructions, %u DPU issue slots\n", t, a, n, s);
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    vdpu_params_t prm;
    vdpu_params_default(&prm);
    const char *path = NULL, *loops = NULL;
    const char *syms[32];
    int nsyms = 0, runs = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--fast"))
            prm.mode = VDPU_MODE_FAST;
        else if (!strcmp(argv[i], "--mhz") && i + 1 < argc)
            prm.clock_mhz = atof(argv[++i]);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--loops") && i + 1 < argc)
            loops = argv[++i];
        else if (!strcmp(argv[i], "--u32") && i + 1 < argc && nsyms < 32)
            syms[nsyms++] = argv[++i];
        else
            path = argv[i];
    }
    if (!path) {
        fprintf(stderr, "usage: vdpu-run [--fast] [--mhz F] [--runs N] [--u32 SYM]... prog.elf\n"
                        "       vdpu-run --loops FUNC prog.elf\n");
        return 2;
    }
    char msg[256];
    vdpu_program_t *p;
    vdpu_err_t e = vdpu_program_load_file(path, &p, msg, sizeof msg);
    if (e) {
        printf("load error: %s: %s\n", vdpu_strerror(e), msg);
        return 1;
    }
    if (loops) {
        int rc = print_loops(p, loops);
        vdpu_program_free(p);
        return rc;
    }
    vdpu_t *d;
    if (vdpu_create(&prm, &d) || vdpu_load(d, p)) {
        printf("cannot create DPU\n");
        return 1;
    }
    vdpu_result_t r;
    for (int k = 0; k < runs; k++) {
        vdpu_run(d, &r);
        printf("run %d: %s", k, r.status == VDPU_STATUS_DONE ? "done" : "FAULT");
        if (r.status == VDPU_STATUS_FAULT)
            printf(" [%s] tasklet %d pc 0x%08x in %s: %s", vdpu_fault_name(r.fault_code),
                   r.fault_tasklet, r.fault_pc, r.fault_func, r.fault_msg);
        printf("\n  cycles %llu instructions %llu slots %llu idle %llu dma %llu/%lluB/%llu busy\n",
               (unsigned long long)r.cycles, (unsigned long long)r.instructions,
               (unsigned long long)r.slots, (unsigned long long)r.idle_cycles,
               (unsigned long long)r.dma_count, (unsigned long long)r.dma_bytes,
               (unsigned long long)r.dma_busy_cycles);
        if (r.status == VDPU_STATUS_FAULT && r.detail[0])
            fputs(r.detail, stdout);
        if (r.notes[0])
            printf("notes:\n%s", r.notes);
        for (int s = 0; s < nsyms; s++) {
            vdpu_symbol_t sy;
            if (vdpu_program_symbol(p, syms[s], &sy)) {
                printf("  %s: unknown\n", syms[s]);
                continue;
            }
            printf("  %s @0x%08x (%u bytes%s):", syms[s], sy.addr, sy.size,
                   sy.host_visible ? ", host" : "");
            for (uint32_t o = 0; o < sy.size && o < 64; o += 4) {
                uint32_t v = 0;
                if (sy.mem == VDPU_MEM_WRAM)
                    vdpu_wram_read(d, sy.offset + o, &v, 4);
                else if (sy.mem == VDPU_MEM_MRAM)
                    vdpu_mram_read(d, sy.offset + o, &v, 4);
                printf(" %u", v);
            }
            printf("\n");
        }
    }
    vdpu_free(d);
    vdpu_program_free(p);
    return 0;
}
