/*
 * cryptopim.c -- the `cryptopim` command-line tool: dispatch, help, `list`,
 * and `enc` / `dec` (AES-ECB / AES-CTR of files and streams, byte-identical
 * to `openssl enc -nosalt -nopad` with -K/-iv).
 *
 * enc/dec stream the input in chunks (8 MiB, a multiple of 16), so memory
 * use does not grow with the input; in CTR mode the counter block the API
 * advances carries the stream from one chunk to the next.  A named output is
 * written to a temporary file beside it and renamed into place only on
 * success, so a failed run never leaves a partial OUT behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define CHUNK_DEFAULT (8u << 20)
#define KEY_FILE_MAX  4096 /* a key file is a few dozen hex digits */

/* ---- help ------------------------------------------------------------------ */

static const char main_help[] =
    "usage: cryptopim COMMAND [OPTIONS]\n"
    "\n"
    "Bulk AES and SHA-256 on UPMEM processing-in-memory DPUs (or the virtual\n"
    "UPMEM) and on CPU backends.\n"
    "\n"
    "commands:\n"
    "  enc        encrypt a file or stream (AES-ECB / AES-CTR, like openssl enc)\n"
    "  dec        decrypt a file or stream\n"
    "  sha256sum  hash many files at once (output like coreutils sha256sum)\n"
    "  list       backends compiled in, and whether they are available here\n"
    "  speed      measure throughput of the backends\n"
    "  bench      run the CryptoPIM study's experiments (CSV + plots)\n"
    "\n"
    "`cryptopim COMMAND --help` describes a command; `cryptopim --version`.\n";

static const char encdec_help[] =
    "usage: cryptopim enc|dec -a ALG (-K HEX | --key-file FILE) [--iv HEX]\n"
    "                 [-i IN] [-o OUT] [--backend NAME] [--threads N]\n"
    "                 [--dpus N | --ranks R] [--tasklets T] [--mode M]\n"
    "\n"
    "Encrypts (enc) or decrypts (dec) IN to OUT, byte-identical to\n"
    "`openssl enc [-d] -ALG -K HEX [-iv HEX] -nosalt -nopad`.\n"
    "\n"
    "  -a ALG             aes-128-ecb aes-192-ecb aes-256-ecb\n"
    "                     aes-128-ctr aes-192-ctr aes-256-ctr\n"
    "  -K HEX             the key in hex: 32, 48 or 64 digits for 128/192/256 bits\n"
    "                     (visible to other users in `ps`: prefer --key-file)\n"
    "  --key-file FILE    a file holding the key as hex text; spaces, tabs and\n"
    "                     newlines anywhere in it are ignored\n"
    "  --iv HEX           CTR only (required): the initial 16-byte counter block,\n"
    "                     32 hex digits, incremented as a 128-bit big-endian number\n"
    "  -i IN              input file (default or `-`: standard input)\n"
    "  -o OUT             output file (default or `-`: standard output); written to\n"
    "                     a temporary file beside OUT and renamed on success\n"
    "%s"
    "\n"
    "ECB takes no padding: its input must be a multiple of 16 bytes.\n"
    "Exit status: 0 on success, 2 on any error (nothing is left at OUT).\n";

/* ---- list ------------------------------------------------------------------ */

static const char list_help[] =
    "usage: cryptopim list\n"
    "\n"
    "One line per backend compiled in, in three columns:\n"
    "  NAME  available|unavailable  DESCRIPTION[ -- why it is unavailable]\n";

/* see cli.h */
int cmd_list(int argc, char **argv)
{
    cli_args a;
    const char *opt, *operand;
    cli_args_init(&a, argc, argv);
    while (cli_next(&a, &opt, &operand)) {
        if (opt && strcmp(opt, "--help") == 0) {
            fputs(list_help, stdout);
            return CLI_OK;
        }
        cli_error("list: unexpected argument '%s'", opt ? opt : operand);
        return CLI_USAGE;
    }
    size_t n = cpim_backend_count();
    for (size_t i = 0; i < n; i++) {
        cpim_backend_info info;
        if (cpim_backend_info_at(i, &info) != CPIM_OK)
            continue;
        printf("%-6s  %-11s  %s%s%s\n", info.name, info.available ? "available" : "unavailable",
               info.description, info.available ? "" : " -- ", info.why);
    }
    return CLI_OK;
}

/* ---- enc / dec: output file handling ------------------------------------- */

/* The temporary output file, also known to the signal handler so that an
 * interrupted run removes it. */
static char tmp_path[4096];
static volatile sig_atomic_t tmp_live;

static void on_signal(int sig)
{
    if (tmp_live)
        unlink(tmp_path);
    signal(sig, SIG_DFL);
    raise(sig);
}

struct output {
    int fd;
    const char *path; /* NULL = stdout */
};

/* Creates the temporary file beside `path` (path NULL: stdout).  Returns 0,
 * or -1 after printing the error. */
static int output_open(struct output *o, const char *path)
{
    o->path = path;
    if (!path) {
        o->fd = STDOUT_FILENO;
        return 0;
    }
    const char *slash = strrchr(path, '/');
    int dirlen = slash ? (int)(slash - path) + 1 : 0;
    if (snprintf(tmp_path, sizeof tmp_path, "%.*s.cryptopim-tmp-XXXXXX", dirlen, path) >=
        (int)sizeof tmp_path) {
        cli_error("%s: file name too long", path);
        return -1;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    o->fd = mkstemp(tmp_path);
    if (o->fd < 0) {
        cli_error("cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    tmp_live = 1;
    return 0;
}

/* Removes the temporary file (error path). */
static void output_abort(struct output *o)
{
    if (!o->path || !tmp_live)
        return;
    close(o->fd);
    unlink(tmp_path);
    tmp_live = 0;
}

/* Gives the file the mode a plain create would have (0666 & ~umask, or the
 * mode of the file it replaces), then renames it into place. */
static int output_commit(struct output *o)
{
    if (!o->path)
        return 0;
    struct stat st;
    mode_t mode;
    if (stat(o->path, &st) == 0) {
        mode = st.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    if (fchmod(o->fd, mode) != 0 || close(o->fd) != 0) {
        cli_error("cannot write %s: %s", o->path, strerror(errno));
        unlink(tmp_path);
        tmp_live = 0;
        return -1;
    }
    if (rename(tmp_path, o->path) != 0) {
        cli_error("cannot write %s: %s", o->path, strerror(errno));
        unlink(tmp_path);
        tmp_live = 0;
        return -1;
    }
    tmp_live = 0;
    return 0;
}

/* Reads until `cap` bytes or end of input; returns the count, or -1 (errno). */
static long read_full(int fd, uint8_t *buf, size_t cap)
{
    size_t got = 0;
    while (got < cap) {
        ssize_t r = read(fd, buf + got, cap - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (long)got;
}

static int write_full(int fd, const uint8_t *buf, size_t n)
{
    while (n) {
        ssize_t w = write(fd, buf, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        buf += w;
        n -= (size_t)w;
    }
    return 0;
}

/* ---- enc / dec --------------------------------------------------------------- */

struct alg {
    const char *name;
    size_t key_len;
    int ctr;
};

static const struct alg algs[] = {
    {"aes-128-ecb", 16, 0}, {"aes-192-ecb", 24, 0}, {"aes-256-ecb", 32, 0},
    {"aes-128-ctr", 16, 1}, {"aes-192-ctr", 24, 1}, {"aes-256-ctr", 32, 1},
};

static const struct alg *find_alg(const char *name)
{
    for (size_t i = 0; i < sizeof algs / sizeof algs[0]; i++)
        if (strcmp(algs[i].name, name) == 0)
            return &algs[i];
    return NULL;
}

/* Reads the key file as hex text into key[32]; returns the byte count or -1
 * after printing the error (which never contains key material). */
static long read_key_file(const char *path, uint8_t key[32])
{
    char text[KEY_FILE_MAX + 1];
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        cli_error("cannot read key file %s: %s", path, strerror(errno));
        return -1;
    }
    long n = read_full(fd, (uint8_t *)text, sizeof text);
    int err = errno;
    close(fd);
    if (n < 0) {
        cli_error("cannot read key file %s: %s", path, strerror(err));
        return -1;
    }
    if (n > KEY_FILE_MAX) {
        cpim_wipe(text, sizeof text);
        cli_error("key file %s is too large to hold a hex key", path);
        return -1;
    }
    long k = cli_unhex(text, (size_t)n, 1, key, 32);
    cpim_wipe(text, sizeof text);
    if (k == -1) {
        cli_error("key file %s: the key is not valid hex", path);
        return -1;
    }
    return k < 0 ? 33 : k; /* odd / too long: report as a wrong length */
}

/* Chunk size: 8 MiB; the CRYPTOPIM_CHUNK environment variable (bytes, a
 * multiple of 16) overrides it so tests can make CTR cross chunk borders. */
static size_t chunk_size(void)
{
    const char *e = getenv("CRYPTOPIM_CHUNK");
    if (e) {
        char *end;
        unsigned long v = strtoul(e, &end, 10);
        if (!*end && v >= 16 && v % 16 == 0 && v <= (1ul << 30))
            return v;
    }
    return CHUNK_DEFAULT;
}

/* see cli.h */
int cmd_encdec(int argc, char **argv, cpim_dir dir)
{
    const char *cmd = dir == CPIM_ENCRYPT ? "enc" : "dec";
    const char *alg_name = NULL, *key_hex = NULL, *key_file = NULL, *iv_hex = NULL;
    const char *in_path = NULL, *out_path = NULL;
    char *key_arg = NULL; /* argv storage of -K, wiped once parsed */
    cli_common c;
    cli_args a;
    const char *opt, *operand;
    int rc = CLI_USAGE;

    cli_common_init(&c);
    cli_args_init(&a, argc, argv);
    while (cli_next(&a, &opt, &operand)) {
        if (!opt) {
            cli_error("%s: unexpected argument '%s' (input is -i FILE)", cmd, operand);
            return CLI_USAGE;
        }
        int k = cli_common_option(&c, &a, opt);
        if (k < 0)
            return CLI_USAGE;
        if (k > 0)
            continue;
        const char **slot = NULL;
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            printf(encdec_help, cli_common_help);
            return CLI_OK;
        } else if (strcmp(opt, "-a") == 0 || strcmp(opt, "--alg") == 0) {
            slot = &alg_name;
        } else if (strcmp(opt, "-K") == 0 || strcmp(opt, "--key") == 0) {
            slot = &key_hex;
        } else if (strcmp(opt, "--key-file") == 0) {
            slot = &key_file;
        } else if (strcmp(opt, "--iv") == 0 || strcmp(opt, "-iv") == 0) {
            slot = &iv_hex;
        } else if (strcmp(opt, "-i") == 0 || strcmp(opt, "--in") == 0) {
            slot = &in_path;
        } else if (strcmp(opt, "-o") == 0 || strcmp(opt, "--out") == 0) {
            slot = &out_path;
        } else {
            cli_error("%s: unknown option %s (see `cryptopim %s --help`)", cmd, opt, cmd);
            return CLI_USAGE;
        }
        if (!(*slot = cli_value(&a, opt)))
            return CLI_USAGE;
        if (slot == &key_hex) {
            if (key_arg) /* -K given twice: the first one is dropped, wipe it */
                cpim_wipe(key_arg, strlen(key_arg));
            key_arg = (char *)key_hex;
        }
    }

    /* ---- validate everything before touching the output ---- */
    uint8_t key[32], iv[16];
    long key_len = 0;
    const struct alg *alg = alg_name ? find_alg(alg_name) : NULL;
    if (!alg_name) {
        cli_error("%s: missing -a ALG (aes-128-ecb ... aes-256-ctr)", cmd);
        goto wipe_arg;
    }
    if (!alg) {
        cli_error("%s: unknown algorithm '%s' (expected aes-128-ecb, aes-192-ecb, aes-256-ecb, "
                  "aes-128-ctr, aes-192-ctr or aes-256-ctr)",
                  cmd, alg_name);
        goto wipe_arg;
    }
    if (key_hex && key_file) {
        cli_error("%s: give the key with -K or --key-file, not both", cmd);
        goto wipe_arg;
    }
    if (!key_hex && !key_file) {
        cli_error("%s: missing key (-K HEX or --key-file FILE)", cmd);
        goto wipe_arg;
    }
    if (key_hex) {
        key_len = cli_unhex(key_hex, strlen(key_hex), 0, key, sizeof key);
        cpim_wipe(key_arg, strlen(key_arg)); /* hide it from later `ps` */
        if (key_len == -1) {
            cli_error("%s: the key (-K) is not valid hex", cmd);
            goto wipe_key;
        }
        if (key_len < 0)
            key_len = 33;
    } else if ((key_len = read_key_file(key_file, key)) < 0) {
        goto wipe_key;
    }
    if ((size_t)key_len != alg->key_len) {
        cli_error("%s: %s needs a %zu-byte key (%zu hex digits)", cmd, alg->name, alg->key_len,
                  2 * alg->key_len);
        goto wipe_key;
    }
    if (alg->ctr && !iv_hex) {
        cli_error("%s: %s needs --iv HEX (the 16-byte initial counter block, 32 hex digits)", cmd,
                  alg->name);
        goto wipe_key;
    }
    if (!alg->ctr && iv_hex) {
        cli_error("%s: %s takes no IV (remove --iv)", cmd, alg->name);
        goto wipe_key;
    }
    if (iv_hex && cli_unhex(iv_hex, strlen(iv_hex), 0, iv, sizeof iv) != 16) {
        cli_error("%s: --iv must be 32 hex digits (16 bytes)", cmd);
        goto wipe_key;
    }
    if (in_path && strcmp(in_path, "-") == 0)
        in_path = NULL;
    if (out_path && strcmp(out_path, "-") == 0)
        out_path = NULL;

    int in_fd = STDIN_FILENO;
    if (in_path && (in_fd = open(in_path, O_RDONLY)) < 0) {
        cli_error("cannot read %s: %s", in_path, strerror(errno));
        goto wipe_key;
    }
    const char *in_name = in_path ? in_path : "standard input";
    struct stat st;
    if (fstat(in_fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        cli_error("cannot read %s: %s", in_name, strerror(EISDIR));
        goto close_in;
    }
    if (!alg->ctr && fstat(in_fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size % 16) {
        cli_error("%s: input %s is %lld bytes, not a multiple of 16 (%s takes no padding)", cmd,
                  in_name, (long long)st.st_size, alg->name);
        goto close_in;
    }

    const char *backend = c.backend ? c.backend : "auto";
    cpim_ctx *ctx = cli_open(backend, &c.opt);
    if (!ctx)
        goto close_in;
    cpim_err err = cpim_aes_set_key(ctx, key, (size_t)key_len);
    cpim_wipe(key, sizeof key);
    if (err != CPIM_OK) {
        cli_error("%s: cannot set the key on backend '%s': %s", cmd, backend, cpim_strerror(err));
        goto close_ctx;
    }
    /* An empty call tells whether the backend provides the mode, so that
     * even an empty input gets the error. */
    err = alg->ctr ? cpim_aes_ctr(ctx, iv, NULL, NULL, 0) : cpim_aes_ecb(ctx, dir, NULL, NULL, 0);
    if (err != CPIM_OK) {
        cli_error("%s: %s on backend '%s': %s", cmd, alg->name, backend, cpim_strerror(err));
        goto close_ctx;
    }

    size_t chunk = chunk_size();
    uint8_t *buf = malloc(chunk);
    if (!buf) {
        cli_error("%s: out of memory (%zu-byte buffer)", cmd, chunk);
        goto close_ctx;
    }
    struct output out;
    if (output_open(&out, out_path) != 0)
        goto free_buf;
    const char *out_name = out_path ? out_path : "standard output";

    unsigned long long total = 0;
    for (;;) {
        long n = read_full(in_fd, buf, chunk);
        if (n < 0) {
            cli_error("cannot read %s: %s", in_name, strerror(errno));
            goto fail_out;
        }
        if (n == 0)
            break;
        total += (unsigned long long)n;
        if (!alg->ctr && n % 16) {
            cli_error("%s: input %s is %llu bytes, not a multiple of 16 (%s takes no padding)", cmd,
                      in_name, total, alg->name);
            goto fail_out;
        }
        err = alg->ctr ? cpim_aes_ctr(ctx, iv, buf, buf, (size_t)n)
                       : cpim_aes_ecb(ctx, dir, buf, buf, (size_t)n);
        if (err != CPIM_OK) {
            cli_error("%s: %s on backend '%s' failed: %s", cmd, alg->name, backend,
                      cpim_strerror(err));
            goto fail_out;
        }
        if (write_full(out.fd, buf, (size_t)n) != 0) {
            cli_error("cannot write %s: %s", out_name, strerror(errno));
            goto fail_out;
        }
        if ((size_t)n < chunk)
            break;
    }
    if (output_commit(&out) == 0)
        rc = CLI_OK;
    goto free_buf;

fail_out:
    output_abort(&out);
free_buf:
    free(buf);
close_ctx:
    cpim_close(ctx);
close_in:
    if (in_path)
        close(in_fd);
wipe_key:
    cpim_wipe(key, sizeof key);
    cpim_wipe(iv, sizeof iv);
    return rc;
wipe_arg:
    if (key_arg)
        cpim_wipe(key_arg, strlen(key_arg));
    return rc;
}

/* ---- the experiment suite -------------------------------------------------- */

/* speed, study and bench are cryptopim-bench's (bench/): run it in place of
 * this process, from the folder of this executable (build/ or the install
 * prefix's bin/), else from PATH.  Returns only on failure. */
static int run_bench_program(char **argv)
{
    char self[4096], path[4096 + 32];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    argv[0] = "cryptopim-bench";
    if (n > 0) {
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = '\0';
            snprintf(path, sizeof path, "%s/cryptopim-bench", self);
            execv(path, argv);
        }
    }
    execvp("cryptopim-bench", argv);
    cli_error("'%s' needs the experiment suite, cryptopim-bench, which was not found next to "
              "cryptopim or on PATH (make builds it): %s",
              argv[1], strerror(errno));
    return CLI_USAGE;
}

/* ---- main ------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(main_help, stderr);
        return CLI_USAGE;
    }
    const char *cmd = argv[1];
    int rc;
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(main_help, stdout);
        return CLI_OK;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("%s %s\n", CLI_NAME, CLI_VERSION);
        return CLI_OK;
    }
    if (strcmp(cmd, "enc") == 0)
        rc = cmd_encdec(argc - 2, argv + 2, CPIM_ENCRYPT);
    else if (strcmp(cmd, "dec") == 0)
        rc = cmd_encdec(argc - 2, argv + 2, CPIM_DECRYPT);
    else if (strcmp(cmd, "sha256sum") == 0)
        rc = cmd_sha256sum(argc - 2, argv + 2);
    else if (strcmp(cmd, "list") == 0)
        rc = cmd_list(argc - 2, argv + 2);
    else if (strcmp(cmd, "speed") == 0 || strcmp(cmd, "bench") == 0 || strcmp(cmd, "study") == 0)
        return run_bench_program(argv);
    else {
        cli_error("unknown command '%s' (enc, dec, sha256sum, list, speed, bench; see --help)",
                  cmd);
        return CLI_USAGE;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error("cannot write standard output: %s", strerror(errno));
        return rc ? rc : CLI_USAGE;
    }
    return rc;
}
