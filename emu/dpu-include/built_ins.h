/* built_ins.h -- the SDK's DPU instruction built-ins that portable programs
 * use (virtual UPMEM). Only the ones with an RV32 equivalent are provided. */
#ifndef _DPU_BUILT_INS_H_
#define _DPU_BUILT_INS_H_
#define __builtin_nop_() __asm__ volatile("nop")
#endif
