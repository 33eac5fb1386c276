/* assert.h -- a failed assert faults the DPU (VDPU_FAULT_ASSERT). */
#include <dpufault.h> /* as the SDK's assert.h */
#include <macro_utils.h>

#include "../vdpu/abi.h"
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define __VDPU_ASTR_(x) #x
#define __VDPU_ASTR(x)  __VDPU_ASTR_(x)
#define assert(e)                                                                                  \
    ((e) ? (void)0                                                                                 \
         : (void)vdpu_ecall2(                                                                      \
               VDPU_SYS_FAULT, VDPU_FAULT_ASSERT,                                                  \
               (uint32_t)("assertion failed: " #e " (" __FILE__ ":" __VDPU_ASTR(__LINE__) ")")))
#endif
#ifndef static_assert
#define static_assert _Static_assert
#endif
