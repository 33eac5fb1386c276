/*
 * cli.h -- shared pieces of the `cryptopim` command-line tool (tools/).
 *
 * The CLI uses only the public API (include/cryptopim.h), whose cpim_now() is
 * the one timing module.  Conventions of every command:
 *  - errors go to stderr as ONE line `cryptopim: <what went wrong>`;
 *  - exit status 0 = success, 1 = a runtime failure that the command reports
 *    per item (sha256sum: unreadable file, checksum mismatch; speed: output
 *    mismatch), 2 = bad usage or bad input (the enc/dec errors);
 *  - key material is never printed, not even in error messages.
 */
#ifndef CPIM_CLI_H
#define CPIM_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "cryptopim.h"

#define CLI_NAME    "cryptopim"
#define CLI_VERSION CPIM_VERSION_STRING

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* Prints `cryptopim: <fmt...>` and a newline on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * A tiny option scanner (getopt_long is not POSIX).  Accepts `-x VALUE`,
 * `-xVALUE`, `--name VALUE`, `--name=VALUE`, flags without values, and `--`
 * to end the options.  Operands (non-options) are collected in order.
 */
typedef struct cli_args {
    int argc;
    char **argv;
    int i; /* next argv index */
    int only_operands;
    /* Per-scan state kept here, not in statics, so that a fuzz target (or
     * any caller) can run many scans in one process. */
    const char *pending; /* "v" of "--x=v" / "-xv", until consumed */
    char name[64];       /* the option name returned by cli_next() */
} cli_args;

void cli_args_init(cli_args *a, int argc, char **argv);
/* Next item: returns 1 with *opt = the option name as written ("-K",
 * "--backend"; for "--x=v" *opt is "--x" and the value is pending), or
 * returns 1 with *opt = NULL and *operand set for a non-option; 0 at the
 * end. */
int cli_next(cli_args *a, const char **opt, const char **operand);
/* The value of the option just returned; prints an error and returns NULL if
 * there is none. */
const char *cli_value(cli_args *a, const char *opt);
/* 1 if the option just returned carried a `=value` that was not consumed. */
int cli_has_inline_value(const cli_args *a);
/* The position of the item cli_next() just returned, counted in words after
 * `cryptopim` (every command gets the argv that follows `cryptopim COMMAND`,
 * so the command itself is argument 1).  Messages about operands cite this
 * instead of the text, which may be a misplaced key. */
int cli_arg_number(const cli_args *a);

/*
 * `s` in single quotes, for an error message, or a placeholder if `s` might
 * be key material: a run of 8 or more hex digits, or anything longer than 64
 * characters, is never echoed (a mistyped `--key0011...` or a key given to
 * the wrong option would otherwise end up on a terminal or in a log).  The
 * result lives in a static buffer: one call per message.
 */
const char *cli_quote(const char *s);
/*
 * A file name for an error message: in single quotes, each run of 8 or more
 * hex digits replaced by `<N hex digits>` (a key given to -i, -o or
 * --key-file would otherwise be echoed), cut at 200 characters.  NULL is
 * "standard input".  Static buffers, four in turn: up to four quoted items
 * (cli_quote's included) in one message.
 */
const char *cli_quote_path(const char *path);
/* `name` for a message about standard output when NULL, else as above. */
const char *cli_quote_out(const char *path);

/*
 * The environment knobs (CRYPTOPIM_CHUNK, CRYPTOPIM_BATCH_BYTES, ...) are
 * input like any other: the whole value must be a decimal number in
 * [lo, hi].  Returns 0 if the variable is unset or empty (*out untouched),
 * 1 with *out set, or -1 after printing `cryptopim: NAME=...: not a number
 * in lo..hi` (the value not echoed if it may be key material).
 */
int cli_env_u64(const char *name, uint64_t lo, uint64_t hi, uint64_t *out);
/*
 * A decimal number with an optional fraction ("100", "12.5", ".5"): digits
 * and at most one point, nothing else (no sign, space, exponent, hex, inf
 * or nan), in [lo, hi].  cli_parse_decimal() returns 0 with *out set, or -1
 * after printing `cryptopim: WHAT: expected a number in lo..hi, got ...`.
 * cli_env_decimal() is its environment form, with cli_env_u64's returns.
 */
int cli_parse_decimal(const char *what, const char *s, double lo, double hi, double *out);
int cli_env_decimal(const char *name, double lo, double hi, double *out);

/*
 * Run first in main(): a standard descriptor (0, 1, 2) that the caller
 * closed is taken by /dev/null opened the wrong way round (stdin write-only,
 * stdout and stderr read-only), so that a file the program opens later
 * never gets that number -- it would be read as the input or written as the
 * output -- and every use of it fails as on a closed descriptor, with EBADF
 * ("Bad file descriptor", as `cat <&-` says).  Returns 0, or -1 (nothing to
 * print to, perhaps: the caller exits with CLI_USAGE) if even that failed.
 */
int cli_guard_std_fds(void);
/*
 * After a command: if standard output cannot be flushed, prints the error
 * (`write error: ...` for sha256sum, as coreutils does; else `cannot write
 * standard output: ...`) and returns the exit status (rc if it already
 * failed, else 1 for sha256sum, 2 otherwise); rc when all was written.
 */
int cli_finish_stdout(const char *cmd, int rc);
/* 1 if standard descriptor fd was closed when cli_guard_std_fds() ran. */
int cli_std_fd_closed(int fd);

/*
 * A process that holds keys (enc, dec, hmac, pbkdf2, and cryptopim-mpi's)
 * calls this before it reads one: no core file with them, and a debugger
 * of the same user cannot attach to read them (Linux: not dumpable; the
 * process can still use its own /proc entries).  Failures change nothing
 * else, so they are not errors.
 */
void cli_no_core_dumps(void);

/* Parses a decimal unsigned in [lo, hi]; on error prints `cryptopim: OPT:
 * ...` and returns -1. */
int cli_parse_uint(const char *opt, const char *s, unsigned lo, unsigned hi, unsigned *out);

/*
 * The options every command shares: --backend NAME, --threads N and the
 * pim-backend ones (--dpus N | --ranks R, --tasklets T, --mode M).
 * cli_common_option() returns 1 if `opt` was one of them (consumed, value
 * stored), 0 if not one of them, -1 on a bad value (error printed).
 */
typedef struct cli_common {
    const char *backend; /* NULL = the command's default */
    cpim_options opt;
    int dpus_set, ranks_set;
} cli_common;

void cli_common_init(cli_common *c);
int cli_common_option(cli_common *c, cli_args *a, const char *opt);
/* Opens a context; on error prints a clear message (unknown backend,
 * unavailable and why, bad options) and returns NULL. */
cpim_ctx *cli_open(const char *backend, const cpim_options *opt);
/* Help text for the shared options (one block, for the per-command help). */
extern const char cli_common_help[];

/* Decodes hex text into out[0..cap): whitespace anywhere is skipped when
 * allow_space, else rejected.  Returns the byte count, -1 for a non-hex
 * character, -2 for an odd number of digits, -3 if longer than cap.  Never
 * echoes the input. */
/* Reads until `cap` bytes or end of input (retrying interrupted reads);
 * returns the count, or -1 with errno set. */
long cli_read_full(int fd, void *buf, size_t cap);

long cli_unhex(const char *s, size_t n, int allow_space, uint8_t *out, size_t cap);

/*
 * enc/dec arguments, parsed and checked without any I/O (so that a fuzz
 * target can run the parser alone: tests/fuzz/fuzz_cliargs.c).
 * cli_encdec_parse() returns CLI_OK with *e filled, CLI_ENCDEC_HELP if
 * --help was asked for (nothing printed), or CLI_USAGE after printing the
 * error.  It wipes the -K text in argv once decoded (so that a later `ps`
 * does not show it); the caller wipes e->key and e->iv when done.  With
 * --key-file, e->key is filled by cli_encdec_load_key() (which reads the
 * file and checks the length); with -K the length is already checked.
 */
enum { CLI_ENCDEC_HELP = -1 };
typedef struct cli_encdec {
    cpim_dir dir;
    const char *cmd;      /* "enc" or "dec", for messages */
    const char *alg_name; /* one of the nine, e.g. "aes-128-ctr" */
    size_t key_len;       /* the algorithm's key size in bytes */
    int ctr;              /* CTR (else ECB, XTS or GCM below) */
    int xts;              /* XTS (key_len 32 or 64: both halves) */
    size_t sector_size;   /* XTS: data unit, --sector-size (default 512) */
    uint64_t sector;      /* XTS: number of the first unit, --sector */
    const char *key_file; /* --key-file FILE, or NULL for -K */
    uint8_t key[64];
    uint8_t iv[16];                 /* CTR only */
    const char *in_path, *out_path; /* NULL = standard input / output */
    cli_common common;
    /* GCM */
    int gcm;
    uint8_t gcm_iv[128]; /* --iv, gcm_iv_len bytes */
    size_t gcm_iv_len;
    const char *aad_path; /* --aad-file, or NULL */
} cli_encdec;

int cli_encdec_parse(cli_encdec *e, int argc, char **argv, cpim_dir dir);
/* Reads and checks the --key-file key into e->key; 0, or -1 after printing
 * the error (never key material).  Nothing to do with -K. */
int cli_encdec_load_key(cli_encdec *e);
/* The help text of enc/dec (printf format: one %s, cli_common_help). */
extern const char cli_encdec_help[];

/*
 * The output of enc/dec (tools/outfile.c; the semantics are in docs/CLI.md's
 * "Output files").  cli_output_open() is called before any input is read:
 * it refuses an OUT that cannot be written (a folder, a read-only file, a
 * dangling symbolic link) and sets up where the output goes.  Write to
 * o->fd; cli_output_commit() puts the result in place (buf/cap: scratch
 * space for copying); cli_output_abort() leaves OUT as it was.  Each returns
 * 0 or -1 after printing the error.
 */
typedef struct cli_output {
    int fd;           /* where to write */
    const char *path; /* NULL = standard output */
    int kind;         /* see outfile.c */
    int dest_fd;      /* an existing regular OUT, open for writing */
    int unnamed;      /* fd is an O_TMPFILE: no name until committed */
    int in_place;     /* OUT_REPLACE: copy over OUT, never rename */
    char *real;       /* OUT_REPLACE: OUT's real path (malloc'd), or NULL */
} cli_output;

int cli_output_open(cli_output *o, const char *path);
int cli_output_commit(cli_output *o, void *buf, size_t cap);
void cli_output_abort(cli_output *o);

/*
 * The read -> compute -> write pipeline of enc/dec (tools/iopipe.c): a
 * reader thread fills `nbuf` buffers of `chunk` bytes from in_fd, the caller
 * takes them in order (cli_iopipe_next), processes each in place and hands
 * it back (cli_iopipe_put), and a writer thread writes them to out_fd in
 * order.  cli_iopipe_start() returns 0 or an errno (nothing started).
 * cli_iopipe_next() returns 1 with the next chunk (*n bytes; only the last
 * is shorter than chunk), 0 at the end of the input (or after a failed
 * write), -1 with errno for a failed read.  cli_iopipe_finish(p, 1) waits
 * until every chunk put is written, (p, 0) stops both threads; either
 * returns the errno of a failed write, or 0.  cli_iopipe_scratch(): a
 * buffer free after finish; cli_iopipe_free() frees everything.
 */
typedef struct cli_iopipe cli_iopipe;
int cli_iopipe_start(cli_iopipe **p, int in_fd, int out_fd, size_t chunk, unsigned nbuf);
int cli_iopipe_next(cli_iopipe *p, uint8_t **buf, size_t *n);
void cli_iopipe_put(cli_iopipe *p, size_t n);
int cli_iopipe_write_error(cli_iopipe *p);
int cli_iopipe_finish(cli_iopipe *p, int ok);
uint8_t *cli_iopipe_scratch(cli_iopipe *p, size_t *cap);
void cli_iopipe_free(cli_iopipe *p);

/* Commands (one file each). */
int cmd_encdec(int argc, char **argv, cpim_dir dir); /* encdec_cmd.c */
int cmd_list(int argc, char **argv);                 /* cryptopim.c */
int cmd_sha256sum(int argc, char **argv);            /* sha256sum.c */
int cmd_hmac(int argc, char **argv);                 /* hmac.c */
int cmd_pbkdf2(int argc, char **argv);               /* hmac.c */
int cmd_ntt(int argc, char **argv);                  /* ntt.c */
/* speed, study and bench are the experiment suite's program,
 * cryptopim-bench (bench/), which `cryptopim` runs for them. */

#endif /* CPIM_CLI_H */
