/*
 * fault.c -- a deliberately broken DPU program for the tests: it faults on
 * its first DMA (a size that is not a multiple of 8).  Built as
 * $(BUILD)/dpu/fault/aes-t4 and sha256-t4 so a test can point the pim
 * backend's dpu_dir at it and check that a DPU fault is reported as
 * CPIM_ERR_PIM_FAULT (and by the CLI as an error with no output file).
 */
#include <defs.h>
#include <mram.h>
#include <stdint.h>

#include "aes_args.h"
#include "dpu_lib.h"
#include "sha256_args.h"

__host struct aes_key_args AES_KEY_SYM;
__host struct aes_job_args AES_JOB_SYM;
__host struct sha_job_args SHA_JOB_SYM;
__mram_noinit uint64_t fault_mram_anchor;

static __dma_aligned uint8_t buf[64];
DPU_WRAM_CHECK(sizeof buf);

int main(void)
{
    volatile unsigned n = 12; /* not a multiple of 8: the DMA faults */
    mram_read(DPU_MRAM_HEAP_POINTER, buf, n);
    return 0;
}
