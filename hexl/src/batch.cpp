// batch.cpp -- hexl/cryptopim.hpp's batches: ComputeForwardBatch /
// ComputeInverseBatch gather NTTs of many rings into RNS batches (one
// backend call each), and BatchRegion queues a thread's single calls for
// them.
#include <algorithm>
#include <cstring>
#include <exception>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include "engine.hpp"
#include "hexl/cryptopim.hpp"

namespace intel
{
namespace hexl
{
namespace cryptopim
{

namespace
{
// One backend call carries at most this many coefficients (1 GiB of
// staging): larger layers are cut into several calls.
constexpr size_t kMaxWords = size_t(1) << 27;

void check(bool forward, const std::vector<BatchItem> &items)
{
    for (const BatchItem &it : items) {
        if (!it.ntt || !it.result || !it.operand)
            throw std::invalid_argument("NTT batch: an item with a null NTT, result or operand");
        if (!EngineAccess::Of(*it.ntt))
            throw std::invalid_argument("NTT batch: a default-constructed or moved-from NTT");
        CheckInputFactor(forward, it.input_mod_factor);
    }
}

// The items of one context and degree, by modulus (and root), in order.
struct Group {
    Context *ctx = nullptr;
    uint64_t n = 0;
    std::map<std::pair<uint64_t, uint64_t>, std::vector<const BatchItem *>> by_mod;
};

// Runs one group as layers: each layer takes `count` items of every modulus
// that has items left (count = the fewest left among them, capped by
// kMaxWords), polynomial p limb j = the p-th next item of modulus j.
void run_group(bool forward, Group &g)
{
    const uint64_t n = g.n;
    std::vector<size_t> pos(g.by_mod.size(), 0);
    std::vector<uint64_t> staging;
    for (;;) {
        std::vector<uint64_t> moduli, roots;
        std::vector<const std::vector<const BatchItem *> *> lists;
        std::vector<size_t> at;
        size_t count = SIZE_MAX, k = 0;
        for (auto &m : g.by_mod) {
            const size_t left = m.second.size() - pos[k];
            if (left) {
                moduli.push_back(m.first.first);
                roots.push_back(m.first.second);
                lists.push_back(&m.second);
                at.push_back(k);
                count = std::min(count, left);
            }
            k++;
        }
        if (moduli.empty())
            return;
        const size_t L = moduli.size();
        count = std::min(count, std::max<size_t>(1, kMaxWords / (L * n)));
        staging.resize(count * L * n);
        for (size_t p = 0; p < count; p++)
            for (size_t j = 0; j < L; j++) {
                const BatchItem *it = (*lists[j])[pos[at[j]] + p];
                uint64_t *dst = &staging[(p * L + j) * n];
                if (it->input_mod_factor > 1)
                    ReduceInput(dst, it->operand, n, moduli[j], it->input_mod_factor);
                else // the backend checks [0, q), as for a single call
                    std::memcpy(dst, it->operand, n * sizeof(uint64_t));
            }
        {
            std::lock_guard<std::mutex> lk(g.ctx->lock);
            const Ring r = g.ctx->Get(n, moduli, roots);
            g.ctx->Run(r, forward, staging.data(), staging.data(), count, L, n);
        }
        // results in item order (a later item of the same result wins, as
        // in the single calls)
        for (size_t p = 0; p < count; p++)
            for (size_t j = 0; j < L; j++)
                std::memcpy((*lists[j])[pos[at[j]] + p]->result, &staging[(p * L + j) * n],
                            n * sizeof(uint64_t));
        for (size_t j = 0; j < L; j++)
            pos[at[j]] += count;
    }
}

void run_batch(bool forward, const std::vector<BatchItem> &items)
{
    check(forward, items);
    std::map<std::pair<Context *, uint64_t>, Group> groups;
    for (const BatchItem &it : items) {
        auto *e = EngineAccess::Of(*it.ntt);
        Context *c = BatchContext(e->ctx.get());
        Group &g = groups[{c, it.ntt->GetDegree()}];
        g.ctx = c;
        g.n = it.ntt->GetDegree();
        g.by_mod[{it.ntt->GetModulus(), it.ntt->GetMinimalRootOfUnity()}].push_back(&it);
    }
    for (auto &g : groups)
        run_group(forward, g.second);
}

// ---- deferral -------------------------------------------------------------------

// Byte ranges of queued data, for the dependency check: the ranges, keyed
// by start (possibly overlapping each other), and the longest one.
struct Ranges {
    std::multimap<uintptr_t, uintptr_t> r; // start -> end
    uintptr_t longest = 0;
    void add(const void *p, size_t bytes)
    {
        const uintptr_t a = reinterpret_cast<uintptr_t>(p);
        r.emplace(a, a + bytes);
        longest = std::max<uintptr_t>(longest, bytes);
    }
    bool overlaps(const void *p, size_t bytes) const
    {
        const uintptr_t a = reinterpret_cast<uintptr_t>(p), b = a + bytes;
        // a range overlapping [a, b) starts in (a - longest, b)
        auto it = r.upper_bound(a > longest ? a - longest : 0);
        for (; it != r.end() && it->first < b; it++)
            if (it->second > a)
                return true;
        return false;
    }
};

struct Queue {
    int depth = 0;
    std::vector<BatchItem> items[2]; // [forward], [inverse]
    Ranges results[2], touched[2];   // results; operands and results
    void clear()
    {
        for (int d = 0; d < 2; d++) {
            items[d].clear();
            results[d] = Ranges();
            touched[d] = Ranges();
        }
    }
};
thread_local Queue t_queue;

void flush(Queue &q)
{
    std::vector<BatchItem> fwd, inv;
    fwd.swap(q.items[0]);
    inv.swap(q.items[1]);
    q.clear();
    // no item of one direction reads or writes what the other's write
    // (Defer flushes first otherwise), so their order does not matter
    run_batch(true, fwd);
    run_batch(false, inv);
}
} // namespace

void ComputeForwardBatch(const std::vector<BatchItem> &items)
{
    run_batch(true, items);
}

void ComputeInverseBatch(const std::vector<BatchItem> &items)
{
    run_batch(false, items);
}

bool Deferring()
{
    return t_queue.depth > 0;
}

void Defer(NTT &ntt, bool forward, uint64_t *result, const uint64_t *operand,
           uint64_t input_mod_factor)
{
    Queue &q = t_queue;
    const size_t bytes = ntt.GetDegree() * sizeof(uint64_t);
    const int d = forward ? 0 : 1, other = 1 - d;
    // reading a queued result, or writing what the other direction's queued
    // calls read or write, needs those calls run first
    if (q.results[0].overlaps(operand, bytes) || q.results[1].overlaps(operand, bytes) ||
        q.touched[other].overlaps(result, bytes))
        flush(q);
    q.items[d].push_back(BatchItem{&ntt, result, operand, input_mod_factor});
    q.results[d].add(result, bytes);
    q.touched[d].add(result, bytes);
    q.touched[d].add(operand, bytes);
}

BatchRegion::BatchRegion() : m_uncaught(std::uncaught_exceptions())
{
    t_queue.depth++;
}

BatchRegion::~BatchRegion() noexcept(false)
{
    Queue &q = t_queue;
    if (--q.depth > 0)
        return;
    if (std::uncaught_exceptions() > m_uncaught) {
        q.clear(); // left by an exception: nothing more runs or throws
        return;
    }
    flush(q);
}

void BatchRegion::Flush()
{
    flush(t_queue);
}

size_t BatchRegion::Pending()
{
    return t_queue.items[0].size() + t_queue.items[1].size();
}

} // namespace cryptopim
} // namespace hexl
} // namespace intel
