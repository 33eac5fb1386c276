/*
 * checkfile.h -- the parts of `cryptopim sha256sum` that must match GNU
 * coreutils sha256sum byte for byte and do not touch a backend: parsing one
 * line of a check file (-c), escaping names on output, and the shell-style
 * quoting coreutils uses for file names in its error messages.
 *
 * Nothing here exits, prints or allocates except sum_quote(), so the parser
 * can be driven by a fuzz target (tests/fuzz/fuzz_checkfile.c) on arbitrary
 * bytes.
 */
#ifndef CPIM_CHECKFILE_H
#define CPIM_CHECKFILE_H

#include <stddef.h>
#include <stdint.h>

/* State carried from one check-file line to the next.  coreutils remembers
 * whether it has seen the "BSD reversed" form (`HASH NAME`, one blank) or
 * the standard one (`HASH  NAME` / `HASH *NAME`) and from then on rejects
 * the other, so that a name with a leading blank or '*' cannot be read
 * either way; it keeps this for the whole run, across check files. */
typedef struct sum_parser {
    int bsd_reversed; /* -1 not known yet, 0 standard, 1 reversed */
} sum_parser;

/* One parsed line: `name` points into the caller's line buffer. */
typedef struct sum_line {
    const char *name;
    uint8_t digest[32];
    int binary; /* the `*` marker (reported, no effect on the hash) */
} sum_line;

enum { SUM_LINE_SKIP = 0, SUM_LINE_OK = 1, SUM_LINE_BAD = 2 };

void sum_parser_init(sum_parser *p);

/*
 * Classifies one line of a check file as read by getline(): `line` holds
 * `len` bytes (the '\n' included if there was one) and must have room for
 * one more byte (a terminating NUL is written); it is modified in place.
 * Returns SUM_LINE_SKIP for a comment or a blank line (also after dropping a
 * trailing CR), SUM_LINE_BAD for an improperly formatted line, SUM_LINE_OK
 * with *out filled in.  `from_stdin`: the check file is standard input, in
 * which case a line naming "-" is improperly formatted, as in coreutils.
 */
int sum_check_line(sum_parser *p, char *line, size_t len, int from_stdin, sum_line *out);

/* 1 if the name must be escaped on a `HASH  NAME` / `SHA256 (NAME)` line
 * (it holds a backslash, newline or carriage return), 0 if not. */
int sum_name_needs_escape(const char *name);

/* Writes `name` to out[] with \\, \n and \r escaped (escape != 0) or as it
 * is; returns the length written.  out must have room for 2*strlen+1. */
size_t sum_escape_name(const char *name, int escape, char *out);

/* The name quoted as coreutils quotes file names in messages (gnulib's
 * shell-escape style plus ':'): as it is when nothing in it is special to a
 * shell, else in '...' with $'\n'-style escapes, or "..." when that is the
 * simpler form of a name with an apostrophe.  Depends on LC_CTYPE like
 * coreutils (printable multibyte characters stay as they are).  Returns a
 * malloc'd string, or NULL when out of memory. */
char *sum_quote(const char *name);

#endif
