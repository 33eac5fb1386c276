/*
 * fuzz_profile.c -- fuzz target: the virtual UPMEM's profile string
 * ("key=value,key=value", emu/host/profile.c) and what the virtual DPU does
 * with the keys that reach it (clockMhz, mode, maxInstructions, fastQuantum,
 * dmaRules, the timing keys).
 *
 * An accepted profile's DPU parameters go through vdpu_set_params; when the
 * DPU takes them, a small program is loaded (CLOCKS_PER_SEC is derived from
 * clockMhz there) and run for a few thousand instructions under them. The
 * program is tests/fuzz/corpus/elf/perf.elf (run from the repository root,
 * as `make test` and `make fuzz` do); without it only the parser is fuzzed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "vdpu.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PROGRAM "tests/fuzz/corpus/elf/perf.elf"

static vdpu_t *dpu;
static vdpu_program_t *prog;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* emu_profile_build also reads these: the input alone decides the result */
    unsetenv("UPMEM_PROFILE");
    unsetenv("UPMEM_PROFILE_BASE");
    char msg[256];
    if (vdpu_program_load_file(PROGRAM, &prog, msg, sizeof msg) != VDPU_OK)
        fprintf(stderr, "fuzz_profile: %s: %s (only the parser is fuzzed)\n", PROGRAM, msg);
    if (vdpu_create(NULL, &dpu) != VDPU_OK)
        dpu = NULL;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    profile_t p;
    dpu_error_t e = emu_profile_build(text, &p);
    free(text);
    if (e != DPU_OK)
        return 0;
    /* the limits profile.c promises (host.h) */
    if (p.nr_ranks < 1 || p.nr_ranks > HOST_MAX_RANKS || p.nr_dpus_per_rank < 1 ||
        p.nr_dpus_per_rank > HOST_MAX_DPUS_PER_RANK || p.nr_jobs_per_rank < 1 ||
        !(p.vdpu.clock_mhz > 0))
        abort();
    /* an accepted profile is one the virtual DPU accepts */
    if (dpu && vdpu_set_params(dpu, &p.vdpu) != VDPU_OK)
        abort();
    if (dpu && prog) {
        /* a bounded run: the profile may ask for no watchdog at all */
        vdpu_params_t run = p.vdpu;
        if (run.max_instructions == 0 || run.max_instructions > 5000)
            run.max_instructions = 5000;
        if (vdpu_set_params(dpu, &run) == VDPU_OK && vdpu_load(dpu, prog) == VDPU_OK) {
            /* the program sees the profile's clock in Hz: clockMhz=1e18 once
             * reached an undefined double -> uint32_t conversion here */
            vdpu_symbol_t cps;
            uint32_t hz_seen;
            double hz = run.clock_mhz * 1e6 + 0.5;
            if (vdpu_program_symbol(prog, "CLOCKS_PER_SEC", &cps) == VDPU_OK &&
                vdpu_wram_read(dpu, cps.offset, &hz_seen, 4) == VDPU_OK &&
                (!(hz < 4294967296.0) || hz_seen != (uint32_t)hz))
                abort();
            vdpu_result_t r;
            (void)vdpu_run(dpu, &r);
        }
    }
    emu_profile_release(&p);
    return 0;
}
