/* iram_big.c -- more than 4096 instructions: must be rejected at link. */
#include <defs.h>
volatile uint32_t v;
#define A v = v * 3 + 1;
#define B A A A A A A A A A A
#define C B B B B B B B B B B
#define D C C C C C C C C C C
int main(void)
{
    D D return 0;
}
