/*
 * dpu_probe.h -- energy and performance probes, as the UPMEM SDK's header of
 * that name (PrIM includes it when built with ENERGY=1).
 *
 * A probe accumulates measurement windows: dpu_probe_start opens one,
 * dpu_probe_stop closes it; dpu_probe_get reads the energy or the duration
 * of the windows closed so far, as their sum, average, minimum or maximum.
 *
 * On the virtual UPMEM both are MODELED, never measured: the duration is
 * the modeled clock's (<dpu_emu.h>), the energy that of the power model
 * (docs/MODEL.md, power; profile keys dpuIdleW, dpuActiveW, xferDpuW)
 * integrated over the window: every allocated rank, its idle DPUs, its
 * running launches and its transfers. The real probe read a hardware
 * energy sensor named by dpu_probe_init; here the name is only kept.
 *
 * The constants DPU_ENERGY, DPU_TIME, DPU_AVERAGE and DPU_ACCUMULATE are
 * the ones public programs use; the SDK's header itself was not available
 * to us, so the type names, the order of the enumerators and
 * DPU_MINIMUM/DPU_MAXIMUM are ours (docs/VIRTUAL_UPMEM_HOST.md).
 */
#ifndef DPU_PROBE_H
#define DPU_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "dpu_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What dpu_probe_get reads. */
typedef enum _dpu_probe_option_t {
    DPU_ENERGY, /* joules (modeled)               */
    DPU_TIME,   /* seconds (modeled)              */
} dpu_probe_option_t;

/* How dpu_probe_get reduces the closed windows. */
typedef enum _dpu_probe_option_type_t {
    DPU_AVERAGE,    /* per window                     */
    DPU_ACCUMULATE, /* their sum                      */
    DPU_MINIMUM,
    DPU_MAXIMUM,
} dpu_probe_option_type_t;

/* Plain data, owned by the caller; only the dpu_probe_* calls touch it. */
struct dpu_probe_t {
    const char *name; /* dpu_probe_init's, not copied    */
    bool initialized, running;
    uint32_t nr_windows; /* closed windows                  */
    double start_time, start_energy;
    double sum[2], min[2], max[2]; /* [DPU_ENERGY], [DPU_TIME] */
};

/* Sets up probe (no window open). name: the SDK's sensor name, kept only.
 * DPU_ERR_INTERNAL if probe is NULL. */
dpu_error_t dpu_probe_init(const char *name, struct dpu_probe_t *probe);
/* Forgets probe; it needs dpu_probe_init again. */
dpu_error_t dpu_probe_deinit(struct dpu_probe_t *probe);
/* Opens a window at the host's modeled present (host work since the last
 * API call included). DPU_ERR_INTERNAL if not initialized or already open. */
dpu_error_t dpu_probe_start(struct dpu_probe_t *probe);
/* Closes the window at the host's modeled present. DPU_ERR_INTERNAL if
 * none is open. Call it after the synchronous call (or dpu_sync) whose
 * work it should include: asynchronous work counts only up to the
 * present. */
dpu_error_t dpu_probe_stop(struct dpu_probe_t *probe);
/* *value = the option reduced over the closed windows (0 if none). */
dpu_error_t dpu_probe_get(struct dpu_probe_t *probe, dpu_probe_option_t option,
                          dpu_probe_option_type_t type, double *value);

#ifdef __cplusplus
}
#endif

#endif /* DPU_PROBE_H */
