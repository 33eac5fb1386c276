/* dpu_buddy.c -- buddy allocator (NR_TASKLETS=4): every tasklet allocates,
 * fills, checks and frees blocks of several sizes; then one tasklet checks
 * that the whole heap coalesced back into one block. */
#include <alloc.h>
#include <barrier.h>
#include <buddy_alloc.h>
#include <defs.h>
#include <stdint.h>

__host uint32_t errors;
__host uint32_t whole_ok;

BARRIER_INIT(bar, NR_TASKLETS);

int main(void)
{
    uint32_t id = me();
    if (id == 0) {
        errors = 0;
        mem_reset();
        buddy_init(8192);
    }
    barrier_wait(&bar);
    for (uint32_t round = 0; round < 20; round++) {
        uint8_t *p[3];
        uint32_t sz[3] = {1 + round, 40 + 3 * id, 200};
        for (int k = 0; k < 3; k++) {
            p[k] = buddy_alloc(sz[k]);
            if (p[k] == 0 || ((uint32_t)p[k] & 7) != 0) {
                errors++;
                continue;
            }
            for (uint32_t i = 0; i < sz[k]; i++)
                p[k][i] = (uint8_t)(id * 16 + k);
        }
        p[1] = buddy_realloc(p[1], 300);
        for (int k = 0; k < 3; k++) {
            for (uint32_t i = 0; p[k] && i < sz[k]; i++)
                if (p[k][i] != (uint8_t)(id * 16 + k))
                    errors++;
            buddy_free(p[k]);
        }
    }
    barrier_wait(&bar);
    if (id == 0) {
        void *all = buddy_alloc(8192);
        whole_ok = all != 0 && buddy_alloc(16) == 0;
        buddy_free(all);
    }
    return 0;
}
