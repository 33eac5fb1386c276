# tests/fuzz/fuzz.mk -- fuzz targets (included by the top-level Makefile
# after SAN_TEST_CMDS). The convention, in docs/FUZZING.md:
#
#   tests/fuzz/fuzz_<name>.c      defines LLVMFuzzerTestOneInput (and may define
#                                 LLVMFuzzerInitialize / LLVMFuzzerCustomMutator)
#   tests/fuzz/corpus/<name>/     its seed corpus (small files, committed)
#
# Targets are found by wildcard. Each is linked with the CLI's parsers
# (tools/cli.o, tools/encdec_args.o), the provider's (provider/cnf.o), the library
# and libdpu.a (virtual UPMEM host + virtual DPU), with the include paths of
# those layers, so a target can call into any of them.
#
#   make fuzz                 libFuzzer + ASan + UBSan (clang-14), each target
#                             for FUZZ_SECONDS on a copy of its corpus; the
#                             crashes land in build/fuzz/crashes/<name>/
#   make test                 replays every corpus (tests/fuzz/replay.c) in the
#                             sanitizer build, one test per target (the
#                             harness of tests/test.h)

FUZZ_SRCS  := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_NAMES := $(FUZZ_SRCS:tests/fuzz/fuzz_%.c=%)
FUZZ_INC   := -Iinclude -Isrc/core -Itools -Iprovider -Iemu/include -Iemu/host -Iemu/vdpu
FUZZ_DEPS   = $(BUILD)/tools/cli.o $(BUILD)/tools/encdec_args.o $(BUILD)/provider/cnf.o $(LIB) \
              $(BUILD)/libdpu.a

# ---- replay: the same sources with replay.c as main(), any build ----
$(BUILD)/tests/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(TEST_HARNESS) $(FUZZ_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(WARN) $(CFLAGS) $(SANFLAGS) $(FUZZ_INC) -Itests -o $@ tests/fuzz/fuzz_$*.c \
	    tests/fuzz/replay.c tests/harness.c $(FUZZ_DEPS) $(LDLIBS)

# a target that compiles in a source file of another folder names it here
# (the replays; the libFuzzer rule links every prerequisite)
$(BUILD)/tests/fuzz/fuzz_residentpart: bench/resident_part.c bench/resident_part.h

FUZZ_REPLAYS := $(FUZZ_NAMES:%=$(BUILD)/tests/fuzz/fuzz_%)
SAN_FUZZ_REPLAYS := $(FUZZ_NAMES:%=$(SAN_BUILD)/tests/fuzz/fuzz_%)
SAN_TEST_CMDS += $(foreach n,$(FUZZ_NAMES),"$(SAN_ENV) $(SAN_BUILD)/tests/fuzz/fuzz_$(n) tests/fuzz/corpus/$(n)")

# ---- libFuzzer ----
FUZZ_CC      ?= clang-14
FUZZ_SECONDS ?= 60
FUZZ_DIR     := build/fuzz
# everything the targets call is instrumented for coverage, not only the targets
FUZZ_CFLAGS  := -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined \
                -fno-sanitize-recover=undefined
FUZZ_BINS    := $(FUZZ_NAMES:%=$(FUZZ_DIR)/fuzz_%)

.PHONY: fuzz fuzz-build
# (dpu: the pim backend is available only where its DPU programs are built)
fuzz-build:
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_DIR)/obj CC=$(FUZZ_CC) CFLAGS="$(FUZZ_CFLAGS)" \
	    $(FUZZ_DIR)/obj/tools/cli.o $(FUZZ_DIR)/obj/tools/encdec_args.o \
	    $(FUZZ_DIR)/obj/provider/cnf.o \
	    $(FUZZ_DIR)/obj/libcryptopim.a $(FUZZ_DIR)/obj/libdpu.a dpu \
	    $(FUZZ_BINS)

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_DIR)/obj/tools/cli.o \
		$(FUZZ_DIR)/obj/tools/encdec_args.o $(FUZZ_DIR)/obj/provider/cnf.o \
		$(FUZZ_DIR)/obj/libcryptopim.a \
		$(FUZZ_DIR)/obj/libdpu.a
	$(FUZZ_CC) $(STD) $(WARN) -O1 -g -fno-omit-frame-pointer \
	    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined $(FUZZ_INC) -o $@ \
	    $< $(filter-out $<,$^) $(LDLIBS)

# One target after the other (the machine is shared: one core each); a
# summary line per target, then exit 1 if anything was found.
fuzz: fuzz-build
	@found=0; for n in $(FUZZ_NAMES); do \
	    mkdir -p $(FUZZ_DIR)/corpus/$$n $(FUZZ_DIR)/crashes/$$n; \
	    cp tests/fuzz/corpus/$$n/* $(FUZZ_DIR)/corpus/$$n/ 2>/dev/null; \
	    echo "== fuzz_$$n for $(FUZZ_SECONDS) s (log: $(FUZZ_DIR)/fuzz_$$n.log)"; \
	    $(FUZZ_DIR)/fuzz_$$n -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	        -artifact_prefix=$(FUZZ_DIR)/crashes/$$n/ $(FUZZ_ARGS) \
	        $(FUZZ_DIR)/corpus/$$n >$(FUZZ_DIR)/fuzz_$$n.log 2>&1; rc=$$?; \
	    grep -E '^#[0-9]+[[:space:]]+DONE' $(FUZZ_DIR)/fuzz_$$n.log | tail -n 1; \
	    grep -E '^stat::(number_of_executed_units|peak_rss_mb)' $(FUZZ_DIR)/fuzz_$$n.log; \
	    if [ $$rc -ne 0 ]; then found=1; \
	        echo "FOUND fuzz_$$n (exit $$rc):"; ls $(FUZZ_DIR)/crashes/$$n; \
	        grep -m 3 -E 'ERROR|runtime error|deadly signal' $(FUZZ_DIR)/fuzz_$$n.log; fi; \
	done; exit $$found
.SECONDARY: $(BUILD)/provider/cnf.o
