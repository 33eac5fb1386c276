/*
 * hmac.c -- `cryptopim hmac` and `cryptopim pbkdf2`.
 *
 *  hmac:   HMAC-SHA256 of files or standard input, printed like OpenSSL 3's
 *          `openssl dgst -sha256 -mac HMAC -macopt hexkey:HEX` (one line
 *          per input, `HMAC-SHA2-256(FILE)= hex`; for standard input
 *          OpenSSL 3.0 prints `SHA2-256(stdin)= hex`, and so does this, to
 *          stay byte-identical).  All inputs go to the library as one
 *          batch (cpim_hmac_sha256_batch): each is read whole.
 *  pbkdf2: PBKDF2-HMAC-SHA256 of a password read from a file, printed like
 *          `openssl kdf -keylen N -kdfopt digest:SHA256 ... PBKDF2`:
 *          uppercase hex bytes separated by colons.
 *
 * Keys and passwords are never printed (errors name the option, not the
 * value), wiped from memory after use, and -K's text is wiped from argv.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define SECRET_FILE_MAX (1u << 20) /* a key or password file: 1 MiB is plenty */

static const char hmac_help[] =
    "usage: cryptopim hmac (-K HEX | --key-file FILE) [OPTIONS] [FILE...]\n"
    "\n"
    "HMAC-SHA256 of each FILE (standard input when none, or for -), one line\n"
    "each, as `openssl dgst -sha256 -mac HMAC -macopt hexkey:HEX` prints it:\n"
    "  HMAC-SHA2-256(FILE)= <64 hex digits>\n"
    "\n"
    "  -K HEX             the key in hex, any length (visible in `ps`: prefer\n"
    "                     --key-file)\n"
    "  --key-file FILE    a file holding the key as hex text (whitespace ignored)\n"
    "%s";

static const char pbkdf2_help[] =
    "usage: cryptopim pbkdf2 --pass-file FILE --salt HEX --iter N --keylen N [OPTIONS]\n"
    "\n"
    "PBKDF2-HMAC-SHA256 (RFC 8018), printed as `openssl kdf -keylen N -kdfopt\n"
    "digest:SHA256 -kdfopt pass:P -kdfopt hexsalt:HEX -kdfopt iter:N PBKDF2`\n"
    "prints it: uppercase hex bytes separated by colons.\n"
    "\n"
    "  --pass-file FILE   the password: the file's bytes, without one final\n"
    "                     newline if there is one\n"
    "  --salt HEX         the salt in hex (may be empty: --salt '')\n"
    "  --iter N           iterations, >= 1\n"
    "  --keylen N         bytes to derive, 1 .. 1048576\n"
    "%s";

/* Reads a whole file (or standard input for NULL) into a malloc'd buffer
 * with one spare byte past *len (callers end text with a NUL there); NULL
 * after printing the error.  cap: the most bytes accepted. */
static uint8_t *read_all(const char *path, size_t cap, size_t *len)
{
    int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : 0;
    if (fd < 0) {
        cli_error("cannot read %s: %s", cli_quote_path(path), strerror(errno));
        return NULL;
    }
    size_t size = 0, room = 65536;
    uint8_t *buf = malloc(room + 1);
    for (;;) {
        if (!buf) {
            cli_error("out of memory reading %s", cli_quote_path(path));
            break;
        }
        long n = cli_read_full(fd, buf + size, room - size);
        if (n < 0) {
            cli_error("cannot read %s: %s", cli_quote_path(path), strerror(errno));
            break;
        }
        size += (size_t)n;
        if (size < room) {
            if (path)
                close(fd);
            *len = size;
            return buf;
        }
        if (room >= cap) {
            /* exactly cap bytes is allowed: only a byte more is too large */
            uint8_t more;
            long m = cli_read_full(fd, &more, 1);
            cpim_wipe(&more, 1);
            if (m == 0) {
                if (path)
                    close(fd);
                *len = size;
                return buf;
            }
            if (m < 0)
                cli_error("cannot read %s: %s", cli_quote_path(path), strerror(errno));
            else
                cli_error("%s is too large (more than %zu bytes)", cli_quote_path(path), cap);
            break;
        }
        uint8_t *more = malloc(room * 2 + 1);
        if (more) {
            memcpy(more, buf, size);
            cpim_wipe(buf, size); /* it may be a key */
        }
        free(buf);
        buf = more;
        room *= 2;
    }
    if (buf)
        cpim_wipe(buf, size);
    free(buf);
    if (path)
        close(fd);
    return NULL;
}

/* The secret of --key-file: hex text.  Returns its byte count, -1 after
 * printing the error (never the key). */
static long load_hex_key(const char *path, uint8_t **key)
{
    size_t n = 0;
    uint8_t *text = read_all(path, SECRET_FILE_MAX, &n);
    if (!text)
        return -1;
    *key = malloc(n / 2 + 1);
    long k = *key ? cli_unhex((const char *)text, n, 1, *key, n / 2 + 1) : -4;
    cpim_wipe(text, n);
    free(text);
    if (k < 0) {
        if (k == -4)
            cli_error("out of memory");
        else
            cli_error("key file %s: the key is not valid hex", cli_quote_path(path));
        free(*key);
        *key = NULL;
        return -1;
    }
    return k;
}

/* see cli.h */
int cmd_hmac(int argc, char **argv)
{
    cli_args a;
    cli_common c;
    const char *opt, *operand, *key_file = NULL;
    char *key_hex = NULL;
    uint8_t *key = NULL;
    long key_len = -1;
    int rc = CLI_USAGE;
    char **files = calloc((size_t)argc + 1, sizeof *files);
    size_t nfiles = 0;
    cli_common_init(&c);
    c.backend = "auto";
    cli_args_init(&a, argc, argv);
    if (!files) {
        cli_error("out of memory");
        return CLI_FAIL;
    }
    while (cli_next(&a, &opt, &operand)) {
        if (operand) {
            files[nfiles++] = (char *)operand;
            continue;
        }
        int k = cli_common_option(&c, &a, opt);
        if (k < 0)
            goto out;
        if (k > 0)
            continue;
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            printf(hmac_help, cli_common_help);
            rc = CLI_OK;
            goto out;
        } else if (strcmp(opt, "-K") == 0 || strcmp(opt, "--key") == 0) {
            const char *v = cli_value(&a, opt);
            if (!v)
                goto out;
            if (key_hex) /* given twice: the first is dropped, wipe it */
                cpim_wipe(key_hex, strlen(key_hex));
            key_hex = (char *)v;
        } else if (strcmp(opt, "--key-file") == 0) {
            if (!(key_file = cli_value(&a, opt)))
                goto out;
        } else {
            cli_error("hmac: unknown option %s (see `cryptopim hmac --help`)", cli_quote(opt));
            goto out;
        }
    }
    if (key_hex && key_file) {
        cli_error("hmac: give the key with -K or --key-file, not both");
        goto out;
    }
    if (!key_hex && !key_file) {
        cli_error("hmac: missing key (-K HEX or --key-file FILE)");
        goto out;
    }
    if (key_hex) {
        size_t n = strlen(key_hex);
        key = malloc(n / 2 + 1);
        key_len = key ? cli_unhex(key_hex, n, 0, key, n / 2 + 1) : -1;
        cpim_wipe(key_hex, n); /* hide it from later `ps` */
        key_hex = NULL;
        if (key_len < 0) {
            cli_error("hmac: the key (-K) is not valid hex");
            goto out;
        }
    } else if ((key_len = load_hex_key(key_file, &key)) < 0) {
        rc = CLI_FAIL;
        goto out;
    }
    if (nfiles == 0)
        files[nfiles++] = "-";
    rc = CLI_FAIL;
    uint8_t **data = calloc(nfiles, sizeof *data);
    size_t *lens = calloc(nfiles, sizeof *lens);
    const uint8_t **keys = calloc(nfiles, sizeof *keys);
    size_t *klens = calloc(nfiles, sizeof *klens);
    uint8_t(*macs)[32] = calloc(nfiles, 32);
    cpim_ctx *ctx = NULL;
    if (!data || !lens || !keys || !klens || !macs) {
        cli_error("out of memory");
        goto free_all;
    }
    for (size_t i = 0; i < nfiles; i++) {
        const char *path = strcmp(files[i], "-") == 0 ? NULL : files[i];
        if (!(data[i] = read_all(path, (size_t)1 << 40, &lens[i])))
            goto free_all;
        keys[i] = key, klens[i] = (size_t)key_len;
    }
    if (!(ctx = cli_open(c.backend, &c.opt)))
        goto free_all;
    cpim_err e =
        cpim_hmac_sha256_batch(ctx, keys, klens, (const uint8_t *const *)data, lens, nfiles, macs);
    if (e != CPIM_OK) {
        cli_error("hmac: %s", cpim_strerror(e));
        goto free_all;
    }
    for (size_t i = 0; i < nfiles; i++) {
        if (strcmp(files[i], "-") == 0)
            fputs("SHA2-256(stdin)= ", stdout); /* what OpenSSL 3.0 prints */
        else
            printf("HMAC-SHA2-256(%s)= ", files[i]);
        for (int b = 0; b < 32; b++)
            printf("%02x", macs[i][b]);
        putchar('\n');
    }
    rc = CLI_OK;
free_all:
    cpim_close(ctx);
    if (data)
        for (size_t i = 0; i < nfiles; i++)
            free(data[i]);
    free(data), free(lens), free(keys), free(klens), free(macs);
out:
    if (key_hex)
        cpim_wipe(key_hex, strlen(key_hex));
    if (key && key_len > 0)
        cpim_wipe(key, (size_t)key_len);
    free(key);
    free(files);
    return rc;
}

/* see cli.h */
int cmd_pbkdf2(int argc, char **argv)
{
    cli_args a;
    cli_common c;
    const char *opt, *operand, *pass_file = NULL, *salt_hex = NULL, *iter_s = NULL,
                               *keylen_s = NULL;
    unsigned iter = 0, keylen = 0;
    cli_common_init(&c);
    c.backend = "auto";
    cli_args_init(&a, argc, argv);
    while (cli_next(&a, &opt, &operand)) {
        if (operand) {
            /* not echoed: it may be a password typed in the wrong place */
            cli_error("pbkdf2: takes no operands (the password comes from --pass-file)");
            return CLI_USAGE;
        }
        int k = cli_common_option(&c, &a, opt);
        if (k < 0)
            return CLI_USAGE;
        if (k > 0)
            continue;
        const char **slot;
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            printf(pbkdf2_help, cli_common_help);
            return CLI_OK;
        } else if (strcmp(opt, "--pass-file") == 0) {
            slot = &pass_file;
        } else if (strcmp(opt, "--salt") == 0) {
            slot = &salt_hex;
        } else if (strcmp(opt, "--iter") == 0) {
            slot = &iter_s;
        } else if (strcmp(opt, "--keylen") == 0) {
            slot = &keylen_s;
        } else {
            cli_error("pbkdf2: unknown option %s (see `cryptopim pbkdf2 --help`)", cli_quote(opt));
            return CLI_USAGE;
        }
        if (!(*slot = cli_value(&a, opt)))
            return CLI_USAGE;
    }
    if (!pass_file || !salt_hex || !iter_s || !keylen_s) {
        cli_error("pbkdf2: missing %s", !pass_file  ? "--pass-file FILE"
                                        : !salt_hex ? "--salt HEX"
                                        : !iter_s   ? "--iter N"
                                                    : "--keylen N");
        return CLI_USAGE;
    }
    if (cli_parse_uint("--iter", iter_s, 1, 0xffffffffu, &iter) < 0 ||
        cli_parse_uint("--keylen", keylen_s, 1, 1u << 20, &keylen) < 0)
        return CLI_USAGE;
    size_t sl = strlen(salt_hex);
    uint8_t *salt = malloc(sl / 2 + 1);
    long salt_len = salt ? cli_unhex(salt_hex, sl, 0, salt, sl / 2 + 1) : -1;
    if (salt_len < 0) {
        cli_error("pbkdf2: --salt is not valid hex");
        free(salt);
        return CLI_USAGE;
    }
    int rc = CLI_FAIL;
    size_t pass_len = 0;
    uint8_t *pass = read_all(pass_file, SECRET_FILE_MAX, &pass_len);
    uint8_t *out = malloc(keylen);
    cpim_ctx *ctx = NULL;
    if (!pass || !out) {
        if (pass)
            cli_error("out of memory");
        goto out;
    }
    if (pass_len && pass[pass_len - 1] == '\n')
        pass[--pass_len] = 0;
    if (!(ctx = cli_open(c.backend, &c.opt)))
        goto out;
    cpim_err e = cpim_pbkdf2_sha256(ctx, pass, pass_len, salt, (size_t)salt_len, iter, out, keylen);
    if (e != CPIM_OK) {
        cli_error("pbkdf2: %s", cpim_strerror(e));
        goto out;
    }
    for (unsigned i = 0; i < keylen; i++)
        printf(i ? ":%02X" : "%02X", out[i]);
    putchar('\n');
    rc = CLI_OK;
out:
    cpim_close(ctx);
    if (pass)
        cpim_wipe(pass, pass_len + 1);
    if (out)
        cpim_wipe(out, keylen);
    free(pass), free(out), free(salt);
    return rc;
}
