/* sysdef.h -- system types (virtual UPMEM, SDK names). */
#ifndef _DPU_SYSDEF_H_
#define _DPU_SYSDEF_H_
/* as the SDK's: no includes (defs.h includes this one) */
typedef unsigned int thread_id_t;
typedef unsigned int sysname_t;
#endif
