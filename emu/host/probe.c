/*
 * probe.c -- <dpu_probe.h>: windows on the modeled clock and the power
 * model's energy. The top layer (see host.h), beside emu.c: it reads only
 * the public statistics.
 */
#include <string.h>

#include "../include/dpu_emu.h"
#include "../include/dpu_probe.h"

/* see dpu_probe.h */
dpu_error_t dpu_probe_init(const char *name, struct dpu_probe_t *probe)
{
    if (probe == NULL)
        return DPU_ERR_INTERNAL;
    memset(probe, 0, sizeof *probe);
    probe->name = name;
    probe->initialized = true;
    return DPU_OK;
}

/* see dpu_probe.h */
dpu_error_t dpu_probe_deinit(struct dpu_probe_t *probe)
{
    if (probe == NULL || !probe->initialized)
        return DPU_ERR_INTERNAL;
    memset(probe, 0, sizeof *probe);
    return DPU_OK;
}

/* see dpu_probe.h */
dpu_error_t dpu_probe_start(struct dpu_probe_t *probe)
{
    if (probe == NULL || !probe->initialized || probe->running)
        return DPU_ERR_INTERNAL;
    dpu_emu_stats_t s;
    dpu_emu_get_stats(&s);
    probe->start_time = s.host_time;
    probe->start_energy = s.energy;
    probe->running = true;
    return DPU_OK;
}

/* see dpu_probe.h */
dpu_error_t dpu_probe_stop(struct dpu_probe_t *probe)
{
    if (probe == NULL || !probe->initialized || !probe->running)
        return DPU_ERR_INTERNAL;
    dpu_emu_stats_t s;
    dpu_emu_get_stats(&s);
    /* a dpu_emu_reset inside the window restarted both: count from 0 */
    double v[2];
    v[DPU_ENERGY] = s.energy >= probe->start_energy ? s.energy - probe->start_energy : s.energy;
    v[DPU_TIME] = s.host_time >= probe->start_time ? s.host_time - probe->start_time : s.host_time;
    for (int i = 0; i < 2; i++) {
        probe->sum[i] += v[i];
        if (probe->nr_windows == 0 || v[i] < probe->min[i])
            probe->min[i] = v[i];
        if (probe->nr_windows == 0 || v[i] > probe->max[i])
            probe->max[i] = v[i];
    }
    probe->nr_windows++;
    probe->running = false;
    return DPU_OK;
}

/* see dpu_probe.h */
dpu_error_t dpu_probe_get(struct dpu_probe_t *probe, dpu_probe_option_t option,
                          dpu_probe_option_type_t type, double *value)
{
    if (probe == NULL || !probe->initialized || value == NULL ||
        (option != DPU_ENERGY && option != DPU_TIME))
        return DPU_ERR_INTERNAL;
    uint32_t n = probe->nr_windows;
    switch (type) {
    case DPU_AVERAGE:
        *value = n ? probe->sum[option] / (double)n : 0.0;
        return DPU_OK;
    case DPU_ACCUMULATE:
        *value = probe->sum[option];
        return DPU_OK;
    case DPU_MINIMUM:
        *value = probe->min[option];
        return DPU_OK;
    case DPU_MAXIMUM:
        *value = probe->max[option];
        return DPU_OK;
    }
    return DPU_ERR_INTERNAL;
}
