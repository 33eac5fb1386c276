/*
 * encdec_cmd.c -- `cryptopim enc|dec`: AES-ECB / CTR / XTS / GCM of a file
 * or stream, byte-identical to `openssl enc -nosalt -nopad` with -K/-iv
 * (and to the GCM and XTS references of the tests).
 *
 * ECB, CTR and XTS stream the input in chunks (encdec.h's chunk size)
 * through a pipeline (iopipe.c: a reader thread, the compute here, a writer
 * thread), so reading, computing and writing overlap and memory use does
 * not grow with the input; the driver's position (cli_encdec_pos) carries
 * the counter block or the data unit number from one chunk to the next.
 * GCM holds the whole message, so that dec writes nothing unless the tag
 * matched.  The arguments are parsed in encdec_args.c, the length rules,
 * the backend with its key and the mode dispatch are the driver's
 * (encdec.c), and the output (-o) is handled by outfile.c, which makes sure
 * a failed run never leaves a partial OUT behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "encdec.h"

/* PIPE_BUFFERS chunks overlap read, compute and write (iopipe.c). */
#define PIPE_BUFFERS 4u

/* ---- GCM ------------------------------------------------------------------- */

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
        if (cli_encdec_check_size(e, in_name, n) != 0)
            goto out;
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
    cli_encdec_pos pos;
    cli_encdec_seek(&e, &pos, 0);
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
    int have_st = fstat(in_fd, &st) == 0;
    if (have_st && S_ISDIR(st.st_mode)) {
        cli_error("cannot read %s: %s", in_name, strerror(EISDIR));
        goto close_in;
    }
    if (have_st && S_ISREG(st.st_mode) &&
        cli_encdec_check_size(&e, in_name, (uint64_t)st.st_size) != 0)
        goto close_in;
    const char *backend = e.common.backend ? e.common.backend : "auto";
    size_t chunk = cli_encdec_chunk(&e, backend);
    if (!chunk)
        goto close_in;
    /* The output is checked (a folder, a read-only file...) before any input
     * is read, so that a long input is not processed for nothing. */
    cli_output out;
    if (cli_output_open(&out, e.out_path) != 0)
        goto close_in;

    cpim_ctx *ctx = cli_encdec_open(&e, backend, 0);
    if (!ctx)
        goto abort_out;
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
        if (cli_encdec_check_size(&e, in_name, total) != 0)
            goto stop_pipe;
        cpim_err err = cli_encdec_step(ctx, &e, &pos, buf, n, NULL);
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
    cpim_wipe(&pos, sizeof pos);
    cpim_wipe(e.key, sizeof e.key);
    cpim_wipe(e.iv, sizeof e.iv);
    cpim_wipe(e.gcm_iv, sizeof e.gcm_iv);
    return rc;
}
