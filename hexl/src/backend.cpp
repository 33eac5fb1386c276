// backend.cpp -- hexl/cryptopim.hpp and backend.hpp: the backend name and
// the cryptopim contexts behind the NTT objects.
#include "backend.hpp"

#include <cstdlib>
#include <stdexcept>

#include "cryptopim.h"
#include "hexl/cryptopim.hpp"

namespace intel
{
namespace hexl
{
namespace cryptopim
{

namespace
{
std::mutex g_lock; // guards the two below
std::string g_backend;
std::weak_ptr<Context> g_pim; // the process's one pim context, while in use

cpim_err open_ctx(const std::string &name, cpim_ctx **ctx)
{
    cpim_options o;
    cpim_options_init(&o);
    o.threads = 1; // one polynomial per call: no use for more host threads
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
} // namespace

Context::~Context()
{
    cpim_close(ctx);
}

void SetBackend(const std::string &name)
{
    cpim_ctx *probe = nullptr;
    cpim_err rc = open_ctx(name, &probe);
    cpim_close(probe);
    if (rc != CPIM_OK)
        throw std::invalid_argument("cryptopim backend '" + name + "': " + cpim_strerror(rc));
    std::lock_guard<std::mutex> g(g_lock);
    g_backend = name;
}

std::string GetBackend()
{
    std::lock_guard<std::mutex> g(g_lock);
    return current();
}

std::shared_ptr<Context> OpenContext()
{
    std::lock_guard<std::mutex> g(g_lock);
    const std::string name = current();
    if (name == "pim") {
        if (auto shared = g_pim.lock())
            return shared;
    }
    auto c = std::make_shared<Context>();
    c->backend = name;
    cpim_err rc = open_ctx(name, &c->ctx);
    if (rc != CPIM_OK)
        throw std::runtime_error("cryptopim backend '" + name + "': " + cpim_strerror(rc));
    if (name == "pim")
        g_pim = c;
    return c;
}

} // namespace cryptopim
} // namespace hexl
} // namespace intel
