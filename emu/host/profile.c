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
    /* The power model (docs/MODEL.md, power): an allocated rank's DPUs draw
     * dpuIdleW each; a running launch adds dpuActiveW per DPU of its scope,
     * a transfer xferDpuW per DPU it moves data to or from. */
    {"dpuActiveW", offsetof(model_params_t, dpu_active_w), 0.047, "W",
     "power a running DPU adds: DRAMatic's server drew 311 W with 128 DPUs running and 323 W "
     "with 383, (323-311)/(383-128) = 0.047 W per DPU [D]"},
    {"dpuIdleW", offsetof(model_params_t, dpu_idle_w), 0.103, "W",
     "power of an allocated DPU: PrIM Table 1's estimated TDP, 1.2 W per 8-DPU chip (383 W for "
     "2,556 DPUs) = 0.150 W per DPU at full load, minus dpuActiveW, TDP [R], split [D] (a TDP: an "
     "upper bound)"},
    {"xferDpuW", offsetof(model_params_t, xfer_dpu_w), 0.047, "W",
     "power a DPU's chip adds while a transfer moves its data: no published figure; taken equal "
     "to dpuActiveW (the chip's DRAM and interface busy instead of its pipeline) [A]"},
};
const unsigned emu_model_param_count =
    sizeof emu_model_param_table / sizeof emu_model_param_table[0];

static void model_params_default(model_params_t *m)
{
    for (unsigned i = 0; i < emu_model_param_count; i++)
        memcpy((char *)m + emu_model_param_table[i].offset, &emu_model_param_table[i].def,
               sizeof(double));
}

/* Named machines (key machine=NAME). A preset is a profile string applied
 * below every explicit key; docs/MODEL.md ("Named machines") gives the
 * reasoning, docs/VIRTUAL_UPMEM_HOST.md §5.1 the table. What is not in a
 * preset (transfer bandwidths, fixed costs, DMA cycles) keeps its default:
 * see MODEL.md for why it does not scale with the DPU clock. */
const emu_machine_t emu_machine_table[] = {
    {"prim", "nrRanks=40,nrDpusPerRank=64,clockMhz=350,disabledDpus=36.63:37.63:38.63:39.63",
     "PrIM's 2,556-DPU system: 20 DIMMs, 40 ranks, 350 MHz (v1A)",
     "PrIM (Gomez-Luna et al. 2022) Table 1 via upmem-perf-facts.md P1 and 'PrIM systems' [S]: "
     "20 DIMMs x 128 DPUs, 350 MHz, 2,556 usable DPUs; which 4 DPUs are off is not published: "
     "ours, DPU 63 of the last 4 ranks, so the ranks PrIM's one-rank sweeps use are whole"},
    {"study", "nrRanks=40,nrDpusPerRank=64,clockMhz=450",
     "the CryptoPIM study's server: 20 DIMMs, 40 ranks, 2,560 DPUs, 450 MHz",
     "the study (seeds/000, Sec. 4): '20 PIM DIMMs, each containing 128 DPUs (i.e., two ranks) "
     "operating at a frequency of 450 MHz', 'up to 40 ranks, providing a total of 2560 DPUs'; "
     "no faulty DPU count given, so all enabled (no other public source for 450 MHz parts: "
     "perf-facts 7.6)"},
    {"dramatic", "nrRanks=6,nrDpusPerRank=64,clockMhz=400,disabledDpus=5.63",
     "DRAMatic's configuration: 6 ranks, 383 usable DPUs, 400 MHz (v1B)",
     "DRAMatic (arXiv 2602.12433) as summarised in seeds/001 [secondary]: 'DPU 400MHz', "
     "'6 ranks, 383 usable DPUs'; 383 = 6 x 64 - 1, so one DPU off, placed by us at DPU 63 "
     "of the last rank; the summary's '383 of 509 DPUs' cannot be 6 ranks (at most 384): "
     "read as the whole machine (8 ranks, 512 - 3) of which 6 ranks were used"},
};
const unsigned emu_machine_count = sizeof emu_machine_table / sizeof emu_machine_table[0];

/* Keys of the real SDK that change nothing here, with the type the SDK
 * reads them as (a value it could not parse is refused here too; the SDK
 * reads a bool as "not false and not 0", so any value is one). Sources:
 * the SDK's property list (Copyright 2021 UPMEM, its Python generator of
 * DPU_PROFILE_PROPERTY_*), the 2020 libdpu dpu_profile.h
 * (UBC-ECE-Sasha/upmem-sdk backends/commons/src/properties), and the
 * profile strings of public programs; docs/VIRTUAL_UPMEM_HOST.md §5.2 says
 * what each means on hardware and why it is ignored. */
typedef enum { SDK_ANY, SDK_BOOL, SDK_INT } sdk_type_t;
static const struct {
    const char *key;
    sdk_type_t type;
} sdk_ignored_keys[] = {
    /* all backends */
    {"chipId", SDK_INT},
    {"clockDivision", SDK_INT},
    {"fckFrequency", SDK_INT},
    {"enableProfiling", SDK_ANY},
    {"profilingDpuId", SDK_INT},
    {"profilingSliceId", SDK_INT},
    {"profilingSymbolName", SDK_ANY},
    {"mcountAddress", SDK_INT},
    {"retMcountAddress", SDK_INT},
    {"threadProfilingAddress", SDK_INT},
    {"mramAccessByDpuOnly", SDK_BOOL},
    {"disableSafeChecks", SDK_BOOL},
    {"disableMuxSwitch", SDK_BOOL},
    {"cmdsBufferSize", SDK_INT},
    /* high-level API */
    {"nrThreadsPerRank", SDK_INT},
    {"dispatchOnAllRanksNrRanks", SDK_INT},
    /* Xeon SP transfer pool (PrIM's CPU-DPU passes nrThreadPerPool=8) */
    {"nrThreadPerPool", SDK_INT},
    {"poolThreshold1Thread", SDK_INT},
    {"poolThreshold2Threads", SDK_INT},
    {"poolThreshold4Threads", SDK_INT},
    {"poolThreshold", SDK_INT},
    /* functional simulator */
    {"nrDpusPerCi", SDK_INT},
    {"nrDpusPerCI", SDK_INT},
    {"nrCis", SDK_INT},
    {"iramSize", SDK_INT},
    {"mramSize", SDK_INT},
    {"wramSize", SDK_INT},
    {"hasDbgMram", SDK_BOOL},
    {"simulateCycleAccuracy", SDK_BOOL},
    {"pipelineDepth", SDK_INT},
    {"doProfiling", SDK_BOOL},
    {"profileInstruction", SDK_ANY},
    {"profileDma", SDK_ANY},
    {"profileMemory", SDK_ANY},
    {"profileIla", SDK_ANY},
    /* modelsim */
    {"modelsimMramFile", SDK_ANY},
    {"modelsimWorkDir", SDK_ANY},
    {"modelsimExecPath", SDK_ANY},
    {"modelsimTclScript", SDK_ANY},
    {"modelsimEnableGui", SDK_BOOL},
    {"modelsimBypassMramSwitch", SDK_BOOL},
    /* FPGA */
    {"reportFileName", SDK_ANY},
    {"analyzerEnabled", SDK_BOOL},
    {"analyzerFilteringEnabled", SDK_BOOL},
    {"mramBypassEnabled", SDK_BOOL},
    {"mramEmulateRefresh", SDK_INT},
    {"cycleAccurate", SDK_BOOL},
    /* hardware */
    {"regionMode", SDK_ANY},
    {"rankPath", SDK_ANY},
    {"ignoreVersion", SDK_BOOL},
    {"tryRepairIram", SDK_BOOL},
    {"tryRepairWram", SDK_BOOL},
    {"ignoreVpd", SDK_BOOL},
    {"frequencyAdjustment", SDK_ANY},
    {"clockDivisionMin", SDK_INT},
    {"clockDivisionMax", SDK_INT},
    {"dpuDrivenChannel", SDK_ANY},
    /* logs */
    {"enableDbgLogs", SDK_ANY},
    {"enableCmdsLogs", SDK_ANY},
    /* backup SPI */
    {"usbSerial", SDK_ANY},
    {"chipSelect", SDK_INT},
    /* Not a key of the SDK, which ignores unknown keys (it logs "unused
     * profile property" as a warning): UPMEM's own UPIS passes
     * nrJobPerRank=64, meaning nrJobsPerRank. Ignored as there. */
    {"nrJobPerRank", SDK_ANY},
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

/* An integer as the SDK reads one (strtol/strtoul, base 0: 8, 0x8, -1). */
static bool parse_sdk_int(const char *v)
{
    char *end;
    if (*v == '\0')
        return false;
    errno = 0;
    (void)strtoll(v, &end, 0);
    return errno == 0 && *end == '\0';
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
    if (!strcmp(k, "disabledDpus")) {
        if (p->disabled_by_machine) { /* an explicit list replaces the machine's */
            memset(p->rank_disabled, 0, HOST_MAX_RANKS * sizeof *p->rank_disabled);
            p->disabled_by_machine = false;
        }
        return parse_disabled_list(v, p);
    }
    if (!strcmp(k, "dispatchOnAllRanks"))
        return parse_bool(v, &p->dispatch_on_all_ranks);
    if (!strcmp(k, "disableResetOnAlloc"))
        return parse_bool(v, &p->disable_reset_on_alloc);
    if (!strcmp(k, "nrJobsPerRank"))
        return parse_u32(v, &p->nr_jobs_per_rank) && p->nr_jobs_per_rank >= 1;
    if (!strcmp(k, "sgXferEnable")) {
        /* the SDK reads a bool as "not false and not 0" */
        p->sg_xfer_enable = strcasecmp(v, "false") != 0 && strcmp(v, "0") != 0;
        return true;
    }
    if (!strcmp(k, "sgXferMaxBlocksPerDpu"))
        return parse_u32(v, &p->sg_max_blocks);
    if (!strcmp(k, "sampleDpus"))
        return parse_u32(v, &p->sample_dpus) && p->sample_dpus <= HOST_MAX_DPUS_PER_RANK;
    if (!strcmp(k, "sampleRanks"))
        return parse_u32(v, &p->sample_ranks) && p->sample_ranks <= HOST_MAX_RANKS;
    if (!strcmp(k, "sampleReuse"))
        return parse_bool(v, &p->sample_reuse);
    if (!strcmp(k, "hostClock")) { /* see emu_host_clock_t (model.h) */
        if (strcmp(v, "wall") && strcmp(v, "thread") && strcmp(v, "none"))
            return false;
        p->host_thread_clock = !strcmp(v, "thread");
        p->host_clock_none = !strcmp(v, "none");
        return true;
    }
    if (!strcmp(k, "hostTime")) {
        if (!strcmp(v, "modeled"))
            p->host_time = EMU_HOST_TIME_MODELED;
        else if (!strcmp(v, "real"))
            p->host_time = EMU_HOST_TIME_REAL;
        else
            return false;
        return true;
    }
    if (!strcmp(k, "machine")) /* applied first, from every source (emu_profile_build) */
        return true;
    if (!strcmp(k, "mode")) {
        if (!strcmp(v, "timed"))
            vp->mode = VDPU_MODE_TIMED;
        else if (!strcmp(v, "fast"))
            vp->mode = VDPU_MODE_FAST;
        else
            return false;
        return true;
    }
    if (!strcmp(k, "gdbserver")) { /* HOST:PORT, an IPv4 address or localhost (dpugdb.h) */
        const char *colon = strrchr(v, ':');
        uint32_t port, a[4];
        char host[64];
        size_t hl = colon ? (size_t)(colon - v) : 0;
        if (!colon || hl == 0 || hl >= sizeof host || !parse_u32(colon + 1, &port) ||
            port > 65535) {
            *why = "gdbserver=HOST:PORT wants an IPv4 address (or localhost) and a port 0..65535";
            return false;
        }
        memcpy(host, v, hl);
        host[hl] = '\0';
        if (!strcmp(host, "localhost")) {
            a[0] = 127, a[1] = 0, a[2] = 0, a[3] = 1;
        } else {
            char tail;
            if (sscanf(host, "%u.%u.%u.%u%c", &a[0], &a[1], &a[2], &a[3], &tail) != 4 ||
                a[0] > 255 || a[1] > 255 || a[2] > 255 || a[3] > 255) {
                *why = "gdbserver=HOST:PORT wants an IPv4 address (or localhost) and a port "
                       "0..65535";
                return false;
            }
        }
        p->gdb = true;
        p->gdb_addr = a[0] << 24 | a[1] << 16 | a[2] << 8 | a[3];
        p->gdb_port = port;
        return true;
    }
    if (!strcmp(k, "gdbDpu"))
        return parse_u32(v, &p->gdb_dpu);
    if (!strcmp(k, "profile")) { /* the DPU profile's file (dpuprof.h) */
        if (*v == '\0') {
            *why = "profile=FILE needs a file name (docs/PROFILING.md)";
            return false;
        }
        char *c = strdup(v);
        if (c == NULL)
            return false;
        free(p->dpu_profile);
        p->dpu_profile = c;
        return true;
    }
    if (!strcmp(k, "dmaRules") || !strcmp(k, "stopRules")) { /* vdpu_rules_t in vdpu.h */
        vdpu_rules_t r;
        if (!strcmp(v, "warn"))
            r = VDPU_RULES_WARN;
        else if (!strcmp(v, "quiet") || (!strcmp(v, "hardware") && k[0] == 'd'))
            r = VDPU_RULES_QUIET; /* dmaRules=hardware: its name before the warnings */
        else if (!strcmp(v, "strict"))
            r = VDPU_RULES_STRICT;
        else
            return false;
        *(k[0] == 'd' ? &vp->dma_rules : &vp->stop_rules) = r;
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
             * fixed costs (us) and powers (W) may be 0 */
            if (x == 0.0 && strcmp(emu_model_param_table[i].unit, "us") != 0 &&
                strcmp(emu_model_param_table[i].unit, "W") != 0)
                return false;
            memcpy((char *)&p->model + emu_model_param_table[i].offset, &x, sizeof x);
            return true;
        }
    }
    for (size_t i = 0; i < sizeof sdk_ignored_keys / sizeof sdk_ignored_keys[0]; i++)
        if (!strcmp(k, sdk_ignored_keys[i].key))
            return sdk_ignored_keys[i].type != SDK_INT || parse_sdk_int(v);
    return false;
}

/* Keys apply_kv knows by name (not through a table). */
static const char *const named_keys[] = {
    "backend",
    "nrRanks",
    "nrDpusPerRank",
    "disabledMask",
    "disabledDpus",
    "dispatchOnAllRanks",
    "disableResetOnAlloc",
    "nrJobsPerRank",
    "sampleDpus",
    "sampleRanks",
    "sampleReuse",
    "sgXferEnable",
    "sgXferMaxBlocksPerDpu",
    "hostClock",
    "hostTime",
    "machine",
    "mode",
    "dmaRules",
    "profile",
    "gdbserver",
    "gdbDpu",
    "stopRules",
};

/* Edit distance of a and b, case-insensitive, capped at 3 (a typo is 1-2). */
static unsigned edit_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > 63 || m > 63 || (n > m ? n - m : m - n) > 2)
        return 3;
    unsigned row[64];
    for (size_t j = 0; j <= m; j++)
        row[j] = (unsigned)j;
    for (size_t i = 1; i <= n; i++) {
        unsigned diag = row[0];
        row[0] = (unsigned)i;
        for (size_t j = 1; j <= m; j++) {
            unsigned up = row[j];
            unsigned sub =
                diag + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
            unsigned best = up + 1 < row[j - 1] + 1 ? up + 1 : row[j - 1] + 1;
            row[j] = sub < best ? sub : best;
            diag = up;
        }
    }
    return row[m] < 3 ? row[m] : 3;
}

/* The known key closest to an unknown one (a typo), or NULL. */
static const char *closest_key(const char *k)
{
    const char *best = NULL;
    unsigned bd = 3;
#define TRY_KEY(name)                                                                              \
    do {                                                                                           \
        unsigned d_ = edit_distance(k, (name));                                                    \
        if (d_ < bd) {                                                                             \
            bd = d_;                                                                               \
            best = (name);                                                                         \
        }                                                                                          \
    } while (0)
    for (size_t i = 0; i < sizeof named_keys / sizeof named_keys[0]; i++)
        TRY_KEY(named_keys[i]);
    for (unsigned i = 0; i < vdpu_param_count; i++)
        TRY_KEY(vdpu_param_table[i].key);
    for (unsigned i = 0; i < emu_model_param_count; i++)
        TRY_KEY(emu_model_param_table[i].key);
    for (size_t i = 0; i < sizeof sdk_ignored_keys / sizeof sdk_ignored_keys[0]; i++)
        TRY_KEY(sdk_ignored_keys[i].key);
#undef TRY_KEY
    return best;
}

static const emu_machine_t *machine_find(const char *name)
{
    for (unsigned i = 0; i < emu_machine_count; i++)
        if (!strcmp(name, emu_machine_table[i].name))
            return &emu_machine_table[i];
    return NULL;
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
    return !strcmp(k, "sampleDpus") || !strcmp(k, "sampleRanks") || !strcmp(k, "sampleReuse");
}

/* One line on stderr naming the refused item (the SDK logs invalid profiles
 * too); `source` says where it came from. */
static void refuse(const char *source, const char *item, const char *why)
{
    fprintf(stderr, "virtual UPMEM: profile (%s): %s: %s\n", source, item, why);
}

/* Whether apply_kv knows key k (its value may still be bad). */
static bool key_known(const char *k)
{
    for (size_t i = 0; i < sizeof named_keys / sizeof named_keys[0]; i++)
        if (!strcmp(k, named_keys[i]))
            return true;
    for (unsigned i = 0; i < vdpu_param_count; i++)
        if (!strcmp(k, vdpu_param_table[i].key))
            return true;
    for (unsigned i = 0; i < emu_model_param_count; i++)
        if (!strcmp(k, emu_model_param_table[i].key))
            return true;
    for (size_t i = 0; i < sizeof sdk_ignored_keys / sizeof sdk_ignored_keys[0]; i++)
        if (!strcmp(k, sdk_ignored_keys[i].key))
            return true;
    return false;
}

/* Refuses item k (=v) of source: names the key, and says why. */
static void refuse_item(const char *source, const char *k, const char *v, const char *why)
{
    char msg[256];
    if (why == NULL && key_known(k)) {
        snprintf(msg, sizeof msg, "invalid value \"%.64s\" (docs/VIRTUAL_UPMEM_HOST.md §5)", v);
    } else if (why == NULL) {
        const char *near = closest_key(k);
        if (near)
            snprintf(msg, sizeof msg, "unknown key (did you mean %s?)", near);
        else
            snprintf(msg, sizeof msg, "unknown key (docs/VIRTUAL_UPMEM_HOST.md §5)");
    } else {
        snprintf(msg, sizeof msg, "%s", why);
    }
    refuse(source, k, msg);
}

/* Which items of a source a pass applies: the machine first, from every
 * source, so that its keys lie below all explicit ones; then the rest. */
typedef enum { PASS_MACHINE, PASS_KEYS } pass_t;

static bool apply_text(profile_t *p, const char *text, const char *source, bool from_env,
                       pass_t pass)
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
            if (pass == PASS_KEYS) {
                refuse(source, item, "not of the form key=value");
                ok = false;
            }
            continue;
        }
        *eq = '\0';
        const char *k = trim(item), *v = trim(eq + 1), *why = NULL;
        if (pass == PASS_MACHINE) {
            if (strcmp(k, "machine") != 0)
                continue;
            p->machine = machine_find(v);
            if (p->machine == NULL) {
                char names[128] = "";
                for (unsigned i = 0; i < emu_machine_count; i++)
                    snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                             i ? ", " : "", emu_machine_table[i].name);
                char msg[192];
                snprintf(msg, sizeof msg, "unknown machine \"%.32s\" (known: %s)", v, names);
                refuse(source, k, msg);
                ok = false;
            }
        } else if (from_env && timing_only_key(k)) {
            refuse(source, k,
                   "a timing-only key (reads of unsimulated DPUs fail); a program asks for it "
                   "in its own dpu_alloc profile, not through the environment");
            ok = false;
        } else if (!apply_kv(p, k, v, &why)) {
            refuse_item(source, k, v, why);
            ok = false;
        }
    }
    free(copy);
    return ok;
}

/* All sources in increasing precedence, for one pass. */
static bool apply_sources(profile_t *p, const char *text, pass_t pass)
{
    /* the SDK's order: UPMEM_PROFILE_BASE < the program's string < UPMEM_PROFILE */
    return apply_text(p, getenv("UPMEM_PROFILE_BASE"), "UPMEM_PROFILE_BASE", true, pass) &&
           apply_text(p, text, "dpu_alloc", false, pass) &&
           apply_text(p, getenv("UPMEM_PROFILE"), "UPMEM_PROFILE", true, pass);
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
    bool ok = apply_sources(p, text, PASS_MACHINE);
    if (ok && p->machine != NULL) {
        char source[48];
        snprintf(source, sizeof source, "machine=%s", p->machine->name);
        ok = apply_text(p, p->machine->keys, source, false, PASS_KEYS);
        p->disabled_by_machine = strstr(p->machine->keys, "disabledDpus=") != NULL;
    }
    if (ok && !apply_sources(p, text, PASS_KEYS))
        ok = false;
    if (ok && !p->sg_xfer_enable && p->sg_max_blocks > 0) {
        /* the SDK refuses a block limit without scatter/gather (dpu_set.c) */
        refuse("all sources", "sgXferMaxBlocksPerDpu", "needs sgXferEnable=true");
        ok = false;
    }
    if (!ok || (bad = vdpu_params_check(&p->vdpu)) != NULL) {
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
    free(p->dpu_profile);
    p->dpu_profile = NULL;
}
