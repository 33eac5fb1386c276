# emu/vdpu.mk -- virtual DPU core (included by the top-level Makefile in the
# section "# ---- emu: virtual DPU ----"; owned by the virtual-DPU engineer).
#
#   build/libvdpu.a            the interpreter library (emu/vdpu/*.c)
#   build/emu/vdpu-run         run a DPU ELF and print the result (debug tool)
#   build/emu/vdpu-bench       speed, both modes, interpreted and translated (measured)
#   make test-emu              tests/emu (PASS/FAIL lines)
#   make emu-bench             prints simulated instructions per second

VDPU_SRCS := $(wildcard emu/vdpu/*.c)
VDPU_OBJS := $(VDPU_SRCS:%.c=$(BUILD)/%.o)
VDPU_LIB  := $(BUILD)/libvdpu.a
# the top Makefile's sanitizer flags (SAN=1: ASan + UBSan, SAN=thread: TSan)
VDPU_SANFLAGS := $(SANFLAGS)
VDPU_CFLAGS = $(STD) $(WARN) $(CFLAGS) $(VDPU_SANFLAGS) -Iemu/vdpu -MMD -MP

$(BUILD)/emu/vdpu/%.o: emu/vdpu/%.c
	@mkdir -p $(dir $@)
	$(CC) $(VDPU_CFLAGS) -O2 -c $< -o $@

$(VDPU_LIB): $(VDPU_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/emu/vdpu-run: tests/emu/vdpu_run.c $(VDPU_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(VDPU_CFLAGS) -o $@ $< $(VDPU_LIB) $(LDLIBS)

$(BUILD)/emu/vdpu-bench: tests/emu/vdpu_bench.c $(VDPU_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(VDPU_CFLAGS) -o $@ $< $(VDPU_LIB) $(LDLIBS)

$(BUILD)/tests/emu/test-vdpu: tests/emu/test_vdpu.c $(TEST_HARNESS) $(VDPU_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(VDPU_CFLAGS) -Itests -o $@ $(filter %.c,$^) $(VDPU_LIB) $(LDLIBS)

.PHONY: vdpu test-emu emu-bench
vdpu: $(VDPU_LIB) $(BUILD)/emu/vdpu-run $(BUILD)/emu/vdpu-bench
emu: vdpu

test-emu: $(BUILD)/tests/emu/test-vdpu
	@sh tests/run.sh "$(BUILD)/tests/emu/test-vdpu"

emu-bench: $(BUILD)/emu/vdpu-bench
	$(BUILD)/emu/vdpu-bench

# the longest test program: in shards (Makefile, tests/run.sh)
TEST_CMDS += $(call shards,$(BUILD)/tests/emu/test-vdpu)
TEST_DEPS += $(BUILD)/tests/emu/test-vdpu
