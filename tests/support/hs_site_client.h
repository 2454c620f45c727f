/* A coordinator for the site server's tests (test_site_server*.c): the native protocol over
 * loopback TCP with a pre-shared key, and the fixture that makes that key. Failures end the test
 * (cmocka). */
#ifndef HS_SITE_CLIENT_H
#define HS_SITE_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "hysim/secure.h"
#include "hysim/wire.h"

typedef struct hs_site_client {
    hs_ctx *ctx;
    int fd;
    hs_secure *ch;
} hs_site_client;

/* Connects to 127.0.0.1:port and runs the handshake with key k (2 s); returns its code. */
int hs_site_client_open(hs_site_client *c, int port, const uint8_t *k);
void hs_site_client_close(hs_site_client *c);
/* The next message that is not a heartbeat (3 s each); returns hs_secure_recv's code. */
int hs_site_client_recv(hs_site_client *c, hs_wire_msg *m);
/* Sends m; fails the test if it cannot. */
void hs_site_client_send(hs_site_client *c, hs_wire_msg *m);

/* The fixture of the site tests: a fresh folder from `pattern` (a mkdtemp template such as
 * "/tmp/hs_site_guard_XXXXXX", copied into tmpdir) holding a new key file east.key (its path in
 * keypath, its bytes in key). Returns 0, else -1 or hs_secure_key_generate's code. */
int hs_site_key_setup(const char *pattern, char *tmpdir, size_t tmpdir_size, char *keypath,
                      size_t keypath_size, uint8_t key[HS_SECURE_KEY_SIZE]);
/* Removes the key file and the folder (which must be empty otherwise). */
void hs_site_key_teardown(const char *tmpdir, const char *keypath);

#endif
