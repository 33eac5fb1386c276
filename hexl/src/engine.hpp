// engine.hpp -- what an NTT object runs on, for ntt.cpp and batch.cpp
// (private to hexl/src).
#pragma once

#include <memory>
#include <vector>

#include "backend.hpp"
#include "hexl/ntt/ntt.hpp"

namespace intel
{
namespace hexl
{

// The context and the cryptopim ring an NTT object runs on.
struct NTT::Engine {
    std::shared_ptr<cryptopim::Context> ctx;
    cryptopim::Ring ring;
};

namespace cryptopim
{
struct EngineAccess {
    static NTT::Engine *Of(const NTT &ntt)
    {
        return ntt.m_engine.get();
    }
};

// Brings an operand in [0, factor * q) into [0, q) (dst may be src).
void ReduceInput(uint64_t *dst, const uint64_t *src, uint64_t n, uint64_t q, uint64_t factor);
// Throws std::invalid_argument for an input mod factor the direction does
// not take (forward 1, 2, 4; inverse 1, 2).
void CheckInputFactor(bool forward, uint64_t factor);

// Deferral (batch.cpp): true while a BatchRegion is alive on this thread.
bool Deferring();
// Queues one call of an NTT of cryptopim's range on this thread's region
// (arguments already checked).
void Defer(NTT &ntt, bool forward, uint64_t *result, const uint64_t *operand,
           uint64_t input_mod_factor);
} // namespace cryptopim

} // namespace hexl
} // namespace intel
