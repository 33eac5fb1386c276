/* sysdef.h -- system types (virtual UPMEM, SDK names). */
#ifndef _DPU_SYSDEF_H_
#define _DPU_SYSDEF_H_
#include <defs.h>
typedef uint32_t thread_id_t;
#endif
