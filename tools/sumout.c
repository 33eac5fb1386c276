/*
 * sumout.c -- sha256sum output shared by the CLI and cryptopim-mpi
 * (sumout.h).
 */
#include "sumout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkfile.h"
#include "cli.h"

void sum_name_error(const char *name, const char *what)
{
    char *q = sum_quote(name);
    cli_error("%s: %s", q ? q : name, what);
    free(q);
}

static void put_name(const char *s, int escape)
{
    if (!escape) {
        fputs(s, stdout);
        return;
    }
    for (; *s; s++) {
        if (*s == '\\' || *s == '\n' || *s == '\r') {
            putchar('\\');
            putchar(*s == '\\' ? '\\' : *s == '\n' ? 'n' : 'r');
        } else {
            putchar(*s);
        }
    }
}

/* One fwrite of 64 digits (32 printf calls per line were a tenth of the
 * time of hashing many small files). */
static void put_hex(const uint8_t d[32])
{
    static const char digits[] = "0123456789abcdef";
    char b[64];
    for (int i = 0; i < 32; i++) {
        b[2 * i] = digits[d[i] >> 4];
        b[2 * i + 1] = digits[d[i] & 15];
    }
    fwrite(b, 1, sizeof b, stdout);
}

void sum_put_check_result(const char *name, const char *verdict)
{
    int esc = strchr(name, '\n') != NULL;
    if (esc)
        putchar('\\');
    put_name(name, esc);
    printf(": %s\n", verdict);
}

void sum_put_sum(const char *name, const uint8_t d[32], int tag, int binary, int zero)
{
    int esc = !zero && sum_name_needs_escape(name);
    if (esc)
        putchar('\\');
    if (tag) {
        fputs("SHA256 (", stdout);
        put_name(name, esc);
        fputs(") = ", stdout);
        put_hex(d);
    } else {
        put_hex(d);
        putchar(' ');
        putchar(binary > 0 ? '*' : ' ');
        put_name(name, esc);
    }
    putchar(zero ? '\0' : '\n');
}

static void plural_warning(unsigned long long n, const char *one, const char *many)
{
    if (n)
        cli_error("WARNING: %llu %s", n, n == 1 ? one : many);
}

int sum_list_summary(const sum_list_end *l, int status, int ignore_missing, int strict)
{
    if (l->read_error) {
        /* coreutils: `NAME: read error` without the errno text */
        sum_name_error(l->shown, "read error");
        return 1;
    }
    if (!l->proper) {
        sum_name_error(l->shown, "no properly formatted checksum lines found");
        return 1;
    }
    if (!status) {
        plural_warning(l->bad_lines, "line is improperly formatted",
                       "lines are improperly formatted");
        plural_warning(l->unreadable, "listed file could not be read",
                       "listed files could not be read");
        plural_warning(l->mismatched, "computed checksum did NOT match",
                       "computed checksums did NOT match");
        if (ignore_missing && !l->matched)
            sum_name_error(l->shown, "no file was verified");
    }
    return !l->matched || l->mismatched || l->unreadable || (strict && l->bad_lines);
}
