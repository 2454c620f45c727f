/* hysim checkpoints (docs/checkpoints.md): the coordinator's whole state in DIR/checkpoint.bin,
 * written atomically every `analysis.checkpoint_every` steps, with the recorded results in the
 * append-only side file DIR/records.bin; `hysim run --resume DIR` continues a killed run from it,
 * bit for bit. This header reads a checkpoint's header and hashes test files; the coordinator
 * writes and restores checkpoints (hysim/coordinator.h). */
#ifndef HYSIM_CHECKPOINT_H
#define HYSIM_CHECKPOINT_H

#include "hysim/base.h"
#include "hysim/testfile.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HS_CHECKPOINT_VERSION                                                                      \
    3 /* 2: checksummed records.bin rows, hash of every input;                                     \
         3: the run's id, records.bin bound to it and the hash */
#define HS_CHECKPOINT_RUN_ID_BYTES 16
#define HS_CHECKPOINT_HASH_BYTES   32
#define HS_CHECKPOINT_FILE         "checkpoint.bin"
#define HS_CHECKPOINT_RECORDS      "records.bin"

typedef struct hs_checkpoint_info {
    uint32_t version;
    uint8_t hash[HS_CHECKPOINT_HASH_BYTES]; /* the test file's content hash (BLAKE2b-256) */
    int64_t step;                           /* steps done when it was written */
    int64_t steps;                          /* the test's steps */
    int64_t records;                        /* records of records.bin that belong to the run */
    uint64_t record_width;                  /* doubles per record */
    uint64_t state_size;                    /* doubles of coordinator state */
    char test_path[1024];                   /* the test file, absolute when the writer knew it */
    uint8_t run_id[HS_CHECKPOINT_RUN_ID_BYTES]; /* random, drawn when the run started; kept by
                                                   its resumes; every row of records.bin is
                                                   bound to it */
} hs_checkpoint_info;

/* Content hash of a test file: BLAKE2b-256 (libsodium crypto_generichash, no key) of its bytes.
 * Identifies the definition a checkpoint belongs to; not a security measure. */
void hs_checkpoint_hash_bytes(const void *bytes, size_t len,
                              uint8_t hash[HS_CHECKPOINT_HASH_BYTES]);
int hs_checkpoint_hash_file(hs_ctx *ctx, const char *path, uint8_t hash[HS_CHECKPOINT_HASH_BYTES]);
/* The hash of everything a run of def reads: BLAKE2b-256 of, in turn, the test file at
 * test_path and each file of def->inputs (ground-motion record, histograms), each as its length
 * (u64, little-endian) and its bytes. A record edited after a checkpoint changes it, so the run
 * cannot be resumed with spliced inputs. Key files are not part of it. */
int hs_checkpoint_hash_test(hs_ctx *ctx, const char *test_path, const hs_test_def *def,
                            uint8_t hash[HS_CHECKPOINT_HASH_BYTES]);
/* Reads and checks DIR/checkpoint.bin's header (magic, version, byte order, counts) and that the
 * file is exactly as long as the header says; the state is read and its checksum checked by
 * hs_coordinator_resume, after its size is compared with the coordinator's. HS_ENOTFOUND when
 * there is none, HS_EINPUT when it is not a usable checkpoint (or not a regular file). */
int hs_checkpoint_read_info(hs_ctx *ctx, const char *dir, hs_checkpoint_info *out);

#ifdef __cplusplus
}
#endif
#endif
