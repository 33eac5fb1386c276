/* persist.c -- globals keep their values across runs until reloaded; the
 * atomic bits are cleared at each boot. */
#include <atomic_bit.h>
#include <defs.h>
#include <mram.h>

#include "../../../emu/vdpu/abi.h"
__host uint32_t counter;     /* .bss  */
__host uint32_t initd = 100; /* .data */
__mram uint64_t mcount;
static uint8_t __atomic_bit lock;
int main(void)
{
    /* bit taken and never released: next boot must still get it */
    vdpu_ecall1(VDPU_SYS_ACQUIRE, (uint32_t)&lock);
    counter++;
    initd++;
    mcount = mcount + 1; /* direct MRAM access */
    return 0;
}
