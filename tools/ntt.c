/*
 * ntt.c -- `cryptopim ntt`: negacyclic polynomial products and NTTs of
 * polynomials read from files (cryptopim_ntt.h), for people who want to use
 * the library's NTT without writing C.
 *
 * A file holds a batch in the library's layout: polynomial p, limb j (the
 * residue mod the j-th modulus), coefficient k at position (p * L + j) * N
 * + k, so count = (number of coefficients) / (L * N) polynomials.  Text
 * files: decimal numbers separated by white space (output: one per line);
 * --binary: little-endian uint64 words.  Every input is checked before
 * anything is computed, and OUT appears whole or not at all (outfile.c's
 * temporary file and rename).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ntt_job.h"

const char cli_ntt_help[] =
    "usage: cryptopim ntt mul -n N -q Q[,Q...] [OPTIONS] A B\n"
    "       cryptopim ntt forward|inverse -n N -q Q[,Q...] [OPTIONS] A\n"
    "\n"
    "Polynomial arithmetic in Z_q[X]/(X^N + 1) for every modulus q of an RNS base\n"
    "(the ring of BFV/CKKS homomorphic encryption):\n"
    "  mul       A * B, coefficient by coefficient of the batch (A and B hold the\n"
    "            same number of polynomials)\n"
    "  forward   the negacyclic NTT of A (output in bit-reversed order)\n"
    "  inverse   its inverse (input in bit-reversed order, output natural)\n"
    "\n"
    "  -n N            ring degree: a power of two, 2 .. 1048576\n"
    "  -q Q[,Q...]     the moduli, decimal, comma-separated (1 .. 16): distinct\n"
    "                  primes, q = 1 mod 2N, below 2^62\n"
    "  -o FILE         output file (default: standard output); written whole\n"
    "                  or not at all\n"
    "  --binary        files are little-endian uint64 words (default: text)\n"
    "\n"
    "File layout: a batch of polynomials, each given as its L residue\n"
    "polynomials (one per modulus, in -q order) of N coefficients from the\n"
    "constant term up: coefficient k of limb j of polynomial p is number\n"
    "(p * L + j) * N + k.  Text: decimal numbers separated by white space\n"
    "(output: one per line).  Every coefficient must be below its modulus.\n"
    "%s";

#define NTT_FILE_MAX ((size_t)1 << 34) /* 16 GiB: far above any sensible batch */

/* Reads a whole file into a malloc'd buffer (NUL-terminated); NULL after
 * printing the error. */
static char *slurp(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        cli_error("cannot read %s: %s", cli_quote_path(path), strerror(errno));
        return NULL;
    }
    size_t size = 0, room = 1 << 16;
    char *buf = malloc(room + 1);
    while (buf) {
        long n = cli_read_full(fd, buf + size, room - size);
        if (n < 0) {
            cli_error("cannot read %s: %s", cli_quote_path(path), strerror(errno));
            break;
        }
        size += (size_t)n;
        if (size < room) {
            close(fd);
            buf[size] = '\0';
            *len = size;
            return buf;
        }
        if (room >= NTT_FILE_MAX) {
            cli_error("%s is too large", cli_quote_path(path));
            break;
        }
        char *more = realloc(buf, 2 * room + 1);
        if (!more)
            free(buf);
        buf = more;
        room *= 2;
    }
    if (!buf)
        cli_error("out of memory reading %s", cli_quote_path(path));
    free(buf);
    close(fd);
    return NULL;
}

/* The numbers of a file; NULL after printing the error. */
static uint64_t *load(const char *path, int binary, size_t *count)
{
    size_t len;
    char *text = slurp(path, &len);
    if (!text)
        return NULL;
    uint64_t *v = NULL;
    if (binary) {
        if (len % 8) {
            cli_error("%s: %zu bytes is not a whole number of 8-byte words", cli_quote_path(path),
                      len);
            free(text);
            return NULL;
        }
        v = malloc(len ? len : 1);
        for (size_t i = 0; v && i < len / 8; i++) {
            uint64_t x = 0;
            for (int b = 7; b >= 0; b--)
                x = (x << 8) | (unsigned char)text[8 * i + (size_t)b];
            v[i] = x;
        }
        *count = len / 8;
    } else {
        size_t n = 0, cap = 1024;
        v = malloc(cap * sizeof *v);
        /* the file's end, not its first NUL: a NUL is not a blank (fuzz_nttfile found a
         * file cut short at one, the rest ignored) */
        const char *s = text, *const end = text + len;
        for (;;) {
            while (s < end && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
                s++;
            if (s == end || !v)
                break;
            uint64_t x = 0;
            const char *start = s;
            int over = 0;
            for (; *s >= '0' && *s <= '9'; s++) {
                unsigned d = (unsigned)(*s - '0');
                over |= x > (UINT64_MAX - d) / 10;
                x = x * 10 + d;
            }
            if (s == start || (s < end && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')) {
                cli_error("%s: number %zu is not a decimal number", cli_quote_path(path), n + 1);
                free(v), free(text);
                return NULL;
            }
            if (over) {
                cli_error("%s: number %zu does not fit 64 bits", cli_quote_path(path), n + 1);
                free(v), free(text);
                return NULL;
            }
            if (n == cap) {
                uint64_t *more = realloc(v, 2 * cap * sizeof *v);
                if (!more)
                    free(v);
                v = more, cap *= 2;
                if (!v)
                    break;
            }
            v[n++] = x;
        }
        *count = n;
    }
    free(text);
    if (!v)
        cli_error("out of memory reading %s", cli_quote_path(path));
    return v;
}

/* Checks the layout and the coefficients; 0, or -1 after the error. */
static int check_batch(const char *path, const uint64_t *v, size_t nv, size_t n, const uint64_t *q,
                       size_t L, size_t *polys)
{
    if (nv == 0 || nv % (L * n)) {
        cli_error("%s: %zu coefficients is not a whole number of polynomials of N * L = %zu "
                  "coefficients",
                  path, nv, L * n);
        return -1;
    }
    for (size_t i = 0; i < nv; i++) {
        size_t j = i / n % L;
        if (v[i] >= q[j]) {
            cli_error("%s: coefficient %zu of polynomial %zu, limb %zu is %llu, not below q = %llu",
                      path, i % n, i / (L * n), j, (unsigned long long)v[i],
                      (unsigned long long)q[j]);
            return -1;
        }
    }
    *polys = nv / (L * n);
    return 0;
}

/* -q's list; 0, or -1 after the error */
static int parse_moduli(const char *s, uint64_t *q, size_t *L)
{
    size_t k = 0;
    for (;;) {
        if (k == CPIM_NTT_MAX_MODULI) {
            cli_error("-q: more than %u moduli", CPIM_NTT_MAX_MODULI);
            return -1;
        }
        uint64_t x = 0;
        const char *start = s;
        for (; *s >= '0' && *s <= '9'; s++) {
            if (x > (UINT64_MAX - 9) / 10) {
                cli_error("-q: modulus %zu is too large (q < 2^62)", k + 1);
                return -1;
            }
            x = x * 10 + (unsigned)(*s - '0');
        }
        if (s == start || (*s && *s != ',')) {
            cli_error("-q: expected decimal moduli separated by commas");
            return -1;
        }
        q[k++] = x;
        if (!*s++)
            break;
    }
    *L = k;
    return 0;
}

/* see ntt_job.h: the library only says CPIM_ERR_NTT_PARAM */
void cli_ntt_explain(cpim_ctx *ctx, const cli_ntt_job *job)
{
    const size_t n = job->n, L = job->L;
    const uint64_t *q = job->q;
    if (n < CPIM_NTT_MIN_N || n > CPIM_NTT_MAX_N || (n & (n - 1))) {
        cli_error("-n %zu: N must be a power of two in %u .. %u", n, CPIM_NTT_MIN_N,
                  CPIM_NTT_MAX_N);
        return;
    }
    for (size_t j = 0; j < L; j++) {
        cpim_ntt *r = NULL;
        if (q[j] >= (1ull << CPIM_NTT_DWORD_BITS))
            cli_error("-q: modulus %llu is not below 2^62", (unsigned long long)q[j]);
        else if (q[j] % (2 * n) != 1)
            cli_error("-q: modulus %llu is not 1 mod 2N = %zu", (unsigned long long)q[j], 2 * n);
        else if (cpim_ntt_create(ctx, n, &q[j], 1, &r) != CPIM_OK)
            cli_error("-q: modulus %llu is not prime", (unsigned long long)q[j]);
        else {
            cpim_ntt_destroy(r);
            for (size_t k = 0; k < j; k++)
                if (q[k] == q[j]) {
                    cli_error("-q: modulus %llu is given twice", (unsigned long long)q[j]);
                    return;
                }
            continue;
        }
        return;
    }
    cli_error("NTT parameters refused");
}

/* see ntt_job.h */
int cli_ntt_write(const cli_ntt_job *j, cli_output *o, const uint64_t *v, size_t nv)
{
    const int binary = j->binary;
    FILE *f = fdopen(dup(o->fd), "w");
    if (!f) {
        cli_error("cannot write the output: %s", strerror(errno));
        return -1;
    }
    for (size_t i = 0; i < nv; i++) {
        if (binary) {
            unsigned char b[8];
            for (int k = 0; k < 8; k++)
                b[k] = (unsigned char)(v[i] >> (8 * k));
            fwrite(b, 1, 8, f);
        } else
            fprintf(f, "%llu\n", (unsigned long long)v[i]);
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        cli_error("cannot write the output: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* see ntt_job.h */
uint64_t *cli_ntt_load(const cli_ntt_job *j, const char *path, size_t *nv, size_t *polys)
{
    uint64_t *v = load(path, j->binary, nv);
    if (v && check_batch(path, v, *nv, j->n, j->q, j->L, polys) < 0) {
        free(v);
        return NULL;
    }
    return v;
}

/* see ntt_job.h */
cpim_err cli_ntt_apply(const cli_ntt_job *j, cpim_ntt *ring, const uint64_t *a, const uint64_t *b,
                       uint64_t *out, size_t polys)
{
    return j->mul   ? cpim_ntt_polymul(ring, a, b, out, polys)
           : j->fwd ? cpim_ntt_forward(ring, a, out, polys)
                    : cpim_ntt_inverse(ring, a, out, polys);
}

/* see ntt_job.h */
int cli_ntt_parse(cli_ntt_job *j, int argc, char **argv)
{
    cli_args a;
    const char *opt, *operand;
    size_t nfiles = 0;
    memset(j, 0, sizeof *j);
    cli_common_init(&j->common);
    cli_args_init(&a, argc, argv);
    while (cli_next(&a, &opt, &operand)) {
        if (!opt) {
            if (!j->op)
                j->op = operand;
            else if (nfiles < 2)
                j->files[nfiles++] = operand;
            else {
                cli_error("ntt: too many operands");
                return CLI_USAGE;
            }
            continue;
        }
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            j->help = 1;
            return CLI_OK;
        }
        int c = cli_common_option(&j->common, &a, opt);
        if (c < 0)
            return CLI_USAGE;
        if (c)
            continue;
        if (strcmp(opt, "--binary") == 0) {
            j->binary = 1;
            continue;
        }
        const char *val = NULL;
        if (strcmp(opt, "-n") == 0 || strcmp(opt, "-q") == 0 || strcmp(opt, "-o") == 0) {
            if (!(val = cli_value(&a, opt)))
                return CLI_USAGE;
        } else {
            cli_error("ntt: unknown option %s", cli_quote(opt));
            return CLI_USAGE;
        }
        if (opt[1] == 'n' && cli_parse_uint("-n", val, 1, 1u << 30, &j->n) < 0)
            return CLI_USAGE;
        if (opt[1] == 'q' && parse_moduli(val, j->q, &j->L) < 0)
            return CLI_USAGE;
        if (opt[1] == 'o')
            j->out_path = val;
    }
    j->mul = j->op && strcmp(j->op, "mul") == 0;
    j->fwd = j->op && strcmp(j->op, "forward") == 0;
    if (!j->mul && !j->fwd && !(j->op && strcmp(j->op, "inverse") == 0)) {
        cli_error("ntt: expected mul, forward or inverse (see --help)");
        return CLI_USAGE;
    }
    if (!j->n || !j->L) {
        cli_error("ntt: -n and -q are required");
        return CLI_USAGE;
    }
    if (nfiles != (j->mul ? 2u : 1u)) {
        cli_error("ntt %s: expected %s", j->op,
                  j->mul ? "two input files, A and B" : "one input file");
        return CLI_USAGE;
    }
    return CLI_OK;
}

/* see cli.h */
int cmd_ntt(int argc, char **argv)
{
    cli_ntt_job j;
    if (cli_ntt_parse(&j, argc, argv) != CLI_OK)
        return CLI_USAGE;
    if (j.help) {
        printf(cli_ntt_help, cli_common_help);
        return CLI_OK;
    }
    cpim_ctx *ctx = cli_open(j.common.backend ? j.common.backend : "auto", &j.common.opt);
    if (!ctx)
        return CLI_USAGE;
    int rc = CLI_USAGE;
    cpim_ntt *ring = NULL;
    uint64_t *va = NULL, *vb = NULL, *out = NULL;
    size_t na = 0, nb = 0, pa = 0, pb = 0;
    cli_output o;
    cpim_err e = cpim_ntt_create(ctx, j.n, j.q, j.L, &ring);
    if (e == CPIM_ERR_NTT_PARAM) {
        cli_ntt_explain(ctx, &j);
        goto done;
    } else if (e != CPIM_OK) {
        cli_error("ntt: %s", cpim_strerror(e));
        goto done;
    }
    if (cli_output_open(&o, j.out_path) < 0)
        goto done;
    if (!(va = cli_ntt_load(&j, j.files[0], &na, &pa)))
        goto abort;
    if (j.mul) {
        if (!(vb = cli_ntt_load(&j, j.files[1], &nb, &pb)))
            goto abort;
        if (pa != pb) {
            cli_error("ntt mul: %s has %zu polynomials, %s has %zu", cli_quote_path(j.files[0]), pa,
                      cli_quote_path(j.files[1]), pb);
            goto abort;
        }
    }
    if (!(out = malloc(na * sizeof *out))) {
        cli_error("out of memory");
        goto abort;
    }
    e = cli_ntt_apply(&j, ring, va, vb, out, pa);
    if (e != CPIM_OK) {
        cli_error("ntt %s: %s", j.op, cpim_strerror(e));
        rc = CLI_FAIL;
        goto abort;
    }
    if (cli_ntt_write(&j, &o, out, na) < 0) {
        rc = CLI_FAIL;
        goto abort;
    }
    char scratch[65536];
    if (cli_output_commit(&o, scratch, sizeof scratch) < 0) {
        rc = CLI_FAIL;
        goto done;
    }
    rc = CLI_OK;
    goto done;
abort:
    cli_output_abort(&o);
done:
    free(va), free(vb), free(out);
    cpim_ntt_destroy(ring);
    cpim_close(ctx);
    return rc;
}
