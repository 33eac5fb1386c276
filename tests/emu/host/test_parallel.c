/*
 * tests/emu/host/test_parallel.c -- DPU_XFER_PARALLEL and
 * DPU_CALLBACK_PARALLEL: on the modeled clock they run while the rank's
 * kernel runs (the SDK's job list starts a parallel job even when the
 * rank's DPUs run), where the default flags wait for the kernel; dpu_sync
 * waits for both; the rank's callbacks are called in submission order.
 *
 * Part of test-host (same folder, same DPU programs).
 */
#include <dpu.h>
#include <dpu_emu.h>
#include <pthread.h>
#include <string.h>

#include "test.h"

#define Q_ERR(call, want)                                                                          \
    do {                                                                                           \
        dpu_error_t e_ = (call);                                                                   \
        CHECK(e_ == (want), "line %d: %s returned %d, want %d", __LINE__, #call, (int)e_,          \
              (int)(want));                                                                        \
    } while (0)
#define Q_OK(call) Q_ERR(call, DPU_OK)

/* One DPU with a kernel long enough (on the modeled clock) to overlap. */
static void setup(struct dpu_set_t *set)
{
    uint32_t n = 1u << 14;
    Q_OK(dpu_alloc_ranks(1, "nrDpusPerRank=1,hostClock=none", set));
    Q_OK(dpu_load(*set, "basic.dpu", NULL));
    Q_OK(dpu_copy_to(*set, "n_elems", 0, &n, sizeof n));
}

static void teardown(struct dpu_set_t set)
{
    Q_OK(dpu_free(set));
    Q_OK(dpu_alloc(1, "hostClock=wall", &set)); /* back to the default for later tests */
    Q_OK(dpu_free(set));
}

TEST(emu_parallel_xfer_overlaps_the_kernel)
{
    struct dpu_set_t set;
    uint64_t bias = 3, got = 0;
    setup(&set);
    /* the broadcast alone, on an idle rank */
    dpu_emu_reset();
    Q_OK(dpu_broadcast_to(set, "bias", 0, &bias, sizeof bias, DPU_XFER_DEFAULT));
    double alone = dpu_emu_host_time();

    /* after an asynchronous launch: PARALLEL does not wait for the kernel */
    dpu_emu_reset();
    Q_OK(dpu_launch(set, DPU_ASYNCHRONOUS));
    double kend = dpu_emu_rank_time(set, 0);
    Q_OK(dpu_broadcast_to(set, "bias", 0, &bias, sizeof bias, DPU_XFER_PARALLEL));
    double t_par = dpu_emu_host_time();
    CHECK(kend > alone * 4, "kernel %.9f s too short to test overlap", kend);
    CHECK(t_par == alone, "parallel broadcast ended at %.12g s, alone it takes %.12g s", t_par,
          alone);
    Q_OK(dpu_sync(set));
    CHECK(dpu_emu_host_time() == kend, "dpu_sync at %.12g s, the kernel ends at %.12g s",
          dpu_emu_host_time(), kend);
    struct dpu_set_t dpu;
    DPU_FOREACH (set, dpu)
        Q_OK(dpu_copy_from(dpu, "bias", 0, &got, sizeof got));
    CHECK(got == bias, "bias %llu", (unsigned long long)got);

    /* the default waits for it */
    dpu_emu_reset();
    Q_OK(dpu_launch(set, DPU_ASYNCHRONOUS));
    kend = dpu_emu_rank_time(set, 0);
    Q_OK(dpu_broadcast_to(set, "bias", 0, &bias, sizeof bias, DPU_XFER_DEFAULT));
    CHECK(dpu_emu_host_time() >= kend + alone * 0.999,
          "default broadcast ended at %.12g s, before the kernel's end %.12g s + %.12g s",
          dpu_emu_host_time(), kend, alone);

    /* a parallel push, asynchronous: dpu_sync waits for the kernel and it */
    dpu_emu_reset();
    Q_OK(dpu_launch(set, DPU_ASYNCHRONOUS));
    kend = dpu_emu_rank_time(set, 0);
    DPU_FOREACH (set, dpu)
        Q_OK(dpu_prepare_xfer(dpu, &got));
    Q_OK(dpu_push_xfer(set, DPU_XFER_FROM_DPU, "bias", 0, sizeof got,
                       DPU_XFER_PARALLEL | DPU_XFER_ASYNC));
    Q_OK(dpu_sync(set));
    CHECK(dpu_emu_host_time() == kend, "dpu_sync at %.12g s, the kernel ends at %.12g s",
          dpu_emu_host_time(), kend);
    /* MRAM: refused, as by the SDK */
    Q_ERR(
        dpu_broadcast_to(set, DPU_MRAM_HEAP_POINTER_NAME, 0, &bias, sizeof bias, DPU_XFER_PARALLEL),
        DPU_ERR_INVALID_PARALLEL_MEMORY_TRANSFER);
    printf("# modeled: kernel %.6g s; a parallel broadcast during it ends at %.6g s\n", kend,
           t_par);
    teardown(set);
}

static pthread_mutex_t g_order_mu = PTHREAD_MUTEX_INITIALIZER;
static char g_order[16];
static size_t g_n;

static dpu_error_t note(struct dpu_set_t set, uint32_t idx, void *arg)
{
    (void)set;
    (void)idx;
    pthread_mutex_lock(&g_order_mu);
    if (g_n + 1 < sizeof g_order)
        g_order[g_n++] = *(const char *)arg;
    pthread_mutex_unlock(&g_order_mu);
    return DPU_OK;
}

TEST(emu_parallel_callback_overlaps_the_kernel)
{
    struct dpu_set_t set;
    setup(&set);
    static const char a = 'a', b = 'b', c = 'c';

    dpu_emu_reset();
    Q_OK(dpu_launch(set, DPU_ASYNCHRONOUS));
    double kend = dpu_emu_rank_time(set, 0);
    Q_OK(dpu_callback(set, note, (void *)&a, DPU_CALLBACK_PARALLEL));
    CHECK(dpu_emu_host_time() < kend, "a parallel callback ended at %.12g s, the kernel at %.12g",
          dpu_emu_host_time(), kend);
    Q_OK(dpu_callback(set, note, (void *)&b, DPU_CALLBACK_DEFAULT));
    CHECK(dpu_emu_host_time() >= kend, "a default callback ended at %.12g s, the kernel at %.12g",
          dpu_emu_host_time(), kend);

    /* asynchronous callbacks of a rank are called in submission order,
     * parallel or not */
    pthread_mutex_lock(&g_order_mu);
    g_n = 0;
    memset(g_order, 0, sizeof g_order);
    pthread_mutex_unlock(&g_order_mu);
    Q_OK(dpu_launch(set, DPU_ASYNCHRONOUS));
    Q_OK(dpu_callback(set, note, (void *)&a, DPU_CALLBACK_ASYNC));
    Q_OK(dpu_callback(set, note, (void *)&b, DPU_CALLBACK_ASYNC | DPU_CALLBACK_PARALLEL));
    Q_OK(dpu_callback(set, note, (void *)&c, DPU_CALLBACK_ASYNC));
    Q_OK(dpu_sync(set));
    pthread_mutex_lock(&g_order_mu);
    CHECK(!strcmp(g_order, "abc"), "callbacks called in the order \"%s\"", g_order);
    pthread_mutex_unlock(&g_order_mu);
    teardown(set);
}
