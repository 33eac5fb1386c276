// hexl/util/util.hpp -- the comparison predicates of EltwiseCmpAdd and
// EltwiseCmpSubMod.
#pragma once

#include <cstddef>

namespace intel
{
namespace hexl
{

#undef TRUE
#undef FALSE
// The predicate applied as `operand CMP bound`.
enum class CMPINT {
    EQ = 0,
    LT = 1,
    LE = 2,
    FALSE = 3,
    NE = 4,
    NLT = 5,
    NLE = 6,
    TRUE = 7,
};

// The complementary predicate.
inline CMPINT Not(CMPINT cmp)
{
    switch (cmp) {
    case CMPINT::EQ:
        return CMPINT::NE;
    case CMPINT::LT:
        return CMPINT::NLT;
    case CMPINT::LE:
        return CMPINT::NLE;
    case CMPINT::FALSE:
        return CMPINT::TRUE;
    case CMPINT::NE:
        return CMPINT::EQ;
    case CMPINT::NLT:
        return CMPINT::LT;
    case CMPINT::NLE:
        return CMPINT::LE;
    case CMPINT::TRUE:
        return CMPINT::FALSE;
    }
    return CMPINT::FALSE;
}

} // namespace hexl
} // namespace intel
