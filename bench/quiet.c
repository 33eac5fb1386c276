/*
 * quiet.c -- measured sections alone among parallel bench jobs (quiet.h).
 */
#include "quiet.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "cli.h"
#include "cryptopim.h"

static int lock_fd = -1, gate_fd = -1; /* -1: unlocked run */
static int depth;                      /* nested bench_quiet_begin() */
static double waited;                  /* seconds blocked in flock() */

/* flock() that retries on a signal; on any other failure the run goes on
 * unlocked (reported once). */
static void lock(int fd, int op)
{
    if (fd < 0)
        return;
    if (flock(fd, op | LOCK_NB) == 0)
        return;
    double t0 = cpim_now();
    while (flock(fd, op) != 0) {
        if (errno == EINTR)
            continue;
        cli_error("bench: CRYPTOPIM_BENCH_LOCK: flock: %s (measured rows may see other jobs)",
                  strerror(errno));
        close(lock_fd), close(gate_fd);
        lock_fd = gate_fd = -1;
        break;
    }
    waited += cpim_now() - t0;
}

double bench_quiet_waited(void)
{
    return waited;
}

void bench_quiet_init(void)
{
    const char *path = getenv("CRYPTOPIM_BENCH_LOCK");
    if (!path || !*path || lock_fd >= 0)
        return;
    char gate[4096];
    if ((size_t)snprintf(gate, sizeof gate, "%s.gate", path) >= sizeof gate) {
        cli_error("bench: CRYPTOPIM_BENCH_LOCK is too long: unlocked run");
        return;
    }
    lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    gate_fd = open(gate, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lock_fd < 0 || gate_fd < 0) {
        cli_error("bench: CRYPTOPIM_BENCH_LOCK %s: %s (measured rows may see other jobs)",
                  cli_quote(path), strerror(errno));
        if (lock_fd >= 0)
            close(lock_fd);
        if (gate_fd >= 0)
            close(gate_fd);
        lock_fd = gate_fd = -1;
        return;
    }
    lock(gate_fd, LOCK_EX);
    lock(gate_fd, LOCK_UN);
    lock(lock_fd, LOCK_SH);
}

void bench_quiet_yield(void)
{
    if (lock_fd < 0 || depth)
        return;
    lock(lock_fd, LOCK_UN);
    lock(gate_fd, LOCK_EX); /* a waiting measurement holds it: wait here */
    lock(gate_fd, LOCK_UN);
    lock(lock_fd, LOCK_SH);
}

void bench_quiet_begin(void)
{
    if (lock_fd < 0 || depth++)
        return;
    lock(lock_fd, LOCK_UN);
    lock(gate_fd, LOCK_EX); /* no one takes the lock shared from now on */
    lock(lock_fd, LOCK_EX); /* ... and those who hold it are done */
}

void bench_quiet_end(void)
{
    if (depth == 0 || --depth)
        return;
    lock(lock_fd, LOCK_SH);
    lock(gate_fd, LOCK_UN);
}
