// hexl/util/types.hpp -- integer types of HEXL's API.
#pragma once

#include <cstdint>

namespace intel
{
namespace hexl
{

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 uint128_t;
#endif

} // namespace hexl
} // namespace intel
