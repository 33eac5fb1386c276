/* Minimum, maximum and count above a threshold of a vector of int32 values
 * spread over NR_DPUS DPUs, with the SDK's C++ host API: per-DPU buffers
 * (std::vector of std::vector), a broadcast, an asynchronous launch, results
 * read back per DPU, a DPU's log. Checks everything against the CPU. */
#include <algorithm>
#include <cstdint>
#include <dpu>
#include <iostream>
#include <sstream>
#include <vector>
#ifdef DPU_EMU
#include <dpu_emu.h>
#endif

#include "../common.h"

#ifndef DPU_BINARY
#define DPU_BINARY "./bin/dpu_task"
#endif

using namespace dpu;

int main()
{
    const uint32_t n = 300007; /* not a multiple of the DPU count on purpose */
    const int32_t threshold = 1000;
    std::vector<int32_t> values(n);
    uint32_t x = 12345;
    for (uint32_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        values[i] = (int32_t)(x >> 8) % 100000 - 50000;
    }
    try {
        DpuSet system = DpuSet::allocate(NR_DPUS);
        system.load(DPU_BINARY);
        const uint32_t nr_dpus = (uint32_t)system.dpus().size();

        /* slice i goes to DPU i, padded to whole DMA blocks of one size */
        uint32_t per = (n + nr_dpus - 1) / nr_dpus;
        uint32_t span = (per + BLOCK_ELEMS - 1) / BLOCK_ELEMS * BLOCK_ELEMS;
        std::vector<std::vector<int32_t>> slices(nr_dpus, std::vector<int32_t>(span, 0));
        std::vector<std::vector<dpu_args_t>> args(nr_dpus, std::vector<dpu_args_t>(1));
        for (uint32_t d = 0; d < nr_dpus; d++) {
            uint32_t first = std::min(n, d * per), last = std::min(n, first + per);
            std::copy(values.begin() + first, values.begin() + last, slices[d].begin());
            args[d][0].n_elems = last - first;
        }
        system.copy("args", args);
        system.copy("threshold", std::vector<int32_t>{threshold});
        system.copy(DPU_MRAM_HEAP_POINTER_NAME, 0, slices);

        DpuSetAsync async = system.async();
        async.exec();
        async.sync();

        std::vector<std::vector<dpu_result_t>> results(nr_dpus, std::vector<dpu_result_t>(1));
        system.copy(results, "result");

        int32_t mn = INT32_MAX, mx = INT32_MIN;
        uint64_t above = 0;
        for (uint32_t d = 0; d < nr_dpus; d++) {
            if (args[d][0].n_elems == 0)
                continue;
            mn = std::min(mn, results[d][0].min);
            mx = std::max(mx, results[d][0].max);
            above += results[d][0].above;
        }
        std::ostringstream log;
        system.dpus()[0]->log(log);
        std::cout << log.str();

        auto mm = std::minmax_element(values.begin(), values.end());
        uint64_t want = (uint64_t)std::count_if(values.begin(), values.end(),
                                                [](int32_t v) { return v > threshold; });
        std::ostringstream line0;
        line0 << "min " << results[0][0].min << " max " << results[0][0].max << " above "
              << results[0][0].above << " of " << args[0][0].n_elems << "\n";
#ifdef DPU_EMU
        dpu_emu_print_stats(stdout);
#endif
        if (mn != *mm.first || mx != *mm.second || above != want ||
            log.str().find(line0.str()) == std::string::npos) {
            std::cout << "FAIL example_cpp_minmax: DPUs " << mn << " " << mx << " " << above
                      << ", CPU " << *mm.first << " " << *mm.second << " " << want << "\n";
            return 1;
        }
        std::cout << "PASS example_cpp_minmax (" << n << " values on " << nr_dpus << " DPUs: min "
                  << mn << ", max " << mx << ", " << above << " above " << threshold << ")\n";
    } catch (const DpuError &e) {
        std::cout << "FAIL example_cpp_minmax: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
