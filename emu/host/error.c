/*
 * error.c -- dpu_error_to_string.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue.h" /* op_type_t: the SDK job type numbers in sticky errors */

static const char *const error_text[] = {
    [DPU_OK] = "success",
    [DPU_ERR_INTERNAL] = "internal error",
    [DPU_ERR_SYSTEM] = "system error",
    [DPU_ERR_DRIVER] = "driver error",
    [DPU_ERR_ALLOCATION] = "allocation error",
    [DPU_ERR_INVALID_DPU_SET] = "invalid DPU set",
    [DPU_ERR_INVALID_THREAD_ID] = "invalid thread id",
    [DPU_ERR_INVALID_NOTIFY_ID] = "invalid notify id",
    [DPU_ERR_INVALID_WRAM_ACCESS] = "invalid WRAM access",
    [DPU_ERR_INVALID_IRAM_ACCESS] = "invalid IRAM access",
    [DPU_ERR_INVALID_MRAM_ACCESS] = "invalid MRAM access",
    [DPU_ERR_INVALID_SYMBOL_ACCESS] = "invalid symbol access",
    [DPU_ERR_MRAM_BUSY] = "MRAM busy",
    [DPU_ERR_TRANSFER_ALREADY_SET] = "transfer already set",
    [DPU_ERR_INVALID_PARALLEL_MEMORY_TRANSFER] = "invalid parallel memory transfer",
    [DPU_ERR_WRAM_FIFO_FULL] = "WRAM FIFO full",
    [DPU_ERR_NO_PROGRAM_LOADED] = "no program loaded",
    [DPU_ERR_DIFFERENT_DPU_PROGRAMS] = "different DPU programs",
    [DPU_ERR_CORRUPTED_MEMORY] = "corrupted memory",
    [DPU_ERR_DPU_DISABLED] = "DPU disabled",
    [DPU_ERR_DPU_ALREADY_RUNNING] = "DPU already running",
    [DPU_ERR_INVALID_MEMORY_TRANSFER] = "invalid memory transfer",
    [DPU_ERR_INVALID_LAUNCH_POLICY] = "invalid launch policy",
    [DPU_ERR_DPU_FAULT] = "DPU is in fault",
    [DPU_ERR_ELF_INVALID_FILE] = "invalid ELF file",
    [DPU_ERR_ELF_NO_SUCH_FILE] = "no such ELF file",
    [DPU_ERR_ELF_NO_SUCH_SECTION] = "no such ELF section",
    [DPU_ERR_TIMEOUT] = "timeout",
    [DPU_ERR_INVALID_PROFILE] = "invalid profile",
    [DPU_ERR_UNKNOWN_SYMBOL] = "unknown symbol",
    [DPU_ERR_LOG_FORMAT] = "invalid log format",
    [DPU_ERR_LOG_CONTEXT_MISSING] = "log context missing (program does not use printf)",
    [DPU_ERR_LOG_BUFFER_TOO_SMALL] = "log buffer too small (wrapped since boot)",
    [DPU_ERR_VPD_INVALID_FILE] = "invalid VPD file",
    [DPU_ERR_VPD_NO_REPAIR] = "no VPD repair",
    [DPU_ERR_NO_THREAD_PER_RANK] = "no thread per rank",
    [DPU_ERR_INVALID_BUFFER_SIZE] = "invalid buffer size",
    [DPU_ERR_NONBLOCKING_SYNC_CALLBACK] = "nonblocking and synchronous callback is invalid",
    [DPU_ERR_TOO_MANY_TASKLETS] = "too many tasklets",
    [DPU_ERR_SG_TOO_MANY_BLOCKS] = "too many scatter/gather blocks",
    [DPU_ERR_SG_LENGTH_MISMATCH] = "scatter/gather length mismatch",
    [DPU_ERR_SG_NOT_ACTIVATED] = "scatter/gather transfers not activated",
    [DPU_ERR_SG_NOT_MRAM_SYMBOL] = "scatter/gather transfer on a non-MRAM symbol",
    [DPU_ERR_EMU_NOT_SIMULATED] = "read of a DPU that a timing-only launch (sampleDpus) did not "
                                  "simulate: its memory holds no computed result",
};

static const char *text_of(uint32_t code)
{
    if (code < sizeof error_text / sizeof error_text[0] && error_text[code])
        return error_text[code];
    return "unknown error";
}

static const char *job_name(uint32_t type)
{
    switch (type) {
    case OP_LAUNCH:
        return "launch";
    case OP_SYNC:
        return "sync";
    case OP_XFER_TO:
        return "copy to DPUs";
    case OP_XFER_FROM:
        return "copy from DPUs";
    case OP_CALLBACK:
        return "callback";
    case OP_LOAD:
        return "load";
    default:
        return "job";
    }
}

/* see dpu_error.h */
char *dpu_error_to_string(dpu_error_t status)
{
    uint32_t s = (uint32_t)status;
    char buf[160];
    if (s & (uint32_t)DPU_ERR_ASYNC_JOBS) {
        s &= ~(uint32_t)DPU_ERR_ASYNC_JOBS;
        uint32_t type = s >> DPU_ERROR_ASYNC_JOB_TYPE_SHIFT;
        uint32_t code = s & ((1u << DPU_ERROR_ASYNC_JOB_TYPE_SHIFT) - 1);
        snprintf(buf, sizeof buf, "asynchronous operation error (%s): %s (0x%x)", job_name(type),
                 text_of(code), s);
    } else {
        snprintf(buf, sizeof buf, "%s", text_of(s));
    }
    return strdup(buf);
}
