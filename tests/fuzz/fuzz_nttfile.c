/*
 * fuzz_nttfile.c -- libFuzzer target for the input side of `cryptopim ntt`
 * (tools/ntt.c), which cryptopim-mpi's `ntt` shares (tools/ntt_job.h): the
 * argument parser cli_ntt_parse (-n, the -q list, --binary) and the file
 * loader cli_ntt_load (text: decimal numbers separated by blanks; --binary:
 * little-endian uint64 words; then the layout and every coefficient < its
 * modulus).  Nothing is transformed.
 *
 * Input: byte 0 = flags: bit 0 --binary; bits 1-3 pick N from
 * {1, 2, 3, 4, 8, 16, 1024, 4096} (the loader takes any N: the ring's own
 * checks are cpim_ntt_create's); bit 4: the -q value is the bytes up to the
 * first NUL (the rest is the file), else bits 5-6 pick a fixed list.  The
 * file goes to a temporary file made once (the loader reads a path).
 *
 * Checked on every input, against an independent model of the documented
 * format (tools/ntt.c's header, `cryptopim ntt --help`): the parser accepts
 * exactly the -q lists of 1..16 decimal numbers separated by single commas
 * that fit 64 bits (it may refuse one >= 2^63 early: q < 2^62 is the
 * contract); the loader accepts exactly the files the model accepts
 * (text: tokens separated by space, tab, LF or CR, each all digits and below
 * 2^64 -- any other byte, a NUL included, is an error; binary: a whole
 * number of words), of a whole positive number of polynomials (N * L
 * numbers each) with every coefficient below its limb's modulus, and then
 * returns exactly the model's numbers and polynomial count.
 *
 * Seed corpus: tests/fuzz/corpus/nttfile/.  By hand:
 *   make fuzz-build && build/fuzz/fuzz_nttfile -close_fd_mask=2 tests/fuzz/corpus/nttfile
 */
/* tools/outfile.c's feature macros (the same definitions), before any
 * system header: it is compiled into the target below. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The CLI's NTT job and output file code, compiled into the target (ntt.c's
 * loader is static; outfile.c is not in the targets' link). */
#include "../../tools/ntt.c"
#undef _GNU_SOURCE /* outfile.c defines it again */
#include "../../tools/outfile.c"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];

static void remove_file(void)
{
    unlink(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    strcpy(path, "/tmp/fuzz_nttfile.XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        abort();
    close(fd);
    atexit(remove_file);
    return 0;
}

/* The model of -q: a list of 1..16 decimal numbers < 2^64, single commas; 0 or -1. */
static int model_q(const char *s, uint64_t *q, size_t *L)
{
    size_t k = 0;
    for (;;) {
        if (*s < '0' || *s > '9' || k == CPIM_NTT_MAX_MODULI)
            return -1;
        unsigned __int128 x = 0;
        for (; *s >= '0' && *s <= '9'; s++)
            if ((x = x * 10 + (unsigned)(*s - '0')) > UINT64_MAX)
                return -1;
        q[k++] = (uint64_t)x;
        if (!*s)
            break;
        if (*s++ != ',')
            return -1;
    }
    *L = k;
    return 0;
}

static int blank(uint8_t c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The model of a file: its numbers into v (room: size + 1), their count; -1 if it is not a
 * well-formed file of the format (layout and moduli not checked here). */
static long model_numbers(const uint8_t *d, size_t size, int binary, uint64_t *v)
{
    size_t n = 0;
    if (binary) {
        if (size % 8)
            return -1;
        for (size_t i = 0; i < size; i += 8) {
            uint64_t x = 0;
            for (int b = 0; b < 8; b++)
                x |= (uint64_t)d[i + (size_t)b] << (8 * b);
            v[n++] = x;
        }
        return (long)n;
    }
    for (size_t i = 0; i < size;) {
        if (blank(d[i])) {
            i++;
            continue;
        }
        unsigned __int128 x = 0;
        for (; i < size && !blank(d[i]); i++) {
            if (d[i] < '0' || d[i] > '9')
                return -1;
            if ((x = x * 10 + (unsigned)(d[i] - '0')) > UINT64_MAX)
                return -1;
        }
        v[n++] = (uint64_t)x;
    }
    return (long)n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const unsigned ns[8] = {1, 2, 3, 4, 8, 16, 1024, 4096};
    static const char *const fixed_q[4] = {"12289", "12289,40961", "3,5,7",
                                           "4611686018427387847,1152921504606830593"};
    if (size < 1)
        return 0;
    const unsigned flags = data[0];
    const int binary = flags & 1;
    data++, size--;
    char qbuf[256];
    const char *qstr = fixed_q[(flags >> 5) & 3];
    if (flags & 16) {
        const uint8_t *nul = memchr(data, 0, size);
        size_t ql = nul ? (size_t)(nul - data) : size;
        if (ql >= sizeof qbuf)
            return 0;
        memcpy(qbuf, data, ql);
        qbuf[ql] = '\0';
        qstr = qbuf;
        data += nul ? ql + 1 : ql, size -= nul ? ql + 1 : ql;
    }
    char nstr[16];
    snprintf(nstr, sizeof nstr, "%u", ns[(flags >> 1) & 7]);
    char *argv[8] = {"forward", "-n", nstr, "-q", (char *)qstr, path, binary ? "--binary" : NULL,
                     NULL};
    cli_ntt_job j;
    uint64_t mq[CPIM_NTT_MAX_MODULI];
    size_t mL = 0;
    const int q_ok = model_q(qstr, mq, &mL) == 0;
    /* a modulus >= 2^63 may be refused by the parser already (q < 2^62 is the contract) */
    int q_huge = 0;
    for (size_t k = 0; q_ok && k < mL; k++)
        q_huge |= mq[k] >> 63;
    const int rc = cli_ntt_parse(&j, binary ? 7 : 6, argv);
    if ((rc == CLI_OK) != q_ok && !(q_huge && rc != CLI_OK))
        abort(); /* the -q parser disagrees with the format */
    if (rc != CLI_OK)
        return 0;
    if (j.L != mL || memcmp(j.q, mq, mL * sizeof *mq) != 0 || j.n != ns[(flags >> 1) & 7] ||
        j.binary != binary || !j.fwd || j.files[0] != path)
        abort();

    int fd = open(path, O_WRONLY | O_TRUNC);
    if (fd < 0)
        abort();
    if (size && write(fd, data, size) != (ssize_t)size)
        abort();
    close(fd);
    uint64_t *want = malloc((size + 1) * sizeof *want);
    if (!want)
        return 0;
    long m = model_numbers(data, size, binary, want);
    /* then the layout and the moduli */
    int ok = m > 0 && (size_t)m % (j.L * j.n) == 0;
    for (long i = 0; ok && i < m; i++)
        ok = want[i] < j.q[(size_t)i / j.n % j.L];
    size_t nv = 0, polys = 0;
    uint64_t *v = cli_ntt_load(&j, path, &nv, &polys);
    if ((v != NULL) != ok)
        abort(); /* accepted a file the format refuses, or the reverse */
    if (v && (nv != (size_t)m || polys != nv / (j.L * j.n) || memcmp(v, want, nv * sizeof *v)))
        abort(); /* not the file's numbers */
    free(v);
    free(want);
    return 0;
}
