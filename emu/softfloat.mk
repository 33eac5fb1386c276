# emu/softfloat.mk -- tests of the soft-float runtime (emu/rt/softfloat.c).
# Included by the top-level Makefile after emu/vdpu.mk (uses VDPU_LIB and
# VDPU_CFLAGS from there).
#
#   make test-emu-softfloat    build the DPU programs, run tests/emu/softfloat/sf_run
#   make emu-softfloat-stats   modeled instructions / issue slots per operation
#
# The DPU programs are always built with the virtual UPMEM's wrapper: they
# test our runtime, not the real SDK. One program per operation group
# (-DSF_GROUP=1..3): all operations together exceed the 4096-instruction IRAM.

SF_TEST_DIR  := $(BUILD)/tests/emu/softfloat
SF_DPU_CC    := emu/bin/dpu-upmem-dpurte-clang
SF_TEST_ELFS := $(SF_TEST_DIR)/dpu_softfloat_1.elf $(SF_TEST_DIR)/dpu_softfloat_2.elf \
                $(SF_TEST_DIR)/dpu_softfloat_3.elf
SF_TEST_RUN  := $(SF_TEST_DIR)/sf_run
SF_DPU_DEPS  := $(wildcard emu/rt/*.c emu/rt/*.S emu/rt/*.lds emu/dpu-include/*.h) \
                emu/vdpu/abi.h $(SF_DPU_CC) tests/emu/softfloat/sf_ops.h

$(SF_TEST_DIR)/dpu_softfloat_%.elf: tests/emu/softfloat/dpu_softfloat.c $(SF_DPU_DEPS)
	@mkdir -p $(dir $@)
	$(SF_DPU_CC) -O2 -Wall -Wextra -Werror -DNR_TASKLETS=1 -DSF_GROUP=$* -o $@ $<

$(SF_TEST_RUN): tests/emu/softfloat/sf_run.c $(TEST_HARNESS) tests/emu/softfloat/sf_ops.h $(VDPU_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(VDPU_CFLAGS) -Itests -Itests/emu/softfloat -o $@ $(filter %.c,$^) $(VDPU_LIB) $(LDLIBS)

.PHONY: test-emu-softfloat emu-softfloat-stats
test-emu-softfloat: $(SF_TEST_RUN) $(SF_TEST_ELFS)
	@sh tests/run.sh "$(SF_TEST_RUN) $(SF_TEST_DIR)"

emu-softfloat-stats: $(SF_TEST_RUN) $(SF_TEST_ELFS)
	$(SF_TEST_RUN) $(SF_TEST_DIR) --stats

TEST_CMDS += "$(SF_TEST_RUN) $(SF_TEST_DIR)"
TEST_DEPS += $(SF_TEST_RUN) $(SF_TEST_ELFS)
