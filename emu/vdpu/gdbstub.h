/*
 * emu/vdpu/gdbstub.h -- a GDB remote-serial-protocol stub in the virtual
 * DPU (libvdpu.a, host side): gdb-multiarch debugs a DPU program with its
 * DWARF, tasklets as threads (docs/DEBUGGING.md).
 *
 * The stub serves one run of one DPU over a connected stream (a socket the
 * host library accepted). The run stops before its first instruction and
 * waits for gdb; while gdb has it stopped, nothing of the DPU moves, so the
 * modeled clock and every output are those of an undebugged run (unless gdb
 * writes memory or registers). Memory is the DPU's address map (abi.h):
 * WRAM at 0, MRAM at 0x08000000, IRAM (the instruction words, read-only) at
 * 0x80000000, as in the ELF's sections. Breakpoints are kept by the stub
 * (Z0/Z1), watchpoints (Z2 write, Z3 read, Z4 access) on WRAM and MRAM
 * stores, loads and DMAs. A fault stops gdb at the faulting instruction
 * with a signal (SIGSEGV for memory, SIGILL, SIGFPE, SIGABRT for the rest)
 * and prints the fault's text; the run's end is reported as an exit.
 *
 * The library never prints and never exits.
 */
#ifndef VDPU_GDBSTUB_H
#define VDPU_GDBSTUB_H

#include <stddef.h>

#include "vdpu.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vdpu_gdb vdpu_gdb_t;

/* Debug the DPU's next run over fd (a connected stream; the stub owns it
 * and closes it when the run ends or gdb detaches). */
vdpu_err_t vdpu_gdb_attach(vdpu_t *dpu, int fd);

/* The packet layer alone, for tests and fuzzing: a stub on dpu (which may
 * have no program loaded and need not be running) that writes its replies
 * to out instead of a stream. vdpu_gdb_feed takes raw bytes from gdb
 * (framing, checksums, acknowledgements, interrupts) and returns the
 * number of reply bytes now in out (capped at its size). */
vdpu_gdb_t *vdpu_gdb_new_buffer(vdpu_t *dpu);
size_t vdpu_gdb_feed(vdpu_gdb_t *g, const void *data, size_t len, char *out, size_t cap);
void vdpu_gdb_free(vdpu_gdb_t *g);

#ifdef __cplusplus
}
#endif
#endif /* VDPU_GDBSTUB_H */
