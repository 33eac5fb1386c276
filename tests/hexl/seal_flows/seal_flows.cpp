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
    KeyGenerator keygen(context);
    SecretKey sk = keygen.secret_key();
    PublicKey pk;
    keygen.create_public_key(pk);
    RelinKeys rk;
    keygen.create_relin_keys(rk);
    Encryptor enc(context, pk);
    Evaluator ev(context);
    Decryptor dec(context, sk);

    Plaintext x("6"), one("1"), four("4"), out;
    Ciphertext cx, sq, xp1, r;
    enc.encrypt(x, cx);
    ev.square(cx, sq);
    ev.relinearize_inplace(sq, rk);
    ev.add_plain_inplace(sq, one);
    ev.add_plain(cx, one, xp1);
    ev.square_inplace(xp1);
    ev.relinearize_inplace(xp1, rk);
    ev.multiply(sq, xp1, r);
    ev.relinearize_inplace(r, rk);
    ev.multiply_plain_inplace(r, four);
    std::printf("bfv noise budget %d bits\n", dec.invariant_noise_budget(r));
    dec.decrypt(r, out);
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
    KeyGenerator keygen(context);
    SecretKey sk = keygen.secret_key();
    PublicKey pk;
    keygen.create_public_key(pk);
    RelinKeys rk;
    keygen.create_relin_keys(rk);
    Encryptor enc(context, pk);
    Evaluator ev(context);
    Decryptor dec(context, sk);
    BatchEncoder be(context);
    const uint64_t t = parms.plain_modulus().value();
    std::vector<uint64_t> v(be.slot_count(), 0);
    for (size_t i = 0; i < v.size(); i++)
        v[i] = (i * 7 + 1) % 16;
    Plaintext p;
    be.encode(v, p);
    Ciphertext c;
    enc.encrypt(p, c);
    for (int k = 0; k < 3; k++) { // x^2, x^4, x^8
        ev.square_inplace(c);
        ev.relinearize_inplace(c, rk);
        ev.mod_switch_to_next_inplace(c);
    }
    std::printf("bgv noise budget %d bits\n", dec.invariant_noise_budget(c));
    Plaintext out;
    dec.decrypt(c, out);
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
    KeyGenerator keygen(context);
    SecretKey sk = keygen.secret_key();
    PublicKey pk;
    keygen.create_public_key(pk);
    RelinKeys rk;
    keygen.create_relin_keys(rk);
    Encryptor enc(context, pk);
    Evaluator ev(context);
    Decryptor dec(context, sk);
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
    enc.encrypt(px, x1);
    ev.square(x1, x3);
    ev.relinearize_inplace(x3, rk);
    ev.rescale_to_next_inplace(x3);
    ev.multiply_plain(x1, pc3, t);
    ev.rescale_to_next_inplace(t);
    ev.multiply_inplace(x3, t);
    ev.relinearize_inplace(x3, rk);
    ev.rescale_to_next_inplace(x3);
    ev.multiply_plain_inplace(x1, pc1);
    ev.rescale_to_next_inplace(x1);
    x3.scale() = scale;
    x1.scale() = scale;
    ev.mod_switch_to_inplace(x1, x3.parms_id());
    ev.mod_switch_to_inplace(pc0, x3.parms_id());
    ev.add_inplace(x3, x1);
    ev.add_plain_inplace(x3, pc0);
    Plaintext out;
    dec.decrypt(x3, out);
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
