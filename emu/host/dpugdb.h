/*
 * dpugdb.h -- the profile keys gdbserver=HOST:PORT and gdbDpu=N: the N-th
 * DPU of the first launch waits, before its first instruction, for gdb to
 * connect, and the virtual DPU's stub (emu/vdpu/gdbstub.h) serves it for
 * that run (docs/DEBUGGING.md). Layer: above set (see host.h).
 */
#ifndef EMU_DPUGDB_H
#define EMU_DPUGDB_H

#include "set.h"

/* Called with the m DPUs a launch is about to run: the first time, when
 * their profile asks for gdb, listens on its address, prints where on
 * stderr, waits for gdb and attaches it to DPU gdbDpu. Thread-safe. */
void emu_dpugdb_launch(struct dpu_t **dpus, uint32_t m);

#endif /* EMU_DPUGDB_H */
