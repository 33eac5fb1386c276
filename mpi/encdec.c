/*
 * encdec.c -- `cryptopim-mpi enc|dec`: one file split over the processes
 * (docs/MPI.md).
 *
 * The input is cut into N consecutive byte ranges of whole units (16 bytes,
 * or XTS data units), q or q + 1 units per process; each process reads its
 * range with MPI-IO in chunks, runs them through its own backend and
 * writes them at the same offsets of a temporary file next to OUT.  The
 * modes are position-independent given the range's start: ECB as it is,
 * CTR from the counter block + the range's first block, XTS from START +
 * the range's first unit, GCM through cpim_aes_gcm_range (the counter at
 * the block offset and the range's partial GHASH); rank 0 gathers the GCM
 * partials and makes or checks the one tag (cpim_aes_gcm_finish).  After a
 * collective check rank 0 renames the temporary file to OUT when every
 * process succeeded (and, for GCM dec, the tag matched), else removes it.
 * A process killed by a signal makes mpirun stop the others with SIGTERM;
 * their handler removes the temporary file (rank 0's also says why).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpi_tool.h"

/* ---- the temporary output, and its removal on a signal ------------------------------- */

static char g_tmp[4096]; /* rank 0: the temporary file, while it exists */
static volatile sig_atomic_t g_tmp_live;

static int g_rank;

/* Every rank removes the temporary file (so that it goes even when rank 0
 * is the process that was killed); rank 0 says why. */
static void on_signal(int sig)
{
    static const char msg[] = CLI_NAME ": stopped by a signal (a process failed or was "
                                       "killed); nothing written\n";
    if (g_tmp_live)
        unlink(g_tmp);
    if (g_rank == 0 && write(STDERR_FILENO, msg, sizeof msg - 1) < 0) {
        /* nothing more to do in a handler */
    }
    _exit(128 + sig);
}

static void catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

/* Rank 0: a new empty file next to OUT, mode 0666 & ~umask like a file the
 * shell would create.  0, or -1 after printing the error. */
static int make_tmp(const char *out)
{
    struct stat st;
    if (stat(out, &st) == 0 && S_ISDIR(st.st_mode)) {
        cli_error("cannot write %s: %s", out, strerror(EISDIR));
        return -1;
    }
    if (snprintf(g_tmp, sizeof g_tmp, "%s.cpim-mpi-XXXXXX", out) >= (int)sizeof g_tmp) {
        cli_error("cannot write %s: %s", out, strerror(ENAMETOOLONG));
        return -1;
    }
    int fd = mkstemp(g_tmp);
    if (fd < 0) {
        cli_error("cannot write %s: cannot create a file next to it: %s", out, strerror(errno));
        return -1;
    }
    g_tmp_live = 1;
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0) { /* not fatal: the file stays 0600 */
    }
    close(fd);
    return 0;
}

/* ---- helpers ----------------------------------------------------------------------------- */

static size_t chunk_size(const char *backend, size_t unit)
{
    size_t c = cpim_backend_chunk(backend);
    const char *e = getenv("CRYPTOPIM_CHUNK");
    if (e) {
        char *end;
        unsigned long v = strtoul(e, &end, 10);
        if (!*end && v >= 16 && v % 16 == 0 && v <= (1ul << 30))
            c = v;
    }
    return c < unit ? unit : c - c % unit;
}

/* counter += blocks, as a 128-bit big-endian number (CTR's increment) */
static void ctr_add(uint8_t ctr[16], uint64_t blocks)
{
    unsigned carry = 0;
    for (int i = 15; i >= 0; i--) {
        unsigned v = ctr[i] + (unsigned)(blocks & 0xff) + carry;
        ctr[i] = (uint8_t)v;
        carry = v >> 8;
        blocks >>= 8;
    }
}

/* One MPI-IO transfer of n bytes at off; 0, or -1 with the error printed. */
static int io_at(mpi_run *r, MPI_File fh, int write, MPI_Offset off, uint8_t *buf, size_t n,
                 const char *name)
{
    MPI_Status st;
    int rc = write ? MPI_File_write_at(fh, off, buf, (int)n, MPI_BYTE, &st)
                   : MPI_File_read_at(fh, off, buf, (int)n, MPI_BYTE, &st);
    int got = 0;
    if (rc == MPI_SUCCESS)
        MPI_Get_count(&st, MPI_BYTE, &got);
    r->me.io_bytes += n;
    r->me.io_calls++;
    if (rc != MPI_SUCCESS || got != (int)n) {
        char why[MPI_MAX_ERROR_STRING] = "short transfer";
        int len = 0;
        if (rc != MPI_SUCCESS)
            MPI_Error_string(rc, why, &len);
        cli_error("cannot %s %s at byte %lld: %s", write ? "write" : "read", name, (long long)off,
                  why);
        return -1;
    }
    return 0;
}

/* Fault injection for the tests (tests/cli_mpi.sh), as the pim backend's
 * failAt: CRYPTOPIM_MPI_KILL_RANK=R makes rank R kill itself with SIGKILL
 * once it has written its range, before the collective check -- the worst
 * moment, with the other ranks' output already in the temporary file. */
static void fault_point(const mpi_run *r)
{
    const char *k = getenv("CRYPTOPIM_MPI_KILL_RANK");
    if (k && *k && atoi(k) == r->rank)
        raise(SIGKILL);
}

/* ---- enc / dec ------------------------------------------------------------------------------ */

/* GCM: one chunk's partial GHASH and length, gathered by rank 0. */
typedef struct gcm_part {
    uint8_t ghash[16];
    uint64_t len;
} gcm_part;

int mpi_encdec(mpi_run *r, int argc, char **argv, cpim_dir dir)
{
    cli_encdec e;
    int rc = cli_encdec_parse(&e, argc, argv, dir);
    if (rc == CLI_ENCDEC_HELP) {
        if (r->rank == 0)
            printf(cli_encdec_help, cli_common_help);
        return CLI_OK;
    }
    if (rc != CLI_OK)
        return rc; /* the same arguments everywhere: every rank stops here */
    const char *cmd = e.cmd;
    const char *backend = e.common.backend ? e.common.backend : "auto";
    cpim_ctx *ctx = NULL;
    MPI_File fin = MPI_FILE_NULL, fout = MPI_FILE_NULL;
    uint8_t *buf = NULL;
    gcm_part *parts = NULL, *all_parts = NULL;
    int *counts = NULL, *displs = NULL;
    int have_out = 0;
    rc = CLI_USAGE;

    if (!e.in_path || !e.out_path) {
        if (r->rank == 0)
            cli_error("%s: cryptopim-mpi needs -i FILE and -o FILE (MPI-IO reads and writes "
                      "byte ranges of files; no standard input or output)",
                      cmd);
        goto wipe;
    }
    int ok = cli_encdec_load_key(&e) == 0;
    if (!mpi_all_ok(r, ok))
        goto wipe;

    /* The input's size, from rank 0, with the errno text of a failure. */
    long long size = -1;
    if (r->rank == 0) {
        struct stat st;
        if (stat(e.in_path, &st) != 0)
            cli_error("cannot read %s: %s", e.in_path, strerror(errno));
        else if (!S_ISREG(st.st_mode))
            cli_error("cannot read %s: not a regular file (MPI-IO needs one)", e.in_path);
        else
            size = (long long)st.st_size;
    }
    MPI_Bcast(&size, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    mpi_note_coll(r, sizeof size);
    if (size < 0)
        goto wipe;
    /* The checks of the single-process CLI, on the whole input (the same
     * on every rank: only rank 0 says it). */
    uint64_t msg_len = (uint64_t)size; /* GCM dec: without the tag */
    const char *bad = NULL;
    char why[256];
    if (!e.ctr && !e.xts && !e.gcm && size % 16) {
        snprintf(why, sizeof why,
                 "%s: input %s is %lld bytes, not a multiple of 16 (%s takes "
                 "no padding)",
                 cmd, e.in_path, size, e.alg_name);
        bad = why;
    } else if (e.xts && size > 0 && (uint64_t)size % e.sector_size &&
               (uint64_t)size % e.sector_size < 16) {
        snprintf(why, sizeof why,
                 "%s: input %s is %lld bytes: its last sector would have %zu "
                 "bytes (XTS needs 16 or more)",
                 cmd, e.in_path, size, (size_t)((uint64_t)size % e.sector_size));
        bad = why;
    } else if (e.gcm && dir == CPIM_DECRYPT && size < 16) {
        snprintf(why, sizeof why, "%s: input %s is %lld bytes, shorter than the 16-byte GCM tag",
                 cmd, e.in_path, size);
        bad = why;
    }
    if (bad) {
        if (r->rank == 0)
            cli_error("%s", bad);
        goto wipe;
    }
    if (e.gcm && dir == CPIM_DECRYPT)
        msg_len -= 16;

    /* Each process its own backend (pim: its own machine, the same options). */
    ctx = cli_open(backend, &e.common.opt);
    cpim_err err = CPIM_ERR_INVALID_ARG;
    if (ctx) {
        err = e.xts ? cpim_xts_set_key(ctx, e.key, e.key_len)
                    : cpim_aes_set_key(ctx, e.key, e.key_len);
        if (err != CPIM_OK)
            cli_error("%s: cannot set the key on backend '%s': %s", cmd, backend,
                      cpim_strerror(err));
    }
    cpim_wipe(e.key, sizeof e.key);
    if (ctx && err == CPIM_OK) { /* as cryptopim: does the backend have the mode? */
        uint8_t probe[16];
        err = e.gcm ? cpim_aes_gcm_range(ctx, dir, e.gcm_iv, e.gcm_iv_len, 0, NULL, NULL, 0, probe)
              : e.xts ? cpim_aes_xts(ctx, dir, 0, e.sector_size, NULL, NULL, 0)
              : e.ctr ? cpim_aes_ctr(ctx, e.iv, NULL, NULL, 0)
                      : cpim_aes_ecb(ctx, dir, NULL, NULL, 0);
        if (err != CPIM_OK)
            cli_error("%s: %s on backend '%s': %s", cmd, e.alg_name, backend, cpim_strerror(err));
    }
    if (!mpi_all_ok(r, ctx && err == CPIM_OK))
        goto wipe;

    /* The output: a temporary file next to OUT, its name sent to everyone. */
    g_rank = r->rank;
    catch_signals();
    if (r->rank == 0)
        ok = make_tmp(e.out_path) == 0;
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    mpi_note_coll(r, sizeof ok);
    if (!ok)
        goto wipe;
    MPI_Bcast(g_tmp, sizeof g_tmp, MPI_CHAR, 0, MPI_COMM_WORLD);
    mpi_note_coll(r, sizeof g_tmp);
    g_tmp_live = 1;
    have_out = 1;
    int mrc = MPI_File_open(MPI_COMM_WORLD, e.in_path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fin);
    if (mrc == MPI_SUCCESS)
        mrc = MPI_File_open(MPI_COMM_WORLD, g_tmp, MPI_MODE_WRONLY, MPI_INFO_NULL, &fout);
    if (mrc != MPI_SUCCESS && r->rank == 0) {
        char s[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(mrc, s, &len);
        cli_error("%s: MPI-IO cannot open %s: %s", cmd, fin == MPI_FILE_NULL ? e.in_path : g_tmp,
                  s);
    }
    if (!mpi_all_ok(r, mrc == MPI_SUCCESS))
        goto close_files;

    /* This rank's range: q or q + 1 units (remainders to the first ranks). */
    size_t unit = e.xts ? e.sector_size : 16;
    uint64_t units = (msg_len + unit - 1) / unit;
    uint64_t q = units / (uint64_t)r->size, rem = units % (uint64_t)r->size;
    uint64_t u0 = q * (uint64_t)r->rank + ((uint64_t)r->rank < rem ? (uint64_t)r->rank : rem);
    uint64_t nu = q + ((uint64_t)r->rank < rem);
    uint64_t lo = u0 * unit, hi = (u0 + nu) * unit;
    if (hi > msg_len)
        hi = msg_len;
    if (lo > hi)
        lo = hi;
    /* (XTS: a short last unit is the last range's; it steals within it.) */

    size_t chunk = chunk_size(backend, unit);
    size_t nchunks = hi > lo ? (size_t)((hi - lo + chunk - 1) / chunk) : 0;
    buf = malloc(chunk);
    parts = e.gcm ? calloc(nchunks ? nchunks : 1, sizeof *parts) : NULL;
    ok = buf && (!e.gcm || parts);
    if (!ok)
        cli_error("%s: out of memory (%zu bytes)", cmd, chunk);
    uint8_t ctr[16];
    memcpy(ctr, e.iv, 16);
    ctr_add(ctr, lo / 16);
    uint64_t sector = e.sector + lo / unit;
    for (size_t c = 0; ok && c < nchunks; c++) {
        uint64_t off = lo + (uint64_t)c * chunk;
        size_t n = (size_t)(hi - off < chunk ? hi - off : chunk);
        if (io_at(r, fin, 0, (MPI_Offset)off, buf, n, e.in_path) != 0) {
            ok = 0;
            break;
        }
        err = e.gcm   ? cpim_aes_gcm_range(ctx, dir, e.gcm_iv, e.gcm_iv_len, off / 16, buf, buf, n,
                                           parts[c].ghash)
              : e.xts ? cpim_aes_xts(ctx, dir, sector, e.sector_size, buf, buf, n)
              : e.ctr ? cpim_aes_ctr(ctx, ctr, buf, buf, n)
                      : cpim_aes_ecb(ctx, dir, buf, buf, n);
        if (err != CPIM_OK) {
            cli_error("%s: %s on backend '%s' failed at bytes %llu..%llu: %s", cmd, e.alg_name,
                      backend, (unsigned long long)off, (unsigned long long)(off + n),
                      cpim_strerror(err));
            ok = 0;
            break;
        }
        mpi_note_call(r, ctx);
        if (e.gcm)
            parts[c].len = n;
        sector += n / unit;
        if (io_at(r, fout, 1, (MPI_Offset)off, buf, n, g_tmp) != 0)
            ok = 0;
    }
    if (buf)
        cpim_wipe(buf, chunk); /* plaintext on one side or the other */
    fault_point(r);
    cpim_wipe(ctr, sizeof ctr);
    ok = mpi_all_ok(r, ok);

    /* GCM: rank 0 gathers every chunk's partial GHASH, in message order
     * (rank order, then chunk order), and makes or checks the tag. */
    if (ok && e.gcm) {
        int mine = (int)nchunks;
        counts = r->rank == 0 ? calloc((size_t)r->size, sizeof *counts) : NULL;
        displs = r->rank == 0 ? calloc((size_t)r->size, sizeof *displs) : NULL;
        MPI_Gather(&mine, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
        mpi_note_gather(r, sizeof mine);
        int total = 0;
        if (r->rank == 0 && counts && displs)
            for (int i = 0; i < r->size; i++) {
                displs[i] = total * (int)sizeof(gcm_part);
                total += counts[i];
                counts[i] *= (int)sizeof(gcm_part);
            }
        if (r->rank == 0)
            all_parts = calloc(total ? (size_t)total : 1, sizeof *all_parts);
        MPI_Gatherv(parts, mine * (int)sizeof(gcm_part), MPI_BYTE, all_parts, counts, displs,
                    MPI_BYTE, 0, MPI_COMM_WORLD);
        mpi_note_gather(r, (uint64_t)mine * sizeof(gcm_part));
        if (r->rank == 0) {
            ok = 0;
            uint8_t(*gh)[16] = all_parts ? malloc((total ? (size_t)total : 1) * 16) : NULL;
            uint64_t *lens = gh ? malloc((total ? (size_t)total : 1) * sizeof *lens) : NULL;
            uint8_t *aad = NULL, tag[16];
            long al = 0;
            if (!lens) {
                cli_error("%s: out of memory", cmd);
            } else if (e.aad_path) {
                int fd = open(e.aad_path, O_RDONLY | O_CLOEXEC);
                struct stat st;
                if (fd >= 0 && fstat(fd, &st) == 0 && (aad = malloc((size_t)st.st_size + 1)))
                    al = cli_read_full(fd, aad, (size_t)st.st_size + 1);
                if (fd < 0 || !aad || al < 0)
                    cli_error("cannot read %s: %s", e.aad_path, strerror(errno));
                if (fd >= 0)
                    close(fd);
            }
            if (lens && (!e.aad_path || (aad && al >= 0))) {
                for (int i = 0; i < total; i++) {
                    memcpy(gh[i], all_parts[i].ghash, 16);
                    lens[i] = all_parts[i].len;
                }
                MPI_Status st;
                if (dir == CPIM_DECRYPT && MPI_File_read_at(fin, (MPI_Offset)msg_len, tag, 16,
                                                            MPI_BYTE, &st) != MPI_SUCCESS) {
                    cli_error("cannot read %s: the tag", e.in_path);
                } else {
                    err = cpim_aes_gcm_finish(ctx, dir, e.gcm_iv, e.gcm_iv_len, aad, (size_t)al,
                                              (const uint8_t(*)[16])gh, lens, (size_t)total, tag);
                    if (err == CPIM_ERR_AUTH)
                        cli_error("%s: authentication failed: the tag does not match (wrong key, "
                                  "IV or AAD, or the input was altered); nothing written",
                                  cmd);
                    else if (err != CPIM_OK)
                        cli_error("%s: %s on backend '%s' failed: %s", cmd, e.alg_name, backend,
                                  cpim_strerror(err));
                    else if (dir == CPIM_ENCRYPT)
                        ok = io_at(r, fout, 1, (MPI_Offset)msg_len, tag, 16, g_tmp) == 0;
                    else
                        ok = 1;
                }
                r->me.io_bytes += dir == CPIM_DECRYPT ? 16 : 0;
            }
            free(aad);
            free(gh);
            free(lens);
        }
        MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
        mpi_note_coll(r, sizeof ok);
    }

close_files:
    if (fin != MPI_FILE_NULL)
        MPI_File_close(&fin);
    if (fout != MPI_FILE_NULL && MPI_File_close(&fout) != MPI_SUCCESS)
        ok = 0;
    if (have_out) {
        /* every process closed (collective) before the verdict */
        ok = mpi_all_ok(r, ok);
        if (r->rank == 0) {
            if (ok && rename(g_tmp, e.out_path) != 0) {
                cli_error("cannot write %s: %s", e.out_path, strerror(errno));
                ok = 0;
            }
            if (!ok) {
                unlink(g_tmp);
                cli_error("%s: failed; %s was not written", cmd, e.out_path);
            }
        }
        MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
        mpi_note_coll(r, sizeof ok);
        g_tmp_live = 0;
        if (ok)
            rc = CLI_OK;
        char what[160];
        snprintf(what, sizeof what, "%s %s, %llu bytes, backend %s", cmd, e.alg_name,
                 (unsigned long long)msg_len, backend);
        mpi_report(r, what);
    }
wipe:
    if (ctx)
        cpim_close(ctx);
    free(buf);
    free(parts);
    free(all_parts);
    free(counts);
    free(displs);
    cpim_wipe(e.key, sizeof e.key);
    cpim_wipe(e.iv, sizeof e.iv);
    cpim_wipe(e.gcm_iv, sizeof e.gcm_iv);
    return rc;
}
