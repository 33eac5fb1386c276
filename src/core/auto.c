/*
 * auto.c -- the `auto` backend: per family, the best backend available on
 * this machine (aesni for AES and the NTT, shani for SHA-256, else the
 * portable cpu one), chosen when a context opens; it has no engine of its
 * own.  It never picks pim: offloading is an explicit choice.
 */
#include "backend.h"

static const cpim_backend *best(const cpim_backend *first)
{
    const char *why;
    return first->available(&why) ? first : &cpim_backend_cpu;
}

static int auto_available(const char **why)
{
    (void)why;
    return 1;
}

static const cpim_backend *auto_choose(cpim_family f)
{
    switch (f) {
    case CPIM_FAMILY_AES:
    case CPIM_FAMILY_NTT: /* aesni's x86 vector NTT, or cpu's portable one */
        return best(&cpim_backend_aesni);
    case CPIM_FAMILY_SHA:
        return best(&cpim_backend_shani);
    default:
        return NULL;
    }
}

const cpim_backend cpim_backend_auto = {
    .name = "auto",
    .description = "best available per operation (aesni/shani, else cpu)",
    .available = auto_available,
    .chunk = CPIM_BACKEND_CHUNK,
    .constant_time = 1,
    .choose = auto_choose,
};
