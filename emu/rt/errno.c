/* errno.c -- errno of each tasklet (errno.h: an lvalue in __errno[me()]),
 * one word per hardware thread. */
#include <dpuconst.h>
#include <errno.h>
int __errno[__DPU_NUMBER_OF_THREADS];
