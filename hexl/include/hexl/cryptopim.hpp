// hexl/cryptopim.hpp -- where cryptopim's HEXL-compatible library runs the
// NTT, what the DPUs' NTTs cost, and NTTs in batches (extensions of HEXL's
// API; HEXL itself has none of these).
//
// The backend is one of cryptopim's (`cryptopim list`): "auto" (default:
// the AVX-512 / IFMA / AVX2 kernels where the CPU has them, else portable
// C), "cpu" (portable C), "pim" (UPMEM DPUs, or the virtual UPMEM), ...
// The environment variable CRYPTOPIM_HEXL_BACKEND sets it for a process
// that does not call SetBackend.  It applies to NTT objects constructed
// after the call; objects already built keep theirs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace intel
{
namespace hexl
{
class NTT;

namespace cryptopim
{

// Throws std::invalid_argument for a name that is not a backend.
void SetBackend(const std::string &name);
// The backend new NTT objects will use.
std::string GetBackend();

// ---- the element-wise functions' kernels ----------------------------------
//
// EltwiseAddMod, EltwiseSubMod, EltwiseMultMod, EltwiseFMAMod and
// EltwiseReduceMod run on the host CPU whatever the backend: on portable
// C++ with the backends "cpu" and "cpu-table", otherwise on the widest of
// these tiers the CPU has: "ifma" (AVX-512 IFMA52 products for moduli below
// 2^50, the "avx512" kernels above), "avx512" (AVX-512 F/DQ/VL, 8 64-bit
// lanes), "avx2" (4 lanes), "portable".  Every tier gives the same values
// (HEXL's).  SetEltwiseKernels picks a tier for every backend ("auto": the
// choice above again), for example to compare or test the narrower tiers
// on a wide machine; it throws std::invalid_argument for a name that is no
// tier or a tier this CPU lacks.  The environment variable
// CRYPTOPIM_HEXL_ELTWISE does the same for a process that does not call
// it (a tier the CPU lacks then means the widest one below it).  Takes
// effect at once, for every thread.
void SetEltwiseKernels(const std::string &tier);
// The tier the element-wise functions run on now.
std::string GetEltwiseKernels();

// ---- the pim backend's machine ------------------------------------------
//
// The DPUs the pim backend's NTT objects run on.  One pim context (one
// UPMEM allocation) is shared by all NTT objects built while the same
// configuration holds; SetPimConfig applies to NTT objects constructed
// after it (objects already built keep their machine).
struct PimConfig {
    unsigned ranks = 1;       // ranks to allocate (0 = every rank of the machine)
    std::string mode = "";    // host mode: "sync" (default), "async-xfer", "async-exec"
    std::string profile = ""; // UPMEM profile string (virtual UPMEM: machine=...,
                              // hostClock=...), empty = the default machine
    // A model study: every NTT's result is computed by the `cpu` backend
    // (so it is exact), and the same call is also run timing-only on the
    // DPUs (cryptopim.h's cpim_options.timing_only: one DPU per rank is
    // simulated, the others charged its cycles) for the modeled clock
    // only.  For modeling SEAL's operations at sizes whose full simulation
    // takes too long; the statistics below then hold the DPUs' modeled time
    // of calls whose results came from the CPU.
    bool timing_only = false;
};
// Throws std::invalid_argument when no pim context opens with it (bad
// mode or profile, no DPUs).
void SetPimConfig(const PimConfig &config);
PimConfig GetPimConfig();

// ---- statistics -----------------------------------------------------------
//
// Accumulated over every backend call this library made since the last
// ResetStats (all threads, all objects): the pim backend's calls and every
// batch (ComputeForwardBatch, BatchRegion).  A single ComputeForward /
// ComputeInverse on a CPU backend is not a backend call (it runs the
// kernels directly, unlocked, and is not counted: timing it would cost a
// good part of a small transform).  modeled_s is the virtual
// UPMEM's clock (what the real DPUs would take, never a measurement), summed
// over the pim calls' cpim_last_stats totals; measured_s is wall time on
// this machine inside the backend calls (every backend; on a timing-only
// pim machine, inside the CPU calls that computed the results, not the
// simulation's).
struct Stats {
    uint64_t calls = 0; // backend calls (a batch of one ring is one call)
    uint64_t ntts = 0;  // polynomial limbs transformed
    double measured_s = 0;
    double modeled_s = 0; // 0 when no call ran on the virtual UPMEM
    double modeled_cpu_dpu_s = 0, modeled_kernel_s = 0, modeled_dpu_cpu_s = 0;
};
Stats GetStats();
void ResetStats();

// ---- batches ----------------------------------------------------------------
//
// One NTT of a batch: what NTT::ComputeForward / ComputeInverse take.
struct BatchItem {
    NTT *ntt;                      // the ring (N, q, root) of this item
    uint64_t *result;              // N words out (may equal operand)
    const uint64_t *operand;       // N words in, in [0, input_mod_factor * q)
    uint64_t input_mod_factor = 1; // as ComputeForward / ComputeInverse allow
};

// ComputeForwardBatch / ComputeInverseBatch: the transforms of every item,
// with the results NTT::ComputeForward / ComputeInverse give (fully reduced,
// so any output mod factor holds), as few backend calls as possible: items
// of one degree whose NTT objects run on the same cryptopim context are
// gathered into one batch of an RNS ring over their moduli
// (cryptopim_ntt.h's layout, count > 1) -- on pim one DPU batch spread over
// the allocated ranks and DPUs instead of one round trip per item.  When
// the moduli have unequal numbers of items, the batch is cut into layers
// (every modulus with items left contributes one per polynomial of a layer)
// and each layer is one call.  Operands are read whole before
// any result is written, so results may overlap operands only exactly
// (result == operand of the same item).
//
// Errors: as the single calls (std::invalid_argument for a null NTT or
// pointer or a bad mod factor, before anything runs; std::runtime_error
// naming the backend's error); after a runtime_error no result of the
// batch is valid.  A timing-only pim context (PimConfig::timing_only)
// computes results on the CPU as a single call does.
void ComputeForwardBatch(const std::vector<BatchItem> &items);
void ComputeInverseBatch(const std::vector<BatchItem> &items);

// A deferral region for callers that cannot pass a batch themselves (e.g.
// SEAL's Evaluator::transform_to_ntt_inplace over many ciphertexts, one
// ComputeForward per RNS limb).  While a BatchRegion is alive on a thread,
// that thread's ComputeForward / ComputeInverse calls are queued, not run: they return at once and
// their results are NOT written yet.  Flush() (and the end of the region) runs the queued forward
// NTTs as one ComputeForwardBatch and the inverse NTTs as one ComputeInverseBatch, in the order of
// their first queued call of each direction; afterwards every queued result is what the single
// calls would have written.
//
// The contract for code inside a region:
//  - do not read a queued result, and do not write or free a queued
//    operand or result, before Flush() or the region's end;
//  - a queued call whose operand overlaps an earlier queued call's result
//    (a transform of a transform's output, e.g. forward then inverse in
//    place) first flushes the queue, so chains of NTTs stay correct; other
//    reads of queued results (SEAL's element-wise arithmetic right after an
//    NTT, e.g. inside Evaluator::multiply) are not detected and would read
//    stale data: such code cannot run inside a region;
//  - the queue belongs to the thread that created the region; other
//    threads' calls run at once.  Regions nest (the outermost one flushes).
// Where it applies in SEAL 4.4.3: Evaluator::transform_to_ntt_inplace and
// transform_from_ntt_inplace (and Plaintext / Ciphertext NTT conversions)
// of many objects, which only transform.
//
// Errors of the queued calls are thrown by Flush(), or by the destructor
// when the region ends normally; when the region is left by an exception,
// the queue is dropped (results not written) and nothing more is thrown.
class BatchRegion
{
  public:
    BatchRegion();
    ~BatchRegion() noexcept(false);
    BatchRegion(const BatchRegion &) = delete;
    BatchRegion &operator=(const BatchRegion &) = delete;
    // Runs everything queued so far on this thread.
    void Flush();
    // Calls queued and not yet run on this thread.
    static size_t Pending();

  private:
    int m_uncaught;
};

} // namespace cryptopim
} // namespace hexl
} // namespace intel
