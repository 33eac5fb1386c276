/* dpu.c -- virtual DPU objects: creation, loading, host access (their
 * parameters and defaults: params.c). */
#define _DEFAULT_SOURCE
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gdbstub.h"
#include "vdpu_internal.h"
#include "vprof.h"

/* FAST mode's quantum when a caller leaves it 0: the table's default. */
static uint32_t default_fast_quantum(void)
{
    vdpu_params_t d;
    vdpu_params_default(&d);
    return d.fast_quantum;
}

static const char *const err_names[VDPU_ERR__COUNT] = {
    [VDPU_OK] = "success",
    [VDPU_ERR_ARG] = "invalid argument",
    [VDPU_ERR_IO] = "I/O error reading the DPU program",
    [VDPU_ERR_NOMEM] = "out of host memory",
    [VDPU_ERR_ELF] = "invalid DPU ELF",
    [VDPU_ERR_LAYOUT] = "DPU program layout error",
    [VDPU_ERR_WRAM_BUDGET] = "WRAM budget exceeded (image + stacks > 64 KiB)",
    [VDPU_ERR_IRAM_BUDGET] = "IRAM budget exceeded (> 4096 instructions)",
    [VDPU_ERR_MRAM_BUDGET] = "MRAM budget exceeded (> 64 MiB)",
    [VDPU_ERR_TASKLETS] = "NR_TASKLETS out of range (1..24)",
    [VDPU_ERR_DECODE] = "cannot decode program",
    [VDPU_ERR_NO_SYMBOL] = "unknown symbol",
    [VDPU_ERR_RANGE] = "access out of memory bounds",
    [VDPU_ERR_NOT_LOADED] = "no program loaded",
};

const char *vdpu_strerror(vdpu_err_t e)
{
    if ((unsigned)e < VDPU_ERR__COUNT && err_names[e])
        return err_names[e];
    return "unknown vdpu error";
}

const char *vdpu_fault_name(int c)
{
    switch (c) {
    case VDPU_FAULT_HEAP_FULL:
        return "heap full";
    case VDPU_FAULT_DIV_ZERO:
        return "division by zero";
    case VDPU_FAULT_ASSERT:
        return "assertion failed";
    case VDPU_FAULT_HALT:
        return "halt";
    case VDPU_FAULT_PRINTF_OVERFLOW:
        return "printf overflow";
    case VDPU_FAULT_ALREADY_PROFILING:
        return "already profiling";
    case VDPU_FAULT_NOT_PROFILING:
        return "not profiling";
    case VDPU_FAULT_UNALIGNED_MRAM:
        return "unaligned MRAM access";
    case VDPU_FAULT_PERFCOUNTER:
        return "perfcounter configuration";
    case VDPU_FAULT_DMA_SIZE:
        return "DMA size";
    case VDPU_FAULT_DMA_ALIGN:
        return "DMA alignment";
    case VDPU_FAULT_DMA_RANGE:
        return "DMA range";
    case VDPU_FAULT_BAD_ACCESS:
        return "access outside WRAM/MRAM";
    case VDPU_FAULT_IRAM_STORE:
        return "store into IRAM";
    case VDPU_FAULT_MISALIGNED:
        return "misaligned access";
    case VDPU_FAULT_STACK_OVERFLOW:
        return "stack overflow";
    case VDPU_FAULT_DEADLOCK:
        return "deadlock";
    case VDPU_FAULT_ILLEGAL_INSN:
        return "illegal instruction";
    case VDPU_FAULT_BAD_PC:
        return "jump outside .text";
    case VDPU_FAULT_BAD_ECALL:
        return "bad runtime service call";
    case VDPU_FAULT_INSN_LIMIT:
        return "instruction limit";
    case VDPU_FAULT_CYCLE_LIMIT:
        return "cycle limit";
    case VDPU_FAULT_ALL_STOPPED:
        return "every tasklet stopped";
    default:
        return "fault";
    }
}

static int params_ok(const vdpu_params_t *p)
{
    return vdpu_params_check(p) == NULL;
}

vdpu_err_t vdpu_create(const vdpu_params_t *params, vdpu_t **out)
{
    if (!out)
        return VDPU_ERR_ARG;
    *out = NULL;
    vdpu_params_t p;
    if (params)
        p = *params;
    else
        vdpu_params_default(&p);
    if (p.fast_quantum == 0)
        p.fast_quantum = default_fast_quantum();
    if (!params_ok(&p))
        return VDPU_ERR_ARG;
    vdpu_t *d = calloc(1, sizeof *d);
    if (!d)
        return VDPU_ERR_NOMEM;
    d->params = p;
    /* WRAM: +16 bytes slack so 8-byte host copies at the end stay in bounds */
    d->wram = calloc(1, VDPU_WRAM_SIZE + 16);
    void *m = mmap(NULL, VDPU_MRAM_SIZE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (!d->wram || m == MAP_FAILED) {
        free(d->wram);
        if (m != MAP_FAILED)
            munmap(m, VDPU_MRAM_SIZE);
        free(d);
        return VDPU_ERR_NOMEM;
    }
    d->mram = m;
    *out = d;
    return VDPU_OK;
}

/* memset through a volatile pointer, so the compiler cannot drop the
 * stores to memory that is freed next. */
static void *(*volatile wipe_memset)(void *, int, size_t) = memset;

void vdpu_free(vdpu_t *d)
{
    if (!d)
        return;
    /* A program's secrets (keys in WRAM, its registers) must not outlive the
     * DPU in this process's heap, where the next allocation would find
     * them.  MRAM needs no wipe: munmap gives its pages back to the kernel,
     * and a new mapping starts zeroed. */
    vdpu_profile_enable(d, 0);
    vdpu_gdb_free(d->dbg); /* attached, but no run came */
    vdpu_win_free(d);
    munmap(d->mram, VDPU_MRAM_SIZE);
    wipe_memset(d->wram, 0, VDPU_WRAM_SIZE + 16);
    free(d->wram);
    wipe_memset(d, 0, sizeof *d);
    free(d);
}

vdpu_err_t vdpu_set_params(vdpu_t *d, const vdpu_params_t *params)
{
    if (!d || !params)
        return VDPU_ERR_ARG;
    vdpu_params_t p = *params;
    if (p.fast_quantum == 0)
        p.fast_quantum = default_fast_quantum();
    if (!params_ok(&p))
        return VDPU_ERR_ARG;
    d->params = p;
    if (d->prog && d->prog->clocks_addr) {
        uint32_t hz = (uint32_t)(p.clock_mhz * 1e6 + 0.5);
        memcpy(d->wram + d->prog->clocks_addr, &hz, 4);
    }
    return VDPU_OK;
}

const vdpu_params_t *vdpu_get_params(const vdpu_t *d)
{
    return d ? &d->params : NULL;
}

vdpu_err_t vdpu_load(vdpu_t *d, const vdpu_program_t *p)
{
    if (!d || !p)
        return VDPU_ERR_ARG;
    /* WRAM: the whole arena is reset (image + zeroed .bss, stacks, heap) */
    memset(d->wram, 0, VDPU_WRAM_SIZE);
    memcpy(d->wram + p->wram_lo, p->wram_img + p->wram_lo, p->wram_hi - p->wram_lo);
    /* MRAM: only the initialized image is written (noinit stays as is, like
     * hardware); a previous program's larger image is not cleared. */
    if (p->mram_init_size)
        memcpy(d->mram, p->mram_img, p->mram_init_size);
    if (p->clocks_addr) {
        uint32_t hz = (uint32_t)(d->params.clock_mhz * 1e6 + 0.5);
        memcpy(d->wram + p->clocks_addr, &hz, 4);
    }
    d->prog = p;
    return VDPU_OK;
}

const vdpu_program_t *vdpu_loaded_program(const vdpu_t *d)
{
    return d ? d->prog : NULL;
}

static vdpu_err_t chk(const void *d, const void *buf, uint64_t off, uint64_t n, uint64_t size)
{
    if (!d || (!buf && n))
        return VDPU_ERR_ARG;
    if (off > size || n > size - off)
        return VDPU_ERR_RANGE;
    return VDPU_OK;
}

vdpu_err_t vdpu_wram_read(const vdpu_t *d, uint32_t off, void *dst, size_t n)
{
    vdpu_err_t e = chk(d, dst, off, n, VDPU_WRAM_SIZE);
    if (e == VDPU_OK && n)
        memcpy(dst, d->wram + off, n);
    return e;
}

vdpu_err_t vdpu_wram_write(vdpu_t *d, uint32_t off, const void *src, size_t n)
{
    vdpu_err_t e = chk(d, src, off, n, VDPU_WRAM_SIZE);
    if (e == VDPU_OK && n)
        memcpy(d->wram + off, src, n);
    return e;
}

vdpu_err_t vdpu_mram_read(const vdpu_t *d, uint32_t off, void *dst, size_t n)
{
    vdpu_err_t e = chk(d, dst, off, n, VDPU_MRAM_SIZE);
    if (e == VDPU_OK && n)
        memcpy(dst, d->mram + off, n);
    return e;
}

static bool page_zero(const uint8_t *p, size_t len)
{
    uint64_t acc = 0, w;
    for (size_t i = 0; i < len; i += 8) {
        memcpy(&w, p + i, 8);
        acc |= w;
    }
    return acc == 0;
}

/* Whole pages of zeros are not copied: their pages are given back
 * (MADV_DONTNEED; an anonymous private mapping reads them back as zeros),
 * so zero-filling a DPU's MRAM (cpim_region_create: 32 MiB on each of
 * 2,560 DPUs in bench --experiment resident) takes no host memory.  What
 * MRAM holds afterwards is the same as with a copy. */
vdpu_err_t vdpu_mram_write(vdpu_t *d, uint32_t off, const void *src, size_t n)
{
    vdpu_err_t e = chk(d, src, off, n, VDPU_MRAM_SIZE);
    static size_t pg;
    if (pg == 0) {
        long v = sysconf(_SC_PAGESIZE);
        pg = v > 0 && (v & (v - 1)) == 0 && v % 8 == 0 ? (size_t)v : SIZE_MAX;
    }
    if (e != VDPU_OK || n == 0)
        return e;
    uint8_t *dst = d->mram + off;
    const uint8_t *s = src;
    if (pg == SIZE_MAX || n < 2 * pg) {
        memcpy(dst, s, n);
        return e;
    }
    size_t head = (pg - ((uintptr_t)dst & (pg - 1))) & (pg - 1);
    memcpy(dst, s, head);
    dst += head, s += head, n -= head;
    while (n >= pg) {
        size_t z = 0, c = 0;
        while (z + pg <= n && page_zero(s + z, pg))
            z += pg;
        if (z && madvise(dst, z, MADV_DONTNEED) != 0)
            memset(dst, 0, z);
        dst += z, s += z, n -= z;
        while (c + pg <= n && !page_zero(s + c, pg))
            c += pg;
        memcpy(dst, s, c);
        dst += c, s += c, n -= c;
    }
    memcpy(dst, s, n);
    return e;
}

void vdpu_fault(vdpu_t *d, int tasklet, uint32_t pc_index, int code, const char *fmt, ...)
{
    if (d->faulted)
        return;
    d->faulted = 1;
    vdpu_result_t *r = d->res;
    r->status = VDPU_STATUS_FAULT;
    r->fault_code = code;
    r->fault_tasklet = tasklet;
    r->fault_pc = VDPU_IRAM_BASE + 4u * pc_index;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->fault_msg, sizeof r->fault_msg, fmt, ap);
    va_end(ap);
    snprintf(r->fault_func, sizeof r->fault_func, "%s",
             tasklet >= 0 ? vdpu_program_func_name(d->prog, r->fault_pc) : "-");
}
