/* dpu_printf.c -- printf records (NR_TASKLETS=4). Tasklet 0 prints the
 * PRINTF_CASES list and the special cases below; then every tasklet prints
 * LINES lines "tasklet T line L" concurrently. */
#include <barrier.h>
#include <defs.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "printf_cases.h"

#define LINES 10

BARRIER_INIT(bar, NR_TASKLETS);

int main(void)
{
    if (me() == 0) {
#define X(...) printf(__VA_ARGS__);
        PRINTF_CASES(X)
#undef X
        /* %s contents are copied: later changes to the buffer do not show */
        char buf[16];
        strcpy(buf, "before");
        printf("copy=%s\n", buf);
        strcpy(buf, "after!");
        /* a format that is not in .rodata is copied too */
        char fmt[16];
        strcpy(fmt, "stackfmt %d\n");
        printf(fmt, 5);
        strcpy(fmt, "garbage %d\n");
        puts("puts line");
        putchar('P');
        putchar('\n');
        /* the plain function (sizes taken from the format) */
        (printf)("func %d %lld %s %c\n", 1, (long long)-2, "three", '4');
    }
    barrier_wait(&bar);
    for (int l = 0; l < LINES; l++)
        printf("tasklet %u line %d\n", me(), l);
    return 0;
}
