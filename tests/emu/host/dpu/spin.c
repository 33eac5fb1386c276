/* Test kernel for the default watchdog (profile key maxCycles): every
 * tasklet loops forever in spin(); on the hardware the launch would never
 * end, here it fails once the cycle budget is spent (test_host.c,
 * t_watchdog). */
#include <defs.h>
#include <stdint.h>

volatile uint32_t ticks;

__attribute__((noinline)) void spin(void)
{
    for (;;)
        ticks++;
}

int main(void)
{
    spin();
    return 0;
}
