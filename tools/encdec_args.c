/*
 * encdec_args.c -- the arguments of `cryptopim enc` / `dec`: scanning and
 * checking, with no I/O beyond the one error line (see cli.h).  Kept apart
 * from the command itself so that tests/fuzz/fuzz_cliargs.c can drive the
 * parser with arbitrary argv without running any crypto or touching files.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define KEY_FILE_MAX 4096 /* a key file is a few dozen hex digits */

const char cli_encdec_help[] =
    "usage: cryptopim enc|dec -a ALG (-K HEX | --key-file FILE) [--iv HEX]\n"
    "                 [--sector-size N] [--sector START] [--aad-file F]\n"
    "                 [-i IN] [-o OUT] [--backend NAME] [--threads N]\n"
    "                 [--dpus N | --ranks R] [--tasklets T] [--mode M]\n"
    "\n"
    "Encrypts (enc) or decrypts (dec) IN to OUT, byte-identical to\n"
    "`openssl enc [-d] -ALG -K HEX [-iv HEX] -nosalt -nopad`.\n"
    "\n"
    "  -a ALG             aes-128-ecb aes-192-ecb aes-256-ecb\n"
    "                     aes-128-ctr aes-192-ctr aes-256-ctr\n"
    "                     aes-128-xts aes-256-xts\n"
    "                     aes-128-gcm aes-192-gcm aes-256-gcm\n"
    "  -K HEX             the key in hex: 32, 48 or 64 digits for 128/192/256 bits;\n"
    "                     XTS: 64 or 128 digits (key1 then key2; equal halves refused)\n"
    "                     (visible to other users in `ps`: prefer --key-file)\n"
    "  --key-file FILE    a file holding the key as hex text; spaces, tabs and\n"
    "                     newlines anywhere in it are ignored\n"
    "  --iv HEX           CTR only (required): the initial 16-byte counter block,\n"
    "                     32 hex digits, incremented as a 128-bit big-endian number;\n"
    "                     GCM (required): the IV, 1 to 128 bytes (24 hex digits =\n"
    "                     96 bits is the standard size); never reuse one with a key\n"
    "  --aad-file F       GCM only: additional data authenticated with the message\n"
    "                     but not encrypted (default: none)\n"
    "  --sector-size N    XTS only: the data unit in bytes, 16 to 16777216 (default\n"
    "                     512); unit i is encrypted with the tweak START + i\n"
    "  --sector START     XTS only: the number of the first unit (default 0), as\n"
    "                     dm-crypt's aes-xts-plain64: a 64-bit little-endian\n"
    "                     number followed by 8 zero bytes\n"
    "  -i IN              input file (default or `-`: standard input)\n"
    "  -o OUT             output (default or `-`: standard output).  A device or\n"
    "                     FIFO is written directly; a regular file gets the new\n"
    "                     content only after all input was processed, keeping\n"
    "                     its inode, links, owner and mode; a symbolic link is\n"
    "                     followed; a read-only file is refused\n"
    "%s"
    "\n"
    "ECB takes no padding: its input must be a multiple of 16 bytes.\n"
    "XTS (not in `openssl enc`) equals OpenSSL's EVP XTS applied to each unit; a\n"
    "last unit shorter than N uses ciphertext stealing and needs 16 bytes or more.\n"
    "GCM: enc writes the ciphertext followed by the 16-byte tag (what OpenSSL's\n"
    "and other libraries' one-shot AEAD calls produce); dec takes that, checks\n"
    "the tag before writing anything, and on a mismatch writes nothing and\n"
    "exits with 2.  GCM holds the whole input in memory (one message).\n"
    "Exit status: 0 on success, 2 on any error (a file OUT is then as it was).\n";

struct alg {
    const char *name;
    size_t key_len;
    int ctr, xts, gcm;
};

static const struct alg algs[] = {
    {"aes-128-ecb", 16, 0, 0, 0}, {"aes-192-ecb", 24, 0, 0, 0}, {"aes-256-ecb", 32, 0, 0, 0},
    {"aes-128-ctr", 16, 1, 0, 0}, {"aes-192-ctr", 24, 1, 0, 0}, {"aes-256-ctr", 32, 1, 0, 0},
    {"aes-128-xts", 32, 0, 1, 0}, {"aes-256-xts", 64, 0, 1, 0}, {"aes-128-gcm", 16, 0, 0, 1},
    {"aes-192-gcm", 24, 0, 0, 1}, {"aes-256-gcm", 32, 0, 0, 1},
};

/* A decimal number in [lo, hi] (no sign, no blanks); 0, or -1. */
static int parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
    uint64_t x = 0;
    if (!*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || x > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
            return -1;
        x = x * 10 + (uint64_t)(*s - '0');
    }
    if (x < lo || x > hi)
        return -1;
    *v = x;
    return 0;
}

static const struct alg *find_alg(const char *name)
{
    for (size_t i = 0; i < sizeof algs / sizeof algs[0]; i++)
        if (strcmp(algs[i].name, name) == 0)
            return &algs[i];
    return NULL;
}

static int check_key_len(const cli_encdec *e, long got)
{
    if (got < 0 || (size_t)got != e->key_len) {
        cli_error("%s: %s needs a %zu-byte key (%zu hex digits)", e->cmd, e->alg_name, e->key_len,
                  2 * e->key_len);
        return -1;
    }
    return 0;
}

/* see cli.h */
int cli_encdec_parse(cli_encdec *e, int argc, char **argv, cpim_dir dir)
{
    const char *alg_name = NULL, *key_hex = NULL, *iv_hex = NULL;
    const char *sector_size = NULL, *sector = NULL;
    char *key_arg = NULL; /* argv storage of -K, wiped once decoded */
    cli_args a;
    const char *opt, *operand;
    int rc = CLI_USAGE;

    memset(e, 0, sizeof *e);
    e->dir = dir;
    e->cmd = dir == CPIM_ENCRYPT ? "enc" : "dec";
    cli_common_init(&e->common);
    cli_args_init(&a, argc, argv);
    while (cli_next(&a, &opt, &operand)) {
        if (!opt) {
            /* The text is not echoed: a stray operand is often a key that
             * lost its -K. */
            cli_error("%s: unexpected operand (argument %d; the input is given with -i FILE)",
                      e->cmd, cli_arg_number(&a));
            goto wipe_arg;
        }
        int k = cli_common_option(&e->common, &a, opt);
        if (k < 0)
            goto wipe_arg;
        if (k > 0)
            continue;
        const char **slot = NULL;
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            rc = CLI_ENCDEC_HELP;
            goto wipe_arg;
        } else if (strcmp(opt, "-a") == 0 || strcmp(opt, "--alg") == 0) {
            slot = &alg_name;
        } else if (strcmp(opt, "-K") == 0 || strcmp(opt, "--key") == 0) {
            slot = &key_hex;
        } else if (strcmp(opt, "--key-file") == 0) {
            slot = &e->key_file;
        } else if (strcmp(opt, "--iv") == 0 || strcmp(opt, "-iv") == 0) {
            slot = &iv_hex;
        } else if (strcmp(opt, "--sector-size") == 0) {
            slot = &sector_size;
        } else if (strcmp(opt, "--sector") == 0) {
            slot = &sector;
        } else if (strcmp(opt, "--aad-file") == 0) {
            slot = &e->aad_path;
        } else if (strcmp(opt, "-i") == 0 || strcmp(opt, "--in") == 0) {
            slot = &e->in_path;
        } else if (strcmp(opt, "-o") == 0 || strcmp(opt, "--out") == 0) {
            slot = &e->out_path;
        } else {
            cli_error("%s: unknown option %s (see `cryptopim %s --help`)", e->cmd, cli_quote(opt),
                      e->cmd);
            goto wipe_arg;
        }
        if (!(*slot = cli_value(&a, opt)))
            goto wipe_arg;
        if (slot == &key_hex) {
            if (key_arg) /* -K given twice: the first one is dropped, wipe it */
                cpim_wipe(key_arg, strlen(key_arg));
            key_arg = (char *)key_hex;
        }
    }

    const struct alg *alg = alg_name ? find_alg(alg_name) : NULL;
    if (!alg_name) {
        cli_error("%s: missing -a ALG (aes-128-ecb ... aes-256-gcm)", e->cmd);
        goto wipe_arg;
    }
    if (!alg) {
        cli_error("%s: unknown algorithm %s (expected aes-128-ecb, aes-192-ecb, aes-256-ecb, "
                  "aes-128-ctr, aes-192-ctr, aes-256-ctr, aes-128-xts, aes-256-xts, aes-128-gcm, "
                  "aes-192-gcm or aes-256-gcm)",
                  e->cmd, cli_quote(alg_name));
        goto wipe_arg;
    }
    e->alg_name = alg->name;
    e->key_len = alg->key_len;
    e->ctr = alg->ctr;
    e->xts = alg->xts;
    e->sector_size = 512;
    if (!e->xts && (sector_size || sector)) {
        cli_error("%s: --sector-size and --sector are for XTS only", e->cmd);
        goto wipe_arg;
    }
    uint64_t v = 0;
    if (sector_size) {
        if (parse_u64(sector_size, 16, (uint64_t)1 << 24, &v) != 0) {
            cli_error("%s: --sector-size must be a number of bytes from 16 to 16777216", e->cmd);
            goto wipe_arg;
        }
        e->sector_size = (size_t)v;
    }
    if (sector && parse_u64(sector, 0, UINT64_MAX, &e->sector) != 0) {
        cli_error("%s: --sector must be a unit number from 0 to 2^64 - 1", e->cmd);
        goto wipe_arg;
    }
    e->gcm = alg->gcm;
    if (key_hex && e->key_file) {
        cli_error("%s: give the key with -K or --key-file, not both", e->cmd);
        goto wipe_arg;
    }
    if (!key_hex && !e->key_file) {
        cli_error("%s: missing key (-K HEX or --key-file FILE)", e->cmd);
        goto wipe_arg;
    }
    if (key_hex) {
        long n = cli_unhex(key_hex, strlen(key_hex), 0, e->key, sizeof e->key);
        cpim_wipe(key_arg, strlen(key_arg)); /* hide it from later `ps` */
        key_arg = NULL;
        if (n == -1) {
            cli_error("%s: the key (-K) is not valid hex", e->cmd);
            goto wipe_key;
        }
        if (check_key_len(e, n))
            goto wipe_key;
    }
    if (e->ctr && !iv_hex) {
        cli_error("%s: %s needs --iv HEX (the 16-byte initial counter block, 32 hex digits)",
                  e->cmd, e->alg_name);
        goto wipe_key;
    }
    if (e->gcm && !iv_hex) {
        cli_error("%s: %s needs --iv HEX (the IV: 1 to 128 bytes, usually 24 hex digits)", e->cmd,
                  e->alg_name);
        goto wipe_key;
    }
    if (e->gcm) {
        long n = cli_unhex(iv_hex, strlen(iv_hex), 0, e->gcm_iv, sizeof e->gcm_iv);
        if (n < 1) {
            cli_error("%s: --iv must be 2 to 256 hex digits (1 to 128 bytes)", e->cmd);
            goto wipe_key;
        }
        e->gcm_iv_len = (size_t)n;
        iv_hex = NULL; /* not CTR's 16-byte block */
    }
    if (!e->gcm && e->aad_path) {
        cli_error("%s: %s takes no additional data (--aad-file is for GCM)", e->cmd, e->alg_name);
        goto wipe_key;
    }
    if (!e->ctr && !e->gcm && iv_hex) {
        cli_error("%s: %s takes no IV (remove --iv)", e->cmd, e->alg_name);
        goto wipe_key;
    }
    if (iv_hex && cli_unhex(iv_hex, strlen(iv_hex), 0, e->iv, sizeof e->iv) != 16) {
        cli_error("%s: --iv must be 32 hex digits (16 bytes)", e->cmd);
        goto wipe_key;
    }
    if (e->in_path && strcmp(e->in_path, "-") == 0)
        e->in_path = NULL;
    if (e->out_path && strcmp(e->out_path, "-") == 0)
        e->out_path = NULL;
    return CLI_OK;

wipe_key:
    cpim_wipe(e->key, sizeof e->key);
    cpim_wipe(e->iv, sizeof e->iv);
    cpim_wipe(e->gcm_iv, sizeof e->gcm_iv);
wipe_arg:
    if (key_arg)
        cpim_wipe(key_arg, strlen(key_arg));
    return rc;
}

/* see cli.h */
int cli_encdec_load_key(cli_encdec *e)
{
    if (!e->key_file)
        return 0;
    char text[KEY_FILE_MAX + 1];
    const char *path = e->key_file;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        cli_error("cannot read key file %s: %s", cli_quote_path(path), strerror(errno));
        return -1;
    }
    long n = cli_read_full(fd, text, sizeof text);
    int err = errno;
    close(fd);
    if (n < 0) {
        cli_error("cannot read key file %s: %s", cli_quote_path(path), strerror(err));
        return -1;
    }
    if (n > KEY_FILE_MAX) {
        cpim_wipe(text, sizeof text);
        cli_error("key file %s is too large to hold a hex key", cli_quote_path(path));
        return -1;
    }
    long k = cli_unhex(text, (size_t)n, 1, e->key, sizeof e->key);
    cpim_wipe(text, sizeof text);
    if (k == -1) {
        cli_error("key file %s: the key is not valid hex", cli_quote_path(path));
        cpim_wipe(e->key, sizeof e->key);
        return -1;
    }
    if (check_key_len(e, k)) { /* odd / too long count as a wrong length */
        cpim_wipe(e->key, sizeof e->key);
        return -1;
    }
    return 0;
}
