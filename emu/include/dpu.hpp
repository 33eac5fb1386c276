/*
 * dpu.hpp -- the UPMEM SDK's C++ host API (namespace dpu: DpuSet, DpuSetOps,
 * DpuSetAsync, DpuProgram, DpuSymbol, DpuError) for the virtual UPMEM,
 * included as `#include <dpu>` (or <dpu.hpp>) as with the SDK. Header-only,
 * C++11 or later, a thin layer over the C API of <dpu.h>: every method is one
 * or a few C calls, so a program sees the same results, errors and modeled
 * time as its C twin.
 *
 * Names, signatures and default arguments follow the SDK 2025.1 header
 * (upmem-api.md; docs/VIRTUAL_UPMEM_HOST.md lists every method). Where the
 * SDK's behaviour is undefined we check instead (each is listed in the docs):
 *   - a vector of per-DPU buffers with fewer buffers than the set has DPUs,
 *     or a buffer shorter than the requested size, throws
 *     DpuError(DPU_ERR_INVALID_MEMORY_TRANSFER) before anything is prepared
 *     (the SDK reads or writes past the end);
 *   - DpuSet is movable and not copyable (the SDK's implicit copy frees the
 *     DPUs twice); DpuError copies share its message (the SDK's free it twice);
 *   - an exception thrown by a DpuSetAsync::call callback does not cross the
 *     C library: a DpuError becomes that error, anything else
 *     DPU_ERR_SYSTEM, reported by the next synchronous call (sync());
 *   - log() prints each DPU's real id in the "=== DPU#0x... ===" header.
 *   - copyScatterGather with a function object passes the object itself
 *     (args_size 0), not a byte copy of it (the SDK's memcpy of a
 *     non-trivially-copyable F, a std::function, is undefined): the blocks
 *     are collected during the call here (<dpu.h>), so it is still alive.
 * Ours only: DpuError::error() returns the C error code.
 */
#ifndef DPU_HPP
#define DPU_HPP

#if !defined(__cplusplus) || __cplusplus < 201103L
#error "<dpu> needs C++11 or later"
#endif

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "dpu.h"

namespace dpu
{

/* Allocate every free DPU / rank (DpuSet::allocate, DpuSet::allocateRanks). */
const unsigned ALLOCATE_ALL = DPU_ALLOCATE_ALL;

class DpuSet;
class DpuSetAsync;

/* Thrown by every method that fails: what() is dpu_error_to_string(code). */
class DpuError : public std::exception
{
  public:
    explicit DpuError(dpu_error_t ErrorId)
        : errorId(ErrorId), msg(dpu_error_to_string(ErrorId), std::free)
    {
    }
    const char *what() const noexcept override
    {
        return msg ? msg.get() : "DPU error";
    }
    /* ours: the C error (with DPU_ERR_ASYNC_JOBS and the job type when it
     * happened in an asynchronous job) */
    dpu_error_t error() const noexcept
    {
        return errorId;
    }

  private:
    friend class DpuProgram;
    friend class DpuSetOps;
    friend class DpuSet;
    friend class DpuSetAsync;
    static void throwOnErr(dpu_error_t Error)
    {
        if (Error != DPU_OK)
            throw DpuError(Error);
    }
    dpu_error_t errorId;
    /* shared so that copying the exception (throw, catch by value) neither
     * duplicates nor frees the C string twice */
    std::shared_ptr<char> msg;
};

/* A symbol of a DPU program: address and size, as struct dpu_symbol_t. */
class DpuSymbol
{
  public:
    DpuSymbol(unsigned Address, unsigned Size) : cSymbol{Address, Size}
    {
    }

  private:
    friend class DpuProgram;
    friend class DpuSetOps;
    DpuSymbol() : cSymbol{0, 0}
    {
    }
    struct dpu_symbol_t cSymbol;
};

/* A program loaded by DpuSet::load; get() looks up a host-visible symbol. */
class DpuProgram
{
  public:
    DpuSymbol get(const std::string &SymbolName)
    {
        DpuSymbol symbol;
        DpuError::throwOnErr(dpu_get_symbol(cProgram, SymbolName.c_str(), &symbol.cSymbol));
        return symbol;
    }

  private:
    friend class DpuSet;
    struct dpu_program_t *cProgram = nullptr;
};

/* Called per rank (the rank's set, its index in the set) by
 * DpuSetAsync::call, or once for the whole set. */
using CallbackFn = std::function<void(DpuSet &, unsigned)>;

/* The operations shared by DpuSet (synchronous) and DpuSetAsync. */
class DpuSetOps
{
  public:
    /* ---- the same bytes to every DPU (dpu_broadcast_to) ---- */
    template <typename T>
    void copy(const std::string &DstSymbol, unsigned Offset, const std::vector<T> &SrcBuffer,
              unsigned Size)
    {
        checkLength(SrcBuffer, Size);
        DpuError::throwOnErr(
            dpu_broadcast_to(cSet, DstSymbol.c_str(), Offset, SrcBuffer.data(), Size, xferFlags()));
    }
    template <typename T>
    void copy(const std::string &DstSymbol, unsigned Offset, const std::vector<T> &SrcBuffer)
    {
        copy(DstSymbol, Offset, SrcBuffer, bytes(SrcBuffer));
    }
    template <typename T>
    void copy(const std::string &DstSymbol, const std::vector<T> &SrcBuffer, unsigned Size)
    {
        copy(DstSymbol, 0, SrcBuffer, Size);
    }
    template <typename T> void copy(const std::string &DstSymbol, const std::vector<T> &SrcBuffer)
    {
        copy(DstSymbol, 0, SrcBuffer, bytes(SrcBuffer));
    }
    template <typename T>
    void copy(const DpuSymbol &DstSymbol, unsigned Offset, const std::vector<T> &SrcBuffer,
              unsigned Size)
    {
        checkLength(SrcBuffer, Size);
        DpuError::throwOnErr(dpu_broadcast_to_symbol(cSet, DstSymbol.cSymbol, Offset,
                                                     SrcBuffer.data(), Size, xferFlags()));
    }
    template <typename T>
    void copy(const DpuSymbol &DstSymbol, unsigned Offset, const std::vector<T> &SrcBuffer)
    {
        copy(DstSymbol, Offset, SrcBuffer, bytes(SrcBuffer));
    }
    template <typename T>
    void copy(const DpuSymbol &DstSymbol, const std::vector<T> &SrcBuffer, unsigned Size)
    {
        copy(DstSymbol, 0, SrcBuffer, Size);
    }
    template <typename T> void copy(const DpuSymbol &DstSymbol, const std::vector<T> &SrcBuffer)
    {
        copy(DstSymbol, 0, SrcBuffer, bytes(SrcBuffer));
    }

    /* ---- one buffer per DPU, in DPU_FOREACH order (prepare + push) ---- */
    template <typename T>
    void copy(const std::string &DstSymbol, unsigned Offset,
              const std::vector<std::vector<T>> &SrcBuffers, unsigned Size)
    {
        prepare(SrcBuffers, Size);
        pushed(dpu_push_xfer(cSet, DPU_XFER_TO_DPU, DstSymbol.c_str(), Offset, Size, xferFlags()));
    }
    template <typename T>
    void copy(const std::string &DstSymbol, unsigned Offset,
              const std::vector<std::vector<T>> &SrcBuffers)
    {
        copy(DstSymbol, Offset, SrcBuffers, commonBytes(SrcBuffers));
    }
    template <typename T>
    void copy(const std::string &DstSymbol, const std::vector<std::vector<T>> &SrcBuffers,
              unsigned Size)
    {
        copy(DstSymbol, 0, SrcBuffers, Size);
    }
    template <typename T>
    void copy(const std::string &DstSymbol, const std::vector<std::vector<T>> &SrcBuffers)
    {
        copy(DstSymbol, 0, SrcBuffers, commonBytes(SrcBuffers));
    }
    template <typename T>
    void copy(const DpuSymbol &DstSymbol, unsigned Offset,
              const std::vector<std::vector<T>> &SrcBuffers, unsigned Size)
    {
        prepare(SrcBuffers, Size);
        pushed(dpu_push_xfer_symbol(cSet, DPU_XFER_TO_DPU, DstSymbol.cSymbol, Offset, Size,
                                    xferFlags()));
    }
    template <typename T>
    void copy(const DpuSymbol &DstSymbol, unsigned Offset,
              const std::vector<std::vector<T>> &SrcBuffers)
    {
        copy(DstSymbol, Offset, SrcBuffers, commonBytes(SrcBuffers));
    }
    template <typename T>
    void copy(const DpuSymbol &DstSymbol, const std::vector<std::vector<T>> &SrcBuffers,
              unsigned Size)
    {
        copy(DstSymbol, 0, SrcBuffers, Size);
    }
    template <typename T>
    void copy(const DpuSymbol &DstSymbol, const std::vector<std::vector<T>> &SrcBuffers)
    {
        copy(DstSymbol, 0, SrcBuffers, commonBytes(SrcBuffers));
    }

    /* ---- from every DPU into its own buffer (prepare + push) ---- */
    template <typename T>
    void copy(std::vector<std::vector<T>> &DstBuffers, unsigned Size, const std::string &SrcSymbol,
              unsigned Offset)
    {
        prepare(DstBuffers, Size);
        pushed(
            dpu_push_xfer(cSet, DPU_XFER_FROM_DPU, SrcSymbol.c_str(), Offset, Size, xferFlags()));
    }
    template <typename T>
    void copy(std::vector<std::vector<T>> &DstBuffers, unsigned Size, const std::string &SrcSymbol)
    {
        copy(DstBuffers, Size, SrcSymbol, 0);
    }
    template <typename T>
    void copy(std::vector<std::vector<T>> &DstBuffers, const std::string &SrcSymbol,
              unsigned Offset)
    {
        copy(DstBuffers, commonBytes(DstBuffers), SrcSymbol, Offset);
    }
    template <typename T>
    void copy(std::vector<std::vector<T>> &DstBuffers, const std::string &SrcSymbol)
    {
        copy(DstBuffers, commonBytes(DstBuffers), SrcSymbol, 0);
    }
    template <typename T>
    void copy(std::vector<std::vector<T>> &DstBuffers, unsigned Size, const DpuSymbol &SrcSymbol,
              unsigned Offset)
    {
        prepare(DstBuffers, Size);
        pushed(dpu_push_xfer_symbol(cSet, DPU_XFER_FROM_DPU, SrcSymbol.cSymbol, Offset, Size,
                                    xferFlags()));
    }
    template <typename T>
    void copy(std::vector<std::vector<T>> &DstBuffers, unsigned Size, const DpuSymbol &SrcSymbol)
    {
        copy(DstBuffers, Size, SrcSymbol, 0);
    }
    template <typename T>
    void copy(std::vector<std::vector<T>> &DstBuffers, const DpuSymbol &SrcSymbol, unsigned Offset)
    {
        copy(DstBuffers, commonBytes(DstBuffers), SrcSymbol, Offset);
    }
    template <typename T>
    void copy(std::vector<std::vector<T>> &DstBuffers, const DpuSymbol &SrcSymbol)
    {
        copy(DstBuffers, commonBytes(DstBuffers), SrcSymbol, 0);
    }

    /* Launches the loaded program (synchronous on a DpuSet, asynchronous on
     * a DpuSetAsync). */
    void exec()
    {
        DpuError::throwOnErr(dpu_launch(cSet, async ? DPU_ASYNCHRONOUS : DPU_SYNCHRONOUS));
    }

    /* Scatter/gather to the DPUs (dpu_push_sg_xfer, sgXferEnable=true in
     * the profile): get_block_info / f(sg_block_info *, dpu_index,
     * block_index) give each DPU's host blocks, which fill Size bytes from
     * the MRAM symbol + Offset; length_check = false allows fewer bytes
     * (the rest is zero-filled). */
    void copyScatterGather(const std::string &DstSymbol, unsigned Offset,
                           get_block_t &get_block_info, unsigned Size, bool length_check = true)
    {
        DpuError::throwOnErr(dpu_push_sg_xfer(cSet, DPU_XFER_TO_DPU, DstSymbol.c_str(), Offset,
                                              Size, &get_block_info, sgFlags(length_check)));
    }
    void copyScatterGather(const std::string &DstSymbol, get_block_t &get_block_info, unsigned Size,
                           bool length_check = true)
    {
        copyScatterGather(DstSymbol, 0, get_block_info, Size, length_check);
    }
    template <class F>
    void copyScatterGather(const std::string &DstSymbol, unsigned Offset, F f, unsigned Size,
                           bool length_check = true)
    {
        get_block_t info = {sgGetBlock<F>, &f, 0};
        copyScatterGather(DstSymbol, Offset, info, Size, length_check);
    }
    template <class F>
    void copyScatterGather(const std::string &DstSymbol, F f, unsigned Size,
                           bool length_check = true)
    {
        copyScatterGather(DstSymbol, 0, f, Size, length_check);
    }
    void copyScatterGather(const DpuSymbol &DstSymbol, unsigned Offset, get_block_t &get_block_info,
                           unsigned Size, bool length_check = true)
    {
        DpuError::throwOnErr(dpu_push_sg_xfer_symbol(cSet, DPU_XFER_TO_DPU, DstSymbol.cSymbol,
                                                     Offset, Size, &get_block_info,
                                                     sgFlags(length_check)));
    }
    void copyScatterGather(const DpuSymbol &DstSymbol, get_block_t &get_block_info, unsigned Size,
                           bool length_check = true)
    {
        copyScatterGather(DstSymbol, 0, get_block_info, Size, length_check);
    }
    template <class F>
    void copyScatterGather(const DpuSymbol &DstSymbol, unsigned Offset, F f, unsigned Size,
                           bool length_check = true)
    {
        get_block_t info = {sgGetBlock<F>, &f, 0};
        copyScatterGather(DstSymbol, Offset, info, Size, length_check);
    }
    template <class F>
    void copyScatterGather(const DpuSymbol &DstSymbol, F f, unsigned Size, bool length_check = true)
    {
        copyScatterGather(DstSymbol, 0, f, Size, length_check);
    }

    /* Scatter/gather from the DPUs: Size bytes from the MRAM symbol +
     * Offset into each DPU's host blocks. */
    void copyScatterGather(get_block_t &get_block_info, unsigned Size, const std::string &SrcSymbol,
                           unsigned Offset, bool length_check = true)
    {
        DpuError::throwOnErr(dpu_push_sg_xfer(cSet, DPU_XFER_FROM_DPU, SrcSymbol.c_str(), Offset,
                                              Size, &get_block_info, sgFlags(length_check)));
    }
    void copyScatterGather(get_block_t &get_block_info, unsigned Size, const std::string &SrcSymbol,
                           bool length_check = true)
    {
        copyScatterGather(get_block_info, Size, SrcSymbol, 0, length_check);
    }
    template <class F>
    void copyScatterGather(F f, unsigned Size, const std::string &SrcSymbol, unsigned Offset,
                           bool length_check = true)
    {
        get_block_t info = {sgGetBlock<F>, &f, 0};
        copyScatterGather(info, Size, SrcSymbol, Offset, length_check);
    }
    template <class F>
    void copyScatterGather(F f, unsigned Size, const std::string &SrcSymbol,
                           bool length_check = true)
    {
        copyScatterGather(f, Size, SrcSymbol, 0, length_check);
    }
    void copyScatterGather(get_block_t &get_block_info, unsigned Size, const DpuSymbol &SrcSymbol,
                           unsigned Offset, bool length_check = true)
    {
        DpuError::throwOnErr(dpu_push_sg_xfer_symbol(cSet, DPU_XFER_FROM_DPU, SrcSymbol.cSymbol,
                                                     Offset, Size, &get_block_info,
                                                     sgFlags(length_check)));
    }
    void copyScatterGather(get_block_t &get_block_info, unsigned Size, const DpuSymbol &SrcSymbol,
                           bool length_check = true)
    {
        copyScatterGather(get_block_info, Size, SrcSymbol, 0, length_check);
    }
    template <class F>
    void copyScatterGather(F f, unsigned Size, const DpuSymbol &SrcSymbol, unsigned Offset,
                           bool length_check = true)
    {
        get_block_t info = {sgGetBlock<F>, &f, 0};
        copyScatterGather(info, Size, SrcSymbol, Offset, length_check);
    }
    template <class F>
    void copyScatterGather(F f, unsigned Size, const DpuSymbol &SrcSymbol, bool length_check = true)
    {
        copyScatterGather(f, Size, SrcSymbol, 0, length_check);
    }

  private:
    friend class DpuSet;
    friend class DpuSetAsync;
    DpuSetOps(const struct dpu_set_t &CSet, bool Async) : cSet(CSet), async(Async)
    {
    }

    dpu_xfer_flags_t xferFlags() const
    {
        return async ? DPU_XFER_ASYNC : DPU_XFER_DEFAULT;
    }
    dpu_sg_xfer_flags_t sgFlags(bool length_check) const
    {
        return (dpu_sg_xfer_flags_t)((async ? DPU_SG_XFER_ASYNC : DPU_SG_XFER_DEFAULT) |
                                     (length_check ? 0 : DPU_SG_XFER_DISABLE_LENGTH_CHECK));
    }
    /* get_block_func_t calling a function object (args points to it) */
    template <class F>
    static bool sgGetBlock(struct sg_block_info *out, uint32_t dpu_index, uint32_t block_index,
                           void *args)
    {
        return (*static_cast<F *>(args))(out, dpu_index, block_index);
    }
    template <typename T> static unsigned bytes(const std::vector<T> &Buffer)
    {
        return (unsigned)(Buffer.size() * sizeof(T));
    }
    template <typename T> static void checkLength(const std::vector<T> &Buffer, unsigned Size)
    {
        if ((size_t)Size > Buffer.size() * sizeof(T))
            throw DpuError(DPU_ERR_INVALID_MEMORY_TRANSFER);
    }
    /* the size-less forms: every buffer must hold the same number of
     * elements (as the SDK checks) */
    template <typename T> static unsigned commonBytes(const std::vector<std::vector<T>> &Buffers)
    {
        if (Buffers.empty())
            throw DpuError(DPU_ERR_INVALID_MEMORY_TRANSFER);
        for (const std::vector<T> &b : Buffers)
            if (b.size() != Buffers[0].size())
                throw DpuError(DPU_ERR_INVALID_MEMORY_TRANSFER);
        return bytes(Buffers[0]);
    }
    /* Buffer i for the i-th DPU of the set. Everything is checked before the
     * first buffer is recorded; when the C library refuses a prepare or the
     * push, the set's table is cleared so that it keeps no pointer to
     * buffers the caller may free (every push prepares all its DPUs again,
     * so a stale entry would not be used, only kept). */
    template <typename T>
    void prepare(const std::vector<std::vector<T>> &Buffers, unsigned Size) const
    {
        uint32_t nrDpus = 0;
        DpuError::throwOnErr(dpu_get_nr_dpus(cSet, &nrDpus));
        if (Buffers.size() < nrDpus)
            throw DpuError(DPU_ERR_INVALID_MEMORY_TRANSFER);
        for (uint32_t i = 0; i < nrDpus; i++)
            checkLength(Buffers[i], Size);
        struct dpu_set_t set = cSet, dpu;
        uint32_t i;
        DPU_FOREACH (set, dpu, i) {
            dpu_error_t err = dpu_prepare_xfer(dpu, (void *)Buffers[i].data());
            if (err != DPU_OK) {
                dpu_prepare_xfer(cSet, NULL);
                throw DpuError(err);
            }
        }
    }
    void pushed(dpu_error_t Error) const
    {
        if (Error != DPU_OK) {
            dpu_prepare_xfer(cSet, NULL);
            throw DpuError(Error);
        }
    }

    struct dpu_set_t cSet;
    bool async;
};

/* A set of DPUs (allocated, or one rank / one DPU of an allocated set).
 * Operations are synchronous; async() gives the asynchronous interface. */
class DpuSet : public DpuSetOps
{
  public:
    DpuSet(DpuSet &&Other) noexcept
        : DpuSetOps(Other), manageCSet(Other.manageCSet), _dpus(std::move(Other._dpus)),
          _ranks(std::move(Other._ranks)), owned(std::move(Other.owned))
    {
        Other.manageCSet = false;
        Other._dpus.clear();
        Other._ranks.clear();
    }
    DpuSet(const DpuSet &) = delete;
    DpuSet &operator=(const DpuSet &) = delete;
    DpuSet &operator=(DpuSet &&) = delete;
    ~DpuSet()
    {
        /* dpu_free waits for the set's queued work; the children are plain
         * views and go after it */
        if (manageCSet)
            dpu_free(cSet);
    }

    /* every DPU of the set (DPU_FOREACH order); for a DPU, itself */
    std::vector<DpuSet *> &dpus()
    {
        return _dpus;
    }
    /* every rank of the set; for a rank, itself; for a DPU, its rank */
    std::vector<DpuSet *> &ranks()
    {
        return _ranks;
    }

    static DpuSet allocate(unsigned NrDpus = ALLOCATE_ALL, const std::string &Profile = "")
    {
        struct dpu_set_t set;
        DpuError::throwOnErr(dpu_alloc(NrDpus, Profile.c_str(), &set));
        return DpuSet(set, true, true);
    }
    static DpuSet allocateRanks(unsigned NrRanks = ALLOCATE_ALL, const std::string &Profile = "")
    {
        struct dpu_set_t set;
        DpuError::throwOnErr(dpu_alloc_ranks(NrRanks, Profile.c_str(), &set));
        return DpuSet(set, true, true);
    }

    DpuProgram load(const std::string &Executable)
    {
        DpuProgram program;
        DpuError::throwOnErr(dpu_load(cSet, Executable.c_str(), &program.cProgram));
        return program;
    }

    /* Every DPU's printf output, each after its "=== DPU#0x<id> ===" line
     * (dpu_log_read). */
    void log(std::ostream &LogStream)
    {
        for (DpuSet *d : _dpus) {
            char *text = nullptr;
            size_t length = 0;
            FILE *f = open_memstream(&text, &length);
            if (f == nullptr)
                throw DpuError(DPU_ERR_SYSTEM);
            dpu_error_t err = dpu_log_read(d->cSet, f);
            std::fclose(f);
            LogStream.write(text, (std::streamsize)length);
            std::free(text);
            DpuError::throwOnErr(err);
        }
    }

    DpuSetAsync async();

  private:
    friend class DpuSetAsync;
    DpuSet(const struct dpu_set_t &CSet, bool ManageCSet, bool DetectChildren)
        : DpuSetOps(CSet, false), manageCSet(ManageCSet)
    {
        if (!DetectChildren)
            return;
        try {
            struct dpu_set_t set = CSet, rank, dpu;
            DPU_RANK_FOREACH (set, rank) {
                owned.emplace_back(new DpuSet(rank, false, false));
                DpuSet *r = owned.back().get();
                r->_ranks.push_back(r);
                _ranks.push_back(r);
                DPU_FOREACH (rank, dpu) {
                    owned.emplace_back(new DpuSet(dpu, false, false));
                    DpuSet *d = owned.back().get();
                    d->_dpus.push_back(d);
                    d->_ranks.push_back(r);
                    r->_dpus.push_back(d);
                    _dpus.push_back(d);
                }
            }
        } catch (...) {
            if (manageCSet)
                dpu_free(cSet);
            throw;
        }
    }

    bool manageCSet;
    std::vector<DpuSet *> _dpus;
    std::vector<DpuSet *> _ranks;
    std::vector<std::unique_ptr<DpuSet>> owned; /* the ranks and DPUs above */
};

/* The asynchronous interface of a DpuSet (DpuSet::async): copies and exec
 * are queued per rank; sync() waits for them and throws the first error. */
class DpuSetAsync : public DpuSetOps
{
  public:
    /* Callback per rank of the set (or once, SingleCall) in the rank's queue;
     * IsBlocking: the rank's later operations wait for it. Only synchronous
     * operations may be used inside (on the set it is given). */
    void call(const CallbackFn &Callback, bool IsBlocking, bool SingleCall)
    {
        unsigned flags = DPU_CALLBACK_ASYNC;
        if (!IsBlocking)
            flags |= DPU_CALLBACK_NONBLOCKING;
        if (SingleCall)
            flags |= DPU_CALLBACK_SINGLE_CALL;
        uint32_t nrRanks = 1;
        DpuError::throwOnErr(dpu_get_nr_ranks(cSet, &nrRanks));
        CallContext *context = new CallContext(Callback, SingleCall ? 1 : nrRanks);
        /* The last invocation frees the context. When the call fails, some
         * ranks may have queued it and others not, so the context is left
         * allocated (a small leak on an error path, never a double free). */
        DpuError::throwOnErr(dpu_callback(cSet, trampoline, context, (dpu_callback_flags_t)flags));
    }
    void call(const CallbackFn &Callback)
    {
        call(Callback, true, false);
    }
    /* Waits for every queued operation of the set; throws the first error. */
    void sync()
    {
        DpuError::throwOnErr(dpu_sync(set->cSet));
    }

  private:
    friend class DpuSet;
    explicit DpuSetAsync(DpuSet *Set) : DpuSetOps(Set->cSet, true), set(Set)
    {
    }

    struct CallContext {
        CallContext(const CallbackFn &Fn, unsigned Calls) : callback(Fn), remaining(Calls)
        {
        }
        CallbackFn callback;
        std::atomic<unsigned> remaining; /* freed by the last invocation */
    };
    static dpu_error_t trampoline(struct dpu_set_t CSet, uint32_t Index, void *Arg)
    {
        CallContext *context = static_cast<CallContext *>(Arg);
        dpu_error_t err = DPU_OK;
        try {
            DpuSet view(CSet, false, true);
            context->callback(view, Index);
        } catch (const DpuError &e) {
            err = e.error();
        } catch (...) {
            err = DPU_ERR_SYSTEM;
        }
        if (--context->remaining == 0)
            delete context;
        return err;
    }

    DpuSet *set;
};

inline DpuSetAsync DpuSet::async()
{
    return DpuSetAsync(this);
}

} // namespace dpu

#endif /* DPU_HPP */
