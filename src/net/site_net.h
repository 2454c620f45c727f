/* What the network site kinds share (src/net/site_*.c): the URL, a TCP connection with a
 * bounded connect, the monotonic clock, and the constructors behind kind "remote". */
#ifndef HS_SITE_NET_H
#define HS_SITE_NET_H

#include "hysim/tracking.h"
#include "lab/site_impl.h"

#include <stddef.h>

/* A remote site's URL split as SCHEME://HOST:PORT (HOST may be [v6]). HS_EINPUT naming the site
 * when it does not parse. */
typedef struct hs_site_url {
    char scheme[24];
    char host[200];
    char port[8];
} hs_site_url;
int hs_site_url_parse(hs_site *s, hs_site_url *u);

/* Connects to host:port within timeout_ms (every address getaddrinfo gives, in turn), sets
 * TCP_NODELAY and leaves the socket blocking; *fd the socket. HS_ENET naming the site. */
int hs_site_tcp_connect(hs_site *s, const hs_site_url *u, int timeout_ms, int *fd);
/* Sends all of buf within timeout_ms (HS_ENET / HS_ETIMEOUT naming the site and `what`). */
int hs_site_tcp_send(hs_site *s, int fd, const void *buf, size_t len, int timeout_ms,
                     const char *what);

/* Seconds on the monotonic clock. */
double hs_site_clock(void);
/* The site's measurement timeout in milliseconds (cfg.timeout, 60 s when 0). */
int hs_site_timeout_ms(const hs_site *s);

/* The summary of a remote site whose peer reports no statistics of its own (OpenFresco, NEES):
 * the steps and the tracking figures the coordinator measured from its targets and the answers;
 * a_es NaN (the peer's compensation is unknown: null in summary.json). */
void hs_site_tracked_summary(hs_site_summary *out, int64_t steps, int nact,
                             hs_tracking *const *track);

/* hysim://: the native protocol (site_native.c). */
int hs_site_create_native(hs_site *s, const hs_site_url *u);
/* openfresco-a:// and openfresco-b://: an OpenFresco server; opensees-adapter:// OpenSees'
 * adapter element, proto HS_OFR_PROTO_ADAPTER (site_openfresco.c). */
int hs_site_create_openfresco(hs_site *s, const hs_site_url *u, int proto);
/* nees://: a lab speaking the NEES ASCII protocol (site_nees.c). */
int hs_site_create_nees(hs_site *s, const hs_site_url *u);

#endif
