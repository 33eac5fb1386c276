/*
 * dpu_types.h -- types of the virtual UPMEM host library (<dpu.h>).
 *
 * Same names, field names and enum values as the UPMEM SDK 2025.1
 * (upmem-api.md §1.1). struct dpu_rank_t, struct dpu_t and
 * struct dpu_program_t are opaque.
 */
#ifndef DPU_TYPES_H
#define DPU_TYPES_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A rank is 8 control interfaces (one per chip) x 8 DPUs. */
#define DPU_MAX_NR_CIS         (8)
#define DPU_MAX_NR_DPUS_PER_CI (8)
#define DPU_BOOT_THREAD        (0)

/* Request every free rank from dpu_alloc / dpu_alloc_ranks. */
#define DPU_ALLOCATE_ALL (UINT_MAX)

/* Host name of DPU_MRAM_HEAP_POINTER: the first free MRAM byte. */
#define DPU_MRAM_HEAP_POINTER_NAME "__sys_used_mram_end"

typedef uint32_t dpu_mem_max_addr_t;
typedef uint32_t dpu_mem_max_size_t;
typedef uint8_t dpu_slice_id_t;
typedef uint8_t dpu_member_id_t;
typedef uint32_t dpu_id_t;

struct dpu_rank_t;
struct dpu_t;
struct dpu_program_t;

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

#endif /* DPU_TYPES_H */
