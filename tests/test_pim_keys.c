/*
 * test_pim_keys.c -- no AES key material left on the DPUs (docs/SECURITY.md).
 *
 *  - The AES kernel wipes the round keys (XTS: both keys) and its CTR
 *    keystream (XTS: tweaks) from WRAM when it ends: checked by running dpu/aes.c through <dpu.h>
 * directly and reading the DPU's WRAM back (the virtual UPMEM resolves the kernel's static symbols
 * too).
 *  - The GCM kernel wipes the round keys, its keystream, H and
 *    its GHASH tables (built from H on the DPU): checked the same way.
 *  - Where a call ends without every DPU having finished the kernel (a
 *    timing-only run, a fault), the pim backend overwrites the round keys
 *    itself: checked in the virtual UPMEM's trace, where a broadcast of the
 *    key symbol's size to every DPU must follow the call's last launch.
 *
 * The same for HMAC / PBKDF2 (dpu/hmac.c): the kernel leaves no HMAC key
 * state (nor U, T) in MRAM or WRAM, and the host zeroes the records'
 * MRAM range itself after a timing-only run.
 *
 * Both need the virtual UPMEM; on real hardware they are skipped.
 */
#include <dpu.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef DPU_EMU
#include <dpu_emu.h>
#endif

#include "aes_args.h"
#include "cryptopim.h"
#include "gcm_args.h"
#include "hmac.h"
#include "hmac_args.h"
#include "test.h"

#ifdef DPU_EMU

static const uint8_t key16[16] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
                                  0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c};

static int all_zero(const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i])
            return 0;
    return 1;
}

/* One launch of the AES kernel (4 tasklets) on one DPU in `op`; afterwards
 * the key symbol and (CTR) the keystream halves of the tasklet buffers must
 * be zero. */
static void kernel_case(uint32_t op)
{
    struct dpu_set_t set;
    dpu_error_t e = dpu_alloc(1, "nrRanks=1,nrDpusPerRank=1", &set);
    CHECK(e == DPU_OK, "dpu_alloc: %d", e);
    if (e != DPU_OK)
        return;
    e = dpu_load(set, CPIM_DPU_DIR "/aes-t4", NULL);
    CHECK(e == DPU_OK, "dpu_load: %d", e);
    struct aes_key_args ka;
    memset(&ka, 0, sizeof ka);
    for (unsigned i = 0; i < 44; i++) /* any non-zero schedule will do */
        ka.rk[i] = 0x01010101u * (i + 1) ^ ((uint32_t)key16[i % 16] << 8);
    ka.nr = 10;
    ka.op = op;
    const int xts = op == AES_OP_XTS_ENC || op == AES_OP_XTS_DEC;
    for (unsigned i = 0; i < 44; i++) /* XTS: key2's schedule too */
        ka.xts_k2.rk[i] = 0x02020202u * (i + 3) ^ ((uint32_t)key16[(i + 5) % 16] << 16);
    ka.xts_k2.nr = 10;
    struct aes_job_args job = {8192, 0, {0, 0, 0, 0xf0}};
    if (xts) /* 16 units of 512 bytes from unit 2^32 - 3 (the high word carries) */
        job = (struct aes_job_args){8192, 0, {0xfffffffdu, 0, 512, 512}};
    uint8_t *data = calloc(8192, 1);
    CHECK(data != NULL, "calloc");
    if (e == DPU_OK && data) {
        e = dpu_broadcast_to(set, AES_XSTR(AES_KEY_SYM), 0, &ka, sizeof ka, DPU_XFER_DEFAULT);
        if (e == DPU_OK)
            e = dpu_broadcast_to(set, AES_XSTR(AES_JOB_SYM), 0, &job, sizeof job, DPU_XFER_DEFAULT);
        if (e == DPU_OK)
            e = dpu_broadcast_to(set, DPU_MRAM_HEAP_POINTER_NAME, 0, data, 8192, DPU_XFER_DEFAULT);
        if (e == DPU_OK)
            e = dpu_launch(set, DPU_SYNCHRONOUS);
        CHECK(e == DPU_OK, "kernel run: %d", e);
        struct dpu_set_t dpu; /* dpu_copy_from reads one DPU */
        uint32_t i;
        DPU_FOREACH (set, dpu, i) {
            if (i == 0) /* the set's only DPU */
                break;
        }
        struct aes_key_args after;
        memset(&after, 0xa5, sizeof after);
        e = dpu_copy_from(dpu, AES_XSTR(AES_KEY_SYM), 0, &after, sizeof after);
        CHECK(e == DPU_OK && all_zero(&after, sizeof after),
              "op %u: round keys left in WRAM after the kernel (read: %d)", op, e);
        /* buffers[4][CHUNK / 4]: CHUNK = 2048 at <= 16 tasklets; the CTR
         * keystream is the upper half of each */
        static uint32_t bufs[4][512];
        e = dpu_copy_from(dpu, "buffers", 0, bufs, sizeof bufs);
        CHECK(e == DPU_OK, "read the kernel's buffers: %d", e);
        if (e == DPU_OK && op == AES_OP_CTR)
            for (int t = 0; t < 4; t++)
                CHECK(all_zero(&bufs[t][256], 1024), "tasklet %d: CTR keystream left in WRAM", t);
        /* XTS: the last 16 blocks of each buffer held the tweaks (key2-derived) */
        if (e == DPU_OK && xts)
            for (int t = 0; t < 4; t++)
                CHECK(all_zero(&bufs[t][512 - 64], 256), "tasklet %d: XTS tweaks left in WRAM", t);
        memset(data, 0, 8192);
        e = dpu_copy_from(dpu, DPU_MRAM_HEAP_POINTER_NAME, 0, data, 8192);
        CHECK(e == DPU_OK && !all_zero(data, 8192), "the kernel produced no output");
    }
    free(data);
    dpu_free(set);
}

TEST(pim_kernel_wipes_key_ecb)
{
    kernel_case(AES_OP_ECB_ENC);
}

TEST(pim_kernel_wipes_key_ctr)
{
    kernel_case(AES_OP_CTR);
}

TEST(pim_kernel_wipes_key_xts_enc)
{
    kernel_case(AES_OP_XTS_ENC);
}

TEST(pim_kernel_wipes_key_xts_dec)
{
    kernel_case(AES_OP_XTS_DEC);
}

/* One launch of the GCM kernel (4 tasklets, so 2 KiB chunks) on one DPU:
 * afterwards the round keys, H, the GHASH tables and the keystream halves
 * of the buffers must be zero, and the partial hashes must not. */
static void gcm_kernel_case(uint32_t op)
{
    struct dpu_set_t set;
    dpu_error_t e = dpu_alloc(1, "nrRanks=1,nrDpusPerRank=1", &set);
    CHECK(e == DPU_OK, "dpu_alloc: %d", e);
    if (e != DPU_OK)
        return;
    e = dpu_load(set, CPIM_DPU_DIR "/gcm-t4", NULL);
    CHECK(e == DPU_OK, "dpu_load: %d", e);
    struct aes_key_args ka;
    memset(&ka, 0, sizeof ka);
    for (unsigned i = 0; i < 44; i++)
        ka.rk[i] = 0x01010101u * (i + 1) ^ ((uint32_t)key16[i % 16] << 8);
    ka.nr = 10;
    ka.op = op;
    struct gcm_job_args job = {8192, 5, {1, 2, 3, 0xfffffff0u}};
    uint8_t *data = calloc(8192, 1);
    CHECK(data != NULL, "calloc");
    for (size_t k = 0; data && k < 8192; k++)
        data[k] = (uint8_t)(7 * k + 1); /* zeros would hash to zero when decrypting */
    if (e == DPU_OK && data) {
        e = dpu_broadcast_to(set, AES_XSTR(AES_KEY_SYM), 0, &ka, sizeof ka, DPU_XFER_DEFAULT);
        if (e == DPU_OK)
            e = dpu_broadcast_to(set, GCM_XSTR(GCM_JOB_SYM), 0, &job, sizeof job, DPU_XFER_DEFAULT);
        if (e == DPU_OK)
            e = dpu_broadcast_to(set, DPU_MRAM_HEAP_POINTER_NAME, 0, data, 8192, DPU_XFER_DEFAULT);
        if (e == DPU_OK)
            e = dpu_launch(set, DPU_SYNCHRONOUS);
        CHECK(e == DPU_OK, "kernel run: %d", e);
        struct dpu_set_t dpu;
        uint32_t i;
        DPU_FOREACH (set, dpu, i) {
            if (i == 0)
                break;
        }
        struct aes_key_args after;
        memset(&after, 0xa5, sizeof after);
        e = dpu_copy_from(dpu, AES_XSTR(AES_KEY_SYM), 0, &after, sizeof after);
        CHECK(e == DPU_OK && all_zero(&after, sizeof after), "round keys left (read: %d)", e);
        static uint32_t tab[GCM_TAB_WORDS];
        uint32_t h[4], part[4][4];
        memset(tab, 0xa5, sizeof tab);
        memset(h, 0xa5, sizeof h);
        e = dpu_copy_from(dpu, GCM_XSTR(GCM_TAB_SYM), 0, tab, sizeof tab);
        CHECK(e == DPU_OK && all_zero(tab, sizeof tab), "GHASH tables left (read: %d)", e);
        memset(tab, 0xa5, sizeof tab);
        e = dpu_copy_from(dpu, GCM_XSTR(GCM_TAB8_SYM), 0, tab, 4 * GCM_TAB8_WORDS);
        CHECK(e == DPU_OK && all_zero(tab, 4 * GCM_TAB8_WORDS), "8-bit GHASH tables left (%d)", e);
        e = dpu_copy_from(dpu, GCM_XSTR(GCM_H_SYM), 0, h, sizeof h);
        CHECK(e == DPU_OK && all_zero(h, sizeof h), "H left (read: %d)", e);
        static uint32_t bufs[4][512]; /* CHUNK = 2048 up to 8 tasklets */
        e = dpu_copy_from(dpu, "buffers", 0, bufs, sizeof bufs);
        CHECK(e == DPU_OK, "read the kernel's buffers: %d", e);
        for (int t = 0; t < 4 && e == DPU_OK; t++)
            CHECK(all_zero(&bufs[t][256], 1024), "tasklet %d: keystream left in WRAM", t);
        e = dpu_copy_from(dpu, GCM_XSTR(GCM_PART_SYM), 0, part, sizeof part);
        CHECK(e == DPU_OK && !all_zero(part, sizeof part), "no partial hashes");
    }
    free(data);
    dpu_free(set);
}

TEST(pim_kernel_wipes_key_gcm)
{
    gcm_kernel_case(GCM_OP_ENC);
    gcm_kernel_case(GCM_OP_DEC);
}

/* Counts "broadcast" events of `bytes` bytes after the last "launch" in a
 * trace file written by dpu_emu_trace_stop. */
static int broadcasts_after_last_launch(const char *path, unsigned long long bytes)
{
    size_t len = 0;
    char *text = test_read_file(path, &len);
    if (!text)
        return -1;
    const char *last = NULL;
    for (const char *p = text; (p = strstr(p, "\"name\":\"launch\"")) != NULL; p++)
        last = p;
    int n = 0;
    char want[64];
    snprintf(want, sizeof want, "\"bytes\":%llu}", bytes);
    for (const char *p = last; p && (p = strstr(p, "\"name\":\"broadcast\"")) != NULL; p++) {
        const char *end = strchr(p, '\n');
        const char *b = strstr(p, want);
        if (b && (!end || b < end))
            n++;
    }
    free(text);
    return last ? n : -1;
}

/* One ECB call on `profile` (4 DPUs, traced) that must end with `want`;
 * then `wipes` broadcasts of the key symbol's size must follow its last
 * launch: 1 where the host overwrites the key, 0 where the kernel did. */
static void host_wipe_case(int timing_only, const char *profile, cpim_err want, int wipes, int gcm)
{
    char path[] = "/tmp/cpim-keys-trace-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp");
    if (fd < 0)
        return;
    close(fd);
    cpim_options o;
    cpim_options_init(&o);
    o.dpus = 4;
    o.tasklets = 4;
    o.profile = profile;
    o.timing_only = timing_only;
    cpim_ctx *ctx = NULL;
    cpim_err rc = cpim_open(&ctx, "pim", &o);
    CHECK(rc == CPIM_OK, "open: %s", cpim_strerror(rc));
    uint8_t buf[4096] = {1, 2, 3};
    if (rc == CPIM_OK)
        rc = cpim_aes_set_key(ctx, key16, 16);
    if (rc == CPIM_OK) {
        CHECK(dpu_emu_trace_start(path) == DPU_OK, "trace start");
        uint8_t iv[12] = {0}, tag[16];
        rc = gcm ? cpim_aes_gcm_encrypt(ctx, iv, 12, NULL, 0, buf, buf, sizeof buf, tag)
                 : cpim_aes_ecb(ctx, CPIM_ENCRYPT, buf, buf, sizeof buf);
        CHECK(rc == want, "%s: %s, want %s", gcm ? "gcm" : "ecb", cpim_strerror(rc),
              cpim_strerror(want));
        CHECK(dpu_emu_trace_stop() == DPU_OK, "trace stop");
        int n = broadcasts_after_last_launch(path, 4u * sizeof(struct aes_key_args));
        CHECK(n == wipes, "%d broadcasts of the key symbol's size after the last launch, want %d",
              n, wipes);
        if (gcm) { /* and of the two GHASH tables (the same size) and H */
            _Static_assert(GCM_TAB_WORDS == GCM_TAB8_WORDS, "one size for both tables");
            n = broadcasts_after_last_launch(path, 4u * 4u * GCM_TAB_WORDS);
            CHECK(n == 2 * wipes, "%d broadcasts of the GHASH tables' size, want %d", n, 2 * wipes);
            n = broadcasts_after_last_launch(path, 4u * 16u);
            CHECK(n == wipes, "%d broadcasts of H's size, want %d", n, wipes);
        }
    }
    cpim_close(ctx);
    unlink(path);
}

TEST(pim_host_wipes_key_timing_only)
{
    host_wipe_case(1, "nrRanks=1,nrDpusPerRank=4", CPIM_ERR_TIMING_ONLY, 1, 0);
    host_wipe_case(1, "nrRanks=1,nrDpusPerRank=4", CPIM_ERR_TIMING_ONLY, 1, 1);
}

TEST(pim_host_wipes_key_after_fault)
{
    host_wipe_case(0, "nrRanks=1,nrDpusPerRank=4,maxInstructions=1000", CPIM_ERR_PIM_FAULT, 1, 0);
    host_wipe_case(0, "nrRanks=1,nrDpusPerRank=4,maxInstructions=1000", CPIM_ERR_PIM_FAULT, 1, 1);
}

/* A call that completes leaves the wipe to the kernel: no extra transfer on
 * the modeled clock. */
TEST(pim_host_no_wipe_when_kernel_finished)
{
    host_wipe_case(0, "nrRanks=1,nrDpusPerRank=4", CPIM_OK, 0, 0);
    host_wipe_case(0, "nrRanks=1,nrDpusPerRank=4", CPIM_OK, 0, 1);
}

/* ---- HMAC / PBKDF2 (dpu/hmac.c) ------------------------------------------------------- */

/* One launch of hmac-t4 on one DPU with 6 items (not a multiple of the
 * tasklets) in `mode`: results right (against src/crypto/hmac.c), then no
 * key state left in the item records (MRAM) nor in the WRAM symbols. */
static void hmac_kernel_case(uint32_t mode)
{
    enum { N = 6, ITER = 5 };
    struct dpu_set_t set;
    dpu_error_t e = dpu_alloc(1, "nrRanks=1,nrDpusPerRank=1", &set);
    CHECK(e == DPU_OK, "dpu_alloc: %d", e);
    if (e != DPU_OK)
        return;
    e = dpu_load(set, CPIM_DPU_DIR "/hmac-t4", NULL);
    CHECK(e == DPU_OK, "dpu_load: %d", e);
    static uint8_t img[4096];
    memset(img, 0, sizeof img);
    struct hmac_item *it = (struct hmac_item *)img;
    struct hmac_msg *tab = (struct hmac_msg *)(img + N * sizeof *it);
    const uint32_t tab_off = N * sizeof *it, out_off = tab_off + N * 8, msg_off = out_off + N * 32;
    uint32_t want[N][8];
    for (int i = 0; i < N; i++) {
        uint8_t key[20];
        memset(key, 0x40 + i, sizeof key);
        cpim_crypto_hmac_sha256_pads(key, sizeof key, it[i].istate, it[i].ostate);
        for (int w = 0; w < 8; w++)
            it[i].u[w] = 0x01020304u * (uint32_t)(i + 1) + (uint32_t)w;
        if (mode == HMAC_MODE_PBKDF2) {
            uint32_t u[8], t[8];
            memcpy(u, it[i].u, 32), memcpy(t, u, 32);
            for (int c = 1; c < ITER; c++) {
                cpim_crypto_hmac_sha256_32(it[i].istate, it[i].ostate, u, u);
                for (int w = 0; w < 8; w++)
                    t[w] ^= u[w];
            }
            memcpy(want[i], t, 32);
        } else {
            /* message i: i * 10 bytes of 'm', padded after the key block */
            uint8_t *p = img + msg_off + 128 * i, mac[32];
            size_t len = (size_t)i * 10;
            memset(p, 'm', len);
            cpim_crypto_hmac_sha256(key, sizeof key, p, (uint32_t)len, mac);
            for (int w = 0; w < 8; w++)
                want[i][w] = (uint32_t)mac[4 * w] << 24 | (uint32_t)mac[4 * w + 1] << 16 |
                             (uint32_t)mac[4 * w + 2] << 8 | mac[4 * w + 3];
            p[len] = 0x80;
            uint64_t bits = (len + 64) * 8;
            p[62] = (uint8_t)(bits >> 8), p[63] = (uint8_t)bits;
            tab[i] = (struct hmac_msg){msg_off + 128 * (uint32_t)i, 1};
        }
    }
    struct hmac_job_args job = {mode, N, ITER, out_off, tab_off, 0};
    if (e == DPU_OK)
        e = dpu_broadcast_to(set, HMAC_XSTR(HMAC_JOB_SYM), 0, &job, sizeof job, DPU_XFER_DEFAULT);
    if (e == DPU_OK)
        e = dpu_broadcast_to(set, DPU_MRAM_HEAP_POINTER_NAME, 0, img, sizeof img, DPU_XFER_DEFAULT);
    if (e == DPU_OK)
        e = dpu_launch(set, DPU_SYNCHRONOUS);
    CHECK(e == DPU_OK, "kernel run: %d", e);
    struct dpu_set_t dpu;
    uint32_t i;
    DPU_FOREACH (set, dpu, i) {
        if (i == 0)
            break;
    }
    static uint8_t after[4096];
    memset(after, 0xa5, sizeof after);
    e = dpu_copy_from(dpu, DPU_MRAM_HEAP_POINTER_NAME, 0, after, sizeof after);
    CHECK(e == DPU_OK, "read MRAM: %d", e);
    CHECK(all_zero(after, N * sizeof(struct hmac_item)),
          "mode %u: key states left in the MRAM records", mode);
    CHECK_MEM(after + out_off, want, sizeof want, "kernel results");
    static uint8_t wram[4 * 96 + 4 * 96];
    memset(wram, 0xa5, sizeof wram);
    e = dpu_copy_from(dpu, "items", 0, wram, 4 * sizeof(struct hmac_item));
    if (e == DPU_OK)
        e = dpu_copy_from(dpu, "work", 0, wram + 4 * 96, 4 * 24 * 4);
    CHECK(e == DPU_OK && all_zero(wram, sizeof wram),
          "mode %u: key states or U/T left in WRAM (read: %d)", mode, e);
    dpu_free(set);
}

TEST(pim_kernel_wipes_hmac_states_pbkdf2)
{
    hmac_kernel_case(HMAC_MODE_PBKDF2);
}

TEST(pim_kernel_wipes_hmac_states_mac)
{
    hmac_kernel_case(HMAC_MODE_MAC);
}

/* A timing-only PBKDF2 call (4 DPUs, one simulated): the host zeroes the
 * records' MRAM range of every DPU after the last launch. */
TEST(pim_host_wipes_hmac_states_timing_only)
{
    char path[] = "/tmp/cpim-keys-trace-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp");
    if (fd < 0)
        return;
    close(fd);
    cpim_options o;
    cpim_options_init(&o);
    o.dpus = 4;
    o.tasklets = 4;
    o.profile = "nrRanks=1,nrDpusPerRank=4";
    o.timing_only = 1;
    cpim_ctx *ctx = NULL;
    cpim_err rc = cpim_open(&ctx, "pim", &o);
    CHECK(rc == CPIM_OK, "open: %s", cpim_strerror(rc));
    if (rc == CPIM_OK) {
        uint8_t out[8 * 32];
        CHECK(dpu_emu_trace_start(path) == DPU_OK, "trace start");
        /* 8 chains: 2 per DPU, records 2 x 96 bytes */
        rc = cpim_pbkdf2_sha256(ctx, key16, 16, key16, 4, 3, out, sizeof out);
        CHECK(rc == CPIM_ERR_TIMING_ONLY, "pbkdf2: %s", cpim_strerror(rc));
        CHECK(dpu_emu_trace_stop() == DPU_OK, "trace stop");
        int n = broadcasts_after_last_launch(path, 4u * 2 * sizeof(struct hmac_item));
        CHECK(n == 1, "%d zeroing broadcasts after the last launch, want 1", n);
    }
    cpim_close(ctx);
    unlink(path);
}

#endif /* DPU_EMU */
