/*
 * dpu_profile.c -- dpu-profile: run an unchanged host program on the
 * virtual UPMEM with the profile key profile=FILE and print where each DPU
 * program's modeled cycles went, per tasklet, function and source line
 * (docs/PROFILING.md). Source lines come from the DPU program's DWARF
 * (compile it with -g) through llvm-symbolizer; without either, the report
 * names functions only.
 *
 *   dpu-profile [options] [--] PROGRAM [ARGS...]
 *   dpu-profile [options] --report FILE
 *
 * The profile file is the text format vdpu_prof_write writes (emu/vdpu/vprof.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char usage[] =
    "usage: dpu-profile [options] [--] PROGRAM [ARGS...]\n"
    "       dpu-profile [options] --report FILE\n"
    "Runs PROGRAM (a host program of the virtual UPMEM) with UPMEM_PROFILE's key\n"
    "profile=FILE and prints where the DPU programs' modeled cycles went.\n"
    "  -o FILE          keep the profile in FILE (default: a temporary file)\n"
    "  --report FILE    print the report of an existing profile, run nothing\n"
    "  --top N          functions and lines shown (default 15)\n"
    "  --folded FILE    write folded stacks (flamegraph.pl, speedscope)\n"
    "  --no-lines       functions only (no llvm-symbolizer)\n"
    "  --debug-file ELF source lines of the program of the same file name from ELF,\n"
    "                   a build of it with -g (same source and flags: same .text)\n";

typedef struct {
    uint32_t pc;
    char func[128];
    unsigned long long count, slots, dma, rd, wr, dwait, swait;
    double cycles;
    char line[256]; /* file:line, "" if unknown */
} insn_t;

typedef struct {
    unsigned long long v[11];
} tl_t; /* boot issue spin dma sync revolver done slots peak size low */

typedef struct {
    char name[4096];
    char mode[16];
    double mhz;
    unsigned tasklets, insns;
    unsigned long long runs, faults, csum, cmax, instr, slots, dmas, dbytes;
    tl_t t[24];
    insn_t *in;
    size_t nin;
    char **stacks;
    size_t nstacks;
    unsigned long long (*launch)[4]; /* dpus, cycles_max, cycles_sum, faults */
    size_t nlaunch;
} prog_t;

static void die(const char *msg)
{
    fprintf(stderr, "dpu-profile: %s\n", msg);
    exit(2);
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (!p)
        die("out of memory");
    return p;
}

/* Reads every program of the profile file; returns how many (0: none). */
static size_t read_profile(const char *file, prog_t **out)
{
    FILE *f = fopen(file, "r");
    if (!f) {
        fprintf(stderr, "dpu-profile: %s: %s\n", file, strerror(errno));
        exit(2);
    }
    prog_t *v = NULL;
    size_t n = 0;
    char *line = NULL;
    size_t cap = 0;
    prog_t *p = NULL;
    while (getline(&line, &cap, f) > 0) {
        line[strcspn(line, "\n")] = 0;
        if (!strcmp(line, "vdpu-profile 1")) {
            v = xrealloc(v, (n + 1) * sizeof *v);
            p = &v[n++];
            memset(p, 0, sizeof *p);
            continue;
        }
        if (!p)
            die("not a virtual-DPU profile (no \"vdpu-profile 1\" line)");
        unsigned k;
        tl_t t;
        insn_t x;
        memset(&x, 0, sizeof x);
        if (!strncmp(line, "program ", 8)) {
            snprintf(p->name, sizeof p->name, "%s", line + 8);
        } else if (sscanf(line, "mode %15s clock_mhz %lf tasklets %u insns %u", p->mode, &p->mhz,
                          &p->tasklets, &p->insns) == 4) {
        } else if (sscanf(line,
                          "runs %llu faults %llu cycles_sum %llu cycles_max %llu instructions "
                          "%llu slots %llu dma_count %llu dma_bytes %llu",
                          &p->runs, &p->faults, &p->csum, &p->cmax, &p->instr, &p->slots, &p->dmas,
                          &p->dbytes) == 8) {
        } else if (sscanf(line,
                          "tasklet %u boot %llu issue %llu spin %llu dma %llu sync %llu revolver "
                          "%llu done %llu slots %llu stack_peak %llu stack_size %llu low_sp %llx",
                          &k, &t.v[0], &t.v[1], &t.v[2], &t.v[3], &t.v[4], &t.v[5], &t.v[6],
                          &t.v[7], &t.v[8], &t.v[9], &t.v[10]) == 12) {
            if (k < 24)
                p->t[k] = t;
        } else if (sscanf(line, "insn %x %127s %llu %llu %lf %llu %llu %llu %llu %llu", &x.pc,
                          x.func, &x.count, &x.slots, &x.cycles, &x.dma, &x.rd, &x.wr, &x.dwait,
                          &x.swait) == 10) {
            p->in = xrealloc(p->in, (p->nin + 1) * sizeof *p->in);
            p->in[p->nin++] = x;
        } else if (!strncmp(line, "launch ", 7)) {
            unsigned long long l[5];
            if (sscanf(line, "launch %llu dpus %llu cycles_max %llu cycles_sum %llu faults %llu",
                       &l[0], &l[1], &l[2], &l[3], &l[4]) != 5) {
                fprintf(stderr, "dpu-profile: %s: bad launch line: %.80s\n", file, line);
                exit(2);
            }
            p->launch = xrealloc(p->launch, (p->nlaunch + 1) * sizeof *p->launch);
            memcpy(p->launch[p->nlaunch++], l + 1, sizeof *p->launch);
        } else if (!strncmp(line, "stack ", 6)) {
            p->stacks = xrealloc(p->stacks, (p->nstacks + 1) * sizeof *p->stacks);
            p->stacks[p->nstacks] = strdup(line + 6);
            if (!p->stacks[p->nstacks++])
                die("out of memory");
        } else if (strcmp(line, "end") != 0) {
            fprintf(stderr, "dpu-profile: %s: unexpected line: %.80s\n", file, line);
            exit(2);
        }
    }
    free(line);
    fclose(f);
    *out = v;
    return n;
}

/* file:line of every instruction of p, through llvm-symbolizer (0 when it
 * could not run: the report then has no lines) */
static const char *base(const char *path);

/* the -g builds given (--debug-file) */
static const char *dbg[16];
static unsigned ndbg;

static int symbolize(prog_t *p)
{
    const char *elf = p->name;
    for (unsigned k = 0; k < ndbg; k++)
        if (!strcmp(base(dbg[k]), base(p->name)))
            elf = dbg[k];
    if (!p->nin || access(elf, R_OK) != 0)
        return 0;
    int to[2], from[2];
    if (pipe(to) || pipe(from))
        return 0;
    pid_t pid = fork();
    if (pid < 0)
        return 0;
    if (pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[0]);
        close(to[1]);
        close(from[0]);
        close(from[1]);
        char obj[4200];
        snprintf(obj, sizeof obj, "--obj=%s", elf);
        execlp("llvm-symbolizer-14", "llvm-symbolizer-14", "--no-inlines", obj, (char *)NULL);
        execlp("llvm-symbolizer", "llvm-symbolizer", "--no-inlines", obj, (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    /* all the addresses, then read: the answers fit no pipe buffer, so
     * write from a child of our own */
    pid_t w = fork();
    if (w == 0) {
        FILE *o = fdopen(to[1], "w");
        for (size_t i = 0; o && i < p->nin; i++)
            fprintf(o, "0x%x\n", p->in[i].pc);
        if (o)
            fclose(o);
        _exit(0);
    }
    close(to[1]);
    FILE *in = fdopen(from[0], "r");
    char *line = NULL;
    size_t cap = 0, i = 0;
    int state = 0; /* 0: function, 1: file:line:col, 2: blank */
    while (in && getline(&line, &cap, in) > 0 && i < p->nin) {
        line[strcspn(line, "\n")] = 0;
        if (state == 1) {
            char *c = strrchr(line, ':'); /* drop the column */
            if (c)
                *c = 0;
            if (strncmp(line, "??", 2) != 0)
                snprintf(p->in[i].line, sizeof p->in[i].line, "%s", line);
        }
        if (state == 2) {
            i++;
            state = 0;
        } else {
            state++;
        }
    }
    free(line);
    if (in)
        fclose(in);
    waitpid(w, NULL, 0);
    int st;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

typedef struct {
    const char *key;
    double cycles;
    unsigned long long count, slots, dma, rd, wr;
} row_t;

static int by_cycles(const void *a, const void *b)
{
    const row_t *x = a, *y = b;
    return x->cycles < y->cycles ? 1 : x->cycles > y->cycles ? -1 : strcmp(x->key, y->key);
}

/* rows summed by key (the function, or the line) */
static size_t group(const prog_t *p, int lines, row_t *rows)
{
    size_t n = 0;
    for (size_t i = 0; i < p->nin; i++) {
        const insn_t *x = &p->in[i];
        const char *key = lines ? x->line : x->func;
        if (lines && !*key)
            key = "(no line)";
        size_t j = 0;
        while (j < n && strcmp(rows[j].key, key))
            j++;
        if (j == n) {
            memset(&rows[n], 0, sizeof rows[n]);
            rows[n++].key = key;
        }
        rows[j].cycles += x->cycles;
        rows[j].count += x->count;
        rows[j].slots += x->slots;
        rows[j].dma += x->dma;
        rows[j].rd += x->rd;
        rows[j].wr += x->wr;
    }
    qsort(rows, n, sizeof *rows, by_cycles);
    return n;
}

static const char *base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static void report(prog_t *p, unsigned top, int lines)
{
    int timed = !strcmp(p->mode, "timed");
    printf("== DPU program %s: %u tasklets, %llu run%s (%llu faulted), %s mode\n", p->name,
           p->tasklets, p->runs, p->runs == 1 ? "" : "s", p->faults, p->mode);
    if (timed)
        printf("modeled: longest run %llu cycles = %.3f ms at %.0f MHz; all runs %llu cycles\n",
               p->cmax, (double)p->cmax / (p->mhz * 1e3), p->mhz, p->csum);
    printf("instructions %llu, issue slots %llu, DMAs %llu (%llu bytes)\n", p->instr, p->slots,
           p->dmas, p->dbytes);
    if (p->nlaunch) {
        printf("\nper launch (modeled cycles of its DPUs):\n");
        printf("  launch   DPUs     slowest DPU      mean DPU  faulted\n");
        for (size_t i = 0; i < p->nlaunch; i++) {
            if (i == 10 && p->nlaunch > 12) {
                printf("  ... %zu more\n", p->nlaunch - 11);
                i = p->nlaunch - 1;
            }
            const unsigned long long *l = p->launch[i];
            printf("  %6zu %6llu %15llu %13.0f %8llu\n", i + 1, l[0], l[1],
                   l[0] ? (double)l[2] / (double)l[0] : 0.0, l[3]);
        }
    }
    if (timed && p->csum) {
        printf("\nper tasklet, %% of its modeled cycles (all runs):\n");
        printf("  tasklet   issue  revolver     dma    sync    spin    boot    done   stack "
               "peak/size (bytes)\n");
        for (unsigned k = 0; k < p->tasklets && k < 24; k++) {
            const unsigned long long *v = p->t[k].v;
            double c = (double)p->csum / 100.0;
            printf("  %7u %6.1f%% %8.1f%% %6.1f%% %6.1f%% %6.1f%% %6.1f%% %6.1f%%   %llu/%llu\n", k,
                   v[1] / c, v[5] / c, v[3] / c, v[4] / c, v[2] / c, v[0] / c, v[6] / c, v[8],
                   v[9]);
        }
    }
    row_t *rows = calloc(p->nin + 1, sizeof *rows);
    if (!rows)
        die("out of memory");
    double all = 0;
    for (size_t i = 0; i < p->nin; i++)
        all += p->in[i].cycles;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && !lines)
            break;
        size_t n = group(p, pass, rows);
        printf("\ntop %s by attributed modeled cycles (self):\n",
               pass ? "source lines" : "functions");
        printf("  %%cycles       cycles   instructions    slots     DMAs  MRAM read  MRAM written  "
               "%s\n",
               pass ? "line" : "function");
        for (size_t i = 0; i < n && i < top; i++) {
            const row_t *r = &rows[i];
            char lab[300];
            if (pass && strcmp(r->key, "(no line)")) {
                /* file:line -> basename:line */
                snprintf(lab, sizeof lab, "%s", base(r->key));
            } else {
                snprintf(lab, sizeof lab, "%s", r->key);
            }
            printf("  %6.2f%% %12.0f %14llu %8llu %8llu %10llu %13llu  %s\n",
                   all > 0 ? 100.0 * r->cycles / all : 0.0, r->cycles, r->count, r->slots, r->dma,
                   r->rd, r->wr, lab);
        }
    }
    free(rows);
    printf("\n");
}

static void folded(prog_t *v, size_t n, const char *file)
{
    FILE *f = fopen(file, "w");
    if (!f) {
        fprintf(stderr, "dpu-profile: %s: %s\n", file, strerror(errno));
        exit(2);
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < v[i].nstacks; j++) {
            char *sp = strchr(v[i].stacks[j], ' ');
            if (!sp || !strcmp(v[i].stacks[j], "0"))
                continue;
            *sp = 0;
            if (strtod(v[i].stacks[j], NULL) >= 1)
                fprintf(f, "%s%s%s %s\n", n > 1 ? base(v[i].name) : "", n > 1 ? ";" : "", sp + 1,
                        v[i].stacks[j]);
            *sp = ' ';
        }
    if (fclose(f) != 0)
        die("cannot write the folded stacks");
}

int main(int argc, char **argv)
{
    const char *keep = NULL, *rep = NULL, *fold = NULL;
    unsigned top = 15;
    int lines = 1, i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--")) {
            i++;
            break;
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            keep = argv[++i];
        } else if (!strcmp(argv[i], "--report") && i + 1 < argc) {
            rep = argv[++i];
        } else if (!strcmp(argv[i], "--folded") && i + 1 < argc) {
            fold = argv[++i];
        } else if (!strcmp(argv[i], "--top") && i + 1 < argc) {
            char *e;
            long t = strtol(argv[++i], &e, 10);
            if (*e || t < 1 || t > 100000)
                die("--top wants a number from 1 to 100000");
            top = (unsigned)t;
        } else if (!strcmp(argv[i], "--debug-file") && i + 1 < argc) {
            if (ndbg == sizeof dbg / sizeof dbg[0])
                die("at most 16 --debug-file");
            dbg[ndbg++] = argv[++i];
        } else if (!strcmp(argv[i], "--no-lines")) {
            lines = 0;
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(usage, stdout);
            return 0;
        } else {
            fputs(usage, stderr);
            return 2;
        }
    }
    int status = 0, own = 0;
    char tmp[4096];
    if (!rep) {
        if (i >= argc) {
            fputs(usage, stderr);
            return 2;
        }
        if (!keep) {
            const char *td = getenv("TMPDIR");
            if (!td || !*td || strchr(td, ','))
                td = "/tmp";
            snprintf(tmp, sizeof tmp, "%s/dpu-profile.XXXXXX", td);
            int fd = mkstemp(tmp);
            if (fd < 0)
                die("cannot create a temporary file");
            close(fd);
            keep = tmp;
            own = 1;
        }
        if (strchr(keep, ','))
            die("-o FILE: a profile string cannot carry a ',' in a file name");
        const char *old = getenv("UPMEM_PROFILE");
        size_t n = (old ? strlen(old) : 0) + strlen(keep) + 16;
        char *prof = malloc(n);
        if (!prof)
            die("out of memory");
        snprintf(prof, n, "%s%sprofile=%s", old && *old ? old : "", old && *old ? "," : "", keep);
        setenv("UPMEM_PROFILE", prof, 1);
        free(prof);
        unlink(keep); /* so that a program that profiles nothing is noticed */
        pid_t pid = fork();
        if (pid < 0)
            die("cannot fork");
        if (pid == 0) {
            execvp(argv[i], argv + i);
            fprintf(stderr, "dpu-profile: %s: %s\n", argv[i], strerror(errno));
            _exit(127);
        }
        int st;
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
            ;
        status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
        if (status)
            fprintf(stderr, "dpu-profile: %s exited with status %d\n", argv[i], status);
        if (access(keep, R_OK) != 0) {
            fprintf(stderr,
                    "dpu-profile: no profile: %s launched no DPU program, or the profile could "
                    "not be written (see above)\n",
                    argv[i]);
            return status ? status : 1;
        }
        rep = keep;
    }
    prog_t *v;
    size_t n = read_profile(rep, &v);
    fflush(stdout);
    printf("\n");
    for (size_t k = 0; k < n; k++) {
        int have = lines && symbolize(&v[k]);
        report(&v[k], top, have);
    }
    if (fold)
        folded(v, n, fold);
    if (own)
        unlink(keep);
    for (size_t k = 0; k < n; k++) {
        for (size_t j = 0; j < v[k].nstacks; j++)
            free(v[k].stacks[j]);
        free(v[k].stacks);
        free(v[k].in);
        free(v[k].launch);
    }
    free(v);
    return status;
}
