/* see backend.h -- the list of compiled-in backends, found by name. */
#include <string.h>

#include "backend.h"

static const cpim_backend_vt *const registry[] = {
    &cpim_backend_cpu, &cpim_backend_aesni, &cpim_backend_shani,
    &cpim_backend_pim, &cpim_backend_auto,  &cpim_backend_cpu_table,
};

size_t cpim_backend_nr(void)
{
    return sizeof registry / sizeof registry[0];
}

const cpim_backend_vt *cpim_backend_at(size_t i)
{
    return i < cpim_backend_nr() ? registry[i] : NULL;
}

const cpim_backend_vt *cpim_backend_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < cpim_backend_nr(); i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}
