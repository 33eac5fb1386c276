/* gdbstub.c -- the GDB remote-serial-protocol stub (gdbstub.h): framing,
 * packets, breakpoints, watchpoints, and the hooks the interpreter calls
 * (gdbstub_internal.h) around each instruction of a debugged run. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gdbstub_internal.h"

#define PKT_MAX  4096
#define WP_MAX   16
#define POLL_GAP 4096 /* instructions between two looks for gdb's Ctrl-C */

enum { F_IDLE, F_DATA, F_CS1, F_CS2 };
enum { RUN_NONE, RUN_CONT, RUN_STEP };

struct vdpu_gdb {
    vdpu_t *d;
    int fd;    /* -1: buffer mode (replies into out)       */
    char *out; /* buffer mode                              */
    size_t ocap, olen;
    int fstate; /* framing                                  */
    char pkt[PKT_MAX + 1];
    size_t plen;
    unsigned cs_rx;
    int overflow;
    int interrupted; /* 0x03 seen                                */
    uint8_t *bp;     /* [n_insns] breakpoints                    */
    uint32_t nbp;
    struct {
        uint32_t addr, len;
        int type; /* 2 write, 3 read, 4 access */
    } wp[WP_MAX];
    unsigned nwp;
    int cur;  /* tasklet of g/m/p (Hg) and of the last stop          */
    int cont; /* tasklet s steps (Hc), -1 = the current one         */
    int run;  /* RUN_* after c/s                                    */
    int step_t, step_left;
    int first;    /* the run's first instruction not seen yet           */
    int detached; /* gdb left: the run goes on undisturbed              */
    int fault_told;
    unsigned poll;
    int watch_hit; /* set before an access, reported after it          */
    uint32_t watch_addr;
    int watch_type;
    char stop[96];  /* the last stop reply                              */
    int seen_valid; /* the instruction instance the last hook saw      */
    unsigned seen_k;
    uint32_t seen_pc;
    uint64_t seen_n;
};

/* ------------------------------------------------------------ output */

static void emit(vdpu_gdb_t *g, const char *s, size_t n)
{
    if (g->fd < 0) {
        size_t room = g->ocap > g->olen ? g->ocap - g->olen : 0;
        size_t k = n < room ? n : room;
        if (g->out && k)
            memcpy(g->out + g->olen, s, k);
        g->olen += k;
        return;
    }
    while (n && !g->detached) {
        ssize_t w = send(g->fd, s, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            g->detached = 1; /* gdb went away */
            return;
        }
        s += w;
        n -= (size_t)w;
    }
}

/* $data#cs with the protocol's escapes */
static void reply_n(vdpu_gdb_t *g, const char *data, size_t n)
{
    char buf[2 * PKT_MAX + 8];
    size_t o = 0;
    unsigned cs = 0;
    buf[o++] = '$';
    for (size_t i = 0; i < n && o < sizeof buf - 8; i++) {
        char c = data[i];
        if (c == '$' || c == '#' || c == '}' || c == '*') {
            buf[o++] = '}';
            cs += '}';
            c ^= 0x20;
        }
        buf[o++] = c;
        cs += (unsigned char)c;
    }
    o += (size_t)snprintf(buf + o, sizeof buf - o, "#%02x", cs & 0xffu);
    emit(g, buf, o);
}

static void reply(vdpu_gdb_t *g, const char *s)
{
    reply_n(g, s, strlen(s));
}

static void tohex(char *dst, const void *src, size_t n)
{
    static const char hx[] = "0123456789abcdef";
    const uint8_t *s = src;
    for (size_t i = 0; i < n; i++) {
        dst[2 * i] = hx[s[i] >> 4];
        dst[2 * i + 1] = hx[s[i] & 15];
    }
    dst[2 * n] = 0;
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* reply with text, hex-encoded (qRcmd, qThreadExtraInfo) */
static void reply_text(vdpu_gdb_t *g, const char *text)
{
    char h[PKT_MAX];
    size_t n = strlen(text);
    if (n > PKT_MAX / 2 - 1)
        n = PKT_MAX / 2 - 1;
    tohex(h, text, n);
    reply(g, h);
}

/* an O packet: text gdb prints while the target runs */
static void console(vdpu_gdb_t *g, const char *text)
{
    char h[PKT_MAX];
    size_t n = strlen(text);
    if (n > PKT_MAX / 2 - 2)
        n = PKT_MAX / 2 - 2;
    h[0] = 'O';
    tohex(h + 1, text, n);
    reply(g, h);
}

/* ------------------------------------------------------------ parsing */

/* hex number at *s up to a non-hex; 0 if none or too long */
static int parse_hex(const char **s, uint64_t *v)
{
    uint64_t x = 0;
    int n = 0, h;
    while ((h = hexval((unsigned char)**s)) >= 0) {
        if (++n > 16)
            return 0;
        x = (x << 4) | (uint64_t)h;
        (*s)++;
    }
    *v = x;
    return n > 0;
}

/* thread id: -1 (all), 0 (any) or a tasklet + 1 */
static int parse_tid(const char *s, int *t)
{
    if (s[0] == '-' && s[1] == '1' && s[2] == 0) {
        *t = -1;
        return 1;
    }
    uint64_t v;
    if (!parse_hex(&s, &v) || *s || v > 1000)
        return 0;
    *t = (int)v - 1;
    return 1;
}

static unsigned nr(const vdpu_gdb_t *g)
{
    return g->d->prog ? g->d->nr : 0;
}

/* ---------------------------------------------------------- registers */

static uint32_t reg(const vdpu_gdb_t *g, unsigned k, unsigned i)
{
    const vdpu_t *d = g->d;
    const vtask_t *t = &d->t[k];
    if (i == 0)
        return 0;
    if (i < 32)
        return t->r[i];
    if (d->faulted && d->res && (int)k == d->res->fault_tasklet)
        return d->res->fault_pc; /* the faulting instruction */
    return VDPU_IRAM_BASE + 4u * t->pc;
}

static void set_reg(vdpu_gdb_t *g, unsigned k, unsigned i, uint32_t v)
{
    vtask_t *t = &g->d->t[k];
    if (i >= 1 && i < 32) {
        t->r[i] = v;
    } else if (i == 32 && v >= VDPU_IRAM_BASE && !(v & 3) &&
               (v - VDPU_IRAM_BASE) / 4 < g->d->prog->n_insns) {
        t->pc = (v - VDPU_IRAM_BASE) / 4;
    }
}

/* ------------------------------------------------------------- memory */

/* host pointer of n bytes at DPU address a, NULL if not one memory;
 * *ro when read-only (IRAM) */
static uint8_t *mem_at(vdpu_gdb_t *g, uint64_t a, uint64_t n, int *ro)
{
    vdpu_t *d = g->d;
    *ro = 0;
    if (n == 0 || n > PKT_MAX)
        return NULL;
    if (a < VDPU_WRAM_SIZE && n <= VDPU_WRAM_SIZE - a)
        return d->wram + a;
    if (a >= VDPU_MRAM_BASE && a - VDPU_MRAM_BASE < VDPU_MRAM_SIZE &&
        n <= VDPU_MRAM_SIZE - (a - VDPU_MRAM_BASE))
        return d->mram + (a - VDPU_MRAM_BASE);
    if (d->prog && a >= VDPU_IRAM_BASE && a - VDPU_IRAM_BASE < 4ull * d->prog->n_insns &&
        n <= 4ull * d->prog->n_insns - (a - VDPU_IRAM_BASE)) {
        *ro = 1;
        return (uint8_t *)d->prog->text + (a - VDPU_IRAM_BASE);
    }
    return NULL;
}

/* ---------------------------------------------------- target description */

static const char *const reg_names[33] = {"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "fp",
                                          "s1",   "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7",
                                          "s2",   "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10",
                                          "s11",  "t3", "t4", "t5", "t6", "pc"};

static size_t target_xml(char *buf, size_t cap)
{
    size_t o = (size_t)snprintf(buf, cap,
                                "<?xml version=\"1.0\"?><!DOCTYPE target SYSTEM \"gdb-target.dtd\">"
                                "<target version=\"1.0\"><architecture>riscv:rv32</architecture>"
                                "<feature name=\"org.gnu.gdb.riscv.cpu\">");
    for (unsigned i = 0; i < 33 && o < cap; i++) {
        const char *type = (i == 1 || i == 32)            ? "code_ptr"
                           : (i == 2 || i == 3 || i == 4) ? "data_ptr"
                                                          : "int";
        o += (size_t)snprintf(buf + o, cap - o,
                              "<reg name=\"%s\" bitsize=\"32\" type=\"%s\" regnum=\"%u\"/>",
                              reg_names[i], type, i);
    }
    if (o < cap)
        o += (size_t)snprintf(buf + o, cap - o, "</feature></target>");
    return o < cap ? o : cap;
}

/* --------------------------------------------------------- monitor text */

static const char *state_text(const vdpu_t *d, const vtask_t *t)
{
    switch (t->state) {
    case TS_RUN:
        return t->spin ? "running (spinning on a sync service)" : "running";
    case TS_BLOCKED:
        return "stopped (barrier, semaphore or handshake: waits for a resume)";
    case TS_DONE:
        return "exited";
    default:
        (void)d;
        return "not booted";
    }
}

static void monitor(vdpu_gdb_t *g, const char *cmd)
{
    vdpu_t *d = g->d;
    char buf[8192];
    size_t o = 0;
    const vdpu_result_t *r = d->res;
    if (!d->prog) {
        reply_text(g, "no DPU program is running\n");
        return;
    }
    if (!strcmp(cmd, "cycles") || !strcmp(cmd, "time")) {
        o += (size_t)snprintf(
            buf + o, sizeof buf - o,
            "modeled: cycle %llu = %.3f us at %.0f MHz (%s mode); instructions "
            "%llu, issue slots %llu\n",
            (unsigned long long)d->now, (double)d->now / d->params.clock_mhz, d->params.clock_mhz,
            d->params.mode == VDPU_MODE_TIMED ? "timed" : "fast (no cycles)",
            (unsigned long long)(r ? r->instructions : 0), (unsigned long long)d->total_slots);
    } else if (!strcmp(cmd, "dma")) {
        o += (size_t)snprintf(
            buf + o, sizeof buf - o, "DMAs %llu, %llu bytes, engine busy %llu cycles (modeled)\n",
            (unsigned long long)(r ? r->dma_count : 0), (unsigned long long)(r ? r->dma_bytes : 0),
            (unsigned long long)(r ? r->dma_busy_cycles : 0));
    } else if (!strcmp(cmd, "tasklets") || !strcmp(cmd, "revolver")) {
        for (unsigned k = 0; k < d->nr && o < sizeof buf - 300; k++) {
            const vtask_t *t = &d->t[k];
            o += (size_t)snprintf(
                buf + o, sizeof buf - o,
                "tasklet %u: %s, pc 0x%08x in %s; next issue at cycle %llu, %u slots owed; "
                "slots %llu, DMAs %llu, stopped %llu cycles\n",
                k, state_text(d, t), reg(g, k, 32), vdpu_program_func_name(d->prog, reg(g, k, 32)),
                (unsigned long long)t->ready, t->pending, (unsigned long long)t->st.slots,
                (unsigned long long)t->st.dma_count, (unsigned long long)t->st.blocked_cycles);
        }
    } else if (!strcmp(cmd, "fault")) {
        if (d->faulted && r)
            o += (size_t)snprintf(buf + o, sizeof buf - o, "tasklet %d, pc 0x%08x in %s: %s\n",
                                  r->fault_tasklet, r->fault_pc, r->fault_func, r->fault_msg);
        else
            o += (size_t)snprintf(buf + o, sizeof buf - o, "no fault\n");
    } else {
        o += (size_t)snprintf(buf + o, sizeof buf - o,
                              "monitor commands of the virtual DPU:\n"
                              "  cycles     the modeled clock so far, instructions, slots\n"
                              "  tasklets   each tasklet's state, pc, revolver turn, counts\n"
                              "  dma        DMA count, bytes, engine busy cycles\n"
                              "  fault      the fault that stopped the DPU, if any\n");
    }
    /* as console output (O packets, any length), then OK */
    for (size_t at = 0; at < o;) {
        char part[PKT_MAX / 4 + 1];
        size_t k = o - at < PKT_MAX / 4 ? o - at : PKT_MAX / 4;
        memcpy(part, buf + at, k);
        part[k] = 0;
        console(g, part);
        at += k;
    }
    reply(g, "OK");
}

/* -------------------------------------------------------------- packets */

static void stop_reply(vdpu_gdb_t *g, int sig, const char *extra)
{
    snprintf(g->stop, sizeof g->stop, "T%02xthread:%x;%s", sig, g->cur + 1, extra ? extra : "");
}

static void on_packet(vdpu_gdb_t *g, char *p, size_t n)
{
    vdpu_t *d = g->d;
    const unsigned N = nr(g);
    char buf[PKT_MAX + 1];
    p[n] = 0;
    switch (p[0]) {
    case '?':
        reply(g, g->stop[0] ? g->stop : "S05");
        return;
    case 'g': {
        if (!N || g->cur < 0 || (unsigned)g->cur >= N) {
            reply(g, "E01");
            return;
        }
        for (unsigned i = 0; i < 33; i++) {
            uint32_t v = reg(g, (unsigned)g->cur, i);
            tohex(buf + 8 * i, &v, 4);
        }
        reply(g, buf);
        return;
    }
    case 'G': {
        if (!N || g->cur < 0 || (unsigned)g->cur >= N || n < 1 + 33 * 8) {
            reply(g, "E01");
            return;
        }
        for (unsigned i = 0; i < 33; i++) {
            uint8_t b[4];
            for (unsigned j = 0; j < 4; j++) {
                int hi = hexval((unsigned char)p[1 + 8 * i + 2 * j]);
                int lo = hexval((unsigned char)p[2 + 8 * i + 2 * j]);
                if (hi < 0 || lo < 0) {
                    reply(g, "E01");
                    return;
                }
                b[j] = (uint8_t)(hi << 4 | lo);
            }
            uint32_t v;
            memcpy(&v, b, 4);
            set_reg(g, (unsigned)g->cur, i, v);
        }
        reply(g, "OK");
        return;
    }
    case 'p':
    case 'P': {
        const char *s = p + 1;
        uint64_t i, v = 0;
        if (!parse_hex(&s, &i) || !N || g->cur < 0 || (unsigned)g->cur >= N) {
            reply(g, "E01");
            return;
        }
        if (p[0] == 'p') {
            uint32_t x = i < 33 ? reg(g, (unsigned)g->cur, (unsigned)i) : 0;
            if (i >= 33) {
                reply(g, "E45"); /* no such register */
                return;
            }
            tohex(buf, &x, 4);
            reply(g, buf);
            return;
        }
        /* P n=v, v in target (little-endian) byte order */
        if (*s != '=' || strlen(s + 1) != 8 || i >= 33) {
            reply(g, "E01");
            return;
        }
        uint8_t b[4];
        for (unsigned j = 0; j < 4; j++) {
            int hi = hexval((unsigned char)s[1 + 2 * j]), lo = hexval((unsigned char)s[2 + 2 * j]);
            if (hi < 0 || lo < 0) {
                reply(g, "E01");
                return;
            }
            b[j] = (uint8_t)(hi << 4 | lo);
        }
        memcpy(&v, b, 4);
        set_reg(g, (unsigned)g->cur, (unsigned)i, (uint32_t)v);
        reply(g, "OK");
        return;
    }
    case 'm':
    case 'M':
    case 'X': {
        const char *s = p + 1;
        uint64_t a, len;
        int ro;
        if (!parse_hex(&s, &a) || *s++ != ',' || !parse_hex(&s, &len) ||
            (p[0] != 'm' && *s++ != ':') || (p[0] == 'm' && *s)) {
            reply(g, "E01");
            return;
        }
        if (len == 0) {
            reply(g, p[0] == 'm' ? "" : "OK");
            return;
        }
        if (p[0] == 'm' && len > PKT_MAX / 2)
            len = PKT_MAX / 2;
        uint8_t *m = mem_at(g, a, len, &ro);
        if (!m) {
            reply(g, "E14"); /* EFAULT: gdb says it cannot access the memory */
            return;
        }
        if (p[0] == 'm') {
            tohex(buf, m, (size_t)len);
            reply(g, buf);
            return;
        }
        if (ro) {
            reply(g, "E0e"); /* IRAM is read-only; breakpoints are Z0 */
            return;
        }
        uint8_t tmp[PKT_MAX];
        size_t have = 0;
        const char *end = p + n;
        if (p[0] == 'M') {
            for (; have < len && s + 1 < end; have++, s += 2) {
                int hi = hexval((unsigned char)s[0]), lo = hexval((unsigned char)s[1]);
                if (hi < 0 || lo < 0)
                    break;
                tmp[have] = (uint8_t)(hi << 4 | lo);
            }
        } else {
            for (; have < len && s < end; have++) {
                uint8_t c = (uint8_t)*s++;
                if (c == '}') {
                    if (s >= end)
                        break;
                    c = (uint8_t)(*s++ ^ 0x20);
                }
                tmp[have] = c;
            }
        }
        if (have != len) {
            reply(g, "E01");
            return;
        }
        memcpy(m, tmp, have);
        reply(g, "OK");
        return;
    }
    case 'Z':
    case 'z': {
        const char *s = p + 1;
        uint64_t type = 0, a, kind;
        if (!parse_hex(&s, &type) || *s++ != ',' || !parse_hex(&s, &a) || *s++ != ',' ||
            !parse_hex(&s, &kind) || type > 4) {
            reply(g, type > 4 ? "" : "E01");
            return;
        }
        int set = p[0] == 'Z';
        if (type <= 1) {
            uint64_t i = (a - VDPU_IRAM_BASE) / 4;
            if (a < VDPU_IRAM_BASE || (a & 3) || !g->bp || i >= g->nbp) {
                reply(g, "E01");
                return;
            }
            g->bp[i] = (uint8_t)set;
            reply(g, "OK");
            return;
        }
        if (kind == 0 || kind > VDPU_MRAM_SIZE) {
            reply(g, "E01");
            return;
        }
        if (set) {
            if (g->nwp == WP_MAX) {
                reply(g, "E28"); /* no room: gdb falls back or says so */
                return;
            }
            g->wp[g->nwp].addr = (uint32_t)a;
            g->wp[g->nwp].len = (uint32_t)kind;
            g->wp[g->nwp].type = (int)type;
            g->nwp++;
        } else {
            for (unsigned i = 0; i < g->nwp; i++)
                if (g->wp[i].addr == a && g->wp[i].len == kind && g->wp[i].type == (int)type) {
                    g->wp[i] = g->wp[--g->nwp];
                    break;
                }
        }
        reply(g, "OK");
        return;
    }
    case 'c':
    case 'C':
        g->run = RUN_CONT;
        g->step_t = -1;
        return;
    case 's':
    case 'S': {
        int t = g->cont >= 0 ? g->cont : g->cur;
        if (!N || t < 0 || (unsigned)t >= N) {
            reply(g, "E01");
            return;
        }
        g->run = RUN_STEP;
        g->step_t = t;
        g->step_left = 1;
        return;
    }
    case 'H': {
        int t;
        if ((p[1] != 'g' && p[1] != 'c') || !parse_tid(p + 2, &t) || t >= (int)N) {
            reply(g, "E01");
            return;
        }
        if (p[1] == 'g' && t >= 0)
            g->cur = t;
        if (p[1] == 'c')
            g->cont = t;
        reply(g, "OK");
        return;
    }
    case 'T': {
        int t;
        reply(g, parse_tid(p + 1, &t) && t >= 0 && (unsigned)t < N ? "OK" : "E01");
        return;
    }
    case 'D':
        reply(g, "OK");
        g->detached = 1;
        return;
    case 'k':
        g->detached = 1;
        return;
    case 'q':
        break;
    case 'v':
        if (!strncmp(p, "vKill", 5)) {
            reply(g, "OK");
            g->detached = 1;
            return;
        }
        reply(g, ""); /* vCont?, vMustReplyEmpty, ...: not supported */
        return;
    default:
        reply(g, "");
        return;
    }
    /* q packets */
    if (!strncmp(p, "qSupported", 10)) {
        reply(g, "PacketSize=1000;qXfer:features:read+;swbreak+;hwbreak+");
    } else if (!strncmp(p, "qXfer:features:read:target.xml:", 31)) {
        const char *s = p + 31;
        uint64_t off, len;
        if (!parse_hex(&s, &off) || *s++ != ',' || !parse_hex(&s, &len)) {
            reply(g, "E01");
            return;
        }
        char xml[4096];
        size_t xl = target_xml(xml, sizeof xml);
        if (off >= xl) {
            reply(g, "l");
            return;
        }
        if (len > PKT_MAX - 2)
            len = PKT_MAX - 2;
        size_t k = xl - off < len ? xl - (size_t)off : (size_t)len;
        buf[0] = off + k >= xl ? 'l' : 'm';
        memcpy(buf + 1, xml + off, k);
        reply_n(g, buf, k + 1);
    } else if (!strcmp(p, "qfThreadInfo")) {
        size_t o = 0;
        buf[o++] = N ? 'm' : 'l';
        for (unsigned k = 0; k < N && o < sizeof buf - 8; k++)
            o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%x", k ? "," : "", k + 1);
        buf[o] = 0;
        reply(g, buf);
    } else if (!strcmp(p, "qsThreadInfo")) {
        reply(g, "l");
    } else if (!strcmp(p, "qC")) {
        snprintf(buf, sizeof buf, "QC%x", g->cur + 1);
        reply(g, buf);
    } else if (!strcmp(p, "qAttached")) {
        reply(g, "1");
    } else if (!strncmp(p, "qThreadExtraInfo,", 17)) {
        int t;
        if (!parse_tid(p + 17, &t) || t < 0 || (unsigned)t >= N) {
            reply(g, "E01");
            return;
        }
        snprintf(buf, sizeof buf, "tasklet %d, %s", t, state_text(d, &d->t[t]));
        reply_text(g, buf);
    } else if (!strncmp(p, "qRcmd,", 6)) {
        size_t k = 0;
        const char *s = p + 6;
        for (; s[0] && s[1] && k < sizeof buf - 1; s += 2) {
            int hi = hexval((unsigned char)s[0]), lo = hexval((unsigned char)s[1]);
            if (hi < 0 || lo < 0)
                break;
            buf[k++] = (char)(hi << 4 | lo);
        }
        buf[k] = 0;
        monitor(g, buf);
    } else if (!strncmp(p, "qSymbol", 7)) {
        reply(g, "OK");
    } else {
        reply(g, "");
    }
}

/* one byte from gdb */
static void on_byte(vdpu_gdb_t *g, uint8_t c)
{
    switch (g->fstate) {
    case F_IDLE:
        if (c == '$') {
            g->fstate = F_DATA;
            g->plen = 0;
            g->overflow = 0;
        } else if (c == 0x03) {
            g->interrupted = 1;
        } /* '+', '-' and noise: ignored */
        return;
    case F_DATA:
        if (c == '#') {
            g->fstate = F_CS1;
            return;
        }
        if (g->plen < PKT_MAX)
            g->pkt[g->plen++] = (char)c;
        else
            g->overflow = 1;
        return;
    case F_CS1:
        g->cs_rx = (unsigned)(hexval(c) < 0 ? 0x100 : hexval(c) << 4);
        g->fstate = F_CS2;
        return;
    default: {
        g->fstate = F_IDLE;
        unsigned cs = 0;
        for (size_t i = 0; i < g->plen; i++)
            cs += (uint8_t)g->pkt[i];
        if (hexval(c) < 0 || g->cs_rx > 0xff || (g->cs_rx | (unsigned)hexval(c)) != (cs & 0xffu) ||
            g->overflow || g->plen == 0) {
            emit(g, "-", 1);
            return;
        }
        emit(g, "+", 1);
        on_packet(g, g->pkt, g->plen);
    }
    }
}

/* Serves gdb until it resumes the DPU or leaves; with `tell`, first sends
 * the stop reply. */
static void serve(vdpu_gdb_t *g, int tell)
{
    if (g->detached)
        return;
    if (tell)
        reply(g, g->stop);
    g->run = RUN_NONE;
    g->interrupted = 0;
    while (g->run == RUN_NONE && !g->detached) {
        uint8_t c;
        ssize_t r = read(g->fd, &c, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            g->detached = 1; /* gdb closed the connection */
            break;
        }
        on_byte(g, c);
    }
}

static void stop(vdpu_gdb_t *g, unsigned k, int sig, const char *extra)
{
    g->cur = (int)k;
    g->step_t = -1;
    stop_reply(g, sig, extra);
    serve(g, 1);
}

/* -------------------------------------------------------------- hooks */

void vdpu_gdb_run_begin(vdpu_t *d)
{
    vdpu_gdb_t *g = d->dbg;
    g->first = 1;
    g->cur = 0;
    g->cont = -1;
    g->step_t = -1;
    g->fault_told = 0;
    g->seen_valid = 0;
    free(g->bp);
    g->nbp = d->prog->n_insns;
    g->bp = calloc(g->nbp + 1u, 1);
    if (!g->bp)
        g->nbp = 0;
}

/* Whether gdb sent Ctrl-C (or left) while the DPU runs. */
static int poll_interrupt(vdpu_gdb_t *g)
{
    uint8_t buf[64];
    for (;;) {
        ssize_t r = recv(g->fd, buf, sizeof buf, MSG_DONTWAIT);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0) {
            g->detached = 1;
            return 0;
        }
        if (r < 0)
            return g->interrupted;
        for (ssize_t i = 0; i < r; i++)
            on_byte(g, buf[i]);
    }
}

/* the accesses of the instruction at pc that a watchpoint covers */
static void check_watch(vdpu_gdb_t *g, const vtask_t *t, uint32_t pc)
{
    const vinsn_t *I = &g->d->code[pc];
    const uint32_t *R = t->r;
    uint32_t a[2] = {0, 0}, n[2] = {0, 0};
    int wr[2] = {0, 0};
    switch (I->op) {
    case OP_LB:
    case OP_LBU:
        a[0] = R[I->rs1] + (uint32_t)I->imm, n[0] = 1;
        break;
    case OP_LH:
    case OP_LHU:
        a[0] = R[I->rs1] + (uint32_t)I->imm, n[0] = 2;
        break;
    case OP_LW:
        a[0] = R[I->rs1] + (uint32_t)I->imm, n[0] = 4;
        break;
    case OP_LD:
        a[0] = R[I->rs1] + (uint32_t)I->imm, n[0] = 8;
        break;
    case OP_SB:
        a[0] = R[I->rs1] + (uint32_t)I->imm, n[0] = 1, wr[0] = 1;
        break;
    case OP_SH:
        a[0] = R[I->rs1] + (uint32_t)I->imm, n[0] = 2, wr[0] = 1;
        break;
    case OP_SW:
        a[0] = R[I->rs1] + (uint32_t)I->imm, n[0] = 4, wr[0] = 1;
        break;
    case OP_SD:
        a[0] = R[I->rs1] + (uint32_t)I->imm, n[0] = 8, wr[0] = 1;
        break;
    case OP_LDMA:
    case OP_SDMA:
    case OP_LDMA_R:
    case OP_SDMA_R: {
        uint32_t sz =
            (I->op == OP_LDMA_R || I->op == OP_SDMA_R) ? R[I->imm & 31] : (uint32_t)I->imm;
        int w = I->op == OP_SDMA || I->op == OP_SDMA_R;
        a[0] = R[I->rs1], n[0] = sz, wr[0] = !w;                                          /* WRAM */
        a[1] = VDPU_MRAM_BASE + (R[I->rs2] & (VDPU_MRAM_SIZE - 1)), n[1] = sz, wr[1] = w; /* MRAM */
        break;
    }
    case OP_ECALL:
        if (R[17] == VDPU_SYS_MRAM_READ || R[17] == VDPU_SYS_MRAM_WRITE) {
            int w = R[17] == VDPU_SYS_MRAM_WRITE;
            uint32_t ma = w ? R[11] : R[10], wa = w ? R[10] : R[11];
            a[0] = wa, n[0] = R[12], wr[0] = !w;
            a[1] = VDPU_MRAM_BASE + (ma & (VDPU_MRAM_SIZE - 1)), n[1] = R[12], wr[1] = w;
        }
        break;
    default:
        return;
    }
    for (unsigned j = 0; j < 2; j++) {
        if (!n[j])
            continue;
        for (unsigned i = 0; i < g->nwp; i++) {
            uint64_t lo = g->wp[i].addr, hi = lo + g->wp[i].len;
            if ((uint64_t)a[j] + n[j] <= lo || a[j] >= hi)
                continue;
            int ty = g->wp[i].type;
            if ((ty == 2 && !wr[j]) || (ty == 3 && wr[j]))
                continue;
            g->watch_hit = 1;
            g->watch_addr = g->wp[i].addr;
            g->watch_type = ty;
            return;
        }
    }
}

void vdpu_gdb_before(vdpu_t *d, const vtask_t *t, uint32_t pc)
{
    vdpu_gdb_t *g = d->dbg;
    const unsigned k = (unsigned)(t - d->t);
    if (g->detached ||
        (k == g->seen_k && pc == g->seen_pc && t->st.instructions == g->seen_n && g->seen_valid))
        return;
    g->seen_valid = 1;
    g->seen_k = k;
    g->seen_pc = pc;
    g->seen_n = t->st.instructions;
    if (g->first) { /* the run stops at its entry and waits for gdb */
        g->first = 0;
        g->cur = (int)k;
        stop_reply(g, 5, NULL);
        serve(g, 0);
    } else if (++g->poll >= POLL_GAP && (g->poll = 0, poll_interrupt(g))) {
        stop(g, k, 2, NULL); /* SIGINT */
    } else if (g->step_t == (int)k && g->step_left == 0) {
        stop(g, k, 5, NULL);
    } else if (pc < g->nbp && g->bp[pc]) {
        stop(g, k, 5, "swbreak:;");
    }
    if (g->detached)
        return;
    if (g->step_t == (int)k) /* this instruction is the step's */
        g->step_left--;
}

void vdpu_gdb_access(vdpu_t *d, const vtask_t *t, uint32_t pc)
{
    vdpu_gdb_t *g = d->dbg;
    g->watch_hit = 0;
    if (g->nwp && !g->detached)
        check_watch(g, t, pc);
}

void vdpu_gdb_after(vdpu_t *d, const vtask_t *t)
{
    vdpu_gdb_t *g = d->dbg;
    if (!g->watch_hit || g->detached)
        return;
    g->watch_hit = 0;
    char extra[48];
    snprintf(extra, sizeof extra, "%s:%x;",
             g->watch_type == 2   ? "watch"
             : g->watch_type == 3 ? "rwatch"
                                  : "awatch",
             g->watch_addr);
    stop(g, (unsigned)(t - d->t), 5, extra);
}

static int fault_signal(int code)
{
    switch (code) {
    case VDPU_FAULT_ILLEGAL_INSN:
        return 4; /* SIGILL */
    case VDPU_FAULT_DIV_ZERO:
        return 8; /* SIGFPE */
    case VDPU_FAULT_HALT:
        return 5; /* SIGTRAP */
    case VDPU_FAULT_DMA_SIZE:
    case VDPU_FAULT_DMA_ALIGN:
    case VDPU_FAULT_DMA_RANGE:
    case VDPU_FAULT_BAD_ACCESS:
    case VDPU_FAULT_IRAM_STORE:
    case VDPU_FAULT_MISALIGNED:
    case VDPU_FAULT_STACK_OVERFLOW:
    case VDPU_FAULT_BAD_PC:
    case VDPU_FAULT_UNALIGNED_MRAM:
        return 11; /* SIGSEGV */
    default:
        return 6; /* SIGABRT: assert, deadlock, heap, watchdog, ... */
    }
}

void vdpu_gdb_fault(vdpu_t *d)
{
    vdpu_gdb_t *g = d->dbg;
    if (g->detached || g->fault_told || !d->faulted)
        return;
    g->fault_told = 1;
    const vdpu_result_t *r = d->res;
    char msg[400];
    snprintf(msg, sizeof msg, "DPU fault [%s] tasklet %d, pc 0x%08x in %s: %s\n",
             vdpu_fault_name(r->fault_code), r->fault_tasklet, r->fault_pc, r->fault_func,
             r->fault_msg);
    console(g, msg);
    stop(g, r->fault_tasklet >= 0 ? (unsigned)r->fault_tasklet : 0, fault_signal(r->fault_code),
         NULL);
}

void vdpu_gdb_run_end(vdpu_t *d)
{
    vdpu_gdb_t *g = d->dbg;
    if (d->faulted)
        vdpu_gdb_fault(d); /* a deadlock or the watchdog: found by the scheduler */
    if (!g->detached) {
        char buf[8];
        if (d->faulted)
            snprintf(buf, sizeof buf, "X%02x", fault_signal(d->res->fault_code));
        else
            snprintf(buf, sizeof buf, "W00");
        reply(g, buf);
    }
    d->dbg = NULL;
    vdpu_gdb_free(g);
}

/* ---------------------------------------------------------- lifecycle */

vdpu_err_t vdpu_gdb_attach(vdpu_t *d, int fd)
{
    if (!d || fd < 0 || d->dbg)
        return VDPU_ERR_ARG;
    vdpu_gdb_t *g = calloc(1, sizeof *g);
    if (!g)
        return VDPU_ERR_NOMEM;
    g->d = d;
    g->fd = fd;
    g->step_t = -1;
    g->cont = -1;
    d->dbg = g;
    return VDPU_OK;
}

vdpu_gdb_t *vdpu_gdb_new_buffer(vdpu_t *d)
{
    if (!d)
        return NULL;
    vdpu_gdb_t *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->d = d;
    g->fd = -1;
    g->step_t = -1;
    g->cont = -1;
    if (d->prog) {
        g->nbp = d->prog->n_insns;
        g->bp = calloc(g->nbp + 1u, 1);
        if (!g->bp)
            g->nbp = 0;
    }
    return g;
}

size_t vdpu_gdb_feed(vdpu_gdb_t *g, const void *data, size_t len, char *out, size_t cap)
{
    if (!g)
        return 0;
    g->out = out;
    g->ocap = cap;
    g->olen = 0;
    const uint8_t *p = data;
    for (size_t i = 0; i < len; i++)
        on_byte(g, p[i]);
    g->out = NULL;
    return g->olen;
}

void vdpu_gdb_free(vdpu_gdb_t *g)
{
    if (!g)
        return;
    if (g->fd >= 0)
        close(g->fd);
    free(g->bp);
    free(g);
}
