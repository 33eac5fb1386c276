/* see backend.h -- the list of compiled-in backends, found by name, and
 * which backend serves each family of a row. */
#include <string.h>

#include "backend.h"

static const cpim_backend *const registry[] = {
    &cpim_backend_cpu, &cpim_backend_aesni, &cpim_backend_shani,
    &cpim_backend_pim, &cpim_backend_auto,  &cpim_backend_cpu_table,
};

size_t cpim_backend_nr(void)
{
    return sizeof registry / sizeof registry[0];
}

const cpim_backend *cpim_backend_at(size_t i)
{
    return i < cpim_backend_nr() ? registry[i] : NULL;
}

const cpim_backend *cpim_backend_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < cpim_backend_nr(); i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

const void *cpim_backend_engine(const cpim_backend *b, cpim_family f)
{
    switch (f) {
    case CPIM_FAMILY_AES:
        return b->aes;
    case CPIM_FAMILY_SHA:
        return b->sha;
    case CPIM_FAMILY_NTT:
        return b->ntt;
    case CPIM_FAMILY_REGION:
        return b->region;
    default:
        return NULL;
    }
}

const cpim_backend *cpim_backend_serving(const cpim_backend *b, cpim_family f)
{
    /* rows name each other a bounded number of times (auto -> aesni -> cpu);
     * the bound keeps a mistaken cycle of rows from hanging */
    for (int hops = 0; b && hops < 8; hops++) {
        if (b->choose)
            b = b->choose(f);
        else if (cpim_backend_engine(b, f))
            return b;
        else
            b = b->from[f];
    }
    return NULL;
}
