/* rt_run.c -- tests of the DPU runtime library (emu/rt, emu/dpu-include) on
 * the virtual DPU. usage: rt_run DIR  (DIR holds the dpu_*.elf built by
 * emu/rt.mk) [NAME-PREFIX...]. Runs on the harness of tests/test.h: each test
 * is a group of one verdict it reports itself, so a test that returns without
 * reporting shows up as a failure instead of vanishing. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dpulog.h"
#include "test.h"
#include "vdpu.h"

static const char *dir;

typedef struct {
    vdpu_program_t *prog;
    vdpu_t *dpu;
    vdpu_result_t res;
} prog_t;

/* The verdict of test `name` (each test reports exactly one). */
#define fail test_failf

static int open_prog(const char *name, const char *file, prog_t *p)
{
    char path[512], msg[256];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    memset(p, 0, sizeof *p);
    vdpu_err_t e = vdpu_program_load_file(path, &p->prog, msg, sizeof msg);
    if (e != VDPU_OK) {
        fail(name, "cannot load %s: %s: %s", path, vdpu_strerror(e), msg);
        return -1;
    }
    if (vdpu_create(NULL, &p->dpu) != VDPU_OK || vdpu_load(p->dpu, p->prog) != VDPU_OK) {
        fail(name, "cannot create/load the DPU");
        vdpu_program_free(p->prog);
        return -1;
    }
    return 0;
}

static void close_prog(prog_t *p)
{
    vdpu_free(p->dpu);
    vdpu_program_free(p->prog);
}

/* Run; returns 0 when the run ended as expected (fault code or done). */
static int run(const char *name, prog_t *p, int want_fault)
{
    if (vdpu_run(p->dpu, &p->res) != VDPU_OK) {
        fail(name, "vdpu_run failed");
        return -1;
    }
    if (want_fault == 0 && p->res.status != VDPU_STATUS_DONE) {
        fail(name, "unexpected fault %s in %s: %s", vdpu_fault_name(p->res.fault_code),
             p->res.fault_func, p->res.fault_msg);
        return -1;
    }
    if (want_fault != 0 &&
        (p->res.status != VDPU_STATUS_FAULT || p->res.fault_code != want_fault)) {
        fail(name, "expected fault %s, got %s", vdpu_fault_name(want_fault),
             p->res.status == VDPU_STATUS_DONE ? "normal end" : vdpu_fault_name(p->res.fault_code));
        return -1;
    }
    return 0;
}

static void sym_rw(prog_t *p, const char *sym, uint32_t off, void *buf, size_t n, int write)
{
    vdpu_symbol_t s;
    if (vdpu_program_symbol(p->prog, sym, &s) != VDPU_OK) {
        fprintf(stderr, "rt_run: no symbol %s\n", sym);
        exit(2);
    }
    vdpu_err_t e;
    if (s.mem == VDPU_MEM_MRAM)
        e = write ? vdpu_mram_write(p->dpu, s.offset + off, buf, n)
                  : vdpu_mram_read(p->dpu, s.offset + off, buf, n);
    else
        e = write ? vdpu_wram_write(p->dpu, s.offset + off, buf, n)
                  : vdpu_wram_read(p->dpu, s.offset + off, buf, n);
    if (e != VDPU_OK) {
        fprintf(stderr, "rt_run: cannot access symbol %s\n", sym);
        exit(2);
    }
}

static uint32_t rd_u32(prog_t *p, const char *sym, uint32_t index)
{
    uint32_t v;
    sym_rw(p, sym, 4 * index, &v, 4, 0);
    return v;
}

static void wr_u32(prog_t *p, const char *sym, uint32_t v)
{
    sym_rw(p, sym, 0, &v, 4, 1);
}

/* The log of the DPU as a malloc'd string (NULL on error, *err set). */
static char *read_log(prog_t *p, dpulog_err_t *err)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f == NULL)
        return NULL;
    *err = vdpu_log_read(p->dpu, f);
    fclose(f);
    return text;
}

/* ------------------------------------------------------------------ tests */

static void test_sync(void)
{
    const char *n = "rt_sync";
    prog_t p;
    if (open_prog(n, "dpu_sync.elf", &p))
        return;
    for (int r = 0; r < 2; r++) { /* twice: locks and barriers re-arm at boot */
        if (run(n, &p, 0))
            goto out;
        uint32_t be = rd_u32(&p, "barrier_errors", 0), c = rd_u32(&p, "counter", 0);
        uint32_t tr = rd_u32(&p, "trylock_result", 0), he = rd_u32(&p, "hist_errors", 0);
        if (be != 0 || he != 0) {
            fail(n, "barrier let a tasklet run ahead (%u, %u errors)", be, he);
            goto out;
        }
        if (c != 16 * 300) {
            fail(n, "mutex-protected counter = %u, expected %u", c, 16 * 300);
            goto out;
        }
        if (tr != 3) {
            fail(n, "trylock result %u, expected 3 (busy while held, taken when free)", tr);
            goto out;
        }
        for (uint32_t k = 0; k < 4; k++) {
            uint32_t pc = rd_u32(&p, "pool_counter", k), vc = rd_u32(&p, "vm_counter", k);
            if (pc != 1200 || vc != 1200) {
                fail(n, "pool/vmutex counter %u = %u/%u, expected 1200", k, pc, vc);
                goto out;
            }
        }
    }
    test_pass(n);
out:
    close_prog(&p);
}

static void test_sem_handshake(void)
{
    const char *n = "rt_sem_handshake";
    prog_t p;
    if (open_prog(n, "dpu_sem.elf", &p))
        return;
    if (run(n, &p, 0))
        goto out;
    uint64_t sum;
    sym_rw(&p, "consumed_sum", 0, &sum, 8, 0);
    uint64_t want = 0;
    for (uint64_t t = 0; t < 8; t++)
        for (uint64_t i = 0; i < 50; i++)
            want += t * 1000 + i;
    uint32_t cnt = rd_u32(&p, "consumed_count", 0), mf = rd_u32(&p, "max_fill", 0);
    if (sum != want || cnt != 400) {
        fail(n, "consumed %u items summing %llu, expected 400 and %llu", cnt,
             (unsigned long long)sum, (unsigned long long)want);
        goto out;
    }
    if (mf == 0 || mf > 4) {
        fail(n, "queue fill reached %u, the semaphore bound is 4", mf);
        goto out;
    }
    if (rd_u32(&p, "hs_ret", 0) != 0) {
        fail(n, "handshake_wait_for returned %d", (int)rd_u32(&p, "hs_ret", 0));
        goto out;
    }
    for (uint32_t t = 0; t < 16; t++)
        if (rd_u32(&p, "prefix", t) != (t + 1) * (t + 2) / 2) {
            fail(n, "handshake prefix[%u] = %u, expected %u", t, rd_u32(&p, "prefix", t),
                 (t + 1) * (t + 2) / 2);
            goto out;
        }
    test_pass(n);
out:
    close_prog(&p);
}

static void test_alloc(void)
{
    const char *n = "rt_alloc";
    prog_t p;
    if (open_prog(n, "dpu_alloc.elf", &p))
        return;
    wr_u32(&p, "mode", 0);
    if (run(n, &p, 0))
        goto out;
    vdpu_symbol_t hs;
    uint32_t start = rd_u32(&p, "heap_start", 0), top0 = rd_u32(&p, "top_after", 0);
    if (vdpu_program_symbol(p.prog, "__sys_heap_start", &hs) != VDPU_OK || start != hs.addr) {
        fail(n, "mem_reset returned 0x%x, not __sys_heap_start", start);
        goto out;
    }
    static const uint32_t sizes[3] = {1, 13, 3};
    for (uint32_t t = 0; t < 4; t++)
        for (uint32_t k = 0; k < 3; k++) {
            uint32_t a = rd_u32(&p, "ptrs", t * 3 + k);
            uint32_t sz = k == 0 ? 1 + t : k == 1 ? 13 : 8 * t + 3;
            (void)sizes;
            if (a % 8 != 0 || a < start || a + sz > top0) {
                fail(n, "allocation %u of tasklet %u at 0x%x (8-aligned inside the heap expected)",
                     k, t, a);
                goto out;
            }
            if (k == 1)
                for (uint32_t i = 0; i < 13; i++) {
                    uint8_t b;
                    vdpu_wram_read(p.dpu, a + i, &b, 1);
                    if (b != t + 1) {
                        fail(n, "allocations overlap (tasklet %u block corrupted)", t);
                        goto out;
                    }
                }
        }
    if (rd_u32(&p, "fsb_ok", 0) != 1) {
        fail(n, "fixed-size-block allocator misbehaved");
        goto out;
    }
    wr_u32(&p, "mode", 1); /* no mem_reset: the heap pointer persists */
    if (run(n, &p, 0))
        goto out;
    if (rd_u32(&p, "ptrs", 0) < top0) {
        fail(n, "heap pointer did not persist across launches (0x%x < 0x%x)", rd_u32(&p, "ptrs", 0),
             top0);
        goto out;
    }
    wr_u32(&p, "mode", 2);
    if (run(n, &p, VDPU_FAULT_HEAP_FULL))
        goto out;
    test_pass(n);
out:
    close_prog(&p);
}

/* Styles of public programs (dpu_styles.c): function-pointer tables, an MRAM
 * buffer at the end of the 64 MiB, profiling.h, errno per tasklet,
 * fsb_allocator_t after <alloc.h>. */
static void test_styles(void)
{
    const char *n = "rt_styles";
    prog_t p;
    if (open_prog(n, "dpu_styles.elf", &p))
        return;
    vdpu_symbol_t tail;
    uint64_t got, want = 0x0123456789abcdefull, mram_last;
    if (run(n, &p, 0))
        goto out;
    for (uint32_t t = 0; t < 8; t++) {
        uint32_t a = 100 + t, b = 7;
        uint32_t f = (t & 3) == 0 ? a + b : (t & 3) == 1 ? a - b : (t & 3) == 2 ? a * b : a ^ b;
        if (rd_u32(&p, "fn_out", t) != f) {
            fail(n, "tasklet %u: function table gave %u, expected %u", t, rd_u32(&p, "fn_out", t),
                 f);
            goto out;
        }
        if (rd_u32(&p, "errno_out", t) != 1000 + t) {
            fail(n, "tasklet %u: errno %u after a barrier, expected its own %u", t,
                 rd_u32(&p, "errno_out", t), 1000 + t);
            goto out;
        }
        /* the longer loop of a later tasklet takes more cycles */
        if (rd_u32(&p, "prof_count", t) == 0 ||
            (t > 0 && rd_u32(&p, "prof_count", t) <= rd_u32(&p, "prof_count", t - 1))) {
            fail(n, "profiling counts not increasing: tasklet %u %u, tasklet %u %u", t,
                 rd_u32(&p, "prof_count", t), t ? t - 1 : 0,
                 rd_u32(&p, "prof_count", t ? t - 1 : 0));
            goto out;
        }
    }
    sym_rw(&p, "tail_read", 0, &got, 8, 0);
    if (vdpu_program_symbol(p.prog, "tail", &tail) != VDPU_OK ||
        tail.offset + tail.size != (64u << 20) - 8 || got != want ||
        vdpu_mram_read(p.dpu, (64u << 20) - 16, &mram_last, 8) != VDPU_OK || mram_last != want) {
        fail(n, "MRAM near 64 MiB: tail at 0x%x+%u, read back 0x%llx", tail.offset, tail.size,
             (unsigned long long)got);
        goto out;
    }
    if (rd_u32(&p, "fsb_sum", 0) != 42) {
        fail(n, "fsb allocator via <alloc.h>: %u", rd_u32(&p, "fsb_sum", 0));
        goto out;
    }
    test_pass(n);
out:
    close_prog(&p);
}

static void test_printf(void)
{
    const char *n = "rt_printf";
    prog_t p;
    if (open_prog(n, "dpu_printf.elf", &p))
        return;
    /* expected text of tasklet 0, formatted by the host */
    char want[8192];
    size_t wl = 0;
#define X(...) wl += (size_t)snprintf(want + wl, sizeof want - wl, __VA_ARGS__);
#include "printf_cases.h"
    PRINTF_CASES(X)
#undef X
    wl += (size_t)snprintf(want + wl, sizeof want - wl,
                           "copy=before\nstackfmt 5\nputs line\nP\nfunc 1 -2 three 4\n");
    for (int boot = 0; boot < 2; boot++) { /* twice: the log restarts at each boot */
        if (run(n, &p, 0))
            goto out;
        dpulog_err_t e = DPULOG_OK;
        char *log = read_log(&p, &e);
        if (log == NULL || e != DPULOG_OK) {
            fail(n, "vdpu_log_read: %s", vdpu_log_strerror(e));
            free(log);
            goto out;
        }
        if (strncmp(log, want, wl) != 0) {
            size_t i = 0;
            while (log[i] && log[i] == want[i])
                i++;
            fail(n,
                 "boot %d: text differs from the host's printf at byte %zu: got \"%.40s\" "
                 "want \"%.40s\"",
                 boot, i, log + i, want + i);
            free(log);
            goto out;
        }
        /* concurrent lines: each exactly once and intact */
        const char *rest = log + wl;
        int lines = 0;
        for (unsigned t = 0; t < 4; t++)
            for (int l = 0; l < 10; l++) {
                char line[64];
                snprintf(line, sizeof line, "tasklet %u line %d\n", t, l);
                const char *hit = strstr(rest, line);
                if (hit == NULL || strstr(hit + 1, line) != NULL) {
                    fail(n, "line \"tasklet %u line %d\" missing or repeated", t, l);
                    free(log);
                    goto out;
                }
                lines++;
            }
        if (strlen(rest) != 40 * strlen("tasklet 0 line 0\n")) {
            fail(n, "boot %d: %zu bytes of concurrent output, expected %zu", boot, strlen(rest),
                 40 * strlen("tasklet 0 line 0\n"));
            free(log);
            goto out;
        }
        free(log);
    }
    test_pass(n);
out:
    close_prog(&p);
}

static void test_printf_limits(void)
{
    const char *n = "rt_printf_limits";
    prog_t p;
    if (open_prog(n, "dpu_printf_small.elf", &p))
        return;
    dpulog_err_t e = DPULOG_OK;
    char *log;
    wr_u32(&p, "mode", 0);
    if (run(n, &p, 0))
        goto out;
    log = read_log(&p, &e);
    if (e != DPULOG_OK || log == NULL || strcmp(log, "a1\nb2\n") != 0) {
        fail(n, "small buffer: got \"%s\" (%s)", log ? log : "", vdpu_log_strerror(e));
        free(log);
        goto out;
    }
    free(log);
    wr_u32(&p, "mode", 1);
    if (run(n, &p, 0))
        goto out;
    log = read_log(&p, &e);
    free(log);
    if (e != DPULOG_ERR_WRAPPED) {
        fail(n, "a wrapped ring must report DPULOG_ERR_WRAPPED, got %s", vdpu_log_strerror(e));
        goto out;
    }
    wr_u32(&p, "mode", 2);
    if (run(n, &p, VDPU_FAULT_PRINTF_OVERFLOW))
        goto out;
    close_prog(&p);

    /* a program without printf has no log context */
    if (open_prog(n, "dpu_alloc.elf", &p))
        return;
    if (run(n, &p, 0))
        goto out;
    log = read_log(&p, &e);
    free(log);
    if (e != DPULOG_ERR_NO_CONTEXT) {
        fail(n, "program without printf: expected DPULOG_ERR_NO_CONTEXT, got %s",
             vdpu_log_strerror(e));
        goto out;
    }
    test_pass(n);
out:
    close_prog(&p);
}

static void test_seqread(void)
{
    const char *n = "rt_seqread";
    prog_t p;
    if (open_prog(n, "dpu_seqread.elf", &p))
        return;
    enum { N = 6000 };
    static uint8_t data[N + 64];
    for (uint32_t i = 0; i < N + 64; i++)
        data[i] = (uint8_t)(i * 131 + (i >> 8));
    sym_rw(&p, "data", 0, data, sizeof data, 1);
    if (run(n, &p, 0))
        goto out;
    static const uint32_t start[4] = {0, 3, 17, 255}, step[4] = {4, 1, 12, 200};
    for (uint32_t t = 0; t < 4; t++) {
        uint32_t s = 0, c = 0, ss = 0;
        for (uint32_t off = start[t]; off + 4 <= N; off += step[t], c++)
            s += (uint32_t)data[off] | (uint32_t)data[off + 1] << 8 |
                 (uint32_t)data[off + 2] << 16 | (uint32_t)data[off + 3] << 24;
        for (uint32_t off = N - 8; off >= 8 && off < N; off -= 997)
            ss += data[off];
        if (rd_u32(&p, "sum", t) != s || rd_u32(&p, "count", t) != c) {
            fail(n, "tasklet %u read sum %u over %u items, expected %u over %u", t,
                 rd_u32(&p, "sum", t), rd_u32(&p, "count", t), s, c);
            goto out;
        }
        if (rd_u32(&p, "tell_ok", t) != 1 || rd_u32(&p, "seek_sum", t) != ss) {
            fail(n, "tasklet %u: seqread_tell/seqread_seek disagree with the data", t);
            goto out;
        }
    }
    test_pass(n);
out:
    close_prog(&p);
}

static void test_unaligned(void)
{
    const char *n = "rt_mram_unaligned";
    prog_t p;
    if (open_prog(n, "dpu_unaligned.elf", &p))
        return;
    static uint8_t src[4096], dst[4096];
    for (uint32_t i = 0; i < 4096; i++)
        src[i] = (uint8_t)(i * 7 + 3);
    memset(dst, 0xEE, sizeof dst);
    sym_rw(&p, "src", 0, src, sizeof src, 1);
    sym_rw(&p, "dst", 0, dst, sizeof dst, 1);
    wr_u32(&p, "mode", 0);
    if (run(n, &p, 0))
        goto out;
    if (rd_u32(&p, "read_ok", 0) != 1) {
        fail(n, "mram_read_unaligned returned wrong bytes");
        goto out;
    }
    uint8_t want[4096];
    memset(want, 0xEE, sizeof want);
    for (uint32_t i = 0; i < 30; i++)
        want[5 + i] = (uint8_t)(0xA0 + i);
    for (uint32_t i = 0; i < 1100; i++)
        want[2001 + i] = (uint8_t)(i ^ 0x5A);
    sym_rw(&p, "dst", 0, dst, sizeof dst, 0);
    for (uint32_t i = 0; i < 4096; i++)
        if (dst[i] != want[i]) {
            fail(n, "mram_write_unaligned: dst[%u] = 0x%02x, expected 0x%02x", i, dst[i], want[i]);
            goto out;
        }
    for (uint32_t k = 0; k < 4; k++) {
        uint32_t v;
        sym_rw(&p, "ints", 4 * k, &v, 4, 0);
        if (v != 4 * 50 * (k + 1)) {
            fail(n, "mram_update_int_atomic: ints[%u] = %u, expected %u (lost updates)", k, v,
                 4 * 50 * (k + 1));
            goto out;
        }
    }
    uint8_t bytes[16];
    sym_rw(&p, "bytes", 0, bytes, 16, 0);
    for (uint32_t t = 0; t < 16; t++)
        if (bytes[t] != 0x40 + t) {
            fail(n, "mram_write_byte_atomic: bytes[%u] = 0x%02x (lost update)", t, bytes[t]);
            goto out;
        }
    wr_u32(&p, "mode", 1);
    if (run(n, &p, VDPU_FAULT_UNALIGNED_MRAM))
        goto out;
    test_pass(n);
out:
    close_prog(&p);
}

static void test_buddy(void)
{
    const char *n = "rt_buddy_alloc";
    prog_t p;
    if (open_prog(n, "dpu_buddy.elf", &p))
        return;
    for (int r = 0; r < 2; r++) {
        if (run(n, &p, 0))
            goto out;
        if (rd_u32(&p, "errors", 0) != 0 || rd_u32(&p, "whole_ok", 0) != 1) {
            fail(n, "run %d: %u corrupted/failed allocations, heap coalesced: %u", r,
                 rd_u32(&p, "errors", 0), rd_u32(&p, "whole_ok", 0));
            goto out;
        }
    }
    test_pass(n);
out:
    close_prog(&p);
}

/* ------------------------------------------------------- what sync costs */
/* dpu_synccost_t<N>.elf (N tasklets): one run per mode with `rounds`
 * iterations; the modeled cost of the synchronisation is the run's cycles and
 * instructions minus those of mode 0 (the same loop, empty), per round. */
typedef struct {
    double cycles, insns; /* per round (barrier, handshake) or per operation (mutex) */
} cost_t;

static const unsigned cost_tasklets[4] = {1, 4, 8, 16};

static int sync_cost(const char *name, unsigned nr, uint32_t mode, uint32_t rounds, cost_t *c)
{
    char file[64];
    prog_t p;
    snprintf(file, sizeof file, "dpu_synccost_t%u.elf", nr);
    if (open_prog(name, file, &p))
        return -1;
    uint64_t cyc[2], ins[2];
    for (int k = 0; k < 2; k++) {
        /* the reference: the empty loop, or the same delays (staggered barrier) */
        wr_u32(&p, "mode", k ? mode : mode == 4 ? 5 : 0);
        wr_u32(&p, "rounds", rounds);
        wr_u32(&p, "counter", 0);
        wr_u32(&p, "chain_errors", 0);
        if (run(name, &p, 0)) {
            close_prog(&p);
            return -1;
        }
        cyc[k] = p.res.cycles;
        ins[k] = p.res.instructions;
    }
    int bad = 0;
    if (mode == 2 && rd_u32(&p, "counter", 0) != nr * rounds) {
        fail(name, "%u tasklets: mutex-protected counter %u, expected %u", nr,
             rd_u32(&p, "counter", 0), nr * rounds);
        bad = 1;
    }
    if (mode == 3 && rd_u32(&p, "chain_errors", 0) != 0) {
        fail(name, "%u tasklets: %u values passed out of order along the handshake chain", nr,
             rd_u32(&p, "chain_errors", 0));
        bad = 1;
    }
    close_prog(&p);
    /* a mutex round is one lock/unlock per tasklet: cost per operation */
    double per = mode == 2 ? (double)rounds * nr : (double)rounds;
    c->cycles = ((double)cyc[1] - (double)cyc[0]) / per;
    c->insns = ((double)ins[1] - (double)ins[0]) / per;
    return bad ? -1 : 0;
}

/* A barrier executes the SDK's sequence: when the tasklets arrive one at a
 * time (staggered), its instructions are exactly a fixed part plus, per
 * other tasklet, one waiter's arrival and one turn of the last one's resume
 * loop -- linear in the tasklets, nobody spins. When they all arrive at once,
 * the arrivals queue on the barrier's atomic bit and spin, so its cycles and
 * instructions grow faster than the tasklets. */
static void test_cost_barrier(void)
{
    const char *n = "rt_cost_barrier";
    cost_t c[4], s[4];
    for (int i = 0; i < 4; i++)
        if (sync_cost(n, cost_tasklets[i], 1, 200, &c[i]) ||
            sync_cost(n, cost_tasklets[i], 4, 50, &s[i]))
            return;
    /* staggered, N = 4, 8, 16: one more tasklet adds one waiter's arrival and
     * one resume, the same instructions each time (the first waiter, which
     * finds the queue empty, is part of the fixed part) */
    double b1 = (s[2].insns - s[1].insns) / 4.0, b2 = (s[3].insns - s[2].insns) / 8.0;
    if (b1 < 10.0 || b1 > 60.0 || b1 != b2) {
        fail(n,
             "staggered: instructions per barrier %.2f / %.2f / %.2f for 4 / 8 / 16 tasklets: "
             "per added tasklet %.3f then %.3f (expected one constant in 10..60)",
             s[1].insns, s[2].insns, s[3].insns, b1, b2);
        return;
    }
    if (!(c[0].cycles < c[1].cycles && c[1].cycles < c[2].cycles && c[2].cycles < c[3].cycles)) {
        fail(n,
             "modeled cycles per barrier %.1f / %.1f / %.1f / %.1f for 1 / 4 / 8 / 16 tasklets: "
             "not growing",
             c[0].cycles, c[1].cycles, c[2].cycles, c[3].cycles);
        return;
    }
    if (!(c[1].insns > s[1].insns && c[3].insns > s[3].insns)) {
        fail(n,
             "simultaneous arrivals did not spin: %.1f / %.1f instructions for 4 / 16 tasklets "
             "(staggered: %.1f / %.1f)",
             c[1].insns, c[3].insns, s[1].insns, s[3].insns);
        return;
    }
    test_pass(n);
}

/* A contended mutex spins: every retry of the acquire is an issued
 * instruction, so instructions and cycles per lock/unlock grow with the
 * contenders (one tasklet never spins). */
static void test_cost_mutex(void)
{
    const char *n = "rt_cost_mutex";
    cost_t c[4];
    for (int i = 0; i < 4; i++)
        if (sync_cost(n, cost_tasklets[i], 2, 100, &c[i]))
            return;
    if (!(c[0].insns < c[1].insns && c[1].insns < c[2].insns && c[2].insns < c[3].insns)) {
        fail(n,
             "instructions per lock/unlock %.1f / %.1f / %.1f / %.1f for 1 / 4 / 8 / 16 "
             "tasklets: the contended acquire does not spin",
             c[0].insns, c[1].insns, c[2].insns, c[3].insns);
        return;
    }
    /* past 11 tasklets the pipeline is full: the spinners' issue slots slow
     * the holder down, and a lock/unlock pair takes longer */
    if (!(c[2].cycles < c[3].cycles)) {
        fail(n,
             "modeled cycles per lock/unlock %.1f / %.1f / %.1f / %.1f for 1 / 4 / 8 / 16 "
             "tasklets",
             c[0].cycles, c[1].cycles, c[2].cycles, c[3].cycles);
        return;
    }
    test_pass(n);
}

/* A handshake chain passes values in order and costs per round (the value
 * travels through all tasklets) more with more tasklets. */
static void test_cost_handshake(void)
{
    const char *n = "rt_cost_handshake";
    cost_t c[3];
    for (int i = 0; i < 3; i++)
        if (sync_cost(n, cost_tasklets[i + 1], 3, 50, &c[i]))
            return;
    if (!(c[0].cycles > 0 && c[0].cycles < c[1].cycles && c[1].cycles < c[2].cycles)) {
        fail(n, "modeled cycles per round of the chain %.1f / %.1f / %.1f for 4 / 8 / 16 tasklets",
             c[0].cycles, c[1].cycles, c[2].cycles);
        return;
    }
    test_pass(n);
}

/* --costs: the table of docs/VIRTUAL_DPU.md */
static int print_costs(void)
{
    static const struct {
        uint32_t mode, rounds;
        const char *what;
    } rows[4] = {{1, 200, "barrier_wait, all arrive at once (per barrier)"},
                 {4, 50, "barrier_wait, arrivals staggered (per barrier)"},
                 {2, 100, "mutex_lock+unlock, all tasklets contending (per pair)"},
                 {3, 50, "handshake chain through all tasklets (per round)"}};
    printf("# modeled (timed virtual DPU, 350 MHz): cost = run minus the same run with an empty "
           "loop\n");
    printf("%-56s %8s %12s %12s\n", "operation", "tasklets", "cycles", "instructions");
    for (int r = 0; r < 4; r++)
        for (int i = 0; i < 4; i++) {
            cost_t c;
            if (rows[r].mode == 3 && cost_tasklets[i] == 1)
                continue;
            if (sync_cost("costs", cost_tasklets[i], rows[r].mode, rows[r].rounds, &c))
                return 1;
            printf("%-56s %8u %12.1f %12.1f\n", rows[r].what, cost_tasklets[i], c.cycles, c.insns);
        }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: rt_run DIR [NAME-PREFIX...] | DIR --costs (DIR: the dpu_*.elf "
                        "test programs)\n");
        return 2;
    }
    dir = argv[1];
    if (argc == 3 && strcmp(argv[2], "--costs") == 0)
        return print_costs();
    /* the names the tests report (their `n`), so name filters select them */
    test_register_group("rt_sync", test_sync, 1);
    test_register_group("rt_sem_handshake", test_sem_handshake, 1);
    test_register_group("rt_alloc", test_alloc, 1);
    test_register_group("rt_printf", test_printf, 1);
    test_register_group("rt_printf_limits", test_printf_limits, 1);
    test_register_group("rt_seqread", test_seqread, 1);
    test_register_group("rt_mram_unaligned", test_unaligned, 1);
    test_register_group("rt_buddy_alloc", test_buddy, 1);
    test_register_group("rt_styles", test_styles, 1);
    test_register_group("rt_cost_barrier", test_cost_barrier, 1);
    test_register_group("rt_cost_mutex", test_cost_mutex, 1);
    test_register_group("rt_cost_handshake", test_cost_handshake, 1);
    argv[1] = argv[0];
    return test_main(argc - 1, argv + 1);
}
