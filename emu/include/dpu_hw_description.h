/*
 * dpu_hw_description.h -- a rank's hardware as the SDK describes it
 * (struct dpu_hw_description_t, inside dpu_description_t). The values the
 * virtual UPMEM fills in are listed in dpu_description.h.
 */
#ifndef DPU_HW_DESCRIPTION_H
#define DPU_HW_DESCRIPTION_H

#include "dpu_chip_id.h"
#include "dpu_types.h"

struct dpu_hw_description_t {
    struct {
        dpu_chip_id_e chip_id;
    } signature;
    struct {
        struct dpu_carousel_config carousel;
        uint32_t fck_frequency_in_mhz;
        uint8_t reset_wait_duration;
        uint8_t std_temperature;
        uint8_t clock_division;
    } timings;
    struct {
        uint8_t nr_of_control_interfaces;
        uint8_t nr_of_dpus_per_control_interface;
        uint8_t ci_mask;
    } topology;
    struct {
        mram_size_t mram_size;
        wram_size_t wram_size;
        iram_size_t iram_size;
        uint8_t ci_pc_lsb_nr_phys_bits;
    } memories;
    struct {
        struct dpu_bit_config pcb_transformation;
        uint8_t nr_of_threads;
        uint32_t nr_of_atomic_bits;
        uint32_t nr_of_notify_bits;
        uint8_t nr_of_work_registers_per_thread;
    } dpu;
};

#endif /* DPU_HW_DESCRIPTION_H */
