/* Test kernel: printf from tasklet 0. */
#include <defs.h>
#include <stdio.h>

__host uint32_t value;

int main(void)
{
    if (me() == 0)
        printf("hello %u from the DPU\n", value);
    return 0;
}
