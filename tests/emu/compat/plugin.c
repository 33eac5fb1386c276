/* Host style: UPMEM host code in a shared object that the application
 * dlopen()s (plugins, language bindings); the object links the shared
 * libdpu, the application does not. */
#include <dpu.h>
#include <stdint.h>

int plugin_run(const char *binary, uint64_t *out);

/* Runs the kernel on 2 DPUs over 1000 words of 1; *out = the sum of their
 * results. 0 on success, else the dpu_error_t. */
int plugin_run(const char *binary, uint64_t *out)
{
    struct dpu_set_t set, dpu;
    static uint32_t words[1000];
    uint32_t n = 1000, factor = 2;
    for (uint32_t k = 0; k < n; k++)
        words[k] = 1;
    dpu_error_t err = dpu_alloc(2, NULL, &set);
    if (err != DPU_OK)
        return (int)err;
    err = dpu_load(set, binary, NULL);
    if (err == DPU_OK)
        err = dpu_broadcast_to(set, "n_words", 0, &n, sizeof n, DPU_XFER_DEFAULT);
    if (err == DPU_OK)
        err = dpu_broadcast_to(set, "factor", 0, &factor, sizeof factor, DPU_XFER_DEFAULT);
    if (err == DPU_OK)
        err = dpu_broadcast_to(set, DPU_MRAM_HEAP_POINTER_NAME, 0, words, sizeof words,
                               DPU_XFER_DEFAULT);
    if (err == DPU_OK)
        err = dpu_launch(set, DPU_SYNCHRONOUS);
    *out = 0;
    DPU_FOREACH (set, dpu) {
        uint64_t r = 0;
        if (err == DPU_OK)
            err = dpu_copy_from(dpu, "result", 0, &r, sizeof r);
        *out += r;
    }
    dpu_free(set);
    return (int)err;
}
