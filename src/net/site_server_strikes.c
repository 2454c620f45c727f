/* OpenFresco clients (protocols A and B, no authentication) that hold the site without moving
 * anything (issue 17): a client that connects, does its handshake and stays silent is dropped
 * after openfresco.idle_timeout, but one that reconnects at once held the site again, without end,
 * keeping every other coordinator out (busy). The site remembers, per IPv4 address, how many of
 * its sessions in a row ended having posted no target (an empty session: dropped for silence,
 * closed, or DIE before any trial); after HS_SRV_STRIKES of them the address is refused at accept
 * for ten idle_timeouts (logged once per period), then starts afresh. A session that moves
 * something clears its address's count. The total time one address can hold the site without a
 * step is so bounded by HS_SRV_STRIKES idle_timeouts in every thirteen. */
#include "site_server_impl.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

static hs_srv_strikes *find(hs_site_server *s, uint32_t addr, int make)
{
    hs_srv_strikes *oldest = &s->strikes[0];
    for (int k = 0; k < HS_SRV_STRIKE_ADDRS; k++) {
        hs_srv_strikes *e = &s->strikes[k];
        if (e->n > 0 && e->addr == addr) return e;
        if (e->n == 0 || (oldest->n > 0 && e->seen < oldest->seen)) oldest = e;
    }
    if (!make) return NULL;
    memset(oldest, 0, sizeof *oldest);
    oldest->addr = addr;
    return oldest;
}

void hs_srv_strike(hs_site_server *s, const char *peer, int empty, int64_t now)
{
    char ip[INET_ADDRSTRLEN];
    snprintf(ip, sizeof ip, "%.*s", (int)strcspn(peer, ":"), peer);
    struct in_addr a;
    if (inet_pton(AF_INET, ip, &a) != 1) return;
    hs_srv_strikes *e = find(s, ntohl(a.s_addr), empty);
    if (!e) return;
    if (!empty) {
        memset(e, 0, sizeof *e); /* it moved something: a real client */
        return;
    }
    e->n++;
    e->seen = now;
    if (e->n < HS_SRV_STRIKES) return;
    e->until = now + (int64_t)(10.0 * s->cfg.of_idle_timeout * 1e9);
    e->logged = 0;
    hs_log(s->ctx, HS_LOG_WARN,
           "site %s: %s: %d OpenFresco sessions in a row from this address ended without a "
           "target: its OpenFresco connections are refused for %g s (ten "
           "openfresco.idle_timeouts), so that it cannot hold the site for others",
           s->cfg.site.name, ip, e->n, 10.0 * s->cfg.of_idle_timeout);
}

int hs_srv_struck_out(hs_site_server *s, uint32_t addr, int64_t now)
{
    hs_srv_strikes *e = find(s, addr, 0);
    if (!e || e->n < HS_SRV_STRIKES) return 0;
    if (now >= e->until) { /* the period is over: it starts afresh */
        memset(e, 0, sizeof *e);
        return 0;
    }
    if (!e->logged) {
        struct in_addr a = {.s_addr = htonl(addr)};
        char ip[INET_ADDRSTRLEN] = "?";
        inet_ntop(AF_INET, &a, ip, sizeof ip);
        hs_log(s->ctx, HS_LOG_WARN,
               "site %s: %s: OpenFresco client refused: its last %d sessions held the site "
               "without a target; it may connect again in %.0f s (further refusals not logged)",
               s->cfg.site.name, ip, e->n, 1e-9 * (double)(e->until - now));
        e->logged = 1;
    }
    hs_srv_count(s, &s->status.refused);
    return 1;
}
