/* A coordinator for the site server's tests (hs_site_client.h). */
#include "hs_site_client.h"

#include "hs_loopback.h"
#include "hs_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int hs_site_client_open(hs_site_client *c, int port, const uint8_t *k)
{
    memset(c, 0, sizeof *c);
    assert_int_equal(hs_ctx_create(&c->ctx), 0);
    c->fd = hs_loopback_connect(port);
    const hs_transport tr = hs_transport_fd(c->fd);
    hs_secure_config cfg = {
        .role = HS_SECURE_COORDINATOR, .mode = HS_SECURE_PSK, .timeout_ms = 2000};
    memcpy(cfg.key, k, sizeof cfg.key);
    assert_int_equal(hs_secure_create(c->ctx, &cfg, &tr, &c->ch), 0);
    return hs_secure_handshake(c->ch);
}

void hs_site_client_close(hs_site_client *c)
{
    hs_secure_destroy(&c->ch);
    if (c->fd >= 0) close(c->fd);
    hs_ctx_destroy(&c->ctx);
}

int hs_site_client_recv(hs_site_client *c, hs_wire_msg *m)
{
    for (;;) {
        const int rc = hs_secure_recv(c->ch, m, 3000);
        if (rc || m->type != HS_WIRE_HEARTBEAT) return rc;
    }
}

void hs_site_client_send(hs_site_client *c, hs_wire_msg *m)
{
    assert_int_equal(hs_secure_send(c->ch, m), 0);
}

int hs_site_key_setup(const char *pattern, char *tmpdir, size_t tmpdir_size, char *keypath,
                      size_t keypath_size, uint8_t key[HS_SECURE_KEY_SIZE])
{
    snprintf(tmpdir, tmpdir_size, "%s", pattern);
    if (!mkdtemp(tmpdir)) return -1;
    snprintf(keypath, keypath_size, "%s/east.key", tmpdir);
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    const int rc = hs_secure_key_generate(ctx, keypath, key);
    hs_ctx_destroy(&ctx);
    return rc;
}

void hs_site_key_teardown(const char *tmpdir, const char *keypath)
{
    unlink(keypath);
    rmdir(tmpdir);
}
