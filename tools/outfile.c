/*
 * outfile.c -- where `cryptopim enc` / `dec` write (-o OUT), and the signal
 * handling that keeps a temporary file from outliving an interrupted run.
 *
 * The rule: no truncated or half-written output, no plaintext where
 * ciphertext was asked for -- after a failure the old OUT is intact or
 * nothing is at OUT.  And, like `openssl enc -out`, OUT is written, not
 * replaced: devices and FIFOs get the bytes, symbolic links are followed,
 * and an existing file keeps its inode (so its hard links, owner, mode,
 * ACLs and extended attributes).  The kinds of OUT (see cli_output_open):
 *
 *   OUT_STDOUT   no -o, or `-o -`: standard output, streamed.
 *   OUT_STREAM   an existing non-regular file (/dev/null, a tty, a FIFO,
 *                /dev/stdout onto a pipe): opened and streamed to, as
 *                openssl does.  A stream cannot be taken back, so as with
 *                standard output a failure may leave its reader with part
 *                of the output (never a byte that was not fully processed).
 *   OUT_NEW      no file yet: the output is staged in a temporary file
 *                beside OUT and renamed to OUT on success (atomic).
 *   OUT_REPLACE  an existing regular file: OUT is opened for writing up
 *                front (so a folder or a read-only file is refused before
 *                any input is read), the output is staged in a temporary
 *                file in OUT's real folder, and only after all input was
 *                processed is it copied over OUT's content in place.  Space
 *                for the longer content is reserved first (posix_fallocate),
 *                so a full disk or a quota fails before OUT is touched, and
 *                the catchable signals are held during the copy.  What is
 *                left is a hardware I/O error or SIGKILL during the final
 *                copy; the alternative, rename, would be atomic but gives
 *                OUT a new inode (splitting hard links, changing the owner
 *                to the caller, dropping ACLs).
 */
#define _DEFAULT_SOURCE     /* SIGPWR, SIGSTKFLT where the system has them */
#define _XOPEN_SOURCE   700 /* realpath(), SIGPOLL */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

enum { OUT_STDOUT, OUT_STREAM, OUT_NEW, OUT_REPLACE };

/* ---- signals ------------------------------------------------------------- */

/* The temporary file, known to the signal handler so that an interrupted run
 * removes it.  tmp_live is set only once tmp_path names a file we created. */
static char tmp_path[PATH_MAX + 32];
static volatile sig_atomic_t tmp_live;

/* Every signal whose default action ends the process and that a handler can
 * catch.  Left out: SIGKILL/SIGSTOP (cannot be caught), and the signals of a
 * program error (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS):
 * after one of those the memory the handler would read may be corrupt, and
 * the sanitizers report through them. */
static const int term_signals[] = {
    SIGHUP,    SIGINT,  SIGQUIT, SIGTERM,   SIGPIPE, SIGALRM,
    SIGUSR1,   SIGUSR2, SIGXCPU, SIGVTALRM, SIGPROF, SIGXFSZ,
#ifdef SIGPOLL
    SIGPOLL,
#endif
#ifdef SIGSTKFLT
    SIGSTKFLT,
#endif
#ifdef SIGPWR
    SIGPWR,
#endif
};
#define N_TERM_SIGNALS (sizeof term_signals / sizeof term_signals[0])

static void fill_term_set(sigset_t *set)
{
    sigemptyset(set);
    for (size_t i = 0; i < N_TERM_SIGNALS; i++)
        sigaddset(set, term_signals[i]);
#if defined(SIGRTMIN) && defined(SIGRTMAX)
    for (int s = SIGRTMIN; s <= SIGRTMAX; s++) /* real-time signals terminate too */
        sigaddset(set, s);
#endif
}

/* Async-signal-safe: unlink(), sigaction() and raise() only.  The signal
 * is blocked while the handler runs (and the others with it, sa_mask), so
 * the raise() is delivered, with the default action, when it returns: the
 * process ends by the same signal, as it would have without us. */
static void on_signal(int sig)
{
    if (tmp_live)
        unlink(tmp_path);
    tmp_live = 0;
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig);
}

static void install_one(int sig, const sigset_t *mask)
{
    struct sigaction old, sa;
    /* An inherited ignore (nohup, `trap '' HUP`, a background job's SIGINT)
     * is the caller's choice: keep it, the signal will not end us. */
    if (sigaction(sig, NULL, &old) != 0 || old.sa_handler == SIG_IGN)
        return;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_mask = *mask;
    sigaction(sig, &sa, NULL);
}

static void install_handlers(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    sigset_t mask;
    fill_term_set(&mask);
    for (size_t i = 0; i < N_TERM_SIGNALS; i++)
        install_one(term_signals[i], &mask);
#if defined(SIGRTMIN) && defined(SIGRTMAX)
    for (int s = SIGRTMIN; s <= SIGRTMAX; s++)
        install_one(s, &mask);
#endif
}

/* Holds (or releases) the terminating signals around the steps that must
 * not be cut in two: creating the temporary file and recording its name,
 * and putting the output in place. */
static void hold_signals(int hold, sigset_t *saved)
{
    if (hold) {
        sigset_t set;
        fill_term_set(&set);
        sigprocmask(SIG_BLOCK, &set, saved);
    } else {
        sigprocmask(SIG_SETMASK, saved, NULL);
    }
}

/* ---- output -------------------------------------------------------------- */

/* Creates the temporary file in folder `dir` (dirlen bytes of it; 0 = the
 * current folder); 0, or -1 after printing the error about `path`. */
static int make_temp(cli_output *o, const char *dir, size_t dirlen, const char *path)
{
    if (dirlen > sizeof tmp_path - 32) {
        cli_error("cannot write %s: file name too long", path);
        return -1;
    }
    install_handlers();
    sigset_t saved;
    hold_signals(1, &saved);
    snprintf(tmp_path, sizeof tmp_path, "%.*s.cryptopim-tmp-XXXXXX", (int)dirlen, dir);
    o->fd = mkstemp(tmp_path); /* 0600: the staged output is private */
    int err = errno;
    if (o->fd >= 0)
        tmp_live = 1;
    hold_signals(0, &saved);
    if (o->fd < 0) {
        cli_error("cannot write %s: cannot create a temporary file beside it: %s", path,
                  strerror(err));
        return -1;
    }
    return 0;
}

static void drop_temp(void)
{
    if (tmp_live)
        unlink(tmp_path);
    tmp_live = 0;
}

/* The length of the folder part of `path`, with its final '/'. */
static size_t dir_len(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? (size_t)(slash - path) + 1 : 0;
}

/* see cli.h */
int cli_output_open(cli_output *o, const char *path)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    o->dest_fd = -1;
    if (!path) {
        o->kind = OUT_STDOUT;
        o->fd = STDOUT_FILENO;
        return 0;
    }
    if (!*path) { /* else it would only fail at the final rename */
        cli_error("cannot write '': %s", strerror(ENOENT));
        return -1;
    }
    /* Open what is there, following symbolic links (as openssl does), but
     * neither create nor truncate: nothing of OUT changes until the end.
     * A FIFO blocks here until it has a reader, as with openssl. */
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    struct stat st;
    if (fd < 0) {
        int err = errno;
        if (err == ENOENT) {
            if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
                /* Creating the target through the link would be openssl's
                 * way, but then a failed run has no way to leave "nothing
                 * at OUT" without removing the link. */
                cli_error("cannot write %s: it is a symbolic link to a missing file", path);
                return -1;
            }
            o->kind = OUT_NEW;
            return make_temp(o, path, dir_len(path), path);
        }
        if (err == EACCES && stat(path, &st) == 0 && S_ISREG(st.st_mode) && !(st.st_mode & 0222)) {
            cli_error("cannot write %s: it is read-only (mode %04o); not replacing it", path,
                      (unsigned)(st.st_mode & 07777));
            return -1;
        }
        cli_error("cannot write %s: %s", path, strerror(err));
        return -1;
    }
    if (fstat(fd, &st) != 0) {
        cli_error("cannot write %s: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        o->kind = OUT_STREAM;
        o->fd = fd;
        return 0;
    }
    /* root opens any file for writing; a file nobody may write is still
     * refused, so that root does not silently rewrite a protected file. */
    if (!(st.st_mode & 0222)) {
        cli_error("cannot write %s: it is read-only (mode %04o); not replacing it", path,
                  (unsigned)(st.st_mode & 07777));
        close(fd);
        return -1;
    }
    o->kind = OUT_REPLACE;
    o->dest_fd = fd;
    /* Stage in the folder of the file itself (a symbolic link's target, or
     * what /dev/stdout stands for), so the staged copy shares its disk. */
    char *real = realpath(path, NULL);
    const char *where = real && real[0] == '/' ? real : path;
    int rc = make_temp(o, where, dir_len(where), path);
    free(real);
    if (rc != 0) {
        close(fd);
        o->dest_fd = -1;
    }
    return rc;
}

static int write_full(int fd, const char *buf, size_t n, off_t at)
{
    while (n) {
        ssize_t w = pwrite(fd, buf, n, at);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        buf += w;
        at += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Copies the staged output (o->fd) over the existing file, in place. */
static int replace_content(cli_output *o, char *buf, size_t cap)
{
    struct stat old, staged;
    if (fstat(o->dest_fd, &old) != 0 || fstat(o->fd, &staged) != 0) {
        cli_error("cannot write %s: %s", o->path, strerror(errno));
        return -1;
    }
    if (staged.st_size > old.st_size) {
        int err = posix_fallocate(o->dest_fd, old.st_size, staged.st_size - old.st_size);
        /* EINVAL/EOPNOTSUPP: the file system cannot reserve; go on without */
        if (err && err != EINVAL && err != EOPNOTSUPP) {
            if (ftruncate(o->dest_fd, old.st_size) != 0) {
                cli_error("cannot write %s: %s; and it could not be restored to its old size: %s",
                          o->path, strerror(err), strerror(errno));
                return -1;
            }
            cli_error("cannot write %s: %s (it is unchanged)", o->path, strerror(err));
            return -1;
        }
    }
    sigset_t saved;
    hold_signals(1, &saved);
    off_t at = 0;
    const char *what = NULL;
    int err = 0;
    for (;;) {
        ssize_t r = pread(o->fd, buf, cap, at);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            what = "cannot read back the staged output", err = errno;
            break;
        }
        if (r == 0)
            break;
        if (write_full(o->dest_fd, buf, (size_t)r, at) != 0) {
            what = "write failed", err = errno;
            break;
        }
        at += r;
    }
    if (!what && ftruncate(o->dest_fd, at) != 0)
        what = "cannot set its length", err = errno;
    drop_temp();
    hold_signals(0, &saved);
    if (what) {
        cli_error("cannot write %s: %s: %s; it is now INCOMPLETE", o->path, what, strerror(err));
        return -1;
    }
    return 0;
}

/* see cli.h */
int cli_output_commit(cli_output *o, void *buf, size_t cap)
{
    int rc = 0;
    switch (o->kind) {
    case OUT_STDOUT:
        return 0;
    case OUT_STREAM:
        if (close(o->fd) != 0) {
            cli_error("cannot write %s: %s", o->path, strerror(errno));
            rc = -1;
        }
        o->fd = -1;
        return rc;
    case OUT_NEW: {
        /* A plain create's mode: 0666 less the umask. */
        mode_t mask = umask(0);
        umask(mask);
        if (fchmod(o->fd, 0666 & ~mask) != 0 || close(o->fd) != 0) {
            cli_error("cannot write %s: %s", o->path, strerror(errno));
            rc = -1;
        }
        o->fd = -1;
        sigset_t saved;
        hold_signals(1, &saved);
        if (rc == 0 && rename(tmp_path, o->path) != 0) {
            cli_error("cannot write %s: %s", o->path, strerror(errno));
            rc = -1;
        }
        if (rc == 0)
            tmp_live = 0; /* it is OUT now */
        drop_temp();
        hold_signals(0, &saved);
        return rc;
    }
    default:
        rc = replace_content(o, buf, cap);
        if (close(o->dest_fd) != 0 && rc == 0) {
            cli_error("cannot write %s: %s", o->path, strerror(errno));
            rc = -1;
        }
        close(o->fd);
        o->fd = o->dest_fd = -1;
        return rc;
    }
}

/* see cli.h */
void cli_output_abort(cli_output *o)
{
    if (o->kind == OUT_STDOUT)
        return;
    if (o->fd >= 0)
        close(o->fd);
    if (o->dest_fd >= 0)
        close(o->dest_fd);
    o->fd = o->dest_fd = -1;
    drop_temp();
}
