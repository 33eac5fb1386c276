# hexl/hexl.mk -- libhexl: cryptopim's implementation of the Intel HEXL 1.2
# API (C++17, hexl/include/hexl/), over the public cryptopim_ntt.h.  For
# SEAL built with SEAL_USE_INTEL_HEXL=ON: a CMake package (find_package(HEXL),
# target HEXL::hexl) and hexl.pc, both in $(BUILD)/hexl/, pointing at this
# build tree.  Included by the top-level Makefile; without a C++ compiler
# the library is not built and its tests skip.

HEXL_HAVE_CXX := $(shell command -v $(CXX) >/dev/null 2>&1 && echo 1)
HEXL_DIR      := $(BUILD)/hexl
HEXL_LIB      := $(HEXL_DIR)/lib/libhexl.a
HEXL_SRCS     := $(wildcard hexl/src/*.cpp)
HEXL_OBJS     := $(HEXL_SRCS:hexl/src/%.cpp=$(HEXL_DIR)/obj/%.o)
HEXL_HEADERS  := $(shell find hexl/include -name '*.hpp')
HEXL_CXXFLAGS  = -std=c++17 $(CFLAGS) -Wall -Wextra -Werror -Wshadow $(SANFLAGS) -MMD -MP \
                 -Ihexl/include -Iinclude
# What a program linking libhexl also needs: libcryptopim and, on the
# virtual UPMEM, its <dpu.h> library.
HEXL_LINK     := $(abspath $(LIB)) $(abspath $(DPU_HOST_LIBS)) -lpthread -lm
hexl_empty :=
hexl_space := $(hexl_empty) $(hexl_empty)
# the same as a CMake list
HEXL_LINK_CMAKE := $(subst $(hexl_space),;,$(strip $(HEXL_LINK)))

$(HEXL_DIR)/obj/%.o: hexl/src/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(HEXL_CXXFLAGS) -c $< -o $@

$(HEXL_LIB): $(HEXL_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# The CMake package and pkg-config file of the build tree (absolute paths of
# this build, generated here, never committed).
$(HEXL_DIR)/lib/cmake/HEXL/HEXLConfig.cmake: hexl/HEXLConfig.cmake.in hexl/hexl.mk
	@mkdir -p $(dir $@)
	sed -e 's|@HEXL_INCLUDE@|$(abspath hexl/include)|' -e 's|@HEXL_LIB@|$(abspath $(HEXL_LIB))|' \
	    -e 's|@HEXL_LINK@|$(HEXL_LINK_CMAKE)|' $< > $@
$(HEXL_DIR)/lib/cmake/HEXL/HEXLConfigVersion.cmake: hexl/HEXLConfigVersion.cmake hexl/hexl.mk
	@mkdir -p $(dir $@)
	cp $< $@
$(HEXL_DIR)/lib/pkgconfig/hexl.pc: hexl/hexl.pc.in hexl/hexl.mk
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(abspath $(HEXL_DIR))|' -e 's|@INCLUDEDIR@|$(abspath hexl/include)|' \
	    -e 's|@LIBDIR@|$(abspath $(dir $(HEXL_LIB)))|' -e 's|@HEXL_LINK@|$(HEXL_LINK)|' $< > $@

HEXL_PACKAGE := $(HEXL_LIB) $(HEXL_DIR)/lib/cmake/HEXL/HEXLConfig.cmake \
                $(HEXL_DIR)/lib/cmake/HEXL/HEXLConfigVersion.cmake $(HEXL_DIR)/lib/pkgconfig/hexl.pc

.PHONY: hexl
ifeq ($(HEXL_HAVE_CXX),1)
hexl: $(HEXL_PACKAGE)
all: hexl
else
hexl:
	@echo "libhexl: not built (no C++ compiler $(CXX))"
endif

# ---- make install (dist/install.mk): the library, its headers under
# INCLUDEDIR/hexl, the CMake package LIBDIR/cmake/HEXL (paths relative to
# the package's own folder) and LIBDIR/pkgconfig/hexl.pc, linked with the
# installed libcryptopim.a and, on the virtual UPMEM, its libdpu.a.
I_HEXL_CMAKE = $(DESTDIR)$(LIBDIR)/cmake/HEXL
# a path relative to LIBDIR/cmake/HEXL, as the CMake package names it
hexl_cmake_rel = $${CMAKE_CURRENT_LIST_DIR}/$(shell realpath -m --relative-to=$(LIBDIR)/cmake/HEXL $(1))
HEXL_INST_DPU = $(if $(REAL_SDK),$(DPU_HOST_LIBS),$(UPMEM_VDIR)/lib/libdpu.a)
.PHONY: install-hexl uninstall-hexl
ifeq ($(HEXL_HAVE_CXX),1)
install: install-hexl
uninstall: uninstall-hexl
endif
install-hexl: $(HEXL_LIB)
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(I_HEXL_CMAKE) $(DESTDIR)$(INCLUDEDIR)/hexl
	install -m 644 $(HEXL_LIB) $(DESTDIR)$(LIBDIR)/
	cd hexl/include/hexl && find . -name '*.hpp' -exec install -D -m 644 {} \
	    $(DESTDIR)$(INCLUDEDIR)/hexl/{} \;
	sed -e 's|@HEXL_INCLUDE@|$(call hexl_cmake_rel,$(INCLUDEDIR))|' \
	    -e 's|@HEXL_LIB@|$(call hexl_cmake_rel,$(LIBDIR)/libhexl.a)|' \
	    -e 's|@HEXL_LINK@|$(call hexl_cmake_rel,$(LIBDIR)/libcryptopim.a);$(if $(REAL_SDK),$(subst $(hexl_space),;,$(strip $(DPU_HOST_LIBS))),$(call hexl_cmake_rel,$(HEXL_INST_DPU)));-lpthread;-lm|' \
	    hexl/HEXLConfig.cmake.in >$(I_HEXL_CMAKE)/HEXLConfig.cmake
	install -m 644 hexl/HEXLConfigVersion.cmake $(I_HEXL_CMAKE)/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(call pc_rel,$(LIBDIR))|' \
	    -e 's|@INCLUDEDIR@|$(call pc_rel,$(INCLUDEDIR))|' \
	    -e 's|@HEXL_LINK@|$${libdir}/libcryptopim.a $(if $(REAL_SDK),$(DPU_HOST_LIBS),$(call pc_rel,$(HEXL_INST_DPU))) -lpthread -lm|' \
	    hexl/hexl.pc.in >$(DESTDIR)$(LIBDIR)/pkgconfig/hexl.pc
	chmod 644 $(I_HEXL_CMAKE)/HEXLConfig.cmake $(DESTDIR)$(LIBDIR)/pkgconfig/hexl.pc
uninstall-hexl:
	rm -f $(DESTDIR)$(LIBDIR)/libhexl.a $(DESTDIR)$(LIBDIR)/pkgconfig/hexl.pc
	rm -rf $(DESTDIR)$(LIBDIR)/cmake/HEXL $(DESTDIR)$(INCLUDEDIR)/hexl
	-rmdir $(DESTDIR)$(LIBDIR)/cmake 2>/dev/null

# ---- tests: tests/hexl/ ----
HEXL_TEST := $(BUILD)/tests/hexl/test-hexl
$(BUILD)/tests/hexl/harness.o: tests/harness.c tests/test.h
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(WARN) $(CFLAGS) $(SANFLAGS) -c $< -o $@
$(HEXL_TEST): tests/hexl/test_hexl.cpp $(BUILD)/tests/hexl/harness.o $(HEXL_LIB) $(LIB) \
    $(DPU_HOST_DEPS)
	@mkdir -p $(dir $@)
	$(CXX) $(HEXL_CXXFLAGS) -Itests -o $@ $< $(BUILD)/tests/hexl/harness.o $(HEXL_LIB) \
	    $(LIB) $(DPU_HOST_LIBS) $(LDLIBS)

ifeq ($(HEXL_HAVE_CXX),1)
TEST_CMDS += "$(HEXL_TEST)"
TEST_DEPS += $(HEXL_TEST)
else
TEST_CMDS += "sh -c '. tests/lib.sh; skip hexl \"no C++ compiler ($(CXX))\"; finish'"
endif
include hexl/batch.mk

# Intel HEXL's own unit tests (from the pinned source in ../shared/thirdparty)
# against this library; they skip with a message where the source, g++ or
# googletest is missing.
HEXL_OWN_LINK := $(abspath $(HEXL_LIB)) $(HEXL_LINK)
ifeq ($(HEXL_HAVE_CXX),1)
TEST_CMDS += "sh tests/hexl/hexl_tests.sh $(abspath $(HEXL_DIR))/own $(abspath hexl/include) $(HEXL_OWN_LINK)"
TEST_DEPS += $(HEXL_LIB)
endif

# The differential test against the real Intel HEXL 1.2.6 (built once from
# the pinned source into $(BUILD)/hexl/diff: about a minute of one core).
ifeq ($(HEXL_HAVE_CXX),1)
TEST_CMDS += "sh tests/hexl/hexl_diff.sh $(abspath $(HEXL_DIR))/diff $(abspath hexl/include) $(HEXL_OWN_LINK)"
endif

# Microsoft SEAL 4.4.3 (pinned source) on libhexl: its own `sealtest` with the
# `auto` backend in `make test`; `make test-seal` adds a run on the DPUs (pim,
# a selection of sealtest: SEAL calls one NTT at a time, each a DPU round trip
# on the virtual UPMEM; then the driver of SEAL's API, hexl/batch.mk).  The
# SEAL build is kept in $(BUILD)/hexl/seal.
SEAL_WORK := $(abspath $(HEXL_DIR))/seal
SEAL_HEXL := $(abspath $(HEXL_DIR))/lib/cmake/HEXL
# (95 tests; the suites' rings of N >= 1024 on the DPUs, the smaller ones on
# this library's own code)
SEAL_PIM_FILTER ?= $(subst $(hexl_space),,NTTTablesTest.*:CiphertextTest.*:RelinKeysTest.*: \
    CKKSEncoderTest.*:ContextTest.*:EncryptorTest.*:KeyGeneratorTest.*:BatchEncoderTest.*: \
    EvaluatorTest.BFV*:EvaluatorTest.BGV*:EvaluatorTest.CKKS*:EvaluatorTest.Transform*: \
    GaloisKeysTest.*:PublicKeyTest.*:SecretKeyTest.*)
ifeq ($(HEXL_HAVE_CXX),1)
TEST_CMDS += "sh tests/hexl/seal.sh $(SEAL_WORK) $(SEAL_HEXL) auto"
TEST_DEPS += $(HEXL_PACKAGE)
endif
.PHONY: test-seal
# One after another (TEST_JOBS=1): the three share the SEAL build in
# $(SEAL_WORK).  seal_examples.sh (SEAL's example flows against a SEAL built
# without HEXL, a second SEAL build) is here rather than in make test for
# the CI budget.
test-seal: $(HEXL_PACKAGE) dpu
	@MAKEFLAGS= TEST_JOBS=1 sh tests/run.sh "sh tests/hexl/seal.sh $(SEAL_WORK) $(SEAL_HEXL) auto" \
	    "sh tests/hexl/seal.sh $(SEAL_WORK) $(SEAL_HEXL) pim '$(SEAL_PIM_FILTER)'" \
	    "sh tests/hexl/seal_examples.sh $(SEAL_WORK) $(SEAL_HEXL) auto" \
	    "$(SEAL_DRIVER_CMD)"

# sealbench side by side (bench/seal.sh): SEAL on libhexl, on the real Intel
# HEXL (built by the differential test, which runs first) and without HEXL,
# one core, CSV with the ratios in bench/out/seal.csv.  Minutes of builds
# the first time; not part of make test.
.PHONY: bench-seal bench-hexl-eltwise
bench-seal: $(HEXL_PACKAGE)
	@MAKEFLAGS= sh tests/run.sh "sh tests/hexl/hexl_diff.sh $(abspath $(HEXL_DIR))/diff $(abspath hexl/include) $(HEXL_OWN_LINK)"
	@mkdir -p bench/out
	sh bench/seal.sh $(abspath $(HEXL_DIR))/sealbench $(SEAL_HEXL) \
	    $(abspath $(HEXL_DIR))/diff/real/lib/cmake/hexl-1.2.6 bench/out/seal.csv
	@cat bench/out/seal.csv

# The element-wise functions SEAL calls, libhexl against the real Intel HEXL
# (built by the differential test, which runs first), one core, CSV with
# the ratios in bench/out/hexl_eltwise.csv (bench/hexl_eltwise.sh).
bench-hexl-eltwise: $(HEXL_PACKAGE)
	@MAKEFLAGS= sh tests/run.sh "sh tests/hexl/hexl_diff.sh $(abspath $(HEXL_DIR))/diff $(abspath hexl/include) $(HEXL_OWN_LINK)"
	@mkdir -p bench/out
	OUT=bench/out/hexl_eltwise.csv sh bench/hexl_eltwise.sh $(abspath $(HEXL_DIR))/diff/real \
	    $(abspath hexl/include) $(HEXL_OWN_LINK)
	@cat bench/out/hexl_eltwise.csv
