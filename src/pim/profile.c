/*
 * profile.c -- the `pim` backend's own profile keys (mramBudget, directMin,
 * failAt, nttSched, nttBlock: backend.c's header), taken out of
 * cpim_options.profile before the rest goes to dpu_alloc.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aes_args.h"
#include "cryptopim.h"
#include "pim_internal.h"
#include "pim_state.h"

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
/* Our own kernels keep the DMA rules and never leave tasklets stopped, so
 * on the virtual UPMEM a breach is a bug of ours: it faults (an error of the
 * call, never the hardware's lenient but different answer) instead of the
 * default warning.  First in the string, so the caller's profile and
 * UPMEM_PROFILE can still say otherwise. */
#define STRICT_RULES_PROFILE "dmaRules=strict,stopRules=strict"
#else
#define STRICT_RULES_PROFILE "" /* the real SDK has no such keys */
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
cpim_err cpim_pim_parse_profile(struct cpim_pim_state *s, const char *in, char **out)
{
    s->budget = DEFAULT_BUDGET;
    s->direct_min = DIRECT_MIN_BYTES;
    size_t n = in ? strlen(in) : 0;
    char *p = malloc(n + 1), *o = p ? malloc(n + sizeof ",sampleDpus=1" + sizeof ",hostTime=real" +
                                             sizeof STRICT_RULES_PROFILE ",")
                                    : NULL;
    if (!p || !o) {
        free(p);
        return CPIM_ERR_NOMEM;
    }
    memcpy(p, in ? in : "", n + 1);
    strcpy(o, STRICT_RULES_PROFILE);
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
        if (item_value(tok, "sampleRanks") || item_value(tok, "sampleReuse"))
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
