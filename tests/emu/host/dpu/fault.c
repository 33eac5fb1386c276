/* Test kernel: faults (halt) in tasklet 3 when `do_fault` is set. */
#include <defs.h>
#include <stdint.h>

__host uint32_t do_fault;
__host uint32_t done;

int main(void)
{
    if (do_fault && me() == 3)
        halt();
    if (me() == 0)
        done = 1;
    return 0;
}
