/*
 * sumout.h -- the output of `cryptopim sha256sum` (tools/sha256sum.c) and
 * `cryptopim-mpi sha256sum` (mpi/sum.c), which must match GNU coreutils 9.1
 * sha256sum byte for byte: the hash lines (escaped names, --tag, -z), the
 * -c result lines, the messages naming a file and the summary at the end of
 * each check file.  Written once so that the two commands cannot drift.
 * Lines go to stdout, messages to stderr through cli_error.
 */
#ifndef CPIM_SUMOUT_H
#define CPIM_SUMOUT_H

#include <stdint.h>

/* cli_error with the name quoted the way coreutils quotes it. */
void sum_name_error(const char *name, const char *what);

/* One hash line: `HASH  NAME` (binary > 0: `HASH *NAME`) or with tag
 * `SHA256 (NAME) = HASH`; a name holding \, newline or CR is escaped and
 * the line starts with '\', except with zero, where the line ends with NUL
 * instead of a newline and nothing is escaped. */
void sum_put_sum(const char *name, const uint8_t d[32], int tag, int binary, int zero);

/* -c: `NAME: VERDICT`.  coreutils escapes the name here only when it holds
 * a newline (not for a lone backslash, unlike the hash lines). */
void sum_put_check_result(const char *name, const char *verdict);

/* -c: what one check file came to, for its summary. */
typedef struct sum_list_end {
    const char *shown; /* the check file's name as given */
    int read_error;    /* reading it failed */
    int proper;        /* it had at least one well-formed line */
    unsigned long long bad_lines, unreadable, mismatched;
    int matched; /* at least one file matched */
} sum_list_end;

/* -c: the end of one check file, as the end of coreutils' digest_check():
 * the error or the WARNING lines (not with status); returns 1 if the run
 * must exit 1 for it. */
int sum_list_summary(const sum_list_end *l, int status, int ignore_missing, int strict);

#endif /* CPIM_SUMOUT_H */
