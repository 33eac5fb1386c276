// hexl/util/check.hpp -- argument checks.  As in HEXL's release builds,
// HEXL_CHECK and HEXL_CHECK_BOUNDS compile to nothing unless HEXL_DEBUG is
// defined; then a failed check throws std::runtime_error with the message.
#pragma once

#include <sstream>
#include <stdexcept>

#ifdef HEXL_DEBUG
#define HEXL_CHECK(cond, expr)                                                                     \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            std::ostringstream hexl_check_msg_;                                                    \
            hexl_check_msg_ << "Error in " << __FILE__ << ":" << __LINE__ << ": " << expr;         \
            throw std::runtime_error(hexl_check_msg_.str());                                       \
        }                                                                                          \
    } while (0)
#define HEXL_CHECK_BOUNDS(arg, n, bound, expr)                                                     \
    do {                                                                                           \
        for (size_t hexl_check_i_ = 0; hexl_check_i_ < (n); ++hexl_check_i_)                       \
            HEXL_CHECK((arg)[hexl_check_i_] < (bound), expr);                                      \
    } while (0)
#else
#define HEXL_CHECK(cond, expr)                                                                     \
    do {                                                                                           \
    } while (0)
#define HEXL_CHECK_BOUNDS(arg, n, bound, expr)                                                     \
    do {                                                                                           \
    } while (0)
#endif
