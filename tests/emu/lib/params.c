/*
 * tests/emu/lib/params.c -- the parameter tables against the profile parser
 * and the documentation.
 *
 * For every row of vdpu_param_table (emu/vdpu/params.c) and of
 * emu_model_param_table (emu/host/profile.c): the key has a row
 * "| `key` | default | ..." in docs/VIRTUAL_UPMEM_HOST.md whose default is
 * the table's; dpu_alloc accepts the key at its default; and for the
 * virtual DPU's rows, a value below the range is refused
 * (DPU_ERR_INVALID_PROFILE) and the field's size matches the row's type.
 * For every named machine (emu_machine_table, key machine=NAME): the doc
 * has its row "| `name` | `keys` |" with the preset's exact keys, and
 * dpu_alloc accepts machine=NAME.
 *
 * Usage: params docs/VIRTUAL_UPMEM_HOST.md. One group on the harness of tests/test.h:
 * one verdict per parameter and check.
 *        params --rows: prints the doc's rows for vdpu_param_table (markdown).
 */
#include <dpu.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "test.h"

static void result(const char *name, const char *key, const char *why)
{
    char full[160];
    snprintf(full, sizeof full, "%s_%s", name, key);
    if (why == NULL)
        test_pass(full);
    else
        test_failf(full, "%s", why);
}

/* The default written in the doc's row for key, or NAN if there is none. */
static double doc_default(const char *doc, const char *key)
{
    char head[96];
    snprintf(head, sizeof head, "\n| `%s` | ", key);
    const char *at = strstr(doc, head);
    return at ? strtod(at + strlen(head), NULL) : NAN;
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    char *buf = NULL;
    size_t len = 0, got;
    char chunk[4096];
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        char *nb = realloc(buf, len + got + 1);
        if (nb == NULL)
            break;
        buf = nb;
        memcpy(buf + len, chunk, got);
        len += got;
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

/* DPU_OK or the error of a one-DPU allocation with this profile. */
static dpu_error_t alloc_with(const char *key, const char *value)
{
    char prof[160];
    snprintf(prof, sizeof prof, "nrRanks=1,nrDpusPerRank=1,%s=%s", key, value);
    struct dpu_set_t set;
    dpu_error_t err = dpu_alloc(1, prof, &set);
    if (err == DPU_OK)
        dpu_free(set);
    return err;
}

static const char *doc_check(const char *doc, const char *key, double def)
{
    static char why[160];
    double d = doc_default(doc, key);
    if (isnan(d))
        return "no row \"| `key` | default |\" in docs/VIRTUAL_UPMEM_HOST.md";
    if (fabs(d - def) > 1e-9 * fabs(def)) {
        snprintf(why, sizeof why, "the doc says %g, the table %g", d, def);
        return why;
    }
    return NULL;
}

/* The valid range of a row as the doc writes it. */
static void range_text(const vdpu_param_desc_t *d, char *out, size_t n)
{
    double type_max = d->type == VDPU_PARAM_U32 ? 4294967295.0 : 18446744073709551615.0;
    if (d->type == VDPU_PARAM_DOUBLE || d->hi >= type_max)
        snprintf(out, n, "%s %g", d->lo_excluded ? ">" : ">=", d->lo);
    else
        snprintf(out, n, "%g..%g", d->lo, d->hi);
}

static char *doc;
static void checks(void);

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--rows")) {
        char range[64];
        for (unsigned i = 0; i < vdpu_param_count; i++) {
            const vdpu_param_desc_t *d = &vdpu_param_table[i];
            range_text(d, range, sizeof range);
            printf("| `%s` | %g | %s | %s | %s |\n", d->key, d->def, d->unit, range, d->source);
        }
        return 0;
    }
    doc = argc == 2 ? read_all(argv[1]) : NULL;
    if (doc == NULL) {
        /* no PLAN line: tests/run.sh reports the command as failed */
        fprintf(stderr, "usage: params docs/VIRTUAL_UPMEM_HOST.md (readable)\n");
        return 2;
    }
    /* the verdicts checks() reports: the same conditions as its loops */
    size_t count = 2 * (size_t)emu_model_param_count + 2 * (size_t)emu_machine_count;
    for (unsigned i = 0; i < vdpu_param_count; i++) {
        const vdpu_param_desc_t *d = &vdpu_param_table[i];
        count +=
            3 + (d->lo > 0 || d->lo_excluded) + (d->type == VDPU_PARAM_U32 && d->hi < 4294967295.0);
    }
    test_register_group("emu_params", checks, count);
    int status = test_main(1, argv);
    free(doc);
    return status;
}

static void checks(void)
{
    char val[64];
    for (unsigned i = 0; i < vdpu_param_count; i++) {
        const vdpu_param_desc_t *d = &vdpu_param_table[i];
        result("emu_params_doc", d->key, doc_check(doc, d->key, d->def));
        size_t want = d->type == VDPU_PARAM_U32 ? 4 : 8;
        result("emu_params_type", d->key, d->size == want ? NULL : "field size != type size");
        snprintf(val, sizeof val, "%.17g", d->def);
        result("emu_params_default_accepted", d->key,
               alloc_with(d->key, val) == DPU_OK ? NULL : "the profile refused the default");
        if (d->lo > 0 || d->lo_excluded) {
            snprintf(val, sizeof val, "%.17g", d->lo_excluded ? d->lo : d->lo - 1);
            result("emu_params_below_range_refused", d->key,
                   alloc_with(d->key, val) == DPU_ERR_INVALID_PROFILE ? NULL
                                                                      : "accepted below its range");
        }
        if (d->type == VDPU_PARAM_U32 && d->hi < 4294967295.0) {
            snprintf(val, sizeof val, "%.17g", d->hi + 1);
            result("emu_params_above_range_refused", d->key,
                   alloc_with(d->key, val) == DPU_ERR_INVALID_PROFILE ? NULL
                                                                      : "accepted above its range");
        }
    }
    for (unsigned i = 0; i < emu_model_param_count; i++) {
        const model_param_desc_t *d = &emu_model_param_table[i];
        result("emu_params_doc", d->key, doc_check(doc, d->key, d->def));
        snprintf(val, sizeof val, "%.17g", d->def);
        result("emu_params_default_accepted", d->key,
               alloc_with(d->key, val) == DPU_OK ? NULL : "the profile refused the default");
    }
    for (unsigned i = 0; i < emu_machine_count; i++) {
        const emu_machine_t *m = &emu_machine_table[i];
        char row[256];
        snprintf(row, sizeof row, "\n| `%s` | `%s` |", m->name, m->keys);
        result("emu_params_doc_machine", m->name,
               strstr(doc, row) ? NULL : "no row | `name` | `keys` | with the preset's keys");
        result("emu_params_machine_accepted", m->name,
               alloc_with("machine", m->name) == DPU_OK ? NULL : "dpu_alloc refused it");
    }
}
