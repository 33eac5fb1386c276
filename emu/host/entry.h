/*
 * entry.h -- API entry/exit bookkeeping: which calls are the application's
 * (their gaps are host work on the modeled clock), the time a callback
 * spends in nested API calls, and which ranks the current thread owns.
 * Layer: entry (see host.h), above the model.
 */
#ifndef EMU_ENTRY_H
#define EMU_ENTRY_H

#include <stdbool.h>
#include <stdint.h>

struct dpu_rank_t;

/* Every public entry point that may take time brackets itself with these. */
void emu_api_enter(void);
void emu_api_exit(void);
/* Marks the current thread as a library worker (its calls are not host work). */
void emu_api_mark_worker(void);

/* Callback support: time spent in nested API calls by this thread. */
void emu_api_cb_begin(void);
double emu_api_cb_end(void); /* own time of the callback (wall minus nested API) */

/* Thread ownership: a thread running a rank's job owns that rank; its API
 * calls on owned ranks execute immediately. The ranks are only compared. */
void emu_own_push(struct dpu_rank_t *const *ranks, uint32_t n);
void emu_own_pop(uint32_t n);
bool emu_own_has(const struct dpu_rank_t *r);

#endif /* EMU_ENTRY_H */
