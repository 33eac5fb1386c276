// backend.cpp -- hexl/cryptopim.hpp's backend, machine and statistics, and
// backend.hpp's contexts and rings.
#include "backend.hpp"

#include <chrono>
#include <cstdlib>
#include <stdexcept>

#include "cryptopim.h"
#include "cryptopim_ntt.h"
#include "eltwise_kernels.hpp"
#include "hexl/cryptopim.hpp"

namespace intel
{
namespace hexl
{
namespace cryptopim
{

namespace
{
std::mutex g_lock; // guards the four below
std::string g_backend;
PimConfig g_pim_config;
std::weak_ptr<Context> g_pim; // the pim context of g_pim_config, while in use
Stats g_stats;
std::map<std::string, std::shared_ptr<Context>> g_batch; // CPU backends' batch contexts

cpim_err mode_of(const std::string &s, cpim_pim_mode *m)
{
    if (s.empty() || s == "sync")
        *m = CPIM_PIM_SYNC;
    else if (s == "async-xfer")
        *m = CPIM_PIM_ASYNC_XFER;
    else if (s == "async-exec")
        *m = CPIM_PIM_ASYNC_EXEC;
    else
        return CPIM_ERR_INVALID_ARG;
    return CPIM_OK;
}

// Opens a context on backend `name` with `threads` host threads (0 = all
// cores); pim with config c.
cpim_err open_ctx(const std::string &name, const PimConfig &c, cpim_ctx **ctx, unsigned threads = 1)
{
    cpim_options o;
    cpim_options_init(&o);
    o.threads = threads;
    if (name == "pim") {
        cpim_err rc = mode_of(c.mode, &o.mode);
        if (rc != CPIM_OK)
            return rc;
        if (c.ranks == 0)
            o.dpus = CPIM_DPUS_ALL;
        o.ranks = c.ranks;
        o.profile = c.profile.empty() ? nullptr : c.profile.c_str();
        o.timing_only = c.timing_only;
    }
    return cpim_open(ctx, name.c_str(), &o);
}

const std::string &current()
{
    if (g_backend.empty()) {
        const char *e = std::getenv("CRYPTOPIM_HEXL_BACKEND");
        g_backend = e && *e ? e : "auto";
    }
    return g_backend;
}

std::shared_ptr<Context> open_context(const std::string &name, const PimConfig &c,
                                      unsigned threads = 1)
{
    auto ctx = std::make_shared<Context>();
    ctx->backend = name;
    cpim_err rc = open_ctx(name, c, &ctx->ctx, threads);
    if (rc != CPIM_OK)
        throw std::runtime_error("cryptopim backend '" + name + "': " + cpim_strerror(rc));
    if (name == "pim" && c.timing_only)
        ctx->exact = open_context("auto", c, 0);
    return ctx;
}

[[noreturn]] void fail(const std::string &what, const std::string &backend, cpim_err rc)
{
    throw std::runtime_error(what + " on " + backend + ": " + cpim_strerror(rc));
}
} // namespace

Context::~Context()
{
    for (auto &r : m_rings) {
        cpim_ntt_destroy(r.second.ring);
        cpim_ntt_destroy(r.second.exact);
    }
    cpim_close(ctx);
}

Ring Context::Get(uint64_t n, const std::vector<uint64_t> &moduli,
                  const std::vector<uint64_t> &roots)
{
    std::vector<uint64_t> key{n};
    for (size_t j = 0; j < moduli.size(); j++) {
        key.push_back(moduli[j]);
        key.push_back(roots[j]);
    }
    auto it = m_rings.find(key);
    if (it != m_rings.end())
        return it->second;
    Ring r;
    cpim_err rc =
        cpim_ntt_create_roots(ctx, n, moduli.data(), roots.data(), moduli.size(), &r.ring);
    if (rc == CPIM_OK && exact)
        rc = cpim_ntt_create_roots(exact->ctx, n, moduli.data(), roots.data(), moduli.size(),
                                   &r.exact);
    if (rc != CPIM_OK) {
        cpim_ntt_destroy(r.ring);
        fail("NTT: cryptopim ring", backend, rc);
    }
    m_rings.emplace(std::move(key), r);
    return r;
}

void Context::Run(const Ring &r, bool forward, const uint64_t *in, uint64_t *out, size_t count,
                  size_t limbs, uint64_t n)
{
    const char *what = forward ? "NTT forward" : "NTT inverse";
    auto call = [forward](cpim_ntt *ring, const uint64_t *i, uint64_t *o, size_t c) {
        return forward ? cpim_ntt_forward(ring, i, o, c) : cpim_ntt_inverse(ring, i, o, c);
    };
    cpim_stats model, meas;
    auto t0 = std::chrono::steady_clock::now();
    if (r.exact) {
        // timed on the DPUs (zeroed output, into scratch), computed on the CPU
        std::vector<uint64_t> scratch(count * limbs * n);
        cpim_err rc = call(r.ring, in, scratch.data(), count);
        if (rc != CPIM_ERR_TIMING_ONLY)
            fail(what, backend + " (timing-only)",
                 rc == CPIM_OK ? CPIM_ERR_PIM : rc); // a timing-only run gives no result
        cpim_last_stats(ctx, &model);
        rc = call(r.exact, in, out, count);
        if (rc != CPIM_OK)
            fail(what, exact->backend, rc);
        cpim_last_stats(exact->ctx, &meas);
    } else {
        cpim_err rc = call(r.ring, in, out, count);
        if (rc != CPIM_OK)
            fail(what, backend, rc);
        cpim_last_stats(ctx, &model);
        meas = model;
    }
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::lock_guard<std::mutex> g(g_lock);
    g_stats.calls++;
    g_stats.ntts += count * limbs;
    g_stats.measured_s += r.exact ? meas.measured.total_s : wall;
    if (model.has_modeled) {
        g_stats.modeled_s += model.modeled.total_s;
        g_stats.modeled_cpu_dpu_s += model.modeled.cpu_dpu_s;
        g_stats.modeled_kernel_s += model.modeled.kernel_s;
        g_stats.modeled_dpu_cpu_s += model.modeled.dpu_cpu_s;
    }
}

void SetBackend(const std::string &name)
{
    PimConfig c = GetPimConfig();
    cpim_ctx *probe = nullptr;
    cpim_err rc = open_ctx(name, c, &probe);
    cpim_close(probe);
    if (rc != CPIM_OK)
        throw std::invalid_argument("cryptopim backend '" + name + "': " + cpim_strerror(rc));
    {
        std::lock_guard<std::mutex> g(g_lock);
        g_backend = name;
    }
    eltwise::ResetKernels(); // they follow the backend
}

std::string GetBackend()
{
    std::lock_guard<std::mutex> g(g_lock);
    return current();
}

void SetPimConfig(const PimConfig &config)
{
    cpim_ctx *probe = nullptr;
    cpim_err rc = open_ctx("pim", config, &probe);
    cpim_close(probe);
    if (rc != CPIM_OK)
        throw std::invalid_argument("cryptopim pim configuration (ranks " +
                                    std::to_string(config.ranks) + ", mode '" + config.mode +
                                    "', profile '" + config.profile + "'): " + cpim_strerror(rc));
    std::lock_guard<std::mutex> g(g_lock);
    g_pim_config = config;
    g_pim.reset(); // objects built from now on get a context of this one
}

PimConfig GetPimConfig()
{
    std::lock_guard<std::mutex> g(g_lock);
    return g_pim_config;
}

Stats GetStats()
{
    std::lock_guard<std::mutex> g(g_lock);
    return g_stats;
}

void ResetStats()
{
    std::lock_guard<std::mutex> g(g_lock);
    g_stats = Stats();
}

std::shared_ptr<Context> OpenContext()
{
    std::lock_guard<std::mutex> g(g_lock);
    const std::string name = current();
    if (name == "pim") {
        if (auto shared = g_pim.lock())
            return shared;
    }
    auto c = open_context(name, g_pim_config);
    if (name == "pim")
        g_pim = c;
    return c;
}

Context *BatchContext(Context *c)
{
    if (c->backend == "pim")
        return c;
    std::lock_guard<std::mutex> g(g_lock);
    auto &b = g_batch[c->backend];
    if (!b)
        b = open_context(c->backend, g_pim_config, 0);
    return b.get();
}

} // namespace cryptopim
} // namespace hexl
} // namespace intel
