/*
 * dpu_description.h -- a rank's description (dpu_get_description,
 * dpu_get_profile_description in dpu_management.h), reference counted.
 *
 * The virtual UPMEM fills in: type HW; hw.signature.chip_id vD_asic8;
 * hw.timings.fck_frequency_in_mhz the modeled DPU clock (profile key
 * clockMhz); hw.topology the rank's DPUs eight per control interface
 * (nrDpusPerRank 16: 2 interfaces of 8; 4: 1 of 4; ci_mask all of them); hw.memories MRAM 64 MiB,
 * WRAM 64 KiB, IRAM 4096 instructions; hw.dpu 24 threads, 256 atomic bits, 24 work registers per
 * thread; configuration.disable_reset_on_alloc from the profile; every other field 0. The driver's
 * own fields (carousel, bit orders, repair) mean nothing here and stay 0.
 */
#ifndef DPU_DESCRIPTION_H
#define DPU_DESCRIPTION_H

#include <stdbool.h>
#include <stdint.h>

#include "dpu_hw_description.h"
#include "dpu_target.h"
#include "dpu_types.h"

typedef struct _dpu_description_t {
    struct dpu_hw_description_t hw;
    dpu_type_t type;
    struct {
        bool mram_access_by_dpu_only;
        bool api_must_switch_mram_mux;
        bool init_mram_mux;
        bool do_iram_repair;
        bool do_wram_repair;
        bool ignore_vpd;
        bool enable_cycle_accurate_behavior;
        bool disable_api_safe_checks;
        bool disable_reset_on_alloc;
        bool ila_control_refresh;
    } configuration;
    uint32_t refcount;
    struct {
        void *data;
        void (*free)(void *data);
    } _internals;
} * dpu_description_t;

#ifdef __cplusplus
extern "C" {
#endif

/* One more reference to the description. */
void dpu_acquire_description(dpu_description_t description);
/* One reference less; the last one frees a description from
 * dpu_get_profile_description (a rank's own lives as long as the rank). */
void dpu_free_description(dpu_description_t description);

#ifdef __cplusplus
}
#endif

#endif /* DPU_DESCRIPTION_H */
