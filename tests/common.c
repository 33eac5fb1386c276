/* common.c -- helpers of the unit tests that use libcryptopim. */
#include "common.h"

#include <stdio.h>
#include <string.h>

#include "cryptopim.h"
#include "test.h"

int test_require_backend(const char *name)
{
    /* test_skip keeps the pointer until the verdict is printed, and the
     * runner runs one test at a time: one buffer is enough. */
    static char why[256];
    cpim_backend_info info;
    memset(&info, 0, sizeof info);
    if (cpim_backend_info_by_name(name, &info) == CPIM_OK && info.available)
        return 1;
    snprintf(why, sizeof why, "backend %s unavailable: %s", name,
             info.why && *info.why ? info.why : "unknown backend");
    test_skip(why);
    return 0;
}
