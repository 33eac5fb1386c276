/*
 * pim_internal.h -- the parts of the `pim` backend and how they fit.
 *
 *   backend.c   the backend's row and engines (backend.h): where the DPU
 *               programs are, open and close, the keys (pim_state.h: the
 *               context's state the files below share)
 *   profile.c   the backend's own profile keys
 *   pim_aes.c, pim_xts.c, pim_gcm.c, pim_sha.c, pim_hmac.c, pim_ntt.c
 *               one file per algorithm family: glue (plan a round, run it,
 *               collect the results) and, for HMAC/PBKDF2 and the NTT, the
 *               host side of their DPU programs
 *   resident.c  resident regions (dpu/resident.c)
 *   plan.c      pure planning, no <dpu.h>: how AES blocks and SHA-256
 *               messages are split over DPUs and rounds, what each DPU gets
 *               (job arguments, transfer pieces, staged MRAM images);
 *               unit-tested without any DPU (tests/test_pim_plan.c)
 *   rounds.c    the DPUs: allocation, program loads, the key broadcast and
 *               wipe, and a round in the three host modes of the CryptoPIM
 *               study -- with stats.c, the only files that include <dpu.h>
 *   stats.c     both clocks of a call (measured here; modeled on the
 *               virtual UPMEM, from dpu_emu.h)
 *   fault.c     fault injection (profile key failAt=N): the Nth allocation,
 *               transfer, load or launch of a context fails
 *
 * Dependencies run one way: backend, profile, the family files, resident ->
 * plan, rounds, stats -> fault.
 */
#ifndef CPIM_PIM_INTERNAL_H
#define CPIM_PIM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "aes.h"
#include "cryptopim.h"

/* ---- fault injection (fault.c) ------------------------------------------- */

/* Every checkpoint of a context counts; the one numbered `at` fails
 * (at == 0: never).  Injected failures behave as the real ones would: an
 * allocation returns NULL, a <dpu.h> call its error. */
typedef struct cpim_pim_faults {
    uint64_t at, seen;
} cpim_pim_faults;

/* 1 when this checkpoint is the one to fail. */
int cpim_pim_fault_now(cpim_pim_faults *f);
/* calloc / malloc that count as a checkpoint (f may be NULL: plain). */
void *cpim_pim_calloc(cpim_pim_faults *f, size_t n, size_t size);
void *cpim_pim_malloc(cpim_pim_faults *f, size_t size);

/* ---- the DPUs (rounds.c) -------------------------------------------------- */

enum {
    PIM_PROG_NONE = 0,
    PIM_PROG_AES,
    PIM_PROG_SHA,
    PIM_PROG_HMAC,
    PIM_PROG_GCM,
    PIM_PROG_RESIDENT,     /* resident regions (dpu/resident.c, resident.c) */
    PIM_PROG_RESIDENT_SHA, /* the same, SHA-256 */
    PIM_PROG_NTT,          /* dpu/ntt.c (ntt.c) */
    PIM_PROG_NTT64         /* dpu/ntt.c with -DNTT_DWORD: double-word moduli (ntt.c) */
};

/* One host buffer <-> one MRAM range (from the heap pointer) of one DPU;
 * len 0 = no piece.  A DPU's pieces are disjoint. */
typedef struct cpim_pim_piece {
    void *ptr;
    uint32_t off, len;
} cpim_pim_piece;

#define PIM_PIECES 3u /* pieces per DPU pushed to it (one comes back) */

/* Host time spent in each phase's calls (measured clock). */
typedef struct cpim_pim_times {
    double in, kernel, out;
} cpim_pim_times;

/* What one round moves and runs: per-DPU job arguments (one struct per
 * DPU at `jobs`, pushed to the WRAM symbol job_sym), the pieces to[d *
 * PIM_PIECES + j] pushed before and from[d] gathered after the launch, and
 * host work for DPUs [first, first + n) before their transfer (may be
 * NULL; in the asynchronous modes it overlaps earlier ranks' work).
 * res_sym (may be NULL): a WRAM symbol read back from every DPU with the
 * outputs, res_size bytes into res + d * res_size (GCM: partial hashes). */
typedef struct cpim_pim_round {
    const char *job_sym;
    void *jobs;
    size_t job_size;
    const cpim_pim_piece *to, *from;
    void (*prepare)(void *ctx, uint32_t first, uint32_t n);
    void *ctx;
    const char *res_sym;
    void *res;
    size_t res_size;
} cpim_pim_round;

typedef struct cpim_pim_machine cpim_pim_machine;

typedef struct cpim_pim_machine_cfg {
    unsigned dpus, ranks, tasklets; /* as cpim_options (dpus 0 = see ranks) */
    cpim_pim_mode mode;
    const char *profile; /* for dpu_alloc (this backend's keys removed) */
    const char *dpu_dir; /* folder of the DPU programs */
    int timing_only;     /* reads of unsimulated DPUs are expected */
    cpim_pim_faults *faults;
} cpim_pim_machine_cfg;

/* Allocates the DPUs.  CPIM_ERR_INVALID_ARG for a refused profile. */
cpim_err cpim_pim_machine_open(cpim_pim_machine **m, const cpim_pim_machine_cfg *cfg);
/* Wipes any key left on the DPUs, frees them. NULL is fine. */
void cpim_pim_machine_close(cpim_pim_machine *m);

uint32_t cpim_pim_machine_dpus(const cpim_pim_machine *m);
uint32_t cpim_pim_machine_ranks(const cpim_pim_machine *m);
/* Rank k's DPUs are the global DPUs [first, first + n). */
void cpim_pim_machine_rank(const cpim_pim_machine *m, uint32_t k, uint32_t *first, uint32_t *n);
cpim_pim_mode cpim_pim_machine_mode(const cpim_pim_machine *m);
unsigned cpim_pim_machine_tasklets(const cpim_pim_machine *m);

/* Loads PIM_PROG_AES, PIM_PROG_SHA or PIM_PROG_GCM (built for the context's tasklets)
 * unless it is loaded already. */
cpim_err cpim_pim_machine_load(cpim_pim_machine *m, int prog);
/* After a failed call: reload before the next one (a faulted DPU). */
void cpim_pim_machine_reset(cpim_pim_machine *m);
/* Changes whenever a program is (re)loaded or the machine reset: data a
 * call left in MRAM for later calls (the NTT's twiddles) is stale then. */
unsigned cpim_pim_machine_generation(const cpim_pim_machine *m);
/* The same len bytes (a multiple of 8) at MRAM heap offset off of every DPU. */
cpim_err cpim_pim_machine_broadcast_mram(cpim_pim_machine *m, uint32_t off, const void *buf,
                                         uint32_t len);

/* AES: broadcasts the key arguments to every DPU; from then on the key is
 * taken to be on the DPUs until cpim_pim_machine_key_consumed() (every DPU ran
 * the kernel to its end, which wipes it) or cpim_pim_machine_wipe_key(). */
cpim_err cpim_pim_machine_send_key(cpim_pim_machine *m, const void *args, size_t size);
void cpim_pim_machine_key_consumed(cpim_pim_machine *m);
/* Overwrites the key arguments on every DPU with zeros if they may still
 * be there (best effort: a faulted DPU may refuse the write); for the GCM
 * program also its hash key H and GHASH tables. */
void cpim_pim_machine_wipe_key(cpim_pim_machine *m);

/* One round in the context's mode.  On return every queued job is done
 * (also on error: the caller's buffers are free again). */
cpim_err cpim_pim_machine_round(cpim_pim_machine *m, const cpim_pim_round *r, cpim_pim_times *t);

/* Overwrites the first len bytes (a multiple of 8) of every DPU's MRAM
 * heap with zeros: key states a kernel did not get to wipe (best effort,
 * not a fault-injection checkpoint). */
void cpim_pim_machine_zero_mram(cpim_pim_machine *m, uint32_t len);

/* Resident regions (resident.c): the key arguments of
 * dpu/resident.c (wiped as send_key's are); one piece per DPU moved
 * between the host and MRAM with no launch; a test's look at one DPU's
 * memory (sym NULL: the MRAM heap) through the host library. */
cpim_err cpim_pim_machine_send_res_key(cpim_pim_machine *m, const void *args, size_t size);
cpim_err cpim_pim_machine_xfer(cpim_pim_machine *m, int to_dpus, const cpim_pim_piece *pc,
                               cpim_pim_times *t);
cpim_err cpim_pim_machine_peek(cpim_pim_machine *m, uint32_t dpu, const char *sym, uint32_t off,
                               void *buf, uint32_t len);

/* The pim backend's region ops (backend.h), and what creating one needs
 * of the context: its machine's configuration. */
struct cpim_region_engine;
extern const struct cpim_region_engine cpim_pim_region_engine;
cpim_pim_machine *cpim_pim_region_machine(void *region); /* tests: MRAM inspection */
/* backend.c: a region takes the context's machine (the context opens
 * another with the same configuration when it needs one) and gives it back
 * when freed (closed instead if the context has one again). */
cpim_err cpim_pim_backend_take(void *state, cpim_pim_machine **m, cpim_pim_faults **faults,
                               int *timing_only);
void cpim_pim_backend_give_back(void *state, cpim_pim_machine *m);

/* ---- HMAC / PBKDF2 (pim_hmac.c) ------------------------------------------------ */

/* What the two calls need of the backend's state (the program is loaded). */
typedef struct cpim_pim_hmac_env {
    cpim_pim_machine *m;
    cpim_pim_faults *faults;
    cpim_pim_piece *to, *from; /* nd * PIM_PIECES and nd pieces, reused */
    uint32_t budget;           /* MRAM bytes per DPU and round */
    int timing_only;
} cpim_pim_hmac_env;

/* The backend ops (backend.h contract); outputs are not zeroed for a
 * timing-only run (the caller does it).  CPIM_ERR_UNSUPPORTED for a key,
 * password or salt of 4 GiB or more, or an HMAC message that does not fit
 * one DPU's round budget. */
cpim_err cpim_pim_pbkdf2(const cpim_pim_hmac_env *e, const uint8_t *const *passes,
                         const size_t *pass_lens, const uint8_t *const *salts,
                         const size_t *salt_lens, size_t count, uint32_t iterations,
                         uint8_t *const *outs, size_t out_len, cpim_pim_times *t);
cpim_err cpim_pim_hmac(const cpim_pim_hmac_env *e, const uint8_t *const *keys,
                       const size_t *key_lens, const uint8_t *const *msgs, const size_t *msg_lens,
                       size_t count, uint8_t (*macs)[32], cpim_pim_times *t);

/* ---- NTT (pim_ntt.c) ---------------------------------------------------------------- */

struct cpim_ntt_plan;

/* The ring whose twiddle tables are on the DPUs (kept across calls). */
typedef struct cpim_pim_ntt_cache {
    size_t n, nmod;
    uint64_t q[16];
    uint64_t psi[16]; /* rings of one modulus may differ in psi (cpim_ntt_create_roots) */
    unsigned gen;     /* cpim_pim_machine_generation when they were sent */
    int valid;
} cpim_pim_ntt_cache;

typedef struct cpim_pim_ntt_env {
    cpim_pim_machine *m;
    cpim_pim_faults *faults;
    cpim_pim_piece *to, *from; /* nd * PIM_PIECES and nd pieces, reused */
    uint32_t budget;           /* MRAM bytes of data per DPU and round */
    uint32_t sched, log_m;     /* the kernel's NTT_SCHED_* and block (0: its largest) */
    int timing_only;
    cpim_pim_ntt_cache *cache;
} cpim_pim_ntt_env;

/* 1 when the plan has a double-word modulus: its base runs on PIM_PROG_NTT64. */
int cpim_pim_ntt_dword(const struct cpim_ntt_plan *plan);

/* The backend's ntt op (backend.h contract; op is a cpim_ntt_op) with the
 * NTT program loaded: PIM_PROG_NTT64 if cpim_pim_ntt_dword(plan), else
 * PIM_PROG_NTT. */
cpim_err cpim_pim_ntt(const cpim_pim_ntt_env *e, const struct cpim_ntt_plan *plan, int op,
                      const uint64_t *a, const uint64_t *b, uint64_t *out, size_t count,
                      cpim_pim_times *t);

/* ---- planning (plan.c): no <dpu.h> ------------------------------------------ */

struct aes_job_args;
struct sha_job_args;

/* 128-bit big-endian counter (c[0] most significant) += n. */
void cpim_pim_ctr_add(uint32_t c[4], uint64_t n);

/* One AES round: blocks [done, done + nb) of a len-byte buffer (its last
 * block may be partial) over nd DPUs.  DPU i takes q or q + 1 blocks (q =
 * nb / nd, the remainder spread over the first DPUs, never dropped):
 * jobs[i] gets the byte count and for CTR the counter of its first block
 * (ctr0 + that block's index, 128-bit); to[i * PIM_PIECES] its input (the
 * other pieces empty) and from[i] its output, straight in the caller's
 * buffers.  Returns the DPU whose share ends in a partial final block, or
 * UINT32_MAX: its pieces must be bounced (they would read and write past
 * the caller's buffers). */
uint32_t cpim_pim_aes_split(uint32_t nd, uint64_t done, uint64_t nb, size_t len, const uint8_t *in,
                            uint8_t *out, const uint32_t ctr0[4], struct aes_job_args *jobs,
                            cpim_pim_piece *to, cpim_pim_piece *from);

/* SHA-256: one segment of a message on a DPU in a round. */
typedef struct cpim_pim_sha_seg {
    size_t msg;
    uint64_t prior; /* bytes of the message before this segment */
    uint32_t len, flags;
} cpim_pim_sha_seg;

/* The plan of one SHA-256 round (see plan.c for the MRAM layout).  The
 * caller sets the inputs, cpim_pim_sha_plan_alloc the per-DPU arrays;
 * cpim_pim_sha_plan_round plans a round and says how much staging and result
 * memory it needs, which the caller provides (stage, results, to, from)
 * before running it with cpim_pim_sha_prepare as the round's prepare step. */
typedef struct cpim_pim_sha_plan {
    /* inputs */
    const uint8_t *const *msgs;
    const size_t *lens;
    uint32_t nd;         /* DPUs */
    uint32_t budget;     /* MRAM bytes per DPU and round */
    uint64_t direct_min; /* profile key directMin */
    unsigned threads;    /* host threads for large staged copies */
    uint32_t nr_scopes;  /* push scopes: the whole set (sync) or each rank */
    uint32_t *scope_first, *scope_n;
    /* 1: the streaming API's blocks (lens multiples of 64): every segment
     * starts from chain[m] (set by the caller) and none is padded; when a
     * message is done, chain[m] is its new chaining value */
    int blocks;
    /* buffers of the round, from the caller */
    uint8_t *stage, *results;
    cpim_pim_piece *to, *from;
    /* the plan */
    cpim_pim_sha_seg *segs;   /* this round's segments, grouped by DPU */
    uint32_t *first, *cnt;    /* per DPU: its segments */
    uint32_t *dlen;           /* per DPU: D, its data bytes */
    uint32_t *run;            /* per DPU: T if direct, 0 if staged */
    uint8_t *cont;            /* per DPU: a segment continues a message */
    size_t *img;              /* per DPU: offset of its region in stage */
    uint64_t *tmp;            /* nd scratch entries */
    uint32_t max_n, slots;    /* most segments on one DPU; S */
    uint32_t base, stage_len; /* MRAM range pushed for staged DPUs */
    struct sha_job_args *jobs;
    uint32_t (*chain)[8]; /* per message: chaining value between segments */
} cpim_pim_sha_plan;

/* Per-DPU arrays for `count` messages (chain only if a message is longer
 * than one segment).  CPIM_ERR_NOMEM, everything freed, on failure. */
cpim_err cpim_pim_sha_plan_alloc(cpim_pim_sha_plan *p, cpim_pim_faults *f, size_t count);
void cpim_pim_sha_plan_free(cpim_pim_sha_plan *p);
/* The longest segment of a round (a multiple of 64). */
uint32_t cpim_pim_sha_seg_max(uint32_t budget);
/* Plans the next round for the unfinished messages todo[0..ntodo) (pos[m]:
 * bytes of message m hashed so far).  *stage_bytes and *result_bytes: the
 * memory the round needs. */
void cpim_pim_sha_plan_round(cpim_pim_sha_plan *p, const size_t *todo, size_t ntodo,
                             const uint64_t *pos, size_t *stage_bytes, size_t *result_bytes);
/* The round's prepare step (cpim_pim_round.prepare): job arguments, pieces and
 * staged bytes of DPUs [first, first + n). */
void cpim_pim_sha_prepare(void *plan, uint32_t first, uint32_t n);
/* After the round: digests of the finished messages, chaining values and
 * pos of the others (pos = UINT64_MAX when finished; in blocks mode a
 * finished message's result is its chain entry). */
void cpim_pim_sha_collect(const cpim_pim_sha_plan *p, uint64_t *pos, uint8_t (*digests)[32]);

/* ---- statistics (stats.c) -------------------------------------------------- */

typedef struct cpim_pim_clocks cpim_pim_clocks;
struct cpim_pim_clocks {
    double t0;
    double modeled[4]; /* CPU-DPU, kernel, DPU-CPU, host time at the start */
    double modeled_j;  /* modeled energy at the start (joules)             */
};

void cpim_pim_clocks_start(cpim_pim_clocks *c);
/* Fills st's measured phases (t) and total, the machine's size, and on
 * the virtual UPMEM its modeled phases since cpim_pim_clocks_start. */
void cpim_pim_clocks_stop(const cpim_pim_machine *m, const cpim_pim_clocks *c,
                          const cpim_pim_times *t, cpim_stats *st);

/* An AES schedule in the DPU's little-endian columns (aes_args.h): rk gets
 * 4 * (nr + 1) words, *nr the number of rounds. */
static inline void cpim_pim_dpu_schedule(uint32_t *rk, uint32_t *nr, const cpim_crypto_aes_ks *ks)
{
    for (unsigned i = 0; i < 4 * (ks->nr + 1); i++)
        rk[i] = __builtin_bswap32(ks->rk[i]);
    *nr = ks->nr;
}

#endif /* CPIM_PIM_INTERNAL_H */
