/*
 * aes_call.c -- the frame every AES-family call on the DPUs shares (ECB and
 * CTR in pim_aes.c, XTS in pim_xts.c, GCM in pim_gcm.c): its program
 * loaded, its clocks, the key arguments built once and sent each round,
 * and the end, in the one order that keeps the key and the clocks right.
 */
#include <string.h>

#include "aes_args.h"
#include "cryptopim.h"
#include "pim_internal.h"
#include "pim_state.h"

/* see pim_state.h */
cpim_err cpim_pim_aes_call_begin(cpim_pim_aes_call *c, struct cpim_pim_state *s, int prog,
                                 int machine_only, const cpim_crypto_aes_ks *ks, uint32_t op,
                                 size_t key_bytes)
{
    memset(c, 0, sizeof *c);
    c->s = s;
    cpim_err rc = machine_only ? cpim_pim_have_machine(s) : cpim_pim_load(s, prog);
    if (rc != CPIM_OK)
        return rc;
    cpim_pim_clocks_start(&c->clk);
    cpim_pim_dpu_schedule(c->ka.rk, &c->ka.nr, ks);
    c->ka.op = op;
    c->key_bytes = key_bytes;
    return CPIM_OK;
}

/* see pim_state.h */
cpim_err cpim_pim_aes_call_send_key(cpim_pim_aes_call *c)
{
    double t0 = cpim_now();
    cpim_err rc = cpim_pim_machine_send_key(c->s->m, &c->ka, c->key_bytes);
    c->t.in += cpim_now() - t0;
    return rc;
}

/* see pim_state.h */
cpim_err cpim_pim_aes_call_round(cpim_pim_aes_call *c, const cpim_pim_round *r)
{
    cpim_err rc = cpim_pim_machine_round(c->s->m, r, &c->t);
    /* every DPU ran the kernel to its end, which wiped the keys; in a
     * timing-only run the skipped DPUs still hold them */
    if (rc == CPIM_OK && !c->s->timing_only)
        cpim_pim_machine_key_consumed(c->s->m);
    return rc;
}

/* see pim_state.h */
cpim_err cpim_pim_aes_call_end(cpim_pim_aes_call *c, cpim_err rc, uint8_t *out, size_t len,
                               cpim_stats *st)
{
    struct cpim_pim_state *s = c->s;
    cpim_wipe(&c->ka, sizeof c->ka);
    /* what the skipped DPUs of a timing-only run returned is not output:
     * zeroed after the clocks stop, as it is no part of the call being
     * timed (at 40 ranks the first touch of gigabytes of output would be
     * counted as host work) */
    const int zero_out = rc == CPIM_OK && s->timing_only;
    cpim_pim_clocks_stop(s->m, &c->clk, &c->t, st);
    if (zero_out) {
        rc = CPIM_ERR_TIMING_ONLY;
        if (len)
            memset(out, 0, len);
    }
    cpim_pim_machine_wipe_key(s->m); /* not part of the call's time either */
    if (rc != CPIM_OK && rc != CPIM_ERR_TIMING_ONLY)
        cpim_pim_machine_reset(s->m); /* after a fault, reload before the next call */
    return rc;
}
