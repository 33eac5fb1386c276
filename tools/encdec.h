/*
 * encdec.h -- the enc/dec driver: what `cryptopim enc|dec` (tools/encdec_cmd.c)
 * and `cryptopim-mpi enc|dec` (mpi/encdec.c) do alike, so that both accept,
 * refuse and compute the same way and give the same bytes.
 *
 * The front ends own their I/O: the CLI streams one input through the
 * reader/writer pipeline (iopipe.c) or, for GCM, holds the whole message;
 * cryptopim-mpi gives each process a byte range of the file through MPI-IO.
 * This driver owns the rest:
 *  - the chunk size (cli_encdec_chunk): the one place that chooses it;
 *  - the input length rules (cli_encdec_check_size): ECB takes no padding,
 *    an XTS tail has 16 bytes or more, a GCM ciphertext holds its tag;
 *  - the backend with its key and the mode probe (cli_encdec_open);
 *  - the mode dispatch from any position of the message (cli_encdec_seek,
 *    cli_encdec_step): ECB, CTR from the counter block of that position,
 *    XTS from that position's data unit, GCM's range pieces.
 * Every function that fails prints its error (cli_error) first, in the
 * words of cli.h's conventions; none prints key material.
 */
#ifndef CPIM_TOOLS_ENCDEC_H
#define CPIM_TOOLS_ENCDEC_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"

/* The mode's unit: the XTS data unit (--sector-size), else the 16-byte
 * block.  A range of the message that starts on a unit boundary can be
 * processed alone. */
size_t cli_encdec_unit(const cli_encdec *e);

/*
 * The bytes per backend call: 1 MiB (small enough that a chunk read is still
 * in the cache when it is processed and written), 8 MiB on the pim backend
 * (each call is a DPU launch, which has a fixed cost); the CRYPTOPIM_CHUNK
 * environment variable (bytes, a multiple of 16, 16 B to 1 GiB) overrides
 * both, so that tests can make a message cross many chunk borders.  Rounded
 * down to a whole number of units (at least one), so that each call's units
 * are the file's.  0 after printing the error for a bad CRYPTOPIM_CHUNK.
 */
size_t cli_encdec_chunk(const cli_encdec *e, const char *backend);

/*
 * The input length rules, for an input of `size` bytes (the whole input, or
 * the bytes read so far when the last chunk has just been read): ECB needs
 * a multiple of 16; XTS a last data unit of 0 or 16 and more bytes; GCM dec
 * at least the 16-byte tag.  in_name: the input as quoted for messages.
 * 0, or -1 after printing which rule the input breaks.
 */
int cli_encdec_check_size(const cli_encdec *e, const char *in_name, uint64_t size);

/*
 * Opens `backend` with the parsed options, sets the key (AES, or the two
 * XTS halves), wipes e->key whatever happens, and probes the mode with an
 * empty call so that even an empty input gets the backend's refusal.
 * ranged: the caller will process GCM as ranges (cpim_aes_gcm_range and
 * cpim_aes_gcm_finish) rather than as one message.  The context, or NULL
 * after printing the error.
 */
cpim_ctx *cli_encdec_open(cli_encdec *e, const char *backend, int ranged);

/* Where in the message the next cli_encdec_step() starts. */
typedef struct cli_encdec_pos {
    uint64_t off;    /* bytes of the message before it (a whole number of units) */
    uint8_t ctr[16]; /* CTR: the counter block of its first block */
    uint64_t sector; /* XTS: the number of its first data unit */
} cli_encdec_pos;

/* The position `off` bytes into the message (off: a whole number of units). */
void cli_encdec_seek(const cli_encdec *e, cli_encdec_pos *p, uint64_t off);

/*
 * Processes the n bytes of buf in place as the message's bytes at p, then
 * moves p past them.  n is a whole number of units except at the end of the
 * message.  ECB, CTR and XTS; GCM as a range (ghash: its partial GHASH for
 * cpim_aes_gcm_finish; NULL for the other modes).  The library's error.
 */
cpim_err cli_encdec_step(cpim_ctx *ctx, const cli_encdec *e, cli_encdec_pos *p, uint8_t *buf,
                         size_t n, uint8_t ghash[16]);

#endif /* CPIM_TOOLS_ENCDEC_H */
