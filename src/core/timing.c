/* timing.c -- cpim_now (cryptopim.h): the one measured clock. */
#define _POSIX_C_SOURCE 200809L
#include <time.h>

#include "cryptopim.h"

double cpim_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
