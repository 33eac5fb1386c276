/* speed_kdf.h -- the HMAC / PBKDF2 rows of `cryptopim speed` (speed_kdf.c). */
#ifndef CPIM_SPEED_KDF_H
#define CPIM_SPEED_KDF_H

#include <stddef.h>

#include "cryptopim.h"

/* Measures the backends `names` (opened with opt) and, with compare,
 * OpenSSL; prints rows in speed.c's format (csv or table).  Returns 1 if
 * an output did not match or a call failed, else 0. */
int speed_kdf(const char *const *names, size_t nnames, const cpim_options *opt, int compare,
              int csv, int quick);

/* cryptsetup's PBKDF2 figure: one PBKDF2-HMAC-SHA256 chain (32-byte key,
 * 32-byte salt and output) on backend `name`, its output first checked
 * against the cpu backend's, timed on the backend's own clock (measured on
 * the CPU backends; modeled for pim: what the real DPUs would take).  The
 * iteration count grows until a measured run takes >= 0.2 s.  Fills
 * iterations, seconds and which clock; returns 0, or 1 (error reported). */
int speed_kdf_1chain(const char *name, const cpim_options *opt, int quick, double *iters,
                     double *seconds, cpim_clock *clock);

#endif /* CPIM_SPEED_KDF_H */
