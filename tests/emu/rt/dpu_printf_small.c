/* dpu_printf_small.c -- a 64-byte printf buffer (NR_TASKLETS=1).
 * mode 0: two short records (fit); mode 1: many records (the ring wraps);
 * mode 2: one record longer than the buffer (fault PRINTF_OVERFLOW). */
#include <defs.h>
#include <stdint.h>
#include <stdio.h>

STDOUT_BUFFER_INIT(64);

__host uint32_t mode;

int main(void)
{
    if (mode == 0) {
        printf("a%d\n", 1);
        printf("b%d\n", 2);
    } else if (mode == 1) {
        for (int i = 0; i < 10; i++)
            printf("line %d\n", i);
    } else {
        printf("%s\n", "this string is far too long to fit in a sixty-four byte buffer!!");
    }
    return 0;
}
