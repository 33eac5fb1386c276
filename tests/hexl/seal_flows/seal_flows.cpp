// seal_flows.cpp -- the flows of SEAL's examples 1_bfv_basics, 4_bgv_basics
// and 5_ckks_basics (their parameters and computations) with a fixed seed
// for SEAL's random generator, printing every decrypted value.  Built once
// against a SEAL on cryptopim's libhexl and once against a SEAL without
// HEXL (tests/hexl/seal_examples.sh): with the same seed the keys,
// ciphertexts and noise are the same, so the printed outputs must be
// identical, CKKS's approximation errors included.  Each flow also checks
// its own result (exact for BFV/BGV, within 1e-5 for CKKS) and prints
// "FLOW name OK" or "FLOW name WRONG"; exit 1 on an exception.
//
// A fixed seed is insecure and for testing only (SEAL's documentation of
// the seeded random generator factory says so).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "seal/seal.h"

using namespace seal;

namespace
{
const prng_seed_type seed = {1, 2, 3, 4, 5, 6, 7, 8};

void seeded(EncryptionParameters &parms)
{
    parms.set_random_generator(std::make_shared<Blake2xbPRNGFactory>(seed));
}

PublicKey public_key(KeyGenerator &keygen)
{
    PublicKey pk;
    keygen.create_public_key(pk);
    return pk;
}

RelinKeys relin_keys(KeyGenerator &keygen)
{
    RelinKeys rk;
    keygen.create_relin_keys(rk);
    return rk;
}

// The keys and tools of every flow, made from its context in the order of
// SEAL's examples (secret, public, relinearization keys: the seeded
// generator's draws, so both builds get the same keys).
struct Party {
    explicit Party(const SEALContext &context)
        : keygen(context), sk(keygen.secret_key()), pk(public_key(keygen)), rk(relin_keys(keygen)),
          enc(context, pk), ev(context), dec(context, sk)
    {
    }
    KeyGenerator keygen;
    SecretKey sk;
    PublicKey pk;
    RelinKeys rk;
    Encryptor enc;
    Evaluator ev;
    Decryptor dec;
};

// 1_bfv_basics: 4(x^2 + 1)(x + 1)^2 for x = 6 with relinearization
bool bfv()
{
    EncryptionParameters parms(scheme_type::bfv);
    const size_t n = 4096;
    parms.set_poly_modulus_degree(n);
    parms.set_coeff_modulus(CoeffModulus::BFVDefault(n));
    parms.set_plain_modulus(1024);
    seeded(parms);
    SEALContext context(parms);
    Party s(context);

    Plaintext x("6"), one("1"), four("4"), out;
    Ciphertext cx, sq, xp1, r;
    s.enc.encrypt(x, cx);
    s.ev.square(cx, sq);
    s.ev.relinearize_inplace(sq, s.rk);
    s.ev.add_plain_inplace(sq, one);
    s.ev.add_plain(cx, one, xp1);
    s.ev.square_inplace(xp1);
    s.ev.relinearize_inplace(xp1, s.rk);
    s.ev.multiply(sq, xp1, r);
    s.ev.relinearize_inplace(r, s.rk);
    s.ev.multiply_plain_inplace(r, four);
    std::printf("bfv noise budget %d bits\n", s.dec.invariant_noise_budget(r));
    s.dec.decrypt(r, out);
    std::printf("bfv decrypted 0x%s\n", out.to_string().c_str());
    // 4 (37)(49) = 7252 = 84 mod 1024 = 0x54
    return out.to_string() == "54";
}

// 4_bgv_basics: x^8 of a batched vector with relinearization and modulus
// switching
bool bgv()
{
    EncryptionParameters parms(scheme_type::bgv);
    const size_t n = 8192;
    parms.set_poly_modulus_degree(n);
    parms.set_coeff_modulus(CoeffModulus::BFVDefault(n));
    parms.set_plain_modulus(PlainModulus::Batching(n, 20));
    seeded(parms);
    SEALContext context(parms);
    Party s(context);
    BatchEncoder be(context);
    const uint64_t t = parms.plain_modulus().value();
    std::vector<uint64_t> v(be.slot_count(), 0);
    for (size_t i = 0; i < v.size(); i++)
        v[i] = (i * 7 + 1) % 16;
    Plaintext p;
    be.encode(v, p);
    Ciphertext c;
    s.enc.encrypt(p, c);
    for (int k = 0; k < 3; k++) { // x^2, x^4, x^8
        s.ev.square_inplace(c);
        s.ev.relinearize_inplace(c, s.rk);
        s.ev.mod_switch_to_next_inplace(c);
    }
    std::printf("bgv noise budget %d bits\n", s.dec.invariant_noise_budget(c));
    Plaintext out;
    s.dec.decrypt(c, out);
    std::vector<uint64_t> r;
    be.decode(out, r);
    bool ok = true;
    for (size_t i = 0; i < v.size(); i++) {
        uint64_t e = 1;
        for (int k = 0; k < 8; k++)
            e = static_cast<uint64_t>(static_cast<unsigned __int128>(e) * v[i] % t);
        ok = ok && r[i] == e;
        if (i < 8 || i + 4 >= v.size())
            std::printf("bgv slot %zu %llu\n", i, static_cast<unsigned long long>(r[i]));
    }
    return ok;
}

// 5_ckks_basics: pi x^3 + 0.4 x + 1 on 4096 points of [0, 1]
bool ckks()
{
    EncryptionParameters parms(scheme_type::ckks);
    const size_t n = 8192;
    parms.set_poly_modulus_degree(n);
    parms.set_coeff_modulus(CoeffModulus::Create(n, {60, 40, 40, 60}));
    seeded(parms);
    SEALContext context(parms);
    Party s(context);
    CKKSEncoder ce(context);
    const double scale = std::pow(2.0, 40);
    const size_t slots = ce.slot_count();
    std::vector<double> in(slots);
    for (size_t i = 0; i < slots; i++)
        in[i] = static_cast<double>(i) / static_cast<double>(slots - 1);
    Plaintext px, pc3, pc1, pc0;
    ce.encode(in, scale, px);
    ce.encode(3.14159265, scale, pc3);
    ce.encode(0.4, scale, pc1);
    ce.encode(1.0, scale, pc0);
    Ciphertext x1, x3, t;
    s.enc.encrypt(px, x1);
    s.ev.square(x1, x3);
    s.ev.relinearize_inplace(x3, s.rk);
    s.ev.rescale_to_next_inplace(x3);
    s.ev.multiply_plain(x1, pc3, t);
    s.ev.rescale_to_next_inplace(t);
    s.ev.multiply_inplace(x3, t);
    s.ev.relinearize_inplace(x3, s.rk);
    s.ev.rescale_to_next_inplace(x3);
    s.ev.multiply_plain_inplace(x1, pc1);
    s.ev.rescale_to_next_inplace(x1);
    x3.scale() = scale;
    x1.scale() = scale;
    s.ev.mod_switch_to_inplace(x1, x3.parms_id());
    s.ev.mod_switch_to_inplace(pc0, x3.parms_id());
    s.ev.add_inplace(x3, x1);
    s.ev.add_plain_inplace(x3, pc0);
    Plaintext out;
    s.dec.decrypt(x3, out);
    std::vector<double> r;
    ce.decode(out, r);
    bool ok = true;
    for (size_t i = 0; i < slots; i++) {
        const double x = in[i], e = 3.14159265 * x * x * x + 0.4 * x + 1.0;
        ok = ok && std::fabs(r[i] - e) < 1e-5;
        uint64_t bits;
        std::memcpy(&bits, &r[i], sizeof bits);
        // every slot, to the last bit of the double
        std::printf("ckks slot %zu %.17g %016llx\n", i, r[i],
                    static_cast<unsigned long long>(bits));
    }
    return ok;
}
} // namespace

int main()
{
    try {
        std::printf("FLOW bfv %s\n", bfv() ? "OK" : "WRONG");
        std::printf("FLOW bgv %s\n", bgv() ? "OK" : "WRONG");
        std::printf("FLOW ckks %s\n", ckks() ? "OK" : "WRONG");
    } catch (const std::exception &e) {
        std::printf("exception: %s\n", e.what());
        return 1;
    }
    return 0;
}
