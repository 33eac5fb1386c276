// tests/hexl/seal_driver.cpp -- Microsoft SEAL's public API on libhexl with
// the backend of CRYPTOPIM_HEXL_BACKEND (make test-seal: pim, the virtual
// UPMEM, every NTT simulated in full): BFV encrypt, multiply, relinearize,
// decrypt (SEAL's default 36/36/37-bit base at N = 4096: the DPUs'
// double-word program) and CKKS multiply, relinearize, rescale, decrypt
// (30/26/30-bit primes: the word program) give the plaintext products; the
// NTTs did run on cryptopim (libhexl's statistics, modeled on pim); and
// SEAL's transform_to_ntt_inplace / transform_from_ntt_inplace of several
// ciphertexts inside a cryptopim::BatchRegion equal the one-at-a-time calls
// and run as one backend call per direction.  Prints tests/lib.sh verdict
// lines (PASS / FAIL NAME: WHY); exits 1 on a failure.
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "hexl/cryptopim.hpp"
#include "seal/seal.h"

using namespace seal;
namespace cp = intel::hexl::cryptopim;

namespace
{
int g_failed = 0;

void verdict(const std::string &name, bool ok, const std::string &why)
{
    if (ok) {
        std::printf("PASS %s\n", name.c_str());
    } else {
        std::printf("FAIL %s: %s\n", name.c_str(), why.c_str());
        g_failed = 1;
    }
    std::fflush(stdout);
}

std::string tag(const std::string &what)
{
    return "seal_" + cp::GetBackend() + "_" + what;
}

void bfv()
{
    EncryptionParameters parms(scheme_type::bfv);
    const size_t n = 4096;
    parms.set_poly_modulus_degree(n);
    parms.set_coeff_modulus(CoeffModulus::BFVDefault(n));
    parms.set_plain_modulus(PlainModulus::Batching(n, 20));
    SEALContext context(parms);
    KeyGenerator keygen(context);
    PublicKey pk;
    keygen.create_public_key(pk);
    RelinKeys rk;
    keygen.create_relin_keys(rk);
    Encryptor enc(context, pk);
    Decryptor dec(context, keygen.secret_key());
    Evaluator ev(context);
    BatchEncoder be(context);
    const uint64_t t = parms.plain_modulus().value();
    std::vector<uint64_t> x(n), y(n), want(n);
    for (size_t i = 0; i < n; i++) {
        x[i] = (i * 7 + 3) % t;
        y[i] = (i * i + 11) % t;
        want[i] = x[i] * y[i] % t;
    }
    Plaintext px, py, pr;
    be.encode(x, px);
    be.encode(y, py);
    Ciphertext cx, cy;
    enc.encrypt(px, cx);
    enc.encrypt(py, cy);
    cp::ResetStats();
    ev.multiply_inplace(cx, cy);
    ev.relinearize_inplace(cx, rk);
    const cp::Stats st = cp::GetStats();
    dec.decrypt(cx, pr);
    std::vector<uint64_t> got;
    be.decode(pr, got);
    verdict(tag("bfv_multiply_relinearize"), got == want,
            "the decrypted product is not x * y mod t");
    const bool pim = cp::GetBackend() == "pim";
    verdict(tag("bfv_ntts_on_cryptopim"), st.ntts > 0 && (!pim || st.modeled_s > 0),
            std::to_string(st.ntts) + " NTTs, " + std::to_string(st.modeled_s) + " s modeled");
    std::printf("# %s: BFV multiply+relinearize, N = %zu: %llu NTTs in %llu calls, %.6f s "
                "modeled (pim), %.6f s measured in the backend\n",
                cp::GetBackend().c_str(), n, (unsigned long long)st.ntts,
                (unsigned long long)st.calls, st.modeled_s, st.measured_s);

    // several ciphertexts to the NTT domain and back: inside a region (one
    // batch per direction) against one call at a time
    std::vector<Ciphertext> one(3), batched(3);
    for (size_t i = 0; i < one.size(); i++) {
        enc.encrypt(px, one[i]);
        batched[i] = one[i];
        ev.transform_to_ntt_inplace(one[i]);
    }
    cp::ResetStats();
    {
        cp::BatchRegion region;
        for (auto &c : batched)
            ev.transform_to_ntt_inplace(c);
    }
    const uint64_t calls = cp::GetStats().calls;
    bool same = true;
    for (size_t i = 0; i < one.size(); i++)
        same &=
            std::equal(one[i].data(), one[i].data() + one[i].dyn_array().size(), batched[i].data());
    verdict(tag("region_transform_to_ntt"), same && calls == 1,
            "batched != one at a time, or " + std::to_string(calls) + " backend calls, not 1");
    {
        cp::BatchRegion region;
        for (auto &c : batched)
            ev.transform_from_ntt_inplace(c);
    }
    bool back = true;
    for (auto &c : batched) {
        dec.decrypt(c, pr);
        be.decode(pr, got);
        back &= got == x;
    }
    verdict(tag("region_transform_from_ntt"), back, "a ciphertext does not decrypt to x");
}

void ckks()
{
    EncryptionParameters parms(scheme_type::ckks);
    const size_t n = 4096;
    parms.set_poly_modulus_degree(n);
    parms.set_coeff_modulus(CoeffModulus::Create(n, {30, 26, 30}));
    SEALContext context(parms);
    KeyGenerator keygen(context);
    PublicKey pk;
    keygen.create_public_key(pk);
    RelinKeys rk;
    keygen.create_relin_keys(rk);
    Encryptor enc(context, pk);
    Decryptor dec(context, keygen.secret_key());
    Evaluator ev(context);
    CKKSEncoder ce(context);
    const double scale = std::pow(2.0, 26);
    std::vector<double> x(n / 2), y(n / 2), got;
    for (size_t i = 0; i < x.size(); i++) {
        x[i] = 1.0 * i / x.size();
        y[i] = 0.5 - 0.25 * i / x.size();
    }
    Plaintext px, py, pr;
    ce.encode(x, scale, px);
    ce.encode(y, scale, py);
    Ciphertext cx, cy;
    enc.encrypt(px, cx);
    enc.encrypt(py, cy);
    ev.multiply_inplace(cx, cy);
    ev.relinearize_inplace(cx, rk);
    ev.rescale_to_next_inplace(cx);
    dec.decrypt(cx, pr);
    ce.decode(pr, got);
    double err = 0;
    for (size_t i = 0; i < x.size(); i++)
        err = std::max(err, std::fabs(got[i] - x[i] * y[i]));
    verdict(tag("ckks_multiply_relinearize_rescale"), err < 1e-3,
            "largest error " + std::to_string(err));
}
} // namespace

int main()
{
    for (auto f : {bfv, ckks}) {
        try {
            f();
        } catch (const std::exception &e) {
            verdict(tag("run"), false, std::string("exception: ") + e.what());
        }
    }
    return g_failed;
}
