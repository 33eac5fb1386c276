/* errno.c -- the one errno of the DPU (shared by all tasklets, as in the SDK). */
#include <errno.h>
int errno;
