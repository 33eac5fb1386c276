/*
 * backend.c -- the `pim` backend: AES and SHA-256 on UPMEM DPUs (see
 * backend.h for the vtable contract, pim_internal.h for the parts of this
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

#include <ctype.h>
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aes.h"
#include "aes_args.h"
#include "aes_ct.h"
#include "cryptopim.h"
#include "gcm.h"
#include "gcm_args.h"
#include "pim_internal.h"
#include "sha256_args.h"

#ifndef CPIM_DPU_DIR
#define CPIM_DPU_DIR "build/dpu"
#endif

#define DEFAULT_BUDGET   (32u << 20)
#define DEFAULT_TASKLETS 16u
#define DIRECT_MIN_BYTES (1u << 20) /* default of directMin (see plan.c) */

struct pim_state {
    cpim_pim_machine *m;
    cpim_pim_faults faults;
    uint32_t budget;
    uint64_t direct_min;
    unsigned threads; /* host threads for bulk copies (cpim_options.threads) */
    int timing_only;
    /* The DPUs take the T-table schedules (no cache there); the host builds
     * them, and does its own AES and GHASH, in constant time (aes_ct.h). */
    cpim_crypto_aes_ks ek, dk;
    cpim_crypto_aes_ct_ks ct;            /* the host's one block: GCM's H and E_K(J0) */
    cpim_crypto_aes_ks xk1e, xk1d, xk2e; /* the XTS key slot: key1 both ways, key2 */
    cpim_crypto_ghash_ct_key gh;         /* GCM: H = E_K(0), for the host's part */
    uint8_t h[16];                       /* and H */
    /* per round (reused): per-DPU transfer plan, PIM_PIECES pieces per DPU */
    cpim_pim_piece *to, *from;
    uint32_t *scope_first, *scope_n; /* SHA-256 push scopes (sync: one) */
    uint32_t nr_scopes;
    /* SHA-256 staging (images, or headers and tails) and results: kept
     * across rounds and calls, grown on demand */
    uint8_t *stage, *results;
    size_t stage_cap, results_cap;
    size_t stage_hi; /* bytes of stage ever written (wiped before it is freed) */
    /* NTT (issue 16, ntt.c): kernel settings, the ring whose twiddles are on the DPUs */
    uint32_t ntt_sched, ntt_log_m;
    cpim_pim_ntt_cache ntt_cache;
    /* resident regions (resident.c) open machines of their own like this one */
    cpim_pim_machine_cfg cfg;
    char *profile;              /* cfg.profile */
    char dpu_dir[PATH_MAX + 1]; /* cfg.dpu_dir (the caller's string need not outlive open) */
};

/* A resident region takes the context's DPUs (resident.c); the context
 * then allocates others, with the same configuration, when it needs DPUs
 * again, and gets them back when the region is freed (if it has none). */
static cpim_err have_machine(struct pim_state *s)
{
    return s->m ? CPIM_OK : cpim_pim_machine_open(&s->m, &s->cfg);
}

static cpim_err pim_load(struct pim_state *s, int prog)
{
    cpim_err rc = have_machine(s);
    return rc == CPIM_OK ? cpim_pim_machine_load(s->m, prog) : rc;
}

cpim_err cpim_pim_backend_take(void *state, cpim_pim_machine **m, cpim_pim_faults **faults,
                               int *timing_only)
{
    struct pim_state *s = state;
    cpim_err rc = have_machine(s);
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
    struct pim_state *s = state;
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

/* ---- options ------------------------------------------------------------------ */

/* The profile added for a timing-only run that sets no sampleDpus (the
 * virtual UPMEM's key; the real SDK has no such shortcut). */
#ifdef CPIM_VIRTUAL_UPMEM
#define TIMING_ONLY_PROFILE "sampleDpus=1"
/* The process's clocks stay real even when UPMEM_PROFILE_BASE says
 * hostTime=modeled (`. upmem_env.sh --modeled-time`, a setting for unchanged
 * programs' own timers): the PIM numbers come from the model itself
 * (cpim_stats.modeled), and the program's other timers are measured.
 * UPMEM_PROFILE beats this string (the SDK's order): cpim_now reads libc's
 * clock itself (src/core/timing.c). */
#define REAL_CLOCK_PROFILE "hostTime=real"
#endif

/* The value of item `tok` if its key is `name`, else NULL.  Blanks around
 * the key and before the value are skipped, as the virtual UPMEM's profile
 * parser does: " sampleDpus =1" must not slip past the check below. */
static const char *item_value(const char *tok, const char *name)
{
    size_t n = strlen(name);
    while (isspace((unsigned char)*tok))
        tok++;
    if (strncmp(tok, name, n) != 0)
        return NULL;
    tok += n;
    while (isspace((unsigned char)*tok))
        tok++;
    if (*tok != '=')
        return NULL;
    for (tok++; isspace((unsigned char)*tok); tok++)
        ;
    return tok;
}

/* Item `tok` with key `name` and a decimal value in [lo, hi]: 1 and *v; 0
 * if the key is another; -1 if the value is bad. */
static int key_value(const char *tok, const char *name, uint64_t lo, uint64_t hi, uint64_t *v)
{
    const char *s = item_value(tok, name);
    if (!s)
        return 0;
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    unsigned long long x = strtoull(s, &end, 10);
    while (isspace((unsigned char)*end))
        end++;
    if (*end || x < lo || x > hi)
        return -1;
    *v = x;
    return 1;
}

/* Splits "a=b,mramBudget=N,c=d" into the UPMEM profile (out, malloc'd)
 * and this backend's keys; checks sampleDpus against timing_only (see
 * cpim_options).  Reentrant: contexts may be opened from many threads. */
static cpim_err parse_profile(struct pim_state *s, const char *in, char **out)
{
    s->budget = DEFAULT_BUDGET;
    s->direct_min = DIRECT_MIN_BYTES;
    size_t n = in ? strlen(in) : 0;
    char *p = malloc(n + 1),
         *o = p ? malloc(n + sizeof ",sampleDpus=1" + sizeof ",hostTime=real") : NULL;
    if (!p || !o) {
        free(p);
        return CPIM_ERR_NOMEM;
    }
    memcpy(p, in ? in : "", n + 1);
    o[0] = '\0';
    int sampled = 0, bad = 0;
    char *save = NULL;
    for (char *tok = strtok_r(p, ",", &save); tok && !bad; tok = strtok_r(NULL, ",", &save)) {
        uint64_t v = 0;
        int r;
        if ((r = key_value(tok, "mramBudget", 128, AES_MRAM_MAX / 2, &v)) != 0) {
            bad = r < 0;
            s->budget = (uint32_t)v & ~63u;
            continue;
        }
        if ((r = key_value(tok, "directMin", 0, UINT64_MAX, &v)) != 0) {
            bad = r < 0;
            s->direct_min = v;
            continue;
        }
        if ((r = key_value(tok, "failAt", 0, UINT64_MAX, &v)) != 0) {
            bad = r < 0;
            s->faults.at = v;
            continue;
        }
        if ((r = key_value(tok, "nttSched", 0, 1, &v)) != 0) {
            bad = r < 0;
            s->ntt_sched = (uint32_t)v;
            continue;
        }
        if ((r = key_value(tok, "nttBlock", 4, 8, &v)) != 0) {
            bad = r < 0;
            s->ntt_log_m = (uint32_t)v;
            continue;
        }
        if (item_value(tok, "sampleDpus")) {
            bad = !s->timing_only; /* it would leave outputs uncomputed */
            sampled = 1;
        }
        if (item_value(tok, "sampleRanks"))
            bad = !s->timing_only; /* (likewise; sampleDpus=1 still added) */
        if (o[0])
            strcat(o, ",");
        strcat(o, tok);
    }
#ifdef TIMING_ONLY_PROFILE
    if (s->timing_only && !sampled)
        strcat(strcat(o, o[0] ? "," : ""), TIMING_ONLY_PROFILE);
    strcat(strcat(o, o[0] ? "," : ""), REAL_CLOCK_PROFILE);
#else
    (void)sampled;
#endif
    free(p);
    if (bad) {
        free(o);
        return CPIM_ERR_INVALID_ARG;
    }
    *out = o;
    return CPIM_OK;
}

/* ---- open / close ----------------------------------------------------------- */

static void pim_close(void *state)
{
    struct pim_state *s = state;
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
    struct pim_state *s = calloc(1, sizeof *s);
    if (!s)
        return CPIM_ERR_NOMEM;
    s->threads = opt->threads;
    s->timing_only = opt->timing_only != 0;
    cpim_err rc = parse_profile(s, opt->profile, &profile);
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
    struct pim_state *s = state;
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

/* ---- AES ------------------------------------------------------------------------ */

/* The final partial block of an AES or GCM round: DPU bd, whose share
 * (share bytes, whole blocks) ends at len, is sent and received through a
 * zero-padded copy, allocated once per call (*bounce) and reused.  Points
 * its pieces there and gives its offset in in/out; -1 when out of memory. */
static int bounce_tail(struct pim_state *s, uint32_t bd, size_t share, const uint8_t *in,
                       const uint8_t *out, size_t len, uint8_t **bounce, size_t *bounce_size,
                       size_t *off)
{
    *off = (size_t)((uint8_t *)s->from[bd].ptr - out);
    if (!*bounce && !(*bounce = cpim_pim_calloc(&s->faults, share, 1)))
        return -1;
    *bounce_size = share;
    memset(*bounce, 0, share);
    memcpy(*bounce, in + *off, len - *off);
    s->to[(size_t)bd * PIM_PIECES].ptr = s->from[bd].ptr = *bounce;
    return 0;
}

static cpim_err aes_run(struct pim_state *s, int op, const uint8_t *in, uint8_t *out, size_t len,
                        uint8_t counter[16], cpim_stats *st)
{
    cpim_err rc = pim_load(s, PIM_PROG_AES);
    if (rc != CPIM_OK)
        return rc;
    cpim_pim_clocks clk;
    cpim_pim_times t = {0, 0, 0};
    cpim_pim_clocks_start(&clk);

    struct aes_key_args ka;
    const cpim_crypto_aes_ks *ks = op == AES_OP_ECB_DEC ? &s->dk : &s->ek;
    memset(&ka, 0, sizeof ka);
    cpim_pim_dpu_schedule(ka.rk, &ka.nr, ks);
    ka.op = (uint32_t)op;

    uint32_t ctr0[4] = {0, 0, 0, 0};
    if (counter)
        for (int i = 0; i < 4; i++)
            ctr0[i] = (uint32_t)counter[4 * i] << 24 | (uint32_t)counter[4 * i + 1] << 16 |
                      (uint32_t)counter[4 * i + 2] << 8 | counter[4 * i + 3];

    const uint32_t nd = cpim_pim_machine_dpus(s->m);
    struct aes_job_args *jobs = cpim_pim_calloc(&s->faults, nd, sizeof *jobs);
    uint8_t *bounce = NULL;
    size_t bounce_size = 0;
    if (!jobs)
        rc = CPIM_ERR_NOMEM;
    const uint64_t total_blocks = (len + 15) / 16;
    const uint64_t round_blocks = (uint64_t)nd * (s->budget / 16);
    for (uint64_t done = 0; done < total_blocks && rc == CPIM_OK;) {
        /* The kernel wipes the round keys when it ends, so every round
         * sends them again (one broadcast per call for inputs that fit in
         * one round, as the study does). */
        double t0 = cpim_now();
        /* the XTS tail of the arguments is not needed here */
        rc = cpim_pim_machine_send_key(s->m, &ka, offsetof(struct aes_key_args, xts_k2));
        t.in += cpim_now() - t0;
        if (rc != CPIM_OK)
            break;
        uint64_t nb = total_blocks - done < round_blocks ? total_blocks - done : round_blocks;
        uint32_t bd = cpim_pim_aes_split(nd, done, nb, len, in, out, ctr0, jobs, s->to, s->from);
        size_t bounce_off = 0;
        if (bd != UINT32_MAX &&
            bounce_tail(s, bd, jobs[bd].nbytes, in, out, len, &bounce, &bounce_size, &bounce_off)) {
            rc = CPIM_ERR_NOMEM;
            break;
        }
        cpim_pim_round r = {
            AES_XSTR(AES_JOB_SYM), jobs, sizeof *jobs, s->to, s->from, NULL, NULL, NULL, NULL, 0};
        rc = cpim_pim_machine_round(s->m, &r, &t);
        /* every DPU ran the kernel to its end, which wiped the keys; in a
         * timing-only run the skipped DPUs still hold them */
        if (rc == CPIM_OK && !s->timing_only)
            cpim_pim_machine_key_consumed(s->m);
        if (rc == CPIM_OK && bd != UINT32_MAX)
            memcpy(out + bounce_off, bounce, len - bounce_off);
        done += nb;
    }
    cpim_wipe(&ka, sizeof ka);
    /* what the skipped DPUs returned is not ciphertext: zeroed below, after
     * the clocks stop, as it is no part of the call being timed (at 40 ranks
     * the first touch of 1.25 GiB of output was ~0.9 s of "host work") */
    const int zero_out = rc == CPIM_OK && s->timing_only;
    if (zero_out) {
        rc = CPIM_ERR_TIMING_ONLY;
    } else if (rc == CPIM_OK && counter) {
        cpim_crypto_aes_ctr_add(counter, total_blocks);
    }
    if (bounce)
        cpim_wipe(bounce, bounce_size);
    free(bounce);
    free(jobs);
    cpim_pim_clocks_stop(s->m, &clk, &t, st); /* the key wipe below is not part of the call */
    if (zero_out)
        memset(out, 0, len);
    cpim_pim_machine_wipe_key(s->m);
    if (rc != CPIM_OK && rc != CPIM_ERR_TIMING_ONLY)
        cpim_pim_machine_reset(s->m); /* after a fault, reload before the next call */
    return rc;
}

static cpim_err pim_ecb(void *state, cpim_dir dir, const uint8_t *in, uint8_t *out, size_t len,
                        cpim_stats *st)
{
    return aes_run(state, dir == CPIM_DECRYPT ? AES_OP_ECB_DEC : AES_OP_ECB_ENC, in, out, len, NULL,
                   st);
}

static cpim_err pim_ctr(void *state, uint8_t counter[16], const uint8_t *in, uint8_t *out,
                        size_t len, cpim_stats *st)
{
    return aes_run(state, AES_OP_CTR, in, out, len, counter, st);
}

/* ---- AES-XTS ------------------------------------------------------------------------- */

static cpim_err pim_xts_set_key(void *state, const uint8_t *key, size_t key_len)
{
    struct pim_state *s = state;
    uint32_t half = (uint32_t)key_len / 2;
    cpim_wipe(&s->xk1e, sizeof s->xk1e);
    cpim_wipe(&s->xk1d, sizeof s->xk1d);
    cpim_wipe(&s->xk2e, sizeof s->xk2e);
    if (!cpim_crypto_aes_ct_expand_words(&s->xk1e, &s->xk1d, key, half) ||
        !cpim_crypto_aes_ct_expand_words(&s->xk2e, NULL, key + half, half))
        return CPIM_ERR_KEY_LENGTH;
    return CPIM_OK;
}

/* XTS on the DPUs (dpu/aes.c, "XTS"): whole data units per DPU, q or q + 1
 * of a round's units each, so sizes that do not divide evenly spread their
 * remainder over the first DPUs.  Only key1's round keys, key2's schedule
 * and per DPU its first unit number cross the bus: the DPUs make every
 * tweak.  When the units are multiples of 16 bytes and so is len, each
 * DPU's share is pushed straight from the caller's buffer; otherwise the
 * round is staged with every unit in a 16-byte-rounded slot (the DPU's
 * layout, aes_args.h). */
static cpim_err pim_xts(void *state, cpim_dir dir, uint64_t first_unit, size_t usz,
                        const uint8_t *in, uint8_t *out, size_t len, cpim_stats *st)
{
    struct pim_state *s = state;
    cpim_err rc = pim_load(s, PIM_PROG_AES);
    if (rc != CPIM_OK)
        return rc;
    cpim_pim_clocks clk;
    cpim_pim_times t = {0, 0, 0};
    cpim_pim_clocks_start(&clk);

    struct aes_key_args ka;
    const cpim_crypto_aes_ks *k1 = dir == CPIM_DECRYPT ? &s->xk1d : &s->xk1e;
    memset(&ka, 0, sizeof ka);
    cpim_pim_dpu_schedule(ka.rk, &ka.nr, k1);
    ka.op = dir == CPIM_DECRYPT ? AES_OP_XTS_DEC : AES_OP_XTS_ENC;
    ka.xts_k2 = s->xk2e;

    const uint32_t nd = cpim_pim_machine_dpus(s->m);
    const size_t slot = (usz + 15) & ~(size_t)15, units = (len + usz - 1) / usz;
    const size_t last_len = len - (units - 1) * usz;
    const int direct = usz % 16 == 0 && len % 16 == 0;
    const size_t per_dpu = s->budget / slot ? s->budget / slot : 1;
    struct aes_job_args *jobs = cpim_pim_calloc(&s->faults, nd, sizeof *jobs);
    uint8_t *stage = NULL;
    size_t stage_size = 0;
    if (!jobs)
        rc = CPIM_ERR_NOMEM;
    for (size_t done = 0; done < units && rc == CPIM_OK;) {
        double t0 = cpim_now();
        rc = cpim_pim_machine_send_key(s->m, &ka, sizeof ka);
        t.in += cpim_now() - t0;
        if (rc != CPIM_OK)
            break;
        size_t nu = units - done < (size_t)nd * per_dpu ? units - done : (size_t)nd * per_dpu;
        if (!direct && !stage) {
            stage_size = nu * slot; /* the first round is the largest */
            if (!(stage = cpim_pim_calloc(&s->faults, stage_size, 1))) {
                rc = CPIM_ERR_NOMEM;
                break;
            }
        }
        if (!direct) /* units into their slots, the padding zero */
            for (size_t i = 0; i < nu; i++) {
                size_t n = done + i + 1 == units ? last_len : usz;
                memcpy(stage + i * slot, in + (done + i) * usz, n);
                memset(stage + i * slot + n, 0, slot - n);
            }
        size_t q = nu / nd, rem = nu % nd, u0 = done;
        for (uint32_t i = 0; i < nd; i++) {
            size_t k = q + (i < rem);
            int last = k && u0 + k == units;
            size_t bytes = k ? (k - 1) * slot + (last ? (last_len + 15) & ~(size_t)15 : slot) : 0;
            uint64_t un = first_unit + u0; /* mod 2^64, as plain64 */
            jobs[i] = (struct aes_job_args){(uint32_t)bytes,
                                            0,
                                            {(uint32_t)un, (uint32_t)(un >> 32), (uint32_t)usz,
                                             (uint32_t)(last ? last_len : usz)}};
            const uint8_t *src = direct ? in + u0 * usz : stage + (u0 - done) * slot;
            uint8_t *dst = direct ? out + u0 * usz : stage + (u0 - done) * slot;
            cpim_pim_piece *to = &s->to[(size_t)i * PIM_PIECES];
            memset(to, 0, PIM_PIECES * sizeof *to);
            to[0] = (cpim_pim_piece){(void *)(uintptr_t)src, 0, (uint32_t)bytes};
            s->from[i] = (cpim_pim_piece){dst, 0, (uint32_t)bytes};
            u0 += k;
        }
        cpim_pim_round r = {
            AES_XSTR(AES_JOB_SYM), jobs, sizeof *jobs, s->to, s->from, NULL, NULL, NULL, NULL, 0};
        rc = cpim_pim_machine_round(s->m, &r, &t);
        if (rc == CPIM_OK && !s->timing_only)
            cpim_pim_machine_key_consumed(s->m);
        if (rc == CPIM_OK && !direct)
            for (size_t i = 0; i < nu; i++)
                memcpy(out + (done + i) * usz, stage + i * slot,
                       done + i + 1 == units ? last_len : usz);
        done += nu;
    }
    cpim_wipe(&ka, sizeof ka);
    /* what the skipped DPUs returned is not ciphertext: zeroed after the
     * clocks stop, as in aes_run (not part of the call being timed) */
    const int zero_out = rc == CPIM_OK && s->timing_only;
    if (zero_out)
        rc = CPIM_ERR_TIMING_ONLY;
    if (stage)
        cpim_wipe(stage, stage_size);
    free(stage);
    free(jobs);
    cpim_pim_clocks_stop(s->m, &clk, &t, st);
    if (zero_out && len)
        memset(out, 0, len);
    cpim_pim_machine_wipe_key(s->m);
    if (rc != CPIM_OK && rc != CPIM_ERR_TIMING_ONLY)
        cpim_pim_machine_reset(s->m);
    return rc;
}

/* ---- AES-GCM (issue 15) ----------------------------------------------------------- */

/* The 4-bit tables of a few powers H^L: the host combines the DPUs' partial
 * hashes with them, and a round has only a few distinct run lengths L. */
#define HPOW_SLOTS 6
struct hpow_cache {
    uint64_t len[HPOW_SLOTS];
    cpim_crypto_ghash_ct_key key[HPOW_SLOTS];
    unsigned used, next;
};

static const cpim_crypto_ghash_ct_key *hpow(struct pim_state *s, struct hpow_cache *c, uint64_t len)
{
    for (unsigned i = 0; i < c->used; i++)
        if (c->len[i] == len)
            return &c->key[i];
    /* H^len by square-and-multiply; 1 is 0x80 00 .. in GCM's bit order */
    uint8_t r[16] = {0x80}, b[16], t[16];
    memcpy(b, s->h, 16);
    for (uint64_t e = len; e; e >>= 1) {
        if (e & 1)
            cpim_crypto_gf128_mul(r, b);
        memcpy(t, b, 16);
        cpim_crypto_gf128_mul(b, t);
    }
    unsigned i = c->used < HPOW_SLOTS ? c->used++ : (c->next++ % HPOW_SLOTS);
    c->len[i] = len;
    cpim_crypto_ghash_ct_init(&c->key[i], r);
    cpim_wipe(r, sizeof r), cpim_wipe(b, sizeof b), cpim_wipe(t, sizeof t);
    return &c->key[i];
}

/* acc = acc * H^L ^ Y over the runs of every tasklet of DPUs 0..nd-1 in
 * order: tasklet t of a DPU with nblk blocks ran dpu/gcm.c's (= aes.c's)
 * partition [8 (s t / T), 8 (s (t + 1) / T)) cut at nblk, s = ceil(nblk / 8),
 * and left its partial hash Y in part[d][t] (GHASH is linear: see gcm.c). */
static void gcm_combine(struct pim_state *s, struct hpow_cache *c, uint8_t acc[16],
                        const struct gcm_job_args *jobs, const uint32_t *part, uint32_t nd,
                        unsigned tasklets)
{
    for (uint32_t d = 0; d < nd; d++) {
        const uint64_t nblk = jobs[d].nbytes / 16, nstep = (nblk + 7) / 8;
        for (unsigned t = 0; t < tasklets; t++) {
            uint64_t b = 8 * (nstep * t / tasklets), e = 8 * (nstep * (t + 1) / tasklets);
            if (e > nblk)
                e = nblk;
            if (e <= b)
                continue;
            const uint8_t *y = (const uint8_t *)(part + ((size_t)d * tasklets + t) * 4);
            static const uint8_t zero[16];
            cpim_crypto_ghash_ct_blocks(hpow(s, c, e - b), acc, zero, 1); /* acc *= H^L */
            for (int i = 0; i < 16; i++)
                acc[i] ^= y[i];
        }
    }
}

static cpim_err pim_gcm(void *state, cpim_dir dir, const uint8_t *iv, size_t iv_len,
                        const uint8_t *aad, size_t aad_len, const uint8_t *in, uint8_t *out,
                        size_t len, uint8_t tag[16], cpim_stats *st)
{
    struct pim_state *s = state;
    cpim_err rc = len ? pim_load(s, PIM_PROG_GCM) : have_machine(s);
    if (rc != CPIM_OK)
        return rc;
    cpim_pim_clocks clk;
    cpim_pim_times t = {0, 0, 0};
    cpim_pim_clocks_start(&clk);

    /* the host's part: J0, the AAD's hash, E_K(J0) (SP 800-38D 7.1) */
    uint8_t j0[16], acc[16] = {0}, lb[16];
    cpim_crypto_gcm_ct_j0(&s->gh, iv, iv_len, j0);
    cpim_crypto_ghash_ct_bytes(&s->gh, acc, aad, aad_len);

    struct aes_key_args ka;
    memset(&ka, 0, sizeof ka);
    cpim_pim_dpu_schedule(ka.rk, &ka.nr, &s->ek);
    ka.op = dir == CPIM_DECRYPT ? GCM_OP_DEC : GCM_OP_ENC;
    const uint32_t c0[4] = {
        (uint32_t)j0[0] << 24 | (uint32_t)j0[1] << 16 | (uint32_t)j0[2] << 8 | j0[3],
        (uint32_t)j0[4] << 24 | (uint32_t)j0[5] << 16 | (uint32_t)j0[6] << 8 | j0[7],
        (uint32_t)j0[8] << 24 | (uint32_t)j0[9] << 16 | (uint32_t)j0[10] << 8 | j0[11],
        ((uint32_t)j0[12] << 24 | (uint32_t)j0[13] << 16 | (uint32_t)j0[14] << 8 | j0[15]) + 1u};

    const uint32_t nd = cpim_pim_machine_dpus(s->m);
    const unsigned tasklets = cpim_pim_machine_tasklets(s->m);
    struct aes_job_args *split = NULL;
    struct gcm_job_args *jobs = NULL;
    uint32_t *part = NULL;
    struct hpow_cache *hc = NULL;
    uint8_t *bounce = NULL;
    size_t bounce_size = 0;
    if (len) {
        split = cpim_pim_calloc(&s->faults, nd, sizeof *split);
        jobs = cpim_pim_calloc(&s->faults, nd, sizeof *jobs);
        part = cpim_pim_calloc(&s->faults, (size_t)nd * tasklets, 16);
        hc = cpim_pim_calloc(&s->faults, 1, sizeof *hc);
        if (!split || !jobs || !part || !hc)
            rc = CPIM_ERR_NOMEM;
    }
    const uint64_t total_blocks = (len + 15) / 16;
    const uint64_t round_blocks = (uint64_t)nd * (s->budget / 16);
    for (uint64_t done = 0; done < total_blocks && rc == CPIM_OK;) {
        double t0 = cpim_now();
        rc = cpim_pim_machine_send_key(s->m, &ka, sizeof ka);
        t.in += cpim_now() - t0;
        if (rc != CPIM_OK)
            break;
        uint64_t nb = total_blocks - done < round_blocks ? total_blocks - done : round_blocks;
        uint32_t bd = cpim_pim_aes_split(nd, done, nb, len, in, out, c0, split, s->to, s->from);
        /* GCM's counter: only the low 32 bits count (inc32, no carry) */
        uint64_t blk = done;
        for (uint32_t d = 0; d < nd; d++) {
            jobs[d].nbytes = split[d].nbytes;
            jobs[d].tail = d == bd ? (uint32_t)(len - 16 * (total_blocks - 1)) : 16u;
            jobs[d].ctr[0] = c0[0], jobs[d].ctr[1] = c0[1], jobs[d].ctr[2] = c0[2];
            jobs[d].ctr[3] = c0[3] + (uint32_t)blk;
            blk += split[d].nbytes / 16;
        }
        size_t bounce_off = 0; /* zero padding = GHASH's when decrypting; the DPU
                                  zeroes it after CTR when encrypting */
        if (bd != UINT32_MAX &&
            bounce_tail(s, bd, jobs[bd].nbytes, in, out, len, &bounce, &bounce_size, &bounce_off)) {
            rc = CPIM_ERR_NOMEM;
            break;
        }
        cpim_pim_round r = {
            GCM_XSTR(GCM_JOB_SYM),  jobs, sizeof *jobs,         s->to, s->from, NULL, NULL,
            GCM_XSTR(GCM_PART_SYM), part, (size_t)tasklets * 16};
        rc = cpim_pim_machine_round(s->m, &r, &t);
        if (rc == CPIM_OK && !s->timing_only)
            cpim_pim_machine_key_consumed(s->m);
        if (rc == CPIM_OK && bd != UINT32_MAX)
            memcpy(out + bounce_off, bounce, len - bounce_off);
        if (rc == CPIM_OK)
            gcm_combine(s, hc, acc, jobs, part, nd, tasklets);
        done += nb;
    }
    cpim_wipe(&ka, sizeof ka);
    if (rc == CPIM_OK) {
        cpim_crypto_gcm_len_block(lb, aad_len, len);
        cpim_crypto_ghash_ct_blocks(&s->gh, acc, lb, 1);
        cpim_crypto_aes_ct_blocks(&s->ct, 0, j0, tag, 1);
        for (int i = 0; i < 16; i++)
            tag[i] ^= acc[i];
    }
    const int zero_out = rc == CPIM_OK && s->timing_only; /* zeroed after the clocks stop */
    if (zero_out) {
        memset(tag, 0, 16);
        rc = CPIM_ERR_TIMING_ONLY;
    }
    if (bounce)
        cpim_wipe(bounce, bounce_size);
    if (hc)
        cpim_wipe(hc, sizeof *hc);
    free(bounce), free(split), free(jobs), free(part), free(hc);
    cpim_wipe(j0, sizeof j0), cpim_wipe(acc, sizeof acc);
    cpim_pim_clocks_stop(s->m, &clk, &t, st);
    if (zero_out && len)
        memset(out, 0, len);
    cpim_pim_machine_wipe_key(s->m);
    if (rc != CPIM_OK && rc != CPIM_ERR_TIMING_ONLY)
        cpim_pim_machine_reset(s->m);
    return rc;
}

/* ---- SHA-256 ---------------------------------------------------------------------- */

/* Grows a reused buffer to at least n bytes (contents not kept; zeroed when
 * new, so no uninitialised byte is ever pushed).  *hi: bytes of the old
 * buffer to wipe before it is freed (then 0), or NULL. */
static int grow(cpim_pim_faults *f, uint8_t **buf, size_t *cap, size_t *hi, size_t n)
{
    if (n <= *cap && *buf)
        return 1;
    if (*buf && hi)
        cpim_wipe(*buf, *hi);
    if (hi)
        *hi = 0;
    free(*buf);
    *buf = cpim_pim_calloc(f, n, 1);
    *cap = *buf ? n : 0;
    return *buf != NULL;
}

/* Both SHA-256 operations: the digests of whole messages (h == NULL), or
 * (h != NULL) the streaming API's chaining values, h[i] absorbing the
 * lens[i] bytes (a multiple of 64) at msgs[i], with nothing padded or
 * finished (plan.c's `blocks` mode; the DPU kernel reads each chaining value
 * from its slot and writes the new one back, sha256_args.h).  On an error h
 * is unchanged. */
static cpim_err sha_run(struct pim_state *s, const uint8_t *const *msgs, const size_t *lens,
                        size_t count, uint8_t (*digests)[32], uint32_t *const *h, cpim_stats *st)
{
    cpim_err rc = pim_load(s, PIM_PROG_SHA);
    if (rc != CPIM_OK)
        return rc;
    cpim_pim_clocks clk;
    cpim_pim_times t = {0, 0, 0};
    cpim_pim_clocks_start(&clk);

    cpim_pim_sha_plan p;
    memset(&p, 0, sizeof p);
    p.msgs = msgs;
    p.lens = lens;
    p.nd = cpim_pim_machine_dpus(s->m);
    p.budget = s->budget;
    p.direct_min = s->direct_min;
    p.threads = s->threads;
    p.nr_scopes = s->nr_scopes;
    p.scope_first = s->scope_first;
    p.scope_n = s->scope_n;
    p.to = s->to;
    p.from = s->from;
    p.blocks = h != NULL;
    uint64_t *pos = cpim_pim_calloc(&s->faults, count, sizeof *pos);  /* bytes hashed so far */
    size_t *todo = cpim_pim_malloc(&s->faults, count * sizeof *todo); /* unfinished, in order */
    if (!pos || !todo || cpim_pim_sha_plan_alloc(&p, &s->faults, count) != CPIM_OK) {
        rc = CPIM_ERR_NOMEM;
        goto out;
    }
    size_t ntodo = 0;
    for (size_t i = 0; i < count; i++) {
        if (h && !lens[i])
            continue; /* no blocks: nothing to do, its chaining value stays */
        if (h)
            memcpy(p.chain[i], h[i], sizeof p.chain[i]);
        todo[ntodo++] = i;
    }

    while (ntodo && rc == CPIM_OK) {
        size_t used, res;
        cpim_pim_sha_plan_round(&p, todo, ntodo, pos, &used, &res);
        if (!grow(&s->faults, &s->stage, &s->stage_cap, &s->stage_hi, used) ||
            !grow(&s->faults, &s->results, &s->results_cap, NULL, res)) {
            rc = CPIM_ERR_NOMEM;
            break;
        }
        if (used > s->stage_hi)
            s->stage_hi = used;
        p.stage = s->stage;
        p.results = s->results;
        cpim_pim_round r = {SHA_XSTR(SHA_JOB_SYM), p.jobs, sizeof *p.jobs, s->to, s->from,
                            cpim_pim_sha_prepare,  &p,     NULL,           NULL,  0};
        rc = cpim_pim_machine_round(s->m, &r, &t);
        if (rc != CPIM_OK)
            break;
        cpim_pim_sha_collect(&p, pos, digests);
        /* drop the finished messages from the to-do list: O(messages) (a
         * scan of the round's segments per message was quadratic, 1.7 G
         * steps at 40 ranks x 1024 messages) */
        size_t w = 0;
        for (size_t k = 0; k < ntodo; k++)
            if (pos[todo[k]] != UINT64_MAX)
                todo[w++] = todo[k];
        ntodo = w;
    }
out:
    if (rc == CPIM_OK && s->timing_only) {
        if (digests)
            memset(digests, 0, count * sizeof *digests); /* not all were computed */
        rc = CPIM_ERR_TIMING_ONLY;
    }
    if (rc == CPIM_OK && h)
        for (size_t i = 0; i < count; i++)
            if (lens[i])
                memcpy(h[i], p.chain[i], sizeof p.chain[i]);
    if (rc != CPIM_OK && rc != CPIM_ERR_TIMING_ONLY)
        cpim_pim_machine_reset(s->m);
    free(pos);
    free(todo);
    cpim_pim_sha_plan_free(&p);
    cpim_pim_clocks_stop(s->m, &clk, &t, st);
    return rc;
}

static cpim_err pim_sha(void *state, const uint8_t *const *msgs, const size_t *lens, size_t count,
                        uint8_t (*digests)[32], cpim_stats *st)
{
    return sha_run(state, msgs, lens, count, digests, NULL, st);
}

/* see backend.h (sha256_blocks): the blocks become messages of nblocks[i] *
 * 64 bytes in sha_run's chaining mode, so they take the same rounds, MRAM
 * budget and direct pushes as whole messages. */
static cpim_err pim_sha_blocks(void *state, uint32_t *const *h, const uint8_t *const *p,
                               const size_t *nblocks, size_t count, cpim_stats *st)
{
    struct pim_state *s = state;
    size_t *lens = cpim_pim_malloc(&s->faults, (count ? count : 1) * sizeof *lens);
    if (!lens)
        return CPIM_ERR_NOMEM;
    for (size_t i = 0; i < count; i++)
        lens[i] = nblocks[i] * 64u;
    cpim_err rc = sha_run(s, p, lens, count, NULL, h, st);
    free(lens);
    return rc;
}

/* ---- HMAC / PBKDF2 (hmac.c) --------------------------------------------------------------- */

static cpim_err hmac_call(struct pim_state *s, int pbkdf2, const uint8_t *const *k,
                          const size_t *kl, const uint8_t *const *m, const size_t *ml, size_t count,
                          uint32_t iterations, uint8_t *const *outs, size_t out_len,
                          uint8_t (*macs)[32], cpim_stats *st)
{
    cpim_err rc = pim_load(s, PIM_PROG_HMAC);
    if (rc != CPIM_OK)
        return rc;
    cpim_pim_clocks clk;
    cpim_pim_times t = {0, 0, 0};
    cpim_pim_clocks_start(&clk);
    cpim_pim_hmac_env e = {s->m, &s->faults, s->to, s->from, s->budget, s->timing_only};
    rc = pbkdf2 ? cpim_pim_pbkdf2(&e, k, kl, m, ml, count, iterations, outs, out_len, &t)
                : cpim_pim_hmac(&e, k, kl, m, ml, count, macs, &t);
    if (rc == CPIM_OK && s->timing_only) {
        for (size_t i = 0; i < count; i++) /* skipped DPUs computed nothing */
            memset(pbkdf2 ? outs[i] : macs[i], 0, pbkdf2 ? out_len : 32);
        rc = CPIM_ERR_TIMING_ONLY;
    }
    if (rc != CPIM_OK && rc != CPIM_ERR_TIMING_ONLY)
        cpim_pim_machine_reset(s->m);
    cpim_pim_clocks_stop(s->m, &clk, &t, st);
    return rc;
}

static cpim_err pim_hmac(void *state, const uint8_t *const *keys, const size_t *key_lens,
                         const uint8_t *const *msgs, const size_t *msg_lens, size_t count,
                         uint8_t (*macs)[32], cpim_stats *st)
{
    return hmac_call(state, 0, keys, key_lens, msgs, msg_lens, count, 0, NULL, 0, macs, st);
}

static cpim_err pim_pbkdf2(void *state, const uint8_t *const *passes, const size_t *pass_lens,
                           const uint8_t *const *salts, const size_t *salt_lens, size_t count,
                           uint32_t iterations, uint8_t *const *outs, size_t out_len,
                           cpim_stats *st)
{
    return hmac_call(state, 1, passes, pass_lens, salts, salt_lens, count, iterations, outs,
                     out_len, NULL, st);
}

/* ---- NTT (ntt.c) ------------------------------------------------------------------------- */

static cpim_err pim_ntt(void *state, const cpim_ntt_plan *plan, cpim_ntt_op op, const uint64_t *a,
                        const uint64_t *b, uint64_t *out, size_t count, cpim_stats *st)
{
    struct pim_state *s = state;
    cpim_err rc = pim_load(s, cpim_pim_ntt_dword(plan) ? PIM_PROG_NTT64 : PIM_PROG_NTT);
    if (rc != CPIM_OK)
        return rc;
    cpim_pim_clocks clk;
    cpim_pim_times t = {0, 0, 0};
    cpim_pim_clocks_start(&clk);
    cpim_pim_ntt_env e = {s->m,         &s->faults,   s->to,          s->from,      s->budget,
                          s->ntt_sched, s->ntt_log_m, s->timing_only, &s->ntt_cache};
    rc = cpim_pim_ntt(&e, plan, (int)op, a, b, out, count, &t);
    if (rc != CPIM_OK && rc != CPIM_ERR_TIMING_ONLY) {
        cpim_pim_machine_reset(s->m);
        s->ntt_cache.valid = 0;
    }
    cpim_pim_clocks_stop(s->m, &clk, &t, st);
    if (rc == CPIM_OK && s->timing_only) { /* skipped DPUs computed nothing */
        memset(out, 0, count * (op == CPIM_NTT_OP_TENSOR ? 3u : 1u) * plan->nmod * plan->n * 8u);
        rc = CPIM_ERR_TIMING_ONLY;
    }
    return rc;
}

/* see backend.h */
const cpim_backend_vt cpim_backend_pim = {
    .version = CPIM_BACKEND_VT_VERSION,
    .name = "pim",
#ifdef CPIM_VIRTUAL_UPMEM
    .description = "UPMEM DPUs: the virtual UPMEM (no PIM hardware; modeled clock)",
#else
    .description = "UPMEM DPUs: real hardware (UPMEM SDK)",
#endif
    .available = pim_available,
    .open = pim_open,
    .close = pim_close,
    .set_key = pim_set_key,
    .aes_ecb = pim_ecb,
    .aes_ctr = pim_ctr,
    .sha256_batch = pim_sha,
    .available_for = pim_available_for,
    .hmac_sha256_batch = pim_hmac,
    .pbkdf2_sha256_batch = pim_pbkdf2,
    .xts_set_key = pim_xts_set_key,
    .aes_xts = pim_xts,
    .sha256_blocks = pim_sha_blocks,
    .aes_gcm = pim_gcm,
    .ntt = pim_ntt,
    .region = &cpim_pim_region_vt,
};
