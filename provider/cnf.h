/*
 * cnf.h -- the provider's parser of its openssl.cnf values (provider/cnf.c):
 * plain C, no OpenSSL, so that its fuzz target (tests/fuzz/fuzz_provcnf.c)
 * links it alone.
 */
#ifndef CPIM_PROV_CNF_H
#define CPIM_PROV_CNF_H

#include <stdint.h>

/* A byte count or a count: decimal digits with an optional suffix K, M or G
 * (either case; powers of 1024), nothing else (no sign, no space, no empty
 * string), at most `max`.  Returns 1 and sets *out, or 0 and leaves it. */
int cpp_parse_size(const char *s, uint64_t max, uint64_t *out);

#endif /* CPIM_PROV_CNF_H */
