/*
 * dpu_target.h -- the kinds of DPU backend (UPMEM SDK names and values).
 * The virtual UPMEM describes its ranks as HW (dpu_management.h,
 * dpu_get_description): it models the hardware, whatever the profile's
 * backend key says.
 */
#ifndef DPU_TARGET_H
#define DPU_TARGET_H

#include <stdbool.h>
#include <string.h>

typedef enum _dpu_type_t {
    FUNCTIONAL_SIMULATOR = 0,
    CYCLE_ACCURATE_SIMULATOR = 1,
    RTL_SIMULATOR = 2,
    HW = 3,
    BACKUP_SPI = 4,
    SCENARIO = 5,
    NB_OF_DPU_TYPES = 6
} dpu_type_t;

/* "FUNCTIONAL_SIMULATOR", ... ("UNKNOWN" for any other value). */
__attribute__((unused)) static inline const char *dpu_type_to_string(dpu_type_t dpu_type)
{
    static const char *const names[NB_OF_DPU_TYPES] = {
        "FUNCTIONAL_SIMULATOR", "CYCLE_ACCURATE_SIMULATOR",
        "RTL_SIMULATOR",        "HW",
        "BACKUP_SPI",           "SCENARIO"};
    return (unsigned)dpu_type < NB_OF_DPU_TYPES ? names[dpu_type] : "UNKNOWN";
}

/* The type a profile's backend value names ("simulator", "cas", "model",
 * "hw", "spi", "scenario"): true and *dpu_type set, else false. */
__attribute__((unused)) static inline bool dpu_type_from_profile_string(const char *string,
                                                                        dpu_type_t *dpu_type)
{
    static const char *const keys[NB_OF_DPU_TYPES] = {"simulator", "cas", "model",
                                                      "hw",        "spi", "scenario"};
    for (int i = 0; i < NB_OF_DPU_TYPES; i++)
        if (strcmp(string, keys[i]) == 0) {
            *dpu_type = (dpu_type_t)i;
            return true;
        }
    return false;
}

#endif /* DPU_TARGET_H */
