/*
 * exp_servers.c -- `--experiment servers`: 1..64 servers of 40 ranks with
 * cryptopim-mpi's link model (docs/MPI.md): where the network, not the PIM,
 * limits.
 */
#include <stdlib.h>

#include "cli.h"
#include "exp.h"

/* The link model of cryptopim-mpi (mpi/main.c, docs/MPI.md "Two clocks"),
 * with the same defaults and sources: 100 Gb/s per server (one EDR
 * InfiniBand / 100 GbE port) and 2 us per message (OSU
 * osu_latency reports about 1 us on EDR InfiniBand; rounded up for a switch
 * hop and the MPI software); CRYPTOPIM_NET_GBPS / CRYPTOPIM_NET_LATENCY_US
 * override both, as for cryptopim-mpi. */
static int env_pos(const char *name, double dflt, double *out)
{
    *out = dflt;
    return cli_env_decimal(name, 0.001, 1e9, out) < 0 ? -1 : 0; /* cryptopim-mpi's range */
}

/* cryptopim-mpi enc's collectives on the critical path (mpi/encdec.c), each
 * ceil(log2 N) message steps: the parse verdict; the key's failure check;
 * the argument check (mpi/argcheck.c: the nonce, its failure check, rank
 * 0's digests, the verdicts gathered, the outcome); the size; the
 * backend's failure check; the temporary file (its success, its name); the
 * MPI-IO open check; the ranges' check; the close check; the outcome (GCM
 * adds three). */
#define SERVERS_COLLECTIVES 15
#define SERVERS_CHUNK       (8u << 20) /* cryptopim-mpi's pim chunk: one MPI-IO call each way */

/* 1..64 servers of R ranks (the modeled machine's 40), each with 32 MiB of
 * AES (or SHA-256 in 32 KiB messages) per rank: one server's PIM time is
 * modeled once (every server runs the same work on its own machine); the
 * network is the link model, in two set-ups:
 *   net-shared    the data on a parallel file system with a link per server:
 *                 each server moves its own bytes (AES in and out, SHA-256
 *                 in) through its link; the fabric is assumed non-blocking
 *   net-one-link  the data comes from (and AES goes back to) ONE place with
 *                 one link -- a storage head or a client: that link carries
 *                 every server's bytes
 * Run time (modeled) = the slowest server's PIM time + network time, as
 * cryptopim-mpi's clock (no overlap assumed: an upper bound). */
int exp_servers(bench *b)
{
    static const unsigned full_pts[] = {1, 2, 4, 8, 16, 32, 64};
    static const unsigned quick_pts[] = {1, 4, 64};
    const unsigned *pts = b->quick ? quick_pts : full_pts;
    size_t npts = b->quick ? 3 : sizeof full_pts / sizeof full_pts[0];
    double gbps, lat_us;
    if (env_pos("CRYPTOPIM_NET_GBPS", 100, &gbps) != 0 ||
        env_pos("CRYPTOPIM_NET_LATENCY_US", 2, &lat_us) != 0)
        return -1;
    double bps = gbps * 1e9 / 8, lat = lat_us * 1e-6;
    int sampled = b->sample && b->sample_ok;
    unsigned ranks = b->quick || !sampled ? 1 : 40;
    if (!b->quick && !sampled)
        bench_progress("servers: DPU sampling unavailable: servers of 1 rank (a full run needs the "
                       "sampleDpus profile key; see docs/MODEL.md)");
    if (bench_pim_available() && b->sample_ok && !bench_probe_profile(b->profile, ranks)) {
        bench_progress(
            "servers: the modeled machine (%s) has fewer than %u ranks: 1 rank per server",
            b->machine, ranks);
        ranks = 1;
    }
    size_t per_rank = b->quick ? (1u << 20) : (32u << 20);
    size_t ml = b->quick ? 4096 : 32 * 1024;
    for (int k = K_AES; k <= K_SHA && bench_pim_available(); k++) {
        work w;
        size_t d = per_rank * ranks; /* bytes per server */
        if (bench_work_init(&w, k == K_AES ? d : 0, k == K_SHA ? d / ml : 0, ml) != 0)
            return -1;
        bench_progress("servers: %s, one server of %u ranks, %zu MiB%s", bench_kern_name[k], ranks,
                       d >> 20, sampled ? " (sampled)" : "");
        pim_cfg pc = {0, ranks, 16, CPIM_PIM_ASYNC_XFER, sampled, 0};
        cpim_stats st;
        int rc = bench_pim_run(b, &pc, &w, (enum kern)k, &st);
        bench_work_free(&w);
        if (rc != 0)
            continue;
        double t_pim = st.modeled.total_s;
        /* the bytes each server moves: AES reads and writes its range;
         * SHA-256 reads its files and sends back 32 bytes per message */
        double moved = k == K_AES ? 2.0 * (double)d : (double)d + 32.0 * (double)(d / ml);
        double io_calls =
            k == K_AES ? 2.0 * (double)((d + SERVERS_CHUNK - 1) / SERVERS_CHUNK) : (double)(d / ml);
        unsigned limit_shared = 0, limit_one = 0;
        for (size_t i = 0; i < npts; i++) {
            unsigned n = pts[i], steps = 0;
            while ((1u << steps) < n)
                steps++;
            double coll = SERVERS_COLLECTIVES * steps * lat;
            double net_shared = moved / bps + io_calls * lat + coll;
            double net_one = (double)n * moved / bps + (double)n * io_calls * lat + coll;
            static const char *const setup[] = {"net-shared", "net-one-link"};
            double nets[2] = {net_shared, net_one};
            for (int s = 0; s < 2; s++) {
                row_cfg c = {bench_kern_name[k], "pim", setup[s], n * ranks,
                             n * st.dpus,        16,    0,        (size_t)n * d};
                bench_row(b, &c, "pim", t_pim, 0, CPIM_CLOCK_MODELED, -1);
                bench_row(b, &c, "network", nets[s], 0, CPIM_CLOCK_MODELED, -1);
                bench_row(b, &c, "total", t_pim + nets[s], 0, CPIM_CLOCK_MODELED, -1);
            }
            if (!limit_shared && net_shared > t_pim)
                limit_shared = n;
            if (!limit_one && net_one > t_pim)
                limit_one = n;
        }
        bench_progress(
            "servers: %s: one server's PIM %.4f s for %zu MiB (modeled); the network "
            "exceeds the PIM time from %u server%s with a link per server (net-shared), "
            "from %u with one link for all (net-one-link); 0 = not within 1..%u (modeled, "
            "%.0f Gb/s, %.1f us/message)",
            bench_kern_name[k], t_pim, d >> 20, limit_shared, limit_shared == 1 ? "" : "s",
            limit_one, pts[npts - 1], bps * 8 / 1e9, lat * 1e6);
    }
    /* Resident in place (cpim_region_*, exp_resident.c): the same bytes
     * per server already in its MRAM, encrypted, re-keyed and hashed where
     * they are.  Nothing crosses the network but the collectives (the
     * command's checks) and, for SHA-256, each server's Merkle root (32
     * bytes, one message) for rank 0 to combine. */
    if (bench_pim_available()) {
        static const char *const kn[3] = {"aes-xts-encrypt-in-place", "aes-xts-rekey-in-place",
                                          "sha256-merkle-in-place"};
        size_t per_dpu = per_rank / 64, d = 0;
        double t[3];
        unsigned dpus = 0;
        bench_progress("servers: resident in place, one server of %u ranks, %zu MiB%s", ranks,
                       (per_rank * ranks) >> 20, sampled ? " (sampled)" : "");
        if (bench_resident_server(b, ranks, per_dpu, t, &dpus, &d) != 0)
            return -1;
        for (int k = 0; k < 3; k++) {
            double moved = k == 2 ? 32.0 : 0.0, msgs = k == 2 ? 1.0 : 0.0;
            for (size_t i = 0; i < npts; i++) {
                unsigned n = pts[i], steps = 0;
                while ((1u << steps) < n)
                    steps++;
                double coll = SERVERS_COLLECTIVES * steps * lat;
                double nets[2] = {moved / bps + msgs * lat + coll,
                                  (double)n * moved / bps + (double)n * msgs * lat + coll};
                static const char *const setup[] = {"net-shared", "net-one-link"};
                for (int s = 0; s < 2; s++) {
                    row_cfg c = {kn[k], "pim", setup[s], n * ranks, n * dpus, 16, 0, (size_t)n * d};
                    bench_row(b, &c, "pim", t[k], 0, CPIM_CLOCK_MODELED, -1);
                    bench_row(b, &c, "network", nets[s], 0, CPIM_CLOCK_MODELED, -1);
                    bench_row(b, &c, "total", t[k] + nets[s], 0, CPIM_CLOCK_MODELED, -1);
                }
            }
            unsigned last = pts[npts - 1], steps = 0;
            while ((1u << steps) < last)
                steps++;
            bench_progress(
                "servers: %s: one server %.4f s for %zu MiB (modeled); at %u servers the "
                "network adds %.1f us with one link for all (modeled)",
                kn[k], t[k], d >> 20, last,
                1e6 * (SERVERS_COLLECTIVES * steps * lat + (double)last * moved / bps +
                       (double)last * msgs * lat));
        }
    }
    return 0;
}
