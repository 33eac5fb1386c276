// bench/seal_pim.cpp -- Microsoft SEAL's operations on libhexl's pim
// backend (modeled) beside SEAL on one CPU core with `auto` (measured):
//
//   seal-pim ops BACKEND [MACHINE [NMAX]]
//     per SEAL operation (one NTT of one limb, BFV multiply+relinearize,
//     CKKS multiply, CKKS multiply+relinearize) at N = 4096..NMAX (default
//     32768; above it the NTT only), SEAL's default BFV base for N:
//     BACKEND auto: the operation's
//     wall time and CPU time on this core (medians, measured) and the time
//     spent in libhexl's NTT calls; BACKEND
//     pim: the DPUs' modeled time of the operation's NTTs, SEAL calling them
//     one at a time, on the virtual UPMEM machine MACHINE (a preset name,
//     "default" for the profile's defaults), the whole machine allocated,
//     timing-only (libhexl's PimConfig::timing_only: results from the CPU,
//     one DPU per rank simulated), hostClock=thread as cryptopim's
//     experiments use.
//   seal-pim dramatic MACHINE RANKS
//     DRAMatic's workload: the forward NTTs of 32,768 ciphertexts at N =
//     4096 (2 polynomials x L limbs each) through libhexl's batch entry
//     point (cryptopim::ComputeForwardBatch) on MACHINE's first RANKS ranks,
//     async-xfer, timing-only with DPU sampling, for L = 3 word primes
//     (DRAMatic's three moduli) and SEAL's default base at N = 4096 (two
//     36-bit limbs at the ciphertexts' level: the double-word program); in
//     batches of 2,048 ciphertexts (16 calls, summed: the whole workload's
//     6 GiB would not fit this machine's memory twice).  Also the same NTTs
//     one call each (SEAL's way), modeled for 256 of them and scaled.
//   seal-pim dramatic-cpu
//     the same workload on SEAL with `auto` on this core: Evaluator::
//     transform_to_ntt_inplace of SAMPLE ciphertexts measured, scaled to
//     32,768 (the arithmetic in the row's note).
//
// Output (every mode): CSV with the header experiment,op,n,limbs,count,
// backend,machine,ranks,ntts,calls,clock,seconds,note -- `clock` says which
// clock `seconds` is on; ranks 0 = every rank of the machine.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "hexl/hexl.hpp"
#include "seal/seal.h"

using namespace seal;
namespace cp = intel::hexl::cryptopim;

namespace
{
using clk = std::chrono::steady_clock;

double since(clk::time_point t0)
{
    return std::chrono::duration<double>(clk::now() - t0).count();
}

void header()
{
    std::printf(
        "experiment,op,n,limbs,count,backend,machine,ranks,ntts,calls,clock,seconds,note\n");
}

void row(const char *exp, const std::string &op, size_t n, size_t limbs, uint64_t count,
         const std::string &backend, const std::string &machine, unsigned ranks, uint64_t ntts,
         uint64_t calls, const char *clock, double s, const std::string &note)
{
    std::printf("%s,%s,%zu,%zu,%llu,%s,%s,%u,%llu,%llu,%s,%.9g,\"%s\"\n", exp, op.c_str(), n, limbs,
                (unsigned long long)count, backend.c_str(), machine.c_str(), ranks,
                (unsigned long long)ntts, (unsigned long long)calls, clock, s, note.c_str());
    std::fflush(stdout);
}

std::string profile(const std::string &machine, const std::string &clock)
{
    std::string p = "hostClock=" + clock;
    if (machine != "default")
        p = "machine=" + machine + "," + p;
    return p;
}

// ---- ops --------------------------------------------------------------------------

struct Setup {
    std::unique_ptr<SEALContext> ctx;
    std::unique_ptr<KeyGenerator> keygen;
    RelinKeys rk;
    std::unique_ptr<Evaluator> ev;
    Ciphertext a, b;
};

Setup setup(scheme_type scheme, size_t n)
{
    EncryptionParameters parms(scheme);
    parms.set_poly_modulus_degree(n);
    parms.set_coeff_modulus(CoeffModulus::BFVDefault(n));
    if (scheme == scheme_type::bfv)
        parms.set_plain_modulus(PlainModulus::Batching(n, 20));
    Setup s;
    s.ctx = std::make_unique<SEALContext>(parms);
    s.keygen = std::make_unique<KeyGenerator>(*s.ctx);
    PublicKey pk;
    s.keygen->create_public_key(pk);
    s.keygen->create_relin_keys(s.rk);
    s.ev = std::make_unique<Evaluator>(*s.ctx);
    Encryptor enc(*s.ctx, pk);
    Plaintext p;
    if (scheme == scheme_type::bfv) {
        BatchEncoder be(*s.ctx);
        be.encode(std::vector<uint64_t>(n, 3), p);
    } else {
        CKKSEncoder ce(*s.ctx);
        ce.encode(std::vector<double>(n / 2, 0.5), std::pow(2.0, 20), p);
    }
    enc.encrypt(p, s.a);
    enc.encrypt(p, s.b);
    return s;
}

double thread_cpu()
{
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Runs op once to warm up (tables, caches), then `runs` times; reports
// medians over the runs (auto: wall time, this thread's CPU time, the time
// inside libhexl's NTT calls; pim: the modeled time of the NTTs, which is
// the same every run).
void measure(const std::string &op, size_t n, size_t limbs, const std::string &backend,
             const std::string &machine, int runs, const std::function<void()> &fn)
{
    fn();
    std::vector<double> wall, cpu, ntt;
    cp::Stats st;
    for (int r = 0; r < runs; r++) {
        cp::ResetStats();
        const double c0 = thread_cpu();
        auto t0 = clk::now();
        fn();
        wall.push_back(since(t0));
        cpu.push_back(thread_cpu() - c0);
        st = cp::GetStats();
        ntt.push_back(st.measured_s);
    }
    const std::string med = "median of " + std::to_string(runs);
    if (backend == "pim") {
        row("ops", op, n, limbs, 1, backend, machine, 1, st.ntts, st.calls, "modeled", st.modeled_s,
            "the operation's NTTs on the DPUs, one call each");
        row("ops", op + "-kernel", n, limbs, 1, backend, machine, 1, st.ntts, st.calls, "modeled",
            st.modeled_kernel_s, "the DPU kernel part of the row above");
    } else {
        row("ops", op, n, limbs, 1, backend, "host", 0, st.ntts, st.calls, "measured", median(wall),
            "whole operation, one core, wall time, " + med);
        row("ops", op + "-cpu-time", n, limbs, 1, backend, "host", 0, st.ntts, st.calls, "measured",
            median(cpu), "whole operation, this thread's CPU time, " + med);
        row("ops", op + "-ntt-part", n, limbs, 1, backend, "host", 0, st.ntts, st.calls, "measured",
            median(ntt), "wall time inside libhexl's NTT calls, " + med);
    }
}

int ops(const std::string &backend, const std::string &machine, size_t nmax)
{
    cp::SetBackend(backend);
    if (backend == "pim") {
        cp::PimConfig c;
        c.ranks = 1; // one NTT at a time runs on one DPU: one rank
        c.profile = profile(machine, "thread");
        c.timing_only = true;
        cp::SetPimConfig(c);
    }
    header();
    const int runs = backend == "pim" ? 1 : 5;
    for (size_t n : {4096u, 8192u, 16384u, 32768u}) {
        const auto base = CoeffModulus::BFVDefault(n);
        const size_t L = base.size() - 1; // the ciphertexts' level
        {
            intel::hexl::NTT ntt(n, base[0].value());
            std::vector<uint64_t> x(n, 1), y(n);
            measure("ntt-forward-limb", n, 1, backend, machine, backend == "pim" ? 1 : 101,
                    [&] { ntt.ComputeForward(y.data(), x.data(), 1, 1); });
        }
        if (n > nmax) // the operations' simulation would take too long here
            continue;
        {
            Setup s = setup(scheme_type::bfv, n);
            measure("bfv-multiply-relinearize", n, L, backend, machine, runs, [&] {
                Ciphertext c;
                s.ev->multiply(s.a, s.b, c);
                s.ev->relinearize_inplace(c, s.rk);
            });
        }
        {
            Setup s = setup(scheme_type::ckks, n);
            // CKKS ciphertexts stay in the NTT domain: the product itself
            // runs no NTT, relinearization (key switching) does
            measure("ckks-multiply", n, L, backend, machine, runs, [&] {
                Ciphertext c;
                s.ev->multiply(s.a, s.b, c);
            });
            measure("ckks-multiply-relinearize", n, L, backend, machine, runs, [&] {
                Ciphertext c;
                s.ev->multiply(s.a, s.b, c);
                s.ev->relinearize_inplace(c, s.rk);
            });
        }
    }
    return 0;
}

// ---- DRAMatic's workload --------------------------------------------------------------

constexpr uint64_t kCiphertexts = 32768, kChunk = 2048;
constexpr size_t kN = 4096;

// L word primes below 2^30, q = 1 mod 2N.
std::vector<uint64_t> word_primes(size_t L)
{
    return intel::hexl::GeneratePrimes(L, 30, true, kN);
}

int dramatic(const std::string &machine, unsigned ranks)
{
    header();
    struct Base {
        const char *name;
        std::vector<uint64_t> q;
    };
    std::vector<uint64_t> seal_q;
    for (size_t j = 0; j + 1 < CoeffModulus::BFVDefault(kN).size(); j++)
        seal_q.push_back(CoeffModulus::BFVDefault(kN)[j].value());
    const Base bases[] = {{"3 word primes (30-bit)", word_primes(3)},
                          {"SEAL's BFV default (2 x 36-bit)", seal_q}};
    cp::SetBackend("pim");
    cp::PimConfig c;
    c.ranks = ranks;
    c.mode = "async-xfer";
    // one executor rank (sampleRanks=1): every rank runs the same launches,
    // and rank 0's DPU 0 has the most NTTs of every launch
    c.profile = profile(machine, "thread") + ",sampleRanks=1";
    c.timing_only = true;
    cp::SetPimConfig(c);
    for (const Base &b : bases) {
        const size_t L = b.q.size();
        std::vector<std::unique_ptr<intel::hexl::NTT>> ntts;
        for (uint64_t q : b.q)
            ntts.push_back(std::make_unique<intel::hexl::NTT>(kN, q));
        // one chunk of ciphertexts: 2 polynomials x L limbs each, in place
        const size_t items = kChunk * 2 * L;
        std::vector<uint64_t> data(items * kN);
        uint64_t seed = 1;
        for (size_t i = 0; i < items; i++)
            for (size_t k = 0; k < kN; k++) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                data[i * kN + k] = (seed >> 20) % b.q[i % L];
            }
        std::vector<cp::BatchItem> batch;
        for (size_t i = 0; i < items; i++)
            batch.push_back({ntts[i % L].get(), &data[i * kN], &data[i * kN], 1});
        cp::ResetStats();
        for (uint64_t done = 0; done < kCiphertexts; done += kChunk)
            cp::ComputeForwardBatch(batch); // same work per chunk; data stays < q
        cp::Stats st = cp::GetStats();
        const uint64_t total = kCiphertexts * 2 * L;
        const std::string note = std::string(b.name) + "; " +
                                 std::to_string(kCiphertexts / kChunk) + " batches of " +
                                 std::to_string(kChunk) + " ciphertexts";
        row("dramatic", "forward-batched", kN, L, kCiphertexts, "pim", machine, ranks, st.ntts,
            st.calls, "modeled", st.modeled_s, note);
        row("dramatic", "forward-batched-kernel", kN, L, kCiphertexts, "pim", machine, ranks,
            st.ntts, st.calls, "modeled", st.modeled_kernel_s, note + "; DPU kernel part");
        // SEAL's way: one call per NTT; 256 modeled, scaled to the workload
        const size_t sample = 256;
        cp::ResetStats();
        for (size_t i = 0; i < sample; i++)
            batch[i].ntt->ComputeForward(batch[i].result, batch[i].operand, 1, 1);
        st = cp::GetStats();
        row("dramatic", "forward-one-at-a-time", kN, L, kCiphertexts, "pim", machine, ranks, total,
            total, "modeled", st.modeled_s / sample * total,
            std::string(b.name) + "; " + std::to_string(sample) + " single calls modeled (" +
                std::to_string(st.modeled_s) + " s) x " + std::to_string(total) + " / " +
                std::to_string(sample));
    }
    return 0;
}

int dramatic_cpu(size_t sample)
{
    header();
    cp::SetBackend("auto");
    for (int seal_base = 0; seal_base < 2; seal_base++) {
        EncryptionParameters parms(scheme_type::bfv);
        parms.set_poly_modulus_degree(kN);
        if (seal_base) {
            parms.set_coeff_modulus(CoeffModulus::BFVDefault(kN));
        } else { // 3 data limbs of 30 bits, and a special prime
            auto q = word_primes(4);
            parms.set_coeff_modulus({Modulus(q[0]), Modulus(q[1]), Modulus(q[2]), Modulus(q[3])});
        }
        parms.set_plain_modulus(PlainModulus::Batching(kN, 20));
        SEALContext ctx(parms, true, sec_level_type::none);
        KeyGenerator kg(ctx);
        PublicKey pk;
        kg.create_public_key(pk);
        Encryptor enc(ctx, pk);
        Evaluator ev(ctx);
        Plaintext p(std::string("1x^3 + 2"));
        std::vector<Ciphertext> cts(sample);
        for (auto &ct : cts)
            enc.encrypt(p, ct);
        ev.transform_to_ntt_inplace(cts[0]); // warm-up (NTT objects, pool)
        const double c0 = thread_cpu();
        auto t0 = clk::now();
        for (size_t i = 1; i < sample; i++)
            ev.transform_to_ntt_inplace(cts[i]);
        const double wall = since(t0), cpu = thread_cpu() - c0;
        const size_t L = ctx.first_context_data()->parms().coeff_modulus().size();
        const char *name = seal_base ? "SEAL's BFV default (2 x 36-bit)" : "3 word primes (30-bit)";
        const std::string k = std::to_string(sample - 1);
        row("dramatic", "forward-seal-cpu", kN, L, kCiphertexts, "auto", "host", 0,
            kCiphertexts * 2 * L, kCiphertexts * 2 * L, "measured",
            wall / (sample - 1) * kCiphertexts,
            std::string(name) + "; transform_to_ntt_inplace of " + k + " ciphertexts in " +
                std::to_string(wall) + " s wall, x 32768 / " + k + " (one core)");
        row("dramatic", "forward-seal-cpu-time", kN, L, kCiphertexts, "auto", "host", 0,
            kCiphertexts * 2 * L, kCiphertexts * 2 * L, "measured",
            cpu / (sample - 1) * kCiphertexts,
            std::string(name) + "; the same on the thread's CPU clock: " + std::to_string(cpu) +
                " s, x 32768 / " + k);
    }
    return 0;
}
} // namespace

int main(int argc, char **argv)
{
    try {
        const std::string mode = argc > 1 ? argv[1] : "";
        if (mode == "ops" && argc >= 3)
            return ops(argv[2], argc > 3 ? argv[3] : "default",
                       argc > 4 ? std::strtoul(argv[4], nullptr, 10) : 32768);
        if (mode == "dramatic" && argc == 4)
            return dramatic(argv[2], (unsigned)std::strtoul(argv[3], nullptr, 10));
        if (mode == "dramatic-cpu")
            return dramatic_cpu(argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 1025);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "seal-pim: %s\n", e.what());
        return 1;
    }
    std::fprintf(stderr, "usage: seal-pim ops auto|pim [MACHINE] | dramatic MACHINE RANKS | "
                         "dramatic-cpu [SAMPLE]\n");
    return 2;
}
