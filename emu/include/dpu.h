/*
 * dpu.h -- host API of the virtual UPMEM: a drop-in for the subset of the
 * UPMEM SDK's <dpu.h> that programs use (upmem-api.md §1). Link with the
 * output of `dpu-pkg-config --libs dpu` (build/libdpu.a -lpthread -lm).
 *
 * Differences from the real SDK are listed in docs/VIRTUAL_UPMEM_HOST.md.
 * Project-specific extras (the modeled clock, traces) are in <dpu_emu.h>;
 * guard their use with `#ifdef DPU_EMU` so the code still builds on a real
 * SDK, where that header does not exist.
 *
 * All functions are thread-safe. Sets are small values passed by value.
 */
#ifndef DPU_H
#define DPU_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "dpu_error.h"
#include "dpu_log.h"
#include "dpu_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Defined only by the virtual UPMEM. */
#define DPU_EMU 1

/* ------------------------------------------------------------ allocation */

/* Allocates whole ranks until the set holds >= nr_dpus enabled DPUs, then
 * disables the surplus so it holds exactly nr_dpus (DPU_ALLOCATE_ALL: every
 * free rank). profile: NULL, "" or "key=value,..." (docs). The set is
 * always of kind DPU_SET_RANKS. */
dpu_error_t dpu_alloc(uint32_t nr_dpus, const char *profile, struct dpu_set_t *dpu_set);
/* Allocates exactly nr_ranks ranks with all their working DPUs. */
dpu_error_t dpu_alloc_ranks(uint32_t nr_ranks, const char *profile, struct dpu_set_t *dpu_set);
/* Waits for the set's queued work, then frees it. Only the exact value
 * returned by an alloc call is accepted (else DPU_ERR_INVALID_DPU_SET). */
dpu_error_t dpu_free(struct dpu_set_t dpu_set);
/* Enabled DPUs of the set (1 for a DPU set). */
dpu_error_t dpu_get_nr_dpus(struct dpu_set_t dpu_set, uint32_t *nr_dpus);
/* Ranks of the set (1 for a DPU set). */
dpu_error_t dpu_get_nr_ranks(struct dpu_set_t dpu_set, uint32_t *nr_ranks);

/* ------------------------------------------------------------- iteration */

struct dpu_set_dpu_iterator_t {
    struct dpu_set_t set;  /* the set iterated                          */
    struct dpu_set_t next; /* current element (a DPU set)                */
    uint32_t count;        /* position of `next` in this iteration       */
    bool has_next;         /* false once past the end                    */
    uint32_t rank_index;   /* internal cursor                            */
    uint32_t dpu_index;    /* internal cursor                            */
};

struct dpu_set_rank_iterator_t {
    struct dpu_set_t set;
    struct dpu_set_t next; /* a DPU_SET_RANKS set of one rank            */
    uint32_t count;
    bool has_next;
};

struct dpu_set_dpu_iterator_t dpu_set_dpu_iterator_from(struct dpu_set_t *set);
void dpu_set_dpu_iterator_next(struct dpu_set_dpu_iterator_t *iterator);
struct dpu_set_rank_iterator_t dpu_set_rank_iterator_from(struct dpu_set_t *set);
void dpu_set_rank_iterator_next(struct dpu_set_rank_iterator_t *iterator);

#define _DPU_CAT_(a, b)              a##b
#define _DPU_CAT(a, b)               _DPU_CAT_(a, b)
#define _DPU_NARGS_(a, b, c, n, ...) n
#define _DPU_NARGS(...)              _DPU_NARGS_(__VA_ARGS__, 3, 2, 1, 0)

#define _DPU_FOREACH_2(set, dpu)                                                                   \
    for (struct dpu_set_dpu_iterator_t __dpu_dpu_it = dpu_set_dpu_iterator_from(&(set));           \
         (dpu) = __dpu_dpu_it.next, __dpu_dpu_it.has_next;                                         \
         dpu_set_dpu_iterator_next(&__dpu_dpu_it))
#define _DPU_FOREACH_3(set, dpu, i)                                                                \
    for (struct dpu_set_dpu_iterator_t __dpu_dpu_it = dpu_set_dpu_iterator_from(&(set));           \
         (dpu) = __dpu_dpu_it.next, (i) = __dpu_dpu_it.count, __dpu_dpu_it.has_next;               \
         dpu_set_dpu_iterator_next(&__dpu_dpu_it))
#define _DPU_RANK_FOREACH_2(set, rank)                                                             \
    for (struct dpu_set_rank_iterator_t __dpu_rank_it = dpu_set_rank_iterator_from(&(set));        \
         (rank) = __dpu_rank_it.next, __dpu_rank_it.has_next;                                      \
         dpu_set_rank_iterator_next(&__dpu_rank_it))
#define _DPU_RANK_FOREACH_3(set, rank, i)                                                          \
    for (struct dpu_set_rank_iterator_t __dpu_rank_it = dpu_set_rank_iterator_from(&(set));        \
         (rank) = __dpu_rank_it.next, (i) = __dpu_rank_it.count, __dpu_rank_it.has_next;           \
         dpu_set_rank_iterator_next(&__dpu_rank_it))

/* DPU_FOREACH(set, dpu) / DPU_FOREACH(set, dpu, i): every enabled DPU of the
 * lvalue set (ranks in order, DPUs in index order, disabled ones skipped);
 * dpu receives a DPU set, i its position 0, 1, ... */
#define DPU_FOREACH(...) _DPU_CAT(_DPU_FOREACH_, _DPU_NARGS(__VA_ARGS__))(__VA_ARGS__)
/* DPU_RANK_FOREACH(set, rank) / (set, rank, i): every rank of the set, as a
 * one-rank set pointing into the parent (usable, not freeable); on a DPU
 * set, that DPU set once (as the SDK). */
#define DPU_RANK_FOREACH(...) _DPU_CAT(_DPU_RANK_FOREACH_, _DPU_NARGS(__VA_ARGS__))(__VA_ARGS__)

/* --------------------------------------------------------------- programs */

/* Loads a DPU ELF (path relative to the working directory) into every
 * enabled DPU of the set: code, initial WRAM, initialized MRAM. program may
 * be NULL; the program stays valid while a DPU holds it. */
dpu_error_t dpu_load(struct dpu_set_t dpu_set, const char *binary_path,
                     struct dpu_program_t **program);
dpu_error_t dpu_load_from_memory(struct dpu_set_t dpu_set, uint8_t *buffer, size_t buffer_size,
                                 struct dpu_program_t **program);
dpu_error_t dpu_load_from_incbin(struct dpu_set_t dpu_set, struct dpu_incbin_t *incbin,
                                 struct dpu_program_t **program);
/* Host-visible symbols only: MRAM variables, __host WRAM variables and
 * DPU_MRAM_HEAP_POINTER_NAME; else DPU_ERR_UNKNOWN_SYMBOL. */
dpu_error_t dpu_get_symbol(struct dpu_program_t *program, const char *symbol_name,
                           struct dpu_symbol_t *symbol);

/* DPU_INCBIN(name, "path"): embeds the file in the host binary (the path is
 * resolved by the assembler, relative to the compiler's working directory)
 * and defines `struct dpu_incbin_t name` for dpu_load_from_incbin. */
#define DPU_INCBIN(name, file)                                                                     \
    __asm__(".pushsection .rodata\n"                                                               \
            ".balign 8\n" #name "_dpu_incbin_data:\n"                                              \
            ".incbin \"" file "\"\n" #name "_dpu_incbin_end:\n"                                    \
            ".byte 0\n" #name "_dpu_incbin_path:\n"                                                \
            ".asciz \"" file "\"\n"                                                                \
            ".popsection\n"                                                                        \
            ".pushsection .data\n"                                                                 \
            ".balign 8\n"                                                                          \
            ".globl " #name "\n" #name ":\n"                                                       \
            ".dc.a " #name "_dpu_incbin_data\n"                                                    \
            ".dc.a " #name "_dpu_incbin_end - " #name "_dpu_incbin_data\n"                         \
            ".dc.a " #name "_dpu_incbin_path\n"                                                    \
            ".popsection\n");                                                                      \
    extern struct dpu_incbin_t name

/* -------------------------------------------------------------- transfers */

/* Same bytes to symbol+offset of every enabled DPU of the set (synchronous). */
dpu_error_t dpu_copy_to(struct dpu_set_t dpu_set, const char *symbol_name, uint32_t symbol_offset,
                        const void *src, size_t length);
/* Reads from ONE DPU: a rank set (even of one DPU) is DPU_ERR_INVALID_DPU_SET. */
dpu_error_t dpu_copy_from(struct dpu_set_t dpu_set, const char *symbol_name, uint32_t symbol_offset,
                          void *dst, size_t length);
dpu_error_t dpu_broadcast_to(struct dpu_set_t dpu_set, const char *symbol_name,
                             uint32_t symbol_offset, const void *src, size_t length,
                             dpu_xfer_flags_t flags);
dpu_error_t dpu_copy_to_symbol(struct dpu_set_t dpu_set, struct dpu_symbol_t symbol,
                               uint32_t symbol_offset, const void *src, size_t length);
dpu_error_t dpu_copy_from_symbol(struct dpu_set_t dpu_set, struct dpu_symbol_t symbol,
                                 uint32_t symbol_offset, void *dst, size_t length);
dpu_error_t dpu_broadcast_to_symbol(struct dpu_set_t dpu_set, struct dpu_symbol_t symbol,
                                    uint32_t symbol_offset, const void *src, size_t length,
                                    dpu_xfer_flags_t flags);
/* Records buffer as the host buffer of every enabled DPU of the set (in the
 * rank's table, so per-DPU prepares accumulate); NULL clears. */
dpu_error_t dpu_prepare_xfer(struct dpu_set_t dpu_set, void *buffer);
/* Copies length bytes between each prepared buffer and symbol+offset of its
 * DPU; DPUs without a buffer are skipped. The table is cleared afterwards
 * unless DPU_XFER_NO_RESET. DPU_XFER_ASYNC queues the job (keep the buffers
 * alive and unmodified until dpu_sync). */
dpu_error_t dpu_push_xfer(struct dpu_set_t dpu_set, dpu_xfer_t xfer, const char *symbol_name,
                          uint32_t symbol_offset, size_t length, dpu_xfer_flags_t flags);
dpu_error_t dpu_push_xfer_symbol(struct dpu_set_t dpu_set, dpu_xfer_t xfer,
                                 struct dpu_symbol_t symbol, uint32_t symbol_offset, size_t length,
                                 dpu_xfer_flags_t flags);

/* --------------------------------------------------------- scatter/gather */

/* One host block of a scatter/gather transfer. */
struct sg_block_info {
    uint8_t *addr;   /* first byte of the block in host memory */
    uint32_t length; /* bytes                                  */
};

/* Fills *out with block block_index (0, 1, ...) of the DPU at dpu_index
 * (its position in the allocated set) and returns true, or returns false
 * when that DPU has no more blocks. */
typedef bool (*get_block_func_t)(struct sg_block_info *out, uint32_t dpu_index,
                                 uint32_t block_index, void *args);

typedef struct get_block_t {
    get_block_func_t f;
    void *args;       /* copied (args_size bytes) when the call is made */
    size_t args_size; /* 0: args is passed as it is                     */
} get_block_t;

/* Scatter/gather between host blocks and the MRAM symbol+offset of every
 * DPU of a rank set (a DPU set: DPU_ERR_INTERNAL): each DPU's blocks, one
 * after the other, fill (TO_DPU) or receive (FROM_DPU) length bytes. Needs
 * the profile key sgXferEnable=true (else DPU_ERR_SG_NOT_ACTIVATED); an
 * MRAM symbol (else DPU_ERR_SG_NOT_MRAM_SYMBOL); at most
 * sgXferMaxBlocksPerDpu blocks per DPU (default: the allocation's DPU count;
 * else DPU_ERR_SG_TOO_MANY_BLOCKS); blocks summing to length for every DPU
 * (else DPU_ERR_SG_LENGTH_MISMATCH) unless DPU_SG_XFER_DISABLE_LENGTH_CHECK,
 * with which fewer bytes are allowed (TO_DPU zero-fills the rest; a DPU
 * with no block is skipped). The blocks are collected when the call is made
 * (so these errors come from the call, even with DPU_SG_XFER_ASYNC); the
 * host bytes are read or written when the job runs. */
dpu_error_t dpu_push_sg_xfer(struct dpu_set_t dpu_set, dpu_xfer_t xfer, const char *symbol_name,
                             uint32_t symbol_offset, size_t length, get_block_t *get_block_info,
                             dpu_sg_xfer_flags_t flags);
dpu_error_t dpu_push_sg_xfer_symbol(struct dpu_set_t dpu_set, dpu_xfer_t xfer,
                                    struct dpu_symbol_t symbol, uint32_t symbol_offset,
                                    size_t length, get_block_t *get_block_info,
                                    dpu_sg_xfer_flags_t flags);

/* -------------------------------------------------------------- execution */

/* Boots every enabled DPU of the set. DPU_SYNCHRONOUS returns when all
 * stopped (DPU_ERR_DPU_FAULT if one faulted, reported on stderr);
 * DPU_ASYNCHRONOUS only queues the launch on each rank. */
dpu_error_t dpu_launch(struct dpu_set_t dpu_set, dpu_launch_policy_t policy);
/* Waits for every job queued on the set's ranks; returns the first error
 * (a sticky asynchronous error is returned once, then cleared). */
dpu_error_t dpu_sync(struct dpu_set_t dpu_set);
/* Calls dpu_sync first (it blocks), then reports done / fault. */
dpu_error_t dpu_status(struct dpu_set_t dpu_set, bool *done, bool *fault);
/* Calls callback per rank (rank set, index in the set), or once with the
 * whole set (SINGLE_CALL, index (uint32_t)-1); ASYNC queues it on each rank. */
dpu_error_t dpu_callback(struct dpu_set_t dpu_set,
                         dpu_error_t (*callback)(struct dpu_set_t, uint32_t, void *), void *args,
                         dpu_callback_flags_t flags);

/* ------------------------------------------------------------------- logs */

/* Prints "=== DPU#0x<id> ===" and the DPU's printf output since its last
 * boot. Needs a single-DPU set. */
dpu_error_t dpu_log_read(struct dpu_set_t set, FILE *stream);

/* ----------------------------------------------------------------- checks */

#define DPU_CHECK(s, on_error)                                                                     \
    do {                                                                                           \
        dpu_error_t __dpu_check_status = (s);                                                      \
        if (__dpu_check_status != DPU_OK) {                                                        \
            char *__dpu_check_msg = dpu_error_to_string(__dpu_check_status);                       \
            fprintf(stderr, "%s:%d(%s): DPU Error (%s)\n", __FILE__, __LINE__, __func__,           \
                    __dpu_check_msg ? __dpu_check_msg : "?");                                      \
            free(__dpu_check_msg);                                                                 \
            on_error;                                                                              \
        }                                                                                          \
    } while (0)

#define DPU_ASSERT(s) DPU_CHECK(s, exit(EXIT_FAILURE))

#ifdef __cplusplus
}
#endif

#endif /* DPU_H */
