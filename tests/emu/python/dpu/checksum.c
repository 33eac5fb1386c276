/* Checksum of `length` bytes at the start of `buffer` (one tasklet: built
 * from the Python host with c_source=, which passes no NR_TASKLETS). */
#include <mram.h>
#include <stdint.h>

#define BLOCK 256

__host uint32_t length;
__host uint32_t checksum;
__mram_noinit uint8_t buffer[1 << 20];

int main(void)
{
    __dma_aligned uint8_t cache[BLOCK];
    uint32_t sum = 0;
    for (uint32_t at = 0; at < length; at += BLOCK) {
        mram_read(&buffer[at], cache, BLOCK);
        for (uint32_t k = 0; k < BLOCK && at + k < length; k++)
            sum += cache[k];
    }
    checksum = sum;
    return 0;
}
