/*
 * dpugdb.c -- gdbserver=HOST:PORT (see dpugdb.h): the listening socket, the
 * one connection, and its hand-over to the virtual DPU's stub.
 */
#include "dpugdb.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../vdpu/gdbstub.h"

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static int g_used; /* gdb serves one DPU run per process */

/* a connected socket from gdb, or -1 (the reason printed) */
static int wait_for_gdb(const profile_t *p, const struct dpu_t *d)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) {
        fprintf(stderr, "virtual UPMEM: gdbserver: socket: %s\n", strerror(errno));
        return -1;
    }
    int one = 1;
    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(p->gdb_addr);
    a.sin_port = htons((uint16_t)p->gdb_port);
    socklen_t al = sizeof a;
    char host[INET_ADDRSTRLEN] = "?";
    inet_ntop(AF_INET, &a.sin_addr, host, sizeof host);
    if (bind(s, (struct sockaddr *)&a, sizeof a) != 0 || listen(s, 1) != 0 ||
        getsockname(s, (struct sockaddr *)&a, &al) != 0) {
        fprintf(stderr, "virtual UPMEM: gdbserver=%s:%u: %s\n", host, p->gdb_port, strerror(errno));
        close(s);
        return -1;
    }
    fprintf(stderr,
            "virtual UPMEM: DPU %u of rank %u waits for gdb on %s:%u (target remote %s:%u)\n",
            d->index, d->rank->id, host, ntohs(a.sin_port), host, ntohs(a.sin_port));
    int c;
    do
        c = accept(s, NULL, NULL);
    while (c < 0 && errno == EINTR);
    if (c < 0)
        fprintf(stderr, "virtual UPMEM: gdbserver: accept: %s\n", strerror(errno));
    else /* small packets both ways: Nagle's wait would add 40 ms to each */
        setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    close(s);
    return c;
}

/* see dpugdb.h */
void emu_dpugdb_launch(struct dpu_t **dpus, uint32_t m)
{
    if (m == 0 || !dpus[0]->rank->prof->gdb)
        return;
    pthread_mutex_lock(&g_mu);
    if (!g_used) {
        g_used = 1;
        const profile_t *p = dpus[0]->rank->prof;
        if (p->gdb_dpu >= m) {
            fprintf(stderr,
                    "virtual UPMEM: gdbDpu=%u: the first launch runs %u DPU%s: nothing to debug\n",
                    p->gdb_dpu, m, m == 1 ? "" : "s");
        } else {
            struct dpu_t *d = dpus[p->gdb_dpu];
            int fd = wait_for_gdb(p, d);
            if (fd >= 0 && vdpu_gdb_attach(d->v, fd) != VDPU_OK) {
                fprintf(stderr, "virtual UPMEM: gdbserver: cannot attach to the DPU\n");
                close(fd);
            }
        }
    }
    pthread_mutex_unlock(&g_mu);
}
