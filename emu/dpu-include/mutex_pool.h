/* mutex_pool.h -- a pool of NB hardware mutexes (virtual UPMEM, SDK names and
 * layout). MUTEX_POOL_INIT(name, NB) at file scope (NB a power of two; each
 * mutex is an atomic bit, so NB counts against the 56 a program has);
 * mutex_pool_lock(&name, id) and mutex_pool_unlock(&name, id) lock mutex
 * id & (NB - 1): distinct ids may share a mutex, as on hardware. */
#ifndef _DPU_MUTEX_POOL_H_
#define _DPU_MUTEX_POOL_H_

#include <assert.h>
#include <mutex.h>
#include <stdint.h>

struct mutex_pool {
    uint8_t *hw_mutexes;
    uint8_t hw_mutexes_mask;
};
typedef struct mutex_pool mutex_pool_t;

#define MUTEX_POOL_INIT(_name, _nb_mutexes)                                                        \
    _Static_assert((_nb_mutexes) > 0 && ((_nb_mutexes) & ((_nb_mutexes)-1)) == 0,                  \
                   "MUTEX_POOL_INIT: the number of mutexes must be a power of 2");                 \
    uint8_t __atomic_bit __CONCAT(hw_mutexes_, _name)[_nb_mutexes];                                \
    struct mutex_pool _name = {__CONCAT(hw_mutexes_, _name), (uint8_t)((_nb_mutexes)-1)};

static inline __attribute__((always_inline, unused)) void mutex_pool_lock(struct mutex_pool *mp,
                                                                          uint16_t id)
{
    mutex_lock(&mp->hw_mutexes[id & mp->hw_mutexes_mask]);
}

static inline __attribute__((always_inline, unused)) void mutex_pool_unlock(struct mutex_pool *mp,
                                                                            uint16_t id)
{
    mutex_unlock(&mp->hw_mutexes[id & mp->hw_mutexes_mask]);
}

#endif
