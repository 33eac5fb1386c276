/*
 * fault.c -- fault injection for the pim backend (see pim_internal.h).
 *
 * As SQLite does with its malloc and I/O failure tests: a test opens a
 * context with the profile key failAt=N and walks N over every checkpoint
 * of a call, so that every error path (out of memory in the middle of a
 * plan, a transfer or launch failing in any host mode) runs at least once
 * and is checked for leaks (ASan) and for a clear error.
 */
#include <stdlib.h>

#include "pim_internal.h"

int cpim_pim_fault_now(cpim_pim_faults *f)
{
    return f && f->at && ++f->seen == f->at;
}

void *cpim_pim_calloc(cpim_pim_faults *f, size_t n, size_t size)
{
    return cpim_pim_fault_now(f) ? NULL : calloc(n ? n : 1, size ? size : 1);
}

void *cpim_pim_malloc(cpim_pim_faults *f, size_t size)
{
    return cpim_pim_fault_now(f) ? NULL : malloc(size ? size : 1);
}
