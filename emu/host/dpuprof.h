/*
 * dpuprof.h -- the profile key profile=FILE: every DPU of the allocation
 * runs with the virtual DPU's profiler on (emu/vdpu/vprof.h), the runs of
 * each DPU program are summed, and FILE is written when the process exits
 * (docs/PROFILING.md gives its format). Layer: host (see host.h).
 */
#ifndef EMU_DPUPROF_H
#define EMU_DPUPROF_H

#include "../vdpu/vprof.h"
#include "prog.h"

/* Add the profile of one DPU run of prog to FILE's sum for prog. The
 * program is kept alive until the file is written. Thread-safe. */
void emu_dpuprof_add(const char *file, struct dpu_program_t *prog, const vprof_t *run);

/* After a launch ran: one line per launch and program in FILE (`launch`,
 * docs/PROFILING.md) with its DPUs' modeled cycles; `id` names the launch
 * (a launch split in several calls, one per rank, adds to one line).
 * Thread-safe. */
void emu_dpuprof_launch(const char *file, struct dpu_program_t *prog, uint64_t id, uint32_t dpus,
                        uint64_t cycles_max, uint64_t cycles_sum, uint32_t faults);

#endif /* EMU_DPUPROF_H */
