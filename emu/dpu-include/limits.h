/* limits.h -- the DPU libc's <limits.h> (virtual UPMEM): the compiler's
 * limits for this ABI, plus what the SDK's <limits.h> also defines: the
 * <stdint.h> limits and constant macros (INT32_MAX, SIZE_MAX, UINT64_C...),
 * which the SDK declares here and includes from <stdint.h>, and WORD_BIT and
 * LONG_BIT. The values are the virtual DPU's own (riscv32: `long` is 32-bit,
 * LONG_MAX is 2^31-1; on the DPU it is 64-bit), like every type size here. */
#ifndef _DPU_LIMITS_H_
#define _DPU_LIMITS_H_

#include_next <limits.h>
#include <stdint.h>

#ifndef WORD_BIT
#define WORD_BIT 32
#endif
#ifndef LONG_BIT
#define LONG_BIT 32
#endif

#endif
