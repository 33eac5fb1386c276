# cryptopim -- the one Makefile.
#
#   make                 library, CLI, virtual UPMEM, DPU programs
#   make run             the main job (see README)
#   make test            every test; last line "N passed, N failed"
#   make check-sanitize  the unit tests under ASan + UBSan (build-san/)
#   make test-tsan       the threaded tests and CLI runs under ThreadSanitizer (build-tsan/)
#   make fuzz            every fuzz target for FUZZ_SECONDS (docs/FUZZING.md)
#   make bench           the experiment suite
#   make install         PREFIX=/usr/local DESTDIR= (also: uninstall, shared, deb;
#                        dist/install.mk, docs/INSTALL.md)
#
# Variables you may override: CC, CFLAGS, BUILD, SAN=1 (ASan + UBSan),
# SAN=thread (ThreadSanitizer: make test-tsan).
# Everything is built under $(BUILD)/.
#
# Builds are parallel by default, one job per online CPU (hundreds of small
# DPU programs make a serial build the longest part of `make test`); an
# explicit -jN (-j1 for a serial build) on the command line wins; sub-makes
# (the sanitizer build) share the top one's job server.
ifeq ($(MAKELEVEL)$(filter -j% j%,$(MAKEFLAGS))$(findstring jobserver,$(MAKEFLAGS)),0)
MAKEFLAGS += -j$(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
endif

# The longest test programs (unit, test-vdpu) run as shards, each every N-th
# test of the program, side by side with the rest (tests/run.sh).
TEST_SHARDS ?= 3
shards = $(foreach i,$(shell seq 0 $$(($(TEST_SHARDS) - 1))),"$(1) --shard=$(i)/$(TEST_SHARDS)")

CC      ?= cc
CFLAGS  ?= -O2 -g
BUILD   ?= build
WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
STD     := -std=c11 -D_POSIX_C_SOURCE=200809L
comma := ,
# SAN=thread: ThreadSanitizer (it excludes ASan); any other non-empty SAN: ASan + UBSan.
SANFLAGS := $(if $(filter thread,$(SAN)),-fsanitize=thread -fno-omit-frame-pointer,$(if $(SAN),-fsanitize=address$(comma)undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined))
BASE_CFLAGS = $(STD) $(WARN) $(CFLAGS) $(SANFLAGS) -MMD -MP
LDFLAGS ?=
LDLIBS  := -lpthread -lm

# Optional comparison libraries (`cryptopim speed --compare`; OpenSSL also the XTS tests,
# FLINT the NTT rows and tests).
HAVE_OPENSSL  := $(shell test -f /usr/include/openssl/evp.h && echo 1)
# FLINT (Debian libflint-dev): the NTT's independent reference in the tests
# and its speed comparison (bench/ntt_cpu.c).
HAVE_FLINT    := $(shell test -f /usr/include/flint/flint.h && echo 1)
HAVE_IPSEC_MB := $(shell test -f /usr/include/intel-ipsec-mb.h && echo 1)
COMPARE_DEFS  := $(if $(HAVE_OPENSSL),-DHAVE_OPENSSL=1) $(if $(HAVE_IPSEC_MB),-DHAVE_IPSEC_MB=1) \
                 $(if $(HAVE_FLINT),-DHAVE_FLINT=1)
COMPARE_LIBS  := $(if $(HAVE_OPENSSL),-lcrypto) $(if $(HAVE_IPSEC_MB),-lIPSec_MB) \
                 $(if $(HAVE_FLINT),-lflint -lgmp)
# The unit tests check XTS against OpenSSL's EVP API when it is there
# (tests/test_xts.c), and so does the CLI test's helper (tests/xts_ref.c).
TEST_OPENSSL_LIBS := $(if $(HAVE_OPENSSL),-lcrypto)
# ... and the NTT against FLINT (tests/test_ntt_flint.c; Debian libflint-dev).
TEST_FLINT_LIBS := $(if $(HAVE_FLINT),-lflint -lgmp)

# UPMEM: the real SDK when installed (UPMEM_HOME set, or its compiler on PATH),
# else the built-in virtual UPMEM in emu/.  The virtual UPMEM's SDK-shaped
# trees (build/upmem, an installed lib/upmem-virtual) are valid UPMEM_HOMEs
# too: their share/upmem/version says "virtual UPMEM", and so does the one
# next to a compiler wrapper of theirs on PATH; those mean "not the SDK".
# (The tree upmem_env.sh set counts as virtual even before it is built.)
virtual_tree = grep -qs 'virtual UPMEM' "$(1)/share/upmem/version"
virtual_home = $(filter $(patsubst %/,%,$(UPMEM_HOME)),$(abspath $(BUILD))/upmem \
    $(if $(UPMEM_EMU_HOME),$(UPMEM_EMU_HOME) $(UPMEM_EMU_HOME)/build/upmem) \
    $(if $(UPMEM_EMU_BUILD),$(UPMEM_EMU_BUILD)/upmem))
REAL_SDK := $(strip $(if $(UPMEM_HOME),$(if $(virtual_home),,\
              $(shell $(call virtual_tree,$(UPMEM_HOME)) || echo 1)),\
              $(shell c=$$(command -v dpu-upmem-dpurte-clang 2>/dev/null) && \
              ! echo "$$c" | grep -q 'emu/bin/dpu-upmem-dpurte-clang$$' && \
              ! $(call virtual_tree,$$(dirname "$$c")/..) && echo 1)))
ifeq ($(REAL_SDK),1)
DPU_CC        := dpu-upmem-dpurte-clang
DPU_HOST_CFLAGS := $(shell dpu-pkg-config --cflags dpu)
DPU_HOST_LIBS := $(shell dpu-pkg-config --libs dpu)
DPU_HOST_DEPS :=
else
DPU_CC        := emu/bin/dpu-upmem-dpurte-clang
DPU_HOST_CFLAGS := -Iemu/include
DPU_HOST_LIBS := $(BUILD)/libdpu.a
DPU_HOST_DEPS := $(BUILD)/libdpu.a
endif

.PHONY: all lib cli provider run test check-sanitize san-build tsan-build test-tsan bench clean format format-check dpu emu fuzz
all: lib cli dpu

# ---- layers -------------------------------------------------------------------
# Each folder is compiled with the include paths of the layers it may use and
# no others (docs/ARCHITECTURE.md): including another layer's header fails
# the build ("No such file").  The virtual UPMEM (emu/) and the DPU programs
# (dpu/) have their own flags in their .mk files.  plot/ (the one plotting
# module: stdio and gnuplot) is below everything that draws.
INC_src/crypto := -Isrc/crypto
INC_src/core   := -Iinclude -Isrc/core -Isrc/crypto
INC_src/cpu    := -Iinclude -Isrc/core -Isrc/crypto
INC_src/pim    := -Iinclude -Isrc/core -Isrc/crypto -Isrc/pim -Idpu $(DPU_HOST_CFLAGS)
INC_tools      := -Iinclude -Itools
INC_bench      := -Iinclude -Itools -Ibench -Iplot
INC_plot       := -Iplot
INC_tests      := -Iinclude -Isrc/core -Isrc/crypto -Isrc/pim -Idpu $(DPU_HOST_CFLAGS) \
                  $(if $(HAVE_FLINT),-DCPIM_HAVE_FLINT=1)

# Where the uninstalled library finds its DPU programs.  The sanitizer build
# uses the main build's: a DPU program does not depend on the host's flags.
DPU_DIR  ?= $(abspath $(BUILD))/dpu
PIM_DEFS := -DCPIM_DPU_DIR='"$(DPU_DIR)"' $(if $(REAL_SDK),,-DCPIM_VIRTUAL_UPMEM=1)
DEFS_src/pim := $(PIM_DEFS)
DEFS_tests   := $(PIM_DEFS) $(if $(HAVE_OPENSSL),-DHAVE_OPENSSL=1)
DEFS_bench   := $(COMPARE_DEFS)

layer = $(patsubst %/,%,$(dir $(1)))

# ---- library -----------------------------------------------------------------
LIB_SRCS := $(wildcard src/core/*.c src/crypto/*.c src/cpu/*.c src/pim/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
LIB      := $(BUILD)/libcryptopim.a

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(INC_$(call layer,$<)) $(DEFS_$(call layer,$<)) -c $< -o $@

# The multi-buffer SHA-256 kernels: clang-14 (already needed for the DPU
# programs) schedules their unrolled rounds 25-35% faster than gcc 12 does
# (docs/CRYPTO.md, "The `shani` engines").  $(CC) when clang-14 is absent,
# and under SAN=1 (the two compilers' sanitizer runtimes do not mix).
SIMD_SRCS := src/cpu/sha256_avx512.c src/cpu/sha256_avx2.c
SIMD_CC   := $(if $(SAN),$(CC),$(shell command -v clang-14 2>/dev/null || echo $(CC)))
$(SIMD_SRCS:%.c=$(BUILD)/%.o): $(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(SIMD_CC) $(BASE_CFLAGS) $(INC_src/cpu) -c $< -o $@

$(LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

lib: $(LIB)

# ---- CLI and the experiment suite -------------------------------------------------
CLI_SRCS := $(wildcard tools/*.c)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/%.o)
CLI      := $(BUILD)/cryptopim
# cryptopim-bench: speed, study, bench (bench/), run by `cryptopim` for them;
# it shares the CLI's option scanner (tools/cli.c).
BENCH_SRCS := $(wildcard bench/*.c)
BENCH_OBJS := $(BENCH_SRCS:%.c=$(BUILD)/%.o) $(BUILD)/tools/cli.o $(BUILD)/plot/gnuplot.o
BENCH_BIN  := $(BUILD)/cryptopim-bench

$(CLI): $(CLI_OBJS) $(LIB) $(DPU_HOST_DEPS)
	$(CC) $(CFLAGS) $(SANFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJS) $(LIB) $(DPU_HOST_LIBS) $(LDLIBS)

$(BENCH_BIN): $(BENCH_OBJS) $(LIB) $(DPU_HOST_DEPS)
	$(CC) $(CFLAGS) $(SANFLAGS) $(LDFLAGS) -o $@ $(BENCH_OBJS) $(LIB) $(DPU_HOST_LIBS) \
	    $(COMPARE_LIBS) $(LDLIBS)

cli: $(CLI) $(BENCH_BIN)

# cryptopim-mpi (mpi/, docs/MPI.md): the commands over MPI processes, built
# when Open MPI's compiler wrapper is found (Debian: openmpi-bin +
# libopenmpi-dev); it links the CLI's parsers (tools/) and the library.
# The objects are compiled by $(CC) with the wrapper's flags, so the layer
# rule above applies to mpi/ like any folder.
HAVE_MPI := $(shell command -v mpicc >/dev/null 2>&1 && echo 1)
MPI_BIN  := $(if $(HAVE_MPI),$(BUILD)/cryptopim-mpi)
ifeq ($(HAVE_MPI),1)
INC_mpi   := -Iinclude -Itools -Impi $(shell mpicc --showme:compile 2>/dev/null)
MPI_LIBS  := $(shell mpicc --showme:link 2>/dev/null)
MPI_SRCS  := $(wildcard mpi/*.c)
MPI_OBJS  := $(MPI_SRCS:%.c=$(BUILD)/%.o) $(BUILD)/tools/cli.o $(BUILD)/tools/encdec_args.o \
             $(BUILD)/tools/encdec.o \
             $(BUILD)/tools/checkfile.o $(BUILD)/tools/ntt.o $(BUILD)/tools/outfile.o \
             $(BUILD)/tools/sumout.o
$(MPI_BIN): $(MPI_OBJS) $(LIB) $(DPU_HOST_DEPS)
	$(CC) $(CFLAGS) $(SANFLAGS) $(LDFLAGS) -o $@ $(MPI_OBJS) $(LIB) $(DPU_HOST_LIBS) \
	    $(MPI_LIBS) $(LDLIBS)
cli: $(MPI_BIN)
else
cli: mpi-skipped
.PHONY: mpi-skipped
mpi-skipped:
	@echo "cryptopim-mpi: not built (no mpicc; Debian: apt-get install openmpi-bin libopenmpi-dev)"
endif

# The one test harness (tests/test.h): every C test program links it, the
# emu ones as source (it needs only libc; they build with their own flags).
TEST_HARNESS := tests/harness.c tests/test.h

# ---- emu: virtual DPU ----
include emu/vdpu.mk
include emu/rt.mk
include emu/softfloat.mk
# ---- end emu: virtual DPU ----

# ---- emu: host library (<dpu.h>) ----
include emu/host.mk
include emu/prof.mk
# ---- end emu: host library ----

# ---- DPU programs ----
include dpu/dpu.mk
# ---- end DPU programs ----
# Study programs on the DPU programs' headers and flags (after dpu/dpu.mk):
# the tsme study's (its own and PrIM's), the NTT kernels' tools.
include bench/tsme.mk
include bench/prim.mk
include tests/emu/ntt.mk
include tests/emu/kernels.mk

# ---- model validation (emu/validate/) and experiments (bench/) ----
include emu/validate/validate.mk
include bench/bench.mk

# ---- libhexl: the HEXL-compatible C++ library (for SEAL) ----
include hexl/hexl.mk

# ---- shared libraries, install, Debian package ----
include dist/install.mk

# ---- the OpenSSL 3 provider (provider/, docs/PROVIDER.md) ----
include provider/provider.mk

# ---- tests -------------------------------------------------------------------
UNIT_SRCS := tests/main.c tests/harness.c tests/common.c $(wildcard tests/test_*.c)
UNIT_OBJS := $(UNIT_SRCS:%.c=$(BUILD)/%.o)
UNIT      := $(BUILD)/tests/unit

$(UNIT): $(UNIT_OBJS) $(LIB) $(DPU_HOST_DEPS)
	$(CC) $(CFLAGS) $(SANFLAGS) $(LDFLAGS) -o $@ $(UNIT_OBJS) $(LIB) $(DPU_HOST_LIBS) \
	    $(TEST_OPENSSL_LIBS) $(TEST_FLINT_LIBS) $(LDLIBS)

# Programs that misbehave on purpose, for the harness's own tests
# (tests/selftest/selftest.sh checks run.sh reports each as failures).
SELFTEST_BAD := $(BUILD)/tests/selftest-bad
$(SELFTEST_BAD): tests/selftest/bad.c $(TEST_HARNESS)
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(WARN) $(CFLAGS) $(SANFLAGS) -Itests -o $@ $(filter %.c,$^)

# The XTS reference of tests/cli.sh (OpenSSL's EVP API), when OpenSSL is there.
XTS_REF := $(BUILD)/tests/xts-ref
$(XTS_REF): tests/xts_ref.c
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(WARN) $(CFLAGS) $(SANFLAGS) -o $@ $< $(TEST_OPENSSL_LIBS)
TEST_DEPS += $(if $(HAVE_OPENSSL),$(XTS_REF))

# The ctgrind-style constant-time test (tests/ct/): a program run
# under valgrind's memcheck by its script (which skips without valgrind).
# Not in the sanitized run: ASan and valgrind do not mix.  Linked without
# debug info: valgrind 3.19 cannot read clang-14's DWARF 5 (sha256_avx*.o)
# and gives up; its reports still name the functions.
CT_VALGRIND := $(BUILD)/tests/ct-valgrind
$(CT_VALGRIND): tests/ct/ct_valgrind.c $(LIB) $(DPU_HOST_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(INC_tests) -Wl,--strip-debug -o $@ $< $(LIB) $(DPU_HOST_LIBS) $(LDLIBS)
TEST_DEPS += $(CT_VALGRIND)
TEST_CMDS += "sh tests/ct/ct_valgrind.sh $(CT_VALGRIND)"

# Test commands run by tests/run.sh; sections above append to TEST_CMDS.
TEST_CMDS += "sh tests/selftest/selftest.sh $(SELFTEST_BAD)"
TEST_DEPS += $(SELFTEST_BAD)
TEST_CMDS += $(call shards,$(UNIT))
TEST_CMDS += "sh tests/layers.sh $(BUILD)"
TEST_CMDS += "sh tests/cli.sh $(CLI)"
# No path of one particular machine in the tracked files (tests/paths.sh).
TEST_CMDS += "sh tests/paths.sh"
TEST_CMDS += "sh tests/cli_keys.sh $(CLI)"
TEST_CMDS += "sh tests/cli_hostile.sh $(CLI)"
TEST_CMDS += "sh tests/cli_docs.sh $(CLI) docs/CLI.md man/cryptopim.1 $(MPI_BIN)"
TEST_CMDS += "sh tests/cli_sha256sum.sh $(CLI)"
TEST_CMDS += "sh tests/cli_hmac.sh $(CLI)"
TEST_CMDS += "sh tests/cli_ntt.sh $(CLI)"
TEST_CMDS += "sh tests/cli_benchmark.sh $(CLI)"
TEST_DEPS += $(UNIT) $(CLI) $(BENCH_BIN)
# AES-GCM's CLI against OpenSSL's EVP through a small C reference
# (`openssl enc` refuses AEAD ciphers): without OpenSSL's headers the script
# skips its comparisons.
GCM_REF := $(if $(HAVE_OPENSSL),$(BUILD)/tests/gcm_ref)
$(BUILD)/tests/gcm_ref: tests/gcm_ref.c
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(WARN) $(CFLAGS) $(SANFLAGS) -o $@ $< -lcrypto
TEST_CMDS += "sh tests/cli_gcm.sh $(CLI) $(GCM_REF)"
# cryptopim-mpi under mpirun (skips itself without mpirun or the binary)
TEST_CMDS += "sh tests/cli_mpi.sh $(BUILD)/cryptopim-mpi $(CLI)"
TEST_DEPS += $(MPI_BIN)
TEST_DEPS += $(GCM_REF)

# The same tests again on an ASan + UBSan build (build-san/): the unit tests
# (every backend, the pim backend on the virtual UPMEM), the CLI tests and
# the virtual DPU's tests.
SAN_BUILD     := build-san
SAN_ENV       := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1
SAN_TEST_CMDS := $(call shards,$(SAN_ENV) $(SAN_BUILD)/tests/unit) \
                 "$(SAN_ENV) sh tests/cli.sh $(SAN_BUILD)/cryptopim" \
                 "$(SAN_ENV) sh tests/cli_keys.sh $(SAN_BUILD)/cryptopim" \
                 "$(SAN_ENV) sh tests/cli_hostile.sh $(SAN_BUILD)/cryptopim" \
                 "$(SAN_ENV) sh tests/cli_sha256sum.sh $(SAN_BUILD)/cryptopim" \
                 $(call shards,$(SAN_ENV) $(SAN_BUILD)/tests/emu/test-vdpu) \
                 "cd $(BUILD)/tests/emu/host && $(SAN_ENV) $(abspath $(SAN_BUILD))/tests/emu/host/test-host emu_host_freed emu_host_free_only emu_host_alloc emu_host_sdk_"

# ---- fuzz targets (replayed in the sanitizer build; `make fuzz`) ----
include tests/fuzz/fuzz.mk

san-build: dpu
	@$(MAKE) --no-print-directory BUILD=$(SAN_BUILD) SAN=1 CFLAGS="-O1 -g" \
	    DPU_DIR=$(abspath $(BUILD))/dpu \
	    $(SAN_BUILD)/tests/unit $(SAN_BUILD)/cryptopim $(SAN_BUILD)/cryptopim-bench \
	    $(SAN_BUILD)/tests/emu/test-vdpu $(SAN_BUILD)/tests/emu/host/test-host $(SAN_FUZZ_REPLAYS)

# The tests run with a clean MAKEFLAGS: a test that calls make (tests/install.sh)
# must not inherit this make's job server, whose pipes it does not get.
test: all $(TEST_DEPS) san-build
	@MAKEFLAGS= sh tests/run.sh $(SAN_TEST_CMDS) $(TEST_CMDS)

check-sanitize: san-build $(EMU_HOST_DPU_BINS)
	@MAKEFLAGS= sh tests/run.sh $(SAN_TEST_CMDS)

# ThreadSanitizer (build-tsan/, SAN=thread; docs/ARCHITECTURE.md, "Tests"):
# the programs with threads -- the CLI's reader/writer (tools/iopipe.c) and
# hasher (tools/sums_hash.c) threads, the library's host threads
# (src/core/parallel.c) and the virtual UPMEM's per-rank queues and DPU pool
# (emu/host/queue.c, pool.c) -- run by tests/tsan.sh and the unit and
# emu-host tests that start threads.  The DPU programs are the main build's,
# as in build-san/.  A report fails the command (TSan's exit code 66);
# tests/tsan.supp holds the suppressions, each with its reason.
TSAN_BUILD := build-tsan
TSAN_ENV   := TSAN_OPTIONS='exitcode=66 halt_on_error=0 second_deadlock_stack=1 suppressions=$(abspath tests/tsan.supp)'
# A selection of the unit and emu-host tests that start threads: the CPU
# backends' host threads, concurrent and shared pim contexts, a walk of
# injected failures in async-exec mode (the per-rank worker threads on their
# error paths), the virtual UPMEM's queues, callbacks and pipelines.  All of
# the unit tests would take over half an hour (TSan slows the virtual DPU
# down several times over).  The emu-host ones run where the main build put
# their DPU programs.
TSAN_UNIT_TESTS := hw_aesni_threads hw_shani_threads hw_shani_scheduler pim_open_concurrent \
    pim_shared_context_busy pim_timing_only_contract pim_faults_ctr_async_exec gcm_auto_random \
    hmac_pim_shapes
TSAN_HOST_TESTS := emu_host_modeled_time_threads emu_parallel_ emu_host_async_order \
    emu_host_ranks_independent emu_host_callbacks_sticky emu_host_clock_pipeline \
    emu_host_freed_check_in_queued_callback
TSAN_TEST_CMDS := "$(TSAN_ENV) sh tests/tsan.sh $(TSAN_BUILD)" \
    "$(TSAN_ENV) $(TSAN_BUILD)/tests/unit $(TSAN_UNIT_TESTS)" \
    "cd $(EMU_HOST_TDIR) && $(TSAN_ENV) $(abspath $(TSAN_BUILD))/tests/emu/host/test-host $(TSAN_HOST_TESTS)"

tsan-build: dpu
	@$(MAKE) --no-print-directory BUILD=$(TSAN_BUILD) SAN=thread CFLAGS="-O1 -g" \
	    DPU_DIR=$(abspath $(BUILD))/dpu \
	    $(TSAN_BUILD)/tests/unit $(TSAN_BUILD)/cryptopim $(TSAN_BUILD)/tests/emu/host/test-host

test-tsan: tsan-build $(EMU_HOST_DPU_BINS)
	@MAKEFLAGS= sh tests/run.sh $(TSAN_TEST_CMDS)

# ---- main job and experiments ---------------------------------------------------
run: all
	$(CLI) study

clean:
	rm -rf build build-san build-tsan

# C and C++ sources (emu/include/dpu is the C++ header `#include <dpu>`)
FORMAT_FILES = $$(git ls-files '*.c' '*.h' '*.cpp' '*.hpp' emu/include/dpu)
format:
	clang-format -i $(FORMAT_FILES)

# Lists the files that differ from .clang-format (exit 1 if any).
format-check:
	@bad=$$(for f in $(FORMAT_FILES); do \
	    clang-format --dry-run "$$f" 2>&1 | grep -q warning && echo "$$f"; done); \
	if [ -n "$$bad" ]; then echo "not clang-formatted:"; echo "$$bad"; exit 1; fi

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
