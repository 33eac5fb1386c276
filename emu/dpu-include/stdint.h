/* stdint.h -- the DPU libc's <stdint.h> (virtual UPMEM): the compiler's
 * fixed-width types, plus <limits.h>, which the SDK's <stdint.h> includes
 * (a DPU program may use INT_MAX or UINT_MAX after including only this). */
#ifndef _DPU_STDINT_H_
#define _DPU_STDINT_H_

#include <limits.h>
#include_next <stdint.h>

#endif
