/*
 * test_model_det.c -- the study's 40-rank asynchronous workloads give
 * bit-identical modeled times on every run (the virtual UPMEM's
 * event-ordered clock, docs/VIRTUAL_UPMEM_HOST.md §4): AES-128 ECB and
 * SHA-256 as `cryptopim bench --experiment ranks` runs them at 40 ranks in
 * async-xfer mode (PIM #1), at its --quick size (1 MiB per rank, 4 KiB
 * messages), timing-only with DPU sampling, 16 tasklets, and with
 * hostClock=none so that no measured host work enters the clock.
 */
#include <dpu.h>
#include <stdlib.h>
#include <string.h>
#ifdef DPU_EMU
#include <dpu_emu.h>
#endif

#include "cryptopim.h"
#include "test.h"

#ifdef DPU_EMU

enum { RANKS = 40, PER_RANK = 1u << 20, MSG = 4096, RUNS = 3 };

static const uint8_t det_key[16] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
                                    0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c};

/* One timing-only run; 0 and its modeled phases, or -1. */
static int study_run(int sha, const uint8_t *in, uint8_t *out, const uint8_t **msgs,
                     const size_t *lens, uint8_t (*dig)[32], cpim_phases *ph)
{
    /* the same origin of the modeled timeline for every run: the times are
     * differences of points on it, so the same arithmetic needs the same
     * points */
    dpu_emu_reset();
    cpim_options o;
    cpim_options_init(&o);
    o.ranks = RANKS;
    o.tasklets = 16;
    o.mode = CPIM_PIM_ASYNC_XFER;
    o.profile = "hostClock=none";
    o.timing_only = 1;
    cpim_ctx *ctx = NULL;
    cpim_err rc = cpim_open(&ctx, "pim", &o);
    if (rc == CPIM_OK && !sha)
        rc = cpim_aes_set_key(ctx, det_key, 16);
    if (rc == CPIM_OK)
        rc = sha ? cpim_sha256_batch(ctx, msgs, lens, (size_t)RANKS * PER_RANK / MSG, dig)
                 : cpim_aes_ecb(ctx, CPIM_ENCRYPT, in, out, (size_t)RANKS * PER_RANK);
    CHECK(rc == CPIM_ERR_TIMING_ONLY, "%s: %s, want the timing-only result", sha ? "sha" : "aes",
          cpim_strerror(rc));
    cpim_stats st;
    int ok = rc == CPIM_ERR_TIMING_ONLY && cpim_last_stats(ctx, &st) == CPIM_OK && st.has_modeled;
    if (ok)
        *ph = st.modeled;
    cpim_close(ctx);
    return ok ? 0 : -1;
}

TEST(model_study_40_ranks_bit_identical)
{
    size_t total = (size_t)RANKS * PER_RANK, nm = total / MSG;
    uint8_t *in = malloc(total), *out = malloc(total);
    const uint8_t **msgs = malloc(nm * sizeof *msgs);
    size_t *lens = malloc(nm * sizeof *lens);
    uint8_t(*dig)[32] = malloc(nm * 32);
    if (!in || !out || !msgs || !lens || !dig) {
        test_skip("out of memory");
    } else {
        uint64_t rng = 7;
        test_fill(&rng, in, total);
        for (size_t i = 0; i < nm; i++)
            msgs[i] = in + i * MSG, lens[i] = MSG;
        for (int sha = 0; sha < 2; sha++) {
            cpim_phases ph[RUNS];
            int ok = 1;
            for (int r = 0; r < RUNS && ok; r++)
                ok = study_run(sha, in, out, msgs, lens, dig, &ph[r]) == 0;
            if (!ok)
                continue;
            CHECK(ph[0].total_s > 0 && ph[0].kernel_s > 0 && ph[0].dpu_cpu_s > 0,
                  "%s: empty modeled phases", sha ? "sha" : "aes");
            for (int r = 1; r < RUNS; r++) {
                const double a[4] = {ph[0].cpu_dpu_s, ph[0].kernel_s, ph[0].dpu_cpu_s,
                                     ph[0].total_s};
                const double b[4] = {ph[r].cpu_dpu_s, ph[r].kernel_s, ph[r].dpu_cpu_s,
                                     ph[r].total_s};
                CHECK(memcmp(a, b, sizeof a) == 0,
                      "%s run %d: modeled total %.17g s (phases %.17g %.17g %.17g), run 0 %.17g s "
                      "(%.17g %.17g %.17g)",
                      sha ? "sha" : "aes", r, b[3], b[0], b[1], b[2], a[3], a[0], a[1], a[2]);
            }
            printf("# modeled: %s, 40 ranks async-xfer, %d runs: total %.17g s each\n",
                   sha ? "SHA-256" : "AES-128", RUNS, ph[0].total_s);
        }
    }
    free(in), free(out), free(msgs), free(lens), free(dig);
}

#endif /* DPU_EMU */
