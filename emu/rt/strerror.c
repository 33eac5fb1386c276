/* strerror.c -- strerror() of the DPU libc: the text of each <errno.h>
 * value (POSIX descriptions, as the SDK's table); "Unknown error" and
 * errno = EINVAL for any other number, as the SDK's. The numbers are those
 * of this runtime's <errno.h>, so the text follows the name, not the SDK's
 * numbering. */
#include <errno.h>
#include <string.h>

char *strerror(int errnum)
{
    const char *text;
    switch (errnum) {
    case 0:
        text = "Success";
        break;
    case EPERM:
        text = "Operation not permitted";
        break;
    case ENOENT:
        text = "No such file or directory";
        break;
    case EIO:
        text = "I/O error";
        break;
    case E2BIG:
        text = "Argument list too long";
        break;
    case EAGAIN:
        text = "Resource unavailable, try again";
        break;
    case ENOMEM:
        text = "Not enough space";
        break;
    case EBUSY:
        text = "Device or resource busy";
        break;
    case EINVAL:
        text = "Invalid argument";
        break;
    case ENOSPC:
        text = "No space left on device";
        break;
    case EDOM:
        text = "Mathematics argument out of domain of function";
        break;
    case ERANGE:
        text = "Result too large";
        break;
    case ENOSYS:
        text = "Function not supported";
        break;
    case EOVERFLOW:
        text = "Value too large to be stored in data type";
        break;
    case EALREADY:
        text = "Connection already in progress";
        break;
    default:
        errno = EINVAL;
        text = "Unknown error";
        break;
    }
    return (char *)text;
}
