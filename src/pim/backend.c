/*
 * backend.c -- the `pim` backend: AES and SHA-256 on UPMEM DPUs (see
 * backend.h for the engines' contract, pim_internal.h for the parts of this
 * backend, dpu/ for the DPU programs and their contracts).
 *
 * One call = one or more *rounds*; a round gives every DPU at most `budget`
 * bytes of MRAM work (default 32 MiB of the 64 MiB bank), so inputs larger
 * than the allocated MRAM stream through.  Each round is planned by plan.c
 * and run by rounds.c in the context's host mode.  The streaming API's
 * sha256_blocks runs on the same path: each stream's blocks are a message
 * whose chaining value goes into the kernel and comes back (no padding).
 *
 * Profile: cpim_options.profile is passed to dpu_alloc, minus this
 * backend's own keys:
 *   mramBudget=BYTES  per-DPU bytes per round (small values let tests
 *                     exercise many rounds cheaply);
 *   directMin=BYTES   SHA-256: the least bytes a group of DPUs must avoid
 *                     copying to be pushed straight from the caller's
 *                     buffers (default 1 MiB, 0: every contiguous run);
 *   failAt=N          fault injection: the Nth checkpoint of the context (an
 *                     allocation, a transfer, a load or a launch, counted
 *                     from cpim_open) fails (fault.c);
 *   nttSched=0|1      NTT kernel: tasklets share each transform pass by
 *                     blocks (0, default) or take whole items (1);
 *   nttBlock=LOG      NTT kernel: WRAM block of 2^LOG coefficients, 4..8
 *                     (default: the largest the tasklets' WRAM allows).
 * The virtual UPMEM's `sampleDpus` (time one DPU per rank, skip the others)
 * and `sampleRanks` (time the first ranks, charge the others their cycles)
 * only with cpim_options.timing_only: then the virtual UPMEM refuses reads
 * of the skipped DPUs, the call runs to the end for its timings, and its
 * output is zeroed and never returned.
 *
 * Keys on the DPUs: the round keys are broadcast before every launch and
 * the AES kernel wipes them from WRAM when it ends (with its CTR
 * keystream); when a call does not end with every DPU having run to
 * completion (a fault, a timing-only run) the host overwrites them with
 * zeros, and again at close.
 */
#define _GNU_SOURCE /* dladdr */
#include "backend.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aes_ct.h"
#include "cryptopim.h"
#include "pim_internal.h"
#include "pim_state.h"

#ifndef CPIM_DPU_DIR
#define CPIM_DPU_DIR "build/dpu"
#endif

/* A resident region takes the context's DPUs (resident.c); the context
 * then allocates others, with the same configuration, when it needs DPUs
 * again, and gets them back when the region is freed (if it has none). */
cpim_err cpim_pim_have_machine(struct cpim_pim_state *s)
{
    return s->m ? CPIM_OK : cpim_pim_machine_open(&s->m, &s->cfg);
}

cpim_err cpim_pim_load(struct cpim_pim_state *s, int prog)
{
    cpim_err rc = cpim_pim_have_machine(s);
    return rc == CPIM_OK ? cpim_pim_machine_load(s->m, prog) : rc;
}

cpim_err cpim_pim_backend_take(void *state, cpim_pim_machine **m, cpim_pim_faults **faults,
                               int *timing_only)
{
    struct cpim_pim_state *s = state;
    cpim_err rc = cpim_pim_have_machine(s);
    if (rc != CPIM_OK)
        return rc;
    *m = s->m;
    s->m = NULL;
    *faults = &s->faults;
    *timing_only = s->timing_only;
    return CPIM_OK;
}

void cpim_pim_backend_give_back(void *state, cpim_pim_machine *m)
{
    struct cpim_pim_state *s = state;
    if (s->m)
        cpim_pim_machine_close(m);
    else
        s->m = m;
}

/* ---- where the DPU programs are ------------------------------------------------ */

/* The folder holding aes-t16 and sha256-t16, found once: next to the code
 * of this library as installed (`make install`: LIBDIR/cryptopim/dpu, with
 * the shared library in LIBDIR, or with the static library linked into a
 * program in PREFIX/bin), else the build tree this library was compiled in.
 * No environment variable is consulted: cpim_options.dpu_dir is the way to
 * point a context elsewhere. */
static char g_dpu_dir[PATH_MAX];
static pthread_once_t g_dpu_dir_once = PTHREAD_ONCE_INIT;

static int has_programs(const char *dir)
{
    char a[PATH_MAX + 16], b[PATH_MAX + 16];
    snprintf(a, sizeof a, "%s/aes-t16", dir);
    snprintf(b, sizeof b, "%s/sha256-t16", dir);
    return access(a, R_OK) == 0 && access(b, R_OK) == 0;
}

static void find_dpu_dir(void)
{
    snprintf(g_dpu_dir, sizeof g_dpu_dir, "%s", CPIM_DPU_DIR);
    Dl_info info;
    char self[PATH_MAX], cand[PATH_MAX];
    if (dladdr((void *)&find_dpu_dir, &info) == 0 || info.dli_fname == NULL ||
        realpath(info.dli_fname, self) == NULL)
        return;
    char *slash = strrchr(self, '/');
    if (slash == NULL)
        return;
    *slash = '\0'; /* the folder of the shared library or of the program */
    static const char *const rel[] = {"cryptopim/dpu", "../lib/cryptopim/dpu"};
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        if ((size_t)snprintf(cand, sizeof cand, "%s/%s", self, rel[i]) < sizeof cand &&
            has_programs(cand)) {
            snprintf(g_dpu_dir, sizeof g_dpu_dir, "%s", cand);
            return;
        }
    }
}

static const char *default_dpu_dir(void)
{
    pthread_once(&g_dpu_dir_once, find_dpu_dir);
    return g_dpu_dir;
}

static int pim_available(const char **why)
{
    if (!has_programs(default_dpu_dir())) {
        *why = "DPU programs not found (make dpu, or make install)";
        return 0;
    }
    return 1;
}

static int pim_available_for(const cpim_options *opt, const char **why)
{
    if (opt->dpu_dir == NULL)
        return pim_available(why);
    /* the folder only: which programs it must hold depends on the tasklets
     * (a missing one is CPIM_ERR_PIM_LOAD when an operation loads it) */
    if (access(opt->dpu_dir, R_OK | X_OK) != 0) {
        *why = "cpim_options.dpu_dir is not a readable folder";
        return 0;
    }
    return 1;
}

/* ---- open / close ----------------------------------------------------------- */

static void pim_close(void *state)
{
    struct cpim_pim_state *s = state;
    if (!s)
        return;
    cpim_pim_machine_close(s->m);
    free(s->profile);
    free(s->to);
    free(s->from);
    free(s->scope_first);
    free(s->scope_n);
    if (s->stage)
        cpim_wipe(s->stage, s->stage_hi); /* message bytes of earlier calls */
    free(s->stage);
    free(s->results);
    cpim_wipe(s, sizeof *s);
    free(s);
}

static cpim_err pim_open(void **state, const cpim_options *opt)
{
    *state = NULL;
    char *profile = NULL;
    struct cpim_pim_state *s = calloc(1, sizeof *s);
    if (!s)
        return CPIM_ERR_NOMEM;
    s->threads = opt->threads;
    s->timing_only = opt->timing_only != 0;
    cpim_err rc = cpim_pim_parse_profile(s, opt->profile, &profile);
    if (rc != CPIM_OK) {
        free(s);
        return rc;
    }
    /* the first checkpoint of the context is the state itself */
    if (cpim_pim_fault_now(&s->faults)) {
        free(profile);
        free(s);
        return CPIM_ERR_NOMEM;
    }
    cpim_pim_machine_cfg cfg = {
        opt->dpus,      opt->ranks, opt->tasklets ? opt->tasklets : DEFAULT_TASKLETS,
        opt->mode,      profile,    opt->dpu_dir ? opt->dpu_dir : default_dpu_dir(),
        s->timing_only, &s->faults};
    snprintf(s->dpu_dir, sizeof s->dpu_dir, "%s", cfg.dpu_dir);
    s->cfg = cfg;
    s->cfg.dpu_dir = s->dpu_dir;
    s->profile = profile;
    rc = cpim_pim_machine_open(&s->m, &cfg);
    if (rc != CPIM_OK) {
        pim_close(s);
        return rc;
    }
    const uint32_t nd = cpim_pim_machine_dpus(s->m);
    s->nr_scopes = opt->mode == CPIM_PIM_SYNC ? 1 : cpim_pim_machine_ranks(s->m);
    s->to = cpim_pim_calloc(&s->faults, (size_t)nd * PIM_PIECES, sizeof *s->to);
    s->from = cpim_pim_calloc(&s->faults, nd, sizeof *s->from);
    s->scope_first = cpim_pim_calloc(&s->faults, s->nr_scopes, sizeof *s->scope_first);
    s->scope_n = cpim_pim_calloc(&s->faults, s->nr_scopes, sizeof *s->scope_n);
    if (!s->to || !s->from || !s->scope_first || !s->scope_n) {
        pim_close(s);
        return CPIM_ERR_NOMEM;
    }
    if (opt->mode == CPIM_PIM_SYNC)
        s->scope_n[0] = nd;
    else
        for (uint32_t k = 0; k < s->nr_scopes; k++)
            cpim_pim_machine_rank(s->m, k, &s->scope_first[k], &s->scope_n[k]);
    *state = s;
    return CPIM_OK;
}

static cpim_err pim_set_key(void *state, const uint8_t *key, size_t key_len)
{
    struct cpim_pim_state *s = state;
    cpim_wipe(&s->ek, sizeof s->ek);
    cpim_wipe(&s->dk, sizeof s->dk);
    cpim_wipe(&s->gh, sizeof s->gh);
    cpim_wipe(&s->ct, sizeof s->ct);
    cpim_wipe(s->h, sizeof s->h);
    if (!cpim_crypto_aes_ct_expand_words(&s->ek, &s->dk, key, (uint32_t)key_len) ||
        !cpim_crypto_aes_ct_expand(&s->ct, key, (uint32_t)key_len))
        return CPIM_ERR_KEY_LENGTH;
    memset(s->h, 0, 16);
    cpim_crypto_aes_ct_blocks(&s->ct, 0, s->h, s->h, 1);
    cpim_crypto_ghash_ct_init(&s->gh, s->h);
    return CPIM_OK;
}

/* see backend.h: one engine per family, all on this backend's state */
static const cpim_aes_engine pim_aes = {
    .set_key = pim_set_key,
    .ecb = cpim_pim_ecb,
    .ctr = cpim_pim_ctr,
    .xts_set_key = cpim_pim_xts_set_key,
    .xts = cpim_pim_xts,
    .gcm = cpim_pim_gcm,
};

static const cpim_sha_engine pim_sha = {
    .batch = cpim_pim_sha,
    .blocks = cpim_pim_sha_blocks,
    .hmac = cpim_pim_hmac_op,
    .pbkdf2 = cpim_pim_pbkdf2_op,
};

static const cpim_ntt_engine pim_ntt = {
    .run = cpim_pim_ntt_op,
};

const cpim_backend cpim_backend_pim = {
    .name = "pim",
#ifdef CPIM_VIRTUAL_UPMEM
    .description = "UPMEM DPUs: the virtual UPMEM (no PIM hardware; modeled clock)",
#else
    .description = "UPMEM DPUs: real hardware (UPMEM SDK)",
#endif
    .available = pim_available,
    .available_for = pim_available_for,
    /* a DPU launch per call: 8 MiB keeps its fixed cost small */
    .chunk = 8u << 20,
    /* the host's part is constant-time; the DPUs' T-table AES reads WRAM,
     * which has no cache (docs/SECURITY.md) */
    .constant_time = 1,
    .open = pim_open,
    .close = pim_close,
    .aes = &pim_aes,
    .sha = &pim_sha,
    .ntt = &pim_ntt,
    .region = &cpim_pim_region_engine,
};
