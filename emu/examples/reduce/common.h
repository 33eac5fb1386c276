/* Host/DPU contract of the reduction example. */
#ifndef REDUCE_COMMON_H
#define REDUCE_COMMON_H
#include <stdint.h>

#define BLOCK_BYTES 512 /* on the 1 KiB tasklet stack */
#define BLOCK_ELEMS (BLOCK_BYTES / sizeof(uint64_t))
#endif
