# dpu/dpu.mk -- the DPU programs of the library (included by the top-level Makefile).
#
# $(BUILD)/dpu/NAME-t<T>, one per program and tasklet count T = 1..24,
# compiled by $(DPU_CC): the virtual UPMEM's wrapper, or the real SDK's
# dpu-upmem-dpurte-clang when installed (same flags, same rule).  The host
# (src/pim/) finds them in CPIM_DPU_DIR = $(BUILD)/dpu; dist/install.mk
# installs $(DPU_PROGS).  Study programs built from these sources' headers
# live with their owners (bench/tsme.mk, tests/emu/ntt.mk).

DPU_TASKLETS := $(shell seq 1 24)
DPU_CFLAGS := -O2 -Wall -Wextra -Werror -Idpu -Isrc/crypto
DPU_DEPS_COMMON := $(wildcard emu/dpu-include/*.h emu/rt/*) $(if $(filter emu/%,$(DPU_CC)),$(DPU_CC))
# The headers a program includes: its .d file, written by the compiler
# (clang's -MMD, the SDK's as the virtual UPMEM's) into $(BUILD)/dpu/dep/
# and read by the top-level Makefile's -include of every .d.
dpu_dep = -MMD -MP -MT $@ -MF $(BUILD)/dpu/dep/$(subst /,_,$(patsubst $(BUILD)/dpu/%,%,$@)).d

# The portable primitives do not depend on NR_TASKLETS: compiled once.
$(BUILD)/dpu/obj/cpim_crypto_%.o: src/crypto/%.c $(DPU_DEPS_COMMON)
	@mkdir -p $(dir $@) $(BUILD)/dpu/dep
	$(DPU_CC) $(DPU_CFLAGS) $(dpu_dep) -c -o $@ $<
.SECONDARY: $(BUILD)/dpu/obj/cpim_crypto_aes.o $(BUILD)/dpu/obj/cpim_crypto_sha256.o

# $(call dpu_program,NAME,SOURCE,FLAGS,PRIMITIVES,TASKLETS,INSTALL): the rule
# of $(BUILD)/dpu/NAME-t<T> for T in TASKLETS, SOURCE compiled with
# -DNR_TASKLETS=T and FLAGS, linked with the portable primitives named in
# PRIMITIVES (src/crypto/<name>.c); part of `make dpu`, and of DPU_PROGS
# (installed) when INSTALL is `install`.
dpu_objs = $(foreach p,$(1),$(BUILD)/dpu/obj/cpim_crypto_$(p).o)
define dpu_program
DPU_PROGS_$(1) := $$(foreach t,$(5),$$(BUILD)/dpu/$(1)-t$$(t))
$$(BUILD)/dpu/$(1)-t%: $(2) $$(call dpu_objs,$(4)) $$(DPU_DEPS_COMMON)
	@mkdir -p $$(dir $$@) $$(BUILD)/dpu/dep
	$$(DPU_CC) -DNR_TASKLETS=$$* $(3) $$(DPU_CFLAGS) $$(dpu_dep) -o $$@ $(2) $$(call dpu_objs,$(4))
dpu: $$(DPU_PROGS_$(1))
$(if $(filter install,$(6)),DPU_PROGS += $$(DPU_PROGS_$(1)))
endef

DPU_PROGS :=
# ECB / CTR / XTS (dpu/aes.c; the pim backend's AES)
$(eval $(call dpu_program,aes,dpu/aes.c,,aes,$(DPU_TASKLETS),install))
# SHA-256 of many messages (dpu/sha256.c)
$(eval $(call dpu_program,sha256,dpu/sha256.c,,sha256,$(DPU_TASKLETS),install))
# HMAC-SHA256 / PBKDF2 (dpu/hmac.c; the pim backend's hmac and pbkdf2 ops)
$(eval $(call dpu_program,hmac,dpu/hmac.c,,sha256,$(DPU_TASKLETS),install))
# AES-GCM (dpu/gcm.c; the AES kernels of dpu/aes_kernels.h)
$(eval $(call dpu_program,gcm,dpu/gcm.c,,aes,$(DPU_TASKLETS),install))
# NTT (dpu/ntt.c, contract dpu/ntt_args.h, host side src/pim/ntt.c), and the
# double-word program (q < 2^62): the same source with -DNTT_DWORD
$(eval $(call dpu_program,ntt,dpu/ntt.c,,,$(DPU_TASKLETS),install))
$(eval $(call dpu_program,ntt64,dpu/ntt.c,-DNTT_DWORD,,$(DPU_TASKLETS),install))
# The 1D radix-2 NTT (dpu/ntt_r2.c, the four-step kernel's comparison; not
# installed, not used by the pim backend): the tasklet counts the comparison
# (tests/emu/ntt.mk) and tests/test_ntt_r2.c use.
$(eval $(call dpu_program,ntt-r2,dpu/ntt_r2.c,,,1 4 8 16 24,))
# Resident regions: in-place XTS / CTR / re-key (resident-tT) and SHA-256
# (resident-sha-tT, -DRES_SHA_PROG) of data that stays in MRAM (dpu/resident.c)
$(eval $(call dpu_program,resident,dpu/resident.c,,aes,$(DPU_TASKLETS),install))
$(eval $(call dpu_program,resident-sha,dpu/resident.c,-DRES_SHA_PROG,aes sha256,$(DPU_TASKLETS),install))

# A deliberately faulting program under both names, for the fault tests.
$(BUILD)/dpu/fault/aes-t4 $(BUILD)/dpu/fault/sha256-t4: dpu/fault.c $(DPU_DEPS_COMMON)
	@mkdir -p $(dir $@) $(BUILD)/dpu/dep
	$(DPU_CC) -DNR_TASKLETS=4 $(DPU_CFLAGS) $(dpu_dep) -o $@ dpu/fault.c
dpu: $(BUILD)/dpu/fault/aes-t4 $(BUILD)/dpu/fault/sha256-t4

# The pim backend's shell tests (CLI against openssl / sha256sum, faults).
TEST_CMDS += "sh tests/cli_pim.sh $(CLI)"
