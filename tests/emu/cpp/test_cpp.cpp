/*
 * tests/emu/cpp/test_cpp.cpp -- the C++ host API (<dpu>, emu/include/dpu.hpp)
 * against the C API: every method and every copy overload runs on a DpuSet
 * and, as its C twin (the C calls the SDK's C++ header makes), on a second
 * set loaded with the same program. Both sets' memories are then read back
 * (the C++ one through the C++ API, the C one through dpu_copy_from) and
 * must be equal and hold the expected bytes; the modeled cost of each
 * operation (bytes, transfers, launches, cycles, per-phase rank time, from
 * <dpu_emu.h>) must be the same for the method and its twin. Also: errors
 * (DpuError carries the C code and text), the checks the SDK leaves
 * undefined, asynchronous operations and callbacks, logs, sub-sets.
 *
 * Built with -std=c++11 (emu/host.mk); run from the folder holding
 * cpp_kernel.dpu. Runs on the harness of tests/test.h.
 */
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <dpu>
#include <dpu_emu.h>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
#include "test.h"
}

using namespace dpu;

namespace
{

/* hostClock=none: the C++ call and its C twin then see the same modeled
 * host time (host work measured on the wall clock would shift when their
 * transfers start, and with it how they share the bandwidth) */
const char *const PROFILE = "nrRanks=4,nrDpusPerRank=4,hostClock=none";
const char *const PROGRAM = "cpp_kernel.dpu";
const unsigned NR_DPUS = 6; /* two ranks: 4 + 2 DPUs */
const unsigned WORDS = 64;  /* mram_in / mram_out of the kernel */

typedef std::vector<uint64_t> Words;
typedef std::vector<Words> PerDpu;

#define OK(call)                                                                                   \
    do {                                                                                           \
        dpu_error_t e_ = (call);                                                                   \
        CHECK(e_ == DPU_OK, "%s returned %d", #call, (int)e_);                                     \
    } while (0)

/* Runs f; returns the C error of the DpuError it threw (DPU_OK if none) and
 * checks that what() is the C library's text for it. */
dpu_error_t thrown(const std::function<void()> &f)
{
    try {
        f();
    } catch (const DpuError &e) {
        char *want = dpu_error_to_string(e.error());
        CHECK(want && std::strcmp(e.what(), want) == 0, "what() \"%s\" is not \"%s\"", e.what(),
              want ? want : "(null)");
        std::free(want);
        return e.error();
    }
    return DPU_OK;
}

/* Distinct content per DPU and per call (seed). */
Words pattern(unsigned dpu, unsigned seed, size_t n = WORDS)
{
    Words w(n);
    for (size_t i = 0; i < n; i++)
        w[i] = (uint64_t)(dpu + 1) * 1000003u + seed * 7919u + i * 31u;
    return w;
}

/* Everything host-visible in the kernel, per DPU (DPU_FOREACH order). */
struct Snapshot {
    PerDpu in, out, wram, scalars; /* scalars: scale, sum, n_words */
    bool operator==(const Snapshot &o) const
    {
        return in == o.in && out == o.out && wram == o.wram && scalars == o.scalars;
    }
};

/* Read through the C++ API (FROM copies of several overloads). */
Snapshot snapCpp(DpuSet &set)
{
    size_t k = set.dpus().size();
    Snapshot s;
    s.in.assign(k, Words(WORDS));
    s.out.assign(k, Words(WORDS));
    s.wram.assign(k, Words(8));
    set.copy(s.in, "mram_in");
    set.copy(s.out, WORDS * 8, "mram_out");
    set.copy(s.wram, "wram_buf", 0);
    PerDpu scale(k, Words(1)), sum(k, Words(1));
    std::vector<std::vector<uint32_t>> n(k, std::vector<uint32_t>(1));
    set.copy(scale, 8, "scale", 0);
    set.copy(sum, "sum");
    set.copy(n, "n_words");
    s.scalars.assign(k, Words(3));
    for (size_t i = 0; i < k; i++)
        s.scalars[i] = {scale[i][0], sum[i][0], n[i][0]};
    return s;
}

/* Read through the C API, one DPU at a time. */
Snapshot snapC(struct dpu_set_t set)
{
    Snapshot s;
    struct dpu_set_t dpu;
    DPU_FOREACH (set, dpu) {
        Words in(WORDS), out(WORDS), wram(8);
        uint64_t scale = 0, sum = 0;
        uint32_t n = 0;
        OK(dpu_copy_from(dpu, "mram_in", 0, in.data(), WORDS * 8));
        OK(dpu_copy_from(dpu, "mram_out", 0, out.data(), WORDS * 8));
        OK(dpu_copy_from(dpu, "wram_buf", 0, wram.data(), 64));
        OK(dpu_copy_from(dpu, "scale", 0, &scale, 8));
        OK(dpu_copy_from(dpu, "sum", 0, &sum, 8));
        OK(dpu_copy_from(dpu, "n_words", 0, &n, 4));
        s.in.push_back(in);
        s.out.push_back(out);
        s.wram.push_back(wram);
        s.scalars.push_back({scale, sum, n});
    }
    return s;
}

/* The modeled cost of an operation: what the C calls it makes are priced at. */
struct Cost {
    uint64_t to, from, transfers, launches, cycles;
    double phase[3]; /* rank time in CPU->DPU, kernel, DPU->CPU */
    bool operator==(const Cost &o) const
    {
        return to == o.to && from == o.from && transfers == o.transfers && launches == o.launches &&
               cycles == o.cycles && phase[0] == o.phase[0] && phase[1] == o.phase[1] &&
               phase[2] == o.phase[2];
    }
};

Cost cost(const std::function<void()> &op)
{
    dpu_emu_reset();
    op();
    dpu_emu_stats_t s;
    dpu_emu_get_stats(&s);
    Cost c = {s.bytes_to_dpu,
              s.bytes_from_dpu,
              s.nr_transfers,
              s.nr_launches,
              s.dpu_cycles_max,
              {s.phase_rank_sum[DPU_EMU_PHASE_CPU_DPU], s.phase_rank_sum[DPU_EMU_PHASE_KERNEL],
               s.phase_rank_sum[DPU_EMU_PHASE_DPU_CPU]}};
    return c;
}

void checkCost(const char *what, const Cost &cpp, const Cost &c)
{
    CHECK(cpp == c,
          "%s: modeled cost differs from its C twin: to %llu/%llu from %llu/%llu transfers "
          "%llu/%llu launches %llu/%llu cycles %llu/%llu phases %g/%g %g/%g %g/%g",
          what, (unsigned long long)cpp.to, (unsigned long long)c.to, (unsigned long long)cpp.from,
          (unsigned long long)c.from, (unsigned long long)cpp.transfers,
          (unsigned long long)c.transfers, (unsigned long long)cpp.launches,
          (unsigned long long)c.launches, (unsigned long long)cpp.cycles,
          (unsigned long long)c.cycles, cpp.phase[0], c.phase[0], cpp.phase[1], c.phase[1],
          cpp.phase[2], c.phase[2]);
}

/* A DpuSet and its C twin, both holding PROGRAM. */
struct Twin {
    DpuSet cpp;
    DpuProgram program;
    struct dpu_set_t c;
    struct dpu_program_t *cProgram = nullptr;
    Twin() : cpp(DpuSet::allocate(NR_DPUS, PROFILE)), program(cpp.load(PROGRAM))
    {
        OK(dpu_alloc(NR_DPUS, PROFILE, &c));
        OK(dpu_load(c, PROGRAM, &cProgram));
    }
    ~Twin()
    {
        dpu_free(c);
    }
    struct dpu_symbol_t symbol(const char *name)
    {
        struct dpu_symbol_t s = {0, 0};
        OK(dpu_get_symbol(cProgram, name, &s));
        return s;
    }
    /* runs the method and its twin, then compares costs and memories */
    void same(const char *what, const std::function<void()> &method,
              const std::function<void()> &twin)
    {
        Cost a = cost(method), b = cost(twin);
        checkCost(what, a, b);
        Snapshot sa = snapCpp(cpp), sb = snapC(c);
        CHECK(sa == sb, "%s: the DPU memories of the C++ set and of its C twin differ", what);
    }
};

/* C twin of a per-DPU push (how the SDK's header maps it). */
void cPush(struct dpu_set_t set, dpu_xfer_t dir, const PerDpu &bufs, const char *name,
           const struct dpu_symbol_t *sym, uint32_t off, uint32_t size,
           dpu_xfer_flags_t flags = DPU_XFER_DEFAULT)
{
    struct dpu_set_t dpu;
    uint32_t i;
    DPU_FOREACH (set, dpu, i)
        OK(dpu_prepare_xfer(dpu, (void *)bufs[i].data()));
    if (sym)
        OK(dpu_push_xfer_symbol(set, dir, *sym, off, size, flags));
    else
        OK(dpu_push_xfer(set, dir, name, off, size, flags));
}

PerDpu perDpu(unsigned k, unsigned seed, size_t n = WORDS)
{
    PerDpu b;
    for (unsigned d = 0; d < k; d++)
        b.push_back(pattern(d, seed, n));
    return b;
}

} // namespace

/* allocate / allocateRanks (all argument forms), dpus() / ranks(), the move
 * constructor and the destructor, against dpu_alloc and the iterators. */
TEST(cpp_alloc)
{
    {
        DpuSet set = DpuSet::allocate(NR_DPUS, PROFILE);
        struct dpu_set_t c, rank, dpu;
        OK(dpu_alloc(NR_DPUS, PROFILE, &c));
        std::vector<size_t> perRank;
        DPU_RANK_FOREACH (c, rank) {
            size_t n = 0;
            DPU_FOREACH (rank, dpu)
                n++;
            perRank.push_back(n);
        }
        OK(dpu_free(c));
        CHECK(set.dpus().size() == NR_DPUS, "dpus() has %zu DPUs", set.dpus().size());
        CHECK(set.ranks().size() == perRank.size(), "ranks() has %zu ranks, C %zu",
              set.ranks().size(), perRank.size());
        size_t at = 0;
        for (size_t r = 0; r < set.ranks().size() && r < perRank.size(); r++) {
            DpuSet *rs = set.ranks()[r];
            CHECK(rs->dpus().size() == perRank[r], "rank %zu: %zu DPUs, C %zu", r,
                  rs->dpus().size(), perRank[r]);
            CHECK(rs->ranks().size() == 1 && rs->ranks()[0] == rs, "rank %zu: ranks() not itself",
                  r);
            for (DpuSet *d : rs->dpus()) {
                CHECK(at < set.dpus().size() && set.dpus()[at] == d,
                      "DPU %zu: dpus() order differs from the ranks' DPUs", at);
                CHECK(d->dpus().size() == 1 && d->dpus()[0] == d, "DPU %zu: dpus() not itself", at);
                CHECK(d->ranks().size() == 1 && d->ranks()[0] == rs,
                      "DPU %zu: ranks() not its rank", at);
                at++;
            }
        }
        /* move: the DPUs change owner, the moved-from set owns nothing */
        std::vector<DpuSet *> before = set.dpus();
        DpuSet moved(std::move(set));
        CHECK(moved.dpus() == before && set.dpus().empty() && set.ranks().empty(),
              "move constructor: the DPUs did not move");
    }
    /* both destructors ran: every rank of the machine is free again */
    {
        DpuSet all = DpuSet::allocate(ALLOCATE_ALL, PROFILE);
        CHECK(all.dpus().size() == 16 && all.ranks().size() == 4,
              "allocate(ALLOCATE_ALL) after the destructors: %zu DPUs, %zu ranks",
              all.dpus().size(), all.ranks().size());
    }
    {
        DpuSet ranks = DpuSet::allocateRanks(3, PROFILE);
        CHECK(ranks.dpus().size() == 12 && ranks.ranks().size() == 3,
              "allocateRanks(3): %zu DPUs, %zu ranks", ranks.dpus().size(), ranks.ranks().size());
    }
    /* default arguments: every DPU (ALLOCATE_ALL) and the empty profile */
    setenv("UPMEM_PROFILE", "nrRanks=3,nrDpusPerRank=2", 1);
    {
        DpuSet all = DpuSet::allocate();
        CHECK(all.dpus().size() == 6 && all.ranks().size() == 3, "allocate(): %zu DPUs, %zu ranks",
              all.dpus().size(), all.ranks().size());
    }
    {
        DpuSet all = DpuSet::allocateRanks();
        CHECK(all.dpus().size() == 6, "allocateRanks(): %zu DPUs", all.dpus().size());
    }
    {
        DpuSet two = DpuSet::allocate(2), rank = DpuSet::allocateRanks(1);
        CHECK(two.dpus().size() == 2 && rank.dpus().size() == 2,
              "allocate(2): %zu DPUs, allocateRanks(1): %zu DPUs", two.dpus().size(),
              rank.dpus().size());
    }
    unsetenv("UPMEM_PROFILE");
    /* failures carry the C library's error */
    struct dpu_set_t c;
    dpu_error_t cZero = dpu_alloc(0, PROFILE, &c);
    dpu_error_t cBad = dpu_alloc(1, "noSuchKey=1", &c);
    CHECK(cZero != DPU_OK && cBad == DPU_ERR_INVALID_PROFILE, "C allocations should fail");
    CHECK(thrown([] { DpuSet::allocate(0, PROFILE); }) == cZero, "allocate(0)");
    CHECK(thrown([] { DpuSet::allocate(1, "noSuchKey=1"); }) == cBad, "allocate(bad profile)");
    CHECK(thrown([] { DpuSet::allocateRanks(5, PROFILE); }) == dpu_alloc_ranks(5, PROFILE, &c),
          "allocateRanks(more than the machine)");
}

/* load and DpuProgram::get against dpu_load / dpu_get_symbol; DpuError */
TEST(cpp_load_symbols)
{
    struct dpu_set_t c2;
    OK(dpu_alloc(1, PROFILE, &c2));
    dpu_error_t missing = dpu_load(c2, "no-such.dpu", NULL);
    struct dpu_program_t *p2 = nullptr;
    OK(dpu_load(c2, PROGRAM, &p2));
    struct dpu_symbol_t s;
    dpu_error_t unknown = dpu_get_symbol(p2, "not_host", &s);
    OK(dpu_free(c2));
    CHECK(missing == DPU_ERR_ELF_NO_SUCH_FILE && unknown == DPU_ERR_UNKNOWN_SYMBOL,
          "C: load %d, symbol %d", (int)missing, (int)unknown);
    Twin t;
    CHECK(thrown([&] { t.cpp.load("no-such.dpu"); }) == missing, "load(missing file)");
    CHECK(thrown([&] { t.program.get("not_host"); }) == unknown, "get(plain WRAM global)");
    CHECK(thrown([&] { t.program.get("no_such_symbol"); }) == DPU_ERR_UNKNOWN_SYMBOL,
          "get(unknown)");
    /* the symbol get() returns addresses what dpu_get_symbol's does: a copy
     * through it lands where a copy by name does */
    Words w = pattern(0, 1, 4);
    t.cpp.copy(t.program.get("wram_buf"), 16, w);
    Words back(8);
    PerDpu all(NR_DPUS, Words(8));
    t.cpp.copy(all, "wram_buf");
    CHECK(std::memcmp(all[NR_DPUS - 1].data() + 2, w.data(), 32) == 0,
          "copy through get(\"wram_buf\") + 16 landed elsewhere");
    /* DpuError: copies share the message (no double free under ASan) */
    try {
        t.program.get("no_such_symbol");
        CHECK(0, "no exception");
    } catch (const DpuError &e) {
        DpuError copy1(e), copy2 = copy1;
        CHECK(std::strcmp(copy2.what(), e.what()) == 0 && copy2.error() == DPU_ERR_UNKNOWN_SYMBOL,
              "copied DpuError differs");
    }
    DpuError direct(DPU_ERR_TIMEOUT);
    const std::exception &base = direct;
    char *text = dpu_error_to_string(DPU_ERR_TIMEOUT);
    CHECK(std::strcmp(base.what(), text) == 0, "DpuError as std::exception: %s", base.what());
    std::free(text);
}

/* the eight broadcast overloads (dpu_broadcast_to / _symbol) */
TEST(cpp_copy_broadcast)
{
    Twin t;
    const Words w = pattern(9, 3, 16);
    struct dpu_symbol_t in = t.symbol("mram_in"), wram = t.symbol("wram_buf");
    DpuSymbol sIn = t.program.get("mram_in"), sWram(wram.address, wram.size);
    struct dpu_set_t c = t.c;
    t.same(
        "copy(name, offset, vector, size)", [&] { t.cpp.copy("mram_in", 8, w, 64); },
        [&] { OK(dpu_broadcast_to(c, "mram_in", 8, w.data(), 64, DPU_XFER_DEFAULT)); });
    t.same(
        "copy(name, offset, vector)", [&] { t.cpp.copy("mram_in", 256, w); },
        [&] { OK(dpu_broadcast_to(c, "mram_in", 256, w.data(), 128, DPU_XFER_DEFAULT)); });
    t.same(
        "copy(name, vector, size)", [&] { t.cpp.copy("wram_buf", w, 24); },
        [&] { OK(dpu_broadcast_to(c, "wram_buf", 0, w.data(), 24, DPU_XFER_DEFAULT)); });
    t.same(
        "copy(name, vector)", [&] { t.cpp.copy("scale", Words{3}); },
        [&] {
            uint64_t v = 3;
            OK(dpu_broadcast_to(c, "scale", 0, &v, 8, DPU_XFER_DEFAULT));
        });
    t.same(
        "copy(symbol, offset, vector, size)", [&] { t.cpp.copy(sIn, 40, w, 32); },
        [&] { OK(dpu_broadcast_to_symbol(c, in, 40, w.data(), 32, DPU_XFER_DEFAULT)); });
    t.same(
        "copy(symbol, offset, vector)",
        [&] { t.cpp.copy(sWram, 32, Words(w.begin(), w.begin() + 4)); },
        [&] { OK(dpu_broadcast_to_symbol(c, wram, 32, w.data(), 32, DPU_XFER_DEFAULT)); });
    t.same(
        "copy(symbol, vector, size)", [&] { t.cpp.copy(sIn, w, 8); },
        [&] { OK(dpu_broadcast_to_symbol(c, in, 0, w.data(), 8, DPU_XFER_DEFAULT)); });
    t.same(
        "copy(symbol, vector)", [&] { t.cpp.copy(sWram, Words(w.begin(), w.begin() + 8)); },
        [&] { OK(dpu_broadcast_to_symbol(c, wram, 0, w.data(), 64, DPU_XFER_DEFAULT)); });
    /* and the bytes are where they were sent */
    Snapshot s = snapCpp(t.cpp);
    for (unsigned d = 0; d < NR_DPUS; d++) {
        CHECK(s.in[d][0] == w[0] && s.in[d][5] == w[0] && s.in[d][32] == w[0] &&
                  s.in[d][47] == w[15] && s.wram[d][0] == w[0] && s.wram[d][7] == w[7] &&
                  s.scalars[d][0] == 3,
              "DPU %u: broadcast bytes not in place", d);
    }
}

/* the eight per-DPU TO overloads (dpu_prepare_xfer + dpu_push_xfer[_symbol]) */
TEST(cpp_copy_to_dpus)
{
    Twin t;
    struct dpu_symbol_t in = t.symbol("mram_in"), wram = t.symbol("wram_buf");
    DpuSymbol sIn = t.program.get("mram_in"), sWram(wram.address, wram.size);
    struct dpu_set_t c = t.c;
    const PerDpu a = perDpu(NR_DPUS, 1), b = perDpu(NR_DPUS, 2, 8), n = perDpu(NR_DPUS, 3, 1);
    t.same(
        "copy(name, offset, buffers, size)", [&] { t.cpp.copy("mram_in", 16, a, 128); },
        [&] { cPush(c, DPU_XFER_TO_DPU, a, "mram_in", nullptr, 16, 128); });
    t.same(
        "copy(name, offset, buffers)", [&] { t.cpp.copy("wram_buf", 0, b); },
        [&] { cPush(c, DPU_XFER_TO_DPU, b, "wram_buf", nullptr, 0, 64); });
    t.same(
        "copy(name, buffers, size)", [&] { t.cpp.copy("mram_in", a, 8); },
        [&] { cPush(c, DPU_XFER_TO_DPU, a, "mram_in", nullptr, 0, 8); });
    t.same(
        "copy(name, buffers)", [&] { t.cpp.copy("scale", n); },
        [&] { cPush(c, DPU_XFER_TO_DPU, n, "scale", nullptr, 0, 8); });
    t.same(
        "copy(symbol, offset, buffers, size)", [&] { t.cpp.copy(sIn, 256, a, 256); },
        [&] { cPush(c, DPU_XFER_TO_DPU, a, nullptr, &in, 256, 256); });
    t.same(
        "copy(symbol, offset, buffers)", [&] { t.cpp.copy(sIn, 448, perDpu(NR_DPUS, 4, 8)); },
        [&] { cPush(c, DPU_XFER_TO_DPU, perDpu(NR_DPUS, 4, 8), nullptr, &in, 448, 64); });
    t.same(
        "copy(symbol, buffers, size)", [&] { t.cpp.copy(sWram, b, 16); },
        [&] { cPush(c, DPU_XFER_TO_DPU, b, nullptr, &wram, 0, 16); });
    t.same(
        "copy(symbol, buffers)", [&] { t.cpp.copy(sWram, perDpu(NR_DPUS, 5, 8)); },
        [&] { cPush(c, DPU_XFER_TO_DPU, perDpu(NR_DPUS, 5, 8), nullptr, &wram, 0, 64); });
    Snapshot s = snapCpp(t.cpp);
    PerDpu last = perDpu(NR_DPUS, 5, 8);
    for (unsigned d = 0; d < NR_DPUS; d++)
        CHECK(s.in[d][0] == a[d][0] && s.in[d][2] == a[d][0] && s.in[d][17] == a[d][15] &&
                  s.in[d][32] == a[d][0] && s.in[d][56] == pattern(d, 4, 8)[0] &&
                  s.wram[d] == last[d] && s.scalars[d][0] == n[d][0],
              "DPU %u: its own buffer is not in place", d);
}

/* copyScatterGather, both ways, by name and by symbol, with a function
 * object and a get_block_t: each DPU's two blocks (its buffer's halves,
 * swapped) land swapped in MRAM and scatter back to the same bytes */
TEST(cpp_copy_scatter_gather)
{
    DpuSet set = DpuSet::allocate(NR_DPUS, std::string(PROFILE) + ",sgXferEnable=true");
    DpuProgram program = set.load(PROGRAM);
    DpuSymbol sIn = program.get("mram_in");
    const unsigned half = WORDS / 2, size = WORDS * 8;
    PerDpu src = perDpu(NR_DPUS, 9), dst(NR_DPUS, Words(WORDS)), back(NR_DPUS, Words(WORDS));
    PerDpu *into = &src;
    auto halves = [&into, half](struct sg_block_info *out, uint32_t d, uint32_t b) -> bool {
        if (d >= into->size() || b > 1)
            return false;
        out->addr = reinterpret_cast<uint8_t *>((*into)[d].data() + (b == 0 ? half : 0));
        out->length = half * 8;
        return true;
    };
    set.copyScatterGather("mram_in", halves, size);
    set.copy(back, size, "mram_in", 0);
    bool swapped = true;
    for (unsigned d = 0; d < NR_DPUS; d++)
        for (unsigned i = 0; i < WORDS; i++)
            swapped = swapped && back[d][i] == src[d][(i + half) % WORDS];
    CHECK(swapped, "copyScatterGather(name, f, size): MRAM does not hold the swapped halves");
    into = &dst;
    set.copyScatterGather(halves, size, sIn, 0u); /* 0u: as with the SDK, 0 is ambiguous */
    CHECK(dst == src, "copyScatterGather(f, size, symbol, offset): not the original bytes");

    /* a get_block_t, by symbol, asynchronously, at an offset */
    into = &src;
    get_block_t info = {[](struct sg_block_info *out, uint32_t d, uint32_t b, void *a) -> bool {
                            PerDpu *p = static_cast<PerDpu *>(a);
                            if (d >= p->size() || b > 0)
                                return false;
                            out->addr = reinterpret_cast<uint8_t *>((*p)[d].data());
                            out->length = 64;
                            return true;
                        },
                        &src, 0};
    set.async().copyScatterGather(sIn, 128, info, 64);
    set.async().sync();
    set.copy(back, 64, sIn, 128);
    CHECK(back[NR_DPUS - 1][7] == src[NR_DPUS - 1][7], "copyScatterGather(symbol, offset, info)");
    PerDpu got(NR_DPUS, Words(8));
    info.args = &got;
    set.copyScatterGather(info, 64, "mram_in", 128u);
    CHECK(got[2][0] == src[2][0], "copyScatterGather(info, size, name, offset)");

    /* errors: the C code; length_check = false allows fewer bytes */
    CHECK(thrown([&] { set.copyScatterGather("mram_in", halves, size + 8); }) ==
              DPU_ERR_SG_LENGTH_MISMATCH,
          "too few bytes accepted");
    set.copyScatterGather("mram_in", halves, size + 8, false);
    CHECK(thrown([&] { set.copyScatterGather("scale", halves, size); }) ==
              DPU_ERR_SG_NOT_MRAM_SYMBOL,
          "a WRAM symbol accepted");
    DpuSet plain = DpuSet::allocate(2, PROFILE);
    plain.load(PROGRAM);
    CHECK(thrown([&] { plain.copyScatterGather("mram_in", halves, size); }) ==
              DPU_ERR_SG_NOT_ACTIVATED,
          "scatter/gather without sgXferEnable");
}

/* the eight FROM overloads, then exec: results of the kernel, per DPU */
TEST(cpp_copy_from_dpus_exec)
{
    Twin t;
    struct dpu_symbol_t out = t.symbol("mram_out"), sumSym = t.symbol("sum");
    DpuSymbol sOut = t.program.get("mram_out"), sSum(sumSym.address, sumSym.size);
    struct dpu_set_t c = t.c;
    const PerDpu in = perDpu(NR_DPUS, 6);
    t.same(
        "inputs",
        [&] {
            t.cpp.copy("mram_in", in);
            t.cpp.copy("scale", Words{5});
            t.cpp.copy("n_words", std::vector<uint32_t>{40});
        },
        [&] {
            uint64_t scale = 5;
            uint32_t n = 40;
            cPush(c, DPU_XFER_TO_DPU, in, "mram_in", nullptr, 0, WORDS * 8);
            OK(dpu_broadcast_to(c, "scale", 0, &scale, 8, DPU_XFER_DEFAULT));
            OK(dpu_broadcast_to(c, "n_words", 0, &n, 4, DPU_XFER_DEFAULT));
        });
    t.same(
        "exec()", [&] { t.cpp.exec(); }, [&] { OK(dpu_launch(c, DPU_SYNCHRONOUS)); });
    /* the kernel's results, as the host computes them */
    for (unsigned d = 0; d < NR_DPUS; d++) {
        Words got(WORDS);
        uint64_t sum = 0;
        for (unsigned i = 0; i < 40; i++)
            sum += in[d][i] * 5 + i;
        PerDpu one(1, Words(1));
        t.cpp.dpus()[d]->copy(one, "sum");
        CHECK(one[0][0] == sum, "DPU %u: sum %llu, want %llu", d, (unsigned long long)one[0][0],
              (unsigned long long)sum);
    }
    /* each overload reads the same bytes as its C twin */
    struct From {
        const char *what;
        std::function<void(PerDpu &)> method;
        const char *name;
        const struct dpu_symbol_t *sym;
        uint32_t off, size, words;
    };
    const From cases[] = {
        {"copy(buffers, size, name, offset)", [&](PerDpu &b) { t.cpp.copy(b, 96, "mram_out", 8); },
         "mram_out", nullptr, 8, 96, 12},
        {"copy(buffers, size, name)", [&](PerDpu &b) { t.cpp.copy(b, 320, "mram_out"); },
         "mram_out", nullptr, 0, 320, 40},
        {"copy(buffers, name, offset)", [&](PerDpu &b) { t.cpp.copy(b, "mram_out", 256); },
         "mram_out", nullptr, 256, 64, 8},
        {"copy(buffers, name)", [&](PerDpu &b) { t.cpp.copy(b, "sum"); }, "sum", nullptr, 0, 8, 1},
        {"copy(buffers, size, symbol, offset)", [&](PerDpu &b) { t.cpp.copy(b, 16, sOut, 304); },
         nullptr, &out, 304, 16, 2},
        {"copy(buffers, size, symbol)", [&](PerDpu &b) { t.cpp.copy(b, 512, sOut); }, nullptr, &out,
         0, 512, 64},
        {"copy(buffers, symbol, offset)", [&](PerDpu &b) { t.cpp.copy(b, sOut, 8); }, nullptr, &out,
         8, 24, 3},
        {"copy(buffers, symbol)", [&](PerDpu &b) { t.cpp.copy(b, sSum); }, nullptr, &sumSym, 0, 8,
         1},
    };
    for (const From &f : cases) {
        PerDpu a(NR_DPUS, Words(f.words)), b(NR_DPUS, Words(f.words));
        Cost ca = cost([&] { f.method(a); });
        Cost cb = cost([&] { cPush(c, DPU_XFER_FROM_DPU, b, f.name, f.sym, f.off, f.size); });
        checkCost(f.what, ca, cb);
        CHECK(a == b, "%s: read other bytes than its C twin", f.what);
        /* and they are the kernel's results (DPU 1's first word) */
        uint64_t want = 0;
        if (f.words == 1) {
            for (unsigned i = 0; i < 40; i++)
                want += in[1][i] * 5 + i;
        } else {
            unsigned k = f.off / 8;
            want = k < 40 ? in[1][k] * 5 + k : in[1][k];
        }
        CHECK(a[1][0] == want, "%s: DPU 1 word 0 is %llu, want %llu", f.what,
              (unsigned long long)a[1][0], (unsigned long long)want);
    }
}

/* log(): the text of dpu_log_read over DPU_FOREACH; on the same ranks (so
 * the same DPU ids), one set after the other */
TEST(cpp_log)
{
    std::string cppText;
    {
        DpuSet set = DpuSet::allocate(NR_DPUS, PROFILE);
        set.load(PROGRAM);
        set.copy("mram_in", perDpu(NR_DPUS, 7));
        set.copy("scale", Words{2});
        set.copy("n_words", std::vector<uint32_t>{10});
        set.exec();
        std::ostringstream os;
        set.log(os);
        cppText = os.str();
        std::ostringstream one;
        set.dpus()[4]->log(one);
        CHECK(one.str().find("=== DPU#0x10000 ===\n") == 0, "log of DPU 4: %s", one.str().c_str());
    }
    struct dpu_set_t c, dpu;
    OK(dpu_alloc(NR_DPUS, PROFILE, &c));
    OK(dpu_load(c, PROGRAM, NULL));
    PerDpu in = perDpu(NR_DPUS, 7);
    uint64_t scale = 2;
    uint32_t n = 10;
    cPush(c, DPU_XFER_TO_DPU, in, "mram_in", nullptr, 0, WORDS * 8);
    OK(dpu_broadcast_to(c, "scale", 0, &scale, 8, DPU_XFER_DEFAULT));
    OK(dpu_broadcast_to(c, "n_words", 0, &n, 4, DPU_XFER_DEFAULT));
    OK(dpu_launch(c, DPU_SYNCHRONOUS));
    char *text = nullptr;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    DPU_FOREACH (c, dpu)
        OK(dpu_log_read(dpu, f));
    fclose(f);
    OK(dpu_free(c));
    CHECK(cppText == std::string(text, len), "log() differs from dpu_log_read:\n%s\n---\n%s",
          cppText.c_str(), text);
    CHECK(cppText.find("=== DPU#0x") == 0 && cppText.find("sum ") != std::string::npos,
          "log() text: %s", cppText.c_str());
    std::free(text);
}

/* ranks()[r] and dpus()[d] are sets of their own: copies and exec on them */
TEST(cpp_subsets)
{
    Twin t;
    struct dpu_set_t c = t.c, rank, dpu;
    std::vector<struct dpu_set_t> cRanks, cDpus;
    DPU_RANK_FOREACH (c, rank)
        cRanks.push_back(rank);
    DPU_FOREACH (c, dpu)
        cDpus.push_back(dpu);
    const PerDpu two = perDpu(2, 8);
    t.same(
        "rank 1: copy(name, buffers) and exec()",
        [&] {
            DpuSet *r = t.cpp.ranks()[1];
            r->copy("mram_in", two);
            r->copy("scale", Words{3});
            r->copy("n_words", std::vector<uint32_t>{64});
            r->exec();
        },
        [&] {
            uint64_t scale = 3;
            uint32_t n = 64;
            cPush(cRanks[1], DPU_XFER_TO_DPU, two, "mram_in", nullptr, 0, WORDS * 8);
            OK(dpu_broadcast_to(cRanks[1], "scale", 0, &scale, 8, DPU_XFER_DEFAULT));
            OK(dpu_broadcast_to(cRanks[1], "n_words", 0, &n, 4, DPU_XFER_DEFAULT));
            OK(dpu_launch(cRanks[1], DPU_SYNCHRONOUS));
        });
    t.same(
        "DPU 2: copy(name, vector) and exec()",
        [&] {
            DpuSet *d = t.cpp.dpus()[2];
            d->copy("mram_in", pattern(2, 9));
            d->copy("scale", Words{7});
            d->copy("n_words", std::vector<uint32_t>{5});
            d->exec();
        },
        [&] {
            Words w = pattern(2, 9);
            uint64_t scale = 7;
            uint32_t n = 5;
            OK(dpu_broadcast_to(cDpus[2], "mram_in", 0, w.data(), WORDS * 8, DPU_XFER_DEFAULT));
            OK(dpu_broadcast_to(cDpus[2], "scale", 0, &scale, 8, DPU_XFER_DEFAULT));
            OK(dpu_broadcast_to(cDpus[2], "n_words", 0, &n, 4, DPU_XFER_DEFAULT));
            OK(dpu_launch(cDpus[2], DPU_SYNCHRONOUS));
        });
    /* a DPU set takes exactly one buffer: its own */
    PerDpu one(1, Words(1));
    t.cpp.dpus()[2]->copy(one, "sum");
    uint64_t sum = 0;
    Words w = pattern(2, 9);
    for (unsigned i = 0; i < 5; i++)
        sum += w[i] * 7 + i;
    CHECK(one[0][0] == sum, "DPU 2 alone: sum %llu, want %llu", (unsigned long long)one[0][0],
          (unsigned long long)sum);
}

namespace
{
std::atomic<unsigned> g_calls, g_mask, g_dpus;
}

/* async(): copies, exec, call (per rank and single), sync; errors of
 * asynchronous jobs and of callbacks surface at sync() as in C */
TEST(cpp_async)
{
    Twin t;
    struct dpu_set_t c = t.c;
    const PerDpu in = perDpu(NR_DPUS, 10);
    PerDpu outCpp(NR_DPUS, Words(WORDS)), outC(NR_DPUS, Words(WORDS));
    t.same(
        "async copies, exec, copies back",
        [&] {
            /* the buffers of queued copies must live until sync() */
            static const Words scale{11};
            static const std::vector<uint32_t> n{33};
            DpuSetAsync a = t.cpp.async();
            a.copy("mram_in", in);
            a.copy("scale", scale);
            a.copy("n_words", n);
            a.exec();
            a.copy(outCpp, "mram_out");
            a.sync();
        },
        [&] {
            uint64_t scale = 11;
            uint32_t n = 33;
            cPush(c, DPU_XFER_TO_DPU, in, "mram_in", nullptr, 0, WORDS * 8, DPU_XFER_ASYNC);
            OK(dpu_broadcast_to(c, "scale", 0, &scale, 8, DPU_XFER_ASYNC));
            OK(dpu_broadcast_to(c, "n_words", 0, &n, 4, DPU_XFER_ASYNC));
            OK(dpu_launch(c, DPU_ASYNCHRONOUS));
            cPush(c, DPU_XFER_FROM_DPU, outC, "mram_out", nullptr, 0, WORDS * 8, DPU_XFER_ASYNC);
            OK(dpu_sync(c));
        });
    CHECK(outCpp == outC && outCpp[3][1] == in[3][1] * 11 + 1, "async results differ");

    /* call: once per rank, with the rank's set and index; synchronous
     * operations inside act on that rank */
    g_calls = 0;
    g_mask = 0;
    g_dpus = 0;
    DpuSetAsync a = t.cpp.async();
    a.call([](DpuSet &rank, unsigned index) {
        g_calls++;
        g_mask |= 1u << index;
        g_dpus += (unsigned)rank.dpus().size();
        rank.copy("scale", Words{100 + index});
    });
    a.sync();
    CHECK(g_calls == 2 && g_mask == 3 && g_dpus == NR_DPUS,
          "call(): %u calls, index mask %#x, %u DPUs", g_calls.load(), g_mask.load(),
          g_dpus.load());
    PerDpu scales(NR_DPUS, Words(1));
    t.cpp.copy(scales, "scale");
    CHECK(scales[0][0] == 100 && scales[5][0] == 101, "callbacks wrote %llu %llu",
          (unsigned long long)scales[0][0], (unsigned long long)scales[5][0]);
    g_calls = 0;
    a.call(
        [](DpuSet &all, unsigned) {
            g_calls++;
            g_dpus = (unsigned)all.dpus().size();
        },
        false, true);
    a.sync();
    CHECK(g_calls == 1 && g_dpus == NR_DPUS, "call(single): %u calls on %u DPUs", g_calls.load(),
          g_dpus.load());

    /* on one DPU: the callback's set is that DPU alone */
    g_calls = 0;
    g_dpus = 0;
    DpuSetAsync one = t.cpp.dpus()[4]->async();
    one.call([](DpuSet &dpuSet, unsigned) {
        g_calls++;
        g_dpus = (unsigned)dpuSet.dpus().size();
        dpuSet.copy("scale", Words{77});
    });
    one.sync();
    t.cpp.copy(scales, "scale");
    CHECK(g_calls == 1 && g_dpus == 1 && scales[4][0] == 77 && scales[5][0] == 101,
          "call() on DPU 4: %u calls, %u DPUs, scales %llu %llu", g_calls.load(), g_dpus.load(),
          (unsigned long long)scales[4][0], (unsigned long long)scales[5][0]);

    /* a DPU fault in an asynchronous launch: sync() throws the C error */
    t.cpp.copy("scale", Words{13});
    uint64_t thirteen = 13;
    OK(dpu_broadcast_to(c, "scale", 0, &thirteen, 8, DPU_XFER_DEFAULT));
    OK(dpu_launch(c, DPU_ASYNCHRONOUS));
    dpu_error_t cErr = dpu_sync(c);
    CHECK((cErr & DPU_ERR_ASYNC_JOBS) && (cErr & 0xffff) == DPU_ERR_DPU_FAULT, "C fault: %#x",
          (unsigned)cErr);
    dpu_error_t cppErr = thrown([&] {
        a.exec();
        a.sync();
    });
    CHECK(cppErr == cErr, "async fault: %#x, C %#x", (unsigned)cppErr, (unsigned)cErr);
    /* a callback throwing a DpuError: its error, as a C callback returning it */
    OK(dpu_callback(
        c, [](struct dpu_set_t, uint32_t, void *) { return DPU_ERR_TIMEOUT; }, nullptr,
        DPU_CALLBACK_ASYNC));
    cErr = dpu_sync(c);
    cppErr = thrown([&] {
        a.call([](DpuSet &, unsigned) { throw DpuError(DPU_ERR_TIMEOUT); });
        a.sync();
    });
    CHECK((cErr & 0xffff) == DPU_ERR_TIMEOUT && cppErr == cErr, "callback error: %#x, C %#x",
          (unsigned)cppErr, (unsigned)cErr);
    /* any other exception: DPU_ERR_SYSTEM, and the set is usable afterwards */
    cppErr = thrown([&] {
        a.call([](DpuSet &, unsigned) { throw 42; });
        a.sync();
    });
    CHECK((cppErr & 0xffff) == DPU_ERR_SYSTEM, "callback throwing 42: %#x", (unsigned)cppErr);
    t.cpp.copy("scale", Words{1});
    t.cpp.exec();
}

/* what the SDK leaves undefined is checked (docs/VIRTUAL_UPMEM_HOST.md) */
TEST(cpp_checks)
{
    Twin t;
    const Words w(4, 1);
    const PerDpu ok = perDpu(NR_DPUS, 11, 8);
    PerDpu dst(NR_DPUS, Words(8));
    const dpu_error_t bad = DPU_ERR_INVALID_MEMORY_TRANSFER;
    CHECK(thrown([&] { t.cpp.copy("wram_buf", w, 40); }) == bad, "broadcast past the vector");
    CHECK(thrown([&] { t.cpp.copy("wram_buf", PerDpu(NR_DPUS - 1, Words(8))); }) == bad,
          "fewer buffers than DPUs");
    CHECK(thrown([&] { t.cpp.copy("wram_buf", PerDpu()); }) == bad, "no buffer");
    PerDpu uneven = ok;
    uneven[3].resize(4);
    CHECK(thrown([&] { t.cpp.copy("wram_buf", uneven); }) == bad, "buffers of unequal sizes");
    CHECK(thrown([&] { t.cpp.copy("wram_buf", 0, uneven, 64); }) == bad, "buffer 3 too short");
    PerDpu shortDst = dst;
    shortDst[5].resize(2);
    CHECK(thrown([&] { t.cpp.copy(shortDst, 64, "wram_buf"); }) == bad, "FROM into a short buffer");
    PerDpu fewDst(2, Words(8));
    CHECK(thrown([&] { t.cpp.copy(fewDst, "wram_buf"); }) == bad, "FROM into fewer buffers");
    /* errors of the C library come through unchanged */
    struct dpu_set_t c = t.c;
    dpu_error_t cUnaligned = dpu_broadcast_to(c, "wram_buf", 2, w.data(), 8, DPU_XFER_DEFAULT);
    CHECK(thrown([&] { t.cpp.copy("wram_buf", 2, w, 8); }) == cUnaligned && cUnaligned != DPU_OK,
          "unaligned WRAM copy");
    dpu_error_t cPast = dpu_broadcast_to(c, "wram_buf", 64, w.data(), 8, DPU_XFER_DEFAULT);
    CHECK(thrown([&] { t.cpp.copy("wram_buf", 64, w, 8); }) == cPast && cPast != DPU_OK,
          "copy past the symbol");
    /* a refused push leaves the set usable: the next one moves its buffers */
    CHECK(thrown([&] { t.cpp.copy("wram_buf", 64, ok); }) != DPU_OK, "push past the symbol");
    t.cpp.copy("wram_buf", ok);
    t.cpp.copy(dst, "wram_buf");
    CHECK(dst == ok, "the push after refused ones moved other bytes");
}

int main(int argc, char **argv)
{
    return test_main(argc, argv);
}
