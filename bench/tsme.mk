# bench/tsme.mk -- the programs of the tsme study (included by the top-level
# Makefile after dpu/dpu.mk): not the library's, not installed; run by
# tests/test_tsme.c and `cryptopim bench --experiment tsme` (exp_tsme.c)
# from $(BUILD)/dpu/tsme.  PrIM's programs: bench/prim.mk.
#
# "TSME for MRAM" (dpu/tsme.h): an unchanged DPU program built
# with `-include tsme.h` keeps its MRAM heap AES-XTS encrypted.  The STREAM
# kernel of emu/validate/ so built, for tests/test_tsme.c and
# `cryptopim bench --experiment tsme`; plain builds beside them.
TSME_FLAGS := -Idpu -Isrc/crypto -include tsme.h
TSME_HDRS := dpu/tsme.h dpu/tsme_args.h dpu/xts_alpha.h src/crypto/aes.h
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
$(BUILD)/dpu/tsme/stream-t%: emu/validate/stream.c emu/validate/micro_args.h $(TSME_HDRS) \
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
$(BUILD)/dpu/tsme/seqio-t4: tests/tsme/seqio.c $(TSME_HDRS) $(BUILD)/dpu/obj/cpim_crypto_aes.o \
		$(DPU_DEPS_COMMON)
	@mkdir -p $(dir $@)
	$(DPU_CC) -O2 -Wall -Wextra -Werror -DNR_TASKLETS=4 -DSTACK_SIZE_DEFAULT=$(TSME_STACK) \
	    $(TSME_FLAGS) -o $@ $< $(BUILD)/dpu/obj/cpim_crypto_aes.o
$(BUILD)/dpu/tsme/plain-seqio-t4: tests/tsme/seqio.c $(DPU_DEPS_COMMON)
	@mkdir -p $(dir $@)
	$(DPU_CC) -O2 -Wall -Wextra -Werror -DNR_TASKLETS=4 -DSTACK_SIZE_DEFAULT=$(TSME_STACK) -o $@ $<
TSME_PROGS += $(BUILD)/dpu/tsme/seqio-t4 $(BUILD)/dpu/tsme/plain-seqio-t4

