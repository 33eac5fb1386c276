# bench/bench.mk -- the experiment suite (included by the top-level Makefile).
#
#   make bench                       model validation + every experiment
#   make bench BENCH_OUT=docs/results  regenerate the committed results
#   make bench-plot BENCH_OUT=docs/results  only redraw the PNGs from the CSVs there
#
# Two programs: build/bench/micro (PrIM-style microbenchmarks against the
# published numbers, bench/micro/) and `cryptopim bench --experiment all`
# (the CryptoPIM study's experiments, bench/bench.c in cryptopim-bench).

BENCH_OUT ?= $(BUILD)/results
MICRO_DIR := $(BUILD)/bench/micro
MICRO     := $(BUILD)/bench/micro_host
MICRO_T   := 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24
STREAM_T  := 1 2 3 4 5 6 8 11 12 16
MUL_T     := 1 2 4 8 11 16
MICRO_DPUS := \
    $(foreach t,$(MICRO_T),$(MICRO_DIR)/arith-int32-add-t$(t) $(MICRO_DIR)/arith-int64-add-t$(t)) \
    $(foreach t,$(MUL_T),$(MICRO_DIR)/arith-int32-mul-t$(t) $(MICRO_DIR)/arith-int64-mul-t$(t)) \
    $(foreach t,$(STREAM_T),$(MICRO_DIR)/stream-t$(t)) \
    $(MICRO_DIR)/mram-t1

MICRO_DPU_DEPS := bench/micro/micro_args.h $(DPU_CC)

$(MICRO_DIR)/arith-int32-add-t%: bench/micro/arith.c $(MICRO_DPU_DEPS)
	@mkdir -p $(dir $@)
	$(DPU_CC) -O2 -DNR_TASKLETS=$* -DMICRO_T=int32_t -DMICRO_OP_ADD -o $@ $<
$(MICRO_DIR)/arith-int64-add-t%: bench/micro/arith.c $(MICRO_DPU_DEPS)
	@mkdir -p $(dir $@)
	$(DPU_CC) -O2 -DNR_TASKLETS=$* -DMICRO_T=int64_t -DMICRO_OP_ADD -o $@ $<
$(MICRO_DIR)/arith-int32-mul-t%: bench/micro/arith.c $(MICRO_DPU_DEPS)
	@mkdir -p $(dir $@)
	$(DPU_CC) -O2 -DNR_TASKLETS=$* -DMICRO_T=int32_t -DMICRO_OP_MUL -o $@ $<
$(MICRO_DIR)/arith-int64-mul-t%: bench/micro/arith.c $(MICRO_DPU_DEPS)
	@mkdir -p $(dir $@)
	$(DPU_CC) -O2 -DNR_TASKLETS=$* -DMICRO_T=int64_t -DMICRO_OP_MUL -o $@ $<
# three 1 KiB buffers per tasklet: 16 tasklets need small stacks to fit WRAM
$(MICRO_DIR)/stream-t%: bench/micro/stream.c $(MICRO_DPU_DEPS)
	@mkdir -p $(dir $@)
	$(DPU_CC) -O2 -DNR_TASKLETS=$* -DSTACK_SIZE_DEFAULT=256 -o $@ $<
$(MICRO_DIR)/mram-t%: bench/micro/mram.c $(MICRO_DPU_DEPS)
	@mkdir -p $(dir $@)
	$(DPU_CC) -O2 -DNR_TASKLETS=$* -o $@ $<

$(MICRO): bench/micro/micro_host.c bench/micro/micro_args.h $(LIB) $(DPU_HOST_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -Iinclude $(DPU_HOST_CFLAGS) -DMICRO_DPU_DIR='"$(MICRO_DIR)"' -o $@ $< \
	    $(LIB) $(DPU_HOST_LIBS) $(LDLIBS)

.PHONY: bench bench-micro bench-experiments bench-plot
bench-micro: $(MICRO) $(MICRO_DPUS)
	$(MICRO) --out $(BENCH_OUT) --dpu-dir $(MICRO_DIR)

bench-experiments: all
	$(CLI) bench --experiment all --out $(BENCH_OUT)

# Plots only, from the CSVs in BENCH_OUT (nothing is re-run; needs gnuplot).
bench-plot: $(MICRO) $(CLI) $(BENCH_BIN)
	$(CLI) bench --replot $(BENCH_OUT)
	$(MICRO) --replot $(BENCH_OUT)

# Wall time of the whole suite is printed (measured clock).
bench: all $(MICRO) $(MICRO_DPUS)
	@start=$$(date +%s); \
	$(MICRO) --out $(BENCH_OUT) --dpu-dir $(MICRO_DIR) && \
	$(CLI) bench --experiment all --out $(BENCH_OUT) && \
	echo "bench: all experiments done in $$(( $$(date +%s) - start )) s (measured wall time); results in $(BENCH_OUT)"

# quick runs of both programs (tiny sizes, outputs checked) in `make test`
TEST_CMDS += "sh bench/test_bench.sh $(MICRO) $(MICRO_DIR) $(CLI)"
TEST_DEPS += $(MICRO) $(MICRO_DPUS)
