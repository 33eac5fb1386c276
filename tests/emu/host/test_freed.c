/*
 * tests/emu/host/test_freed.c -- a set used after dpu_free: every entry
 * point refuses it with DPU_ERR_INVALID_DPU_SET rather than reading freed
 * memory (run under ASan by `make san-build`: a use after free there is a
 * failure even when the old bytes would still have looked valid).
 *
 * Also: checking a set never waits for a lock held while queued jobs
 * finish (a queued callback checks the DPU sets it copies to while
 * dpu_emu_reset waits for it).
 *
 * Run from the folder holding basic.dpu (emu/host.mk builds it).
 */
#define _DEFAULT_SOURCE
#include <dpu.h>
#include <dpu_emu.h>
#include <stdio.h>
#include <time.h>

#include "test.h"

#define WANT_INVALID(call)                                                                         \
    CHECK((call) == DPU_ERR_INVALID_DPU_SET, "%s did not refuse the freed set", #call)

TEST(emu_host_freed_set_refused)
{
    struct dpu_set_t set, dpu = {0}, rank = {0};
    CHECK(dpu_alloc_ranks(2, "nrDpusPerRank=4", &set) == DPU_OK, "alloc");
    CHECK(dpu_load(set, "basic.dpu", NULL) == DPU_OK, "load");
    DPU_FOREACH (set, dpu)
        break;
    DPU_RANK_FOREACH (set, rank)
        break;
    CHECK(dpu_free(set) == DPU_OK, "free");

    uint32_t word = 7, n = 0;
    bool done, fault;
    WANT_INVALID(dpu_free(set));
    WANT_INVALID(dpu_launch(set, DPU_SYNCHRONOUS));
    WANT_INVALID(dpu_launch(rank, DPU_SYNCHRONOUS));
    WANT_INVALID(dpu_launch(dpu, DPU_SYNCHRONOUS));
    WANT_INVALID(dpu_load(set, "basic.dpu", NULL));
    WANT_INVALID(dpu_load(dpu, "basic.dpu", NULL));
    WANT_INVALID(dpu_copy_to(set, DPU_MRAM_HEAP_POINTER_NAME, 0, &word, sizeof word));
    WANT_INVALID(dpu_copy_to(rank, DPU_MRAM_HEAP_POINTER_NAME, 0, &word, sizeof word));
    WANT_INVALID(dpu_copy_from(dpu, DPU_MRAM_HEAP_POINTER_NAME, 0, &word, sizeof word));
    WANT_INVALID(
        dpu_broadcast_to(set, DPU_MRAM_HEAP_POINTER_NAME, 0, &word, sizeof word, DPU_XFER_DEFAULT));
    WANT_INVALID(dpu_prepare_xfer(dpu, &word));
    WANT_INVALID(dpu_push_xfer(set, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, sizeof word,
                               DPU_XFER_DEFAULT));
    WANT_INVALID(dpu_sync(set));
    WANT_INVALID(dpu_status(dpu, &done, &fault));
    WANT_INVALID(dpu_get_nr_dpus(set, &n));
    WANT_INVALID(dpu_get_nr_ranks(rank, &n));
    WANT_INVALID(dpu_log_read(dpu, stdout));
    uint32_t visited = 0;
    struct dpu_set_t each;
    DPU_FOREACH (set, each)
        visited += each.dpu != NULL;
    DPU_FOREACH (rank, each)
        visited += each.dpu != NULL;
    CHECK(visited == 0, "iterating a freed set visited %u DPUs", visited);

    /* a new allocation in the freed one's place: the old handles stay refused */
    struct dpu_set_t again;
    CHECK(dpu_alloc_ranks(2, "nrDpusPerRank=4", &again) == DPU_OK, "alloc again");
    WANT_INVALID(dpu_launch(set, DPU_SYNCHRONOUS));
    WANT_INVALID(dpu_launch(rank, DPU_SYNCHRONOUS));
    CHECK(dpu_free(again) == DPU_OK, "free again");
}

/* Copies to each DPU of the set, after letting the caller reach its wait. */
static dpu_error_t copy_each(struct dpu_set_t set, uint32_t rank, void *arg)
{
    (void)rank;
    struct dpu_set_t dpu;
    uint64_t bias = 5;
    struct timespec pause = {0, 50 * 1000 * 1000};
    nanosleep(&pause, NULL);
    DPU_FOREACH (set, dpu) {
        dpu_error_t err = dpu_copy_to(dpu, "bias", 0, &bias, sizeof bias);
        if (err != DPU_OK)
            return err;
    }
    *(int *)arg += 1;
    return DPU_OK;
}

TEST(emu_host_freed_check_in_queued_callback)
{
    struct dpu_set_t set;
    int calls = 0;
    CHECK(dpu_alloc_ranks(1, "nrDpusPerRank=2", &set) == DPU_OK, "alloc");
    CHECK(dpu_load(set, "basic.dpu", NULL) == DPU_OK, "load");
    CHECK(dpu_callback(set, copy_each, &calls, DPU_CALLBACK_ASYNC) == DPU_OK, "callback");
    dpu_emu_reset(); /* waits for the queued callback */
    CHECK(dpu_sync(set) == DPU_OK && calls == 1, "the callback ran (%d)", calls);
    CHECK(dpu_free(set) == DPU_OK, "free");
}
