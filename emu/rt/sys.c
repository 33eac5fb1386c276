/* sys.c -- small runtime pieces of the virtual DPU: check_stack(),
 * atoi/strtol (CLOCKS_PER_SEC is in crt0.S: always linked). */
#include <defs.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* {lo, hi} per tasklet, generated at link time by the compiler wrapper. */
extern const uint32_t __sys_stack_table[];

int check_stack(void)
{
    uint32_t sp;
    __asm__ volatile("mv %0, sp" : "=r"(sp));
    uint32_t lo = __sys_stack_table[2 * me()];
    return (int)((int32_t)(sp - lo) / 4);
}

static int digit_val(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'Z')
        return c - 'A' + 10;
    return 99;
}

unsigned long strtoul(const char *s, char **end, int base)
{
    while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
        s++;
    int neg = 0;
    if (*s == '+' || *s == '-')
        neg = (*s++ == '-');
    if ((base == 0 || base == 16) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
        base = 16;
    } else if (base == 0) {
        base = (s[0] == '0') ? 8 : 10;
    }
    unsigned long v = 0;
    int d;
    while ((d = digit_val(*s)) < base) {
        v = v * (unsigned long)base + (unsigned long)d;
        s++;
    }
    if (end)
        *end = (char *)s;
    return neg ? -v : v;
}

long strtol(const char *s, char **end, int base)
{
    return (long)strtoul(s, end, base);
}
long atol(const char *s)
{
    return strtol(s, NULL, 10);
}
int atoi(const char *s)
{
    return (int)strtol(s, NULL, 10);
}
