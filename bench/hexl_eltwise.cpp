// hexl_eltwise.cpp -- one side of bench/hexl_eltwise.sh: the element-wise
// functions SEAL calls, timed on the inputs of SEAL's multiply and
// relinearization (moduli of 30 to 60 bits, 256-coefficient tiles as SEAL's
// ciphertext multiply passes them, and whole 4096-coefficient limbs),
// built once against cryptopim's libhexl and once against the real Intel
// HEXL (the two define the same symbols, so each build is its own
// program).  Each call takes the next of 8 input sets, as SEAL passes new
// data each time (the same inputs again would let the branch predictor
// learn their data-dependent branches).  Prints "op bits n ns" per case: the best of 5 rounds of
// nanoseconds per call (clock: measured, wall time on this machine).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "hexl/hexl.hpp"

using namespace intel::hexl;

namespace
{
uint64_t rng = 0x243f6a8885a308d3ull;
uint64_t rnd()
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}
std::vector<uint64_t> rand_vec(size_t n, uint64_t bound)
{
    std::vector<uint64_t> v(n);
    for (auto &x : v)
        x = rnd() % bound;
    return v;
}
// the largest prime below 2^bits
uint64_t prime(unsigned bits)
{
    uint64_t q = (1ull << bits) - 1;
    while (!IsPrime(q))
        q -= 2;
    return q;
}

const size_t kSets = 8;

// f(set) runs one call on input set `set`
template <class F> double time_ns(F f)
{
    using clk = std::chrono::steady_clock;
    // calls per round: about 2 ms
    size_t calls = 1;
    for (;;) {
        auto t0 = clk::now();
        for (size_t i = 0; i < calls; i++)
            f(i % kSets);
        if (std::chrono::duration<double>(clk::now() - t0).count() > 2e-3)
            break;
        calls *= 2;
    }
    double best = 1e30;
    for (int r = 0; r < 5; r++) {
        auto t0 = clk::now();
        for (size_t i = 0; i < calls; i++)
            f(i % kSets);
        best = std::min(best, std::chrono::duration<double>(clk::now() - t0).count() * 1e9 / calls);
    }
    return best;
}
} // namespace

int main(int argc, char **argv)
{
    // an argument: only the moduli of that many bits
    const unsigned only = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 0;
    for (unsigned bits : {30u, 36u, 44u, 50u, 55u, 60u})
        if (!only || bits == only)
            for (uint64_t n : {256u, 4096u}) {
                const uint64_t q = prime(bits);
                const size_t m = n * kSets;
                auto a = rand_vec(m, q), b = rand_vec(m, q), a4 = rand_vec(m, 4 * q),
                     b4 = rand_vec(m, 4 * q), a8 = rand_vec(m, 8 * q), big = rand_vec(m, ~0ull);
                std::vector<uint64_t> r(n);
                const uint64_t s = rnd() % q;
                auto row = [&](const char *op, double ns) {
                    std::printf("%s %u %llu %.1f\n", op, bits, (unsigned long long)n, ns);
                };
                row("add", time_ns([&](size_t k) {
                        EltwiseAddMod(r.data(), a.data() + k * n, b.data() + k * n, n, q);
                    }));
                row("sub", time_ns([&](size_t k) {
                        EltwiseSubMod(r.data(), a.data() + k * n, b.data() + k * n, n, q);
                    }));
                row("add-scalar",
                    time_ns([&](size_t k) { EltwiseAddMod(r.data(), a.data() + k * n, s, n, q); }));
                row("mult-1", time_ns([&](size_t k) {
                        EltwiseMultMod(r.data(), a.data() + k * n, b.data() + k * n, n, q, 1);
                    }));
                row("mult-4", time_ns([&](size_t k) {
                        EltwiseMultMod(r.data(), a4.data() + k * n, b4.data() + k * n, n, q, 4);
                    }));
                row("fma-8", time_ns([&](size_t k) {
                        EltwiseFMAMod(r.data(), a8.data() + k * n, s, nullptr, n, q, 8);
                    }));
                row("fma-add", time_ns([&](size_t k) {
                        EltwiseFMAMod(r.data(), a.data() + k * n, s, b.data() + k * n, n, q, 1);
                    }));
                row("reduce-q-1", time_ns([&](size_t k) {
                        EltwiseReduceMod(r.data(), big.data() + k * n, n, q, q, 1);
                    }));
            }
    return 0;
}
