/* Test kernel of the C++ host API tests (tests/emu/cpp): each DPU turns its
 * words into out[i] = in[i] * scale + i (MRAM to MRAM), keeps their sum in a
 * __host variable and prints it. scale == 13 faults the DPU (halt), for the
 * asynchronous-error tests. */
#include <defs.h>
#include <mram.h>
#include <stdint.h>
#include <stdio.h>

#define MAX_WORDS 64

__host uint32_t n_words;
__host uint64_t scale;
__host uint64_t sum;
__host uint64_t wram_buf[8]; /* a WRAM target for the copies */
__mram uint64_t mram_in[MAX_WORDS];
__mram uint64_t mram_out[MAX_WORDS];
uint32_t not_host; /* plain WRAM global: invisible to the host */

int main(void)
{
    if (me() != 0)
        return 0;
    if (scale == 13)
        halt();
    __dma_aligned uint64_t buf[MAX_WORDS];
    uint32_t n = n_words < MAX_WORDS ? n_words : MAX_WORDS;
    mram_read(mram_in, buf, sizeof buf);
    uint64_t s = 0;
    for (uint32_t i = 0; i < n; i++) {
        buf[i] = buf[i] * scale + i;
        s += buf[i];
    }
    mram_write(buf, mram_out, sizeof buf);
    sum = s;
    not_host = n;
    printf("sum %llu of %u words\n", (unsigned long long)s, n);
    return 0;
}
