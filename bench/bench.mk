# bench/bench.mk -- the experiment suite (included by the top-level Makefile).
#
#   make bench                       model validation + every experiment
#   make bench BENCH_MACHINE=prim    the experiments on another named machine
#   make bench BENCH_OUT=docs/results  regenerate the committed results
#   make bench-plot BENCH_OUT=docs/results  only redraw the PNGs from the CSVs there
#
# Two programs: the virtual UPMEM's model validation (emu/validate/,
# against the published numbers) and `cryptopim bench --experiment all`
# (the CryptoPIM study's experiments, bench/exp_*.c in cryptopim-bench).

BENCH_OUT ?= $(BUILD)/results
# The machine the experiments model (virtual UPMEM profile key machine=NAME,
# docs/MODEL.md): the CryptoPIM study's server (40 ranks, 450 MHz). The
# model validation compares with PrIM's published numbers, so it models
# PrIM's machine (350 MHz) whatever this says.
BENCH_MACHINE ?= study

# exp_tsme.c runs DPU programs itself through <dpu.h> (and the virtual
# UPMEM's <dpu_emu.h>) with dpu/tsme_host.h's key image: the one bench file
# that sees more than the public API.
$(BUILD)/bench/exp_tsme.o: INC_bench += -Idpu -Isrc/crypto $(DPU_HOST_CFLAGS)
$(BUILD)/bench/exp_tsme.o: DEFS_bench += -DCPIM_TSME_DIR='"$(DPU_DIR)/tsme"' \
                                         $(if $(REAL_SDK),,-DCPIM_VIRTUAL_UPMEM=1)
# The installed cryptopim-bench names no build-tree folder (tests/install.sh):
# its exp_tsme.o is built without CPIM_TSME_DIR.
INST_BENCH_TSME_O := $(BUILD)/inst/exp_tsme.o
$(INST_BENCH_TSME_O): bench/exp_tsme.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(INC_bench) -Idpu -Isrc/crypto $(DPU_HOST_CFLAGS) $(DEFS_bench) \
	    $(if $(REAL_SDK),,-DCPIM_VIRTUAL_UPMEM=1) -c $< -o $@

.PHONY: bench bench-experiments bench-plot
bench-experiments: all
	$(CLI) bench --experiment all --machine $(BENCH_MACHINE) --out $(BENCH_OUT)

# Plots only, from the CSVs in BENCH_OUT (nothing is re-run; needs gnuplot).
bench-plot: $(VALIDATE) $(CLI) $(BENCH_BIN)
	$(CLI) bench --replot $(BENCH_OUT)
	$(VALIDATE) --replot $(BENCH_OUT)

# Wall time of the whole suite is printed (measured clock).
bench: all $(VALIDATE) $(VALIDATE_DPUS) asap ntt-compare
	@start=$$(date +%s); \
	echo "bench: model validation on machine=prim (PrIM's 2,556-DPU system, 350 MHz: the machine of the published numbers)"; \
	UPMEM_PROFILE="machine=prim$${UPMEM_PROFILE:+,$$UPMEM_PROFILE}" \
	    $(VALIDATE) --out $(BENCH_OUT) --dpu-dir $(VALIDATE_DIR) && \
	echo "bench: experiments on machine=$(BENCH_MACHINE) (modeled; the CSVs' machine column)" && \
	$(CLI) bench --experiment all --machine $(BENCH_MACHINE) --out $(BENCH_OUT) && \
	echo "bench: all experiments done in $$(( $$(date +%s) - start )) s (measured wall time); modeled machine $(BENCH_MACHINE); results in $(BENCH_OUT)"

# ntt-compare (tests/emu/ntt.mk): the four-step vs 1D radix-2 NTT kernels, ntt-layout.csv/png.
# quick runs of both programs (tiny sizes, outputs checked) in `make test`
TEST_CMDS += "sh bench/test_bench.sh $(VALIDATE) $(VALIDATE_DIR) $(CLI)"
TEST_DEPS += $(VALIDATE) $(VALIDATE_DPUS)

# The AsAP comparison (docs/ASAP.md): AES cycles per byte on this CPU
# (measured) and on the modeled UPMEM machine, beside the study's table.
.PHONY: asap
asap: all
	@mkdir -p $(BENCH_OUT)
	$(CLI) benchmark --asap --csv --machine $(BENCH_MACHINE) > $(BENCH_OUT)/asap.csv
	@echo "asap: $(BENCH_OUT)/asap.csv (CPU rows measured, UPMEM rows modeled on machine=$(BENCH_MACHINE))"

# Overwriting an existing file against `openssl enc -out`, side by side in one
# run on a tmpfs and on the temporary folder's file system (measured wall
# time; CSV on stdout, the median ratio per file system on stderr).
.PHONY: bench-overwrite
bench-overwrite: $(CLI)
	@mkdir -p $(BENCH_OUT)
	sh bench/overwrite.sh $(CLI) $${OVERWRITE_MIB:-1024} $${OVERWRITE_RUNS:-5} > $(BENCH_OUT)/overwrite.csv

# The OpenSSL provider against OpenSSL's default provider, `openssl speed -evp`
# side by side in one run (measured wall time, one core; docs/PROVIDER.md,
# "Speed"): CSV with the ratio of every round, the median per row on stderr.
.PHONY: bench-provider
bench-provider: provider
	@mkdir -p $(BENCH_OUT)
	sh bench/provider_speed.sh $(BUILD)/provider > $(BENCH_OUT)/provider_speed.csv
