# emu/prof.mk -- the virtual DPU's profiler (included by the top-level
# Makefile after emu/vdpu.mk and emu/host.mk):
#
#   build/tests/emu/test-vprof   profiled runs equal unprofiled ones; totals
#   build/emu/dpu-profile        run a host program with profile=FILE and
#                                print the report (docs/PROFILING.md)

$(BUILD)/tests/emu/test-vprof: tests/emu/test_vprof.c $(TEST_HARNESS) $(VDPU_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(VDPU_CFLAGS) -Itests -o $@ $(filter %.c,$^) $(VDPU_LIB) $(LDLIBS)

TEST_CMDS += "$(BUILD)/tests/emu/test-vprof"
TEST_DEPS += $(BUILD)/tests/emu/test-vprof

$(BUILD)/emu/dpu-profile: emu/tools/dpu_profile.c
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(WARN) $(CFLAGS) $(SANFLAGS) -o $@ $<

all: $(BUILD)/emu/dpu-profile
TEST_DEPS += $(BUILD)/emu/dpu-profile

TEST_CMDS += "sh tests/emu/prof/dpu_profile.sh $(abspath $(BUILD))"
TEST_DEPS += $(BUILD)/libdpu.a

# what the profiler costs (measured, a ratio in one process): make vprof-bench
$(BUILD)/emu/vprof-bench: tests/emu/vprof_bench.c $(VDPU_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(VDPU_CFLAGS) -o $@ $< $(VDPU_LIB) $(LDLIBS)

.PHONY: vprof-bench
vprof-bench: $(BUILD)/emu/vprof-bench
	$(BUILD)/emu/vprof-bench
TEST_CMDS += "sh tests/emu/prof/dpu_gdb.sh $(abspath $(BUILD))"
