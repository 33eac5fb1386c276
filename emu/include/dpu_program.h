/*
 * dpu_program.h -- the program a DPU holds (the SDK's low-level host API).
 * struct dpu_program_t stays opaque: the SDK's fields describe its own
 * runtime's printf buffer and profiler, which the virtual DPU keeps
 * elsewhere (docs/COMPATIBILITY.md).
 */
#ifndef DPU_PROGRAM_H
#define DPU_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "dpu.h"
#include "dpu_error.h"
#include "dpu_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One more reference to a program (it stays valid until the matching
 * dpu_free_program, even when no DPU holds it any more). */
void dpu_take_program_ref(struct dpu_program_t *program);
/* Drops a reference taken with dpu_take_program_ref; NULL is ignored. */
void dpu_free_program(struct dpu_program_t *program);
/* The program loaded in the DPU, NULL if none. */
struct dpu_program_t *dpu_get_program(struct dpu_t *dpu);
/* The one program of every enabled DPU of the set: DPU_ERR_NO_PROGRAM_LOADED
 * if none holds one, DPU_ERR_DIFFERENT_DPU_PROGRAMS if they differ. */
dpu_error_t dpu_get_common_program(struct dpu_set_t *dpu_set, struct dpu_program_t **program);

#ifdef __cplusplus
}
#endif

#endif /* DPU_PROGRAM_H */
