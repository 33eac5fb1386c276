/*
 * emu/vdpu/dpulog.h -- host side of the DPU printf: replays the records that
 * the DPU runtime (emu/rt/stdio.c) appended to the MRAM ring buffer
 * __stdout_buffer since the last boot, formatted with the host's printf.
 *
 * The record format and the state variable __stdout_buffer_state are private
 * to emu/rt/stdio.c and this file. The library never prints except to the
 * stream it is given.
 */
#ifndef VDPU_DPULOG_H
#define VDPU_DPULOG_H

#include <stdio.h>

#include "vdpu.h"

typedef enum {
    DPULOG_OK = 0,
    DPULOG_ERR_ARG,        /* NULL argument or no program loaded                    */
    DPULOG_ERR_NO_CONTEXT, /* the program has no printf buffer (never linked printf):
                              the host maps it to DPU_ERR_LOG_CONTEXT_MISSING       */
    DPULOG_ERR_WRAPPED,    /* the ring wrapped since boot, records were lost:
                              the host maps it to DPU_ERR_LOG_BUFFER_TOO_SMALL      */
    DPULOG_ERR_CORRUPT,    /* a record is malformed (the program overwrote the buffer
                              or its state)                                         */
    DPULOG_ERR_NOMEM,      /* host allocation failed                                */
    DPULOG_ERR_IO,         /* writing to the stream failed                          */
    DPULOG_ERR__COUNT
} dpulog_err_t;

const char *vdpu_log_strerror(dpulog_err_t err);

/* Write to `stream` every printf/puts/putchar record of `dpu` since its last
 * boot, formatted, in order. Prints no header (dpu_log_read adds
 * "=== DPU#0x%x ===" itself). Records that were complete before the error
 * are printed even when an error is returned, except for DPULOG_ERR_WRAPPED
 * and DPULOG_ERR_NO_CONTEXT, which print nothing. Safe to call several
 * times (reading does not consume the log). */
dpulog_err_t vdpu_log_read(const vdpu_t *dpu, FILE *stream);

#endif /* VDPU_DPULOG_H */
