/* vmutex.h -- virtual mutexes: NB_VMUTEXES independent locks
 * (virtual UPMEM, SDK names). VMUTEX_INIT(name, NB_VMUTEXES, NB_MUTEXES) at
 * file scope; vmutex_lock(&name, id) / vmutex_unlock(&name, id) with
 * id < NB_VMUTEXES (<= 65536). Each id is its own lock (no false sharing, as
 * in the SDK); NB_MUTEXES (the hardware bits the SDK spreads them over) only
 * affects contention on hardware and is recorded but unused here. Lock keys are
 * (address of the object << 16) | id, never equal to a WRAM address. */
#ifndef _DPU_VMUTEX_H_
#define _DPU_VMUTEX_H_

#include <stdint.h>

#include "../vdpu/abi.h"

typedef struct vmutex {
    uint32_t nb_vmutexes;
    uint32_t nb_mutexes;
} vmutex_t;

#define VMUTEX_INIT(_name, _nb_vmutexes, _nb_mutexes)                                              \
    _Static_assert((_nb_vmutexes) > 0 && (_nb_vmutexes) <= 65536,                                  \
                   "VMUTEX_INIT: 1..65536 virtual mutexes");                                       \
    _Static_assert((_nb_mutexes) > 0 && ((_nb_mutexes) & ((_nb_mutexes)-1)) == 0,                  \
                   "VMUTEX_INIT: the number of mutexes must be a power of 2");                     \
    vmutex_t _name = {(_nb_vmutexes), (_nb_mutexes)}

static inline __attribute__((always_inline, unused)) void vmutex_lock(vmutex_t *vmutex, uint32_t id)
{
    vdpu_ecall1(VDPU_SYS_LOCK_ACQUIRE, ((uint32_t)vmutex << 16) | (id & 0xFFFFu));
}

static inline __attribute__((always_inline, unused)) void vmutex_unlock(vmutex_t *vmutex,
                                                                        uint32_t id)
{
    vdpu_ecall1(VDPU_SYS_LOCK_RELEASE, ((uint32_t)vmutex << 16) | (id & 0xFFFFu));
}

#endif
