/*
 * tests/emu/host/test_sg.c -- scatter/gather transfers (dpu_push_sg_xfer):
 * the bytes each DPU's blocks put in MRAM or get back, the dpu_index the
 * SDK passes get_block, the SDK's errors (not activated, one DPU, not MRAM,
 * block limit, length mismatch and DPU_SG_XFER_DISABLE_LENGTH_CHECK's zero
 * fill), and the modeled cost: exactly the equivalent push_xfer's.
 *
 * Part of test-host (same folder, same DPU programs).
 */
#include <dpu.h>
#include <dpu_emu.h>
#include <string.h>

#include "test.h"

#define S_ERR(call, want)                                                                          \
    do {                                                                                           \
        dpu_error_t e_ = (call);                                                                   \
        CHECK(e_ == (want), "line %d: %s returned %d, want %d", __LINE__, #call, (int)e_,          \
              (int)(want));                                                                        \
    } while (0)
#define S_OK(call) S_ERR(call, DPU_OK)

enum { NR = 8, LEN = 64 };

/* Each DPU d gets three blocks of its own buffer, in reverse order of
 * their place in it: bytes [40,64), [8,40), [0,8) -- so MRAM holds the
 * buffer's segments permuted, which a plain copy could not produce. */
typedef struct {
    uint8_t (*buf)[LEN];
    uint32_t nr_blocks;    /* per DPU (more than 3: empty blocks follow) */
    uint32_t short_by;     /* drop this many bytes of the last block     */
    uint32_t seen[NR + 1]; /* how often each dpu_index came               */
} sg_args_t;

static const uint32_t seg_at[3] = {40, 8, 0}, seg_len[3] = {24, 32, 8};

static bool get_block(struct sg_block_info *out, uint32_t dpu_index, uint32_t block_index,
                      void *args)
{
    sg_args_t *a = args;
    if (dpu_index >= NR || block_index >= a->nr_blocks)
        return false;
    if (block_index == 0)
        a->seen[dpu_index]++;
    if (block_index >= 3) {
        out->addr = a->buf[dpu_index];
        out->length = 0; /* empty: counts as a block, moves nothing */
        return true;
    }
    out->addr = a->buf[dpu_index] + seg_at[block_index];
    out->length = seg_len[block_index] - (block_index == 2 ? a->short_by : 0);
    return true;
}

/* What DPU d's MRAM holds after the gather of `buf`. */
static void expected(const uint8_t *buf, uint8_t *want)
{
    uint32_t at = 0;
    for (int b = 0; b < 3; b++) {
        memcpy(want + at, buf + seg_at[b], seg_len[b]);
        at += seg_len[b];
    }
}

static void fill(uint8_t (*buf)[LEN], uint8_t salt)
{
    for (int d = 0; d < NR; d++)
        for (int i = 0; i < LEN; i++)
            buf[d][i] = (uint8_t)(d * 31 + i * 7 + salt);
}

static const char *k_prof = "nrDpusPerRank=4,hostClock=none,sgXferEnable=true";

TEST(emu_sg_gather_scatter_bytes)
{
    static uint8_t src[NR][LEN], back[NR][LEN], got[LEN], want[LEN];
    struct dpu_set_t set, dpu;
    uint32_t i;
    S_OK(dpu_alloc_ranks(2, k_prof, &set));
    S_OK(dpu_load(set, "basic.dpu", NULL));
    fill(src, 1);
    /* args is copied at the call (args_size): the callee sees that copy */
    sg_args_t a = {.buf = src, .nr_blocks = 5};
    get_block_t gb = {.f = get_block, .args = &a, .args_size = sizeof a};
    S_OK(dpu_push_sg_xfer(set, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, 8, LEN, &gb,
                          DPU_SG_XFER_DEFAULT));
    CHECK(a.seen[0] == 0, "get_block wrote the caller's args, not a copy");
    DPU_FOREACH (set, dpu, i) {
        S_OK(dpu_copy_from(dpu, DPU_MRAM_HEAP_POINTER_NAME, 8, got, LEN));
        expected(src[i], want);
        CHECK_MEM(got, want, LEN, "gathered MRAM");
    }
    /* and back: MRAM scattered into the blocks restores the buffers */
    sg_args_t b = {.buf = back, .nr_blocks = 3};
    get_block_t gb2 = {.f = get_block, .args = &b, .args_size = 0}; /* passed as it is */
    S_OK(dpu_push_sg_xfer(set, DPU_XFER_FROM_DPU, DPU_MRAM_HEAP_POINTER_NAME, 8, LEN, &gb2,
                          DPU_SG_XFER_ASYNC));
    S_OK(dpu_sync(set));
    CHECK_MEM(back, src, sizeof src, "scattered back");
    for (uint32_t d = 0; d < NR; d++)
        CHECK(b.seen[d] == 1, "dpu_index %u came %u times", d, b.seen[d]);
    /* a rank of the set: dpu_index stays the DPU's place in the allocation */
    struct dpu_set_t rank;
    memset(b.seen, 0, sizeof b.seen);
    DPU_RANK_FOREACH (set, rank, i)
        if (i == 1)
            S_OK(dpu_push_sg_xfer(rank, DPU_XFER_FROM_DPU, DPU_MRAM_HEAP_POINTER_NAME, 8, LEN, &gb2,
                                  DPU_SG_XFER_DEFAULT));
    CHECK(b.seen[0] == 0 && b.seen[4] == 1 && b.seen[7] == 1,
          "rank 1 alone: dpu_index 0 came %u times, 4 %u, 7 %u", b.seen[0], b.seen[4], b.seen[7]);
    S_OK(dpu_free(set));
}

TEST(emu_sg_errors)
{
    static uint8_t src[NR][LEN], got[LEN];
    struct dpu_set_t set, dpu;
    sg_args_t a = {.buf = src, .nr_blocks = 3};
    get_block_t gb = {.f = get_block, .args = &a, .args_size = sizeof a};
    const char *heap = DPU_MRAM_HEAP_POINTER_NAME;

    S_OK(dpu_alloc_ranks(2, "nrDpusPerRank=4,hostClock=none", &set));
    S_OK(dpu_load(set, "basic.dpu", NULL));
    S_ERR(dpu_push_sg_xfer(set, DPU_XFER_TO_DPU, heap, 0, LEN, &gb, DPU_SG_XFER_DEFAULT),
          DPU_ERR_SG_NOT_ACTIVATED);
    S_OK(dpu_free(set));
    CHECK(dpu_alloc(1, "sgXferMaxBlocksPerDpu=2", &set) == DPU_ERR_INVALID_PROFILE,
          "a block limit without sgXferEnable was accepted (the SDK refuses it)");

    S_OK(dpu_alloc_ranks(2, k_prof, &set));
    S_OK(dpu_load(set, "basic.dpu", NULL));
    DPU_FOREACH (set, dpu) {
        S_ERR(dpu_push_sg_xfer(dpu, DPU_XFER_TO_DPU, heap, 0, LEN, &gb, DPU_SG_XFER_DEFAULT),
              DPU_ERR_INTERNAL);
        break;
    }
    S_ERR(dpu_push_sg_xfer(set, DPU_XFER_TO_DPU, "bias", 0, 8, &gb, DPU_SG_XFER_DEFAULT),
          DPU_ERR_SG_NOT_MRAM_SYMBOL);
    S_ERR(dpu_push_sg_xfer(set, DPU_XFER_TO_DPU, "nope", 0, 8, &gb, DPU_SG_XFER_DEFAULT),
          DPU_ERR_UNKNOWN_SYMBOL);
    S_ERR(dpu_push_sg_xfer(set, DPU_XFER_TO_DPU, heap, 4, LEN, &gb, DPU_SG_XFER_DEFAULT),
          DPU_ERR_INVALID_MRAM_ACCESS);
    S_ERR(dpu_push_sg_xfer(set, DPU_XFER_TO_DPU, heap, 0, LEN + 8, &gb, DPU_SG_XFER_DEFAULT),
          DPU_ERR_SG_LENGTH_MISMATCH); /* the blocks sum to LEN */
    S_ERR(dpu_push_sg_xfer(set, DPU_XFER_TO_DPU, heap, 0, LEN - 8, &gb, DPU_SG_XFER_DEFAULT),
          DPU_ERR_SG_LENGTH_MISMATCH); /* more than length */
    S_ERR(dpu_push_sg_xfer(set, DPU_XFER_TO_DPU, heap, 0, LEN, NULL, DPU_SG_XFER_DEFAULT),
          DPU_ERR_INTERNAL);
    a.short_by = 8; /* the blocks sum to LEN - 8 */
    S_ERR(dpu_push_sg_xfer(set, DPU_XFER_TO_DPU, heap, 0, LEN, &gb, DPU_SG_XFER_DEFAULT),
          DPU_ERR_SG_LENGTH_MISMATCH);
    /* DISABLE_LENGTH_CHECK: allowed, the rest zero-filled */
    memset(src, 0xee, sizeof src);
    {
        uint8_t ff[LEN];
        memset(ff, 0xff, sizeof ff);
        DPU_FOREACH (set, dpu)
            S_OK(dpu_copy_to(dpu, heap, 0, ff, LEN));
    }
    S_OK(dpu_push_sg_xfer(set, DPU_XFER_TO_DPU, heap, 0, LEN, &gb,
                          DPU_SG_XFER_DISABLE_LENGTH_CHECK));
    DPU_FOREACH (set, dpu) {
        S_OK(dpu_copy_from(dpu, heap, 0, got, LEN));
        uint8_t want[LEN];
        memset(want, 0xee, LEN - 8);
        memset(want + LEN - 8, 0, 8);
        CHECK_MEM(got, want, LEN, "short blocks + zero fill");
    }
    S_OK(dpu_free(set));

    S_OK(dpu_alloc_ranks(1, "nrDpusPerRank=4,sgXferEnable=true,sgXferMaxBlocksPerDpu=2", &set));
    S_OK(dpu_load(set, "basic.dpu", NULL));
    a.short_by = 0;
    S_ERR(dpu_push_sg_xfer(set, DPU_XFER_TO_DPU, heap, 0, LEN, &gb, DPU_SG_XFER_DEFAULT),
          DPU_ERR_SG_TOO_MANY_BLOCKS);
    S_OK(dpu_free(set));
    S_OK(dpu_alloc(1, "hostClock=wall", &set)); /* back to the default for later tests */
    S_OK(dpu_free(set));
}

/* One block per DPU of LEN bytes: the plain push of the same buffers. */
static bool whole(struct sg_block_info *out, uint32_t dpu_index, uint32_t block_index, void *args)
{
    if (block_index > 0)
        return false;
    out->addr = ((uint8_t(*)[LEN * 64]) args)[dpu_index];
    out->length = LEN * 64;
    return true;
}

TEST(emu_sg_costs_the_equivalent_push)
{
    static uint8_t buf[NR][LEN * 64];
    struct dpu_set_t set, dpu;
    uint32_t i;
    S_OK(dpu_alloc_ranks(2, k_prof, &set));
    S_OK(dpu_load(set, "basic.dpu", NULL));
    dpu_emu_stats_t sg, push;
    dpu_emu_reset();
    get_block_t gb = {.f = whole, .args = buf, .args_size = 0};
    S_OK(dpu_push_sg_xfer(set, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, sizeof buf[0], &gb,
                          DPU_SG_XFER_DEFAULT));
    S_OK(dpu_push_sg_xfer(set, DPU_XFER_FROM_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, sizeof buf[0], &gb,
                          DPU_SG_XFER_DEFAULT));
    dpu_emu_get_stats(&sg);
    dpu_emu_reset();
    DPU_FOREACH (set, dpu, i)
        S_OK(dpu_prepare_xfer(dpu, buf[i]));
    S_OK(dpu_push_xfer(set, DPU_XFER_TO_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, sizeof buf[0],
                       DPU_XFER_DEFAULT));
    DPU_FOREACH (set, dpu, i)
        S_OK(dpu_prepare_xfer(dpu, buf[i]));
    S_OK(dpu_push_xfer(set, DPU_XFER_FROM_DPU, DPU_MRAM_HEAP_POINTER_NAME, 0, sizeof buf[0],
                       DPU_XFER_DEFAULT));
    dpu_emu_get_stats(&push);
    CHECK(sg.host_time > 0 && sg.host_time == push.host_time,
          "scatter/gather %.12g s vs push %.12g s", sg.host_time, push.host_time);
    CHECK(sg.bytes_to_dpu == push.bytes_to_dpu && sg.bytes_from_dpu == push.bytes_from_dpu &&
              sg.energy == push.energy,
          "bytes %llu/%llu vs %llu/%llu, energy %.12g vs %.12g J",
          (unsigned long long)sg.bytes_to_dpu, (unsigned long long)sg.bytes_from_dpu,
          (unsigned long long)push.bytes_to_dpu, (unsigned long long)push.bytes_from_dpu, sg.energy,
          push.energy);
    printf("# modeled: 2 x 4 DPUs x %zu B there and back: scatter/gather %.6g s, push %.6g s\n",
           sizeof buf[0], sg.host_time, push.host_time);
    S_OK(dpu_free(set));
    S_OK(dpu_alloc(1, "hostClock=wall", &set));
    S_OK(dpu_free(set));
}
