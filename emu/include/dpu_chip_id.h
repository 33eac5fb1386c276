/*
 * dpu_chip_id.h -- DPU chip versions (UPMEM SDK names and values). The
 * virtual UPMEM's ranks say vD_asic8 (dpu_get_description): eight DPUs
 * per chip, the chips of a UPMEM DIMM.
 */
#ifndef DPU_CHIP_ID_H
#define DPU_CHIP_ID_H

typedef enum _dpu_chip_id_e {
    vD = 0,
    vD_cas = 1,
    vD_fun = 2,
    vD_asic1 = 3,
    vD_asic8 = 4,
    vD_fpga1 = 5,
    vD_fpga8 = 6,
    vD_asic4 = 7,
    vD_fpga4 = 8,
    vD_fun_v1_4 = 66,
    vD_asic1_v1_4 = 67,
    vD_asic8_v1_4 = 68,
    vD_fpga1_v1_4 = 69,
    vD_fpga8_v1_4 = 70,
    vD_asic4_v1_4 = 71,
    vD_fpga4_v1_4 = 72,
} dpu_chip_id_e;

/* chip_id_to_idx's answer for an unknown chip: the number of chips. */
#define NEXT_DPU_CHIP_IDX 16

/* Dense index of a chip version: 0..8 for vD..vD_fpga4, 9..15 for the
 * v1.4 ones, NEXT_DPU_CHIP_IDX otherwise. */
__attribute__((unused)) static inline unsigned int chip_id_to_idx(dpu_chip_id_e chip_id)
{
    unsigned id = (unsigned)chip_id;
    if (id <= (unsigned)vD_fpga4)
        return id;
    if (id >= (unsigned)vD_fun_v1_4 && id <= (unsigned)vD_fpga4_v1_4)
        return id - (unsigned)vD_fun_v1_4 + 9;
    return NEXT_DPU_CHIP_IDX;
}

#endif /* DPU_CHIP_ID_H */
