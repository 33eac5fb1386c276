/*
 * dpu_error.h -- error codes of the virtual UPMEM host library (<dpu.h>).
 *
 * Names, order and values follow the UPMEM SDK 2025.1 (upmem-api.md §1.1);
 * compare by name, never by number, when the same code must also build
 * against older SDKs.
 */
#ifndef DPU_ERROR_H
#define DPU_ERROR_H

typedef enum dpu_error_t {
    DPU_OK,
    DPU_ERR_INTERNAL,
    DPU_ERR_SYSTEM,
    DPU_ERR_DRIVER,
    DPU_ERR_ALLOCATION,
    DPU_ERR_INVALID_DPU_SET,
    DPU_ERR_INVALID_THREAD_ID,
    DPU_ERR_INVALID_NOTIFY_ID,
    DPU_ERR_INVALID_WRAM_ACCESS,
    DPU_ERR_INVALID_IRAM_ACCESS,
    DPU_ERR_INVALID_MRAM_ACCESS,
    DPU_ERR_INVALID_SYMBOL_ACCESS,
    DPU_ERR_MRAM_BUSY,
    DPU_ERR_TRANSFER_ALREADY_SET,
    DPU_ERR_INVALID_PARALLEL_MEMORY_TRANSFER,
    DPU_ERR_WRAM_FIFO_FULL,
    DPU_ERR_NO_PROGRAM_LOADED,
    DPU_ERR_DIFFERENT_DPU_PROGRAMS,
    DPU_ERR_CORRUPTED_MEMORY,
    DPU_ERR_DPU_DISABLED,
    DPU_ERR_DPU_ALREADY_RUNNING,
    DPU_ERR_INVALID_MEMORY_TRANSFER,
    DPU_ERR_INVALID_LAUNCH_POLICY,
    DPU_ERR_DPU_FAULT,
    DPU_ERR_ELF_INVALID_FILE,
    DPU_ERR_ELF_NO_SUCH_FILE,
    DPU_ERR_ELF_NO_SUCH_SECTION,
    DPU_ERR_TIMEOUT,
    DPU_ERR_INVALID_PROFILE,
    DPU_ERR_UNKNOWN_SYMBOL,
    DPU_ERR_LOG_FORMAT,
    DPU_ERR_LOG_CONTEXT_MISSING,
    DPU_ERR_LOG_BUFFER_TOO_SMALL,
    DPU_ERR_VPD_INVALID_FILE,
    DPU_ERR_VPD_NO_REPAIR,
    DPU_ERR_NO_THREAD_PER_RANK,
    DPU_ERR_INVALID_BUFFER_SIZE,
    DPU_ERR_NONBLOCKING_SYNC_CALLBACK,
    DPU_ERR_TOO_MANY_TASKLETS,
    DPU_ERR_SG_TOO_MANY_BLOCKS,
    DPU_ERR_SG_LENGTH_MISMATCH,
    DPU_ERR_SG_NOT_ACTIVATED,
    DPU_ERR_SG_NOT_MRAM_SYMBOL,
    /* Virtual UPMEM only (not an SDK code): the host read a DPU that a
     * timing-only launch (profile key sampleDpus) did not simulate, so its
     * memory holds no computed result.  No data is copied. */
    DPU_ERR_EMU_NOT_SIMULATED = 64,
    /* Flag bit OR-ed onto the code of an error raised inside an asynchronous
     * job; the job type is stored from bit DPU_ERROR_ASYNC_JOB_TYPE_SHIFT. */
    DPU_ERR_ASYNC_JOBS = (int)(1u << 31),
} dpu_error_t;

/* In an asynchronous-job error, bit offset of the job type. */
#define DPU_ERROR_ASYNC_JOB_TYPE_SHIFT (16)

/* C linkage also when included from C++ without extern "C" (the SDK
 * needs the wrapper; accepting both costs nothing) */
#ifdef __cplusplus
extern "C" {
#endif

/* Text for a status, in a heap string that the caller must free(); NULL only
 * if memory is exhausted. Async-job errors name the job type and the code. */
char *dpu_error_to_string(dpu_error_t status);

#ifdef __cplusplus
}
#endif

#endif /* DPU_ERROR_H */
