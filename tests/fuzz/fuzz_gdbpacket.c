/*
 * fuzz_gdbpacket.c -- fuzz target: the virtual DPU's gdb stub
 * (emu/vdpu/gdbstub.h) as gdb's side of the connection would drive it:
 * framing, checksums, acknowledgements and Ctrl-C, then every packet
 * (registers, memory reads and writes at any address, breakpoints and
 * watchpoints, threads, qXfer, monitor commands, resume requests).
 *
 * The stub serves a DPU that ran tests/fuzz/corpus/elf/perf.elf once (run
 * from the repository root, as `make test` and `make fuzz` do), so its
 * tasklets, memories and symbols exist; without the program, a DPU with
 * nothing loaded. Replies go to a buffer; nothing is sent anywhere.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdbstub.h"
#include "vdpu.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PROGRAM "tests/fuzz/corpus/elf/perf.elf"

static vdpu_t *dpu;
static vdpu_program_t *prog;
static char out[1 << 16];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    char msg[256];
    if (vdpu_create(NULL, &dpu) != VDPU_OK) {
        dpu = NULL;
        return 0;
    }
    if (vdpu_program_load_file(PROGRAM, &prog, msg, sizeof msg) != VDPU_OK) {
        fprintf(stderr, "fuzz_gdbpacket: %s: %s (a DPU with no program)\n", PROGRAM, msg);
        return 0;
    }
    vdpu_result_t r;
    if (vdpu_load(dpu, prog) != VDPU_OK || vdpu_run(dpu, &r) != VDPU_OK)
        fprintf(stderr, "fuzz_gdbpacket: %s does not run\n", PROGRAM);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dpu)
        return 0;
    vdpu_gdb_t *g = vdpu_gdb_new_buffer(dpu);
    if (!g)
        return 0;
    /* in two pieces: a packet split between two reads must work too */
    size_t half = size / 2;
    size_t n = vdpu_gdb_feed(g, data, half, out, sizeof out);
    n += vdpu_gdb_feed(g, data + half, size - half, out, sizeof out);
    if (n > 2 * sizeof out)
        abort(); /* the reply length is capped at the buffer */
    vdpu_gdb_free(g);
    return 0;
}
