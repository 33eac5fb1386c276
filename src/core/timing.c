/* timing.c -- cpim_now (cryptopim.h): the one measured clock.
 *
 * It reads libc's own clock_gettime, looked up in the loaded libc: a
 * program that links the virtual UPMEM (libdpu, as cryptopim does) calls
 * libdpu's clock_gettime instead of libc's, and that one returns modeled
 * time once a profile says hostTime=modeled (for unchanged UPMEM programs'
 * own timers, docs/VIRTUAL_UPMEM_HOST.md 4.1).  UPMEM_PROFILE beats the
 * hostTime=real the pim backend asks for, so the measured clock makes sure
 * itself that it stays measured.  Where libc.so.6 is not loaded (a static
 * or non-glibc build) it is the clock_gettime the program links. */
#define _GNU_SOURCE /* RTLD_NOLOAD */
#include <dlfcn.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "cryptopim.h"

typedef int (*clock_fn)(clockid_t, struct timespec *);
static _Atomic clock_fn g_clock;

static clock_fn libc_clock(void)
{
    clock_fn f = atomic_load_explicit(&g_clock, memory_order_acquire);
    if (f != NULL)
        return f;
    void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
    void *sym = libc ? dlsym(libc, "clock_gettime") : NULL;
    _Static_assert(sizeof sym == sizeof f, "function and data pointers differ");
    memcpy(&f, &sym, sizeof f); /* POSIX: dlsym's result may be a function */
    if (libc)
        dlclose(libc); /* only the reference RTLD_NOLOAD took: libc stays */
    if (f == NULL)
        f = clock_gettime;
    atomic_store_explicit(&g_clock, f, memory_order_release);
    return f;
}

double cpim_now(void)
{
    struct timespec ts;
    libc_clock()(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
