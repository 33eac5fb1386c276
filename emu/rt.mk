# emu/rt.mk -- tests of the DPU runtime library (emu/rt, emu/dpu-include) and
# of the host printf reader (emu/vdpu/dpulog.c). Included by the top-level
# Makefile after emu/vdpu.mk (uses VDPU_LIB and VDPU_CFLAGS from there).
#
#   make test-emu-rt     build the test DPU programs and run tests/emu/rt/rt_run
#   make emu-sync-costs  modeled cycles/instructions of barrier, mutex, handshake
#
# The DPU programs are always built with the virtual UPMEM's wrapper: they test
# our runtime, not the real SDK.

RT_TEST_DIR  := $(BUILD)/tests/emu/rt
RT_DPU_CC    := emu/bin/dpu-upmem-dpurte-clang
RT_TEST_NAMES := sync sem alloc printf printf_small seqread unaligned buddy styles
RT_TEST_ELFS := $(RT_TEST_NAMES:%=$(RT_TEST_DIR)/dpu_%.elf) \
                $(patsubst %,$(RT_TEST_DIR)/dpu_synccost_t%.elf,1 4 8 16)
RT_TEST_RUN  := $(RT_TEST_DIR)/rt_run
RT_DPU_DEPS  := $(wildcard emu/rt/*.c emu/rt/*.S emu/rt/*.lds emu/dpu-include/*.h) \
                emu/vdpu/abi.h $(RT_DPU_CC) tests/emu/rt/printf_cases.h

# NR_TASKLETS of each test program
RT_NR_sync := 16
RT_NR_sem := 16
RT_NR_alloc := 4
RT_NR_printf := 4
RT_NR_printf_small := 1
RT_NR_seqread := 4
RT_NR_unaligned := 16
RT_NR_buddy := 4
RT_NR_styles := 8

$(RT_TEST_DIR)/dpu_%.elf: tests/emu/rt/dpu_%.c $(RT_DPU_DEPS)
	@mkdir -p $(dir $@)
	$(RT_DPU_CC) -O2 -Wall -Wextra -Werror -DNR_TASKLETS=$(RT_NR_$*) -o $@ $<

# what synchronisation costs, for several tasklet counts (rt_run --costs)
$(RT_TEST_DIR)/dpu_synccost_t%.elf: tests/emu/rt/dpu_synccost.c $(RT_DPU_DEPS)
	@mkdir -p $(dir $@)
	$(RT_DPU_CC) -O2 -Wall -Wextra -Werror -DNR_TASKLETS=$* -o $@ $<

$(RT_TEST_RUN): tests/emu/rt/rt_run.c $(TEST_HARNESS) tests/emu/rt/printf_cases.h $(VDPU_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(VDPU_CFLAGS) -Itests -o $@ $(filter %.c,$^) $(VDPU_LIB) $(LDLIBS)

.PHONY: test-emu-rt emu-sync-costs
test-emu-rt: $(RT_TEST_RUN) $(RT_TEST_ELFS)
	@sh tests/run.sh "$(RT_TEST_RUN) $(RT_TEST_DIR)"

emu-sync-costs: $(RT_TEST_RUN) $(RT_TEST_ELFS)
	$(RT_TEST_RUN) $(RT_TEST_DIR) --costs

TEST_CMDS += "$(RT_TEST_RUN) $(RT_TEST_DIR)"
TEST_DEPS += $(RT_TEST_RUN) $(RT_TEST_ELFS)

# ---- the DPU libc as the SDK ships it (tests/emu/rt/libc_run.c) ----
# dpu_libc.elf includes every header of the SDK's libc and prints the results
# of tests/emu/rt/libc_cases.h; libc_run runs the same cases on glibc and
# compares them section by section (make test-emu-libc).
LIBC_TEST_ELF := $(RT_TEST_DIR)/dpu_libc.elf
LIBC_TEST_RUN := $(RT_TEST_DIR)/libc_run

# a larger stack than the 1 KiB default: the cases print up to 12 values a call
$(LIBC_TEST_ELF): tests/emu/rt/dpu_libc.c tests/emu/rt/libc_cases.h $(RT_DPU_DEPS)
	@mkdir -p $(dir $@)
	$(RT_DPU_CC) -O2 -Wall -Wextra -Werror -DNR_TASKLETS=2 -DSTACK_SIZE_DEFAULT=4096 -o $@ $<

$(LIBC_TEST_RUN): tests/emu/rt/libc_run.c tests/emu/rt/libc_cases.h $(TEST_HARNESS) $(VDPU_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(VDPU_CFLAGS) -Itests -o $@ $(filter %.c,$^) $(VDPU_LIB) $(LDLIBS)

.PHONY: test-emu-libc
test-emu-libc: $(LIBC_TEST_RUN) $(LIBC_TEST_ELF)
	@sh tests/run.sh "$(LIBC_TEST_RUN) $(RT_TEST_DIR)"

TEST_CMDS += "$(LIBC_TEST_RUN) $(RT_TEST_DIR)"
TEST_DEPS += $(LIBC_TEST_RUN) $(LIBC_TEST_ELF)

# The DPU headers against the SDK's (facts in tests/emu/sdk/): each compiles
# alone and includes what the SDK's includes; every public SDK name is
# declared or listed as left out with its reason.
TEST_CMDS += "sh tests/emu/dpu_headers.sh" "sh tests/emu/dpu_names.sh"
