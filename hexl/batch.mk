# hexl/batch.mk -- libhexl's batch extensions (hexl/cryptopim.hpp) on the
# DPUs: their test in `make test`, and SEAL on the pim backend (a driver of
# SEAL's API, the modeled time per SEAL operation, DRAMatic's workload) in
# `make test-seal` / `make bench-seal-pim`.  Included by hexl/hexl.mk.

HEXL_BATCH_TEST := $(BUILD)/tests/hexl/test-hexl-batch
$(HEXL_BATCH_TEST): tests/hexl/test_batch.cpp $(BUILD)/tests/hexl/harness.o $(HEXL_LIB) $(LIB) \
    $(DPU_HOST_DEPS)
	@mkdir -p $(dir $@)
	$(CXX) $(HEXL_CXXFLAGS) -Itests -o $@ $< $(BUILD)/tests/hexl/harness.o $(HEXL_LIB) \
	    $(LIB) $(DPU_HOST_LIBS) $(LDLIBS)

ifeq ($(HEXL_HAVE_CXX),1)
TEST_CMDS += "$(HEXL_BATCH_TEST)"
TEST_DEPS += $(HEXL_BATCH_TEST)
endif

# SEAL's API on the DPUs (make test-seal, after seal.sh has built SEAL): a
# driver of BFV / CKKS multiplication and of NTT batches in a BatchRegion.
SEAL_DRIVER_CMD = sh tests/hexl/seal_driver.sh $(SEAL_WORK) $(abspath hexl/include) pim \
    $(abspath $(HEXL_LIB)) $(HEXL_LINK)

# The modeled time per SEAL operation and DRAMatic's workload (CSV in
# $(BUILD)/bench/seal-pim; docs/HEXL.md, docs/NTT.md).  Builds SEAL first
# (tests/hexl/seal.sh with a one-suite filter) when it is not there.
.PHONY: bench-seal-pim
bench-seal-pim: $(HEXL_PACKAGE) dpu
	@ls $(SEAL_WORK)/build-hexl/lib/libseal-*.a >/dev/null 2>&1 || \
	    sh tests/hexl/seal.sh $(SEAL_WORK) $(SEAL_HEXL) auto 'NTTTablesTest.*'
	sh bench/seal_pim.sh $(SEAL_WORK) $(abspath hexl/include) $(abspath $(BUILD))/bench/seal-pim \
	    $(abspath $(HEXL_LIB)) $(HEXL_LINK)
