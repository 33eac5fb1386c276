/* handshake.h -- tasklet-to-tasklet handshakes (virtual UPMEM, SDK names and
 * algorithm, emu/rt/sync.c). handshake_notify(): if a tasklet already waits
 * for me, resume it and go on; else record that I wait and stop until it
 * comes. handshake_wait_for(t): the mirror image; returns 0, or EALREADY (and
 * sets errno) at once if another tasklet already waits for t. Each notifier
 * has its own atomic bit guarding its slot. */
#ifndef _DPU_HANDSHAKE_H_
#define _DPU_HANDSHAKE_H_

#include <defs.h>
#include <errno.h>
#include <sysdef.h>

void handshake_notify(void);
int handshake_wait_for(sysname_t notifier);

#endif
