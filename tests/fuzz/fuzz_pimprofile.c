/*
 * fuzz_pimprofile.c -- fuzz target: the pim backend's profile string, as
 * cpim_open sees it (src/pim/profile.c splits off its own keys mramBudget,
 * directMin, failAt and checks sampleDpus against timing_only, then hands
 * the rest to dpu_alloc on the virtual UPMEM).  First byte: bit 0 sets
 * cpim_options.timing_only, bits 1-2 the host mode; the rest is the
 * profile.  An accepted profile opens one DPU and is closed again.
 *
 * Beyond "no crash": a profile naming sampleDpus opens only for a
 * timing-only context (a model shortcut never reaches a normal one).
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cryptopim.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* the virtual UPMEM also reads these: the input alone decides */
    unsetenv("UPMEM_PROFILE");
    unsetenv("UPMEM_PROFILE_BASE");
    unsetenv("UPMEM_TRACE");
    return 0;
}

/* Does the profile set sampleDpus (an item "sampleDpus=..." after optional
 * blanks, as the parsers trim them)? */
static int sets_sample_dpus(const char *t)
{
    for (const char *item = t; item; item = strchr(item, ',') ? strchr(item, ',') + 1 : NULL) {
        while (isspace((unsigned char)*item))
            item++;
        if (strncmp(item, "sampleDpus", 10) == 0) {
            const char *r = item + 10;
            while (isspace((unsigned char)*r))
                r++;
            if (*r == '=')
                return 1;
        }
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    cpim_options o;
    cpim_options_init(&o);
    o.dpus = 1;
    o.tasklets = 1;
    o.timing_only = data[0] & 1;
    o.mode = (cpim_pim_mode)((data[0] >> 1) % 3);
    o.profile = text;
    cpim_ctx *ctx = NULL;
    cpim_err rc = cpim_open(&ctx, "pim", &o);
    if (rc == CPIM_OK && !o.timing_only && sets_sample_dpus(text))
        abort();
    if ((rc == CPIM_OK) != (ctx != NULL))
        abort();
    cpim_close(ctx);
    free(text);
    return 0;
}
