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

#endif /* CPIM_SPEED_KDF_H */
