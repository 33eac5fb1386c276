/* vdpu_run.c -- run a virtual-DPU ELF and print the result (debug harness).
 * usage: vdpu-run [--fast] [--mhz F] [--runs N] [--u32 SYMBOL]... prog.elf */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vdpu.h"

int main(int argc, char **argv)
{
    vdpu_params_t prm;
    vdpu_params_default(&prm);
    const char *path = NULL;
    const char *syms[32];
    int nsyms = 0, runs = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--fast"))
            prm.mode = VDPU_MODE_FAST;
        else if (!strcmp(argv[i], "--mhz") && i + 1 < argc)
            prm.clock_mhz = atof(argv[++i]);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
            runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--u32") && i + 1 < argc && nsyms < 32)
            syms[nsyms++] = argv[++i];
        else
            path = argv[i];
    }
    if (!path) {
        fprintf(stderr, "usage: vdpu-run [--fast] [--mhz F] [--runs N] [--u32 SYM]... prog.elf\n");
        return 2;
    }
    char msg[256];
    vdpu_program_t *p;
    vdpu_err_t e = vdpu_program_load_file(path, &p, msg, sizeof msg);
    if (e) {
        printf("load error: %s: %s\n", vdpu_strerror(e), msg);
        return 1;
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
