/*
 * dpu_transfer_matrix.h -- one host buffer per DPU of a rank, for the
 * matrix copies of dpu_memory.h. Indexed by the DPU's place in its rank
 * (slice id * DPUs per chip + member id).
 */
#ifndef DPU_TRANSFER_MATRIX_H
#define DPU_TRANSFER_MATRIX_H

#include <stdint.h>

#include "dpu_error.h"
#include "dpu_types.h"

#define MAX_NR_DPUS_PER_RANK 64
/* defined when struct dpu_transfer_matrix is (as in the SDK) */
#define struct_dpu_transfer_matrix_t

struct dpu_transfer_matrix {
    union {
        void *ptr[MAX_NR_DPUS_PER_RANK];
        struct sg_xfer_buffer *sg_ptr[MAX_NR_DPUS_PER_RANK];
    };
    uint32_t offset;
    uint32_t size;
    dpu_transfer_matrix_type_t type;
};

#ifdef __cplusplus
extern "C" {
#endif

void dpu_transfer_matrix_add_dpu(struct dpu_t *dpu, struct dpu_transfer_matrix *transfer_matrix,
                                 void *buffer);
/* Appends a block to the DPU's sg_xfer_buffer (an SG matrix):
 * DPU_ERR_SG_TOO_MANY_BLOCKS when it holds max_nr_blocks already. */
dpu_error_t dpu_transfer_matrix_add_dpu_block(struct dpu_t *dpu,
                                              struct dpu_transfer_matrix *transfer_matrix,
                                              void *buffer, uint32_t length);
/* The same buffer for every enabled DPU of the rank. */
void dpu_transfer_matrix_set_all(struct dpu_rank_t *rank,
                                 struct dpu_transfer_matrix *transfer_matrix, void *buffer);
void dpu_transfer_matrix_clear_dpu(struct dpu_t *dpu, struct dpu_transfer_matrix *transfer_matrix);
void dpu_transfer_matrix_clear_all(struct dpu_rank_t *rank,
                                   struct dpu_transfer_matrix *transfer_matrix);
void dpu_transfer_matrix_copy(struct dpu_transfer_matrix *dst, struct dpu_transfer_matrix *src);
void *dpu_transfer_matrix_get_ptr(struct dpu_t *dpu, struct dpu_transfer_matrix *transfer_matrix);

#ifdef __cplusplus
}
#endif

#endif /* DPU_TRANSFER_MATRIX_H */
