# bench/prim.mk -- third-party programs of the tsme study: PrIM's VA and RED
# (CMU-SAFARI/prim-benchmarks; not part of this repository), built plain and
# with the TSME layer when their sources are given (included by the
# top-level Makefile after bench/tsme.mk).
#
# PrIM's VA and RED, their dpu/task.c compiled unchanged
# with their own Makefiles' DPU flags, plain and with the TSME flag.  PrIM is
# not part of this repository: PRIM_DIR is a checkout of
# CMU-SAFARI/prim-benchmarks, or PRIM_GIT a clone of it (bare or not) that
# `git archive` extracts VA/ and RED/ from into $(BUILD)/prim.  Neither
# given: the programs are not built, and the test and the experiment's
# VA/RED rows say they skip.  No default: a clone's place is the user's.
PRIM_GIT ?=
ifeq ($(PRIM_DIR),)
ifneq ($(PRIM_GIT),)
PRIM_DIR := $(BUILD)/prim
$(PRIM_DIR)/.extracted:
	@mkdir -p $(PRIM_DIR)
	for b in VA RED; do git --git-dir=$(PRIM_GIT) archive --prefix=$$b/ HEAD:$$b | tar -x -C $(PRIM_DIR); done
	@touch $@
$(PRIM_DIR)/VA/dpu/task.c $(PRIM_DIR)/RED/dpu/task.c: $(PRIM_DIR)/.extracted
endif
endif
# 16 tasklets, PrIM's default; BL=10 (1 KiB DMAs) as PrIM's Makefiles
PRIM_TSME_T := 16
PRIM_VA_FLAGS := -Wall -Wextra -O2 -DBL=10 -DINT32 -I$(PRIM_DIR)/VA/support
PRIM_RED_FLAGS := -Wall -Wextra -O2 -DBL=10 -DINT64 -DTREE -DHAND -DPERF=0 -I$(PRIM_DIR)/RED/support
ifneq ($(PRIM_DIR),)
$(BUILD)/dpu/tsme/va-t%: $(PRIM_DIR)/VA/dpu/task.c $(TSME_HDRS) $(BUILD)/dpu/obj/cpim_crypto_aes.o $(DPU_DEPS_COMMON)
	@mkdir -p $(dir $@)
	$(DPU_CC) $(PRIM_VA_FLAGS) -DNR_TASKLETS=$* -DSTACK_SIZE_DEFAULT=$(TSME_STACK) $(TSME_FLAGS) \
	    -o $@ $< $(BUILD)/dpu/obj/cpim_crypto_aes.o
$(BUILD)/dpu/tsme/plain-va-t%: $(PRIM_DIR)/VA/dpu/task.c $(DPU_DEPS_COMMON)
	@mkdir -p $(dir $@)
	$(DPU_CC) $(PRIM_VA_FLAGS) -DNR_TASKLETS=$* -o $@ $<
$(BUILD)/dpu/tsme/red-t%: $(PRIM_DIR)/RED/dpu/task.c $(TSME_HDRS) $(BUILD)/dpu/obj/cpim_crypto_aes.o $(DPU_DEPS_COMMON)
	@mkdir -p $(dir $@)
	$(DPU_CC) $(PRIM_RED_FLAGS) -DNR_TASKLETS=$* -DSTACK_SIZE_DEFAULT=$(TSME_STACK) $(TSME_FLAGS) \
	    -o $@ $< $(BUILD)/dpu/obj/cpim_crypto_aes.o
$(BUILD)/dpu/tsme/plain-red-t%: $(PRIM_DIR)/RED/dpu/task.c $(DPU_DEPS_COMMON)
	@mkdir -p $(dir $@)
	$(DPU_CC) $(PRIM_RED_FLAGS) -DNR_TASKLETS=$* -o $@ $<
TSME_PROGS += $(foreach p,va red plain-va plain-red,$(BUILD)/dpu/tsme/$(p)-t$(PRIM_TSME_T))
endif
dpu: $(TSME_PROGS)
