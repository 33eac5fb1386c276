/* see checkfile.h -- the coreutils-compatible line parser and name quoting. */
#include "checkfile.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "cli.h"

/* coreutils' ISWHITE: only blank and tab separate fields, not CR or VT. */
#define IS_WHITE(c) ((c) == ' ' || (c) == '\t')

/* 64 hex digits + a blank + at least one character of name: the shortest
 * line in the standard form (before the escape marker). */
#define MIN_LINE 66

void sum_parser_init(sum_parser *p)
{
    p->bsd_reversed = -1;
}

/* Exactly 64 hex digits (either case) -> d; 1 if so. */
static int parse_hex(const char *s, size_t len, uint8_t d[32])
{
    return len == 64 && cli_unhex(s, len, 0, d, 32) == 32;
}

/* Undoes \\, \n and \r in the first len bytes of s, in place, and ends the
 * result with a NUL when it got shorter.  0, or -1 for any other escape, a
 * lone trailing backslash or a NUL byte (a name cannot hold one). */
static int unescape(char *s, size_t len)
{
    char *w = s;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\0')
            return -1;
        if (s[i] != '\\') {
            *w++ = s[i];
            continue;
        }
        if (++i == len)
            return -1;
        if (s[i] == '\\')
            *w++ = '\\';
        else if (s[i] == 'n')
            *w++ = '\n';
        else if (s[i] == 'r')
            *w++ = '\r';
        else
            return -1;
    }
    if (w < s + len)
        *w = '\0';
    return 0;
}

/* The rest of `SHA256 (NAME) = HASH` after the '(': the name ends at the
 * LAST ')' of the line, so a name may itself hold ") = "; blanks around '='
 * are optional (`SHA256(a)= HASH` is what some BSD tools write). */
static int split_tagged(char *s, size_t len, int escaped, sum_line *out)
{
    if (len == 0)
        return 0;
    size_t i = len - 1;
    while (i && s[i] != ')')
        i--;
    if (s[i] != ')')
        return 0;
    out->name = s;
    if (escaped && unescape(s, i) != 0)
        return 0;
    s[i++] = '\0';
    while (IS_WHITE(s[i]))
        i++;
    if (s[i] != '=')
        return 0;
    i++;
    while (IS_WHITE(s[i]))
        i++;
    return parse_hex(s + i, len - i, out->digest);
}

/* One line without its line end, NUL-terminated at s[len]; the name may be
 * cut short by a NUL inside the line, as coreutils' C strings are. */
static int split_line(sum_parser *p, char *s, size_t len, sum_line *out)
{
    size_t i = 0;
    int escaped = 0;
    out->binary = 0;
    while (IS_WHITE(s[i]))
        i++;
    if (s[i] == '\\') {
        i++;
        escaped = 1;
    }
    if (strncmp(s + i, "SHA256", 6) == 0) {
        i += 6;
        if (s[i] == ' ')
            i++;
        if (s[i] != '(')
            return 0;
        i++;
        return split_tagged(s + i, len - i, escaped, out);
    }
    /* coreutils counts a second backslash here too; kept for identical
     * verdicts on lines such as `\\HASH  x` */
    if (len - i < MIN_LINE + (s[i] == '\\'))
        return 0;
    char *digest = s + i;
    while (s[i] && !IS_WHITE(s[i]))
        i++;
    if (i == len)
        return 0; /* a hash and no name */
    size_t dlen = (size_t)(s + i - digest);
    s[i++] = '\0';
    if (!parse_hex(digest, dlen, out->digest))
        return 0;
    if (len - i == 1 || (s[i] != ' ' && s[i] != '*')) {
        if (p->bsd_reversed == 0)
            return 0;
        p->bsd_reversed = 1;
    } else if (p->bsd_reversed != 1) {
        p->bsd_reversed = 0;
        out->binary = s[i++] == '*';
    }
    /* every byte after the marker is the name, leading and trailing blanks
     * included */
    out->name = s + i;
    if (escaped)
        return unescape(s + i, len - i) == 0;
    return 1;
}

int sum_check_line(sum_parser *p, char *line, size_t len, int from_stdin, sum_line *out)
{
    if (len == 0 || line[0] == '#')
        return SUM_LINE_SKIP;
    if (line[len - 1] == '\n')
        len--;
    if (len && line[len - 1] == '\r')
        len--; /* CRLF check files, as written on Windows */
    if (len == 0)
        return SUM_LINE_SKIP;
    line[len] = '\0';
    if (!split_line(p, line, len, out))
        return SUM_LINE_BAD;
    /* standard input cannot be both the check file and a file to hash */
    if (from_stdin && strcmp(out->name, "-") == 0)
        return SUM_LINE_BAD;
    return SUM_LINE_OK;
}

int sum_name_needs_escape(const char *name)
{
    return strpbrk(name, "\\\n\r") != NULL;
}

size_t sum_escape_name(const char *name, int escape, char *out)
{
    char *w = out;
    for (; *name; name++) {
        if (escape && (*name == '\\' || *name == '\n' || *name == '\r')) {
            *w++ = '\\';
            *w++ = *name == '\\' ? '\\' : *name == '\n' ? 'n' : 'r';
        } else {
            *w++ = *name;
        }
    }
    *w = '\0';
    return (size_t)(w - out);
}

/* ---- quoting of names in messages -------------------------------------------
 * A re-implementation of what gnulib's quotearg does for coreutils' quotef()
 * (shell-escape style, ':' also quoted), because the error lines must read
 * the same as coreutils' and scripts compare them. */

/* The length of the character at s (at most `left` bytes) and whether it is
 * printable in the current locale: like gnulib, an invalid byte is one
 * unprintable byte, an incomplete sequence runs to the end. */
static size_t char_at(const char *s, size_t left, int *printable)
{
    if (MB_CUR_MAX == 1) {
        *printable = isprint((unsigned char)*s) != 0;
        return 1;
    }
    mbstate_t st;
    wchar_t wc;
    memset(&st, 0, sizeof st);
    size_t n = mbrtowc(&wc, s, left, &st);
    if (n == (size_t)-1) {
        *printable = 0;
        return 1;
    }
    if (n == (size_t)-2) {
        *printable = 0;
        return left;
    }
    *printable = n > 0 && iswprint((wint_t)wc);
    return n ? n : 1;
}

static const char shell_special[] = " !\"$&()*;<=>[^`|";

/* Whether `name` can be shown without quotes. */
static int plain_ok(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\\' || c == '\'' || c == '?' || c == ':' || strchr(shell_special, c))
            return 0;
        if ((c == '#' || c == '~') && i == 0)
            return 0;
        if ((c == '{' || c == '}') && n == 1)
            return 0;
        int pr;
        size_t m = char_at(s + i, n - i, &pr);
        if (!pr)
            return 0;
        i += m;
    }
    return 1;
}

/* Characters that may sit inside "..." unchanged, so that a name with an
 * apostrophe and nothing else unusual is written "it's" (gnulib's choice). */
static int dq_compatible(unsigned char c, size_t i, size_t n)
{
    if (isalnum(c) || strchr("%+,-./:]_@ '", c))
        return 1;
    if (c == '#' || c == '~')
        return i == 0;
    if (c == '{' || c == '}')
        return n == 1 && i == 0;
    return 0;
}

static char *quote_single(const char *s, size_t n)
{
    /* worst case: each byte as \ooo inside $'..' plus the quote changes */
    char *out = malloc(8 * n + 8);
    if (!out)
        return NULL;
    char *w = out;
    int in_dollar = 0; /* inside a $'...' segment */
    *w++ = '\'';
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        const char *named = strchr("\a\b\f\n\r\t\v", c);
        if (c && named) {
            if (!in_dollar) {
                memcpy(w, "'$'", 3);
                w += 3;
                in_dollar = 1;
            }
            *w++ = '\\';
            *w++ = "abfnrtv"[named - "\a\b\f\n\r\t\v"];
            i++;
            continue;
        }
        int pr = 1;
        size_t m = 1;
        if (c >= 0x80 || !isprint(c))
            m = char_at(s + i, n - i, &pr);
        if (!pr) {
            if (!in_dollar) {
                memcpy(w, "'$'", 3);
                w += 3;
                in_dollar = 1;
            }
            for (size_t k = 0; k < m; k++) {
                unsigned char b = (unsigned char)s[i + k];
                *w++ = '\\';
                *w++ = (char)('0' + (b >> 6));
                *w++ = (char)('0' + ((b >> 3) & 7));
                *w++ = (char)('0' + (b & 7));
            }
            i += m;
            continue;
        }
        if (c == '\'') {
            /* closes whatever segment is open, an escaped apostrophe,
             * reopens: gnulib writes no '' before it even after $'..' */
            memcpy(w, "'\\''", 4);
            w += 4;
            in_dollar = 0;
            i++;
            continue;
        }
        if (in_dollar) {
            memcpy(w, "''", 2);
            w += 2;
            in_dollar = 0;
        }
        memcpy(w, s + i, m);
        w += m;
        i += m;
    }
    *w++ = '\'';
    *w = '\0';
    return out;
}

char *sum_quote(const char *name)
{
    size_t n = strlen(name);
    if (plain_ok(name, n))
        return strdup(name);
    int apostrophe = strchr(name, '\'') != NULL, dq = apostrophe;
    for (size_t i = 0; dq && i < n;) {
        unsigned char c = (unsigned char)name[i];
        if (c >= 0x80) {
            int pr;
            i += char_at(name + i, n - i, &pr);
            dq = pr;
        } else {
            dq = dq_compatible(c, i, n);
            i++;
        }
    }
    if (!dq)
        return quote_single(name, n);
    char *out = malloc(n + 3);
    if (out) {
        out[0] = '"';
        memcpy(out + 1, name, n);
        out[n + 1] = '"';
        out[n + 2] = '\0';
    }
    return out;
}
