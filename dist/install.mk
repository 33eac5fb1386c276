# dist/install.mk -- shared libraries, `make install` / `make uninstall`,
# `make deb` (included by the top-level Makefile).
#
#   make shared                    build/libcryptopim.so.MAJOR (+ build/libdpu.so.0
#                                  on the virtual UPMEM), from position-independent
#                                  objects under build/pic/
#   make install [PREFIX=/usr/local] [DESTDIR=]
#   make uninstall [PREFIX=...] [DESTDIR=]
#   make deb                       build/cryptopim_VERSION_ARCH.deb (PREFIX=/usr)
#
# Installed layout (docs/INSTALL.md):
#   BINDIR      cryptopim, cryptopim-bench (static: they need no library path),
#               cryptopim-mpi when Open MPI's mpicc is found (links libmpi; not
#               in the .deb, see INSTALL_MPI below)
#   LIBDIR      libcryptopim.so.MAJOR.MINOR.PATCH, .so.MAJOR, .so, libcryptopim.a,
#               pkgconfig/cryptopim.pc, cryptopim/dpu/ (the DPU programs)
#   INCLUDEDIR  cryptopim.h
#   MANDIR      man1/cryptopim.1 (its CRYPTOPIM-MPI section), man3/libcryptopim.3
#   LIBDIR/upmem-virtual/   the virtual UPMEM as an SDK stand-in, in the SDK's
#               layout (a valid UPMEM_HOME): bin/ (dpu-upmem-dpurte-clang, dpu-clang,
#               dpu-pkg-config), include/dpu/ (<dpu.h>..., the C++ <dpu>), lib/
#               (libdpu.so.0, libdpu.a, pkgconfig/dpu.pc, dpu-rt/ the prebuilt DPU
#               runtime), share/pkgconfig/dpu.pc, share/upmem/version (names the
#               virtual UPMEM), share/upmem/cmake/dpu.cmake and
#               include/host/DpuHost.cmake, python/dpu/ (the Python module),
#               dpu-include/ and vdpu/abi.h (DPU headers), rt/dpu.lds, examples/,
#               upmem_env.sh, INSTALLED (marker the scripts use to tell an install
#               from a checkout)
# libcryptopim.so finds libdpu.so.0 through its RUNPATH ($ORIGIN/upmem-virtual/lib)
# and its DPU programs next to itself (src/pim/backend.c): the tree is relocatable.

PREFIX     ?= /usr/local
DESTDIR    ?=
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR     ?= $(PREFIX)/share/man
UPMEM_VDIR  = $(LIBDIR)/upmem-virtual

CPIM_VERSION := $(shell sed -n 's/^\#define CPIM_VERSION_STRING *"\(.*\)"/\1/p' include/cryptopim.h)
CPIM_MAJOR   := $(shell sed -n 's/^\#define CPIM_VERSION_MAJOR *//p' include/cryptopim.h)
SDK_VERSION  := $(shell sed -n 's/^VERSION=//p' emu/bin/dpu-pkg-config)
SO_REAL   := libcryptopim.so.$(CPIM_VERSION)
SO_NAME   := libcryptopim.so.$(CPIM_MAJOR)
SO        := $(BUILD)/$(SO_REAL)
DPU_SO    := $(BUILD)/libdpu.so.0

# ---- position-independent objects (only for the shared libraries) ----
PIC_LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/pic/%.o)
PIC_EMU_OBJS  := $(EMU_HOST_SRCS:%.c=$(BUILD)/pic/%.o)
PIC_VDPU_OBJS := $(VDPU_SRCS:%.c=$(BUILD)/pic/%.o)

$(BUILD)/pic/src/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -fPIC $(INC_$(call layer,$<)) $(DEFS_$(call layer,$<)) -c $< -o $@

# The SIMD SHA-256 kernels with $(SIMD_CC), as in the static library (Makefile).
$(SIMD_SRCS:%.c=$(BUILD)/pic/%.o): $(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(SIMD_CC) $(BASE_CFLAGS) -fPIC $(INC_src/cpu) -c $< -o $@

# (the shared library is only for installing: its last-resort folder of DPU
# programs is the installed one, see INST_LIB below)
$(BUILD)/pic/src/pim/backend.o: src/pim/backend.c $(BUILD)/inst/libdir
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -fPIC $(INC_src/pim) -DCPIM_DPU_DIR='"$(LIBDIR)/cryptopim/dpu"' \
	    $(if $(REAL_SDK),,-DCPIM_VIRTUAL_UPMEM=1) -c $< -o $@

$(BUILD)/pic/emu/host/%.o: emu/host/%.c
	@mkdir -p $(dir $@)
	$(CC) $(EMU_HOST_CFLAGS) -fPIC -c $< -o $@

$(BUILD)/pic/emu/vdpu/%.o: emu/vdpu/%.c
	@mkdir -p $(dir $@)
	$(CC) $(VDPU_CFLAGS) -O2 -fPIC -c $< -o $@

# libcryptopim.so exports exactly the functions of the public headers
# (include/cryptopim.h and its siblings, e.g. cryptopim_ntt.h)
PUBLIC_HEADERS := include/cryptopim.h include/cryptopim_ntt.h
$(BUILD)/libcryptopim.map: $(PUBLIC_HEADERS)
	@mkdir -p $(dir $@)
	{ echo "CRYPTOPIM_$(CPIM_MAJOR) {"; echo "    global:"; \
	  cat $^ | grep -o '\bcpim_[a-z0-9_]*(' | tr -d '(' | sort -u | sed 's/.*/        &;/'; \
	  echo "    local:"; echo "        *;"; echo "};"; } >$@

ifeq ($(REAL_SDK),1)
SO_DPU_LIBS := $(DPU_HOST_LIBS)
SO_DEPS     :=
else
SO_DPU_LIBS := -L$(BUILD) -l:libdpu.so.0
SO_DEPS     := $(DPU_SO)
$(DPU_SO): $(PIC_EMU_OBJS) $(PIC_VDPU_OBJS) dist/libdpu.map
	$(CC) $(CFLAGS) $(SANFLAGS) $(LDFLAGS) -shared -Wl,-soname,libdpu.so.0 \
	    -Wl,--version-script=dist/libdpu.map -Wl,-z,defs -o $@ \
	    $(PIC_EMU_OBJS) $(PIC_VDPU_OBJS) $(LDLIBS)
endif

$(SO): $(PIC_LIB_OBJS) $(BUILD)/libcryptopim.map $(SO_DEPS)
	$(CC) $(CFLAGS) $(SANFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SO_NAME) \
	    -Wl,--version-script=$(BUILD)/libcryptopim.map -Wl,-z,defs \
	    -Wl,-rpath,'$$ORIGIN:$$ORIGIN/upmem-virtual/lib' -o $@ \
	    $(PIC_LIB_OBJS) $(SO_DPU_LIBS) $(LDLIBS)
	ln -sf $(SO_REAL) $(BUILD)/$(SO_NAME)
	ln -sf $(SO_NAME) $(BUILD)/libcryptopim.so

# The prebuilt DPU runtime installed with the virtual UPMEM: the wrapper builds
# it on first use into VDPU_RT_DIR (linking a trivial program checks it).
UPMEM_RT := $(BUILD)/upmem-rt
$(UPMEM_RT)/librt.a: $(wildcard emu/rt/* emu/dpu-include/*.h) emu/vdpu/abi.h emu/bin/dpu-upmem-dpurte-clang
	@mkdir -p $(UPMEM_RT)
	rm -f $(UPMEM_RT)/librt.a $(UPMEM_RT)/crt0.o
	printf 'int main(void) { return 0; }\n' >$(UPMEM_RT)/probe.c
	VDPU_RT_DIR=$(abspath $(UPMEM_RT)) emu/bin/dpu-upmem-dpurte-clang -O2 \
	    -o $(UPMEM_RT)/probe $(UPMEM_RT)/probe.c

# dpu.pc for the checkout (emu/upmem_env.sh puts $(BUILD)/pkgconfig on
# PKG_CONFIG_PATH): the static libdpu.a of this build tree, as -L/-l so that
# CMake's pkg_check_modules lists it in DPU_LIBRARIES / DPU_LINK_LIBRARIES,
# whole (as dpu-pkg-config) so that the flags may precede the sources.
$(BUILD)/pkgconfig/dpu.pc: dist/dpu.pc.in emu/bin/dpu-pkg-config
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(abspath .)|' -e 's|@LIBDIR@|$(abspath $(BUILD))|' \
	    -e 's|@INCLUDEDIR@|$(abspath emu/include)|' -e 's|@SDKVERSION@|$(SDK_VERSION)|' \
	    -e 's|-L$${libdir} @RPATH@-ldpu|-L$${libdir} -Wl,--whole-archive -ldpu -Wl,--no-whole-archive -lpthread -lm|' \
	    $< >$@

# The SDK-shaped tree of the checkout, $(BUILD)/upmem (emu/upmem_env.sh
# sets UPMEM_HOME to it): what UPMEM_HOME-based build systems look for,
# pointing into the checkout and this build tree --
#   bin/            the wrappers (symbolic links to emu/bin/*)
#   include/dpu     the host headers (link to emu/include)
#   lib/            libdpu.so(.0), libdpu.a, pkgconfig/dpu.pc
#   share/pkgconfig/dpu.pc, share/upmem/version (says "virtual UPMEM"; the
#   Makefile reads it to tell this tree from the real SDK),
#   share/upmem/cmake/dpu.cmake (+ dpu-rules.cmake), .../include/host/DpuHost.cmake
# The same layout is installed by `make install` (below).
UPMEM_TREE := $(BUILD)/upmem
UPMEM_VERSION_LINE = UPMEM DPU SDK version $(SDK_VERSION) - virtual UPMEM of cryptopim \
    $(CPIM_VERSION) (no hardware: DPU programs run on the virtual DPU)
$(UPMEM_TREE)/share/upmem/version: $(BUILD)/pkgconfig/dpu.pc $(DPU_SO) $(BUILD)/libdpu.a \
    $(wildcard emu/sdk/*) $(wildcard emu/bin/*) include/cryptopim.h
	rm -rf $(UPMEM_TREE)
	mkdir -p $(UPMEM_TREE)/bin $(UPMEM_TREE)/include $(UPMEM_TREE)/lib/pkgconfig \
	    $(UPMEM_TREE)/share/pkgconfig $(UPMEM_TREE)/share/upmem/cmake/include/host
	for f in emu/bin/*; do ln -s $(abspath .)/$$f $(UPMEM_TREE)/bin/; done
	ln -s $(abspath emu/include) $(UPMEM_TREE)/include/dpu
	ln -s $(abspath $(DPU_SO)) $(UPMEM_TREE)/lib/libdpu.so.0
	ln -s libdpu.so.0 $(UPMEM_TREE)/lib/libdpu.so
	ln -s $(abspath $(BUILD)/libdpu.a) $(UPMEM_TREE)/lib/libdpu.a
	cp $(BUILD)/pkgconfig/dpu.pc $(UPMEM_TREE)/lib/pkgconfig/dpu.pc
	cp $(BUILD)/pkgconfig/dpu.pc $(UPMEM_TREE)/share/pkgconfig/dpu.pc
	cp emu/sdk/dpu.cmake emu/sdk/dpu-rules.cmake $(UPMEM_TREE)/share/upmem/cmake/
	cp emu/sdk/DpuHost.cmake $(UPMEM_TREE)/share/upmem/cmake/include/host/
	echo "$(UPMEM_VERSION_LINE)" >$@
ifneq ($(REAL_SDK),1)
emu: $(UPMEM_TREE)/share/upmem/version
all: $(BUILD)/pkgconfig/dpu.pc $(UPMEM_TREE)/share/upmem/version
TEST_DEPS += $(UPMEM_TREE)/share/upmem/version
endif

# The installed static library: as $(LIB), but its last-resort folder of DPU
# programs is LIBDIR/cryptopim/dpu rather than this build tree (a program
# linked statically outside PREFIX/bin cannot find them relative to itself).
# The stamp rebuilds it when LIBDIR changes (make deb installs under /usr).
INST_LIB   := $(BUILD)/inst/libcryptopim.a
INST_STAMP := $(BUILD)/inst/libdir
INST_BACKEND_O := $(BUILD)/inst/backend.o
$(INST_STAMP): FORCE
	@mkdir -p $(dir $@)
	@echo '$(LIBDIR)' | cmp -s - $@ || echo '$(LIBDIR)' >$@
$(INST_BACKEND_O): src/pim/backend.c $(INST_STAMP)
	$(CC) $(BASE_CFLAGS) $(INC_src/pim) -DCPIM_DPU_DIR='"$(LIBDIR)/cryptopim/dpu"' \
	    $(if $(REAL_SDK),,-DCPIM_VIRTUAL_UPMEM=1) -c $< -o $@
$(INST_LIB): $(filter-out $(BUILD)/src/pim/backend.o,$(LIB_OBJS)) $(INST_BACKEND_O)
	rm -f $@ && ar rcs $@ $^
# the installed programs link it (a test then cannot pass through the build tree)
INST_CLI   := $(BUILD)/inst/cryptopim
INST_BENCH := $(BUILD)/inst/cryptopim-bench
$(INST_CLI): $(CLI_OBJS) $(INST_LIB) $(DPU_HOST_DEPS)
	$(CC) $(CFLAGS) $(SANFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJS) $(INST_LIB) $(DPU_HOST_LIBS) $(LDLIBS)
INST_BENCH_OBJS := $(filter-out $(BUILD)/bench/exp_tsme.o,$(BENCH_OBJS)) $(INST_BENCH_TSME_O)
$(INST_BENCH): $(INST_BENCH_OBJS) $(INST_LIB) $(DPU_HOST_DEPS)
	$(CC) $(CFLAGS) $(SANFLAGS) $(LDFLAGS) -o $@ $(INST_BENCH_OBJS) $(INST_LIB) $(DPU_HOST_LIBS) \
	    $(COMPARE_LIBS) $(LDLIBS)
# cryptopim-mpi, as INST_CLI (MPI_OBJS: the Makefile, when mpicc is found).
# INSTALL_MPI=0 leaves it out: `make deb` does, since the package would then
# depend on libopenmpi3 (what dpkg-shlibdeps finds for libmpi.so.40) for
# every user, while running it needs mpirun (openmpi-bin), which a shared-
# library Depends cannot express; `make install` on a machine with Open MPI
# installs it (docs/INSTALL.md).
INSTALL_MPI ?= $(if $(HAVE_MPI),1,0)
INST_MPI   := $(if $(filter 1,$(INSTALL_MPI)),$(BUILD)/inst/cryptopim-mpi)
ifeq ($(HAVE_MPI),1)
$(BUILD)/inst/cryptopim-mpi: $(MPI_OBJS) $(INST_LIB) $(DPU_HOST_DEPS)
	$(CC) $(CFLAGS) $(SANFLAGS) $(LDFLAGS) -o $@ $(MPI_OBJS) $(INST_LIB) $(DPU_HOST_LIBS) \
	    $(MPI_LIBS) $(LDLIBS)
endif
.PHONY: FORCE
FORCE:

.PHONY: shared install uninstall deb
shared: $(SO) $(SO_DEPS)
emu: $(BUILD)/pkgconfig/dpu.pc
# the CMake example (emu/examples/run_all.sh, make test) finds libdpu through it
TEST_DEPS += $(BUILD)/pkgconfig/dpu.pc

# tests/install.sh (make test): the install test needs these and the .deb
TEST_CMDS += "sh tests/install.sh $(BUILD)"
TEST_DEPS += $(SO) $(SO_DEPS) $(INST_LIB) $(INST_CLI) $(INST_BENCH) $(INST_MPI) $(DEB) \
    $(if $(REAL_SDK),,$(UPMEM_RT)/librt.a)

INSTALL_DEPS := all $(SO) $(SO_DEPS) $(INST_LIB) $(INST_CLI) $(INST_BENCH) $(INST_MPI) $(if $(REAL_SDK),,$(UPMEM_RT)/librt.a $(BUILD)/emu/dpu-profile)
# a directory relative to ${prefix} in .pc files when it is under PREFIX, so
# that `pkg-config --define-prefix` can relocate a staged (DESTDIR) install
pc_rel = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))
I_BIN  = $(DESTDIR)$(BINDIR)
I_LIB  = $(DESTDIR)$(LIBDIR)
I_UPM  = $(DESTDIR)$(UPMEM_VDIR)

install: $(INSTALL_DEPS)
	install -d $(I_BIN) $(I_LIB)/pkgconfig $(I_LIB)/cryptopim/dpu \
	    $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3
	install -m 755 $(INST_CLI) $(INST_BENCH) $(I_BIN)/
	install -m 755 $(SO) $(I_LIB)/
	ln -sf $(SO_REAL) $(I_LIB)/$(SO_NAME)
	ln -sf $(SO_NAME) $(I_LIB)/libcryptopim.so
	install -m 644 $(INST_LIB) $(I_LIB)/
	install -m 644 $(PUBLIC_HEADERS) $(DESTDIR)$(INCLUDEDIR)/
	install -m 644 $(DPU_PROGS) $(I_LIB)/cryptopim/dpu/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(call pc_rel,$(LIBDIR))|' \
	    -e 's|@INCLUDEDIR@|$(call pc_rel,$(INCLUDEDIR))|' -e 's|@VERSION@|$(CPIM_VERSION)|' \
	    -e 's|@PRIVATE_LIBS@|$(if $(REAL_SDK),$(DPU_HOST_LIBS),-L$${libdir}/upmem-virtual/lib -ldpu) $(LDLIBS)|' \
	    dist/cryptopim.pc.in >$(I_LIB)/pkgconfig/cryptopim.pc
	chmod 644 $(I_LIB)/pkgconfig/cryptopim.pc
	install -m 644 man/cryptopim.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 man/libcryptopim.3 $(DESTDIR)$(MANDIR)/man3/
ifneq ($(INST_MPI),)
	install -m 755 $(INST_MPI) $(I_BIN)/
endif
ifneq ($(REAL_SDK),1)
	install -d $(I_UPM)/bin $(I_UPM)/include/dpu $(I_UPM)/lib/pkgconfig $(I_UPM)/lib/dpu-rt \
	    $(I_UPM)/dpu-include $(I_UPM)/vdpu $(I_UPM)/rt $(I_UPM)/examples \
	    $(I_UPM)/share/pkgconfig $(I_UPM)/share/upmem/cmake/include/host $(I_UPM)/python/dpu
	install -m 755 emu/bin/dpu-upmem-dpurte-clang emu/bin/dpu-pkg-config emu/bin/dpu-gdb \
	    $(BUILD)/emu/dpu-profile $(I_UPM)/bin/
	ln -sf dpu-upmem-dpurte-clang $(I_UPM)/bin/dpu-clang
	install -m 644 emu/include/*.h emu/include/*.hpp emu/include/dpu $(I_UPM)/include/dpu/
	install -m 644 emu/sdk/dpu.cmake emu/sdk/dpu-rules.cmake $(I_UPM)/share/upmem/cmake/
	install -m 644 emu/sdk/DpuHost.cmake $(I_UPM)/share/upmem/cmake/include/host/
	echo "$(UPMEM_VERSION_LINE)" >$(I_UPM)/share/upmem/version
	chmod 644 $(I_UPM)/share/upmem/version
	install -m 644 emu/python/dpu/*.py $(I_UPM)/python/dpu/
	install -m 644 emu/dpu-include/*.h $(I_UPM)/dpu-include/
	install -m 644 emu/vdpu/abi.h $(I_UPM)/vdpu/
	install -m 644 emu/rt/dpu.lds $(I_UPM)/rt/
	install -m 644 $(UPMEM_RT)/librt.a $(UPMEM_RT)/crt0.o $(I_UPM)/lib/dpu-rt/
	install -m 755 $(DPU_SO) $(I_UPM)/lib/
	ln -sf libdpu.so.0 $(I_UPM)/lib/libdpu.so
	install -m 644 $(BUILD)/libdpu.a $(I_UPM)/lib/
	sed -e 's|@PREFIX@|$(UPMEM_VDIR)|' -e 's|@LIBDIR@|$${prefix}/lib|' \
	    -e 's|@INCLUDEDIR@|$${prefix}/include/dpu|' -e 's|@SDKVERSION@|$(SDK_VERSION)|' \
	    -e 's|@RPATH@|-Wl,-rpath,$${libdir} |' dist/dpu.pc.in >$(I_UPM)/lib/pkgconfig/dpu.pc
	chmod 644 $(I_UPM)/lib/pkgconfig/dpu.pc
	cp $(I_UPM)/lib/pkgconfig/dpu.pc $(I_UPM)/share/pkgconfig/dpu.pc
	sed 's|^_upmem_emu_prefix=""$$|_upmem_emu_prefix="$(UPMEM_VDIR)"|' emu/upmem_env.sh \
	    >$(I_UPM)/upmem_env.sh
	chmod 644 $(I_UPM)/upmem_env.sh
	cp -R emu/examples/. $(I_UPM)/examples/
	rm -f $(I_UPM)/examples/run_all.sh
	echo "virtual UPMEM of cryptopim $(CPIM_VERSION), SDK API $(SDK_VERSION)" >$(I_UPM)/INSTALLED
	chmod 644 $(I_UPM)/INSTALLED
endif

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/cryptopim $(DESTDIR)$(BINDIR)/cryptopim-bench \
	    $(DESTDIR)$(BINDIR)/cryptopim-mpi
	rm -f $(DESTDIR)$(LIBDIR)/libcryptopim.so* $(DESTDIR)$(LIBDIR)/libcryptopim.a
	rm -f $(DESTDIR)$(LIBDIR)/pkgconfig/cryptopim.pc $(DESTDIR)$(INCLUDEDIR)/cryptopim.h \
	    $(DESTDIR)$(INCLUDEDIR)/cryptopim_ntt.h
	rm -f $(DESTDIR)$(MANDIR)/man1/cryptopim.1 $(DESTDIR)$(MANDIR)/man3/libcryptopim.3
	rm -rf $(DESTDIR)$(LIBDIR)/cryptopim $(DESTDIR)$(UPMEM_VDIR)
	-rmdir $(DESTDIR)$(LIBDIR)/pkgconfig 2>/dev/null

# ---- Debian package: dpkg-deb on a staged install under PREFIX=/usr ----
DEB_ARCH  := $(shell dpkg --print-architecture 2>/dev/null || echo amd64)
DEB       := $(BUILD)/cryptopim_$(CPIM_VERSION)_$(DEB_ARCH).deb
DEB_STAGE := $(BUILD)/deb-root

DEB_DEPS  := $(filter-out all,$(INSTALL_DEPS)) $(LIB) $(DPU_PROGS) $(BUILD)/libdpu.a \
    $(wildcard dist/* man/* emu/bin/* emu/upmem_env.sh emu/include/*.h emu/include/*.hpp \
    emu/include/dpu emu/dpu-include/*.h emu/python/dpu/*.py emu/sdk/* \
    emu/examples/*/* emu/examples/*/*/*)
deb: $(DEB)
$(DEB): $(DEB_DEPS)
	rm -rf $(DEB_STAGE)
	$(MAKE) --no-print-directory install DESTDIR=$(abspath $(DEB_STAGE)) PREFIX=/usr INSTALL_MPI=0
	sh dist/deb-control.sh $(DEB_STAGE) $(CPIM_VERSION) $(DEB_ARCH)
	dpkg-deb --root-owner-group --build $(DEB_STAGE) $(DEB)
