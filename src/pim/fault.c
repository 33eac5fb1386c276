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

int pim_fault_now(pim_faults *f)
{
    return f && f->at && ++f->seen == f->at;
}

void *pim_calloc(pim_faults *f, size_t n, size_t size)
{
    return pim_fault_now(f) ? NULL : calloc(n ? n : 1, size ? size : 1);
}

void *pim_malloc(pim_faults *f, size_t size)
{
    return pim_fault_now(f) ? NULL : malloc(size ? size : 1);
}
