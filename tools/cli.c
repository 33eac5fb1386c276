/* see cli.h -- option scanning, shared options, errors, hex. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

void cli_error(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout); /* keep stdout and stderr in order on a terminal */
    fputs(CLI_NAME ": ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void cli_args_init(cli_args *a, int argc, char **argv)
{
    a->argc = argc;
    a->argv = argv;
    a->i = 0;
    a->only_operands = 0;
    a->pending = NULL;
    a->name[0] = '\0';
}

int cli_next(cli_args *a, const char **opt, const char **operand)
{
    char *name = a->name;
    a->pending = NULL;
    *opt = NULL;
    *operand = NULL;
    if (a->i >= a->argc)
        return 0;
    const char *s = a->argv[a->i++];
    if (!a->only_operands && strcmp(s, "--") == 0) {
        a->only_operands = 1;
        return cli_next(a, opt, operand);
    }
    if (a->only_operands || s[0] != '-' || s[1] == '\0') {
        *operand = s;
        return 1;
    }
    if (s[1] == '-') {
        const char *eq = strchr(s, '=');
        if (!eq) {
            *opt = s;
            return 1;
        }
        size_t n = (size_t)(eq - s);
        if (n >= sizeof a->name)
            n = sizeof a->name - 1;
        memcpy(name, s, n);
        name[n] = '\0';
        a->pending = eq + 1;
        *opt = name;
        return 1;
    }
    name[0] = '-';
    name[1] = s[1];
    name[2] = '\0';
    if (s[2])
        a->pending = s + 2;
    *opt = name;
    return 1;
}

const char *cli_value(cli_args *a, const char *opt)
{
    if (a->pending) {
        const char *v = a->pending;
        a->pending = NULL;
        return v;
    }
    if (a->i >= a->argc) {
        cli_error("option %s needs a value", opt);
        return NULL;
    }
    return a->argv[a->i++];
}

int cli_has_inline_value(const cli_args *a)
{
    return a->pending != NULL;
}

int cli_arg_number(const cli_args *a)
{
    return a->i + 1;
}

/* Four static buffers, used in turn, so that one message may quote a few
 * items (two file names, say). */
static char *quote_buf(void)
{
    static char bufs[4][256];
    static unsigned next;
    return bufs[next++ % 4];
}

const char *cli_quote(const char *s)
{
    static const char hidden[] = "(not shown: it may be key material)";
    size_t n = strlen(s), run = 0;
    if (n > 64)
        return hidden;
    for (size_t i = 0; i < n; i++) {
        run = isxdigit((unsigned char)s[i]) ? run + 1 : 0;
        if (run >= 8)
            return hidden;
    }
    char *buf = quote_buf();
    snprintf(buf, 256, "'%s'", s);
    return buf;
}

const char *cli_quote_path(const char *path)
{
    if (!path)
        return "standard input";
    char *buf = quote_buf();
    size_t o = 0, i = 0;
    buf[o++] = '\'';
    while (path[i] && o < 200) { /* each step adds at most 34: the buffer has 256 */
        size_t run = 0;
        while (isxdigit((unsigned char)path[i + run]))
            run++;
        if (run >= 8) {
            o += (size_t)snprintf(buf + o, 256 - o, "<%zu hex digits>", run);
            i += run;
        } else {
            buf[o++] = path[i++]; /* a shorter run goes one character at a time */
        }
    }
    if (path[i]) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o++] = '\'';
    buf[o] = '\0';
    return buf;
}

const char *cli_quote_out(const char *path)
{
    return path ? cli_quote_path(path) : "standard output";
}

int cli_env_u64(const char *name, uint64_t lo, uint64_t hi, uint64_t *out)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return 0;
    uint64_t v = 0;
    const char *p = s;
    for (; *p >= '0' && *p <= '9'; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10) {
            p = s; /* overflow: refused below */
            break;
        }
        v = v * 10 + d;
    }
    if (p == s || *p || v < lo || v > hi) {
        cli_error("%s=%s: not a number in %llu..%llu", name, cli_quote(s), (unsigned long long)lo,
                  (unsigned long long)hi);
        return -1;
    }
    *out = v;
    return 1;
}

int cli_parse_decimal(const char *what, const char *s, double lo, double hi, double *out)
{
    size_t digits = 0, points = 0, i = 0;
    for (; s && s[i]; i++) {
        if (s[i] >= '0' && s[i] <= '9')
            digits++;
        else if (s[i] == '.')
            points++;
        else
            break;
    }
    double v = 0;
    if (s && !s[i] && digits && points <= 1 && digits <= 30)
        v = strtod(s, NULL); /* only digits and one point: strtod reads them all */
    if (!s || s[i] || !digits || points > 1 || digits > 30 || !(v >= lo && v <= hi)) {
        cli_error("%s: expected a number in %g..%g, got %s", what, lo, hi,
                  s ? cli_quote(s) : "nothing");
        return -1;
    }
    *out = v;
    return 0;
}

int cli_env_decimal(const char *name, double lo, double hi, double *out)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return 0;
    return cli_parse_decimal(name, s, lo, hi, out) == 0 ? 1 : -1;
}

static unsigned std_closed; /* bit fd: descriptor fd was closed at the start */

int cli_std_fd_closed(int fd)
{
    return fd >= 0 && fd < 3 && (std_closed >> fd & 1);
}

/* see cli.h */
int cli_finish_stdout(const char *cmd, int rc)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return rc;
    int sum = cmd && strcmp(cmd, "sha256sum") == 0;
    if (!sum)
        cli_error("cannot write standard output: %s", strerror(errno));
    else if (errno)
        cli_error("write error: %s", strerror(errno));
    else
        cli_error("write error");
    return rc ? rc : sum ? CLI_FAIL : CLI_USAGE;
}

int cli_guard_std_fds(void)
{
    static const int flags[3] = {O_WRONLY, O_RDONLY, O_RDONLY};
    for (int fd = 0; fd < 3; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        std_closed |= 1u << fd;
        /* The lowest free number is fd itself: 0..fd-1 are open by now. */
        int got = open("/dev/null", flags[fd] | O_NOCTTY);
        if (got != fd) {
            if (got >= 0)
                close(got);
            return -1;
        }
    }
    return 0;
}

int cli_parse_uint(const char *opt, const char *s, unsigned lo, unsigned hi, unsigned *out)
{
    char *end;
    errno = 0;
    if (!s || *s < '0' || *s > '9') {
        cli_error("%s: %s is not a number", opt, cli_quote(s ? s : ""));
        return -1;
    }
    unsigned long v = strtoul(s, &end, 10);
    if (errno || *end || v < lo || v > hi) {
        cli_error("%s: %s is not a number in %u..%u", opt, cli_quote(s), lo, hi);
        return -1;
    }
    *out = (unsigned)v;
    return 0;
}

void cli_common_init(cli_common *c)
{
    memset(c, 0, sizeof *c);
    cpim_options_init(&c->opt);
}

const char cli_common_help[] =
    "  --backend NAME     backend to run on (see `cryptopim list`)\n"
    "  --threads N        host threads for bulk work (0 = all cores, default)\n"
    "  --dpus N           pim: DPUs to allocate            (not with --ranks)\n"
    "  --ranks R          pim: ranks to allocate (default 1)\n"
    "  --tasklets T       pim: tasklets per DPU, 1..24 (default 16)\n"
    "  --mode M           pim: host mode sync | async-xfer | async-exec\n"
    "  --pim-profile P    pim: UPMEM profile for dpu_alloc (key=value,...), with the\n"
    "                     backend's own keys mramBudget, directMin, failAt\n";

int cli_common_option(cli_common *c, cli_args *a, const char *opt)
{
    const char *v;
    if (strcmp(opt, "--backend") == 0) {
        if (!(v = cli_value(a, opt)))
            return -1;
        c->backend = v;
        return 1;
    }
    if (strcmp(opt, "--threads") == 0) {
        v = cli_value(a, opt);
        return cli_parse_uint(opt, v, 0, 4096, &c->opt.threads) ? -1 : 1;
    }
    if (strcmp(opt, "--dpus") == 0 || strcmp(opt, "--ranks") == 0) {
        int dpus = opt[2] == 'd';
        v = cli_value(a, opt);
        if (cli_parse_uint(opt, v, 1, 1u << 20, dpus ? &c->opt.dpus : &c->opt.ranks))
            return -1;
        *(dpus ? &c->dpus_set : &c->ranks_set) = 1;
        if (c->dpus_set && c->ranks_set) {
            cli_error("--dpus and --ranks exclude each other");
            return -1;
        }
        return 1;
    }
    if (strcmp(opt, "--pim-profile") == 0) {
        if (!(v = cli_value(a, opt)))
            return -1;
        c->opt.profile = v;
        return 1;
    }
    if (strcmp(opt, "--tasklets") == 0) {
        v = cli_value(a, opt);
        return cli_parse_uint(opt, v, 1, 24, &c->opt.tasklets) ? -1 : 1;
    }
    if (strcmp(opt, "--mode") == 0) {
        if (!(v = cli_value(a, opt)))
            return -1;
        if (strcmp(v, "sync") == 0)
            c->opt.mode = CPIM_PIM_SYNC;
        else if (strcmp(v, "async-xfer") == 0)
            c->opt.mode = CPIM_PIM_ASYNC_XFER;
        else if (strcmp(v, "async-exec") == 0)
            c->opt.mode = CPIM_PIM_ASYNC_EXEC;
        else {
            cli_error("--mode: %s is not one of sync, async-xfer, async-exec", cli_quote(v));
            return -1;
        }
        return 1;
    }
    return 0;
}

cpim_ctx *cli_open(const char *backend, const cpim_options *opt)
{
    cpim_backend_info info;
    cpim_ctx *ctx = NULL;
    if (cpim_backend_info_by_name(backend, &info) != CPIM_OK) {
        cli_error("unknown backend %s (see `cryptopim list`)", cli_quote(backend));
        return NULL;
    }
    if (!info.available) {
        cli_error("backend '%s' is not available on this machine: %s", backend, info.why);
        return NULL;
    }
    cpim_err rc = cpim_open(&ctx, backend, opt);
    if (rc != CPIM_OK) {
        cli_error("cannot open backend '%s': %s", backend, cpim_strerror(rc));
        return NULL;
    }
    return ctx;
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

long cli_unhex(const char *s, size_t n, int allow_space, uint8_t *out, size_t cap)
{
    size_t digits = 0;
    int hi = 0;
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)s[i];
        if (allow_space && (c == ' ' || c == '\t' || c == '\n' || c == '\r'))
            continue;
        int v = hexval(c);
        if (v < 0)
            return -1;
        if (digits / 2 >= cap)
            return -3;
        if (digits % 2 == 0)
            hi = v;
        else
            out[digits / 2] = (uint8_t)(hi << 4 | v);
        digits++;
    }
    if (digits % 2)
        return -2;
    return (long)(digits / 2);
}

/* see cli.h */
long cli_read_full(int fd, void *buf, size_t cap)
{
    uint8_t *b = buf;
    size_t got = 0;
    while (got < cap) {
        ssize_t r = read(fd, b + got, cap - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (long)got;
}

void cli_no_core_dumps(void)
{
    struct rlimit none = {0, 0};
    (void)setrlimit(RLIMIT_CORE, &none);
#ifdef PR_SET_DUMPABLE
    (void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#endif
}
