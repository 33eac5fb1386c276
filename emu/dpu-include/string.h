/* string.h -- the DPU libc's <string.h> (virtual UPMEM; every function of
 * the SDK 2025.1 header; implemented in emu/rt/string.c, string_ext.c,
 * strerror.c). */
#ifndef _DPU_STRING_H_
#define _DPU_STRING_H_
#include <stddef.h>
void *memcpy(void *restrict d, const void *restrict s, size_t n);
void *memmove(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t n);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strcpy(char *restrict d, const char *restrict s);
char *strncpy(char *restrict d, const char *restrict s, size_t n);
char *strcat(char *restrict d, const char *restrict s);
char *strncat(char *restrict d, const char *restrict s, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *h, const char *n);

/* The rest of the SDK's <string.h> (emu/rt/string_ext.c, strerror.c). */
char *stpcpy(char *restrict d, const char *restrict s);
char *stpncpy(char *restrict d, const char *restrict s, size_t n);
size_t strspn(const char *s, const char *accept);
size_t strcspn(const char *s, const char *reject);
char *strpbrk(const char *s, const char *accept);
char *strtok_r(char *restrict s, const char *restrict delim, char **restrict saveptr);
char *strsep(char **restrict stringp, const char *restrict delim);
/* in place, ASCII letters only (as the SDK); return their argument */
char *strlwr(char *s);
char *strupr(char *s);
char *strrev(char *s);
/* The text for an <errno.h> value; "Unknown error" (and errno = EINVAL)
 * for any other number, as the SDK's. */
char *strerror(int errnum);
/* As in the SDK: no locale, so collation is byte order. (The SDK's strxfrm
 * is strncpy itself, returning the destination rather than a length.) */
#define strxfrm strncpy
#define strcoll strcmp
/* The SDK's library also defines strdup and strndup (copies in the buddy
 * heap, buddy_alloc.h: call buddy_init first; NULL when it is full) without
 * declaring them here; so does this runtime. */
#endif
