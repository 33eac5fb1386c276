/* gnuplot.c -- see gnuplot.h. */
#include "gnuplot.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int gp_available(void)
{
    return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

int gp_begin(gp_pipe *p, const char *dir, const char *name, int w, int h, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    if (strchr(dir, '\'') || strchr(name, '\'')) {
        snprintf(err, errlen, "cannot plot into a name with a quote: %s/%s", dir, name);
        return -1;
    }
    if (!gp_available()) {
        snprintf(err, errlen, "gnuplot is not installed: no %s/%s.png", dir, name);
        return -1;
    }
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &p->old_pipe);
    fflush(NULL); /* the child must not inherit unwritten output */
    p->g = popen("gnuplot", "w");
    if (!p->g) {
        sigaction(SIGPIPE, &p->old_pipe, NULL);
        snprintf(err, errlen, "cannot run gnuplot: %s", strerror(errno));
        return -1;
    }
    fprintf(p->g,
            "set terminal pngcairo size %d,%d noenhanced font 'sans,10'\n"
            "set output '%s/%s.png'\n"
            "set grid\nset format x '%%g'\nset format y '%%g'\n"
            "set key opaque box lc rgb '#c0c0c0' reverse Left samplen 3 spacing 1.1 "
            "font ',9'\n",
            w, h, dir, name);
    return 0;
}

int gp_end(gp_pipe *p, const char *dir, const char *name, char *err, size_t errlen)
{
    int rc = pclose(p->g);
    sigaction(SIGPIPE, &p->old_pipe, NULL);
    p->g = NULL;
    if (rc != 0) {
        snprintf(err, errlen, "gnuplot failed drawing %s/%s.png", dir, name);
        return -1;
    }
    return 0;
}

void gp_string(FILE *g, const char *s)
{
    fputc('"', g);
    for (; *s; s++) {
        if (*s == '\n')
            fputs("\\n", g);
        else
            fputc(*s == '"' || *s == '\\' ? '\'' : *s, g);
    }
    fputc('"', g);
}
