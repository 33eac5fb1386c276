// eltwise.cpp -- hexl/eltwise/*.hpp: the element-wise functions' argument
// checks, the tier of kernels they run on (eltwise_kernels.hpp; chosen with
// the backend, hexl/cryptopim.hpp), and the compare-and-add /
// compare-and-subtract operations, which SEAL does not call (portable).
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>

#include "eltwise_kernels.hpp"
#include "hexl/cryptopim.hpp"
#include "hexl/eltwise/eltwise-add-mod.hpp"
#include "hexl/eltwise/eltwise-cmp-add.hpp"
#include "hexl/eltwise/eltwise-cmp-sub-mod.hpp"
#include "hexl/eltwise/eltwise-fma-mod.hpp"
#include "hexl/eltwise/eltwise-mult-mod.hpp"
#include "hexl/eltwise/eltwise-reduce-mod.hpp"
#include "hexl/eltwise/eltwise-sub-mod.hpp"

namespace intel
{
namespace hexl
{

namespace eltwise
{
const ModConsts &Consts(uint64_t q)
{
    thread_local ModConsts c;
    if (c.q != q) {
        c.q = q;
        c.k = 64u - static_cast<unsigned>(__builtin_clzll(q));
        c.mu62 = static_cast<uint64_t>((static_cast<u128>(1) << (c.k + 62)) / q);
        for (unsigned e = 0; e < 3; e++)
            c.mu52[e] = c.k + 2 * e <= 50
                            ? static_cast<uint64_t>((static_cast<u128>(1) << (2 * c.k + 2 * e)) / q)
                            : 0;
        c.mu50 = c.k >= 15 && c.k <= 50
                     ? static_cast<uint64_t>((static_cast<u128>(1) << (c.k + 50)) / q)
                     : 0;
        c.barrett64 = static_cast<uint64_t>((static_cast<u128>(1) << 64) / q);
    }
    return c;
}

namespace
{
// the tiers from the narrowest; each needs the CPU features of the one below
const char *const kTierNames[] = {"portable", "avx2", "avx512", "ifma"};
const int kTiers = 4;

const Kernels *TierTable(int t)
{
    switch (t) {
    case 1:
        return kAvx2;
    case 2:
        return kAvx512;
    case 3:
        return kIfma;
    default:
        return &kPortable;
    }
}

bool CpuHas(int t)
{
    if (!TierTable(t))
        return false;
#if defined(__x86_64__)
    __builtin_cpu_init();
    switch (t) {
    case 1:
        return __builtin_cpu_supports("avx2");
    case 2:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vl") && CpuHas(1);
    case 3:
        return __builtin_cpu_supports("avx512ifma") && CpuHas(2);
    default:
        return true;
    }
#else
    return t == 0;
#endif
}

// -1 for a name that is no tier; kTiers for "auto"
int TierOf(const std::string &name)
{
    if (name == "auto")
        return kTiers;
    for (int t = 0; t < kTiers; t++)
        if (name == kTierNames[t])
            return t;
    return -1;
}

std::mutex g_lock;    // guards g_forced and the choice below
std::string g_forced; // SetEltwiseKernels' tier ("" until called)
std::atomic<const Kernels *> g_kernels{nullptr};

// The widest tier at most `cap` that this CPU runs.
const Kernels *Widest(int cap)
{
    int t = cap >= kTiers ? kTiers - 1 : cap;
    while (t > 0 && !CpuHas(t))
        t--;
    return TierTable(t);
}

const Kernels *Choose()
{
    const std::string backend = cryptopim::GetBackend();
    std::lock_guard<std::mutex> g(g_lock);
    std::string want = g_forced;
    if (want.empty()) {
        const char *e = std::getenv("CRYPTOPIM_HEXL_ELTWISE");
        want = e && *e ? e : "auto";
    }
    int cap = TierOf(want);
    if (cap < 0) // an unknown name in the environment: the default
        cap = kTiers;
    if (cap == kTiers && (backend == "cpu" || backend == "cpu-table"))
        cap = 0; // the portable backends' element-wise functions are portable too
    const Kernels *k = Widest(cap);
    g_kernels.store(k, std::memory_order_release);
    return k;
}

inline const Kernels &Current()
{
    const Kernels *k = g_kernels.load(std::memory_order_acquire);
    return k ? *k : *Choose();
}
} // namespace

void ResetKernels()
{
    g_kernels.store(nullptr, std::memory_order_release);
}
} // namespace eltwise

namespace cryptopim
{
void SetEltwiseKernels(const std::string &tier)
{
    const int t = eltwise::TierOf(tier);
    if (t < 0)
        throw std::invalid_argument("element-wise kernels '" + tier +
                                    "': not one of auto, ifma, avx512, avx2, portable");
    if (t < eltwise::kTiers && !eltwise::CpuHas(t))
        throw std::invalid_argument("element-wise kernels '" + tier + "': this CPU lacks them");
    {
        std::lock_guard<std::mutex> g(eltwise::g_lock);
        eltwise::g_forced = tier;
    }
    eltwise::ResetKernels();
}

std::string GetEltwiseKernels()
{
    return eltwise::Current().name;
}
} // namespace cryptopim

namespace
{
using eltwise::u128;

void need(bool ok, const char *what)
{
    if (!ok)
        throw std::invalid_argument(what);
}

bool compare(CMPINT cmp, uint64_t lhs, uint64_t rhs)
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
} // namespace

void EltwiseAddMod(uint64_t *result, const uint64_t *operand1, const uint64_t *operand2, uint64_t n,
                   uint64_t modulus)
{
    need(modulus > 1 && modulus < (1ull << 63), "EltwiseAddMod: modulus must be in (1, 2^63)");
    if (n)
        eltwise::Current().add(result, operand1, operand2, n, modulus);
}

void EltwiseAddMod(uint64_t *result, const uint64_t *operand1, uint64_t operand2, uint64_t n,
                   uint64_t modulus)
{
    need(modulus > 1 && modulus < (1ull << 63), "EltwiseAddMod: modulus must be in (1, 2^63)");
    if (n)
        eltwise::Current().add_scalar(result, operand1, operand2, n, modulus);
}

void EltwiseSubMod(uint64_t *result, const uint64_t *operand1, const uint64_t *operand2, uint64_t n,
                   uint64_t modulus)
{
    need(modulus > 1 && modulus < (1ull << 63), "EltwiseSubMod: modulus must be in (1, 2^63)");
    if (n)
        eltwise::Current().sub(result, operand1, operand2, n, modulus);
}

void EltwiseSubMod(uint64_t *result, const uint64_t *operand1, uint64_t operand2, uint64_t n,
                   uint64_t modulus)
{
    need(modulus > 1 && modulus < (1ull << 63), "EltwiseSubMod: modulus must be in (1, 2^63)");
    if (n)
        eltwise::Current().sub_scalar(result, operand1, operand2, n, modulus);
}

void EltwiseMultMod(uint64_t *result, const uint64_t *operand1, const uint64_t *operand2,
                    uint64_t n, uint64_t modulus, uint64_t input_mod_factor)
{
    need(modulus > 1 && modulus < (1ull << 62), "EltwiseMultMod: modulus must be in (1, 2^62)");
    need(input_mod_factor == 1 || input_mod_factor == 2 || input_mod_factor == 4,
         "EltwiseMultMod: input_mod_factor must be 1, 2 or 4");
    if (n)
        eltwise::Current().mult(result, operand1, operand2, n, eltwise::Consts(modulus),
                                input_mod_factor);
}

void EltwiseFMAMod(uint64_t *result, const uint64_t *arg1, uint64_t arg2, const uint64_t *arg3,
                   uint64_t n, uint64_t modulus, uint64_t input_mod_factor)
{
    need(modulus > 1 && modulus < (1ull << 61), "EltwiseFMAMod: modulus must be in (1, 2^61)");
    need(input_mod_factor == 1 || input_mod_factor == 2 || input_mod_factor == 4 ||
             input_mod_factor == 8,
         "EltwiseFMAMod: input_mod_factor must be 1, 2, 4 or 8");
    if (n)
        eltwise::Current().fma(result, arg1, eltwise::Down(arg2, modulus, input_mod_factor), arg3,
                               n, eltwise::Consts(modulus), input_mod_factor);
}

void EltwiseReduceMod(uint64_t *result, const uint64_t *operand, uint64_t n, uint64_t modulus,
                      uint64_t input_mod_factor, uint64_t output_mod_factor)
{
    need(modulus > 1, "EltwiseReduceMod: modulus must be > 1");
    need(input_mod_factor == modulus || input_mod_factor == 1 || input_mod_factor == 2 ||
             input_mod_factor == 4,
         "EltwiseReduceMod: input_mod_factor must be modulus, 1, 2 or 4");
    need(output_mod_factor == 1 || output_mod_factor == 2,
         "EltwiseReduceMod: output_mod_factor must be 1 or 2");
    if (input_mod_factor == output_mod_factor) {
        if (result != operand)
            for (uint64_t i = 0; i < n; i++)
                result[i] = operand[i];
        return;
    }
    if (n)
        eltwise::Current().reduce(result, operand, n, eltwise::Consts(modulus), input_mod_factor,
                                  output_mod_factor);
}

void EltwiseCmpAdd(uint64_t *result, const uint64_t *operand1, uint64_t n, CMPINT cmp,
                   uint64_t bound, uint64_t diff)
{
    need(diff != 0, "EltwiseCmpAdd: diff must be non-zero");
    for (uint64_t i = 0; i < n; i++)
        result[i] = compare(cmp, operand1[i], bound) ? operand1[i] + diff : operand1[i];
}

void EltwiseCmpSubMod(uint64_t *result, const uint64_t *operand1, uint64_t n, uint64_t modulus,
                      CMPINT cmp, uint64_t bound, uint64_t diff)
{
    need(modulus > 1, "EltwiseCmpSubMod: modulus must be > 1");
    need(diff != 0 && diff < modulus, "EltwiseCmpSubMod: diff must be in [1, modulus)");
    for (uint64_t i = 0; i < n; i++) {
        uint64_t x = operand1[i];
        bool hit = compare(cmp, x, bound);
        x %= modulus;
        if (hit)
            x = x >= diff ? x - diff : x + (modulus - diff);
        result[i] = x;
    }
}

} // namespace hexl
} // namespace intel
