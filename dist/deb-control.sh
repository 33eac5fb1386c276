#!/bin/sh
# dist/deb-control.sh STAGE VERSION ARCH -- writes STAGE/DEBIAN/control for
# `make deb`. Depends: the Debian packages that own the shared libraries the
# staged ELF files need (what dpkg-shlibdeps would find, without version
# bounds), plus the DPU toolchain the virtual UPMEM's compiler driver runs
# (clang-14, lld-14) and the tools its scripts use.
set -eu
stage=$1
version=$2
arch=$3
libs=$(find "$stage" -type f -exec sh -c 'head -c 4 "$1" | grep -q "ELF" && objdump -p "$1" 2>/dev/null' _ {} \; |
    awk '$1 == "NEEDED" { print $2 }' | sort -u)
pkgs=""
for l in $libs; do
    case $l in libcryptopim.so.* | libdpu.so.*) continue ;; esac
    path=$(ldconfig -p | awk -v l="$l" '$1 == l { print $NF; exit }')
    [ -n "$path" ] || { echo "deb-control: no package provides $l" >&2; exit 1; }
    real=$(readlink -f "$path")
    p=$(dpkg -S "$path" 2>/dev/null || dpkg -S "$real" 2>/dev/null || true)
    p=${p%%:*}
    [ -n "$p" ] || { echo "deb-control: no package owns $path" >&2; exit 1; }
    pkgs="$pkgs $p"
done
deps=$(printf '%s\n' $pkgs clang-14 lld-14 make | sort -u | paste -sd, - | sed 's/,/, /g')
size=$(du -sk "$stage" | cut -f1)
mkdir -p "$stage/DEBIAN"
cat >"$stage/DEBIAN/control" <<CTL
Package: cryptopim
Version: $version
Architecture: $arch
Maintainer: cryptopim developers <cryptopim@localhost>
Installed-Size: $size
Depends: $deps
Section: libs
Priority: optional
Description: bulk AES and SHA-256 on UPMEM PIM DPUs, and a virtual UPMEM
 cryptopim runs AES (ECB, CTR) and SHA-256 on UPMEM processing-in-memory
 DPUs and on CPU backends (portable, AES-NI/VAES, SHA-NI) behind one C API
 (libcryptopim, cryptopim.h) and a CLI byte-compatible with openssl enc and
 sha256sum, and an OpenSSL 3 provider (cryptopim.so in OpenSSL's modules
 folder) that runs them for any OpenSSL application. It ships a virtual
 UPMEM (/usr/lib/upmem-virtual) that builds
 and runs unchanged UPMEM programs without PIM hardware and models how long
 the real machine would take.
CTL
echo "deb-control: Depends: $deps"
