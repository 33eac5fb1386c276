/*
 * dpu_macro_utils.h -- the SDK's token-pasting helpers, which its
 * DPU_FOREACH-style macros (and some programs) use.
 */
#ifndef DPU_MACRO_UTILS_H
#define DPU_MACRO_UTILS_H

#define _CONCAT_X(x, y) x##y
#define _CONCAT(x, y)   _CONCAT_X(x, y)
#define _XSTR(x)        #x
#define _STR(x)         _XSTR(x)

/* I for (set, x, i), X for (set, x) */
#define _DPU_FOREACH_VARIANT(...)              _DPU_FOREACH_VARIANT_(__VA_ARGS__, _DPU_FOREACH_VARIANT_SEQ())
#define _DPU_FOREACH_VARIANT_(a, ...)          _DPU_FOREACH_VARIANT_N(__VA_ARGS__)
#define _DPU_FOREACH_VARIANT_N(_1, _2, N, ...) N
#define _DPU_FOREACH_VARIANT_SEQ()             I, X, WRONG_NR_OF_ARGUMENTS

#endif /* DPU_MACRO_UTILS_H */
