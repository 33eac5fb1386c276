/* Every tasklet prints one line; the host replays them with dpu_log_read. */
#include <defs.h>
#include <stdint.h>
#include <stdio.h>

#include "../common.h"

__host int32_t dpu_number;

int main(void)
{
    printf("tasklet %u of %u on DPU %d: %d squared is %d\n", me(), NR_TASKLETS, dpu_number,
           dpu_number, dpu_number * dpu_number);
    return 0;
}
