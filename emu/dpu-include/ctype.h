/* ctype.h -- the DPU libc's <ctype.h> (virtual UPMEM, SDK 2025.1 contents):
 * the classification and case functions, inline, with the SDK's
 * definitions so that a program classifies exactly as on the DPU. Those are
 * plain ASCII ranges, so they differ from the C locale outside 0..127:
 * iscntrl(c) is c <= 0x1f || c == 0x7f (so also true for EOF and every
 * negative value), isprint is !iscntrl (so true for 0x80..0xff) and isgraph
 * is isprint && c != ' '. Results are 0 or 1. */
#ifndef _DPU_CTYPE_H_
#define _DPU_CTYPE_H_

#define __VDPU_CTYPE static inline __attribute__((unused)) int

__VDPU_CTYPE isdigit(int c)
{
    return c >= '0' && c <= '9';
}
__VDPU_CTYPE islower(int c)
{
    return c >= 'a' && c <= 'z';
}
__VDPU_CTYPE isupper(int c)
{
    return c >= 'A' && c <= 'Z';
}
__VDPU_CTYPE isalpha(int c)
{
    return islower(c) || isupper(c);
}
__VDPU_CTYPE isalnum(int c)
{
    return isalpha(c) || isdigit(c);
}
__VDPU_CTYPE iscntrl(int c)
{
    return c <= 0x1f || c == 0x7f;
}
__VDPU_CTYPE isprint(int c)
{
    return !iscntrl(c);
}
__VDPU_CTYPE isgraph(int c)
{
    return isprint(c) && c != ' ';
}
__VDPU_CTYPE ispunct(int c)
{
    return (c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') ||
           (c >= '{' && c <= '~');
}
__VDPU_CTYPE isspace(int c)
{
    return (c >= 0x9 && c <= 0xd) || c == ' ';
}
__VDPU_CTYPE isxdigit(int c)
{
    return isdigit(c) || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f');
}
__VDPU_CTYPE isblank(int c)
{
    return c == ' ' || c == '\t';
}
__VDPU_CTYPE tolower(int c)
{
    return isupper(c) ? c + 0x20 : c;
}
__VDPU_CTYPE toupper(int c)
{
    return islower(c) ? c - 0x20 : c;
}

#undef __VDPU_CTYPE
#endif
