# bench/bench.mk -- the experiment suite (included by the top-level Makefile).
#
#   make bench                       model validation + every experiment, as
#                                    parallel jobs (BENCH_JOBS=1: one at a time)
#   make bench-check                 modeled rows of BENCH_OUT vs docs/results
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

.PHONY: bench bench-experiments bench-plot bench-jobs bench-check
bench-experiments: all
	$(CLI) bench --experiment all --machine $(BENCH_MACHINE) --out $(BENCH_OUT)

# Plots only, from the CSVs in BENCH_OUT (nothing is re-run; needs gnuplot).
bench-plot: $(VALIDATE) $(CLI) $(BENCH_BIN)
	$(CLI) bench --replot $(BENCH_OUT)
	$(VALIDATE) --replot $(BENCH_OUT)

# `make bench` runs its parts as parallel jobs, one per program or
# experiment (BENCH_JOBS of them at once, default the host's cores): each
# experiment draws its own data (bench.c, experiments[]), so the jobs'
# outputs are those of one sequential run.  The measured CPU baselines must
# not share the cores with a simulation: every job holds the lock file
# BENCH_LOCK shared while it works and exclusively while it measures
# (bench/quiet.h, as `cryptopim benchmark --asap` does; flock(1) for the
# other programs, shared: validate and ntt-compare only model).  Each
# experiment's progress goes to $(BUILD)/bench-logs/NAME.log (resident's to
# resident-PART.log).  Wall time of the whole suite is printed
# (measured clock).
BENCH_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
BENCH_LOCK  = $(BUILD)/bench-logs/lock
BENCH_LOGS  = $(BUILD)/bench-logs
# BENCH_FLAGS: more options of `cryptopim bench` (--no-sample, --quick).
BENCH_FLAGS ?=
# Order: the longest first (make -j starts the jobs in the order of
# bench-jobs' prerequisites), so that the last jobs to end are short ones
# and the two cores stay busy to the end.  resident is split into parts
# (CRYPTOPIM_RESIDENT_PART, exp_resident.c): its host rows, its in-place
# half (one job: after the first point its passes are reused, sampleReuse),
# and its through-the-bus half one point per job (no reuse: each call's
# tweaks differ), the last one taking the points from the 4th on;
# bench/merge_resident.sh puts their rows back in the order of one run:
# the host rows, then per rank count the in-place rows and the bus rows.
RESIDENT_PARTS := host in-place bus.0 bus.1 bus.2 bus.3+
BENCH_SH    = flock -s $(BENCH_LOCK)

bench: all $(VALIDATE) $(VALIDATE_DPUS) $(NTT_COMPARE) $(DPU_PROGS_ntt) $(DPU_PROGS_ntt-r2)
	@mkdir -p $(BENCH_OUT) $(BENCH_LOGS)
	@start=$$(date +%s); \
	echo "bench: $(BENCH_JOBS) parallel jobs; experiments on machine=$(BENCH_MACHINE) (modeled; the CSVs' machine column), model validation on machine=prim"; \
	$(MAKE) --no-print-directory -j$(BENCH_JOBS) bench-jobs && \
	rm -f $(BENCH_LOCK) $(BENCH_LOCK).gate && \
	echo "bench: all experiments done in $$(( $$(date +%s) - start )) s (measured wall time, $(BENCH_JOBS) jobs); modeled machine $(BENCH_MACHINE); results in $(BENCH_OUT)"

# the jobs, longest first (CPU time of each: docs/RESULTS.md); the short
# measuring ones last, beside short simulations
bench-jobs: bench-exp-tasklets bench-exp-ranks bench-resident-in-place bench-resident-bus.3+ \
	    bench-exp-ntt bench-resident-bus.2 bench-exp-servers bench-resident-bus.1 \
	    bench-resident-bus.0 bench-job-asap bench-exp-strong bench-exp-weak \
	    bench-job-ntt-compare bench-exp-tsme bench-exp-roofline bench-resident-host \
	    bench-job-validate bench-resident-merge
bench-resident-merge: $(addprefix bench-resident-,$(RESIDENT_PARTS))
	sh bench/merge_resident.sh $(foreach p,$(RESIDENT_PARTS),$(BENCH_LOGS)/resident-$(p)/resident.csv) \
	    >$(BENCH_OUT)/resident.csv.tmp && mv $(BENCH_OUT)/resident.csv.tmp $(BENCH_OUT)/resident.csv
	if command -v gnuplot >/dev/null 2>&1; then $(CLI) bench --replot $(BENCH_OUT) --experiment resident; fi
bench-resident-%:
	@mkdir -p $(BENCH_LOGS)/resident-$*
	CRYPTOPIM_BENCH_LOCK=$(BENCH_LOCK) CRYPTOPIM_RESIDENT_PART=$* $(CLI) bench --experiment resident \
	    --machine $(BENCH_MACHINE) --out $(BENCH_LOGS)/resident-$* $(BENCH_FLAGS) \
	    2>$(BENCH_LOGS)/resident-$*.log || { tail -n 5 $(BENCH_LOGS)/resident-$*.log; exit 1; }
	@tail -n 1 $(BENCH_LOGS)/resident-$*.log
bench-exp-%:
	CRYPTOPIM_BENCH_LOCK=$(BENCH_LOCK) $(CLI) bench --experiment $* --machine $(BENCH_MACHINE) \
	    --out $(BENCH_OUT) $(BENCH_FLAGS) 2>$(BENCH_LOGS)/$*.log || { tail -n 5 $(BENCH_LOGS)/$*.log; exit 1; }
	@tail -n 1 $(BENCH_LOGS)/$*.log
# The validation models PrIM's machine (the one of the published numbers,
# 350 MHz), whatever BENCH_MACHINE says.
bench-job-validate:
	UPMEM_PROFILE="machine=prim$${UPMEM_PROFILE:+,$$UPMEM_PROFILE}" $(BENCH_SH) \
	    $(VALIDATE) --out $(BENCH_OUT) --dpu-dir $(VALIDATE_DIR)
bench-job-ntt-compare:
	$(BENCH_SH) $(NTT_COMPARE) $(BUILD)/dpu --out $(BENCH_OUT)
bench-job-asap:
	CRYPTOPIM_BENCH_LOCK=$(BENCH_LOCK) $(CLI) benchmark --asap --csv --machine $(BENCH_MACHINE) \
	    > $(BENCH_OUT)/asap.csv
	@echo "asap: $(BENCH_OUT)/asap.csv (CPU rows measured, UPMEM rows modeled on machine=$(BENCH_MACHINE))"
.PHONY: bench-job-validate bench-job-ntt-compare bench-job-asap bench-resident-merge

# The modeled rows of BENCH_OUT against those of BENCH_REF (default the
# committed docs/results): bench/check_modeled.sh says which rows must be
# byte-identical and which depend on measured host work.
BENCH_REF ?= docs/results
bench-check:
	sh bench/check_modeled.sh $(BENCH_REF) $(BENCH_OUT)

# ntt-compare (tests/emu/ntt.mk): the four-step vs 1D radix-2 NTT kernels, ntt-layout.csv/png.
# quick runs of both programs (tiny sizes, outputs checked) in `make test`
TEST_CMDS += "sh bench/test_bench.sh $(VALIDATE) $(VALIDATE_DIR) $(CLI)"
# the modeled-rows check on copies of docs/results (under 1 s of CPU time)
TEST_CMDS += "sh bench/test_check_modeled.sh"
# --no-sample == sampled and resident's parts merged == one process, on
# --quick runs (bench/test_no_sample.sh)
TEST_CMDS += "sh bench/test_no_sample.sh $(CLI)"
TEST_DEPS += $(VALIDATE) $(VALIDATE_DPUS)

# The AsAP comparison (docs/ASAP.md): AES cycles per byte on this CPU
# (measured) and on the modeled UPMEM machine, beside the study's table
# (also a job of `make bench`).
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
