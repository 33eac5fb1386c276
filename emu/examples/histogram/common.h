/* Host/DPU contract of the histogram example. */
#ifndef HISTO_COMMON_H
#define HISTO_COMMON_H
#include <stdint.h>

#define NR_BINS     256
#define BLOCK_BYTES 512 /* on the 1 KiB tasklet stack */
#endif
