/*
 * cryptopim.c -- the `cryptopim` command-line tool: dispatch, help, `list`,
 * and `enc` / `dec` (AES-ECB / AES-CTR of files and streams, byte-identical
 * to `openssl enc -nosalt -nopad` with -K/-iv).
 *
 * enc/dec stream the input in chunks (1 MiB, a multiple of 16) through a
 * pipeline (tools/iopipe.c: a reader thread, the compute here, a writer
 * thread), so reading, computing and writing overlap and memory use does not
 * grow with the input; in CTR mode the counter block the API advances
 * carries the stream from one chunk to the next.  The arguments are
 * parsed in encdec_args.c and the output (-o) is handled by outfile.c, which
 * makes sure a failed run never leaves a partial OUT behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* Chunks: small enough that a chunk read is still in the cache when it is
 * encrypted and written; PIPE_BUFFERS of them overlap read, compute and
 * write (tools/iopipe.c). */
#define PIPE_BUFFERS 4u

/* ---- help ------------------------------------------------------------------ */

static const char main_help[] =
    "usage: cryptopim COMMAND [OPTIONS]\n"
    "\n"
    "Bulk AES and SHA-256 on UPMEM processing-in-memory DPUs (or the virtual\n"
    "UPMEM) and on CPU backends.\n"
    "\n"
    "commands:\n"
    "  enc        encrypt a file or stream (AES-ECB / AES-CTR like openssl enc,\n"
    "             AES-GCM)\n"
    "  dec        decrypt a file or stream\n"
    "  sha256sum  hash many files at once (output like coreutils sha256sum)\n"
    "  hmac       HMAC-SHA256 of files (output like openssl dgst -hmac)\n"
    "  pbkdf2     PBKDF2-HMAC-SHA256 key derivation (output like openssl kdf)\n"
    "  ntt        polynomial products / NTTs mod X^N + 1 (homomorphic encryption)\n"
    "  list       backends compiled in, and whether they are available here\n"
    "  speed      measure throughput of the backends\n"
    "  bench      run the CryptoPIM study's experiments (CSV + plots)\n"
    "  benchmark  the `cryptsetup benchmark` table (MiB/s per mode and key size)\n"
    "\n"
    "`cryptopim COMMAND --help` describes a command; `cryptopim --version`.\n";

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
        if (opt)
            cli_error("list: unknown option %s", cli_quote(opt));
        else
            cli_error("list: unexpected operand (argument %d)", cli_arg_number(&a));
        return CLI_USAGE;
    }
    size_t n = cpim_backend_count();
    for (size_t i = 0; i < n; i++) {
        cpim_backend_info info;
        if (cpim_backend_info_at(i, &info) != CPIM_OK)
            continue;
        printf("%-9s  %-11s  %s%s%s\n", info.name, info.available ? "available" : "unavailable",
               info.description, info.available ? "" : " -- ", info.why);
    }
    return CLI_OK;
}

/* ---- enc / dec --------------------------------------------------------------- */

/* Chunk size: the backend's (cpim_backend_chunk: pim's is larger, each
 * chunk is a DPU launch); the CRYPTOPIM_CHUNK environment variable (bytes,
 * a multiple of 16, 16 B to 1 GiB) overrides it so tests can make CTR cross chunk borders.  0 after
 * printing the error for a bad value. */
static size_t chunk_size(const char *backend)
{
    uint64_t v;
    int r = cli_env_u64("CRYPTOPIM_CHUNK", 16, 1u << 30, &v);
    if (r < 0)
        return 0;
    if (r > 0 && v % 16) {
        cli_error("CRYPTOPIM_CHUNK=%llu: not a multiple of 16", (unsigned long long)v);
        return 0;
    }
    if (r > 0)
        return (size_t)v;
    return cpim_backend_chunk(backend);
}

/* ---- GCM (issue 15) ------------------------------------------------------------ */

/* All of fd into a malloc'd buffer with `extra` spare bytes at its end
 * (*len: the bytes read); NULL with errno set on a read error or ENOMEM. */
static uint8_t *read_all(int fd, size_t extra, size_t *len)
{
    struct stat st;
    size_t cap = 1u << 20;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size + 1 > cap)
        cap = (size_t)st.st_size + 1; /* + 1: the end is seen without a regrowth */
    uint8_t *buf = malloc(cap + extra);
    size_t n = 0;
    while (buf) {
        long r = cli_read_full(fd, buf + n, cap - n);
        if (r < 0) {
            int err = errno;
            free(buf);
            errno = err;
            return NULL;
        }
        n += (size_t)r;
        if (n < cap)
            break;
        uint8_t *bigger = cap > SIZE_MAX / 2 - extra ? NULL : realloc(buf, 2 * cap + extra);
        if (!bigger) {
            free(buf);
            errno = ENOMEM;
            return NULL;
        }
        buf = bigger;
        cap *= 2;
    }
    if (!buf)
        errno = ENOMEM;
    *len = n;
    return buf;
}

/* All of buf to fd (GCM's output; the other modes write through iopipe.c). */
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

/* One GCM message: the whole input (and AAD) read into memory, processed
 * with one call, and written only when that call succeeded -- so dec writes
 * nothing unless the tag matched.  enc writes ciphertext || tag. */
static int gcm_stream(cpim_ctx *ctx, const cli_encdec *e, int in_fd, const char *in_name,
                      int out_fd, const char *out_name, const char *backend)
{
    int rc = -1;
    size_t al = 0, n = 0;
    uint8_t *aad = NULL, *buf = NULL;
    if (e->aad_path) {
        int fd = open(e->aad_path, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || !(aad = read_all(fd, 0, &al))) {
            cli_error("cannot read %s: %s", cli_quote_path(e->aad_path), strerror(errno));
            if (fd >= 0)
                close(fd);
            return -1;
        }
        close(fd);
    }
    if (!(buf = read_all(in_fd, 16, &n))) {
        cli_error("cannot read %s: %s", in_name, strerror(errno));
        goto out;
    }
    cpim_err err;
    size_t wlen;
    if (e->dir == CPIM_ENCRYPT) {
        err = cpim_aes_gcm_encrypt(ctx, e->gcm_iv, e->gcm_iv_len, aad, al, buf, buf, n, buf + n);
        wlen = n + 16;
    } else {
        if (n < 16) {
            cli_error("%s: input %s is %zu bytes, shorter than the 16-byte GCM tag", e->cmd,
                      in_name, n);
            goto out;
        }
        uint8_t tag[16];
        wlen = n - 16;
        memcpy(tag, buf + wlen, 16);
        err = cpim_aes_gcm_decrypt(ctx, e->gcm_iv, e->gcm_iv_len, aad, al, buf, buf, wlen, tag);
    }
    if (err == CPIM_ERR_AUTH) {
        cli_error("%s: authentication failed: the tag does not match (wrong key, IV or AAD, or "
                  "the input was altered); nothing written",
                  e->cmd);
        goto out;
    }
    if (err != CPIM_OK) {
        cli_error("%s: %s on backend '%s' failed: %s", e->cmd, e->alg_name, backend,
                  cpim_strerror(err));
        goto out;
    }
    if (write_full(out_fd, buf, wlen) != 0) {
        cli_error("cannot write %s: %s", out_name, strerror(errno));
        goto out;
    }
    rc = 0;
out:
    if (buf) /* plaintext on one side or the other */
        cpim_wipe(buf, n + 16);
    free(buf);
    free(aad);
    return rc;
}

/* see cli.h */
int cmd_encdec(int argc, char **argv, cpim_dir dir)
{
    cli_encdec e;
    int rc = cli_encdec_parse(&e, argc, argv, dir);
    if (rc == CLI_ENCDEC_HELP) {
        printf(cli_encdec_help, cli_common_help);
        return CLI_OK;
    }
    if (rc != CLI_OK)
        return rc;
    rc = CLI_USAGE;
    const char *cmd = e.cmd;
    if (cli_encdec_load_key(&e) != 0)
        goto wipe_key;

    int in_fd = STDIN_FILENO;
    if (e.in_path && (in_fd = open(e.in_path, O_RDONLY | O_CLOEXEC)) < 0) {
        cli_error("cannot read %s: %s", cli_quote_path(e.in_path), strerror(errno));
        goto wipe_key;
    }
    /* Names for messages, quoted once (cli_quote_path's buffers are reused):
     * a key given to -i or -o by mistake is not echoed. */
    char in_name[256], out_name[256];
    snprintf(in_name, sizeof in_name, "%s", cli_quote_path(e.in_path));
    snprintf(out_name, sizeof out_name, "%s", cli_quote_out(e.out_path));
    struct stat st;
    if (fstat(in_fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        cli_error("cannot read %s: %s", in_name, strerror(EISDIR));
        goto close_in;
    }
    if (!e.ctr && !e.xts && !e.gcm && fstat(in_fd, &st) == 0 && S_ISREG(st.st_mode) &&
        st.st_size % 16) {
        cli_error("%s: input %s is %lld bytes, not a multiple of 16 (%s takes no padding)", cmd,
                  in_name, (long long)st.st_size, e.alg_name);
        goto close_in;
    }
    if (e.xts && fstat(in_fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (size_t)st.st_size % e.sector_size && (size_t)st.st_size % e.sector_size < 16) {
        cli_error("%s: input %s is %lld bytes: its last sector would have %zu bytes (XTS needs "
                  "16 or more)",
                  cmd, in_name, (long long)st.st_size, (size_t)st.st_size % e.sector_size);
        goto close_in;
    }
    const char *backend = e.common.backend ? e.common.backend : "auto";
    size_t chunk = chunk_size(backend);
    if (!chunk)
        goto close_in;
    /* The output is checked (a folder, a read-only file...) before any input
     * is read, so that a long input is not processed for nothing. */
    cli_output out;
    if (cli_output_open(&out, e.out_path) != 0)
        goto close_in;

    cpim_ctx *ctx = cli_open(backend, &e.common.opt);
    if (!ctx)
        goto abort_out;
    cpim_err err =
        e.xts ? cpim_xts_set_key(ctx, e.key, e.key_len) : cpim_aes_set_key(ctx, e.key, e.key_len);
    cpim_wipe(e.key, sizeof e.key);
    if (err != CPIM_OK) {
        cli_error("%s: cannot set the key on backend '%s': %s", cmd, backend, cpim_strerror(err));
        goto close_ctx;
    }
    /* An empty call tells whether the backend provides the mode, so that
     * even an empty input gets the error. */
    uint8_t probe_tag[16];
    err = e.gcm
              ? cpim_aes_gcm_encrypt(ctx, e.gcm_iv, e.gcm_iv_len, NULL, 0, NULL, NULL, 0, probe_tag)
          : e.xts ? cpim_aes_xts(ctx, dir, 0, e.sector_size, NULL, NULL, 0)
          : e.ctr ? cpim_aes_ctr(ctx, e.iv, NULL, NULL, 0)
                  : cpim_aes_ecb(ctx, dir, NULL, NULL, 0);
    if (err != CPIM_OK) {
        cli_error("%s: %s on backend '%s': %s", cmd, e.alg_name, backend, cpim_strerror(err));
        goto close_ctx;
    }
    if (e.gcm) {
        if (gcm_stream(ctx, &e, in_fd, in_name, out.fd, out_name, backend) != 0)
            goto close_ctx;
        uint8_t *scratch = malloc(1u << 20); /* for copying over an existing OUT */
        if (!scratch) {
            cli_error("%s: out of memory", cmd);
            goto close_ctx;
        }
        if (cli_output_commit(&out, scratch, 1u << 20) == 0)
            rc = CLI_OK;
        free(scratch);
        cpim_close(ctx);
        goto close_in;
    }

    if (e.xts) /* whole sectors per call, so that each call's units are the file's */
        chunk = chunk < e.sector_size ? e.sector_size : chunk - chunk % e.sector_size;
    cli_iopipe *io = NULL;
    int perr = cli_iopipe_start(&io, in_fd, out.fd, chunk, PIPE_BUFFERS);
    if (perr) {
        cli_error("%s: cannot start the I/O pipeline (%u buffers of %zu bytes): %s", cmd,
                  PIPE_BUFFERS, chunk, strerror(perr));
        goto close_ctx;
    }
    unsigned long long total = 0;
    for (;;) {
        uint8_t *buf;
        size_t n;
        int r = cli_iopipe_next(io, &buf, &n);
        if (r < 0) {
            cli_error("cannot read %s: %s", in_name, strerror(errno));
            goto stop_pipe;
        }
        if (r == 0)
            break;
        total += n;
        if (e.xts && n % e.sector_size && n % e.sector_size < 16) {
            cli_error("%s: input %s is %llu bytes: its last sector would have %zu bytes (XTS "
                      "needs 16 or more)",
                      cmd, in_name, total, n % e.sector_size);
            goto stop_pipe;
        }
        if (!e.ctr && !e.xts && n % 16) {
            cli_error("%s: input %s is %llu bytes, not a multiple of 16 (%s takes no padding)", cmd,
                      in_name, total, e.alg_name);
            goto stop_pipe;
        }
        err = e.xts   ? cpim_aes_xts(ctx, dir, e.sector, e.sector_size, buf, buf, n)
              : e.ctr ? cpim_aes_ctr(ctx, e.iv, buf, buf, n)
                      : cpim_aes_ecb(ctx, dir, buf, buf, n);
        e.sector += (uint64_t)(n / e.sector_size); /* XTS: the next call's first unit */
        if (err != CPIM_OK) {
            cli_error("%s: %s on backend '%s' failed: %s", cmd, e.alg_name, backend,
                      cpim_strerror(err));
            goto stop_pipe;
        }
        cli_iopipe_put(io, n);
        if (cli_iopipe_write_error(io))
            break; /* reported below */
    }
    perr = cli_iopipe_finish(io, 1);
    if (perr) {
        cli_error("cannot write %s: %s", out_name, strerror(perr));
        goto free_pipe;
    }
    size_t scratch_len;
    uint8_t *scratch = cli_iopipe_scratch(io, &scratch_len);
    if (cli_output_commit(&out, scratch, scratch_len) == 0)
        rc = CLI_OK;
    cli_iopipe_free(io);
    cpim_close(ctx);
    goto close_in;

stop_pipe:
    cli_iopipe_finish(io, 0);
free_pipe:
    cli_iopipe_free(io);
close_ctx:
    cpim_close(ctx);
abort_out:
    cli_output_abort(&out);
close_in:
    if (e.in_path)
        close(in_fd);
wipe_key:
    cpim_wipe(e.key, sizeof e.key);
    cpim_wipe(e.iv, sizeof e.iv);
    cpim_wipe(e.gcm_iv, sizeof e.gcm_iv);
    return rc;
}

/* A process that holds keys leaves no core file with them, and a debugger
 * of the same user cannot attach to read them (Linux: not dumpable; the
 * process can still use its own /proc entries).  Done before any key is
 * read; failures change nothing else, so they are not errors. */
static void no_core_dumps(void)
{
    struct rlimit none = {0, 0};
    (void)setrlimit(RLIMIT_CORE, &none);
#ifdef PR_SET_DUMPABLE
    (void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#endif
}

/* ---- the experiment suite -------------------------------------------------- */

/* speed, study, bench and benchmark are cryptopim-bench's (bench/): run it in place of
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
    if (cli_guard_std_fds() != 0) {
        cli_error("cannot reserve the standard descriptors: %s", strerror(errno));
        return CLI_USAGE;
    }
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
    if (strcmp(cmd, "enc") == 0 || strcmp(cmd, "dec") == 0) {
        no_core_dumps();
        rc = cmd_encdec(argc - 2, argv + 2, cmd[0] == 'e' ? CPIM_ENCRYPT : CPIM_DECRYPT);
    } else if (strcmp(cmd, "sha256sum") == 0)
        rc = cmd_sha256sum(argc - 2, argv + 2);
    else if (strcmp(cmd, "hmac") == 0 || strcmp(cmd, "pbkdf2") == 0) {
        no_core_dumps();
        rc = cmd[0] == 'h' ? cmd_hmac(argc - 2, argv + 2) : cmd_pbkdf2(argc - 2, argv + 2);
    } else if (strcmp(cmd, "list") == 0)
        rc = cmd_list(argc - 2, argv + 2);
    else if (strcmp(cmd, "ntt") == 0)
        rc = cmd_ntt(argc - 2, argv + 2);
    else if (strcmp(cmd, "speed") == 0 || strcmp(cmd, "bench") == 0 || strcmp(cmd, "study") == 0 ||
             strcmp(cmd, "benchmark") == 0)
        return run_bench_program(argv);
    else {
        cli_error("unknown command %s (enc, dec, sha256sum, hmac, pbkdf2, ntt, list, speed, bench, "
                  "benchmark; see --help)",
                  cli_quote(cmd));
        return CLI_USAGE;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error("cannot write standard output: %s", strerror(errno));
        return rc ? rc : CLI_USAGE;
    }
    return rc;
}
