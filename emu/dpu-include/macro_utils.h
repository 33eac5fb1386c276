/* macro_utils.h -- token helpers used by the DPU headers (SDK names). */
#ifndef _DPU_MACRO_UTILS_H_
#define _DPU_MACRO_UTILS_H_
#ifndef __CONCAT
#define __CONCAT_(a, b) a##b
#define __CONCAT(a, b)  __CONCAT_(a, b)
#endif
#ifndef __STR
#define __STR_(x) #x
#define __STR(x)  __STR_(x)
#endif
#endif
