/* soft_cache.h -- the SDK's header of this name declares nothing today (a
 * software MRAM cache it once had); kept so that programs including it
 * build, with the same include. */
#ifndef _DPU_SOFT_CACHE_H_
#define _DPU_SOFT_CACHE_H_
#include <attributes.h>
#endif
