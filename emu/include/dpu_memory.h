/*
 * dpu_memory.h -- memory copies on rank and DPU handles (the SDK's
 * low-level host API; dpu_management.h gives the handles).
 *
 * Each is the matching <dpu.h> transfer on dpu_set_from_dpu(dpu) or the
 * rank's one-rank set, at a raw address (no program or symbol needed):
 * same rules (WRAM: whole 32-bit words; MRAM: 8-byte aligned offsets and
 * sizes), same errors, same modeled time, waiting for the rank's queued
 * work first. WRAM offsets and sizes count 32-bit words, MRAM ones bytes.
 * A transfer matrix (dpu_transfer_matrix.h) gives one host buffer per DPU
 * of the rank (NULL: skipped), at its offset and size (words for WRAM,
 * bytes for MRAM); the copy goes through the rank's prepared-transfer
 * table, which it clears.
 */
#ifndef DPU_MEMORY_H
#define DPU_MEMORY_H

#include <stdint.h>

#include "dpu.h"
#include "dpu_error.h"
#include "dpu_types.h"

#ifdef __cplusplus
extern "C" {
#endif

struct dpu_transfer_matrix;

dpu_error_t dpu_copy_to_wram_for_rank(struct dpu_rank_t *rank, wram_addr_t wram_word_offset,
                                      const dpuword_t *source, wram_size_t nb_of_words);
dpu_error_t dpu_copy_to_wram_for_dpu(struct dpu_t *dpu, wram_addr_t wram_word_offset,
                                     const dpuword_t *source, wram_size_t nb_of_words);
dpu_error_t dpu_copy_to_wram_for_matrix(struct dpu_rank_t *rank,
                                        struct dpu_transfer_matrix *transfer_matrix);
dpu_error_t dpu_copy_from_wram_for_dpu(struct dpu_t *dpu, dpuword_t *destination,
                                       wram_addr_t wram_word_offset, wram_size_t nb_of_words);
dpu_error_t dpu_copy_from_wram_for_matrix(struct dpu_rank_t *rank,
                                          struct dpu_transfer_matrix *transfer_matrix);
dpu_error_t dpu_copy_to_mram(struct dpu_t *dpu, mram_addr_t mram_byte_offset, const uint8_t *source,
                             mram_size_t nb_of_bytes);
dpu_error_t dpu_copy_from_mram(struct dpu_t *dpu, uint8_t *destination,
                               mram_addr_t mram_byte_offset, mram_size_t nb_of_bytes);
dpu_error_t dpu_copy_to_mrams(struct dpu_rank_t *rank, struct dpu_transfer_matrix *transfer_matrix);
dpu_error_t dpu_copy_from_mrams(struct dpu_rank_t *rank,
                                struct dpu_transfer_matrix *transfer_matrix);

#ifdef __cplusplus
}
#endif

#endif /* DPU_MEMORY_H */
