/*
 * host.h -- the layers of the virtual UPMEM host library (emu/host) and the
 * limits they share. Read this first.
 *
 * Objects: an allocation (what dpu_alloc returned) owns ranks; a rank owns
 * DPUs (each a vdpu_t), an in-order job queue served by one lazily started
 * worker thread, the per-DPU prepared-transfer table and a modeled timeline.
 * An operation (op_t) is one API call; it becomes one job per rank. Jobs of
 * a rank run strictly in order, one at a time (rank->busy); ranks are
 * independent. A synchronous call on ranks with nothing queued runs inline
 * in the caller; otherwise it queues its jobs and waits for them.
 *
 * Layers, bottom to top. A file includes the headers of layers below it
 * only, so calls run one way (tests/emu/lib/layers.sh derives the graph from
 * the #includes and fails on a cycle, in `make test`):
 *
 *   host.h     these limits
 *   clock      real clocks; the program's clock calls, on the
 *              modeled clock with hostTime=modeled (a seam: the
 *              modeled time comes from a source set by alloc)     clock.h
 *   profile    profile string, the host model's parameter table   profile.h
 *   prog       parsed DPU programs, shared by identical ELF bytes  prog.h
 *   reuse      sampleReuse: identical timed runs done once         reuse.h
 *   dpuprof    profile=FILE: the DPU profiles summed per program,
 *              written at exit                                    dpuprof.h
 *   model      modeled clock: timelines, costs, stats, trace      model.h
 *   entry      API entry/exit (host work), callback nesting,
 *              which ranks this thread owns                       entry.h
 *   pool       the DPU thread pool                                pool.h
 *   set        allocations, ranks, DPUs, set checks, iteration    set.h
 *   queue      operations, per-rank job queues and workers,
 *              sticky errors                                      queue.h
 *   dpugdb     gdbserver=HOST:PORT: waits for gdb, hands the
 *              connection to the virtual DPU's stub               dpugdb.h
 *   ops        <dpu.h> load/symbols/transfers/launch/sync/status/
 *              callbacks, and the code that executes their jobs   ops.c
 *   log        dpu_log_read                                       log.c
 *   alloc      dpu_alloc, dpu_alloc_ranks, dpu_free               alloc.c
 *   emu        <dpu_emu.h>: the public dpu_emu_* API              emu.c
 *   error      dpu_error_to_string (names queue.h's job types)    error.c
 *   sdk        the SDK's low-level API on rank/DPU handles
 *              (dpu_management.h, dpu_memory.h, dpu_runner.h,
 *              dpu_transfer_matrix.h, dpu_program.h, dpu_config.h),
 *              each through the <dpu.h> call on the handle's set   sdk.c
 *
 * Seams where a lower layer must reach up: the clock reads the modeled
 * host time through a source function alloc.c sets (emu_model_host_present)
 * when a profile says hostTime=modeled; the queue runs a job through the
 * op's own `exec` function (set by ops.c), so it never calls ops; the model
 * prices a job from plain numbers and keeps a rank's clock in an
 * emu_timeline_t the rank embeds, so it knows neither ops nor ranks;
 * freeing an allocation quiesces and stops the ranks' workers (queue)
 * before set.c destroys the ranks, in alloc.c above both.
 *
 * Names: every global of the virtual UPMEM that is not part of the UPMEM
 * API (dpu_*, DPU_*, dpulog_read_for_dpu) or of our public extension
 * (dpu_emu_*) is static or starts with emu_ (emu/host) or vdpu_ (emu/vdpu),
 * so a program linking libdpu.a may use any other name
 * (tests/emu/lib/exports.sh and names.c check it).
 */
#ifndef EMU_HOST_H
#define EMU_HOST_H

#define HOST_MAX_RANKS         1024u /* profile limit on nrRanks                 */
#define HOST_MAX_DPUS_PER_RANK 64u

#endif /* EMU_HOST_H */
