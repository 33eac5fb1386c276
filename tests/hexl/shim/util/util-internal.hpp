// util/util-internal.hpp -- test shim: the name Intel HEXL's own unit tests include from
// HEXL's sources, mapped onto cryptopim's libhexl (tests/hexl/hexl_tests.sh
// builds those tests against it).  HEXL's internal "Native" entry points are
// its portable kernels; here they are the public functions they implement.
#pragma once

#include <cstdint>
#include <random>

#include "hexl/util/aligned-allocator.hpp"
#include "hexl/util/util.hpp"

namespace intel
{
namespace hexl
{
inline bool Compare(CMPINT cmp, uint64_t lhs, uint64_t rhs)
{
    switch (cmp) {
    case CMPINT::EQ:
        return lhs == rhs;
    case CMPINT::LT:
        return lhs < rhs;
    case CMPINT::LE:
        return lhs <= rhs;
    case CMPINT::FALSE:
        return false;
    case CMPINT::NE:
        return lhs != rhs;
    case CMPINT::NLT:
        return lhs >= rhs;
    case CMPINT::NLE:
        return lhs > rhs;
    case CMPINT::TRUE:
        return true;
    }
    return true;
}
// Random test inputs in [min_value, max_value) (a fixed seed: reproducible).
inline std::mt19937_64 &TestEngine()
{
    static std::mt19937_64 engine(0x5eed);
    return engine;
}
inline uint64_t GenerateInsecureUniformIntRandomValue(uint64_t min_value, uint64_t max_value)
{
    return std::uniform_int_distribution<uint64_t>(min_value, max_value - 1)(TestEngine());
}
inline AlignedVector64<uint64_t>
GenerateInsecureUniformIntRandomValues(uint64_t size, uint64_t min_value, uint64_t max_value)
{
    AlignedVector64<uint64_t> v(size);
    for (auto &x : v)
        x = GenerateInsecureUniformIntRandomValue(min_value, max_value);
    return v;
}
inline double GenerateInsecureUniformRealRandomValue(double min_value, double max_value)
{
    return std::uniform_real_distribution<double>(min_value, max_value)(TestEngine());
}
inline AlignedVector64<double>
GenerateInsecureUniformRealRandomValues(uint64_t size, double min_value, double max_value)
{
    AlignedVector64<double> v(size);
    for (auto &x : v)
        x = GenerateInsecureUniformRealRandomValue(min_value, max_value);
    return v;
}
} // namespace hexl
} // namespace intel
