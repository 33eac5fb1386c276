// ntt.cpp -- hexl/ntt/ntt.hpp on cryptopim_ntt.h.
//
// Every ring (HEXL's range, 2 <= N <= 2^20) is a cpim_ntt created with the
// caller's root (cpim_ntt_create_roots), so its transform is HEXL's to the
// bit: the same definition (evaluations at w^(2i+1) in bit-reversed order)
// with the same w.  On the CPU backends a call is cryptopim's one-limb
// path (cpim_ntt_forward_limb), which takes HEXL's mod factors as they are
// (inputs in [0, 4q) / [0, 2q), lazy outputs in [0, 4q) / [0, 2q)); on pim
// inputs above q are reduced first (its batch calls take [0, q) only) and
// every output is fully reduced.
#include "hexl/ntt/ntt.hpp"

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "cryptopim.h"
#include "cryptopim_ntt.h"
#include "engine.hpp"
#include "hexl/number-theory/number-theory.hpp"

namespace intel
{
namespace hexl
{

namespace
{
using u128 = unsigned __int128;

uint64_t mulmod(uint64_t a, uint64_t b, uint64_t q)
{
    return static_cast<uint64_t>(static_cast<u128>(a) * b % q);
}

void check_factor(const char *what, uint64_t f, uint64_t a, uint64_t b, uint64_t c = 0)
{
    if (f != a && f != b && (c == 0 || f != c))
        throw std::invalid_argument(std::string("NTT: ") + what + " " + std::to_string(f) +
                                    " is not allowed");
}
} // namespace

void cryptopim::ReduceInput(uint64_t *dst, const uint64_t *src, uint64_t n, uint64_t q,
                            uint64_t factor)
{
    for (uint64_t i = 0; i < n; i++) {
        uint64_t x = src[i];
        if (factor >= 4 && x >= 2 * q)
            x -= 2 * q;
        if (x >= q)
            x -= q;
        dst[i] = x;
    }
}

void cryptopim::CheckInputFactor(bool forward, uint64_t f)
{
    if (forward)
        check_factor("forward input_mod_factor", f, 1, 2, 4);
    else
        check_factor("inverse input_mod_factor", f, 1, 2);
}

NTT::~NTT() = default;

bool NTT::CheckArguments(uint64_t degree, uint64_t modulus)
{
    return IsPowerOfTwo(degree) && degree >= 2 && degree <= (1ull << MaxDegreeBits()) &&
           modulus < (1ull << MaxModulusBits()) && modulus % (2 * degree) == 1 && IsPrime(modulus);
}

NTT::NTT(uint64_t degree, uint64_t q, std::shared_ptr<AllocatorBase> alloc_ptr)
    : NTT(degree, q, CheckArguments(degree, q) ? MinimalPrimitiveRoot(2 * degree, q) : 0,
          std::move(alloc_ptr))
{
}

NTT::NTT(uint64_t degree, uint64_t q, uint64_t root_of_unity,
         std::shared_ptr<AllocatorBase> alloc_ptr)
    : m_degree(degree), m_q(q), m_w(root_of_unity), m_alloc(std::move(alloc_ptr))
{
    if (!CheckArguments(degree, q))
        throw std::invalid_argument("NTT: degree " + std::to_string(degree) + " and modulus " +
                                    std::to_string(q) +
                                    " are not a ring (N a power of two in [2, 2^20], q a prime "
                                    "below 2^62 with q = 1 mod 2N)");
    if (!IsPrimitiveRoot(root_of_unity, 2 * degree, q))
        throw std::invalid_argument("NTT: " + std::to_string(root_of_unity) +
                                    " is not a primitive " + std::to_string(2 * degree) +
                                    "-th root of unity mod " + std::to_string(q));
    m_degree_bits = Log2(degree);
    m_w_inv = InverseMod(m_w, q);

    // the tables of the API's getters, in the caller's allocator as HEXL
    // keeps them
    const AlignedAllocator<uint64_t, 64> al(m_alloc);
    m_root_of_unity_powers = AlignedVector64<uint64_t>(degree, 0, al);
    AlignedVector64<uint64_t> inv(degree, 0);
    m_root_of_unity_powers[0] = 1;
    inv[0] = 1;
    uint64_t prev = 0;
    for (uint64_t i = 1; i < degree; i++) {
        uint64_t idx = ReverseBits(i, m_degree_bits);
        m_root_of_unity_powers[idx] = mulmod(m_root_of_unity_powers[prev], m_w, q);
        inv[idx] = InverseMod(m_root_of_unity_powers[idx], q);
        prev = idx;
    }
    // HEXL's inverse order: index 0, then N/2..N-1, N/4..N/2-1, ..., 1
    m_inv_root_of_unity_powers = AlignedVector64<uint64_t>(degree, 0, al);
    m_inv_root_of_unity_powers[0] = inv[0];
    uint64_t at = 1;
    for (uint64_t m = degree >> 1; m > 0; m >>= 1)
        for (uint64_t i = 0; i < m; i++)
            m_inv_root_of_unity_powers[at++] = inv[m + i];
    m_precon64_root_of_unity_powers = AlignedVector64<uint64_t>(degree, 0, al);
    m_precon64_inv_root_of_unity_powers = AlignedVector64<uint64_t>(degree, 0, al);
    for (uint64_t i = 0; i < degree; i++) {
        m_precon64_root_of_unity_powers[i] =
            MultiplyFactor(m_root_of_unity_powers[i], 64, q).BarrettFactor();
        m_precon64_inv_root_of_unity_powers[i] =
            MultiplyFactor(m_inv_root_of_unity_powers[i], 64, q).BarrettFactor();
    }

    m_engine = std::make_shared<Engine>();
    m_engine->ctx = cryptopim::OpenContext();
    std::lock_guard<std::mutex> g(m_engine->ctx->lock);
    m_engine->ring = m_engine->ctx->Get(degree, {m_q}, {m_w});
}

// Both directions: deferred (inside a BatchRegion); else on a CPU backend
// cryptopim's one-limb path (the kernels on the caller's buffer, with
// HEXL's input and output ranges: no lock, no copy, no scan of the inputs,
// whose range HEXL's contract promises and HEXL trusts too); else (pim) the
// input reduced into result when its factor allows more than q, then
// transformed there by a backend call.
static void run_cryptopim(NTT &ntt, cryptopim::Context *ctx, const cryptopim::Ring &ring,
                          bool forward, uint64_t *result, const uint64_t *src,
                          uint64_t input_mod_factor, uint64_t output_mod_factor)
{
    if (cryptopim::Deferring()) {
        cryptopim::Defer(ntt, forward, result, src, input_mod_factor);
        return;
    }
    const auto in_f = static_cast<unsigned>(input_mod_factor);
    const auto out_f = static_cast<unsigned>(output_mod_factor);
    cpim_err rc = forward ? cpim_ntt_forward_limb(ring.ring, 0, src, result, in_f, out_f)
                          : cpim_ntt_inverse_limb(ring.ring, 0, src, result, in_f, out_f);
    if (rc == CPIM_OK)
        return;
    if (rc != CPIM_ERR_UNSUPPORTED)
        throw std::runtime_error(std::string(forward ? "NTT forward" : "NTT inverse") + " on " +
                                 ctx->backend + ": " + cpim_strerror(rc));
    const uint64_t n = ntt.GetDegree(), q = ntt.GetModulus();
    if (input_mod_factor > 1) {
        cryptopim::ReduceInput(result, src, n, q, input_mod_factor);
        src = result;
    }
    std::lock_guard<std::mutex> g(ctx->lock);
    ctx->Run(ring, forward, src, result, 1, 1, n);
}

void NTT::ComputeForward(uint64_t *result, const uint64_t *operand, uint64_t input_mod_factor,
                         uint64_t output_mod_factor)
{
    if (!m_engine)
        throw std::logic_error("NTT: a default-constructed or moved-from object");
    cryptopim::CheckInputFactor(true, input_mod_factor);
    check_factor("forward output_mod_factor", output_mod_factor, 1, 4);
    run_cryptopim(*this, m_engine->ctx.get(), m_engine->ring, true, result, operand,
                  input_mod_factor, output_mod_factor);
}

void NTT::ComputeInverse(uint64_t *result, const uint64_t *operand, uint64_t input_mod_factor,
                         uint64_t output_mod_factor)
{
    if (!m_engine)
        throw std::logic_error("NTT: a default-constructed or moved-from object");
    cryptopim::CheckInputFactor(false, input_mod_factor);
    check_factor("inverse output_mod_factor", output_mod_factor, 1, 2);
    run_cryptopim(*this, m_engine->ctx.get(), m_engine->ring, false, result, operand,
                  input_mod_factor, output_mod_factor);
}

} // namespace hexl
} // namespace intel
