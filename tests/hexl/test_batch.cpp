/*
 * tests/hexl/test_batch.cpp -- libhexl's batch extensions
 * (hexl/cryptopim.hpp): ComputeForwardBatch / ComputeInverseBatch and the
 * deferral region give, bit for bit, what one NTT::ComputeForward /
 * ComputeInverse at a time gives on the `cpu` backend, on `pim` (the
 * virtual UPMEM), on `auto`, and on a timing-only pim machine; the batches
 * are one backend call per layer of moduli; the statistics count them and
 * carry the modeled clock on pim only; bad items are refused before
 * anything runs.  Runs on the harness of tests/test.h.
 */
#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "hexl/hexl.hpp"

extern "C" {
#include "test.h"
}

using namespace intel::hexl;

namespace
{

// the largest prime below 2^bits with q = 1 mod 2^17 (every N <= 65536),
// the k-th one counting down
uint64_t prime(unsigned bits, unsigned k = 0)
{
    for (uint64_t q = ((1ull << bits) - 1) / (1u << 17) * (1u << 17) + 1;; q -= 1u << 17)
        if (IsPrime(q) && k-- == 0)
            return q;
}

// A workload: rings of two degrees over several moduli, items of unequal
// counts per modulus (so the batch takes more than one layer), every input
// mod factor, some in place.
struct Work {
    std::vector<std::unique_ptr<NTT>> ntts;
    std::vector<std::vector<uint64_t>> in;           // operands (lazy representatives)
    std::vector<size_t> ring;                        // item -> ntts index
    std::vector<uint64_t> factor;                    // item -> input mod factor
    std::vector<std::vector<uint64_t>> reference[2]; // [forward], [inverse] on cpu, one at a time
};

const std::vector<std::pair<size_t, unsigned>> kRings = {
    // (N, bits): three word moduli at N = 1024 (counts 3, 3, 2), one at 2048
    {1024, 30},
    {1024, 30},
    {1024, 31},
    {2048, 31}};
const size_t kCounts[] = {3, 3, 2, 2};

Work make_work(bool dword)
{
    Work w;
    uint64_t seed = 42;
    for (size_t r = 0; r < kRings.size(); r++) {
        unsigned bits = kRings[r].second;
        if (dword && r == 1)
            bits = 50; // a double-word modulus in the same RNS batch
        w.ntts.push_back(std::make_unique<NTT>(kRings[r].first, prime(bits, (unsigned)r)));
    }
    for (size_t r = 0; r < kRings.size(); r++)
        for (size_t c = 0; c < kCounts[r]; c++) {
            const uint64_t q = w.ntts[r]->GetModulus(), f = 1u << (w.in.size() % 3);
            std::vector<uint64_t> a(w.ntts[r]->GetDegree());
            for (auto &x : a)
                // a representative in [0, 2q): every inverse factor takes it
                x = test_rand(&seed) % q + q * (test_rand(&seed) % std::min<uint64_t>(f, 2));
            w.in.push_back(a);
            w.ring.push_back(r);
            w.factor.push_back(f);
        }
    return w;
}

// The reference: single calls on the cpu backend (NTT objects of the same
// rings built there).
void make_reference(Work &w)
{
    cryptopim::SetBackend("cpu");
    for (int d = 0; d < 2; d++)
        for (size_t i = 0; i < w.in.size(); i++) {
            const NTT &o = *w.ntts[w.ring[i]];
            NTT cpu(o.GetDegree(), o.GetModulus());
            std::vector<uint64_t> out(o.GetDegree());
            const uint64_t f = d ? std::min<uint64_t>(w.factor[i], 2) : w.factor[i];
            if (d == 0)
                cpu.ComputeForward(out.data(), w.in[i].data(), f, 1);
            else
                cpu.ComputeInverse(out.data(), w.in[i].data(), f, 1);
            w.reference[d].push_back(out);
        }
}

// The items of direction d over outputs `out` (in place for every third
// item: out is then a copy of the operand).
std::vector<cryptopim::BatchItem> items(Work &w, int d, std::vector<std::vector<uint64_t>> &out)
{
    std::vector<cryptopim::BatchItem> it;
    out.clear();
    out.reserve(w.in.size()); // the results' buffers stay where they are
    for (size_t i = 0; i < w.in.size(); i++) {
        const bool in_place = i % 3 == 2;
        out.push_back(in_place ? w.in[i] : std::vector<uint64_t>(w.in[i].size(), 7));
        const uint64_t f = d ? std::min<uint64_t>(w.factor[i], 2) : w.factor[i];
        it.push_back({w.ntts[w.ring[i]].get(), out.back().data(),
                      in_place ? out.back().data() : w.in[i].data(), f});
    }
    return it;
}

// Builds the work's NTT objects on `backend`, runs both batches and checks
// them against the reference; returns the statistics of the two batches.
cryptopim::Stats batch_case(const char *backend, bool dword)
{
    Work w = make_work(dword);
    make_reference(w);
    cryptopim::SetBackend(backend);
    for (auto &n : w.ntts) // rebuilt on the backend under test
        n = std::make_unique<NTT>(n->GetDegree(), n->GetModulus());
    cryptopim::ResetStats();
    for (int d = 0; d < 2; d++) {
        std::vector<std::vector<uint64_t>> out;
        auto it = items(w, d, out);
        try {
            if (d == 0)
                cryptopim::ComputeForwardBatch(it);
            else
                cryptopim::ComputeInverseBatch(it);
            CHECK(out == w.reference[d], "%s%s: %s batch bit-identical to single calls on cpu",
                  backend, dword ? " (a double-word modulus)" : "", d ? "inverse" : "forward");
        } catch (const std::exception &e) {
            CHECK(0, "%s: %s batch: %s", backend, d ? "inverse" : "forward", e.what());
        }
    }
    cryptopim::Stats st = cryptopim::GetStats();
    cryptopim::SetBackend("auto");
    return st;
}

void check_batch(const char *backend, bool modeled)
{
    cryptopim::Stats st = batch_case(backend, false);
    // N = 1024: layers of 3 moduli x 2 and of 2 moduli x 1; N = 2048: one
    // call of 2 -- 3 calls per direction
    CHECK(st.calls == 6 && st.ntts == 2 * 10,
          "%s: 3 backend calls per batch of 10 NTTs (got %llu calls, %llu NTTs)", backend,
          (unsigned long long)st.calls, (unsigned long long)st.ntts);
    CHECK(modeled ? st.modeled_s > 0 && st.modeled_kernel_s > 0 : st.modeled_s == 0,
          "%s: modeled seconds %s (%g)", backend, modeled ? "> 0" : "0", st.modeled_s);
    CHECK(st.measured_s > 0, "%s: measured seconds > 0", backend);
}

} // namespace

TEST(hexl_batch_cpu)
{
    check_batch("cpu", false);
    batch_case("cpu", true);
}
TEST(hexl_batch_auto)
{
    check_batch("auto", false);
}
TEST(hexl_batch_pim)
{
    check_batch("pim", true);
    batch_case("pim", true);
}

TEST(hexl_batch_pim_timing_only)
{
    // results from the CPU, the modeled clock from a timing-only DPU run
    cryptopim::PimConfig c;
    c.timing_only = true;
    c.mode = "async-xfer";
    cryptopim::SetPimConfig(c);
    check_batch("pim", true);
    cryptopim::SetPimConfig(cryptopim::PimConfig());
    cryptopim::PimConfig bad;
    bad.mode = "fast";
    bool threw = false;
    try {
        cryptopim::SetPimConfig(bad);
    } catch (const std::invalid_argument &) {
        threw = true;
    }
    CHECK(threw && cryptopim::GetPimConfig().mode.empty(), "an unknown host mode is refused");
}

TEST(hexl_batch_region)
{
    Work w = make_work(false);
    make_reference(w);
    cryptopim::SetBackend("pim");
    for (auto &n : w.ntts)
        n = std::make_unique<NTT>(n->GetDegree(), n->GetModulus());
    std::vector<std::vector<uint64_t>> out(w.in.size());
    cryptopim::ResetStats();
    {
        cryptopim::BatchRegion region;
        for (size_t i = 0; i < w.in.size(); i++) {
            out[i].assign(w.in[i].size(), 7);
            w.ntts[w.ring[i]]->ComputeForward(out[i].data(), w.in[i].data(), w.factor[i], 1);
        }
        bool untouched = true;
        for (auto &o : out)
            untouched &= o == std::vector<uint64_t>(o.size(), 7);
        CHECK(untouched && cryptopim::BatchRegion::Pending() == w.in.size(),
              "inside a region the calls are queued, results not yet written");
    }
    CHECK(out == w.reference[0] && cryptopim::BatchRegion::Pending() == 0,
          "at the region's end: the results of the single calls");
    CHECK(cryptopim::GetStats().calls == 3, "the region ran as one batch (3 calls: %llu)",
          (unsigned long long)cryptopim::GetStats().calls);

    // chains, both orders: a call reading a queued result flushes first
    for (int order = 0; order < 2; order++) {
        {
            cryptopim::BatchRegion region;
            for (size_t i = 0; i < w.in.size(); i++) {
                NTT &n = *w.ntts[w.ring[i]];
                const uint64_t f = std::min<uint64_t>(w.factor[i], 2);
                if (order == 0) {
                    n.ComputeForward(out[i].data(), w.in[i].data(), f, 1);
                    n.ComputeInverse(out[i].data(), out[i].data(), 1, 1);
                } else {
                    n.ComputeInverse(out[i].data(), w.in[i].data(), f, 1);
                    n.ComputeForward(out[i].data(), out[i].data(), 1, 1);
                }
            }
        }
        bool ok = true;
        for (size_t i = 0; i < w.in.size(); i++) {
            const uint64_t q = w.ntts[w.ring[i]]->GetModulus();
            for (size_t k = 0; k < out[i].size(); k++)
                ok &= out[i][k] == w.in[i][k] % q;
        }
        CHECK(ok, "%s in place inside a region: a (dependent calls flushed)",
              order ? "forward(inverse(a))" : "inverse(forward(a))");
    }

    // an explicit Flush, then a region left by an exception drops its queue
    std::vector<uint64_t> r(w.in[0].size(), 7);
    try {
        cryptopim::BatchRegion region;
        w.ntts[0]->ComputeForward(r.data(), w.in[0].data(), w.factor[0], 1);
        region.Flush();
        CHECK(r == w.reference[0][0], "Flush() writes the queued results");
        r.assign(r.size(), 7);
        w.ntts[0]->ComputeForward(r.data(), w.in[0].data(), w.factor[0], 1);
        throw std::logic_error("leave");
    } catch (const std::logic_error &) {
    }
    CHECK(r == std::vector<uint64_t>(r.size(), 7) && cryptopim::BatchRegion::Pending() == 0,
          "a region left by an exception runs nothing");

    // an input above its bound: the flush throws, nothing wrong is returned
    std::vector<uint64_t> bad(w.in[0].size(), 1);
    bad[3] = w.ntts[0]->GetModulus();
    bool threw = false;
    try {
        cryptopim::BatchRegion region;
        w.ntts[0]->ComputeForward(r.data(), bad.data(), 1, 1);
    } catch (const std::runtime_error &) {
        threw = true;
    }
    CHECK(threw, "a bad input inside a region: the region's end throws");
    cryptopim::SetBackend("auto");
}

TEST(hexl_batch_bad_items)
{
    uint64_t q = prime(30);
    NTT n(1024, q);
    std::vector<uint64_t> a(1024, 0), b(1024, 9);
    auto invalid = [](const std::vector<cryptopim::BatchItem> &it, bool fwd) {
        try {
            if (fwd)
                cryptopim::ComputeForwardBatch(it);
            else
                cryptopim::ComputeInverseBatch(it);
        } catch (const std::invalid_argument &) {
            return true;
        }
        return false;
    };
    NTT empty;
    CHECK(invalid({{&n, b.data(), a.data(), 1}, {nullptr, b.data(), a.data(), 1}}, true),
          "a null NTT");
    CHECK(invalid({{&n, b.data(), a.data(), 1}, {&n, nullptr, a.data(), 1}}, true),
          "a null result");
    CHECK(invalid({{&empty, b.data(), a.data(), 1}}, true), "a default-constructed NTT");
    CHECK(invalid({{&n, b.data(), a.data(), 3}}, true), "forward factor 3");
    CHECK(invalid({{&n, b.data(), a.data(), 4}}, false), "inverse factor 4");
    CHECK(b == std::vector<uint64_t>(1024, 9), "nothing ran before the refusal");
    cryptopim::ComputeForwardBatch({});
    CHECK(true, "an empty batch");
}

int main(int argc, char **argv)
{
    return test_main(argc, argv);
}
