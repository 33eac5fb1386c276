/*
 * tests/emu/host/test_sdk.c -- the SDK's low-level host API on rank and DPU
 * handles (dpu_management.h, dpu_memory.h, dpu_runner.h,
 * dpu_transfer_matrix.h, dpu_program.h): each answer checked against what
 * <dpu.h> gives for the same set.
 *
 * Run from the folder holding basic.dpu and fault.dpu (emu/host.mk).
 */
#include <dpu.h>
#include <dpu_config.h>
#include <dpu_management.h>
#include <dpu_memory.h>
#include <dpu_program.h>
#include <dpu_runner.h>
#include <dpu_transfer_matrix.h>
#include <stdio.h>
#include <string.h>

#include "test.h"

#define OK(call) CHECK((call) == DPU_OK, "%s failed", #call)

/* 2 ranks of 16 DPUs (2 chips of 8), DPU 9 of rank 1 disabled */
#define PROFILE "nrRanks=2,nrDpusPerRank=16,disabledDpus=1.9"

TEST(emu_host_sdk_handles)
{
    struct dpu_set_t set, dpu, rank_set;
    uint32_t i, n = 0;
    OK(dpu_alloc_ranks(2, PROFILE, &set));
    uint32_t r = 0;
    DPU_RANK_FOREACH (set, rank_set, r) {
        struct dpu_rank_t *rank = dpu_rank_from_set(rank_set);
        CHECK(rank != NULL && rank == set.list.ranks[r], "dpu_rank_from_set of rank %u", r);
        CHECK(dpu_get_rank_id(rank) == r, "rank id %u, want %u", dpu_get_rank_id(rank), r);
        CHECK(dpu_get_rank_numa_node(rank) == 0, "numa node");
        uint32_t count = 0, last = 0;
        struct dpu_t *d;
        STRUCT_DPU_FOREACH(rank, d, i)
        {
            CHECK(dpu_get_rank(d) == rank, "dpu_get_rank");
            CHECK(dpu_is_enabled(d), "iterated a disabled DPU");
            CHECK(dpu_get(rank, dpu_get_slice_id(d), dpu_get_member_id(d)) == d,
                  "dpu_get(slice %u, member %u)", dpu_get_slice_id(d), dpu_get_member_id(d));
            CHECK(dpu_get_member_id(d) < 8 && dpu_get_slice_id(d) < 2, "ids of a 2-chip rank");
            last = i;
            count++;
        }
        CHECK(count == (r == 1 ? 15u : 16u) && last == count - 1, "rank %u: %u DPUs", r, count);
        struct dpu_t *off = dpu_get(rank, 1, 1); /* DPU 9 */
        CHECK(off != NULL && dpu_is_enabled(off) == (r == 0), "DPU 9 of rank %u", r);
        CHECK(dpu_get(rank, 2, 0) == NULL && dpu_get(rank, 0, 8) == NULL, "out of range");
        struct dpu_set_t again = dpu_set_from_rank(&set.list.ranks[r]);
        OK(dpu_get_nr_dpus(again, &n));
        CHECK(n == count, "dpu_set_from_rank: %u DPUs", n);
    }
    /* dpu_get_id is the id dpu_log_read prints */
    DPU_FOREACH (set, dpu, i) {
        struct dpu_t *d = dpu_from_set(dpu);
        CHECK(d != NULL && dpu_set_from_dpu(d).dpu == d, "dpu_from_set");
        uint32_t want = dpu_get_rank_id(dpu_get_rank(d)) << 16 | dpu_get_slice_id(d) << 8 |
                        dpu_get_member_id(d);
        CHECK(dpu_get_id(d) == want, "dpu_get_id %#x, want %#x", dpu_get_id(d), want);
    }
    CHECK(dpu_from_set(set) == NULL && dpu_rank_from_set(set) == NULL, "two-rank set");

    dpu_description_t desc = dpu_get_description(set.list.ranks[0]);
    CHECK(desc != NULL && desc->type == HW && desc->hw.topology.nr_of_control_interfaces == 2 &&
              desc->hw.topology.nr_of_dpus_per_control_interface == 8 &&
              desc->hw.memories.mram_size == 64u << 20 &&
              desc->hw.memories.wram_size == 64u << 10 && desc->hw.dpu.nr_of_threads == 24,
          "description of the rank");
    dpu_description_t pd;
    OK(dpu_get_profile_description("nrDpusPerRank=64,clockMhz=400", &pd));
    CHECK(pd->hw.topology.nr_of_dpus_per_control_interface == 8 &&
              pd->hw.timings.fck_frequency_in_mhz == 400,
          "profile description");
    dpu_acquire_description(pd);
    dpu_free_description(pd);
    dpu_free_description(pd); /* the last reference frees it (ASan: no leak) */
    CHECK(dpu_get_profile_description("noSuchKey=1", &pd) == DPU_ERR_INVALID_PROFILE,
          "bad profile");

    struct dpu_rank_t *r0 = set.list.ranks[0];
    dpu_lock_rank(r0);
    dpu_lock_rank(r0); /* recursive */
    CHECK(dpu_trylock_rank(r0) == 0, "trylock by the owner");
    dpu_unlock_rank(r0);
    dpu_unlock_rank(r0);
    dpu_unlock_rank(r0);
    OK(dpu_free(set));
}

TEST(emu_host_sdk_memory)
{
    struct dpu_set_t set, dpu;
    uint32_t i;
    OK(dpu_alloc_ranks(1, "nrDpusPerRank=8", &set));
    OK(dpu_load(set, "basic.dpu", NULL));
    struct dpu_rank_t *rank = set.list.ranks[0];
    struct dpu_symbol_t heap, nel;
    struct dpu_program_t *prog = NULL;
    OK(dpu_get_common_program(&set, &prog));
    OK(dpu_get_symbol(prog, DPU_MRAM_HEAP_POINTER_NAME, &heap));
    OK(dpu_get_symbol(prog, "n_elems", &nel));
    uint64_t in[8][32], out[32];
    DPU_FOREACH (set, dpu, i) {
        struct dpu_t *d = dpu_from_set(dpu);
        CHECK(dpu_get_program(d) == prog, "dpu_get_program");
        for (int j = 0; j < 32; j++)
            in[i][j] = i * 1000 + j;
        OK(dpu_copy_to_mram(d, heap.address - 0x08000000u, (const uint8_t *)in[i], sizeof in[i]));
        OK(dpu_copy_from_mram(d, (uint8_t *)out, heap.address - 0x08000000u, sizeof out));
        CHECK(!memcmp(in[i], out, sizeof out), "MRAM round trip on DPU %u", i);
    }
    /* n_elems by word offset, to the whole rank */
    dpuword_t ne = 32, back = 0;
    OK(dpu_copy_to_wram_for_rank(rank, nel.address / 4, &ne, 1));
    DPU_FOREACH (set, dpu) {
        OK(dpu_copy_from_wram_for_dpu(dpu_from_set(dpu), &back, nel.address / 4, 1));
        CHECK(back == 32, "n_elems %u", back);
    }
    struct dpu_t *last = dpu_get(rank, 0, 7);
    CHECK(dpu_copy_to_mram(last, 3, (const uint8_t *)out, 8) == DPU_ERR_INVALID_MRAM_ACCESS,
          "an unaligned MRAM offset is refused as by dpu_copy_to");
    CHECK(dpu_copy_to_wram_for_dpu(last, 1u << 20, &ne, 1) == DPU_ERR_INVALID_WRAM_ACCESS,
          "past WRAM");

    /* boot, poll: out[j] = in[j] * 2 (bias 0) */
    OK(dpu_boot_rank(rank));
    OK(dpu_poll_rank(rank));
    dpu_run_context_t ctx = dpu_get_run_context(rank);
    CHECK(ctx->dpu_in_fault[0] == 0 && ctx->nb_dpu_running == 0, "run context after the run");

    /* the results through a transfer matrix */
    uint64_t res[8][32];
    struct dpu_transfer_matrix m;
    memset(&m, 0, sizeof m);
    DPU_FOREACH (set, dpu, i)
        dpu_transfer_matrix_add_dpu(dpu_from_set(dpu), &m, res[i]);
    CHECK(dpu_transfer_matrix_get_ptr(last, &m) == res[7], "get_ptr");
    m.offset = heap.address - 0x08000000u + sizeof in[0];
    m.size = sizeof res[0];
    memset(res, 0, sizeof res);
    OK(dpu_copy_from_mrams(rank, &m));
    int bad = 0;
    for (i = 0; i < 8; i++)
        for (int j = 0; j < 32; j++)
            bad += res[i][j] != in[i][j] * 2;
    CHECK(bad == 0, "%d results differ after dpu_copy_from_mrams", bad);
    dpu_transfer_matrix_clear_all(rank, &m);
    CHECK(dpu_transfer_matrix_get_ptr(last, &m) == NULL, "clear_all");

    /* the program outlives the DPUs with a reference */
    dpu_take_program_ref(prog);
    OK(dpu_free(set));
    struct dpu_symbol_t again;
    OK(dpu_get_symbol(prog, "n_elems", &again));
    CHECK(again.address == nel.address, "program kept by its reference");
    dpu_free_program(prog);
}

TEST(emu_host_sdk_runner_fault)
{
    struct dpu_rank_t *rank = NULL;
    OK(dpu_get_rank_of_type("nrDpusPerRank=4", &rank));
    struct dpu_set_t set = dpu_set_from_rank(&rank);
    OK(dpu_load(set, "fault.dpu", NULL));
    uint32_t one = 1;
    OK(dpu_copy_to(set, "do_fault", 0, &one, sizeof one));
    struct dpu_t *d = dpu_get(rank, 0, 0);
    CHECK(dpu_launch_thread_on_dpu(d, 1, false) == DPU_ERR_INVALID_THREAD_ID, "thread 1 alone");
    OK(dpu_launch_thread_on_dpu(d, DPU_BOOT_THREAD, false));
    bool running = true, fault = false;
    OK(dpu_poll_dpu(d, &running, &fault));
    CHECK(!running && fault, "poll after a faulting run: running %d fault %d", running, fault);
    OK(dpu_poll_rank(rank));
    CHECK(dpu_get_run_context(rank)->dpu_in_fault[0] == 1, "fault bits %#x",
          dpu_get_run_context(rank)->dpu_in_fault[0]);
    bool done = false;
    OK(dpu_status_dpu(dpu_get(rank, 0, 1), &done, &fault));
    CHECK(done && !fault, "DPU 1 was not booted");

    /* a rank reset clears the fault, keeps the memory and the program */
    OK(dpu_reset_rank(rank));
    OK(dpu_status_dpu(d, &done, &fault));
    CHECK(done && !fault, "fault after dpu_reset_rank");
    uint32_t kept = 0;
    OK(dpu_copy_from(dpu_set_from_dpu(d), "do_fault", 0, &kept, sizeof kept));
    CHECK(kept == 1, "WRAM after the reset: %u", kept);
    CHECK(dpu_launch(dpu_set_from_dpu(d), DPU_SYNCHRONOUS) == DPU_ERR_DPU_FAULT,
          "the program is still loaded (and faults again)");
    CHECK(dpu_free(set) == DPU_ERR_INVALID_DPU_SET, "dpu_free of a dpu_get_rank_of_type rank");
    OK(dpu_free_rank(rank));
    CHECK(dpu_free_rank(rank) == DPU_ERR_INVALID_DPU_SET, "freed twice");
}
