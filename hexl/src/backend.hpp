// backend.hpp -- the cryptopim contexts libhexl's NTT objects run on
// (private to hexl/src).
//
// A Context is one cpim_ctx with the lock that serializes its calls
// (cryptopim.h: one thread per context at a time).  CPU backends get a
// context per NTT object; the pim backend one context per process, shared
// by every NTT object, since each context is a whole UPMEM machine.
#pragma once

#include <memory>
#include <mutex>
#include <string>

struct cpim_ctx;

namespace intel
{
namespace hexl
{
namespace cryptopim
{

struct Context {
    cpim_ctx *ctx = nullptr;
    std::mutex lock;
    std::string backend;
    ~Context();
};

// A context for a new NTT object on the current backend (GetBackend());
// throws std::runtime_error when the backend cannot be opened.
std::shared_ptr<Context> OpenContext();

} // namespace cryptopim
} // namespace hexl
} // namespace intel
