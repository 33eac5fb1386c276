/* gdbstub_internal.h -- the gdb stub's hooks, which the interpreter (run.c)
 * calls only when vdpu->dbg is set (not installed). */
#ifndef VDPU_GDBSTUB_INTERNAL_H
#define VDPU_GDBSTUB_INTERNAL_H

#include "gdbstub.h"
#include "vdpu_internal.h"

void vdpu_gdb_run_begin(vdpu_t *d);
/* before t executes the instruction at pc: may stop and serve gdb (a
 * breakpoint, a finished step, Ctrl-C, the run's entry); called again for
 * the same instruction (the runahead declined it), it does nothing */
void vdpu_gdb_before(vdpu_t *d, const vtask_t *t, uint32_t pc);
/* t's head instruction at pc is about to execute (one that may touch
 * memory: the runahead's never do): notes a watched address it touches */
void vdpu_gdb_access(vdpu_t *d, const vtask_t *t, uint32_t pc);
/* after it: stops if it touched a watched address */
void vdpu_gdb_after(vdpu_t *d, const vtask_t *t);
/* the run faulted: stops at the faulting instruction with a signal */
void vdpu_gdb_fault(vdpu_t *d);
/* the run ended: reports the exit (or the fault) and frees the stub */
void vdpu_gdb_run_end(vdpu_t *d);

#endif
