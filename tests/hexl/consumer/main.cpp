// main.cpp -- the installed libhexl used as SEAL uses it: an NTT object per
// ring, forward of X against w^(2i+1) in bit-reversed order, the inverse
// back, and an element-wise product.  Exit 0 when all hold, else 1 with a
// line naming what failed.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "hexl/hexl.hpp"

using namespace intel::hexl;

static bool ring(uint64_t n, uint64_t q)
{
    NTT ntt(n, q);
    const uint64_t w = ntt.GetMinimalRootOfUnity();
    std::vector<uint64_t> x(n, 0), f(n), g(n);
    x[1] = 1;
    ntt.ComputeForward(f.data(), x.data(), 1, 1);
    uint64_t logn = Log2(n);
    for (uint64_t i = 0; i < n; i++)
        if (f[ReverseBits(i, logn)] != PowMod(w, 2 * i + 1, q)) {
            std::printf("n %llu: forward(X)[bitrev(%llu)] is not w^(2i+1)\n", (unsigned long long)n,
                        (unsigned long long)i);
            return false;
        }
    ntt.ComputeInverse(g.data(), f.data(), 1, 1);
    if (g != x) {
        std::printf("n %llu: inverse(forward(X)) is not X\n", (unsigned long long)n);
        return false;
    }
    return true;
}

int main()
{
    // 132120577 = 63 * 2^21 + 1: an NTT prime for every N up to 2^20
    const uint64_t q = 132120577;
    bool ok = ring(8, q) && ring(4096, q);
    std::vector<uint64_t> a{2, q - 1, 12345}, b{3, q - 1, 0}, c(3);
    EltwiseMultMod(c.data(), a.data(), b.data(), 3, q, 1);
    if (c != std::vector<uint64_t>{6, 1, 0}) {
        std::printf("EltwiseMultMod: wrong products\n");
        ok = false;
    }
    return ok ? 0 : 1;
}
