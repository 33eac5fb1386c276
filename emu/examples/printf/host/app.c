/* DPU printf: launch, then dpu_log_read on every DPU (to stdout, and into a
 * memory stream that is checked line by line). */
#include <dpu.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common.h"

#ifndef DPU_BINARY
#define DPU_BINARY "./bin/dpu_task"
#endif

int main(void)
{
    struct dpu_set_t set, dpu;
    uint32_t i, nr_dpus, bad = 0;
    DPU_ASSERT(dpu_alloc(NR_DPUS, NULL, &set));
    DPU_ASSERT(dpu_load(set, DPU_BINARY, NULL));
    DPU_ASSERT(dpu_get_nr_dpus(set, &nr_dpus));
    DPU_FOREACH (set, dpu, i) {
        int32_t v = (int32_t)i + 1;
        DPU_ASSERT(dpu_copy_to(dpu, "dpu_number", 0, &v, sizeof v));
    }
    DPU_ASSERT(dpu_launch(set, DPU_SYNCHRONOUS));
    DPU_FOREACH (set, dpu, i) {
        DPU_ASSERT(dpu_log_read(dpu, stdout));
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        DPU_ASSERT(dpulog_read_for_dpu(dpu.dpu, f));
        fclose(f);
        for (uint32_t t = 0; t < NR_TASKLETS; t++) {
            char line[128];
            snprintf(line, sizeof line, "tasklet %u of %u on DPU %u: %u squared is %u\n", t,
                     NR_TASKLETS, i + 1, i + 1, (i + 1) * (i + 1));
            bad += strstr(text, line) == NULL;
        }
        free(text);
    }
    DPU_ASSERT(dpu_free(set));
    if (bad) {
        printf("FAIL example_printf: %u expected lines missing\n", bad);
        return 1;
    }
    printf("PASS example_printf (%u DPUs x %u tasklets)\n", nr_dpus, NR_TASKLETS);
    return 0;
}
