# emu/host.mk -- virtual UPMEM host library (<dpu.h>), included by the
# top-level Makefile in the section "# ---- emu: host library ----".
#
#   build/libdpu.a                 emu/host/*.c + the virtual DPU (emu/vdpu/*.c):
#                                  one archive, so `-ldpu` / DPU_HOST_LIBS is enough
#   build/tests/emu/host/test-host tests/emu/host (PASS/FAIL lines); and
#   tests/emu/host/modeled_time.sh: the modeled clock through upmem_env.sh;
#   tests/emu/python/run.sh: the Python module `dpu` (emu/python) through
#   upmem_env.sh and the SDK-shaped tree build/upmem (dist/install.mk);
#   tests/emu/compat/run.sh: host programs in the public programs' styles
#   (DPU code compiled at run time, dlopen()ed host code, whole ranks through
#   dpu_management.h); tests/emu/readme_flow.sh: the README's "your own UPMEM
#   programs" steps from a fresh build tree (CMake with pkg_check_modules and
#   with UPMEM_HOME)
#   make test-emu-host             those tests + the examples in emu/examples/
#   make test-emu-lib              tests/emu/lib (layers, exported names, parameter tables)
#
# Host C11, the project's warnings, -Werror; SAN=1 adds ASan/UBSan, SAN=thread TSan.

EMU_HOST_SRCS := $(wildcard emu/host/*.c)
EMU_HOST_OBJS := $(EMU_HOST_SRCS:%.c=$(BUILD)/%.o)
EMU_HOST_SANFLAGS := $(SANFLAGS)
EMU_HOST_CFLAGS = $(STD) $(WARN) $(CFLAGS) $(EMU_HOST_SANFLAGS) -Iemu/include -MMD -MP

$(BUILD)/emu/host/%.o: emu/host/%.c
	@mkdir -p $(dir $@)
	$(CC) $(EMU_HOST_CFLAGS) -c $< -o $@

# the vdpu objects come from emu/vdpu.mk (VDPU_OBJS)
$(BUILD)/libdpu.a: $(EMU_HOST_OBJS) $(VDPU_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# ---- tests: host program + DPU programs built with the toolchain wrapper ----
EMU_HOST_TDIR := $(BUILD)/tests/emu/host
EMU_HOST_DPU_SRCS := $(wildcard tests/emu/host/dpu/*.c)
EMU_HOST_DPU_BINS := $(EMU_HOST_DPU_SRCS:tests/emu/host/dpu/%.c=$(EMU_HOST_TDIR)/%.dpu)

$(EMU_HOST_TDIR)/%.dpu: tests/emu/host/dpu/%.c emu/bin/dpu-upmem-dpurte-clang
	@mkdir -p $(dir $@)
	emu/bin/dpu-upmem-dpurte-clang -DNR_TASKLETS=16 -O2 -o $@ $<

$(EMU_HOST_TDIR)/test-host: $(wildcard tests/emu/host/*.c) $(TEST_HARNESS) $(BUILD)/libdpu.a
	@mkdir -p $(dir $@)
	$(CC) $(EMU_HOST_CFLAGS) -Iemu/host -Itests -o $@ $(filter %.c,$^) $(BUILD)/libdpu.a $(LDLIBS)

EMU_HOST_TEST_CMDS := "cd $(EMU_HOST_TDIR) && ./test-host" \
    "sh emu/examples/run_all.sh $(abspath $(BUILD))" \
    "bash tests/emu/host/modeled_time.sh $(abspath $(BUILD))" \
    "sh tests/emu/python/run.sh $(abspath $(BUILD))" \
    "sh tests/emu/compat/run.sh $(abspath $(BUILD))" \
    "sh tests/emu/readme_flow.sh"

.PHONY: test-emu-host
test-emu-host: $(EMU_HOST_TDIR)/test-host $(EMU_HOST_DPU_BINS) $(BUILD)/libdpu.a emu
	@sh tests/run.sh $(EMU_HOST_TEST_CMDS)

emu: $(BUILD)/libdpu.a
TEST_CMDS += $(EMU_HOST_TEST_CMDS)
TEST_DEPS += $(EMU_HOST_TDIR)/test-host $(EMU_HOST_DPU_BINS) $(BUILD)/libdpu.a

# ---- tests/emu/lib: the virtual UPMEM as a whole ----
#   layers.sh   emu/host's layers run one way (no include cycle)
#   exports.sh  libdpu.a / libcryptopim.a export only the allowed names
#   names       a program defining libdpu.a's former internal names links and runs
#   params      parameter tables vs the profile parser and docs/VIRTUAL_UPMEM_HOST.md
#   sdk_names   our headers declare every name of the SDK's host headers
#               (tests/emu/lib/sdk_host_names.tsv), left-out ones documented
EMU_LIB_TDIR := $(BUILD)/tests/emu/lib

$(EMU_LIB_TDIR)/names: tests/emu/lib/names.c $(TEST_HARNESS) $(BUILD)/libdpu.a
	@mkdir -p $(dir $@)
	$(CC) $(EMU_HOST_CFLAGS) -Itests -o $@ $(filter %.c,$^) $(BUILD)/libdpu.a $(LDLIBS)

$(EMU_LIB_TDIR)/params: tests/emu/lib/params.c $(TEST_HARNESS) $(BUILD)/libdpu.a
	@mkdir -p $(dir $@)
	$(CC) $(EMU_HOST_CFLAGS) -Iemu/host -Itests -o $@ $(filter %.c,$^) $(BUILD)/libdpu.a $(LDLIBS)

EMU_LIB_TEST_CMDS := "sh tests/emu/lib/layers.sh emu/host" \
    "sh tests/emu/lib/exports.sh $(BUILD)" \
    "$(EMU_LIB_TDIR)/names $(EMU_HOST_TDIR)/basic.dpu" \
    "$(EMU_LIB_TDIR)/params docs/VIRTUAL_UPMEM_HOST.md" \
    "python3 tests/emu/lib/sdk_names.py $(BUILD)"
EMU_LIB_TEST_DEPS := $(EMU_LIB_TDIR)/names $(EMU_LIB_TDIR)/params $(EMU_HOST_TDIR)/basic.dpu \
    $(BUILD)/libdpu.a $(LIB)

.PHONY: test-emu-lib
test-emu-lib: $(EMU_LIB_TEST_DEPS)
	@sh tests/run.sh $(EMU_LIB_TEST_CMDS)

TEST_CMDS += $(EMU_LIB_TEST_CMDS)
TEST_DEPS += $(EMU_LIB_TEST_DEPS)

# ---- the C++ host API (<dpu>, emu/include/dpu.hpp): tests/emu/cpp ----
#   build/tests/emu/cpp/test-cpp   every method and copy overload against its
#                                  C twin (built as C++11; the header is also
#                                  compiled as C++20); make test-emu-cpp
# Without a C++ compiler ($(CXX), g++ by default) the test is reported skipped.
EMU_CPP_TDIR := $(BUILD)/tests/emu/cpp
EMU_CPP_HDRS := emu/include/dpu emu/include/dpu.hpp $(wildcard emu/include/*.h)
EMU_HAVE_CXX := $(shell command -v $(CXX) >/dev/null 2>&1 && echo 1)
EMU_CPP_CXXFLAGS = -std=c++11 $(CFLAGS) -Wall -Wextra -Werror -Wshadow $(EMU_HOST_SANFLAGS) \
    -Iemu/include -Itests

$(EMU_CPP_TDIR)/harness.o: tests/harness.c tests/test.h
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(WARN) $(CFLAGS) $(EMU_HOST_SANFLAGS) -c $< -o $@

$(EMU_CPP_TDIR)/cpp_kernel.dpu: tests/emu/cpp/dpu/cpp_kernel.c emu/bin/dpu-upmem-dpurte-clang
	@mkdir -p $(dir $@)
	emu/bin/dpu-upmem-dpurte-clang -DNR_TASKLETS=2 -O2 -Wall -Wextra -Werror -o $@ $<

$(EMU_CPP_TDIR)/test-cpp: tests/emu/cpp/test_cpp.cpp $(EMU_CPP_TDIR)/harness.o $(EMU_CPP_HDRS) \
    $(BUILD)/libdpu.a
	@mkdir -p $(dir $@)
	$(CXX) -std=c++20 -Wall -Wextra -Werror -Wshadow -Iemu/include -Itests -fsyntax-only $<
	$(CXX) $(EMU_CPP_CXXFLAGS) -o $@ $< $(EMU_CPP_TDIR)/harness.o $(BUILD)/libdpu.a $(LDLIBS)

ifeq ($(EMU_HAVE_CXX),1)
EMU_CPP_TEST_CMDS := "cd $(EMU_CPP_TDIR) && ./test-cpp"
EMU_CPP_TEST_DEPS := $(EMU_CPP_TDIR)/test-cpp $(EMU_CPP_TDIR)/cpp_kernel.dpu
else
EMU_CPP_TEST_CMDS := "sh -c '. tests/lib.sh; skip emu_cpp \"no C++ compiler ($(CXX))\"; finish'"
EMU_CPP_TEST_DEPS :=
endif

.PHONY: test-emu-cpp
test-emu-cpp: $(EMU_CPP_TEST_DEPS)
	@sh tests/run.sh $(EMU_CPP_TEST_CMDS)

TEST_CMDS += $(EMU_CPP_TEST_CMDS)
TEST_DEPS += $(EMU_CPP_TEST_DEPS)
