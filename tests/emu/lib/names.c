/*
 * tests/emu/lib/names.c -- a UPMEM host program that defines, as its own
 * functions and variables, every internal name libdpu.a used to export
 * (set_check, pool_for, op_new, profile_build, model_*, ...), links
 * against libdpu.a and runs a DPU program. Before the library's internal
 * names carried the emu_/vdpu_ prefix this did not link (multiple
 * definitions); it must link, and the library must work, and the names
 * must stay the program's own.
 *
 * Usage: names path/to/basic.dpu (tests/emu/host/dpu/basic.c).
 * Two tests on the harness of tests/test.h (one group: one library set-up).
 */
#include <dpu.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "test.h"

/* The names libdpu.a exported before (nm -g --defined-only), minus the
 * UPMEM API and vdpu_*. Each becomes a function returning its position. */
#define FORMER_NAMES(X)                                                                            \
    X(allocs_foreach_rank)                                                                         \
    X(api_cb_begin)                                                                                \
    X(api_cb_end)                                                                                  \
    X(api_enter)                                                                                   \
    X(api_exit)                                                                                    \
    X(api_mark_worker)                                                                             \
    X(dpu_id_of)                                                                                   \
    X(dpulog_read)                                                                                 \
    X(dpulog_strerror)                                                                             \
    X(host_wall)                                                                                   \
    X(model_api_enter)                                                                             \
    X(model_api_exit)                                                                              \
    X(model_host_advance_to)                                                                       \
    X(model_host_now)                                                                              \
    X(model_job_end)                                                                               \
    X(model_job_start)                                                                             \
    X(model_launch_cost)                                                                           \
    X(model_note_launch)                                                                           \
    X(model_params_default)                                                                        \
    X(model_rank_end)                                                                              \
    X(model_rank_reset)                                                                            \
    X(model_rank_set_end)                                                                          \
    X(model_set_host_clock)                                                                        \
    X(model_xfer_cost)                                                                             \
    X(op_exec)                                                                                     \
    X(op_new)                                                                                      \
    X(op_note_done)                                                                                \
    X(op_put)                                                                                      \
    X(op_submit)                                                                                   \
    X(own_has)                                                                                     \
    X(own_pop)                                                                                     \
    X(own_push)                                                                                    \
    X(pool_for)                                                                                    \
    X(profile_build)                                                                               \
    X(profile_release)                                                                             \
    X(program_put)                                                                                 \
    X(rank_stop_worker)                                                                            \
    X(ranks_quiesce)                                                                               \
    X(set_check)

/* Their positions, then the functions (a prototype first: the program's own
 * declarations of its own external functions). */
#define AS_ENUM(n) POS_##n,
enum { FORMER_NAMES(AS_ENUM) NR_NAMES };
#define AS_FUNC(n)                                                                                 \
    int n(void);                                                                                   \
    int n(void)                                                                                    \
    {                                                                                              \
        return POS_##n;                                                                            \
    }
FORMER_NAMES(AS_FUNC)
#define AS_ENTRY(n) {#n, n},
static const struct {
    const char *name;
    int (*fn)(void);
} own[] = {FORMER_NAMES(AS_ENTRY)};

/* the two former variables */
unsigned model_param_count = 7;
const char *model_param_table[] = {"the program's own"};

static void check(int ok, const char *name, const char *why)
{
    if (ok)
        test_pass(name);
    else
        test_failf(name, "%s", why);
}

static const char *basic_dpu;

static void names(void)
{
    int mine = NR_NAMES == sizeof own / sizeof own[0] && model_param_count == 7 &&
               !strcmp(model_param_table[0], "the program's own");
    for (int i = 0; i < NR_NAMES; i++)
        mine = mine && own[i].fn() == i;
    check(mine, "emu_lib_names_stay_the_programs", "a name resolved into libdpu.a");

    /* the library still works: 2 DPUs double 8 values plus a bias */
    struct dpu_set_t set, dpu;
    uint64_t in[8], bias = 1, want = 0;
    uint32_t n = 8;
    for (uint32_t i = 0; i < n; i++) {
        in[i] = 100 + i;
        want += in[i] * 2 + bias;
    }
    dpu_error_t err = dpu_alloc(2, "nrRanks=1,nrDpusPerRank=2", &set);
    if (err == DPU_OK)
        err = dpu_load(set, basic_dpu, NULL);
    if (err == DPU_OK)
        err = dpu_broadcast_to(set, "n_elems", 0, &n, sizeof n, DPU_XFER_DEFAULT);
    if (err == DPU_OK)
        err = dpu_broadcast_to(set, "bias", 0, &bias, sizeof bias, DPU_XFER_DEFAULT);
    if (err == DPU_OK)
        err = dpu_broadcast_to(set, DPU_MRAM_HEAP_POINTER_NAME, 0, in, sizeof in, DPU_XFER_DEFAULT);
    if (err == DPU_OK)
        err = dpu_launch(set, DPU_ASYNCHRONOUS);
    if (err == DPU_OK)
        err = dpu_sync(set);
    int right = err == DPU_OK, seen = 0;
    DPU_FOREACH (set, dpu) {
        uint64_t got = 0;
        if (err == DPU_OK)
            err = dpu_copy_from(dpu, "result", 0, &got, sizeof got);
        right = right && err == DPU_OK && got == want;
        seen++;
    }
    if (err == DPU_OK)
        err = dpu_free(set);
    char why[160];
    snprintf(why, sizeof why, "error %d (%s), %d DPUs", (int)err,
             err == DPU_OK ? "none" : "see dpu_error_to_string", seen);
    check(right && err == DPU_OK && seen == 2, "emu_lib_names_libdpu_runs", why);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        /* no PLAN line: tests/run.sh reports the command as failed */
        fprintf(stderr, "usage: names basic.dpu\n");
        return 2;
    }
    basic_dpu = argv[1];
    test_register_group("emu_lib_names", names, 2);
    return test_main(1, argv);
}
