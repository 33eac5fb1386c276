# tests/emu/ntt.mk -- the NTT kernels of dpu/ alone on one virtual DPU (included by the
# top-level Makefile after dpu/dpu.mk): the tools of docs/NTT.md, built from tests/emu/.

# The kernel alone on one virtual DPU: output check and modeled counts (docs/NTT.md).
$(BUILD)/emu/ntt-counts: tests/emu/ntt_counts.c src/pim/ntt_tab.c src/pim/ntt_tab.h dpu/ntt_args.h $(VDPU_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(VDPU_CFLAGS) -Idpu -Isrc/pim -o $@ tests/emu/ntt_counts.c src/pim/ntt_tab.c $(VDPU_LIB) $(LDLIBS)

# The four-step and radix-2 kernels side by side on one virtual DPU (modeled cycles, slots,
# MRAM bytes per butterfly; docs/NTT.md, "Layout: four-step vs 1D radix-2"): CSV and plot
# into $(BENCH_OUT) by `make ntt-compare` (part of `make bench`), a quick run in `make test`.
NTT_COMPARE := $(BUILD)/emu/ntt-compare
$(NTT_COMPARE): tests/emu/ntt_compare.c src/pim/ntt_tab.c src/pim/ntt_tab.h dpu/ntt_args.h \
		$(BUILD)/plot/gnuplot.o $(VDPU_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(VDPU_CFLAGS) -Idpu -Isrc/pim -Iplot -o $@ tests/emu/ntt_compare.c src/pim/ntt_tab.c \
	    $(BUILD)/plot/gnuplot.o $(VDPU_LIB) $(LDLIBS)
.PHONY: ntt-compare
ntt-compare: $(NTT_COMPARE) $(DPU_PROGS_ntt) $(DPU_PROGS_ntt-r2)
	@mkdir -p $(BENCH_OUT)
	$(NTT_COMPARE) $(BUILD)/dpu --out $(BENCH_OUT)
TEST_CMDS += "sh tests/ntt_compare.sh $(NTT_COMPARE) $(BUILD)/dpu"
TEST_DEPS += $(NTT_COMPARE)

