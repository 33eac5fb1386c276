/* vmutex.h -- virtual mutexes: many locks over few hardware mutexes
 * (virtual UPMEM, SDK names and layout). VMUTEX_INIT(name, NB_VMUTEXES,
 * NB_MUTEXES) at file scope; vmutex_lock(&name, id) / vmutex_unlock(&name, id)
 * with id < NB_VMUTEXES. Each virtual mutex is one bit in WRAM; the hardware
 * mutex (atomic bit) (id >> 3) & (NB_MUTEXES - 1) guards the update of its
 * byte only, not the critical section, so ids never share a lock. As the
 * SDK's: lock = acquire; read the byte; set the bit; store; release; and
 * retry while the bit was already set. (The SDK wants NB_VMUTEXES a multiple
 * of 8; here any count works, rounded up to whole bytes.) */
#ifndef _DPU_VMUTEX_H_
#define _DPU_VMUTEX_H_

#include <assert.h>
#include <mutex.h>
#include <stdint.h>

struct vmutex {
    uint8_t *vm;
    uint8_t *hw_mutexes;
    uint8_t hw_mutexes_mask;
};
typedef struct vmutex vmutex_t;

#define VMUTEX_INIT(_name, _nb_vmutexes, _nb_mutexes)                                              \
    _Static_assert((_nb_vmutexes) > 0 && (_nb_vmutexes) <= 65536,                                  \
                   "VMUTEX_INIT: 1..65536 virtual mutexes");                                       \
    _Static_assert((_nb_mutexes) > 0 && ((_nb_mutexes) & ((_nb_mutexes)-1)) == 0,                  \
                   "VMUTEX_INIT: the number of hardware mutexes must be a power of 2");            \
    uint8_t __atomic_bit __CONCAT(hw_mutexes_, _name)[_nb_mutexes];                                \
    uint8_t __CONCAT(vmutex_, _name)[((_nb_vmutexes) + 7) >> 3];                                   \
    struct vmutex _name = {__CONCAT(vmutex_, _name), __CONCAT(hw_mutexes_, _name),                 \
                           (uint8_t)((_nb_mutexes)-1)};

static inline __attribute__((always_inline, unused)) void vmutex_lock(struct vmutex *vm,
                                                                      uint16_t id)
{
    volatile uint8_t *byte = vm->vm + (id >> 3);
    uint8_t mask = (uint8_t)(1u << (id & 7u));
    uint32_t hw = (uint32_t)&vm->hw_mutexes[(id >> 3) & vm->hw_mutexes_mask];
    for (;;) {
        __vdpu_acquire(hw);
        uint8_t old = *byte;
        if (!(old & mask)) {
            *byte = (uint8_t)(old | mask);
            __vdpu_release(hw);
            return;
        }
        /* taken: release and wait for the bit to clear, as the SDK's loop
         * (acquire, lbu, or, sb, release, jeq) does and is charged */
        __vdpu_release_wait(hw, byte, mask);
    }
}

static inline __attribute__((always_inline, unused)) void vmutex_unlock(struct vmutex *vm,
                                                                        uint16_t id)
{
    volatile uint8_t *byte = vm->vm + (id >> 3);
    uint8_t mask = (uint8_t)(1u << (id & 7u));
    uint32_t hw = (uint32_t)&vm->hw_mutexes[(id >> 3) & vm->hw_mutexes_mask];
    __vdpu_acquire(hw);
    *byte = (uint8_t)(*byte & ~mask);
    __vdpu_release(hw);
}

#endif
