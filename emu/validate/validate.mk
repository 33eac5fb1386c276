# emu/validate/validate.mk -- the virtual UPMEM's model validation (included
# by the top-level Makefile): PrIM-style microbenchmarks (DPU programs
# arith.c, mram.c, stream.c; host program validate.c) whose results are
# compared with the published numbers (docs/MODEL.md).  Uses <dpu.h> and
# the shared plotting module (plot/) only.
#
#   make validate                    run it into $(BENCH_OUT) (part of `make bench`)
#   make validate-ubc UBC_DIR=d      the UBC AES rows (emu/validate/ubc_aes.sh)
#   make validate-prim-arith PRIM_REPO=d  PrIM arithmetic throughput (prim_arith.sh)

BENCH_OUT    ?= $(BUILD)/results
VALIDATE_DIR := $(BUILD)/emu/validate/dpu
VALIDATE     := $(BUILD)/emu/validate/validate
MICRO_T   := 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24
STREAM_T  := 1 2 3 4 5 6 8 11 12 16
MUL_T     := 1 2 4 8 11 16
VALIDATE_DPUS := \
    $(foreach t,$(MICRO_T),$(VALIDATE_DIR)/arith-int32-add-t$(t) $(VALIDATE_DIR)/arith-int64-add-t$(t)) \
    $(foreach t,$(MUL_T),$(VALIDATE_DIR)/arith-int32-mul-t$(t) $(VALIDATE_DIR)/arith-int64-mul-t$(t)) \
    $(foreach t,$(STREAM_T),$(VALIDATE_DIR)/stream-t$(t)) \
    $(VALIDATE_DIR)/mram-t1

VALIDATE_DPU_DEPS := emu/validate/micro_args.h $(DPU_CC)

$(VALIDATE_DIR)/arith-int32-add-t%: emu/validate/arith.c $(VALIDATE_DPU_DEPS)
	@mkdir -p $(dir $@)
	$(DPU_CC) -O2 -DNR_TASKLETS=$* -DMICRO_T=int32_t -DMICRO_OP_ADD -o $@ $<
$(VALIDATE_DIR)/arith-int64-add-t%: emu/validate/arith.c $(VALIDATE_DPU_DEPS)
	@mkdir -p $(dir $@)
	$(DPU_CC) -O2 -DNR_TASKLETS=$* -DMICRO_T=int64_t -DMICRO_OP_ADD -o $@ $<
$(VALIDATE_DIR)/arith-int32-mul-t%: emu/validate/arith.c $(VALIDATE_DPU_DEPS)
	@mkdir -p $(dir $@)
	$(DPU_CC) -O2 -DNR_TASKLETS=$* -DMICRO_T=int32_t -DMICRO_OP_MUL -o $@ $<
$(VALIDATE_DIR)/arith-int64-mul-t%: emu/validate/arith.c $(VALIDATE_DPU_DEPS)
	@mkdir -p $(dir $@)
	$(DPU_CC) -O2 -DNR_TASKLETS=$* -DMICRO_T=int64_t -DMICRO_OP_MUL -o $@ $<
# three 1 KiB buffers per tasklet: 16 tasklets need small stacks to fit WRAM
$(VALIDATE_DIR)/stream-t%: emu/validate/stream.c $(VALIDATE_DPU_DEPS)
	@mkdir -p $(dir $@)
	$(DPU_CC) -O2 -DNR_TASKLETS=$* -DSTACK_SIZE_DEFAULT=256 -o $@ $<
$(VALIDATE_DIR)/mram-t%: emu/validate/mram.c $(VALIDATE_DPU_DEPS)
	@mkdir -p $(dir $@)
	$(DPU_CC) -O2 -DNR_TASKLETS=$* -o $@ $<

$(VALIDATE): emu/validate/validate.c emu/validate/micro_args.h $(BUILD)/plot/gnuplot.o \
    $(DPU_HOST_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -Iplot $(DPU_HOST_CFLAGS) -DMICRO_DPU_DIR='"$(VALIDATE_DIR)"' -o $@ $< \
	    $(BUILD)/plot/gnuplot.o $(DPU_HOST_LIBS) $(LDLIBS)

.PHONY: validate
validate: $(VALIDATE) $(VALIDATE_DPUS)
	$(VALIDATE) --out $(BENCH_OUT) --dpu-dir $(VALIDATE_DIR)

# The modeled clock against published hardware measurements of public code
# (docs/MODEL.md): UBC_DIR = a clone of UBC-ECE-Sasha/PIM-encryption.
.PHONY: validate-ubc
validate-ubc: $(BUILD)/emu/vdpu-run
	@if [ -z "$(UBC_DIR)" ]; then \
	    echo "usage: make validate-ubc UBC_DIR=<clone of UBC-ECE-Sasha/PIM-encryption>" >&2; \
	    exit 2; fi
	sh emu/validate/ubc_aes.sh "$(UBC_DIR)" $(BUILD)/ubc_aes

# PrIM's arithmetic throughput with its run.sh settings (docs/MODEL.md):
# PRIM_REPO = a copy of CMU-SAFARI/prim-benchmarks (a work tree).
.PHONY: validate-prim-arith
validate-prim-arith: $(BUILD)/libdpu.a
	@if [ -z "$(PRIM_REPO)" ]; then \
	    echo "usage: make validate-prim-arith PRIM_REPO=<copy of CMU-SAFARI/prim-benchmarks>" >&2; \
	    exit 2; fi
	sh emu/validate/prim_arith.sh "$(PRIM_REPO)" $(BUILD)/prim_arith
