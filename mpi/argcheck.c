/*
 * argcheck.c -- the collective argument check (argcheck.h).
 */
#include "argcheck.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define SAMPLE 4096u /* bytes hashed at each end of a file */

/* Domain separators: these digests are never confused with a digest of
 * anything else the program makes. */
static const char PART_DOMAIN[] = "cryptopim-mpi argument check, part";
static const char KEY_DOMAIN[] = "cryptopim-mpi argument check, key";

static void fail(mpi_check *c, const char *what, cpim_err e)
{
    if (!c->failed)
        cli_error("cannot check the arguments against rank 0's (%s): %s", what, cpim_strerror(e));
    c->failed = 1;
}

static void close_part(mpi_check *c)
{
    if (!c->open)
        return;
    c->open = 0;
    if (c->failed)
        return;
    cpim_err e = cpim_sha256_final(c->ctx, &c->st, c->digest[c->n - 1]);
    if (e != CPIM_OK)
        fail(c, c->what[c->n - 1], e);
}

void mpi_check_begin(mpi_run *r, mpi_check *c)
{
    memset(c, 0, sizeof *c);
    cpim_err e = cpim_open(&c->ctx, "cpu", NULL);
    if (e != CPIM_OK)
        fail(c, "the cpu backend", e);
    if (r->rank == 0 && getrandom(c->nonce, sizeof c->nonce, 0) != (ssize_t)sizeof c->nonce) {
        cli_error("cannot check the arguments against the other processes': no random bytes: %s",
                  strerror(errno));
        c->failed = 1;
    }
    MPI_Bcast(c->nonce, sizeof c->nonce, MPI_BYTE, 0, MPI_COMM_WORLD);
    mpi_note_coll(r, sizeof c->nonce);
    /* a failure here is reported by mpi_check_end's first collective */
}

void mpi_check_part(mpi_check *c, const char *what)
{
    close_part(c);
    if (c->n == MPI_CHECK_PARTS) { /* a programming error: say so, never pass */
        cli_error("cannot check the arguments against rank 0's: more than %d parts",
                  MPI_CHECK_PARTS);
        c->failed = 1;
        return;
    }
    c->what[c->n++] = what;
    c->open = 1;
    cpim_sha256_init(&c->st);
    mpi_check_bytes(c, PART_DOMAIN, sizeof PART_DOMAIN);
    mpi_check_bytes(c, what, strlen(what) + 1);
}

void mpi_check_bytes(mpi_check *c, const void *p, size_t n)
{
    if (!c->open || c->failed)
        return;
    cpim_err e = cpim_sha256_update(c->ctx, &c->st, p, n);
    if (e != CPIM_OK)
        fail(c, c->what[c->n - 1], e);
}

void mpi_check_u64(mpi_check *c, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    mpi_check_bytes(c, b, sizeof b);
}

void mpi_check_str(mpi_check *c, const char *s)
{
    if (!s) {
        mpi_check_u64(c, UINT64_MAX); /* no length of a real string */
        return;
    }
    size_t n = strlen(s);
    mpi_check_u64(c, n);
    mpi_check_bytes(c, s, n);
}

void mpi_check_file(mpi_check *c, const char *path, int sample)
{
    struct stat st;
    /* O_NONBLOCK: a FIFO given as the input must not block the check */
    int fd = path ? open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) : -1;
    if (!path || fd < 0 || fstat(fd, &st) != 0) {
        mpi_check_str(c, "unreadable");
        mpi_check_u64(c, path ? (uint64_t)errno : 0);
        if (fd >= 0)
            close(fd);
        return;
    }
    mpi_check_str(c, S_ISREG(st.st_mode) ? "file" : S_ISDIR(st.st_mode) ? "folder" : "other");
    mpi_check_u64(c, S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0);
    if (sample && S_ISREG(st.st_mode)) {
        uint8_t buf[SAMPLE];
        off_t ends[2] = {0, st.st_size > (off_t)SAMPLE ? st.st_size - (off_t)SAMPLE : 0};
        for (int i = 0; i < 2; i++) {
            ssize_t got = pread(fd, buf, sizeof buf, ends[i]);
            mpi_check_u64(c, got < 0 ? UINT64_MAX : (uint64_t)got);
            if (got > 0)
                mpi_check_bytes(c, buf, (size_t)got);
        }
    }
    close(fd);
}

void mpi_check_argv(mpi_check *c, int argc, char **argv)
{
    cli_common dummy;
    cli_args a;
    const char *opt, *operand;
    cli_common_init(&dummy);
    cli_args_init(&a, argc, argv);
    while (cli_next(&a, &opt, &operand)) {
        if (!opt) {
            mpi_check_str(c, operand);
            continue;
        }
        if (cli_common_option(&dummy, &a, opt) == 1)
            continue; /* a backend option and its value: not compared */
        mpi_check_str(c, opt);
        if (cli_has_inline_value(&a))
            mpi_check_str(c, cli_value(&a, opt));
    }
}

void mpi_check_key(mpi_check *c, const char *what, const uint8_t *key, size_t len)
{
    close_part(c);
    if (c->failed)
        return;
    if (c->n == MPI_CHECK_PARTS) {
        mpi_check_part(c, what); /* says it fails */
        return;
    }
    uint8_t msg[sizeof KEY_DOMAIN + sizeof c->nonce];
    memcpy(msg, KEY_DOMAIN, sizeof KEY_DOMAIN);
    memcpy(msg + sizeof KEY_DOMAIN, c->nonce, sizeof c->nonce);
    c->what[c->n] = what;
    cpim_err e = cpim_hmac_sha256(c->ctx, key, len, msg, sizeof msg, c->digest[c->n]);
    c->n++;
    if (e != CPIM_OK)
        fail(c, what, e);
}

/* "key", "key and IV", "key, IV and input file" */
static void list_parts(char *out, size_t cap, const mpi_check *c, unsigned mask)
{
    size_t o = 0, left = 0;
    out[0] = '\0';
    for (size_t i = 0; i < c->n; i++)
        left += mask >> i & 1;
    for (size_t i = 0; i < c->n && o < cap; i++) {
        if (!(mask >> i & 1))
            continue;
        left--;
        o += (size_t)snprintf(out + o, cap - o, "%s%s", c->what[i],
                              left > 1   ? ", "
                              : left > 0 ? " and "
                                         : "");
    }
}

int mpi_check_end(mpi_run *r, mpi_check *c)
{
    close_part(c);
    int ok = mpi_all_ok(r, !c->failed);
    cpim_close(c->ctx);
    c->ctx = NULL;
    if (!ok)
        return 0;
    /* Rank 0's digests to everyone; each process finds its own differences
     * (a bit per part; every bit when even the list of parts differs). */
    struct {
        uint32_t n;
        uint8_t d[MPI_CHECK_PARTS][32];
    } ref;
    memset(&ref, 0, sizeof ref);
    ref.n = (uint32_t)c->n;
    memcpy(ref.d, c->digest, sizeof ref.d);
    MPI_Bcast(&ref, sizeof ref, MPI_BYTE, 0, MPI_COMM_WORLD);
    mpi_note_coll(r, sizeof ref);
    unsigned mine = 0;
    if (ref.n != c->n)
        mine = (1u << c->n) - 1;
    else
        for (size_t i = 0; i < c->n; i++)
            if (memcmp(ref.d[i], c->digest[i], 32) != 0)
                mine |= 1u << i;
    cpim_wipe(c->digest, sizeof c->digest);
    cpim_wipe(ref.d, sizeof ref.d);
    unsigned *all = r->rank == 0 ? calloc((size_t)r->size, sizeof *all) : NULL;
    MPI_Gather(&mine, 1, MPI_UNSIGNED, all, 1, MPI_UNSIGNED, 0, MPI_COMM_WORLD);
    mpi_note_gather(r, sizeof mine);
    int bad = 0;
    if (r->rank == 0) {
        for (int i = 1; i < r->size; i++) {
            if (!all || !all[i])
                continue;
            char parts[256];
            list_parts(parts, sizeof parts, c, all[i]);
            cli_error("rank %d's %s %s from rank 0's", i, parts,
                      (all[i] & (all[i] - 1)) ? "differ" : "differs");
            bad = 1;
        }
        if (!all) {
            cli_error("cannot check the arguments against the other processes': out of memory");
            bad = 1;
        }
        if (bad)
            cli_error("every process must be given the same arguments, key and input files; "
                      "nothing was written");
    }
    free(all);
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    mpi_note_coll(r, sizeof bad);
    return !bad;
}
