/* Host/DPU contract of the printf example. */
#ifndef PRINTF_COMMON_H
#define PRINTF_COMMON_H
#include <stdint.h>
#endif
