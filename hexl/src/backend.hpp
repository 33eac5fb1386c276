// backend.hpp -- the cryptopim contexts libhexl's NTT objects run on, their
// rings, and the one function that runs a backend call (private to
// hexl/src).
//
// A Context is one cpim_ctx with the lock that serializes its calls
// (cryptopim.h: one thread per context at a time).  CPU backends get a
// context per NTT object; the pim backend one context per process and
// PimConfig, shared by every NTT object, since each context is a whole
// UPMEM machine.  A timing-only pim context (PimConfig::timing_only) has a
// companion `auto` context that computes the results.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

struct cpim_ctx;
struct cpim_ntt;

namespace intel
{
namespace hexl
{
namespace cryptopim
{

// A ring on a context: the one the backend call runs on, and for a
// timing-only context the companion's ring that gives the results.
struct Ring {
    cpim_ntt *ring = nullptr;
    cpim_ntt *exact = nullptr;
};

struct Context {
    cpim_ctx *ctx = nullptr;
    std::shared_ptr<Context> exact; // timing-only pim: the results' context
    std::mutex lock;                // held for every call on ctx (and exact)
    std::string backend;
    ~Context();
    // The ring of degree n over the moduli (with their roots), created on
    // first use and kept with the context; the caller holds `lock`.  Throws
    // std::runtime_error when cryptopim refuses it.
    Ring Get(uint64_t n, const std::vector<uint64_t> &moduli, const std::vector<uint64_t> &roots);
    // One backend call on `ring` (from Get; caller holds `lock`): count
    // polynomials of the ring's limbs (nmoduli) in cryptopim_ntt.h's layout,
    // in [0, q) each, in may equal out.  Accumulates the statistics; throws
    // std::runtime_error naming the backend's error.
    void Run(const Ring &ring, bool forward, const uint64_t *in, uint64_t *out, size_t count,
             size_t limbs, uint64_t n);

  private:
    std::map<std::vector<uint64_t>, Ring> m_rings; // key: n, then (q, root) pairs
};

// A context for a new NTT object on the current backend (GetBackend());
// throws std::runtime_error when the backend cannot be opened.
std::shared_ptr<Context> OpenContext();
// The context batches of c's NTT objects run on: for pim c itself (the
// machine), for a CPU backend one per backend and process with every core
// (its objects' own contexts have one thread each), kept until exit.
Context *BatchContext(Context *c);

} // namespace cryptopim
} // namespace hexl
} // namespace intel
