/* libc_cases.h -- calls of the DPU libc shared by the DPU program
 * (dpu_libc.c) and the host check (rt_run.c), which runs the same code on
 * glibc and compares the text line by line. Each section starts with a
 * "== name" line (one verdict per section). The includer defines
 * OUT(fmt, ...) (one line, at least one argument) and, on the host, the
 * functions glibc lacks or defines otherwise (strlwr, strupr, strrev, the
 * SDK's ctype rules outside ASCII, strerror's texts, getenv).
 *
 * Only values that are the same on the DPU (ILP32) and on the host (LP64)
 * are printed: sizes go through (unsigned), longs through (long long). */

static int libc_sign(int v)
{
    return (v > 0) - (v < 0);
}

/* <stdarg.h>: the sum of n ints, and the va_copy of them */
static int libc_sum(int n, ...)
{
    va_list ap, again;
    va_start(ap, n);
    va_copy(again, ap);
    int s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, int) + va_arg(again, int);
    va_end(again);
    va_end(ap);
    return s;
}

static noreturn void libc_never_called(void)
{
    for (;;) {
    }
}

static void libc_cases(void)
{
    char a[64], b[64];
    char *p, *save;

    OUT("== ctype %d", 257);
    for (int c = -1; c < 256; c++) {
        int mask = isdigit(c) | islower(c) << 1 | isupper(c) << 2 | isalpha(c) << 3 |
                   isalnum(c) << 4 | iscntrl(c) << 5 | isprint(c) << 6 | isgraph(c) << 7 |
                   ispunct(c) << 8 | isspace(c) << 9 | isxdigit(c) << 10 | isblank(c) << 11;
        OUT("%d %x %d %d", c, mask, tolower(c), toupper(c));
    }

    OUT("== string %d", 1);
    strcpy(a, "Hello, World");
    OUT("strlen %u strnlen %u %u", (unsigned)strlen(a), (unsigned)strnlen(a, 5),
        (unsigned)strnlen(a, 99));
    OUT("cmp %d %d %d %d %d", libc_sign(strcmp("abc", "abd")), libc_sign(strcmp("b", "a")),
        libc_sign(strncmp("abcX", "abcY", 3)), libc_sign(memcmp("\x01\xff", "\x01\x02", 2)),
        libc_sign(strcoll("same", "same")));
    memset(b, 'z', 8);
    b[8] = '\0';
    OUT("memset %s memchr %d %d", b, (int)((char *)memchr(a, 'W', 12) - a),
        memchr(a, 'q', 12) == NULL);
    strcpy(b, "ab");
    strcat(b, "cd");
    strncat(b, "efghij", 3);
    OUT("strcat %s", b);
    OUT("strchr %d strrchr %d %d strstr %d %d", (int)(strchr(a, 'o') - a),
        (int)(strrchr(a, 'o') - a), strchr(a, 'q') == NULL, (int)(strstr(a, "World") - a),
        strstr(a, "xyz") == NULL);
    strcpy(b, "0123456789");
    memmove(b + 2, b, 6);
    OUT("memmove %s", b);
    memmove(b, b + 3, 5);
    memcpy(b + 5, "!!", 3);
    OUT("memmove+memcpy %s", b);
    memset(b, 'x', 12);
    strncpy(b, "abc", 6);
    OUT("strncpy %d %d %d %d %c", b[2], b[3], b[5], b[6], b[6]);
    p = stpcpy(b, "stp");
    p = stpcpy(p, "cpy");
    OUT("stpcpy %s %d", b, (int)(p - b));
    memset(b, 'x', 12);
    p = stpncpy(b, "ab", 5);
    OUT("stpncpy %d %d %d %c", (int)(p - b), b[2], b[4], b[5]);
    p = stpncpy(b, "abcdefgh", 4);
    OUT("stpncpy full %d %c", (int)(p - b), b[3]);
    strcpy(b, "MiXeD 123 \xff");
    OUT("strlwr %s", strlwr(b));
    OUT("strupr %s", strupr(b));
    strcpy(b, "stressed");
    OUT("strrev %s %s", strrev(b), strrev(strcpy(a, "x")));
    strcpy(a, "Hello, World");
    OUT("strspn %u %u strcspn %u %u", (unsigned)strspn(a, "HeLlo"), (unsigned)strspn(a, ""),
        (unsigned)strcspn(a, ", "), (unsigned)strcspn(a, "qz"));
    OUT("strpbrk %d %d", (int)(strpbrk(a, "rW") - a), strpbrk(a, "qz") == NULL);
    strcpy(b, ",,one,,two;three,");
    for (p = strtok_r(b, ",;", &save); p; p = strtok_r(NULL, ",;", &save))
        OUT("strtok_r [%s]", p);
    OUT("strtok_r empty %d", strtok_r(strcpy(b, ",;,"), ",;", &save) == NULL);
    strcpy(b, "a,,b;c");
    save = b;
    while ((p = strsep(&save, ",;")) != NULL)
        OUT("strsep [%s]", p);
    strcpy(b, "xyz");
    strxfrm(a, b, 4);
    OUT("strxfrm %s", a);
    errno = 0;
    OUT("strerror [%s] [%s] [%s] errno %d", strerror(0), strerror(EINVAL), strerror(ERANGE), errno);
    p = strerror(12345); /* before reading errno (argument order is unspecified) */
    OUT("strerror [%s] errno==EINVAL %d", p, errno == EINVAL);
    p = strdup("duplicate");
    OUT("strdup %s %d", p ? p : "(null)", p != NULL);
    p = strndup("duplicate", 3);
    OUT("strndup %s %u", p ? p : "(null)", p ? (unsigned)strlen(p) : 0u);
    p = strndup("ab", 10);
    OUT("strndup short %s", p ? p : "(null)");

    OUT("== stdlib %d", 1);
    OUT("abs %d %lld %lld", abs(-5), (long long)labs(-6L), llabs(-7000000000LL));
    div_t d = div(-17, 5);
    ldiv_t ld = ldiv(17L, -5L);
    lldiv_t lld = lldiv(-10000000007LL, 10LL);
    OUT("div %d %d %lld %lld %lld %lld", d.quot, d.rem, (long long)ld.quot, (long long)ld.rem,
        lld.quot, lld.rem);
    OUT("atoi %d %d %d %lld", atoi("  -42xyz"), atoi("+17"), atoi("abc"),
        (long long)atol("123456"));
    OUT("strtol %lld %lld %lld %lld", (long long)strtol(" 0x1F", &p, 0),
        (long long)strtol("077", NULL, 0), (long long)strtol("-101", NULL, 2),
        (long long)strtol("zz", NULL, 36));
    OUT("strtol end [%s] strtoul %llu", p, (unsigned long long)strtoul("4000000000", NULL, 10));
    OUT("getenv %d EXIT %d %d", getenv("PATH") == NULL, EXIT_SUCCESS, EXIT_FAILURE);

    OUT("== inttypes %d", 1);
#define LIBC_PRI_ROW(c, S, v8, v16, v32, v64)                                                      \
    OUT("PRI" #c                                                                                   \
        " %" PRI##c##8 " %" PRI##c##16 " %" PRI##c##32 " %" PRI##c##64 " %" PRI##c##LEAST8         \
        " %" PRI##c##LEAST16 " %" PRI##c##LEAST32 " %" PRI##c##LEAST64 " %" PRI##c##FAST8          \
        " %" PRI##c##FAST16 " %" PRI##c##FAST32 " %" PRI##c##FAST64,                               \
        (S##8_t)(v8), (S##16_t)(v16), (S##32_t)(v32), (S##64_t)(v64), (S##_least8_t)(v8),          \
        (S##_least16_t)(v16), (S##_least32_t)(v32), (S##_least64_t)(v64), (S##_fast8_t)(v8),       \
        (S##_fast16_t)(v16), (S##_fast32_t)(v32), (S##_fast64_t)(v64))
    LIBC_PRI_ROW(d, int, -100, -30000, -2000000000, -9000000000000000000LL);
    LIBC_PRI_ROW(i, int, 100, 30000, 2000000000, 9000000000000000000LL);
    LIBC_PRI_ROW(o, uint, 0377, 0177777, 037777777777u, 01777777777777777777777ULL);
    LIBC_PRI_ROW(u, uint, 255, 65535, 4000000000u, 18446744073709551615ULL);
    LIBC_PRI_ROW(x, uint, 0xab, 0xbeef, 0xdeadbeefu, 0x0123456789abcdefULL);
    LIBC_PRI_ROW(X, uint, 0xab, 0xbeef, 0xdeadbeefu, 0xfedcba9876543210ULL);
#undef LIBC_PRI_ROW
    OUT("MAX %" PRIdMAX " %" PRIiMAX " %" PRIoMAX " %" PRIuMAX " %" PRIxMAX " %" PRIXMAX,
        (intmax_t)INTMAX_MIN, (intmax_t)INTMAX_MAX, (uintmax_t)UINTMAX_MAX, (uintmax_t)UINTMAX_MAX,
        (uintmax_t)UINTMAX_MAX, (uintmax_t)0xabcdef0123456789ULL);
    OUT("PTR %" PRIdPTR " %" PRIiPTR " %" PRIoPTR " %" PRIuPTR " %" PRIxPTR " %" PRIXPTR,
        (intptr_t)-5, (intptr_t)6, (uintptr_t)8, (uintptr_t)9, (uintptr_t)0xabc, (uintptr_t)0xdef);
    imaxdiv_t q = imaxdiv(-9000000000000000007LL, 1000LL);
    OUT("imax %" PRIdMAX " %" PRIdMAX " %" PRIdMAX, imaxabs((intmax_t)-9000000000000000000LL),
        q.quot, q.rem);

    OUT("== headers %d", 1);
    OUT("limits %d %d %u %d %d %u %lld %llu", CHAR_BIT, SCHAR_MIN, (unsigned)UCHAR_MAX, SHRT_MIN,
        INT_MAX, UINT_MAX, LLONG_MIN, ULLONG_MAX);
    OUT("stdint %d %d %u %lld %llu %lld %llu", INT8_MIN, INT16_MAX, UINT32_MAX,
        (long long)INT64_MIN, (unsigned long long)UINT64_MAX, (long long)INT64_C(-5),
        (unsigned long long)UINT64_C(6));
    bool t = true, f = false;
    OUT("stdbool %d %d %d", t, f, __bool_true_false_are_defined);
    struct libc_s {
        char c;
        uint64_t u;
    };
    OUT("stddef %u %d alignof %u", (unsigned)offsetof(struct libc_s, u), NULL == (void *)0,
        (unsigned)alignof(uint64_t));
    alignas(16) char aligned[16];
    OUT("alignas %d", ((uintptr_t)aligned & 15) == 0);
    OUT("iso646 %d %d %d", 1 and 0, 1 or 0, not 0);
    OUT("stdarg %d", libc_sum(3, 1, 2, 3));
    assert(t);
    OUT("assert %d", 1);
    if (f)
        libc_never_called();
}
