// eltwise_portable.cpp -- the portable tier of the element-wise kernels
// (eltwise_kernels.hpp): one element at a time, 64-bit Barrett products
// (one 128-bit product and one high product per element, no division),
// and no data-dependent branch (eltwise_kernels.hpp's CSub).
#include "eltwise_kernels.hpp"

namespace intel
{
namespace hexl
{
namespace eltwise
{

namespace
{
void add(uint64_t *r, const uint64_t *a, const uint64_t *b, uint64_t n, uint64_t q)
{
    for (uint64_t i = 0; i < n; i++) {
        r[i] = CSub(a[i] + b[i], q);
    }
}

void add_scalar(uint64_t *r, const uint64_t *a, uint64_t b, uint64_t n, uint64_t q)
{
    for (uint64_t i = 0; i < n; i++) {
        r[i] = CSub(a[i] + b, q);
    }
}

void sub(uint64_t *r, const uint64_t *a, const uint64_t *b, uint64_t n, uint64_t q)
{
    for (uint64_t i = 0; i < n; i++)
        r[i] = CSub(a[i] - b[i] + q, q);
}

void sub_scalar(uint64_t *r, const uint64_t *a, uint64_t b, uint64_t n, uint64_t q)
{
    for (uint64_t i = 0; i < n; i++)
        r[i] = CSub(a[i] - b + q, q);
}

void mult(uint64_t *r, const uint64_t *a, const uint64_t *b, uint64_t n, const ModConsts &m,
          uint64_t f)
{
    for (uint64_t i = 0; i < n; i++)
        r[i] = MulMod(a[i], b[i], m, f);
}

void fma(uint64_t *r, const uint64_t *a, uint64_t c, const uint64_t *add, uint64_t n,
         const ModConsts &m, uint64_t f)
{
    // c is reduced by the caller; Shoup's product takes a unreduced
    const uint64_t cs = ShoupFactor(c, m.q);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t x = MulModShoup(a[i], c, cs, m.q);
        if (add) {
            x = CSub(x + Down(add[i], m.q, f), m.q);
        }
        r[i] = x;
    }
}

void reduce(uint64_t *r, const uint64_t *a, uint64_t n, const ModConsts &m, uint64_t in,
            uint64_t out)
{
    if (in == m.q) {
        if (out == 1)
            for (uint64_t i = 0; i < n; i++)
                r[i] = Reduce1(a[i], m);
        else
            for (uint64_t i = 0; i < n; i++)
                r[i] = ReduceLazy2(a[i], m);
    } else if (out == 2) { // 4 -> 2
        for (uint64_t i = 0; i < n; i++)
            r[i] = CSub(a[i], 2 * m.q);
    } else {
        for (uint64_t i = 0; i < n; i++)
            r[i] = Down(a[i], m.q, in);
    }
}
} // namespace

const Kernels kPortable = {"portable", add, add_scalar, sub, sub_scalar, mult, fma, reduce};

} // namespace eltwise
} // namespace hexl
} // namespace intel
