/* mram_unaligned.h -- unaligned MRAM access and tasklet-safe updates of
 * values smaller than 8 bytes (virtual UPMEM, SDK names).
 *
 * mram_read_unaligned(from, buffer, n): n <= 2048, buffer 8-aligned with
 *   room for n + 16 bytes; returns the pointer into buffer where the n bytes
 *   start.
 * mram_write_unaligned(from, dest, n): WRAM `from` and MRAM `dest` must have
 *   the same misalignment (address % 8), else the DPU faults
 *   (VDPU_FAULT_UNALIGNED_MRAM); the partial 8-byte words at both ends are
 *   read-modify-written (not atomic, as in the SDK).
 * mram_write_int_atomic(dest, val), mram_update_int_atomic(dest, f, args):
 *   read-modify-write of the 4-byte int at dest (4-aligned) under a lock chosen
 *   by dest / 8, so tasklets updating neighbouring ints do not lose updates;
 *   f is called as f(int *value, void *args).
 * mram_write_byte_atomic / mram_update_byte_atomic: the same for one byte
 *   (f(uint8_t *value, void *args)). */
#ifndef _DPU_MRAM_UNALIGNED_H_
#define _DPU_MRAM_UNALIGNED_H_

#include <mram.h>
#include <stdint.h>
#include <vmutex.h>

void *mram_read_unaligned(const __mram_ptr void *from, void *buffer, unsigned int nb_of_bytes);
void mram_write_unaligned(const void *from, __mram_ptr void *dest, unsigned int nb_of_bytes);

void __mram_update_atomic(uint32_t dest, uint32_t width, uint32_t value,
                          void (*update_func)(void *, void *), void *args);

#define mram_write_int_atomic(dest, val)                                                           \
    __mram_update_atomic((uint32_t)(dest), 4u, (uint32_t)(val), (void (*)(void *, void *))0,       \
                         (void *)0)
#define mram_update_int_atomic(dest, update_func, args)                                            \
    __mram_update_atomic((uint32_t)(dest), 4u, 0u, (void (*)(void *, void *))(update_func),        \
                         (void *)(uintptr_t)(args))
#define mram_write_byte_atomic(dest, val)                                                          \
    __mram_update_atomic((uint32_t)(dest), 1u, (uint32_t)(val), (void (*)(void *, void *))0,       \
                         (void *)0)
#define mram_update_byte_atomic(dest, update_func, args)                                           \
    __mram_update_atomic((uint32_t)(dest), 1u, 0u, (void (*)(void *, void *))(update_func),        \
                         (void *)(uintptr_t)(args))

#endif
