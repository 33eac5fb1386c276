#!/bin/sh
# tests/install.sh BUILD_DIR -- `make install`, `make uninstall` and `make deb`
# as a user would meet them (dist/install.mk, docs/INSTALL.md):
#   - install into a temporary DESTDIR (PREFIX=/usr/local): the files are there;
#   - the exported symbols are what the docs say (libcryptopim.so: exactly the
#     functions of cryptopim.h; libdpu.so: only names of the UPMEM headers);
#   - a program outside the tree built with `pkg-config --cflags --libs
#     cryptopim` (shared, and --static) passes FIPS vectors on cpu and pim and
#     its AES-CTR equals `openssl enc`;
#   - the installed CLI finds its DPU programs and passes the openssl enc and
#     sha256sum interop checks; no installed program names the build tree;
#     cryptopim-mpi is installed when mpicc is there and equals coreutils
#     sha256sum on 2 processes (skipped without Open MPI);
#   - UPMEM examples copied to a temporary folder build and run with only
#     the installed virtual UPMEM (its upmem_env.sh, a clean environment): a C
#     Makefile project, a C++ one (#include <dpu>) and a CMake one;
#   - `man -l` renders both pages without warnings;
#   - `make uninstall` leaves nothing; the .deb installs into and is removed
#     from a private dpkg root (no root rights, nothing touches the system).
# Run from the checkout root (make test does). PASS/FAIL/SKIP via tests/lib.sh.
. "$(dirname "$0")/lib.sh"
BUILD=${1:-build}
T=$(mktemp -d) || {
    fail install_tmpdir "mktemp -d failed"
    finish
}
trap 'rm -rf "$T"' EXIT
# a nested make must not join the outer make's jobserver
mk() { env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make --no-print-directory -s BUILD="$BUILD" "$@"; }

D=$T/stage
P=/usr/local
R=$D$P
if ! mk install DESTDIR="$D" PREFIX=$P >"$T/log" 2>&1; then
    fail install_make "make install failed:"
    tail -n 20 "$T/log" | sed 's/^/    /'
    finish
fi
major=$(sed -n 's/^#define CPIM_VERSION_MAJOR *//p' include/cryptopim.h)
missing=""
for f in bin/cryptopim bin/cryptopim-bench include/cryptopim.h include/cryptopim_ntt.h lib/libcryptopim.a \
    lib/libcryptopim.so lib/libcryptopim.so.$major lib/pkgconfig/cryptopim.pc \
    lib/cryptopim/dpu/aes-t16 lib/cryptopim/dpu/sha256-t24 lib/cryptopim/dpu/gcm-t16 \
    share/man/man1/cryptopim.1 \
    share/man/man3/libcryptopim.3 lib/upmem-virtual/bin/dpu-upmem-dpurte-clang \
    lib/upmem-virtual/bin/dpu-pkg-config lib/upmem-virtual/bin/dpu-gdb \
    lib/upmem-virtual/bin/dpu-profile lib/upmem-virtual/include/dpu/dpu.h \
    lib/upmem-virtual/include/dpu/dpu lib/upmem-virtual/include/dpu/dpu.hpp \
    lib/upmem-virtual/include/dpu/dpu_management.h lib/upmem-virtual/share/upmem/version \
    lib/upmem-virtual/share/upmem/cmake/dpu.cmake lib/upmem-virtual/share/pkgconfig/dpu.pc \
    lib/upmem-virtual/share/upmem/cmake/include/host/DpuHost.cmake \
    lib/upmem-virtual/python/dpu/__init__.py lib/upmem-virtual/python/dpu/driver.py \
    lib/upmem-virtual/dpu-include/inttypes.h lib/upmem-virtual/dpu-include/ctype.h \
    lib/upmem-virtual/lib/libdpu.so.0 lib/upmem-virtual/lib/libdpu.a \
    lib/upmem-virtual/lib/pkgconfig/dpu.pc lib/upmem-virtual/lib/dpu-rt/librt.a \
    lib/upmem-virtual/upmem_env.sh lib/upmem-virtual/examples/vecadd/Makefile; do
    [ -e "$R/$f" ] || missing="$missing $f"
done
if [ -z "$missing" ]; then pass install_tree; else fail install_tree "missing:$missing"; fi

# ---- the OpenSSL provider (built when OpenSSL's headers are there) ----
if [ ! -f "$BUILD/provider/cryptopim.so" ]; then
    skip install_provider "no OpenSSL headers: the provider is not built"
elif [ ! -f "$R/lib/ossl-modules/cryptopim.so" ] || [ ! -f "$R/share/man/man7/cryptopim-provider.7" ]; then
    fail install_provider "lib/ossl-modules/cryptopim.so or its man page not installed"
elif printf abc | OPENSSL_CONF=/dev/null openssl dgst -sha256 -provider-path "$R/lib/ossl-modules" \
    -provider cryptopim -propquery provider=cryptopim | grep -q 'ba7816bf8f01cfea'; then
    pass install_provider
else
    fail install_provider "the installed module does not hash abc through openssl dgst"
fi
if grep -rqs "$(pwd)" "$R/lib/pkgconfig" "$R/lib/upmem-virtual/upmem_env.sh" \
    "$R/lib/upmem-virtual/lib/pkgconfig"; then
    fail install_no_source_paths "an installed text file names the source tree $(pwd)"
else
    pass install_no_source_paths
fi

# ---- exported symbols and soname ----
if command -v nm >/dev/null 2>&1 && command -v readelf >/dev/null 2>&1; then
    nm -D --defined-only "$R/lib/libcryptopim.so.$major" | awk 'NF == 3 && $3 !~ /^CRYPTOPIM_/ { sub(/@.*/, "", $3); print $3 }' |
        sort -u >"$T/so.names"
    cat include/cryptopim.h include/cryptopim_ntt.h | grep -o '\bcpim_[a-z0-9_]*(' | tr -d '(' |
        sort -u >"$T/h.names"
    if cmp -s "$T/so.names" "$T/h.names"; then
        pass install_exports_libcryptopim
    else
        fail install_exports_libcryptopim "exports differ from the public headers' functions:" \
            "$(diff "$T/h.names" "$T/so.names" | grep '^[<>]' | tr '\n' ' ')"
    fi
    soname=$(readelf -d "$R/lib/libcryptopim.so.$major" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
    if [ "$soname" = "libcryptopim.so.$major" ]; then pass install_soname; else fail install_soname "soname '$soname'"; fi
    bad=""
    for s in $(nm -D --defined-only "$R/lib/upmem-virtual/lib/libdpu.so.0" | awk 'NF == 3 { sub(/@.*/, "", $3); print $3 }' | sort -u); do
        case $s in LIBDPU_VIRTUAL) continue ;; esac
        # the clock functions in place of libc's (emu/host/clock.c)
        case $s in gettimeofday | clock_gettime | time | timespec_get | clock) continue ;; esac
        grep -qw -- "$s" emu/include/*.h || bad="$bad $s"
    done
    if [ -z "$bad" ]; then pass install_exports_libdpu; else fail install_exports_libdpu "not in the UPMEM headers:$bad"; fi
else
    skip install_exports "no nm/readelf"
fi

# ---- a program outside the tree, through pkg-config ----
PKGCONFIG=$(command -v pkg-config || command -v pkgconf)
head -c 100000 /dev/urandom >"$T/data"
if [ -z "$PKGCONFIG" ]; then
    skip install_pkgconfig "no pkg-config"
else
    mkdir "$T/app"
    cp tests/install/demo.c "$T/app/"
    flags=$(PKG_CONFIG_PATH=$R/lib/pkgconfig "$PKGCONFIG" --define-prefix --cflags --libs cryptopim)
    # the static archives (pkg-config --static names the private libraries;
    # -l:NAME.a makes the linker take the archives, not the .so files)
    sflags=$(PKG_CONFIG_PATH=$R/lib/pkgconfig "$PKGCONFIG" --define-prefix --static --cflags --libs cryptopim |
        sed -e 's/-lcryptopim/-l:libcryptopim.a/' -e 's/-ldpu/-l:libdpu.a/')
    if ! (cd "$T/app" && ${CC:-cc} -std=c11 -Wall -Werror -o demo demo.c $flags) >"$T/log" 2>&1; then
        fail install_pkgconfig_build "cc demo.c \$(pkg-config --cflags --libs cryptopim) failed: $(cat "$T/log")"
    elif ! (cd "$T/app" && ${CC:-cc} -std=c11 -Wall -Werror -o demo-static demo.c $sflags -static-libgcc) >"$T/log" 2>&1; then
        fail install_pkgconfig_static "--static build failed: $(cat "$T/log")"
    else
        pass install_pkgconfig_build
        have_openssl=0
        command -v openssl >/dev/null 2>&1 && have_openssl=1
        [ $have_openssl -eq 1 ] && openssl enc -aes-128-ctr -K 000102030405060708090a0b0c0d0e0f \
            -iv f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff -nosalt -in "$T/data" -out "$T/data.ref"
        if readelf -d "$T/app/demo-static" | grep -q 'NEEDED.*lib\(cryptopim\|dpu\)'; then
            fail install_pkgconfig_static "demo-static needs a shared cryptopim/dpu library"
        fi
        for prog in demo demo-static; do
            for b in cpu pim; do
                name=install_${prog}_$b
                # a static program outside PREFIX/bin cannot find the DPU
                # programs relative to itself: it names them (dpu_dir)
                dir=
                [ $prog = demo-static ] && dir=$R/lib/cryptopim/dpu
                if ! LD_LIBRARY_PATH=$R/lib "$T/app/$prog" $b $dir <"$T/data" >"$T/out" 2>"$T/err"; then
                    fail "$name" "$(cat "$T/err")"
                elif [ $have_openssl -eq 1 ] && ! cmp -s "$T/out" "$T/data.ref"; then
                    fail "$name" "AES-CTR differs from openssl enc"
                else
                    pass "$name"
                fi
            done
        done
        # the shared library resolves libdpu through its own RUNPATH
        if LD_LIBRARY_PATH=$R/lib ldd "$T/app/demo" | grep -q "libdpu.so.0 => $R/lib/upmem-virtual/lib/"; then
            pass install_libdpu_runpath
        else
            fail install_libdpu_runpath "libdpu.so.0 not found in the installed tree: $(LD_LIBRARY_PATH=$R/lib ldd "$T/app/demo" | grep dpu)"
        fi
    fi
fi

# ---- the installed CLI ----
C=$R/bin/cryptopim
if "$C" list | grep -q '^pim  *available'; then
    pass install_cli_finds_dpu_programs
else
    fail install_cli_finds_dpu_programs "$("$C" list | grep '^pim')"
fi
if command -v openssl >/dev/null 2>&1; then
    key=2b7e151628aed2a6abf7158809cf4f3c
    ok=1
    head -c 99984 "$T/data" >"$T/d16" # ECB: a multiple of 16 bytes
    for b in cpu pim; do
        "$C" enc -a aes-128-ecb -K $key --backend $b -i "$T/d16" -o "$T/c.$b" 2>"$T/err" || { ok=0; fail install_cli_openssl "$b: $(cat "$T/err")"; }
        openssl enc -aes-128-ecb -K $key -nosalt -nopad -in "$T/d16" -out "$T/c.ref"
        cmp -s "$T/c.$b" "$T/c.ref" || { ok=0; fail install_cli_openssl "$b: differs from openssl enc"; }
        "$C" dec -a aes-128-ctr -K $key --iv f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff --backend $b -i "$T/data" -o "$T/x.$b" 2>"$T/err" || { ok=0; fail install_cli_openssl "$b ctr: $(cat "$T/err")"; }
        openssl enc -d -aes-128-ctr -K $key -iv f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff -nosalt -in "$T/data" -out "$T/x.ref"
        cmp -s "$T/x.$b" "$T/x.ref" || { ok=0; fail install_cli_openssl "$b ctr: differs from openssl enc -d"; }
    done
    [ $ok -eq 0 ] || pass install_cli_openssl
else
    skip install_cli_openssl "no openssl"
fi
if command -v sha256sum >/dev/null 2>&1; then
    printf abc >"$T/abc"
    : >"$T/empty"
    ok=1
    for b in cpu pim; do
        (cd "$T" && "$C" sha256sum --backend $b data abc empty >"$T/s.$b" 2>"$T/err") || { ok=0; fail install_cli_sha256sum "$b: $(cat "$T/err")"; }
        (cd "$T" && sha256sum data abc empty >"$T/s.ref")
        cmp -s "$T/s.$b" "$T/s.ref" || { ok=0; fail install_cli_sha256sum "$b: differs from coreutils"; }
        (cd "$T" && "$C" sha256sum --backend $b -c --quiet s.ref) || { ok=0; fail install_cli_sha256sum "$b: -c failed"; }
    done
    [ $ok -eq 0 ] || pass install_cli_sha256sum
else
    skip install_cli_sha256sum "no coreutils sha256sum"
fi

# ---- an UPMEM project outside the tree, on the installed virtual UPMEM ----
cp -R "$R/lib/upmem-virtual/examples/vecadd" "$T/vecadd"
if command -v bash >/dev/null 2>&1; then
    if env -i HOME="$T" PATH=/usr/local/bin:/usr/bin:/bin bash -c \
        ". '$R/lib/upmem-virtual/upmem_env.sh' && cd '$T/vecadd' && make -s all NR_DPUS=8 && make -s test NR_DPUS=8" \
        >"$T/log" 2>&1 && grep -q '^PASS example_vecadd' "$T/log"; then
        pass install_upmem_example
    else
        fail install_upmem_example "$(tail -n 5 "$T/log")"
    fi
    if env -i HOME="$T" PATH=/usr/local/bin:/usr/bin:/bin bash -c \
        ". '$R/lib/upmem-virtual/upmem_env.sh' && command -v dpu-upmem-dpurte-clang && pkg-config --define-prefix --modversion dpu" \
        >"$T/log" 2>&1 && grep -q "^$R/lib/upmem-virtual/bin/dpu-upmem-dpurte-clang\$" "$T/log" &&
        grep -q '^20' "$T/log"; then
        pass install_upmem_env
    else
        fail install_upmem_env "$(cat "$T/log")"
    fi
    # the C++ API (#include <dpu>) and a CMake project (pkg_check_modules)
    cp -R "$R/lib/upmem-virtual/examples/cpp_minmax" "$T/cpp_minmax"
    if ! command -v g++ >/dev/null 2>&1; then
        skip install_upmem_cpp_example "no g++"
    elif env -i HOME="$T" PATH=/usr/local/bin:/usr/bin:/bin bash -c \
        ". '$R/lib/upmem-virtual/upmem_env.sh' && cd '$T/cpp_minmax' && make -s all NR_DPUS=8 && make -s test NR_DPUS=8" \
        >"$T/log" 2>&1 && grep -q '^PASS example_cpp_minmax' "$T/log"; then
        pass install_upmem_cpp_example
    else
        fail install_upmem_cpp_example "$(tail -n 5 "$T/log")"
    fi
    cp -R "$R/lib/upmem-virtual/examples/cmake_checksum" "$T/cmake_checksum"
    if ! command -v cmake >/dev/null 2>&1; then
        skip install_upmem_cmake_example "no cmake"
    elif env -i HOME="$T" PATH=/usr/local/bin:/usr/bin:/bin bash -c \
        ". '$R/lib/upmem-virtual/upmem_env.sh' && cmake -S '$T/cmake_checksum' -B '$T/cmake_build' -DNR_DPUS=8 -DPKG_CONFIG_ARGN=--define-prefix && cmake --build '$T/cmake_build' && '$T/cmake_build/host_app'" \
        >"$T/log" 2>&1 && grep -q '^PASS example_cmake_checksum' "$T/log"; then
        pass install_upmem_cmake_example
    else
        fail install_upmem_cmake_example "$(tail -n 5 "$T/log")"
    fi
    # UPMEM_HOME-based CMake (DpuHost.cmake, the dpu.cmake toolchain file)
    cp -R "$R/lib/upmem-virtual/examples/cmake_sdk" "$T/cmake_sdk"
    if ! command -v cmake >/dev/null 2>&1; then
        skip install_upmem_cmake_sdk_example "no cmake"
    elif env -i HOME="$T" PATH=/usr/local/bin:/usr/bin:/bin bash -c \
        ". '$R/lib/upmem-virtual/upmem_env.sh' && test \"\$UPMEM_HOME\" = '$R/lib/upmem-virtual' && cmake -S '$T/cmake_sdk' -B '$T/cmake_sdk_build' && cmake --build '$T/cmake_sdk_build' && '$T/cmake_sdk_build/host_app'" \
        >"$T/log" 2>&1 && grep -q '^PASS example_cmake_sdk' "$T/log"; then
        pass install_upmem_cmake_sdk_example
    else
        fail install_upmem_cmake_sdk_example "$(tail -n 5 "$T/log")"
    fi
    # the Python module through the installed upmem_env.sh
    if env -i HOME="$T" PATH=/usr/local/bin:/usr/bin:/bin bash -c \
        ". '$R/lib/upmem-virtual/upmem_env.sh' && cd '$T' && python3 -c 'import dpu, os; print(os.path.dirname(dpu.__file__))'" \
        >"$T/log" 2>&1 && grep -q "^$R/lib/upmem-virtual/python/dpu\$" "$T/log"; then
        pass install_upmem_python
    else
        fail install_upmem_python "$(tail -n 5 "$T/log")"
    fi
else
    skip install_upmem_example "no bash (the environment script finds itself through BASH_SOURCE)"
fi

# ---- cryptopim-mpi (installed when Open MPI's mpicc is there) ----
# No build-tree path in the installed programs' read-only data (the DPU
# programs' last-resort folder is the installed one; debug info may name
# the sources, so only .rodata is searched); the installed cryptopim-mpi on
# 2 processes (loopback) equals coreutils on the pim backend.
if ! command -v objcopy >/dev/null 2>&1; then
    skip install_no_build_paths "no objcopy"
else
    bad=""
    for b in cryptopim cryptopim-bench cryptopim-mpi; do
        [ -e "$R/bin/$b" ] || continue
        objcopy -O binary --only-section=.rodata "$R/bin/$b" "$T/ro" 2>/dev/null
        grep -q -a "$(pwd)" "$T/ro" && bad="$bad $b"
    done
    if [ -z "$bad" ]; then pass install_no_build_paths; else fail install_no_build_paths "names the build tree:$bad"; fi
fi
if ! command -v mpicc >/dev/null 2>&1 || ! command -v mpirun >/dev/null 2>&1; then
    skip install_mpi "no mpicc/mpirun (Debian: openmpi-bin libopenmpi-dev): cryptopim-mpi not installed"
elif [ ! -x "$R/bin/cryptopim-mpi" ]; then
    fail install_mpi "make install did not install bin/cryptopim-mpi"
else
    printf abc >"$T/abc"
    : >"$T/empty"
    (cd "$T" && sha256sum data abc empty >"$T/m.ref")
    if (cd "$T" && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader \
        OMPI_MCA_hwloc_base_binding_policy=none mpirun --oversubscribe -np 2 \
        "$R/bin/cryptopim-mpi" sha256sum --backend pim data abc empty >"$T/m.out" 2>"$T/err") &&
        cmp -s "$T/m.out" "$T/m.ref"; then
        pass install_mpi
    else
        fail install_mpi "mpirun -np 2 cryptopim-mpi sha256sum differs from coreutils: $(head -3 "$T/err")"
    fi
fi

# ---- man pages ----
if command -v man >/dev/null 2>&1; then
    for pg in share/man/man1/cryptopim.1 share/man/man3/libcryptopim.3 \
        share/man/man7/cryptopim-provider.7; do
        [ -e "$R/$pg" ] || continue
        w=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$R/$pg" 2>&1 >"$T/page")
        if [ -n "$w" ]; then
            fail "install_man_$(basename "$pg")" "$w"
        elif ! grep -q 'EXIT STATUS\|RETURN VALUE' "$T/page"; then
            fail "install_man_$(basename "$pg")" "rendered page lacks its EXIT STATUS / RETURN VALUE section"
        else
            pass "install_man_$(basename "$pg")"
        fi
    done
else
    skip install_man "no man (Debian: man-db)"
fi

# ---- libhexl (the Intel HEXL API, hexl/): a CMake consumer ----
# find_package(HEXL) against the staged tree (the package's paths are
# relative to itself), then the same program through pkg-config.
if [ ! -f "$BUILD/hexl/lib/libhexl.a" ]; then
    skip install_hexl "libhexl not built (no C++ compiler)"
else
    missing=""
    for f in lib/libhexl.a include/hexl/hexl.hpp include/hexl/ntt/ntt.hpp \
        include/hexl/util/allocator.hpp lib/cmake/HEXL/HEXLConfig.cmake \
        lib/cmake/HEXL/HEXLConfigVersion.cmake lib/pkgconfig/hexl.pc; do
        [ -e "$R/$f" ] || missing="$missing $f"
    done
    if [ -z "$missing" ]; then pass install_hexl_tree; else fail install_hexl_tree "missing:$missing"; fi
    if ! command -v cmake >/dev/null 2>&1; then
        skip install_hexl_cmake "no cmake"
    elif cmake -S tests/hexl/consumer -B "$T/hexl_build" -DCMAKE_PREFIX_PATH="$R" \
        >"$T/log" 2>&1 && cmake --build "$T/hexl_build" >>"$T/log" 2>&1 &&
        "$T/hexl_build/hexl_consumer" >>"$T/log" 2>&1; then
        pass install_hexl_cmake
    else
        fail install_hexl_cmake "$(tail -n 8 "$T/log")"
    fi
    if [ -z "$PKGCONFIG" ]; then
        skip install_hexl_pkgconfig "no pkg-config"
    elif g++ -std=c++17 -o "$T/hexl_pc" tests/hexl/consumer/main.cpp \
        $(PKG_CONFIG_PATH="$R/lib/pkgconfig" "$PKGCONFIG" --define-prefix --cflags --libs hexl) \
        >"$T/log" 2>&1 && "$T/hexl_pc" >>"$T/log" 2>&1; then
        pass install_hexl_pkgconfig
    else
        fail install_hexl_pkgconfig "$(tail -n 8 "$T/log")"
    fi
fi

# ---- uninstall ----
mk uninstall DESTDIR="$D" PREFIX=$P >"$T/log" 2>&1
left=$(find "$D" -type f -o -type l | head -5)
if [ -z "$left" ]; then pass install_uninstall; else fail install_uninstall "left behind: $left"; fi

# ---- Debian package, in a private dpkg root ----
deb=$(ls "$BUILD"/cryptopim_*.deb 2>/dev/null | head -1)
if ! command -v dpkg >/dev/null 2>&1 || [ -z "$deb" ]; then
    skip install_deb "no dpkg or no $BUILD/cryptopim_*.deb (make deb)"
else
    DR=$T/dpkgroot
    mkdir -p "$DR/var/lib/dpkg/info" "$DR/var/lib/dpkg/updates" "$DR/var/lib/dpkg/triggers"
    : >"$DR/var/lib/dpkg/status"
    : >"$DR/var/lib/dpkg/available"
    # --force-depends: the private root has none of the system's packages
    dp() { dpkg --force-not-root --force-depends --force-script-chrootless --root="$DR" --log=/dev/null "$@"; }
    deps=$(dpkg-deb -f "$deb" Depends)
    if ! dp -i "$deb" >"$T/log" 2>&1; then
        fail install_deb "dpkg -i failed: $(tail -n 3 "$T/log")"
    elif ! "$DR/usr/bin/cryptopim" list | grep -q '^pim  *available'; then
        fail install_deb "the packaged CLI does not find its DPU programs"
    elif ! printf abc | "$DR/usr/bin/cryptopim" sha256sum --backend pim | grep -q '^ba7816bf'; then
        fail install_deb "the packaged CLI hashes wrong"
    else
        case $deps in
        *clang-14*lld-14*) ;;
        *) fail install_deb "Depends lacks the DPU toolchain: $deps" ;;
        esac
        # cryptopim-mpi is left out of the package (dist/install.mk, INSTALL_MPI)
        case $deps in *openmpi*) fail install_deb "Depends names Open MPI: $deps" ;; esac
        [ ! -e "$DR/usr/bin/cryptopim-mpi" ] || fail install_deb "the package holds cryptopim-mpi"
        # the provider goes to OpenSSL's own modules folder
        mods=$(openssl version -m 2>/dev/null | sed -n 's/^MODULESDIR: "\(.*\)"/\1/p')
        if [ -f "$BUILD/provider/cryptopim.so" ] && [ -n "$mods" ] && [ ! -f "$DR$mods/cryptopim.so" ]; then
            fail install_deb "the package has no $mods/cryptopim.so"
        fi
        dp -r cryptopim >"$T/log" 2>&1
        left=$(find "$DR" -path "$DR/var" -prune -o \( -type f -o -type l \) -print | head -5)
        if [ -z "$left" ]; then pass install_deb; else fail install_deb "dpkg -r left: $left"; fi
    fi
fi
finish
