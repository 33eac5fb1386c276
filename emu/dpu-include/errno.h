/* errno.h -- error numbers used by the DPU runtime (Linux values, as the SDK).
 * errno is one global shared by all tasklets, as in the SDK. */
#ifndef _DPU_ERRNO_H_
#define _DPU_ERRNO_H_
extern int errno;
#define EPERM     1
#define ENOENT    2
#define EIO       5
#define E2BIG     7
#define EAGAIN    11
#define ENOMEM    12
#define EBUSY     16
#define EINVAL    22
#define ENOSPC    28
#define EDOM      33
#define ERANGE    34
#define ENOSYS    38
#define EOVERFLOW 75
#define EALREADY  114
#endif
