/* The linker keeps MRAM variables as the SDK's does (test_vdpu.c
 * test_mram_gc): an unreferenced __mram_noinit variable is dropped, a
 * _keep one stays for the host, and linking printf from a function nobody
 * calls does not bring the runtime's 1 MiB printf buffer into MRAM. That
 * buffer once moved DPU_MRAM_HEAP_POINTER by 1 MiB, so a framework that
 * scatters its data at the heap pointer with one program and reads it with
 * another (which links printf) read zeros. */
#include <defs.h>
#include <mram.h>
#include <stdint.h>
#include <stdio.h>

__mram_noinit uint64_t unused_noinit[1024]; /* nothing refers to it: dropped */
__mram_noinit_keep uint64_t host_only[16];  /* only the host: kept           */
__mram uint64_t used_init[4] = {1, 2, 3, 4};
__host uint64_t sum;

/* never called: collected, and with it the need for the printf buffer */
void never_called(void)
{
    printf("never printed\n");
}

int main(void)
{
    __dma_aligned uint64_t b[4];
    mram_read(DPU_MRAM_HEAP_POINTER, b, sizeof b);
    sum = b[0] + b[1] + b[2] + b[3] + used_init[3];
    return 0;
}
