/* stdlib.h -- the DPU libc's <stdlib.h> (virtual UPMEM; the SDK 2025.1
 * header's functions, plus strtol and strtoul). Like the SDK's, it includes
 * <attributes.h> (__host, __dma_aligned...). No malloc: see alloc.h and
 * buddy_alloc.h. */
#ifndef _DPU_STDLIB_H_
#define _DPU_STDLIB_H_
#include <attributes.h>
#include <stddef.h>
#include <stdint.h>

#include "../vdpu/abi.h"
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
typedef struct {
    int quot, rem;
} div_t;
typedef struct {
    long quot, rem;
} ldiv_t;
typedef struct {
    long long quot, rem;
} lldiv_t;
/* No environment on a DPU: always NULL (as the SDK's). */
static inline __attribute__((unused)) char *getenv(const char *name)
{
    (void)name;
    return NULL;
}
static inline __attribute__((unused)) int abs(int x)
{
    return x < 0 ? -x : x;
}
static inline __attribute__((unused)) long labs(long x)
{
    return x < 0 ? -x : x;
}
static inline __attribute__((unused)) long long llabs(long long x)
{
    return x < 0 ? -x : x;
}
static inline __attribute__((unused)) div_t div(int a, int b)
{
    div_t r = {a / b, a % b};
    return r;
}
static inline __attribute__((unused)) ldiv_t ldiv(long a, long b)
{
    ldiv_t r = {a / b, a % b};
    return r;
}
static inline __attribute__((unused)) lldiv_t lldiv(long long a, long long b)
{
    lldiv_t r = {a / b, a % b};
    return r;
}
/* exit(): stops the calling tasklet only (like returning from main). */
static inline __attribute__((noreturn, unused)) void exit(int status)
{
    (void)status;
    vdpu_ecall0(VDPU_SYS_EXIT);
    __builtin_unreachable();
}
static inline __attribute__((noreturn, unused)) void abort(void)
{
    vdpu_ecall2(VDPU_SYS_FAULT, VDPU_FAULT_HALT, (uint32_t) "abort() called");
    __builtin_unreachable();
}
int atoi(const char *s);
long atol(const char *s);
long strtol(const char *s, char **end, int base);
unsigned long strtoul(const char *s, char **end, int base);
#endif
