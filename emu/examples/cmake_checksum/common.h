/* Host/DPU contract of the CMake checksum example. */
#ifndef CMAKE_CHECKSUM_COMMON_H
#define CMAKE_CHECKSUM_COMMON_H
#include <stdint.h>

#define BLOCK_BYTES 256 /* bytes per DMA (multiple of 8, <= 2048) */
#endif
