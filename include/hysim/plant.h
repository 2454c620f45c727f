/* hysim plant: a separate program that plays a laboratory behind the udp back end
 * (docs/lab_backends.md): a servo-hydraulic controller with its actuators and specimen (the
 * virtual laboratory's models, hysim/lab.h) answering one datagram per command on the real clock.
 * Its file has one `plant` mapping: `listen: "HOST:PORT"`, the laboratory keys of a site file
 * (rate, perfect, seed, actuators, sensors, specimen, relaxation) and the packets as the site's
 * `lab` declares them (endian, command_packet, reply_packet), optionally `interlock_after: N`
 * (raise the interlock bit from the N-th command on, to rehearse an interlock), optionally
 * `peer: "HOST:PORT"` (the one site served; without it the first sender of a well-formed command,
 * until it falls silent for `peer_timeout` seconds, default 0.5). With
 * `lab: {kind: shm, name: /NAME}` instead of listen and the packets, it serves the shm back end's
 * block (include/hysim/shm_lab.h). */
#ifndef HYSIM_PLANT_H
#define HYSIM_PLANT_H

#include "hysim/site.h"

#include <signal.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hs_plant_config {
    hs_site_config lab;      /* the laboratory (kind virtual) and lab.udp's packets */
    char listen[64];         /* "HOST:PORT" the plant binds (port 0: any free port) */
    int64_t interlock_after; /* 0: never */
    char peer[64];           /* "HOST:PORT" of the one site served ("": the first sender) */
    double peer_timeout;     /* s of silence after which a first-come peer is released */
    /* `lab: {kind: shm, name}`: serve the shm back end's block instead of udp (name "" : udp) */
    hs_lab_shm_config shm;
    /* where the actuators rest when the plant starts (`hysim plant --start X[,X...]`, the test's
     * length units per actuator; zeros by default): the specimen is mounted and the actuators
     * held there before any command, as a rig left displaced (docs/lab_backends.md) */
    double start[HS_LAB_MAX_ACT];
} hs_plant_config;

typedef struct hs_plant_file hs_plant_file;
/* Errors are FILE:LINE:COL: message (HS_EINPUT). */
int hs_plant_file_load(hs_ctx *ctx, const char *path, hs_plant_file **out);
int hs_plant_file_load_string(hs_ctx *ctx, const char *text, size_t len, const char *name,
                              hs_plant_file **out);
hs_plant_config *hs_plant_file_config(hs_plant_file *f);
void hs_plant_file_destroy(hs_plant_file **f);

typedef struct hs_plant_counts {
    int64_t commands, replies, ticks; /* commands answered, replies sent, model ticks */
    int64_t idle_ticks; /* ticks without a command (the real clock; the last command held) */
    int64_t malformed, duplicated, out_of_order;
    int64_t foreign;     /* datagrams from another address or port than the peer's: dropped */
    int64_t remounts;    /* a new site laboratory (counter 1 from the peer): fresh specimen */
    int64_t peers;       /* peers taken (the first sender, then one after each end or silence) */
    int64_t peers_ended; /* peers whose socket was reported closed (ICMP port unreachable) */
} hs_plant_counts;

/* Binds, calls ready(port) once, then serves until *stop is set. Never allocates per tick.
 * Before any command the plant says where it rests: on shm it writes a reply (echoing no new
 * command) when it maps the block; on udp with a configured `peer:` it sends that peer a reply at
 * every tick without a command (the target's periodic reply, read by a site's fixed `local:`). */
int hs_plant_run(hs_ctx *ctx, const hs_plant_config *c, volatile sig_atomic_t *stop,
                 void (*ready)(void *user, int port), void *user, hs_plant_counts *counts);

#ifdef __cplusplus
}
#endif
#endif
