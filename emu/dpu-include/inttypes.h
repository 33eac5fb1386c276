/* inttypes.h -- the DPU libc's <inttypes.h> (virtual UPMEM; the SDK 2025.1
 * header's contents): <stdint.h>, imaxdiv_t, imaxabs, imaxdiv and the PRI*
 * printf macros. No SCN* macros and no strtoimax/strtoumax, as in the SDK.
 *
 * The macros expand to the conversions of this ABI's types, as every libc's
 * do: 64-bit types are `long long` here (riscv32; `long` on the DPU), so
 * PRIu64 is "llu" where the SDK's is "lu". The text printed is the same: the
 * DPU printf reads both "l" and "ll" as 64-bit, and the printf macro records
 * each argument's real size anyway. "ll" also keeps clang's -Wformat quiet
 * where it checks the printf function itself (`(printf)(...)`). */
#ifndef _DPU_INTTYPES_H_
#define _DPU_INTTYPES_H_

#include <stdint.h>

typedef struct {
    intmax_t quot;
    intmax_t rem;
} imaxdiv_t;

static inline __attribute__((unused)) intmax_t imaxabs(intmax_t x)
{
    return x < 0 ? -x : x;
}

static inline __attribute__((unused)) imaxdiv_t imaxdiv(intmax_t numer, intmax_t denom)
{
    imaxdiv_t r = {numer / denom, numer % denom};
    return r;
}

/* signed decimal */
#define PRId8       "d"
#define PRId16      "d"
#define PRId32      "d"
#define PRId64      "lld"
#define PRIdLEAST8  "d"
#define PRIdLEAST16 "d"
#define PRIdLEAST32 "d"
#define PRIdLEAST64 "lld"
#define PRIdFAST8   "d"
#define PRIdFAST16  "d"
#define PRIdFAST32  "d"
#define PRIdFAST64  "lld"
#define PRIi8       "i"
#define PRIi16      "i"
#define PRIi32      "i"
#define PRIi64      "lli"
#define PRIiLEAST8  "i"
#define PRIiLEAST16 "i"
#define PRIiLEAST32 "i"
#define PRIiLEAST64 "lli"
#define PRIiFAST8   "i"
#define PRIiFAST16  "i"
#define PRIiFAST32  "i"
#define PRIiFAST64  "lli"
/* octal */
#define PRIo8       "o"
#define PRIo16      "o"
#define PRIo32      "o"
#define PRIo64      "llo"
#define PRIoLEAST8  "o"
#define PRIoLEAST16 "o"
#define PRIoLEAST32 "o"
#define PRIoLEAST64 "llo"
#define PRIoFAST8   "o"
#define PRIoFAST16  "o"
#define PRIoFAST32  "o"
#define PRIoFAST64  "llo"
/* unsigned decimal */
#define PRIu8       "u"
#define PRIu16      "u"
#define PRIu32      "u"
#define PRIu64      "llu"
#define PRIuLEAST8  "u"
#define PRIuLEAST16 "u"
#define PRIuLEAST32 "u"
#define PRIuLEAST64 "llu"
#define PRIuFAST8   "u"
#define PRIuFAST16  "u"
#define PRIuFAST32  "u"
#define PRIuFAST64  "llu"
/* hexadecimal, lower and upper case */
#define PRIx8       "x"
#define PRIx16      "x"
#define PRIx32      "x"
#define PRIx64      "llx"
#define PRIxLEAST8  "x"
#define PRIxLEAST16 "x"
#define PRIxLEAST32 "x"
#define PRIxLEAST64 "llx"
#define PRIxFAST8   "x"
#define PRIxFAST16  "x"
#define PRIxFAST32  "x"
#define PRIxFAST64  "llx"
#define PRIX8       "X"
#define PRIX16      "X"
#define PRIX32      "X"
#define PRIX64      "llX"
#define PRIXLEAST8  "X"
#define PRIXLEAST16 "X"
#define PRIXLEAST32 "X"
#define PRIXLEAST64 "llX"
#define PRIXFAST8   "X"
#define PRIXFAST16  "X"
#define PRIXFAST32  "X"
#define PRIXFAST64  "llX"
/* intmax_t, uintmax_t (64-bit) */
#define PRIdMAX "lld"
#define PRIiMAX "lli"
#define PRIoMAX "llo"
#define PRIuMAX "llu"
#define PRIxMAX "llx"
#define PRIXMAX "llX"
/* intptr_t, uintptr_t (32-bit) */
#define PRIdPTR "d"
#define PRIiPTR "i"
#define PRIoPTR "o"
#define PRIuPTR "u"
#define PRIxPTR "x"
#define PRIXPTR "X"

#endif
