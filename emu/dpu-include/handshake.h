/* handshake.h -- tasklet-to-tasklet handshakes (virtual UPMEM, SDK names).
 * handshake_notify(): block until some tasklet waits for me, then both go on.
 * handshake_wait_for(t): block until tasklet t notifies; returns 0, or EALREADY
 * at once if another tasklet already waits for t. */
#ifndef _DPU_HANDSHAKE_H_
#define _DPU_HANDSHAKE_H_

#include <defs.h>
#include <errno.h>

#include "../vdpu/abi.h"

static inline __attribute__((always_inline, unused)) void handshake_notify(void)
{
    vdpu_ecall0(VDPU_SYS_HS_NOTIFY);
}

static inline __attribute__((always_inline, unused)) int handshake_wait_for(sysname_t notifier)
{
    return (int)vdpu_ecall1(VDPU_SYS_HS_WAIT_FOR, notifier);
}

#endif
