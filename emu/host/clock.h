/*
 * clock.h -- the clocks: the real ones the library measures with, and the
 * program's own clock calls, which return the modeled host time once a
 * dpu_alloc profile said hostTime=modeled (docs/VIRTUAL_UPMEM_HOST.md §4.1).
 * Layer: clock, the bottom one (see host.h): the model reads its real clock
 * here, so the modeled time reaches this layer through a seam, a source
 * function set from above (alloc.c: emu_model_host_present).
 *
 * clock.c defines gettimeofday, clock_gettime, time, timespec_get and clock.
 * A program linking libdpu.a calls these instead of libc's (the executable's
 * definition wins); each passes straight to the real clock (libc's, found
 * with dlsym(RTLD_NEXT)) unless the modeled time is on.
 */
#ifndef EMU_CLOCK_H
#define EMU_CLOCK_H

#include <stdbool.h>
#include <time.h>

/* The real clock `id`, whatever the mode: what the library measures host
 * work and callbacks with. Returns 0, or -1 (errno) as clock_gettime. */
int emu_clock_real(clockid_t id, struct timespec *ts);

/* Modeled host time in seconds since the first API call (the model's host
 * timeline plus the host work since the last API exit). */
typedef double (*emu_clock_source_t)(void);

/* Turns the modeled time on (source != NULL) or off (NULL), process-wide.
 * Turning it on when it is off captures every modeled clock's real value
 * now, so each continues from there and then advances with modeled time;
 * turning it on when it is on keeps the clocks as they are. */
void emu_clock_set_source(emu_clock_source_t source);

/* Whether the program's clock calls return modeled time now. */
bool emu_clock_modeled(void);

#endif /* EMU_CLOCK_H */
