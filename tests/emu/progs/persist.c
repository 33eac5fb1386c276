/* persist.c -- globals keep their values across runs until reloaded; sync
 * state (locks) is reset at each boot. */
#include <defs.h>
#include <mram.h>

#include "../../../emu/vdpu/abi.h"
__host uint32_t counter;     /* .bss  */
__host uint32_t initd = 100; /* .data */
__mram uint64_t mcount;
static uint8_t lock;
int main(void)
{
    /* lock taken and never released: next boot must still get it */
    vdpu_ecall1(VDPU_SYS_LOCK_ACQUIRE, (uint32_t)&lock);
    counter++;
    initd++;
    mcount = mcount + 1; /* direct MRAM access */
    return 0;
}
