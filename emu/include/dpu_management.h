/*
 * dpu_management.h -- ranks and DPUs as handles (the SDK's low-level host
 * API): from a set to its rank or DPU and back, ids, rank locks, a rank's
 * description, single ranks outside dpu_alloc.
 *
 * The handles are those of the sets (struct dpu_set_t's list.ranks[i] and
 * dpu): valid until the set that holds them is freed.
 */
#ifndef DPU_MANAGEMENT_H
#define DPU_MANAGEMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "dpu.h"
#include "dpu_description.h"
#include "dpu_error.h"
#include "dpu_macro_utils.h"
#include "dpu_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A new description of the ranks the profile would give (one reference,
 * for dpu_free_description); DPU_ERR_INVALID_PROFILE as dpu_alloc. */
dpu_error_t dpu_get_profile_description(const char *profile, dpu_description_t *description);
/* Allocates one free rank as dpu_alloc_ranks(1, profile) would; free it
 * with dpu_free_rank (not dpu_free). */
dpu_error_t dpu_get_rank_of_type(const char *profile, struct dpu_rank_t **rank);
/* Frees a rank from dpu_get_rank_of_type (waits for its queued work);
 * any other rank: DPU_ERR_INVALID_DPU_SET. */
dpu_error_t dpu_free_rank(struct dpu_rank_t *rank);

/* A recursive lock per rank, for the program's own use (the library's
 * calls do not take it). trylock: 0 if taken, else an errno value. */
void dpu_lock_rank(struct dpu_rank_t *rank);
int dpu_trylock_rank(struct dpu_rank_t *rank);
void dpu_unlock_rank(struct dpu_rank_t *rank);

/* DPU member_id of chip slice_id (both from 0), disabled or not; NULL out
 * of range. */
struct dpu_t *dpu_get(struct dpu_rank_t *rank, dpu_slice_id_t slice_id, dpu_member_id_t dpu_id);
/* rank id << 16 | slice id << 8 | member id: the id dpu_log_read prints. */
dpu_id_t dpu_get_id(struct dpu_t *dpu);
/* The rank's number in the machine (0 .. nrRanks - 1). */
dpu_id_t dpu_get_rank_id(struct dpu_rank_t *rank);
/* The NUMA node of the rank: 0 (the virtual machine has one). */
int dpu_get_rank_numa_node(struct dpu_rank_t *rank);
struct dpu_rank_t *dpu_get_rank(struct dpu_t *dpu);
dpu_slice_id_t dpu_get_slice_id(struct dpu_t *dpu);
dpu_member_id_t dpu_get_member_id(struct dpu_t *dpu);
/* false for a DPU the profile disabled or dpu_alloc left out. */
bool dpu_is_enabled(struct dpu_t *dpu);
/* The rank's description (dpu_description.h), owned by the rank. */
dpu_description_t dpu_get_description(struct dpu_rank_t *rank);

/* A set of the one rank *rank (the array must outlive the set). */
struct dpu_set_t dpu_set_from_rank(struct dpu_rank_t **rank);
struct dpu_set_t dpu_set_from_dpu(struct dpu_t *dpu);
/* The rank of a one-rank set, else NULL. */
struct dpu_rank_t *dpu_rank_from_set(struct dpu_set_t set);
/* The DPU of a DPU set, else NULL. */
struct dpu_t *dpu_from_set(struct dpu_set_t set);

/* STRUCT_DPU_FOREACH(rank, dpu) / (rank, dpu, i): the enabled DPUs of a
 * rank handle, dpu a struct dpu_t *, i its position 0, 1, ... */
struct dpu_iterator_t {
    struct dpu_rank_t *rank;
    uint32_t count;
    uint32_t next_idx;
    bool has_next;
    struct dpu_t *next;
};

struct dpu_iterator_t dpu_iterator_from(struct dpu_rank_t *rank);
void dpu_iterator_next(struct dpu_iterator_t *iterator);

#define STRUCT_DPU_FOREACH(rank, dpu, ...)                                                         \
    _CONCAT(_STRUCT_DPU_FOREACH_, _DPU_FOREACH_VARIANT(rank, dpu, ##__VA_ARGS__))                  \
    (rank, dpu, ##__VA_ARGS__)
#define _STRUCT_DPU_FOREACH_X(rank, dpu)                                                           \
    for (struct dpu_iterator_t __dpu_it = dpu_iterator_from(rank);                                 \
         dpu = __dpu_it.next, __dpu_it.has_next; dpu_iterator_next(&__dpu_it))
#define _STRUCT_DPU_FOREACH_I(rank, dpu, i)                                                        \
    for (struct dpu_iterator_t __dpu_it = dpu_iterator_from(rank);                                 \
         i = __dpu_it.count, dpu = __dpu_it.next, __dpu_it.has_next; dpu_iterator_next(&__dpu_it))

#ifdef __cplusplus
}
#endif

#endif /* DPU_MANAGEMENT_H */
