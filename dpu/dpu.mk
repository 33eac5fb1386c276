# dpu/dpu.mk -- the DPU programs (included by the top-level Makefile).
#
# $(BUILD)/dpu/aes-t<T> and $(BUILD)/dpu/sha256-t<T> for T = 1..24 tasklets,
# compiled by $(DPU_CC): the virtual UPMEM's wrapper, or the real SDK's
# dpu-upmem-dpurte-clang when installed (same flags, same rule).  The host
# (src/pim/) finds them in CPIM_DPU_DIR = $(BUILD)/dpu.

DPU_TASKLETS := $(shell seq 1 24)
DPU_PROGS := $(foreach t,$(DPU_TASKLETS),$(BUILD)/dpu/aes-t$(t) $(BUILD)/dpu/sha256-t$(t) \
               $(BUILD)/dpu/hmac-t$(t))
DPU_CFLAGS := -O2 -Wall -Wextra -Werror -Idpu -Isrc/crypto
DPU_DEPS_COMMON := $(wildcard emu/dpu-include/*.h emu/rt/*) $(if $(filter emu/%,$(DPU_CC)),$(DPU_CC))

# The portable primitives do not depend on NR_TASKLETS: compiled once.
$(BUILD)/dpu/obj/cpim_crypto_%.o: src/crypto/%.c src/crypto/%.h $(DPU_DEPS_COMMON)
	@mkdir -p $(dir $@)
	$(DPU_CC) $(DPU_CFLAGS) -c -o $@ $<

$(BUILD)/dpu/aes-t%: dpu/aes.c dpu/aes_args.h $(BUILD)/dpu/obj/cpim_crypto_aes.o $(DPU_DEPS_COMMON)
	$(DPU_CC) -DNR_TASKLETS=$* $(DPU_CFLAGS) -o $@ dpu/aes.c $(BUILD)/dpu/obj/cpim_crypto_aes.o

$(BUILD)/dpu/sha256-t%: dpu/sha256.c dpu/sha256_args.h dpu/sha256_rounds.h $(BUILD)/dpu/obj/cpim_crypto_sha256.o \
		$(DPU_DEPS_COMMON)
	$(DPU_CC) -DNR_TASKLETS=$* $(DPU_CFLAGS) -o $@ dpu/sha256.c $(BUILD)/dpu/obj/cpim_crypto_sha256.o

# HMAC-SHA256 / PBKDF2 (pim backend's hmac and pbkdf2 ops).
$(BUILD)/dpu/hmac-t%: dpu/hmac.c dpu/hmac_args.h dpu/sha256_rounds.h $(BUILD)/dpu/obj/cpim_crypto_sha256.o \
		$(DPU_DEPS_COMMON)
	$(DPU_CC) -DNR_TASKLETS=$* $(DPU_CFLAGS) -o $@ dpu/hmac.c $(BUILD)/dpu/obj/cpim_crypto_sha256.o

dpu: $(DPU_PROGS)

# The pim backend's shell tests (CLI against openssl / sha256sum, faults).
TEST_CMDS += "sh tests/cli_pim.sh $(CLI)"
.SECONDARY: $(BUILD)/dpu/obj/cpim_crypto_aes.o $(BUILD)/dpu/obj/cpim_crypto_sha256.o

# A deliberately faulting program under both names, for the fault tests.
$(BUILD)/dpu/fault/aes-t4 $(BUILD)/dpu/fault/sha256-t4: dpu/fault.c dpu/aes_args.h dpu/sha256_args.h \
		$(DPU_DEPS_COMMON)
	@mkdir -p $(dir $@)
	$(DPU_CC) -DNR_TASKLETS=4 $(DPU_CFLAGS) -o $@ dpu/fault.c

dpu: $(BUILD)/dpu/fault/aes-t4 $(BUILD)/dpu/fault/sha256-t4

# AES-GCM (issue 15): dpu/gcm.c includes dpu/aes.c's kernels.
DPU_GCM_PROGS := $(foreach t,$(DPU_TASKLETS),$(BUILD)/dpu/gcm-t$(t))
$(BUILD)/dpu/gcm-t%: dpu/gcm.c dpu/gcm_args.h dpu/aes_embed.h dpu/aes.c dpu/aes_args.h \
		$(BUILD)/dpu/obj/cpim_crypto_aes.o $(DPU_DEPS_COMMON)
	$(DPU_CC) -DNR_TASKLETS=$* $(DPU_CFLAGS) -o $@ dpu/gcm.c $(BUILD)/dpu/obj/cpim_crypto_aes.o

dpu: $(DPU_GCM_PROGS)
DPU_PROGS += $(DPU_GCM_PROGS) # installed with the others (dist/install.mk)

# NTT (issue 16): dpu/ntt.c, contract dpu/ntt_args.h (host side src/pim/pim_ntt.c).
DPU_NTT_PROGS := $(foreach t,$(DPU_TASKLETS),$(BUILD)/dpu/ntt-t$(t))
$(BUILD)/dpu/ntt-t%: dpu/ntt.c dpu/ntt_args.h dpu/ntt_mul.h dpu/ntt_wide.h $(DPU_DEPS_COMMON)
	$(DPU_CC) -DNR_TASKLETS=$* $(DPU_CFLAGS) -o $@ dpu/ntt.c

# The double-word program (q < 2^62): the same source with -DNTT_DWORD.
DPU_NTT64_PROGS := $(foreach t,$(DPU_TASKLETS),$(BUILD)/dpu/ntt64-t$(t))
$(BUILD)/dpu/ntt64-t%: dpu/ntt.c dpu/ntt_args.h dpu/ntt_mul.h dpu/ntt_wide.h $(DPU_DEPS_COMMON)
	$(DPU_CC) -DNR_TASKLETS=$* -DNTT_DWORD $(DPU_CFLAGS) -o $@ dpu/ntt.c

dpu: $(DPU_NTT_PROGS) $(DPU_NTT64_PROGS)
DPU_PROGS += $(DPU_NTT_PROGS) $(DPU_NTT64_PROGS) # installed with the others (dist/install.mk)

# The 1D radix-2 NTT (dpu/ntt_r2.c, the four-step kernel's comparison; not
# installed, not used by the pim backend): the tasklet counts the comparison
# (build/emu/ntt-compare) and tests/test_ntt_r2.c use.
DPU_NTT_R2_PROGS := $(foreach t,1 4 8 16 24,$(BUILD)/dpu/ntt-r2-t$(t))
$(BUILD)/dpu/ntt-r2-t%: dpu/ntt_r2.c dpu/ntt_args.h dpu/ntt_mul.h dpu/ntt_wide.h $(DPU_DEPS_COMMON)
	$(DPU_CC) -DNR_TASKLETS=$* $(DPU_CFLAGS) -o $@ dpu/ntt_r2.c

dpu: $(DPU_NTT_R2_PROGS)

# The kernel alone on one virtual DPU: output check and modeled counts (docs/NTT.md).
$(BUILD)/emu/ntt-counts: tests/emu/ntt_counts.c src/pim/ntt_tab.c src/pim/ntt_tab.h dpu/ntt_args.h $(VDPU_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(VDPU_CFLAGS) -Idpu -Isrc/pim -o $@ tests/emu/ntt_counts.c src/pim/ntt_tab.c $(VDPU_LIB) $(LDLIBS)

# The four-step and radix-2 kernels side by side on one virtual DPU (modeled cycles, slots,
# MRAM bytes per butterfly; docs/NTT.md, "Layout: four-step vs 1D radix-2"): CSV and plot
# into $(BENCH_OUT) by `make ntt-compare` (part of `make bench`), a quick run in `make test`.
NTT_COMPARE := $(BUILD)/emu/ntt-compare
$(NTT_COMPARE): tests/emu/ntt_compare.c src/pim/ntt_tab.c src/pim/ntt_tab.h dpu/ntt_args.h \
		$(BUILD)/plot/gnuplot.o $(VDPU_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(VDPU_CFLAGS) -Idpu -Isrc/pim -Iplot -o $@ tests/emu/ntt_compare.c src/pim/ntt_tab.c \
	    $(BUILD)/plot/gnuplot.o $(VDPU_LIB) $(LDLIBS)
.PHONY: ntt-compare
ntt-compare: $(NTT_COMPARE) $(DPU_NTT_PROGS) $(DPU_NTT_R2_PROGS)
	@mkdir -p $(BENCH_OUT)
	$(NTT_COMPARE) $(BUILD)/dpu --out $(BENCH_OUT)
TEST_CMDS += "sh tests/ntt_compare.sh $(NTT_COMPARE) $(BUILD)/dpu"
TEST_DEPS += $(NTT_COMPARE)

# Resident regions (issue 17): in-place XTS / CTR / re-key / SHA-256 of data
# that stays in MRAM (dpu/resident.c includes dpu/aes.c's kernels).
DPU_RES_PROGS := $(foreach t,$(DPU_TASKLETS),$(BUILD)/dpu/resident-t$(t) $(BUILD)/dpu/resident-sha-t$(t))
$(BUILD)/dpu/resident-t%: dpu/resident.c dpu/resident_args.h dpu/aes_embed.h dpu/aes.c dpu/aes_args.h \
		$(BUILD)/dpu/obj/cpim_crypto_aes.o $(BUILD)/dpu/obj/cpim_crypto_sha256.o $(DPU_DEPS_COMMON)
	$(DPU_CC) -DNR_TASKLETS=$* $(DPU_CFLAGS) -o $@ dpu/resident.c $(BUILD)/dpu/obj/cpim_crypto_aes.o
$(BUILD)/dpu/resident-sha-t%: dpu/resident.c dpu/resident_args.h dpu/aes_embed.h dpu/aes.c dpu/aes_args.h \
		$(BUILD)/dpu/obj/cpim_crypto_aes.o $(BUILD)/dpu/obj/cpim_crypto_sha256.o $(DPU_DEPS_COMMON)
	$(DPU_CC) -DNR_TASKLETS=$* -DRES_SHA_PROG $(DPU_CFLAGS) -o $@ dpu/resident.c \
	    $(BUILD)/dpu/obj/cpim_crypto_aes.o $(BUILD)/dpu/obj/cpim_crypto_sha256.o

dpu: $(DPU_RES_PROGS)
DPU_PROGS += $(DPU_RES_PROGS) # installed with the others (dist/install.mk)

# "TSME for MRAM" (issue 17, dpu/tsme.h): an unchanged DPU program built
# with `-include tsme.h` keeps its MRAM heap AES-XTS encrypted.  The STREAM
# kernel of emu/validate/ so built, for tests/test_tsme.c and
# `cryptopim bench --experiment tsme`; plain builds beside them.
TSME_FLAGS := -Idpu -Isrc/crypto -include tsme.h
TSME_T := 1 2 4 8 16 24
# WRAM: STREAM's 3 buffers per tasklet + the layer's stack and bounce buffer
# (~1 KiB per tasklet) + the AES tables must fit 64 KiB: 1 KiB DMAs (PrIM's
# BL=10) up to 8 tasklets, 512 B at 16, 256 B at 24 -- the plain build of
# the same tasklet count uses the same block, so each pair compares alike
TSME_BLOCK_16 := 512
TSME_BLOCK_24 := 256
tsme_block = $(or $(TSME_BLOCK_$(1)),1024)
# the layer's calls (a block cipher, a tweak) need more stack than the
# plain kernel's 256 bytes per tasklet
TSME_STACK := 768
$(BUILD)/dpu/tsme/stream-t%: emu/validate/stream.c emu/validate/micro_args.h dpu/tsme.h \
		$(BUILD)/dpu/obj/cpim_crypto_aes.o $(DPU_DEPS_COMMON)
	@mkdir -p $(dir $@)
	$(DPU_CC) -O2 -DNR_TASKLETS=$* -DMICRO_BLOCK=$(call tsme_block,$*)u \
	    -DSTACK_SIZE_DEFAULT=$(TSME_STACK) $(TSME_FLAGS) -o $@ $< $(BUILD)/dpu/obj/cpim_crypto_aes.o
$(BUILD)/dpu/tsme/plain-stream-t%: emu/validate/stream.c emu/validate/micro_args.h $(DPU_DEPS_COMMON)
	@mkdir -p $(dir $@)
	$(DPU_CC) -O2 -DNR_TASKLETS=$* -DMICRO_BLOCK=$(call tsme_block,$*)u -DSTACK_SIZE_DEFAULT=256 \
	    -o $@ $<
TSME_PROGS := $(foreach t,$(TSME_T),$(BUILD)/dpu/tsme/stream-t$(t) $(BUILD)/dpu/tsme/plain-stream-t$(t))

# tests/test_tsme.c's kernel of the seqread and unaligned paths (4 tasklets)
$(BUILD)/dpu/tsme/seqio-t4: tests/tsme/seqio.c dpu/tsme.h $(BUILD)/dpu/obj/cpim_crypto_aes.o \
		$(DPU_DEPS_COMMON)
	@mkdir -p $(dir $@)
	$(DPU_CC) -O2 -Wall -Wextra -Werror -DNR_TASKLETS=4 -DSTACK_SIZE_DEFAULT=$(TSME_STACK) \
	    $(TSME_FLAGS) -o $@ $< $(BUILD)/dpu/obj/cpim_crypto_aes.o
$(BUILD)/dpu/tsme/plain-seqio-t4: tests/tsme/seqio.c $(DPU_DEPS_COMMON)
	@mkdir -p $(dir $@)
	$(DPU_CC) -O2 -Wall -Wextra -Werror -DNR_TASKLETS=4 -DSTACK_SIZE_DEFAULT=$(TSME_STACK) -o $@ $<
TSME_PROGS += $(BUILD)/dpu/tsme/seqio-t4 $(BUILD)/dpu/tsme/plain-seqio-t4

# PrIM's VA and RED (issue 17 item 2), their dpu/task.c compiled unchanged
# with their own Makefiles' DPU flags, plain and with the TSME flag.  PrIM is
# not part of this repository: PRIM_DIR is a checkout of
# CMU-SAFARI/prim-benchmarks, or PRIM_GIT a clone of it (bare or not) that
# `git archive` extracts VA/ and RED/ from into $(BUILD)/prim.  Neither
# given (and no copy at the default place): the programs are not built, and
# the test and the experiment's VA/RED rows say they skip.
PRIM_GIT ?= $(wildcard /work/.mirror/CMU-SAFARI+prim-benchmarks/repo)
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
$(BUILD)/dpu/tsme/va-t%: $(PRIM_DIR)/VA/dpu/task.c dpu/tsme.h $(BUILD)/dpu/obj/cpim_crypto_aes.o $(DPU_DEPS_COMMON)
	@mkdir -p $(dir $@)
	$(DPU_CC) $(PRIM_VA_FLAGS) -DNR_TASKLETS=$* -DSTACK_SIZE_DEFAULT=$(TSME_STACK) $(TSME_FLAGS) \
	    -o $@ $< $(BUILD)/dpu/obj/cpim_crypto_aes.o
$(BUILD)/dpu/tsme/plain-va-t%: $(PRIM_DIR)/VA/dpu/task.c $(DPU_DEPS_COMMON)
	@mkdir -p $(dir $@)
	$(DPU_CC) $(PRIM_VA_FLAGS) -DNR_TASKLETS=$* -o $@ $<
$(BUILD)/dpu/tsme/red-t%: $(PRIM_DIR)/RED/dpu/task.c dpu/tsme.h $(BUILD)/dpu/obj/cpim_crypto_aes.o $(DPU_DEPS_COMMON)
	@mkdir -p $(dir $@)
	$(DPU_CC) $(PRIM_RED_FLAGS) -DNR_TASKLETS=$* -DSTACK_SIZE_DEFAULT=$(TSME_STACK) $(TSME_FLAGS) \
	    -o $@ $< $(BUILD)/dpu/obj/cpim_crypto_aes.o
$(BUILD)/dpu/tsme/plain-red-t%: $(PRIM_DIR)/RED/dpu/task.c $(DPU_DEPS_COMMON)
	@mkdir -p $(dir $@)
	$(DPU_CC) $(PRIM_RED_FLAGS) -DNR_TASKLETS=$* -o $@ $<
TSME_PROGS += $(foreach p,va red plain-va plain-red,$(BUILD)/dpu/tsme/$(p)-t$(PRIM_TSME_T))
endif
dpu: $(TSME_PROGS)
