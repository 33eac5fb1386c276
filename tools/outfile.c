/*
 * outfile.c -- where `cryptopim enc` / `dec` write (-o OUT), and the signal
 * handling that keeps a temporary file from outliving an interrupted run.
 *
 * The rule: no truncated or half-written output, no plaintext where
 * ciphertext was asked for -- after a failure the old OUT is intact or
 * nothing is at OUT, and no partial output is left under any other name.
 * Like `openssl enc -out`, devices and FIFOs get the bytes, symbolic links
 * are followed, and an existing file keeps its hard links, owner, group,
 * mode, ACLs and extended attributes.
 *
 * Staging.  The output is written to a file that has no name until it is
 * complete: an O_TMPFILE in OUT's real folder, linked into place (linkat)
 * only at the end.  No signal -- SIGKILL included, which no handler sees --
 * and no full disk can then leave a partial output behind: the kernel frees
 * an unnamed file when its last descriptor closes.  Where the file system
 * has no O_TMPFILE (or CRYPTOPIM_TMPFILE=0 asks for the old way), a named
 * temporary file `.cryptopim-tmp-XXXXXX` (mode 0600) stands in, removed on
 * every error and on every catchable terminating signal; only SIGKILL can
 * leave that one behind.
 *
 * The kinds of OUT (see cli_output_open):
 *
 *   OUT_STDOUT   no -o, or `-o -`: standard output, streamed.
 *   OUT_STREAM   an existing non-regular file (/dev/null, a tty, a FIFO,
 *                /dev/stdout onto a pipe): opened and streamed to, as
 *                openssl does.  A stream cannot be taken back, so as with
 *                standard output a failure may leave its reader with part
 *                of the output (never a byte that was not fully processed).
 *   OUT_NEW      no file yet: staged, then linked to OUT (or, should OUT
 *                have appeared meanwhile, renamed over it).
 *   OUT_REPLACE  an existing regular file, opened for writing up front (so
 *                a folder or a read-only file is refused before any input
 *                is read).  At the end, when it has one link and the staged
 *                file can be given its owner, group, mode, extended
 *                attributes (ACLs are some) and inode flags, the staged file
 *                is renamed over it: atomic, and without copying the
 *                content a second time (what that saves, and what staging
 *                still costs: docs/CRYPTO.md, "Overwriting an existing
 *                file").  Its inode number changes, so a
 *                process holding the old file open keeps the old content.
 *                Otherwise -- hard links, another user's file for a non-root
 *                caller, a path under /dev or /proc, attributes we cannot
 *                set -- the staged output is copied over OUT's content in
 *                place: space reserved first (posix_fallocate, so a full
 *                disk fails before OUT is touched), copied in the kernel
 *                (copy_file_range: a reflink where the file system can),
 *                with the catchable signals held.  What is left there is a
 *                hardware I/O error or SIGKILL during that final copy.
 */
#define _GNU_SOURCE /* O_TMPFILE, AT_EMPTY_PATH, copy_file_range, SIGPWR */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h> /* FS_IOC_GETFLAGS */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/xattr.h>
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

/* ---- staging --------------------------------------------------------------- */

/* Creates the named temporary file in folder `dir` (dirlen bytes of it; 0 =
 * the current folder); 0, or -1 after printing the error about `path`. */
static int make_temp(cli_output *o, const char *dir, size_t dirlen, const char *path)
{
    install_handlers();
    sigset_t saved;
    hold_signals(1, &saved);
    snprintf(tmp_path, sizeof tmp_path, "%.*s.cryptopim-tmp-XXXXXX", (int)dirlen, dir);
    o->fd = mkostemp(tmp_path, O_CLOEXEC); /* 0600: the staged output is private */
    int err = errno;
    if (o->fd >= 0)
        tmp_live = 1;
    hold_signals(0, &saved);
    if (o->fd < 0) {
        cli_error("cannot write %s: cannot create a temporary file beside it: %s", cli_quote(path),
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

/* Opens the staging file in the folder of `where` (dirlen bytes of it):
 * unnamed where the file system can, else named.  0, or -1 after printing
 * the error about `path`. */
static int stage_open(cli_output *o, const char *where, size_t dirlen, const char *path)
{
    if (dirlen > sizeof tmp_path - 32) {
        cli_error("cannot write %s: file name too long", cli_quote(path));
        return -1;
    }
    install_handlers(); /* also for the name an unnamed file gets at the end */
    uint64_t unnamed = 1;
    if (cli_env_u64("CRYPTOPIM_TMPFILE", 0, 1, &unnamed) < 0)
        return -1;
    if (unnamed) {
        char dir[sizeof tmp_path];
        if (dirlen)
            snprintf(dir, sizeof dir, "%.*s", (int)dirlen, where);
        else
            strcpy(dir, ".");
        int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
        if (fd >= 0) {
            o->fd = fd;
            o->unnamed = 1;
            return 0;
        }
        /* EOPNOTSUPP: a file system without it (NFS, FUSE, vfat, ...);
         * EISDIR / EINVAL: a kernel older than O_TMPFILE, which sees only its
         * O_DIRECTORY bit.  Anything else (EACCES, EROFS, ENOENT) is the
         * folder's, and a named file would meet it too. */
        if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
            cli_error("cannot write %s: cannot create a temporary file beside it: %s",
                      cli_quote(path), strerror(errno));
            return -1;
        }
    }
    return make_temp(o, where, dirlen, path);
}

/* Gives the open file `fd` the name `name` (which must not exist): with
 * AT_EMPTY_PATH where the caller may (CAP_DAC_READ_SEARCH), else through
 * /proc/self/fd, as linkat(2) documents for O_TMPFILE files. */
static int link_fd(int fd, const char *name)
{
    if (linkat(fd, "", AT_FDCWD, name, AT_EMPTY_PATH) == 0)
        return 0;
    if (errno != ENOENT && errno != EPERM && errno != EINVAL)
        return -1;
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    return linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW);
}

/* Links the unnamed staged file to a fresh temporary name in the folder of
 * `where` (for a rename over an existing name: linkat cannot replace), and
 * records it so that a catchable signal removes it.  Signals must be held.
 * 0, or -1 with errno. */
static int link_temp(int fd, const char *where)
{
    static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    size_t dirlen = dir_len(where);
    for (int tries = 0; tries < 64; tries++) {
        unsigned char r[8];
        if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
            uint64_t x = (uint64_t)getpid() * 0x9e3779b97f4a7c15u + (uint64_t)tries * 0x85ebca6bu;
            memcpy(r, &x, sizeof r);
        }
        char suffix[sizeof r + 1];
        for (size_t i = 0; i < sizeof r; i++)
            suffix[i] = chars[r[i] % (sizeof chars - 1)];
        suffix[sizeof r] = '\0';
        snprintf(tmp_path, sizeof tmp_path, "%.*s.cryptopim-tmp-%s", (int)dirlen, where, suffix);
        if (link_fd(fd, tmp_path) == 0) {
            tmp_live = 1;
            return 0;
        }
        if (errno != EEXIST)
            return -1;
    }
    errno = EEXIST;
    return -1;
}

/* ---- output -------------------------------------------------------------- */

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
    o->fd = -1;
    if (!*path) { /* else it would only fail at the final link */
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
                cli_error("cannot write %s: it is a symbolic link to a missing file",
                          cli_quote(path));
                return -1;
            }
            o->kind = OUT_NEW;
            return stage_open(o, path, dir_len(path), path);
        }
        if (err == EACCES && stat(path, &st) == 0 && S_ISREG(st.st_mode) && !(st.st_mode & 0222)) {
            cli_error("cannot write %s: it is read-only (mode %04o); not replacing it",
                      cli_quote(path), (unsigned)(st.st_mode & 07777));
            return -1;
        }
        cli_error("cannot write %s: %s", cli_quote(path), strerror(err));
        return -1;
    }
    if (fstat(fd, &st) != 0) {
        cli_error("cannot write %s: %s", cli_quote(path), strerror(errno));
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
        cli_error("cannot write %s: it is read-only (mode %04o); not replacing it", cli_quote(path),
                  (unsigned)(st.st_mode & 07777));
        close(fd);
        return -1;
    }
    o->kind = OUT_REPLACE;
    o->dest_fd = fd;
    /* A path under /dev or /proc (/dev/stdout, /proc/self/fd/N onto a file)
     * names an open file, not a place in a folder: it is written in place. */
    o->in_place = strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0;
    /* Stage in the folder of the file itself (a symbolic link's target, or
     * what /dev/stdout stands for), so the staged copy shares its disk. */
    o->real = realpath(path, NULL);
    if (o->real && o->real[0] != '/') {
        free(o->real);
        o->real = NULL;
    }
    const char *where = o->real ? o->real : path;
    if (stage_open(o, where, dir_len(where), path) != 0) {
        close(fd);
        o->dest_fd = -1;
        free(o->real);
        o->real = NULL;
        return -1;
    }
    return 0;
}

/* Lists the extended attribute names of fd into a malloc'd buffer (*names,
 * NUL-separated); the length (0 where the file system has none), or -1. */
static ssize_t list_xattrs(int fd, char **names)
{
    *names = NULL;
    for (int tries = 0; tries < 8; tries++) {
        ssize_t n = flistxattr(fd, NULL, 0);
        if (n < 0)
            return errno == ENOTSUP ? 0 : -1;
        if (n == 0)
            return 0;
        char *b = malloc((size_t)n);
        if (!b)
            return -1;
        ssize_t m = flistxattr(fd, b, (size_t)n);
        if (m >= 0) {
            *names = b;
            return m;
        }
        free(b);
        if (errno != ERANGE) /* ERANGE: the list grew meanwhile */
            return -1;
    }
    return -1;
}

static int has_name(const char *list, ssize_t n, const char *name)
{
    for (const char *p = list; p < list + n; p += strlen(p) + 1)
        if (strcmp(p, name) == 0)
            return 1;
    return 0;
}

/* Makes the extended attributes of `to` (ACLs, SELinux labels, capabilities,
 * user attributes) those of `from`: those it got from its folder's defaults
 * removed, every one of `from` copied.  0, or -1 if any could not be. */
static int copy_xattrs(int to, int from)
{
    char *src, *dst;
    ssize_t ns = list_xattrs(from, &src), nd = list_xattrs(to, &dst);
    int rc = -1;
    if (ns < 0 || nd < 0)
        goto out;
    for (const char *p = dst; p < dst + nd; p += strlen(p) + 1)
        if (!has_name(src, ns, p) && fremovexattr(to, p) != 0)
            goto out;
    for (const char *p = src; p < src + ns; p += strlen(p) + 1) {
        ssize_t vn = fgetxattr(from, p, NULL, 0);
        char *v = vn >= 0 ? malloc(vn ? (size_t)vn : 1) : NULL;
        ssize_t m = v ? fgetxattr(from, p, v, (size_t)vn) : -1;
        int ok = m >= 0 && fsetxattr(to, p, v, (size_t)m, 0) == 0;
        free(v);
        if (!ok)
            goto out;
    }
    rc = 0;
out:
    free(src);
    free(dst);
    return rc;
}

/* The inode flags a user may set (chattr: nodump, noatime, sync,
 * compression...) of `from` onto `to`.  0, or -1 if they differ and cannot
 * be set. */
static int copy_flags(int to, int from)
{
#if defined(FS_IOC_GETFLAGS) && defined(FS_FL_USER_MODIFIABLE)
    int a = 0, b = 0;
    if (ioctl(from, FS_IOC_GETFLAGS, &a) != 0) /* none kept by this file system */
        return errno == ENOTTY || errno == ENOTSUP || errno == EINVAL || errno == ENOSYS ? 0 : -1;
    if (ioctl(to, FS_IOC_GETFLAGS, &b) != 0)
        return -1;
    if ((a & FS_FL_USER_MODIFIABLE) == (b & FS_FL_USER_MODIFIABLE))
        return 0;
    int c = (b & ~FS_FL_USER_MODIFIABLE) | (a & FS_FL_USER_MODIFIABLE);
    if (ioctl(to, FS_IOC_SETFLAGS, &c) != 0)
        return -1;
#else
    (void)to;
    (void)from;
#endif
    return 0;
}

/* Puts the staged output in place of an existing regular OUT by rename,
 * when that keeps everything the in-place copy would: 1 done, 0 not
 * possible (the caller copies instead; nothing of OUT was touched). */
static int replace_by_rename(cli_output *o)
{
    struct stat old, staged, now;
    if (o->in_place || !o->real || fstat(o->dest_fd, &old) != 0 || fstat(o->fd, &staged) != 0)
        return 0;
    /* Hard links would be split; and the name must still be the file we
     * opened (else we would replace whatever was put there meanwhile). */
    if (old.st_nlink != 1 || stat(o->real, &now) != 0 || now.st_dev != old.st_dev ||
        now.st_ino != old.st_ino || staged.st_dev != old.st_dev)
        return 0;
    /* Owner first: chown clears the set-user/group-ID bits; the mode, then
     * the attributes (an ACL sets the group bits of the mode). */
    if ((old.st_uid != staged.st_uid || old.st_gid != staged.st_gid) &&
        fchown(o->fd, old.st_uid, old.st_gid) != 0)
        return 0;
    if (fchmod(o->fd, old.st_mode & 07777) != 0 || copy_xattrs(o->fd, o->dest_fd) != 0 ||
        copy_flags(o->fd, o->dest_fd) != 0)
        return 0;
    /* fchmod drops the set-group-ID bit silently for a non-member */
    if (fstat(o->fd, &staged) != 0 || staged.st_uid != old.st_uid || staged.st_gid != old.st_gid ||
        (staged.st_mode & 07777) != (old.st_mode & 07777))
        return 0;
    sigset_t saved;
    hold_signals(1, &saved);
    int done = 0;
    if (!o->unnamed || link_temp(o->fd, o->real) == 0) {
        if (rename(tmp_path, o->real) == 0) {
            tmp_live = 0; /* it is OUT now */
            done = 1;
        } else if (o->unnamed) {
            drop_temp(); /* the name only; the staged file stays open for the copy */
        }
    }
    hold_signals(0, &saved);
    return done;
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
        cli_error("cannot write %s: %s", cli_quote(o->path), strerror(errno));
        return -1;
    }
    if (staged.st_size > old.st_size) {
        int err = posix_fallocate(o->dest_fd, old.st_size, staged.st_size - old.st_size);
        /* EINVAL/EOPNOTSUPP: the file system cannot reserve; go on without */
        if (err && err != EINVAL && err != EOPNOTSUPP) {
            if (ftruncate(o->dest_fd, old.st_size) != 0) {
                cli_error("cannot write %s: %s; and it could not be restored to its old size: %s",
                          cli_quote(o->path), strerror(err), strerror(errno));
                return -1;
            }
            cli_error("cannot write %s: %s (it is unchanged)", cli_quote(o->path), strerror(err));
            return -1;
        }
    }
    sigset_t saved;
    hold_signals(1, &saved);
    off_t at = 0;
    const char *what = NULL;
    int err = 0;
    /* In the kernel first (no round trip through this buffer; a reflink on
     * file systems that share blocks); by hand where it cannot. */
    while (at < staged.st_size) {
        off_t in = at, out = at;
        ssize_t r = copy_file_range(o->fd, &in, o->dest_fd, &out, (size_t)(staged.st_size - at), 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break; /* EXDEV, EINVAL, ENOSYS, EOPNOTSUPP...: the loop below goes on from `at` */
        at += r;
    }
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
        cli_error("cannot write %s: %s: %s; it is now INCOMPLETE", cli_quote(o->path), what,
                  strerror(err));
        return -1;
    }
    return 0;
}

/* OUT_NEW: gives the staged output OUT's name. */
static int commit_new(cli_output *o)
{
    /* A plain create's mode: 0666 less the umask. */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(o->fd, 0666 & ~mask) != 0) {
        cli_error("cannot write %s: %s", cli_quote(o->path), strerror(errno));
        return -1;
    }
    sigset_t saved;
    hold_signals(1, &saved);
    int rc = 0;
    if (!o->unnamed) {
        rc = rename(tmp_path, o->path);
    } else if (link_fd(o->fd, o->path) != 0) {
        /* OUT appeared while we worked: replaced, as rename(2) would */
        rc = errno == EEXIST && link_temp(o->fd, o->path) == 0 ? rename(tmp_path, o->path) : -1;
    }
    int err = errno;
    if (rc == 0)
        tmp_live = 0; /* it is OUT now */
    drop_temp();
    hold_signals(0, &saved);
    if (rc != 0)
        cli_error("cannot write %s: %s", cli_quote(o->path), strerror(err));
    return rc;
}

static void release(cli_output *o)
{
    if (o->fd >= 0 && o->kind != OUT_STDOUT)
        close(o->fd);
    if (o->dest_fd >= 0)
        close(o->dest_fd);
    o->fd = o->dest_fd = -1;
    free(o->real);
    o->real = NULL;
    drop_temp();
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
            cli_error("cannot write %s: %s", cli_quote(o->path), strerror(errno));
            rc = -1;
        }
        o->fd = -1;
        return rc;
    case OUT_NEW:
        rc = commit_new(o);
        break;
    default:
        if (!replace_by_rename(o))
            rc = replace_content(o, buf, cap);
        if (close(o->dest_fd) != 0 && rc == 0) {
            cli_error("cannot write %s: %s", cli_quote(o->path), strerror(errno));
            rc = -1;
        }
        o->dest_fd = -1;
        break;
    }
    release(o);
    return rc;
}

/* see cli.h */
void cli_output_abort(cli_output *o)
{
    if (o->kind == OUT_STDOUT)
        return;
    release(o);
}
