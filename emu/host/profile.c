/*
 * profile.c -- the profile string: "key=value,key=value".
 *
 * Every key is documented in docs/VIRTUAL_UPMEM_HOST.md. Sources, in order
 * of increasing precedence: built-in defaults, $UPMEM_PROFILE_BASE, the
 * string given to dpu_alloc / dpu_alloc_ranks, $UPMEM_PROFILE -- the SDK's
 * order (libdpu's dpu_properties_load_from_profile concatenates
 * UPMEM_PROFILE_BASE, the program's string and UPMEM_PROFILE, a later key
 * replacing an earlier one), so the environment can set a key for a program
 * that sets it too (UPMEM_PROFILE=hostClock=none for `cryptopim bench`).
 */
#include "profile.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The one table of model parameters (upmem-perf-facts.md §6). Each row is
 * also a profile key. GB = 1e9 B, GiB = 2^30 B. */
const model_param_desc_t emu_model_param_table[] = {
    {"serialToGBps", offsetof(model_params_t, serial_to_gbps), 0.33, "GB/s",
     "P16: CPU->DPU serial (dpu_copy_to on one DPU), PrIM [S]+[R]"},
    {"serialFromGBps", offsetof(model_params_t, serial_from_gbps), 0.12, "GB/s",
     "P17: DPU->CPU serial (dpu_copy_from), PrIM [R], uPIM HW data 0.11-0.12"},
    {"serialDpuUs", offsetof(model_params_t, serial_dpu_us), 17.0, "us",
     "P24: fixed cost of one serial copy (per DPU), uPIM HW data 17-20 us"},
    {"parallelToGBps", offsetof(model_params_t, par_to_gbps), 6.68, "GB/s",
     "P18: CPU->DPU push_xfer, one rank of 64 DPUs, PrIM [S]+[R]"},
    {"parallelFromGBps", offsetof(model_params_t, par_from_gbps), 4.74, "GB/s",
     "P19: DPU->CPU push_xfer, one rank, PrIM [R] (uPIM data 1.3-1.9: uncertain ~2.5x)"},
    {"broadcastGBps", offsetof(model_params_t, bcast_gbps), 16.88, "GB/s",
     "P20: broadcast to one rank of 64 DPUs (bytes delivered), PrIM [R]"},
    {"capToGiBps", offsetof(model_params_t, cap_to_gibps), 21.0, "GiB/s",
     "P21: system-wide CPU->DPU cap (32 ranks, SDK 2024.2), LK-light [V]"},
    {"capFromGiBps", offsetof(model_params_t, cap_from_gibps), 11.0, "GiB/s",
     "P21: system-wide DPU->CPU cap, LK-light [V]"},
    {"callToUs", offsetof(model_params_t, call_to_us), 100.0, "us",
     "P23: fixed cost of a CPU->DPU push/broadcast on one rank (0.1-0.2 ms)"},
    {"callFromUs", offsetof(model_params_t, call_from_us), 200.0, "us",
     "P23: fixed cost of a DPU->CPU push on one rank (0.1-0.2 ms; recv ~2x send)"},
    {"callRankToUs", offsetof(model_params_t, call_rank_to_us), 12.9, "us",
     "P23: extra fixed cost per additional rank in the call (0.5 ms at 32 ranks) [D]"},
    {"callRankFromUs", offsetof(model_params_t, call_rank_from_us), 25.8, "us",
     "P23: extra per additional rank, DPU->CPU (1.0 ms at 32 ranks) [D]"},
    {"launchUs", offsetof(model_params_t, launch_us), 100.0, "us",
     "P25: dpu_launch overhead, one rank (placeholder, unmeasured)"},
    {"launchRankUs", offsetof(model_params_t, launch_rank_us), 10.0, "us",
     "P25: extra launch overhead per additional rank (~0.5 ms at 40 ranks) [D]"},
    {"loadUs", offsetof(model_params_t, load_us), 0.0, "us",
     "P26: dpu_load (unknown, not on the steady-state path)"},
    {"rankRefDpus", offsetof(model_params_t, rank_ref_dpus), 64.0, "DPUs",
     "rank size of the P18-P20 measurements; k DPUs of a rank get BW(64)*(k/64)^a, "
     "a = ln(BW(64)/serial)/ln 64 so that BW(1) = serial and BW(64) = P18/P19, or P20 for a "
     "broadcast (a one-DPU broadcast is a one-DPU copy) [D]"},
};
const unsigned emu_model_param_count =
    sizeof emu_model_param_table / sizeof emu_model_param_table[0];

static void model_params_default(model_params_t *m)
{
    for (unsigned i = 0; i < emu_model_param_count; i++)
        memcpy((char *)m + emu_model_param_table[i].offset, &emu_model_param_table[i].def,
               sizeof(double));
}

/* Keys the real SDK accepts that have no effect here. */
static const char *const sdk_ignored_keys[] = {
    "nrThreadsPerRank",
    "sgXferEnable",
    "sgXferMaxBlocksPerDpu",
    "chipId",
    "cycleAccurate",
    "enableProfiling",
    "profilingDpuId",
    "profilingSymbolName",
    "clockDivision",
    "ignoreVersion",
    "disableSafeChecks",
    "disableMuxSwitch",
    "tryRepairIram",
    "tryRepairWram",
    "mramAccessByDpuOnly",
    "regionMode",
    "rankPath",
    "nrCis",
    "nrDpusPerCi",
    "poolThreshold",
    "enableDbgLogs",
    "enableCmdsLogs",
    "frequencyAdjustment",
    "fckFrequency",
    "clockDivisionMin",
    "clockDivisionMax",
    "dpuDrivenChannel",
    "dispatchOnAllRanksNrRanks",
};

static bool parse_u64(const char *v, uint64_t *out)
{
    char *end;
    if (*v == '\0' || *v == '-')
        return false;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 0);
    if (errno != 0 || *end != '\0')
        return false;
    *out = x;
    return true;
}

static bool parse_u32(const char *v, uint32_t *out)
{
    uint64_t x;
    if (!parse_u64(v, &x) || x > UINT32_MAX)
        return false;
    *out = (uint32_t)x;
    return true;
}

static bool parse_double(const char *v, double *out)
{
    char *end;
    if (*v == '\0')
        return false;
    errno = 0;
    double x = strtod(v, &end);
    if (errno != 0 || *end != '\0' || !(x >= 0.0) || x > 1e18)
        return false;
    *out = x;
    return true;
}

static bool parse_bool(const char *v, bool *out)
{
    if (!strcasecmp(v, "true") || !strcmp(v, "1") || !strcasecmp(v, "yes")) {
        *out = true;
        return true;
    }
    if (!strcasecmp(v, "false") || !strcmp(v, "0") || !strcasecmp(v, "no")) {
        *out = false;
        return true;
    }
    return false;
}

/* disabledDpus=r.d:r.d:... */
static bool parse_disabled_list(const char *v, profile_t *p)
{
    const char *s = v;
    while (*s) {
        char *end;
        errno = 0;
        unsigned long r = strtoul(s, &end, 0);
        if (end == s || *end != '.' || errno || r >= HOST_MAX_RANKS)
            return false;
        s = end + 1;
        unsigned long d = strtoul(s, &end, 0);
        if (end == s || errno || d >= HOST_MAX_DPUS_PER_RANK)
            return false;
        p->rank_disabled[r] |= (uint64_t)1 << d;
        s = end;
        if (*s == ':')
            s++;
        else if (*s != '\0')
            return false;
    }
    return true;
}

/* One virtual DPU parameter from its row of vdpu_param_table: parsed as
 * the row's type, stored, and checked against the row's range. */
static bool apply_vdpu_param(vdpu_params_t *vp, const vdpu_param_desc_t *d, const char *v,
                             const char **why)
{
    char *at = (char *)vp + d->offset;
    uint32_t u32;
    uint64_t u64;
    double x;
    switch (d->type) {
    case VDPU_PARAM_U32:
        if (!parse_u32(v, &u32))
            return false;
        memcpy(at, &u32, sizeof u32);
        break;
    case VDPU_PARAM_U64:
        if (!parse_u64(v, &u64))
            return false;
        memcpy(at, &u64, sizeof u64);
        break;
    case VDPU_PARAM_DOUBLE:
        if (!parse_double(v, &x))
            return false;
        memcpy(at, &x, sizeof x);
        break;
    }
    *why = vdpu_param_check(vp, d);
    return *why == NULL;
}

/* Applies one key; false on an unknown key or a bad value (*why says more
 * when it can). */
static bool apply_kv(profile_t *p, const char *k, const char *v, const char **why)
{
    vdpu_params_t *vp = &p->vdpu;
    if (!strcmp(k, "backend"))
        return !strcmp(v, "hw") || !strcmp(v, "simulator") || !strcmp(v, "casim") ||
               !strcmp(v, "modelsim") || !strcmp(v, "vdpu") || !strcmp(v, "emu");
    if (!strcmp(k, "nrRanks"))
        return parse_u32(v, &p->nr_ranks) && p->nr_ranks >= 1 && p->nr_ranks <= HOST_MAX_RANKS;
    if (!strcmp(k, "nrDpusPerRank"))
        return parse_u32(v, &p->nr_dpus_per_rank) && p->nr_dpus_per_rank >= 1 &&
               p->nr_dpus_per_rank <= HOST_MAX_DPUS_PER_RANK;
    if (!strcmp(k, "disabledMask"))
        return parse_u64(v, &p->disabled_mask);
    if (!strcmp(k, "disabledDpus"))
        return parse_disabled_list(v, p);
    if (!strcmp(k, "dispatchOnAllRanks"))
        return parse_bool(v, &p->dispatch_on_all_ranks);
    if (!strcmp(k, "disableResetOnAlloc"))
        return parse_bool(v, &p->disable_reset_on_alloc);
    if (!strcmp(k, "nrJobsPerRank"))
        return parse_u32(v, &p->nr_jobs_per_rank) && p->nr_jobs_per_rank >= 1;
    if (!strcmp(k, "sampleDpus"))
        return parse_u32(v, &p->sample_dpus) && p->sample_dpus <= HOST_MAX_DPUS_PER_RANK;
    if (!strcmp(k, "hostClock")) { /* see emu_host_clock_t (model.h) */
        if (strcmp(v, "wall") && strcmp(v, "thread") && strcmp(v, "none"))
            return false;
        p->host_thread_clock = !strcmp(v, "thread");
        p->host_clock_none = !strcmp(v, "none");
        return true;
    }
    if (!strcmp(k, "mode")) {
        if (!strcmp(v, "timed"))
            vp->mode = VDPU_MODE_TIMED;
        else if (!strcmp(v, "fast"))
            vp->mode = VDPU_MODE_FAST;
        else
            return false;
        return true;
    }
    if (!strcmp(k, "dmaRules")) { /* see vdpu_dma_rules_t in vdpu.h */
        if (!strcmp(v, "strict"))
            vp->dma_rules = VDPU_DMA_STRICT;
        else if (!strcmp(v, "hardware"))
            vp->dma_rules = VDPU_DMA_HARDWARE;
        else
            return false;
        return true;
    }
    for (unsigned i = 0; i < vdpu_param_count; i++)
        if (!strcmp(k, vdpu_param_table[i].key))
            return apply_vdpu_param(vp, &vdpu_param_table[i], v, why);
    for (unsigned i = 0; i < emu_model_param_count; i++) {
        if (!strcmp(k, emu_model_param_table[i].key)) {
            double x;
            if (!parse_double(v, &x))
                return false;
            /* a rate or a count of 0 would divide by zero in the model;
             * fixed costs (us) may be 0 */
            if (x == 0.0 && strcmp(emu_model_param_table[i].unit, "us") != 0)
                return false;
            memcpy((char *)&p->model + emu_model_param_table[i].offset, &x, sizeof x);
            return true;
        }
    }
    for (size_t i = 0; i < sizeof sdk_ignored_keys / sizeof sdk_ignored_keys[0]; i++)
        if (!strcmp(k, sdk_ignored_keys[i]))
            return true;
    return false;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* Keys that skip simulating work (model shortcuts).  They change what a
 * program reads back from the DPUs, so only the program itself may ask for
 * them (the string it passes to dpu_alloc), never the environment: a
 * variable set for one experiment must not reach an unrelated program. */
static bool timing_only_key(const char *k)
{
    return !strcmp(k, "sampleDpus");
}

/* One line on stderr naming the refused item (the SDK logs invalid profiles
 * too); `source` says where it came from. */
static void refuse(const char *source, const char *item, const char *why)
{
    fprintf(stderr, "virtual UPMEM: profile (%s): %s: %s\n", source, item, why);
}

static bool apply_text(profile_t *p, const char *text, const char *source, bool from_env)
{
    if (text == NULL || *text == '\0')
        return true;
    char *copy = strdup(text);
    if (copy == NULL)
        return false;
    bool ok = true;
    char *save = NULL;
    for (char *item = strtok_r(copy, ",", &save); item && ok; item = strtok_r(NULL, ",", &save)) {
        item = trim(item);
        if (*item == '\0')
            continue;
        char *eq = strchr(item, '=');
        if (eq == NULL) {
            refuse(source, item, "not of the form key=value");
            ok = false;
            break;
        }
        *eq = '\0';
        const char *k = trim(item), *v = trim(eq + 1), *why = NULL;
        if (from_env && timing_only_key(k)) {
            refuse(source, k,
                   "a timing-only key (reads of unsimulated DPUs fail); a program asks for it "
                   "in its own dpu_alloc profile, not through the environment");
            ok = false;
        } else if (!apply_kv(p, k, v, &why)) {
            refuse(source, k,
                   why ? why : "unknown key or invalid value (docs/VIRTUAL_UPMEM_HOST.md)");
            ok = false;
        }
    }
    free(copy);
    return ok;
}

/* see profile.h */
dpu_error_t emu_profile_build(const char *text, profile_t *p)
{
    memset(p, 0, sizeof *p);
    p->rank_disabled = calloc(HOST_MAX_RANKS, sizeof *p->rank_disabled);
    if (p->rank_disabled == NULL)
        return DPU_ERR_SYSTEM;
    p->nr_ranks = 40;
    p->nr_dpus_per_rank = 64;
    p->nr_jobs_per_rank = 16;
    vdpu_params_default(&p->vdpu);
    model_params_default(&p->model);
    const char *bad = NULL;
    if (!apply_text(p, getenv("UPMEM_PROFILE_BASE"), "UPMEM_PROFILE_BASE", true) ||
        !apply_text(p, text, "dpu_alloc", false) ||
        !apply_text(p, getenv("UPMEM_PROFILE"), "UPMEM_PROFILE", true) ||
        (bad = vdpu_params_check(&p->vdpu)) != NULL) {
        if (bad)
            refuse("all sources", "virtual DPU parameters", bad);
        emu_profile_release(p);
        return DPU_ERR_INVALID_PROFILE;
    }
    return DPU_OK;
}

/* see profile.h */
void emu_profile_release(profile_t *p)
{
    free(p->rank_disabled);
    p->rank_disabled = NULL;
}
