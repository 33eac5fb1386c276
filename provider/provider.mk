# provider/provider.mk -- the OpenSSL 3 provider cryptopim.so (docs/PROVIDER.md),
# included by the Makefile; built when OpenSSL's headers are there (Debian
# libssl-dev).
#
#   $(BUILD)/provider/cryptopim.so        the build tree's module (DPU programs of
#                                         this build tree), used by the tests
#   $(BUILD)/provider/inst/cryptopim.so   the installed one (DPU programs under
#                                         LIBDIR/cryptopim/dpu)
#
# The module is self-contained: the library (and, on the virtual UPMEM, the
# virtual host library) is linked in from the position-independent objects
# of dist/install.mk, and only OSSL_provider_init is exported; it needs
# libcrypto (OSSL_PARAM helpers) and libc.  It uses only include/cryptopim.h
# (INC_provider: the build enforces it).
ifeq ($(HAVE_OPENSSL),1)
INC_provider  := -Iinclude -Iprovider
PROV_SRCS     := $(wildcard provider/*.c)
PROV_OBJS     := $(PROV_SRCS:%.c=$(BUILD)/pic/%.o)
PROV_MODULE   := $(BUILD)/provider/cryptopim.so
PROV_INST     := $(BUILD)/provider/inst/cryptopim.so
PROV_DPU_OBJS := $(if $(REAL_SDK),,$(PIC_EMU_OBJS) $(PIC_VDPU_OBJS))
PROV_DPU_LIBS := $(if $(REAL_SDK),$(DPU_HOST_LIBS))
# the build tree's pim backend: its DPU programs are this build's
PROV_BACKEND_O := $(BUILD)/provider/pic-backend.o
PROV_LIB_OBJS  := $(filter-out $(BUILD)/pic/src/pim/backend.o,$(PIC_LIB_OBJS))

$(BUILD)/pic/provider/%.o: provider/%.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -fPIC $(INC_provider) -c $< -o $@

$(PROV_BACKEND_O): src/pim/backend.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -fPIC $(INC_src/pim) $(PIM_DEFS) -c $< -o $@

$(BUILD)/provider/provider.map: provider/provider.mk
	@mkdir -p $(dir $@)
	printf '{\n    global:\n        OSSL_provider_init;\n    local:\n        *;\n};\n' >$@

PROV_LINK = $(CC) $(CFLAGS) $(SANFLAGS) $(LDFLAGS) -shared \
    -Wl,--version-script=$(BUILD)/provider/provider.map -Wl,-z,defs -o $@

$(PROV_MODULE): $(PROV_OBJS) $(PROV_LIB_OBJS) $(PROV_BACKEND_O) $(PROV_DPU_OBJS) \
    $(BUILD)/provider/provider.map
	$(PROV_LINK) $(PROV_OBJS) $(PROV_LIB_OBJS) $(PROV_BACKEND_O) $(PROV_DPU_OBJS) \
	    $(PROV_DPU_LIBS) -lcrypto $(LDLIBS)

$(PROV_INST): $(PROV_OBJS) $(PIC_LIB_OBJS) $(PROV_DPU_OBJS) $(BUILD)/provider/provider.map \
    $(INST_STAMP)
	@mkdir -p $(dir $@)
	$(PROV_LINK) $(PROV_OBJS) $(PIC_LIB_OBJS) $(PROV_DPU_OBJS) $(PROV_DPU_LIBS) -lcrypto $(LDLIBS)

provider: $(PROV_MODULE)
all: provider

# `make install`: the module into OpenSSL's modules folder (`openssl version
# -m`) when PREFIX is /usr (the .deb), else LIBDIR/ossl-modules (a prefix of
# its own: openssl.cnf then names the module by its path, docs/INSTALL.md);
# OSSL_MODULESDIR overrides both.  Its man page is cryptopim-provider(7).
SYS_OSSL_MODULES := $(shell openssl version -m 2>/dev/null | sed -n 's/^MODULESDIR: "\(.*\)"/\1/p')
OSSL_MODULESDIR ?= $(if $(and $(filter /usr,$(PREFIX)),$(SYS_OSSL_MODULES)),$(SYS_OSSL_MODULES),$(LIBDIR)/ossl-modules)
.PHONY: install-provider uninstall-provider
install: install-provider
uninstall: uninstall-provider
install-provider: $(PROV_INST)
	install -d $(DESTDIR)$(OSSL_MODULESDIR) $(DESTDIR)$(MANDIR)/man7
	install -m 644 $(PROV_INST) $(DESTDIR)$(OSSL_MODULESDIR)/cryptopim.so
	install -m 644 man/cryptopim-provider.7 $(DESTDIR)$(MANDIR)/man7/
uninstall-provider:
	rm -f $(DESTDIR)$(OSSL_MODULESDIR)/cryptopim.so $(DESTDIR)$(MANDIR)/man7/cryptopim-provider.7
	-rmdir $(DESTDIR)$(OSSL_MODULESDIR) $(DESTDIR)$(MANDIR)/man7 2>/dev/null
TEST_DEPS += $(PROV_INST)

# The EVP test against OpenSSL's default provider (tests/provider/).
PROV_TEST := $(BUILD)/tests/provider-evp
$(PROV_TEST): tests/provider/test_provider.c tests/harness.c tests/test.h
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(WARN) $(CFLAGS) $(SANFLAGS) -Itests -o $@ tests/provider/test_provider.c \
	    tests/harness.c -lcrypto
TEST_DEPS += $(PROV_MODULE) $(PROV_TEST) $(DPU_PROGS)
# The pim backend's break-even (docs/PROVIDER.md; not a test)
PROV_BREAKEVEN := $(BUILD)/tests/provider-breakeven
$(PROV_BREAKEVEN): tests/provider/breakeven.c
	@mkdir -p $(dir $@)
	$(CC) $(STD) $(WARN) $(CFLAGS) -o $@ $< -lcrypto
provider: $(PROV_BREAKEVEN)
TEST_CMDS += "$(PROV_TEST) --module-dir=$(BUILD)/provider"
TEST_CMDS += "sh tests/provider/openssl_cli.sh $(BUILD)/provider"
TEST_CMDS += "sh tests/provider/clients.sh $(BUILD)/provider"
else
provider:
	@echo "cryptopim.so: not built (no OpenSSL headers; Debian: apt-get install libssl-dev)"
endif
.PHONY: provider
