#!/usr/bin/env python3
"""gen_xts.py -- writes tests/vectors/xts_generated.txt (run from the project
root: python3 tests/vectors/gen_xts.py).

GENERATED records, not official ones: NIST's XTSGenAES256 has no byte-aligned
ciphertext-stealing case and no XTSVS record spans several data units, so
these cover what the CAVP files (xtsvs_*.txt, converted by cavp_xts.py) do
not: AES-128 and AES-256 keys, unit sizes that are and are not multiples of
16, buffers of several units whose last unit is shorter, unit numbers near
2^64.  Inputs come from a fixed-seed PRNG; every output is computed by
OpenSSL's EVP XTS (through pyca/cryptography) applied to each data unit with
the tweak = unit number as 16 little-endian bytes (dm-crypt plain64), and
decrypted back as a check.
"""
import random
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

rng = random.Random(20261202)


def xts(key, unit, data, dec=False):
    c = Cipher(algorithms.AES(key), modes.XTS(unit.to_bytes(16, "little")))
    o = c.decryptor() if dec else c.encryptor()
    return o.update(data) + o.finalize()


def rand(n):
    return bytes(rng.getrandbits(8) for _ in range(n))


cases = []  # (key bytes, unit size, total length, first unit)
for klen in (32, 64):
    for usize, total in ((16, 16), (17, 17), (31, 31), (47, 47), (25, 25), (16, 80), (17, 50),
                         (31, 93), (32, 48), (512, 512), (512, 1024 + 200), (512, 512 + 17),
                         (520, 1040), (4096, 4096 + 4096 + 33), (100, 316)):
        cases.append((klen, usize, total, rng.getrandbits(64)))
    cases.append((klen, 512, 1536, 2**64 - 2))  # unit numbers wrap mod 2^64

with open("tests/vectors/xts_generated.txt", "w") as f:
    f.write("# XTS records beyond NIST XTSVS: several data units per record, CTS, AES-256.\n")
    f.write("# GENERATED (see tests/vectors/gen_xts.py): outputs by OpenSSL EVP XTS per data\n")
    f.write("# unit, checked by decryption.  MODE = XTS, KEY (key1 || key2), UNIT = first unit\n")
    f.write("# number (decimal), USIZE = data unit size in bytes; the last unit of PT may be\n")
    f.write("# shorter.  Both directions are tested.\n")
    for klen, usize, total, first in cases:
        key = rand(klen)
        while key[: klen // 2] == key[klen // 2:]:
            key = rand(klen)
        pt = rand(total)
        ct = b""
        for i, off in enumerate(range(0, total, usize)):
            u = (first + i) % 2**64
            c = xts(key, u, pt[off:off + usize])
            assert xts(key, u, c, dec=True) == pt[off:off + usize]
            ct += c
        f.write("\nMODE = XTS\nKEY = %s\nUNIT = %d\nUSIZE = %d\nPT = %s\nCT = %s\n" %
                (key.hex(), first, usize, pt.hex(), ct.hex()))
print("wrote tests/vectors/xts_generated.txt", len(cases), "records")
