/*
 * dpu_types.h -- types of the virtual UPMEM host library (<dpu.h>).
 *
 * Same names, field names and enum values as the UPMEM SDK 2025.1
 * (upmem-api.md §1.1). struct dpu_rank_t, struct dpu_t and
 * struct dpu_program_t are opaque. The low-level types (addresses and
 * sizes per memory, slice targets, the debugger's context) are declared
 * for programs that name them; what uses them is in dpu_management.h,
 * dpu_memory.h, dpu_runner.h and dpu_transfer_matrix.h.
 */
#ifndef DPU_TYPES_H
#define DPU_TYPES_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dpu_target.h"

/* A rank is 8 control interfaces (one per chip) x 8 DPUs. */
#define DPU_MAX_NR_CIS         (8)
#define DPU_MAX_NR_DPUS_PER_CI (8)
#define DPU_BOOT_THREAD        (0)
#define DPU_MAX_NR_GROUPS      (8)

/* Request every free rank from dpu_alloc / dpu_alloc_ranks. */
#define DPU_ALLOCATE_ALL (UINT_MAX)

/* Host name of DPU_MRAM_HEAP_POINTER: the first free MRAM byte. */
#define DPU_MRAM_HEAP_POINTER_NAME "__sys_used_mram_end"

typedef uint16_t dpu_rank_id_t;
typedef uint32_t dpu_id_t;
typedef uint8_t dpu_slice_id_t;  /* control interface (chip) in the rank */
typedef uint8_t dpu_member_id_t; /* DPU in its chip                     */
typedef uint8_t dpu_group_id_t;
typedef uint8_t dpu_thread_t;
typedef uint8_t dpu_notify_bit_id_t;
typedef uint16_t iram_addr_t; /* in instructions */
typedef uint32_t wram_addr_t; /* in 32-bit words */
typedef uint32_t mram_addr_t; /* in bytes        */
typedef mram_addr_t dpu_mem_max_addr_t;
typedef uint16_t iram_size_t;
typedef uint32_t wram_size_t;
typedef uint32_t mram_size_t;
typedef mram_size_t dpu_mem_max_size_t;
typedef uint64_t dpuinstruction_t;
typedef uint32_t dpuword_t;
/* one bit per DPU of a chip, one per chip of a rank */
typedef uint8_t dpu_bitfield_t;
#define DPU_BITFIELD_ALL ((dpu_bitfield_t)-1)
typedef uint8_t dpu_ci_bitfield_t;

typedef enum _dpu_clock_division_t {
    DPU_CLOCK_DIV8 = 0x0,
    DPU_CLOCK_DIV4 = 0x4,
    DPU_CLOCK_DIV3 = 0x3,
    DPU_CLOCK_DIV2 = 0x8,
} dpu_clock_division_t;

enum dpu_slice_target_type {
    DPU_SLICE_TARGET_NONE,
    DPU_SLICE_TARGET_DPU,
    DPU_SLICE_TARGET_ALL,
    DPU_SLICE_TARGET_GROUP,
    NR_OF_DPU_SLICE_TARGETS
};

struct dpu_slice_target {
    enum dpu_slice_target_type type;
    union {
        dpu_member_id_t dpu_id;
        dpu_group_id_t group_id;
    };
};

/* "DPU_SLICE_TARGET_NONE", ... for a target type (else ..._UNKNOWN). */
#define DPU_SLICE_TARGET_TYPE_NAME(target_type)                                                    \
    ((((uint32_t)(target_type)) < NR_OF_DPU_SLICE_TARGETS) ? dpu_slice_target_names[target_type]   \
                                                           : "DPU_SLICE_TARGET_TYPE_UNKNOWN")

typedef enum __attribute__((packed)) _dpu_event_kind_t {
    DPU_EVENT_RESET,
    DPU_EVENT_EXTRACT_CONTEXT,
    DPU_EVENT_RESTORE_CONTEXT,
    DPU_EVENT_MRAM_ACCESS_PROGRAM,
    DPU_EVENT_LOAD_PROGRAM,
    DPU_EVENT_DEBUG_ACTION,
} dpu_event_kind_t;

#define DPU_API_DEPRECATED __attribute__((deprecated))

struct dpu_rank_t;
struct dpu_t;
struct dpu_program_t;
struct dpu_transfer_matrix;

typedef enum _dpu_set_kind_t {
    DPU_SET_RANKS,
    DPU_SET_DPU,
} dpu_set_kind_t;

/* A set is passed by value: a list of whole ranks, or exactly one DPU. */
struct dpu_set_t {
    dpu_set_kind_t kind;
    union {
        struct {
            uint32_t nr_ranks;
            struct dpu_rank_t **ranks;
        } list;
        struct dpu_t *dpu;
    };
};

struct dpu_symbol_t {
    dpu_mem_max_addr_t address;
    dpu_mem_max_size_t size;
};

typedef enum _dpu_launch_policy_t {
    DPU_ASYNCHRONOUS,
    DPU_SYNCHRONOUS,
} dpu_launch_policy_t;

typedef enum _dpu_xfer_t {
    DPU_XFER_TO_DPU,
    DPU_XFER_FROM_DPU,
} dpu_xfer_t;

typedef enum _dpu_xfer_flags_t {
    DPU_XFER_DEFAULT = 0,
    DPU_XFER_NO_RESET = 1 << 0,
    DPU_XFER_ASYNC = 1 << 1,
    DPU_XFER_PARALLEL = 1 << 2,
} dpu_xfer_flags_t;

typedef enum _dpu_callback_flags_t {
    DPU_CALLBACK_DEFAULT = 0,
    DPU_CALLBACK_ASYNC = 1 << 0,
    DPU_CALLBACK_NONBLOCKING = 1 << 1,
    DPU_CALLBACK_SINGLE_CALL = 1 << 2,
    DPU_CALLBACK_PARALLEL = 1 << 3,
} dpu_callback_flags_t;

typedef enum _dpu_sg_xfer_flags_t {
    DPU_SG_XFER_DEFAULT = 0,
    DPU_SG_XFER_ASYNC = 1 << 1,
    DPU_SG_XFER_DISABLE_LENGTH_CHECK = 1 << 2,
} dpu_sg_xfer_flags_t;

/* A DPU ELF embedded in the host binary by DPU_INCBIN (see dpu.h). */
struct dpu_incbin_t {
    uint8_t *buffer;
    size_t size;
    const char *path;
};

/* Hardware configuration records of the real chips (the driver's; in
 * dpu_hw_description.h's struct dpu_hw_description_t). */
struct dpu_bit_config {
    uint16_t cpu2dpu;
    uint16_t dpu2cpu;
    uint8_t nibble_swap;
    uint8_t stutter;
};

struct dpu_carousel_config {
    uint8_t cmd_duration;
    uint8_t cmd_sampling;
    uint8_t res_duration;
    uint8_t res_sampling;
};

struct dpu_repair_config {
    uint8_t AB_msbs;
    uint8_t CD_msbs;
    uint8_t A_lsbs;
    uint8_t B_lsbs;
    uint8_t C_lsbs;
    uint8_t D_lsbs;
    uint8_t even_index;
    uint8_t odd_index;
};

enum dpu_temperature {
    DPU_TEMPERATURE_LESS_THAN_50 = 0,
    DPU_TEMPERATURE_BETWEEN_50_AND_60 = 1,
    DPU_TEMPERATURE_BETWEEN_60_AND_70 = 2,
    DPU_TEMPERATURE_BETWEEN_70_AND_80 = 3,
    DPU_TEMPERATURE_BETWEEN_80_AND_90 = 4,
    DPU_TEMPERATURE_BETWEEN_90_AND_100 = 5,
    DPU_TEMPERATURE_BETWEEN_100_AND_110 = 6,
    DPU_TEMPERATURE_GREATER_THAN_110 = 7,
};

enum dpu_pc_mode {
    DPU_PC_MODE_12 = 0,
    DPU_PC_MODE_13 = 1,
    DPU_PC_MODE_14 = 2,
    DPU_PC_MODE_15 = 3,
    DPU_PC_MODE_16 = 4,
};

/* A DPU's whole state as the SDK's debugger extracts it (dpu_debug.h, not
 * provided: docs/COMPATIBILITY.md). */
struct dpu_context_t {
    struct {
        uint32_t nr_threads;
        uint32_t nr_registers;
        uint32_t nr_atomic_bits;
        iram_size_t iram_size;
        mram_size_t mram_size;
        wram_size_t wram_size;
    } info;
    dpuinstruction_t *iram;
    uint8_t *mram;
    dpuword_t *wram;
    uint32_t *registers;
    iram_addr_t *pcs;
    bool *atomic_register;
    bool *zero_flags;
    bool *carry_flags;
    uint8_t nr_of_running_threads;
    uint8_t *scheduling;
    bool bkp_fault;
    bool dma_fault;
    bool mem_fault;
    dpu_thread_t bkp_fault_thread_index;
    dpu_thread_t dma_fault_thread_index;
    dpu_thread_t mem_fault_thread_index;
    uint32_t bkp_fault_id;
};

/* The blocks of one DPU in a scatter/gather transfer matrix. */
struct sg_xfer_buffer {
    uint32_t max_nr_blocks;
    uint8_t **blocks_addr;
    uint32_t *blocks_length;
    uint32_t nr_blocks;
};

typedef enum dpu_transfer_matrix_type_t {
    DPU_DEFAULT_XFER_MATRIX,
    DPU_SG_XFER_MATRIX
} dpu_transfer_matrix_type_t;

#ifdef __cplusplus
extern "C" {
#endif
/* The names DPU_SLICE_TARGET_TYPE_NAME returns, by target type. */
extern const char *dpu_slice_target_names[NR_OF_DPU_SLICE_TARGETS];
#ifdef __cplusplus
}
#endif

#endif /* DPU_TYPES_H */
