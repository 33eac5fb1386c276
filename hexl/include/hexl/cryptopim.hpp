// hexl/cryptopim.hpp -- where cryptopim's HEXL-compatible library runs the
// NTT (an extension of HEXL's API; HEXL itself has no such choice).
//
// The backend is one of cryptopim's (`cryptopim list`): "auto" (default:
// the AVX-512 / IFMA / AVX2 kernels where the CPU has them, else portable
// C), "cpu" (portable C), "pim" (UPMEM DPUs, or the virtual UPMEM), ...
// The environment variable CRYPTOPIM_HEXL_BACKEND sets it for a process
// that does not call SetBackend.  It applies to NTT objects constructed
// after the call; objects already built keep theirs.
#pragma once

#include <string>

namespace intel
{
namespace hexl
{
namespace cryptopim
{

// Throws std::invalid_argument for a name that is not a backend.
void SetBackend(const std::string &name);
// The backend new NTT objects will use.
std::string GetBackend();

} // namespace cryptopim
} // namespace hexl
} // namespace intel
