/*
 * fault.c -- a deliberately broken DPU program for the tests: it faults at
 * once with the DPU's fault instruction (halt(), what a failed assert does),
 * which stops a real DPU as well (a DMA that breaks the size rule would not:
 * the hardware, and the virtual DPU by default, round its size).  Built as
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

int main(void)
{
    halt();
    return 0;
}
