/* dpu_libc.c -- the DPU libc as the SDK ships it (NR_TASKLETS=2): includes
 * every header of the SDK's libc (assert ctype errno float inttypes iso646
 * limits stdalign stdarg stdbool stddef stdint stdio stdlib stdnoreturn
 * string), and tasklet 0 prints the results of libc_cases.h, which rt_run
 * compares with the same code run on glibc; then the PRI macros through the
 * printf function (not the macro) and the ABI facts. Tasklet 1 calls exit()
 * through a pointer: the code after it must not run. */
#include <alloc.h>
#include <assert.h>
#include <buddy_alloc.h>
#include <ctype.h>
#include <defs.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <iso646.h>
#include <limits.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>

/* in the SDK's library (and this runtime), not in <string.h> */
char *strdup(const char *s);
char *strndup(const char *s, size_t n);

#define OUT(fmt, ...) printf(fmt "\n", __VA_ARGS__)
#include "libc_cases.h"

__host uint32_t after_exit;
__host int32_t stack_left;
__host uint32_t float_ok;

int main(void)
{
    if (me() == 1) {
        void (*volatile stop)(int) = exit;
        stop(7);
        after_exit = 1;
        return 0;
    }
    after_exit = 0;
    mem_reset();
    buddy_init(2048);
    libc_cases();
    uint64_t big = 18446744073709551557ULL;
    (printf)("== plain %" PRIu64 " %" PRId64 " %" PRIx64 " %" PRIX64 " %" PRIo64 " %" PRIu32
             " %" PRIdPTR " %" PRIuMAX "\n",
             big, (int64_t)-9000000000000000001LL, big, big, big, (uint32_t)4000000000u,
             (intptr_t)-3, (uintmax_t)big);
    printf("== dpu %u %u %u %u %d %d %d\n", (unsigned)sizeof(size_t), (unsigned)sizeof(void *),
           (unsigned)sizeof(long), (unsigned)sizeof(long long), SIZE_MAX == UINT32_MAX, LONG_BIT,
           WORD_BIT);
    float_ok = FLT_MANT_DIG == 24 && DBL_MANT_DIG == 53;
    stack_left = check_stack();
    return 0;
}
