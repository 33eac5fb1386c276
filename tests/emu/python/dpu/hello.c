/* Hello world through the DPU log: each tasklet prints its id. */
#include <defs.h>
#include <stdio.h>

__host uint32_t greeting_id;

int main(void)
{
    printf("Hello World from tasklet %u (greeting %u)\n", me(), greeting_id);
    return 0;
}
