/*
 * tests/hexl/test_hexl.cpp -- cryptopim's HEXL-compatible library (hexl/)
 * against definitions computed here, independently of its code: the NTT
 * against the O(N^2) evaluation at w^(2i+1) in bit-reversed order (N = 2 ..
 * 2048: the library's own path below 1024, cryptopim's from 1024) with
 * HEXL's mod factors, on the cpu, auto and pim backends; every element-wise
 * op against 128-bit arithmetic with random inputs over its input range;
 * the number theory against brute force; bad arguments refused; NTT
 * objects copied, moved and used from two threads.  The comparison with
 * Intel's own HEXL is tests/hexl/hexl_diff.sh; SEAL's suite is
 * tests/hexl/seal.sh.  Runs on the harness of tests/test.h.
 */
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "hexl/cryptopim.hpp"
#include "hexl/hexl.hpp"

extern "C" {
#include "test.h"
}

using namespace intel::hexl;
typedef unsigned __int128 u128;

namespace
{

uint64_t mulm(uint64_t a, uint64_t b, uint64_t q)
{
    return (uint64_t)((u128)a * b % q);
}
uint64_t powm(uint64_t a, uint64_t e, uint64_t q)
{
    uint64_t r = 1;
    for (a %= q; e; e >>= 1, a = mulm(a, a, q))
        if (e & 1)
            r = mulm(r, a, q);
    return r;
}
unsigned brev(uint64_t x, unsigned bits)
{
    unsigned r = 0;
    for (unsigned i = 0; i < bits; i++, x >>= 1)
        r = (r << 1) | (x & 1);
    return r;
}

// the largest prime below 2^bits with q = 1 mod 2^17 (every N <= 65536)
uint64_t prime(unsigned bits)
{
    for (uint64_t q = ((1ull << bits) - 1) / (1u << 17) * (1u << 17) + 1;; q -= 1u << 17)
        if (IsPrime(q))
            return q;
}

// out[bitrev(i)] = sum_k a[k] w^((2i+1)k)
std::vector<uint64_t> ref_forward(const std::vector<uint64_t> &a, uint64_t w, uint64_t q)
{
    size_t n = a.size();
    unsigned bits = (unsigned)Log2(n);
    std::vector<uint64_t> out(n);
    for (size_t i = 0; i < n; i++) {
        uint64_t x = powm(w, 2 * i + 1, q), acc = 0, p = 1;
        for (size_t k = 0; k < n; k++, p = mulm(p, x, q))
            acc = (acc + mulm(a[k] % q, p, q)) % q;
        out[brev(i, bits)] = acc;
    }
    return out;
}

const char *g_backend = "auto";

void ntt_case(size_t n, unsigned qbits, uint64_t *seed)
{
    uint64_t q = prime(qbits);
    NTT ntt(n, q);
    uint64_t w = ntt.GetMinimalRootOfUnity();
    CHECK(w == MinimalPrimitiveRoot(2 * n, q) && IsPrimitiveRoot(w, 2 * n, q),
          "%s N %zu q %u bits: minimal root", g_backend, n, qbits);
    for (uint64_t f : {1, 2, 4}) {
        std::vector<uint64_t> a(n), lazy(n), got(n);
        for (size_t k = 0; k < n; k++) {
            a[k] = test_rand(seed) % q;
            // a representative of a[k] in [0, f q)
            lazy[k] = a[k] + q * (test_rand(seed) % f);
        }
        a[0] = q - 1;
        lazy[0] = q - 1 + q * (f - 1);
        std::vector<uint64_t> want = ref_forward(a, w, q);
        for (uint64_t of : {1, 4}) {
            ntt.ComputeForward(got.data(), lazy.data(), f, of);
            bool ok = true;
            for (size_t i = 0; i < n; i++)
                ok &= got[i] < of * q && got[i] % q == want[i];
            CHECK(ok, "%s N %zu q %u bits: forward, input factor %llu, output factor %llu",
                  g_backend, n, qbits, (unsigned long long)f, (unsigned long long)of);
        }
        if (f <= 2) {
            // inverse of the forward (lazy representatives of it), in place
            std::vector<uint64_t> back(want);
            for (size_t i = 0; i < n; i++)
                back[i] += q * (test_rand(seed) % f);
            ntt.ComputeInverse(back.data(), back.data(), f, 1);
            CHECK(back == a, "%s N %zu q %u bits: inverse(forward(a)) = a, input factor %llu",
                  g_backend, n, qbits, (unsigned long long)f);
        }
    }
    // the caller's root: w^3 is another primitive 2N-th root
    uint64_t w3 = mulm(mulm(w, w, q), w, q);
    NTT other(n, q, w3);
    std::vector<uint64_t> x(n, 0), y(n);
    x[1 % n] = 1;
    other.ComputeForward(y.data(), x.data(), 1, 1);
    CHECK(y == ref_forward(x, w3, q), "%s N %zu: forward with the root w^3", g_backend, n);
    // the getters
    const auto &pw = ntt.GetRootOfUnityPowers();
    const auto &ipw = ntt.GetInvRootOfUnityPowers();
    bool ok = pw.size() == n && ipw.size() == n && pw[0] == 1 && ipw[0] == 1;
    for (size_t i = 1; ok && i < n; i++)
        ok = pw[i] == powm(w, brev(i, (unsigned)Log2(n)), q);
    if (n >= 2)
        ok = ok && mulm(ipw[n - 1], pw[1], q) == 1; // the last inverse stage's one twiddle
    CHECK(ok, "%s N %zu: root-of-unity tables", g_backend, n);
}

void ntt_all(const char *backend)
{
    cryptopim::SetBackend(backend);
    g_backend = backend;
    uint64_t seed = 0x1234;
    for (size_t n : {2, 4, 8, 64, 1024, 2048})
        for (unsigned bits : {30u, 50u, 60u}) {
            if (std::string(backend) == "pim" && n >= 1024 && bits > 31)
                continue; // pim takes word moduli only (cryptopim_ntt.h)
            try {
                ntt_case(n, bits, &seed);
            } catch (const std::exception &e) {
                CHECK(0, "%s N %zu q %u bits: %s", backend, n, bits, e.what());
            }
        }
    cryptopim::SetBackend("auto");
}

} // namespace

TEST(hexl_ntt_auto)
{
    ntt_all("auto");
}
TEST(hexl_ntt_cpu)
{
    ntt_all("cpu");
}
TEST(hexl_ntt_pim)
{
    ntt_all("pim");
}

TEST(hexl_ntt_bad_arguments)
{
    uint64_t q = prime(30);
    auto throws = [](auto &&f) {
        try {
            f();
        } catch (const std::invalid_argument &) {
            return true;
        }
        return false;
    };
    CHECK(throws([&] { NTT(1000, q); }), "degree 1000");
    CHECK(throws([&] { NTT(1024, q + 2); }), "not prime");
    CHECK(throws([&] { NTT(4096, uint64_t{12289}); }), "q != 1 mod 2N");
    CHECK(throws([&] { NTT(1024, q, uint64_t{1}); }), "root 1");
    CHECK(throws([&] { NTT(1024, q, q - 1); }), "root -1");
    NTT ntt(1024, q);
    std::vector<uint64_t> a(1024, 0);
    CHECK(throws([&] { ntt.ComputeForward(a.data(), a.data(), 3, 1); }), "input factor 3");
    CHECK(throws([&] { ntt.ComputeForward(a.data(), a.data(), 1, 2); }), "output factor 2");
    CHECK(throws([&] { ntt.ComputeInverse(a.data(), a.data(), 4, 1); }), "inverse factor 4");
    CHECK(throws([&] { cryptopim::SetBackend("no-such-backend"); }), "unknown backend");
    CHECK(cryptopim::GetBackend() == "auto", "backend kept after a refusal");
    CHECK(!NTT::CheckArguments(3, 7) && NTT::CheckArguments(1024, q), "CheckArguments");
    // an input above its factor's bound breaks HEXL's contract: the CPU
    // backends trust the contract as Intel HEXL does (no fault, unspecified
    // values); pim, whose batch calls check their inputs, refuses it
    a[5] = 4 * q + 3;
    ntt.ComputeForward(a.data(), a.data(), 1, 1);
    cryptopim::SetBackend("pim");
    NTT on_pim(1024, q);
    cryptopim::SetBackend("auto");
    std::fill(a.begin(), a.end(), 0);
    a[5] = q;
    bool threw = false;
    try {
        on_pim.ComputeForward(a.data(), a.data(), 1, 1);
    } catch (const std::runtime_error &) {
        threw = true;
    }
    CHECK(threw, "input q with factor 1 on pim: refused");
}

TEST(hexl_ntt_copy_move_threads)
{
    uint64_t q = prime(50), seed = 7;
    NTT a(4096, q);
    NTT b(a);            // copy
    NTT c(std::move(b)); // move
    std::vector<uint64_t> x(4096), y1(4096), y2(4096);
    for (auto &v : x)
        v = test_rand(&seed) % q;
    a.ComputeForward(y1.data(), x.data(), 1, 1);
    c.ComputeForward(y2.data(), x.data(), 1, 1);
    CHECK(y1 == y2, "a copy transforms as the original");
    // two threads on one object (SEAL shares its NTT objects)
    std::vector<uint64_t> r1(4096), r2(4096);
    bool ok1 = true, ok2 = true;
    std::thread t1([&] {
        for (int i = 0; i < 50; i++) {
            a.ComputeForward(r1.data(), x.data(), 1, 1);
            ok1 &= r1 == y1;
        }
    });
    std::thread t2([&] {
        for (int i = 0; i < 50; i++) {
            a.ComputeForward(r2.data(), x.data(), 1, 1);
            ok2 &= r2 == y1;
        }
    });
    t1.join();
    t2.join();
    CHECK(ok1 && ok2, "two threads on one NTT object");
}

namespace
{
// Every element-wise op on one tier of kernels (hexl/cryptopim.hpp's
// SetEltwiseKernels) against 128-bit arithmetic: moduli of 2 to 62 bits
// (the largest prime below 2^bits, 2^(bits-1) + 1, the smallest odd one of
// that length, and 2^(bits-1)), lengths that leave every vector tail, inputs over each mod
// factor's whole range with both ends.
void eltwise_tier(const char *tier)
{
    try {
        cryptopim::SetEltwiseKernels(tier);
    } catch (const std::invalid_argument &e) {
        test_skip(e.what());
        return;
    }
    CHECK(cryptopim::GetEltwiseKernels() == tier || std::string(tier) == "auto",
          "tier %s: running %s", tier, cryptopim::GetEltwiseKernels().c_str());
    uint64_t seed = 99;
    const size_t lengths[] = {1, 7, 13, 256, 1003};
    for (unsigned bits : {2u, 3u, 14u, 15u, 17u, 30u, 31u, 46u, 47u, 48u, 49u, 50u, 51u, 52u, 58u,
                          59u, 60u, 61u, 62u})
        for (int variant = 0; variant < 3; variant++)
            for (size_t n : lengths) {
                uint64_t q = (1ull << bits) - 1; // the largest prime below 2^bits
                while (!IsPrime(q))
                    q--;
                if (variant)
                    q = (1ull << (bits - 1)) + (variant == 1);
                std::vector<uint64_t> a(n), b(n), c(n), r(n);
                for (size_t i = 0; i < n; i++) {
                    a[i] = test_rand(&seed) % q, b[i] = test_rand(&seed) % q,
                    c[i] = test_rand(&seed) % q;
                }
                a[0] = b[0] = c[0] = q - 1;
                if (n > 1)
                    a[n - 1] = 0;
                uint64_t s = test_rand(&seed) % q;
                bool ok = true;
                EltwiseAddMod(r.data(), a.data(), b.data(), n, q);
                for (size_t i = 0; i < n; i++)
                    ok &= r[i] == (uint64_t)(((u128)a[i] + b[i]) % q);
                EltwiseAddMod(r.data(), a.data(), s, n, q);
                for (size_t i = 0; i < n; i++)
                    ok &= r[i] == (uint64_t)(((u128)a[i] + s) % q);
                EltwiseSubMod(r.data(), a.data(), b.data(), n, q);
                for (size_t i = 0; i < n; i++)
                    ok &= r[i] == (uint64_t)(((u128)a[i] + q - b[i]) % q);
                EltwiseSubMod(r.data(), a.data(), s, n, q);
                for (size_t i = 0; i < n; i++)
                    ok &= r[i] == (uint64_t)(((u128)a[i] + q - s) % q);
                CHECK(ok, "%s: q = %llu, n = %zu: add / sub", tier, (unsigned long long)q, n);
                for (uint64_t f : {1, 2, 4, 8}) {
                    // HEXL's ranges: f q < 2^63 for the product, q < 2^61 for the FMA
                    std::vector<uint64_t> la(a), lb(b), lc(c);
                    for (size_t i = 0; i < n; i++) {
                        la[i] += q * (test_rand(&seed) % f);
                        lb[i] += q * (test_rand(&seed) % f);
                        lc[i] += q * (test_rand(&seed) % f);
                    }
                    la[0] = a[0] + (f - 1) * q; // the top of the range (n > 1)
                    lb[0] = b[0] + (f - 1) * q;
                    lc[0] = c[0] + (f - 1) * q;
                    ok = true;
                    if (f <= 4 && (u128)f * q < (1ull << 63)) {
                        EltwiseMultMod(r.data(), la.data(), lb.data(), n, q, f);
                        for (size_t i = 0; i < n; i++)
                            ok &= r[i] == mulm(a[i], b[i], q);
                    }
                    CHECK(ok, "%s: q = %llu, n = %zu: mult, input factor %llu", tier,
                          (unsigned long long)q, n, (unsigned long long)f);
                    ok = true;
                    if (bits <= 61) {
                        const uint64_t ls = s + q * (f - 1); // a lazy scalar
                        EltwiseFMAMod(r.data(), la.data(), ls, lc.data(), n, q, f);
                        for (size_t i = 0; i < n; i++)
                            ok &= r[i] == (mulm(a[i], s, q) + c[i]) % q;
                        EltwiseFMAMod(r.data(), la.data(), ls, nullptr, n, q, f);
                        for (size_t i = 0; i < n; i++)
                            ok &= r[i] == mulm(a[i], s, q);
                    }
                    CHECK(ok, "%s: q = %llu, n = %zu: fma, input factor %llu", tier,
                          (unsigned long long)q, n, (unsigned long long)f);
                }
                // reduce: any 64-bit input (factor q) to 1 and 2; 4 -> 2; 4 -> 1;
                // 2 -> 1
                std::vector<uint64_t> big(n), lazy4(n), lazy2(n);
                for (size_t i = 0; i < n; i++) {
                    big[i] = test_rand(&seed);
                    lazy4[i] = a[i] + q * (test_rand(&seed) % 4);
                    lazy2[i] = a[i] + q * (test_rand(&seed) % 2);
                }
                big[0] = ~0ull;
                ok = true;
                // (q = 2 or 4 is also an input factor: HEXL's API cannot tell them apart)
                if (q != 2 && q != 4) {
                    EltwiseReduceMod(r.data(), big.data(), n, q, q, 1);
                    for (size_t i = 0; i < n; i++)
                        ok &= r[i] == big[i] % q;
                    EltwiseReduceMod(r.data(), big.data(), n, q, q, 2);
                    for (size_t i = 0; i < n; i++) // HEXL's portable value
                        ok &=
                            r[i] == (big[i] >= 2 * q
                                         ? big[i] - (uint64_t)(((u128)big[i] *
                                                                (uint64_t)(((u128)1 << 64) / q)) >>
                                                               64) *
                                                        q
                                         : big[i]);
                    if (bits <= 61) {
                        EltwiseReduceMod(r.data(), lazy4.data(), n, q, 4, 2);
                        for (size_t i = 0; i < n; i++)
                            ok &= r[i] == lazy4[i] % (2 * q);
                        EltwiseReduceMod(r.data(), lazy4.data(), n, q, 4, 1);
                        for (size_t i = 0; i < n; i++)
                            ok &= r[i] == a[i];
                    }
                    EltwiseReduceMod(r.data(), lazy2.data(), n, q, 2, 1);
                    for (size_t i = 0; i < n; i++)
                        ok &= r[i] == a[i];
                }
                CHECK(ok, "%s: q = %llu, n = %zu: reduce", tier, (unsigned long long)q, n);
                // compare-and-add / compare-and-subtract
                uint64_t bound = q / 2, diff = 1 + test_rand(&seed) % (q - 1);
                EltwiseCmpAdd(r.data(), a.data(), n, CMPINT::LT, bound, diff);
                ok = true;
                for (size_t i = 0; i < n; i++)
                    ok &= r[i] == (a[i] < bound ? a[i] + diff : a[i]);
                EltwiseCmpSubMod(r.data(), big.data(), n, q, CMPINT::NLE, bound, diff);
                for (size_t i = 0; i < n; i++) {
                    uint64_t x = big[i] % q;
                    ok &= r[i] == (big[i] > bound ? (x + q - diff) % q : x);
                }
                CHECK(ok, "%s: q = %llu, n = %zu: cmp-add, cmp-sub-mod", tier,
                      (unsigned long long)q, n);
            }
    cryptopim::SetEltwiseKernels("auto");
}
} // namespace

TEST(hexl_eltwise_auto)
{
    eltwise_tier("auto");
}
TEST(hexl_eltwise_ifma)
{
    eltwise_tier("ifma");
}
TEST(hexl_eltwise_avx512)
{
    eltwise_tier("avx512");
}
TEST(hexl_eltwise_avx2)
{
    eltwise_tier("avx2");
}
TEST(hexl_eltwise_portable)
{
    eltwise_tier("portable");
}

// The tier follows the backend ("cpu": portable) until one is picked; bad
// names are refused.
TEST(hexl_eltwise_choice)
{
    cryptopim::SetEltwiseKernels("auto");
    const std::string before = cryptopim::GetBackend();
    cryptopim::SetBackend("cpu");
    CHECK(cryptopim::GetEltwiseKernels() == "portable", "backend cpu: %s",
          cryptopim::GetEltwiseKernels().c_str());
    cryptopim::SetEltwiseKernels("avx2");
    bool avx2 = true;
    try {
        cryptopim::SetEltwiseKernels("avx2");
    } catch (const std::invalid_argument &) {
        avx2 = false;
    }
    if (avx2)
        CHECK(cryptopim::GetEltwiseKernels() == "avx2", "picked avx2: %s",
              cryptopim::GetEltwiseKernels().c_str());
    cryptopim::SetEltwiseKernels("auto");
    cryptopim::SetBackend("auto");
    CHECK(cryptopim::GetEltwiseKernels() != "portable" || !avx2, "backend auto: %s",
          cryptopim::GetEltwiseKernels().c_str());
    bool threw = false;
    try {
        cryptopim::SetEltwiseKernels("sse9");
    } catch (const std::invalid_argument &) {
        threw = true;
    }
    CHECK(threw, "an unknown tier is refused");
    cryptopim::SetBackend(before);
}

TEST(hexl_number_theory)
{
    bool ok = true;
    for (uint64_t n = 0; n < 20000; n++) {
        bool p = n >= 2;
        for (uint64_t d = 2; d * d <= n && p; d++)
            p = n % d != 0;
        ok &= IsPrime(n) == p;
    }
    CHECK(ok, "IsPrime against trial division below 20000");
    CHECK(IsPrime(4611686018427387847ull) && !IsPrime(4611686018427387849ull) &&
              !IsPrime(3215031751ull),
          "IsPrime: large prime, composite, strong pseudoprime to 2, 3, 5, 7");
    // the smallest primitive 2N-th root by brute force, small q
    ok = true;
    for (uint64_t q : {17ull, 97ull, 193ull, 7681ull, 12289ull})
        for (uint64_t deg : {2ull, 4ull, 8ull, 16ull}) {
            if ((q - 1) % deg)
                continue;
            uint64_t want = 0;
            for (uint64_t x = 2; x < q && !want; x++)
                if (powm(x, deg / 2, q) == q - 1)
                    want = x;
            ok &= MinimalPrimitiveRoot(deg, q) == want;
        }
    CHECK(ok, "MinimalPrimitiveRoot against brute force");
    uint64_t q = prime(60);
    CHECK(mulm(InverseMod(123456789, q), 123456789, q) == 1, "InverseMod");
    CHECK(ReverseBits(1, 10) == 512 && ReverseBits(0b1101, 4) == 0b1011, "ReverseBits");
    uint64_t y = 987654321 % q, yp = (uint64_t)(((u128)y << 64) / q);
    CHECK(MultiplyMod(~0ull, y, yp, q) == mulm(~0ull % q, y, q) &&
              MultiplyMod(~0ull, y, q) == mulm(~0ull % q, y, q),
          "MultiplyMod with and without the precomputed factor");
    auto ps = GeneratePrimes(3, 40, true, 4096);
    ok = ps.size() == 3;
    for (auto p : ps)
        ok &= IsPrime(p) && p % 8192 == 1 && Log2(p) == 40; // in [2^40, 2^41]
    CHECK(ok && ps[0] < ps[1], "GeneratePrimes, smallest first");
}

int main(int argc, char **argv)
{
    return test_main(argc, argv);
}
