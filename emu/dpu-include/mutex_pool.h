/* mutex_pool.h -- a pool of NB mutexes indexed by id & (NB - 1)
 * (virtual UPMEM, SDK names). MUTEX_POOL_INIT(name, NB) at file scope
 * (NB a power of two, 1..256); mutex_pool_lock(&name, id) and
 * mutex_pool_unlock(&name, id) lock mutex id % NB, so distinct ids may share a
 * mutex (as on hardware). Lock keys are (address of the pool << 16) | index,
 * never equal to a WRAM address, so they cannot collide with other locks. */
#ifndef _DPU_MUTEX_POOL_H_
#define _DPU_MUTEX_POOL_H_

#include <stdint.h>

#include "../vdpu/abi.h"

struct mutex_pool {
    uint32_t mask;
};
typedef struct mutex_pool mutex_pool_t;

#define MUTEX_POOL_INIT(_name, _nb_mutexes)                                                        \
    _Static_assert((_nb_mutexes) > 0 && (_nb_mutexes) <= 256 &&                                    \
                       ((_nb_mutexes) & ((_nb_mutexes)-1)) == 0,                                   \
                   "MUTEX_POOL_INIT: the number of mutexes must be a power of 2 <= 256");          \
    struct mutex_pool _name = {(_nb_mutexes)-1}

static inline __attribute__((always_inline, unused)) void mutex_pool_lock(struct mutex_pool *pool,
                                                                          uint32_t id)
{
    vdpu_ecall1(VDPU_SYS_LOCK_ACQUIRE, ((uint32_t)pool << 16) | (id & pool->mask));
}

static inline __attribute__((always_inline, unused)) void mutex_pool_unlock(struct mutex_pool *pool,
                                                                            uint32_t id)
{
    vdpu_ecall1(VDPU_SYS_LOCK_RELEASE, ((uint32_t)pool << 16) | (id & pool->mask));
}

#endif
