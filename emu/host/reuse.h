/*
 * reuse.h -- profile key sampleReuse=1 (timing-only, docs/VIRTUAL_UPMEM_HOST.md
 * §5): a DPU run whose program, virtual DPU parameters and whole WRAM at
 * launch equal those of a run already done in this process is not run
 * again: it gets that run's result (cycles, counts) and its WRAM after the
 * run, and its MRAM is left as it was.  Layer: reuse (host.h), above prog.
 *
 * What it assumes is sampleDpus's promise extended over launches: the
 * kernel's modeled time does not depend on the MRAM's contents (a
 * data-oblivious kernel whose work sizes, keys and offsets are in WRAM).
 * Then a reused run takes the cycles a simulation would give, exactly; its
 * memory is not what the program computes, so ops.c marks the DPU not
 * simulated (reads of it fail) -- only a timing-only run may ask for it.
 * The WRAM is compared whole (no hash decides alone).  Runs of identical
 * DPUs in flight at once are simulated once: the others wait for the first.
 * At most EMU_REUSE_MAX runs are kept (128 KiB of WRAM each); past that,
 * new runs are simply run.  A run that faults is never reused.
 */
#ifndef EMU_REUSE_H
#define EMU_REUSE_H

#include <stdbool.h>

#include "../vdpu/vdpu.h"
#include "prog.h"

#define EMU_REUSE_MAX 256

/* Before running v (program p loaded): true when an identical run is known:
 * *res is its result and v's WRAM its WRAM after the run; nothing else to
 * do.  false: run v, then call emu_reuse_end() with *token (NULL when the
 * run will not be kept). */
bool emu_reuse_begin(const struct dpu_program_t *p, vdpu_t *v, vdpu_result_t *res, void **token);
/* After the run of emu_reuse_begin()'s false: keeps it (ok: it ran to the
 * end without a fault) for the identical runs to come, and wakes those
 * waiting for it. */
void emu_reuse_end(void *token, const vdpu_t *v, const vdpu_result_t *res, bool ok);

#endif /* EMU_REUSE_H */
