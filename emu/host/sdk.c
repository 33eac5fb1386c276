/*
 * sdk.c -- the SDK's low-level host API on rank and DPU handles:
 * dpu_management.h (handles, ids, locks, descriptions, iteration),
 * dpu_memory.h, dpu_runner.h, dpu_transfer_matrix.h, most of
 * dpu_program.h, dpu_config.h's rank reset. Top layer: every copy, launch and poll is the <dpu.h>
 * call on the handle's set, so the rules, errors, queue order and modeled
 * time are those of the public API (one implementation of each).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../include/dpu_config.h"
#include "../include/dpu_management.h"
#include "../include/dpu_memory.h"
#include "../include/dpu_program.h"
#include "../include/dpu_runner.h"
#include "../include/dpu_transfer_matrix.h"
#include "queue.h"
#include "set.h"

const char *dpu_slice_target_names[NR_OF_DPU_SLICE_TARGETS] = {
    "DPU_SLICE_TARGET_NONE", "DPU_SLICE_TARGET_DPU", "DPU_SLICE_TARGET_ALL",
    "DPU_SLICE_TARGET_GROUP"};

/* ------------------------------------------------------------ descriptions */

/* marks a description dpu_get_profile_description allocated */
static char g_heap_description;

/* see dpu_description.h for the values */
static void describe(const profile_t *p, dpu_description_t d)
{
    memset(d, 0, sizeof *d);
    d->type = HW;
    d->hw.signature.chip_id = vD_asic8;
    d->hw.timings.fck_frequency_in_mhz = (uint32_t)(p->vdpu.clock_mhz + 0.5);
    /* the rank's DPUs fill its chips eight at a time (emu_dpu_id) */
    uint32_t n = p->nr_dpus_per_rank;
    uint32_t cis = (n + DPU_MAX_NR_DPUS_PER_CI - 1) / DPU_MAX_NR_DPUS_PER_CI;
    d->hw.topology.nr_of_control_interfaces = (uint8_t)cis;
    d->hw.topology.nr_of_dpus_per_control_interface =
        (uint8_t)(n < DPU_MAX_NR_DPUS_PER_CI ? n : DPU_MAX_NR_DPUS_PER_CI);
    d->hw.topology.ci_mask = (uint8_t)((1u << cis) - 1);
    d->hw.memories.mram_size = VDPU_MRAM_SIZE;
    d->hw.memories.wram_size = VDPU_WRAM_SIZE;
    d->hw.memories.iram_size = (iram_size_t)VDPU_IRAM_MAX_INSNS;
    d->hw.dpu.nr_of_threads = VDPU_MAX_TASKLETS;
    d->hw.dpu.nr_of_atomic_bits = VDPU_ATOMIC_BITS;
    /* 24 x 32-bit work registers per hardware thread (upmem-api.md, "work
     * registers/thread"); the virtual DPU's riscv32 code has its own */
    d->hw.dpu.nr_of_work_registers_per_thread = 24;
    d->configuration.disable_reset_on_alloc = p->disable_reset_on_alloc;
    d->refcount = 1;
}

/* see dpu_description.h */
void dpu_acquire_description(dpu_description_t description)
{
    if (description != NULL)
        __atomic_add_fetch(&description->refcount, 1, __ATOMIC_RELAXED);
}

/* see dpu_description.h */
void dpu_free_description(dpu_description_t description)
{
    if (description == NULL || description->refcount == 0)
        return;
    if (__atomic_sub_fetch(&description->refcount, 1, __ATOMIC_ACQ_REL) == 0 &&
        description->_internals.data == &g_heap_description)
        free(description);
}

/* see dpu_management.h */
dpu_error_t dpu_get_profile_description(const char *profile, dpu_description_t *description)
{
    if (description == NULL)
        return DPU_ERR_INTERNAL;
    profile_t p;
    dpu_error_t err = emu_profile_build(profile, &p);
    if (err != DPU_OK)
        return err;
    dpu_description_t d = malloc(sizeof *d);
    if (d == NULL) {
        emu_profile_release(&p);
        return DPU_ERR_SYSTEM;
    }
    describe(&p, d);
    d->_internals.data = &g_heap_description;
    emu_profile_release(&p);
    *description = d;
    return DPU_OK;
}

/* see dpu_management.h */
dpu_description_t dpu_get_description(struct dpu_rank_t *rank)
{
    if (rank == NULL)
        return NULL;
    pthread_mutex_lock(&rank->mu);
    if (!rank->desc_ready) {
        describe(rank->prof, &rank->desc);
        rank->desc_ready = true;
    }
    pthread_mutex_unlock(&rank->mu);
    return &rank->desc;
}

/* ---------------------------------------------------------------- handles */

/* see dpu_management.h */
void dpu_lock_rank(struct dpu_rank_t *rank)
{
    pthread_mutex_lock(&rank->user_mu);
}

/* see dpu_management.h */
int dpu_trylock_rank(struct dpu_rank_t *rank)
{
    return pthread_mutex_trylock(&rank->user_mu);
}

/* see dpu_management.h */
void dpu_unlock_rank(struct dpu_rank_t *rank)
{
    pthread_mutex_unlock(&rank->user_mu);
}

/* A DPU's place in its rank is chip * 8 + member: the rank's DPUs fill its
 * chips eight at a time, as the ids dpu_log_read prints (emu_dpu_id). */
static uint32_t per_ci(const struct dpu_rank_t *r)
{
    (void)r;
    return DPU_MAX_NR_DPUS_PER_CI;
}

/* see dpu_management.h */
struct dpu_t *dpu_get(struct dpu_rank_t *rank, dpu_slice_id_t slice_id, dpu_member_id_t dpu_id)
{
    if (rank == NULL || slice_id >= DPU_MAX_NR_CIS || dpu_id >= per_ci(rank))
        return NULL;
    uint32_t i = slice_id * per_ci(rank) + dpu_id;
    return i < rank->nr_dpus ? &rank->dpus[i] : NULL;
}

/* see dpu_management.h */
dpu_id_t dpu_get_id(struct dpu_t *dpu)
{
    return emu_dpu_id(dpu);
}

/* see dpu_management.h */
dpu_id_t dpu_get_rank_id(struct dpu_rank_t *rank)
{
    return rank->id;
}

/* see dpu_management.h */
int dpu_get_rank_numa_node(struct dpu_rank_t *rank)
{
    (void)rank;
    return 0;
}

/* see dpu_management.h */
struct dpu_rank_t *dpu_get_rank(struct dpu_t *dpu)
{
    return dpu->rank;
}

/* see dpu_management.h */
dpu_slice_id_t dpu_get_slice_id(struct dpu_t *dpu)
{
    return (dpu_slice_id_t)(dpu->index / per_ci(dpu->rank));
}

/* see dpu_management.h */
dpu_member_id_t dpu_get_member_id(struct dpu_t *dpu)
{
    return (dpu_member_id_t)(dpu->index % per_ci(dpu->rank));
}

/* see dpu_management.h */
bool dpu_is_enabled(struct dpu_t *dpu)
{
    return dpu->enabled;
}

/* see dpu_management.h */
struct dpu_set_t dpu_set_from_rank(struct dpu_rank_t **rank)
{
    struct dpu_set_t set = {.kind = DPU_SET_RANKS};
    set.list.nr_ranks = 1;
    set.list.ranks = rank;
    return set;
}

/* see dpu_management.h */
struct dpu_set_t dpu_set_from_dpu(struct dpu_t *dpu)
{
    struct dpu_set_t set = {.kind = DPU_SET_DPU};
    set.dpu = dpu;
    return set;
}

/* see dpu_management.h */
struct dpu_rank_t *dpu_rank_from_set(struct dpu_set_t set)
{
    if (set.kind != DPU_SET_RANKS || set.list.nr_ranks != 1 || set.list.ranks == NULL)
        return NULL;
    return set.list.ranks[0];
}

/* see dpu_management.h */
struct dpu_t *dpu_from_set(struct dpu_set_t set)
{
    return set.kind == DPU_SET_DPU ? set.dpu : NULL;
}

static void iterator_settle(struct dpu_iterator_t *it)
{
    struct dpu_rank_t *r = it->rank;
    for (uint32_t i = it->next_idx; r != NULL && i < r->nr_dpus; i++)
        if (r->dpus[i].enabled) {
            it->has_next = true;
            it->next_idx = i + 1;
            it->next = &r->dpus[i];
            return;
        }
    it->has_next = false;
    it->next = NULL;
}

/* see dpu_management.h */
struct dpu_iterator_t dpu_iterator_from(struct dpu_rank_t *rank)
{
    struct dpu_iterator_t it = {.rank = rank};
    iterator_settle(&it);
    return it;
}

/* see dpu_management.h */
void dpu_iterator_next(struct dpu_iterator_t *iterator)
{
    iterator->count++;
    iterator_settle(iterator);
}

/* ----------------------------------------------------------------- memory */

/* The raw-address symbol of a memory range (addresses as dpu_get_symbol
 * gives them: WRAM from 0, MRAM from VDPU_MRAM_BASE). */
static struct dpu_symbol_t raw(bool mram, uint64_t at, uint64_t len, dpu_error_t *err)
{
    struct dpu_symbol_t s = {0, 0};
    uint64_t limit = mram ? VDPU_MRAM_SIZE : VDPU_WRAM_SIZE;
    if (at + len > limit) {
        *err = mram ? DPU_ERR_INVALID_MRAM_ACCESS : DPU_ERR_INVALID_WRAM_ACCESS;
        return s;
    }
    s.address = (dpu_mem_max_addr_t)((mram ? VDPU_MRAM_BASE : 0) + at);
    s.size = (dpu_mem_max_size_t)len;
    *err = DPU_OK;
    return s;
}

static dpu_error_t to_set(struct dpu_set_t set, bool mram, uint64_t at, const void *src,
                          uint64_t len)
{
    dpu_error_t err;
    struct dpu_symbol_t s = raw(mram, at, len, &err);
    return err != DPU_OK ? err : dpu_copy_to_symbol(set, s, 0, src, (size_t)len);
}

static dpu_error_t from_dpu(struct dpu_t *dpu, bool mram, uint64_t at, void *dst, uint64_t len)
{
    dpu_error_t err;
    struct dpu_symbol_t s = raw(mram, at, len, &err);
    return err != DPU_OK ? err
                         : dpu_copy_from_symbol(dpu_set_from_dpu(dpu), s, 0, dst, (size_t)len);
}

/* see dpu_memory.h */
dpu_error_t dpu_copy_to_wram_for_rank(struct dpu_rank_t *rank, wram_addr_t wram_word_offset,
                                      const dpuword_t *source, wram_size_t nb_of_words)
{
    return to_set(dpu_set_from_rank(&rank), false, (uint64_t)wram_word_offset * 4, source,
                  (uint64_t)nb_of_words * 4);
}

/* see dpu_memory.h */
dpu_error_t dpu_copy_to_wram_for_dpu(struct dpu_t *dpu, wram_addr_t wram_word_offset,
                                     const dpuword_t *source, wram_size_t nb_of_words)
{
    return to_set(dpu_set_from_dpu(dpu), false, (uint64_t)wram_word_offset * 4, source,
                  (uint64_t)nb_of_words * 4);
}

/* see dpu_memory.h */
dpu_error_t dpu_copy_from_wram_for_dpu(struct dpu_t *dpu, dpuword_t *destination,
                                       wram_addr_t wram_word_offset, wram_size_t nb_of_words)
{
    return from_dpu(dpu, false, (uint64_t)wram_word_offset * 4, destination,
                    (uint64_t)nb_of_words * 4);
}

/* see dpu_memory.h */
dpu_error_t dpu_copy_to_mram(struct dpu_t *dpu, mram_addr_t mram_byte_offset, const uint8_t *source,
                             mram_size_t nb_of_bytes)
{
    return to_set(dpu_set_from_dpu(dpu), true, mram_byte_offset, source, nb_of_bytes);
}

/* see dpu_memory.h */
dpu_error_t dpu_copy_from_mram(struct dpu_t *dpu, uint8_t *destination,
                               mram_addr_t mram_byte_offset, mram_size_t nb_of_bytes)
{
    return from_dpu(dpu, true, mram_byte_offset, destination, nb_of_bytes);
}

/* A matrix copy: each buffer prepared for its DPU, then one push on the
 * rank (so one modeled parallel transfer, as the SDK's matrix is). */
static dpu_error_t matrix_copy(struct dpu_rank_t *rank, struct dpu_transfer_matrix *m, bool mram,
                               dpu_xfer_t dir)
{
    if (rank == NULL || m == NULL)
        return DPU_ERR_INVALID_DPU_SET;
    if (m->type != DPU_DEFAULT_XFER_MATRIX)
        return DPU_ERR_INVALID_MEMORY_TRANSFER;
    uint64_t scale = mram ? 1 : 4;
    dpu_error_t err;
    struct dpu_symbol_t s = raw(mram, m->offset * scale, m->size * scale, &err);
    struct dpu_set_t set = dpu_set_from_rank(&rank);
    if (err == DPU_OK)
        err = dpu_prepare_xfer(set, NULL); /* only this matrix's buffers */
    for (uint32_t i = 0; err == DPU_OK && i < rank->nr_dpus && i < MAX_NR_DPUS_PER_RANK; i++)
        if (m->ptr[i] != NULL && rank->dpus[i].enabled)
            err = dpu_prepare_xfer(dpu_set_from_dpu(&rank->dpus[i]), m->ptr[i]);
    if (err == DPU_OK)
        err = dpu_push_xfer_symbol(set, dir, s, 0, s.size, DPU_XFER_DEFAULT);
    else
        dpu_prepare_xfer(set, NULL);
    return err;
}

/* see dpu_memory.h */
dpu_error_t dpu_copy_to_wram_for_matrix(struct dpu_rank_t *rank,
                                        struct dpu_transfer_matrix *transfer_matrix)
{
    return matrix_copy(rank, transfer_matrix, false, DPU_XFER_TO_DPU);
}

/* see dpu_memory.h */
dpu_error_t dpu_copy_from_wram_for_matrix(struct dpu_rank_t *rank,
                                          struct dpu_transfer_matrix *transfer_matrix)
{
    return matrix_copy(rank, transfer_matrix, false, DPU_XFER_FROM_DPU);
}

/* see dpu_memory.h */
dpu_error_t dpu_copy_to_mrams(struct dpu_rank_t *rank, struct dpu_transfer_matrix *transfer_matrix)
{
    return matrix_copy(rank, transfer_matrix, true, DPU_XFER_TO_DPU);
}

/* see dpu_memory.h */
dpu_error_t dpu_copy_from_mrams(struct dpu_rank_t *rank,
                                struct dpu_transfer_matrix *transfer_matrix)
{
    return matrix_copy(rank, transfer_matrix, true, DPU_XFER_FROM_DPU);
}

/* ---------------------------------------------------------- transfer matrix */

/* see dpu_transfer_matrix.h */
void dpu_transfer_matrix_add_dpu(struct dpu_t *dpu, struct dpu_transfer_matrix *transfer_matrix,
                                 void *buffer)
{
    if (dpu->index < MAX_NR_DPUS_PER_RANK)
        transfer_matrix->ptr[dpu->index] = buffer;
}

/* see dpu_transfer_matrix.h */
dpu_error_t dpu_transfer_matrix_add_dpu_block(struct dpu_t *dpu,
                                              struct dpu_transfer_matrix *transfer_matrix,
                                              void *buffer, uint32_t length)
{
    if (dpu->index >= MAX_NR_DPUS_PER_RANK || transfer_matrix->sg_ptr[dpu->index] == NULL)
        return DPU_ERR_INVALID_MEMORY_TRANSFER;
    struct sg_xfer_buffer *b = transfer_matrix->sg_ptr[dpu->index];
    if (b->nr_blocks >= b->max_nr_blocks)
        return DPU_ERR_SG_TOO_MANY_BLOCKS;
    b->blocks_addr[b->nr_blocks] = buffer;
    b->blocks_length[b->nr_blocks] = length;
    b->nr_blocks++;
    return DPU_OK;
}

/* see dpu_transfer_matrix.h */
void dpu_transfer_matrix_set_all(struct dpu_rank_t *rank,
                                 struct dpu_transfer_matrix *transfer_matrix, void *buffer)
{
    for (uint32_t i = 0; i < rank->nr_dpus && i < MAX_NR_DPUS_PER_RANK; i++)
        if (rank->dpus[i].enabled)
            transfer_matrix->ptr[i] = buffer;
}

/* see dpu_transfer_matrix.h */
void dpu_transfer_matrix_clear_dpu(struct dpu_t *dpu, struct dpu_transfer_matrix *transfer_matrix)
{
    if (dpu->index < MAX_NR_DPUS_PER_RANK)
        transfer_matrix->ptr[dpu->index] = NULL;
}

/* see dpu_transfer_matrix.h */
void dpu_transfer_matrix_clear_all(struct dpu_rank_t *rank,
                                   struct dpu_transfer_matrix *transfer_matrix)
{
    (void)rank;
    memset(transfer_matrix->ptr, 0, sizeof transfer_matrix->ptr);
}

/* see dpu_transfer_matrix.h */
void dpu_transfer_matrix_copy(struct dpu_transfer_matrix *dst, struct dpu_transfer_matrix *src)
{
    memcpy(dst, src, sizeof *dst);
}

/* see dpu_transfer_matrix.h */
void *dpu_transfer_matrix_get_ptr(struct dpu_t *dpu, struct dpu_transfer_matrix *transfer_matrix)
{
    return dpu->index < MAX_NR_DPUS_PER_RANK ? transfer_matrix->ptr[dpu->index] : NULL;
}

/* ------------------------------------------------------------------ runner */

static dpu_error_t boot(struct dpu_set_t set, dpu_thread_t thread, bool should_resume)
{
    if (thread != DPU_BOOT_THREAD || should_resume)
        return DPU_ERR_INVALID_THREAD_ID;
    return dpu_launch(set, DPU_ASYNCHRONOUS);
}

/* see dpu_runner.h */
dpu_error_t dpu_launch_thread_on_rank(struct dpu_rank_t *rank, dpu_thread_t thread,
                                      bool should_resume)
{
    return boot(dpu_set_from_rank(&rank), thread, should_resume);
}

/* see dpu_runner.h */
dpu_error_t dpu_launch_thread_on_dpu(struct dpu_t *dpu, dpu_thread_t thread, bool should_resume)
{
    return boot(dpu_set_from_dpu(dpu), thread, should_resume);
}

/* see dpu_runner.h */
dpu_error_t dpu_boot_rank(struct dpu_rank_t *rank)
{
    return dpu_launch_thread_on_rank(rank, DPU_BOOT_THREAD, false);
}

/* see dpu_runner.h */
dpu_error_t dpu_boot_dpu(struct dpu_t *dpu)
{
    return dpu_launch_thread_on_dpu(dpu, DPU_BOOT_THREAD, false);
}

/* see dpu_runner.h */
dpu_error_t dpu_status_rank(struct dpu_rank_t *rank, bool *done, bool *fault)
{
    return dpu_status(dpu_set_from_rank(&rank), done, fault);
}

/* see dpu_runner.h */
dpu_error_t dpu_status_dpu(struct dpu_t *dpu, bool *done, bool *fault)
{
    return dpu_status(dpu_set_from_dpu(dpu), done, fault);
}

/* see dpu_runner.h */
dpu_error_t dpu_poll_dpu(struct dpu_t *dpu, bool *dpu_is_running, bool *dpu_is_in_fault)
{
    bool done = false, fault = false;
    dpu_error_t err = dpu_status_dpu(dpu, &done, &fault); /* a fault is a flag */
    if (err == DPU_OK) {
        if (dpu_is_running != NULL)
            *dpu_is_running = !done;
        if (dpu_is_in_fault != NULL)
            *dpu_is_in_fault = fault;
    }
    return err;
}

/* see dpu_runner.h */
dpu_error_t dpu_poll_rank(struct dpu_rank_t *rank)
{
    if (rank == NULL)
        return DPU_ERR_INVALID_DPU_SET;
    struct _dpu_run_context_t ctx;
    memset(&ctx, 0, sizeof ctx);
    /* dpu_status waits for the rank's queue and reports a fault as a flag */
    bool done, fault;
    dpu_error_t err = dpu_status_rank(rank, &done, &fault);
    if (err != DPU_OK)
        return err;
    uint32_t n = per_ci(rank);
    for (uint32_t i = 0; i < rank->nr_dpus; i++) {
        bool running = false, in_fault = false;
        if (rank->dpus[i].enabled && dpu_poll_dpu(&rank->dpus[i], &running, &in_fault) == DPU_OK &&
            in_fault)
            ctx.dpu_in_fault[i / n] |= (dpu_bitfield_t)(1u << (i % n));
    }
    ctx.poll_status = err;
    pthread_mutex_lock(&rank->mu);
    rank->run_ctx = ctx;
    pthread_mutex_unlock(&rank->mu);
    return DPU_OK;
}

/* see dpu_runner.h */
dpu_run_context_t dpu_get_run_context(struct dpu_rank_t *rank)
{
    return rank == NULL ? NULL : &rank->run_ctx;
}

/* ----------------------------------------------------------------- program */

/* see dpu_program.h */
void dpu_take_program_ref(struct dpu_program_t *program)
{
    if (program != NULL)
        emu_program_ref(program);
}

/* see dpu_program.h */
void dpu_free_program(struct dpu_program_t *program)
{
    if (program != NULL)
        emu_program_put(program);
}

/* see dpu_program.h */
struct dpu_program_t *dpu_get_program(struct dpu_t *dpu)
{
    return dpu->program;
}

/* ------------------------------------------------------------------- reset */

/* see dpu_config.h */
dpu_error_t dpu_reset_rank(struct dpu_rank_t *rank)
{
    dpu_error_t err = emu_set_check(dpu_set_from_rank(&rank));
    if (err != DPU_OK)
        return err;
    emu_ranks_quiesce(&rank, 1); /* no job of the rank runs from here */
    for (uint32_t i = 0; i < rank->nr_dpus; i++)
        rank->dpus[i].fault = false;
    return DPU_OK;
}
