/* The monitor's guards (docs/monitor.md, "Security model"), without sockets so that tests can
 * drive them: the Host header check against DNS rebinding, and the admission of event streams. */
#ifndef HS_MONITOR_GUARD_H
#define HS_MONITOR_GUARD_H

#include <stdatomic.h>
#include <stddef.h>

/* Connections: at most HS_MON_CONNECTIONS in all and HS_MON_PER_ADDRESS from one address; one
 * that sends or reads nothing for HS_MON_IDLE_S seconds is closed (a page's stream gets a comment
 * every second, so it never idles). Streams: HS_MON_ANON_STREAMS without the token (pages, tools)
 * and HS_MON_TOKEN_STREAMS more for requests that carry it; the rest of the connections stay free
 * for the page, its files and the controls. */
#define HS_MON_CONNECTIONS   256
#define HS_MON_PER_ADDRESS   64
#define HS_MON_IDLE_S        5
#define HS_MON_ANON_STREAMS  8
#define HS_MON_TOKEN_STREAMS 8

/* 1 when a request with this Host header may be answered: no header (HTTP/1.0), an IP address
 * (IPv4, or IPv6 in brackets), "localhost", or `name`, the host name the operator gave to
 * --monitor (may be NULL); any port (an SSH tunnel changes it). Anything else is a name that an
 * attacker's DNS may point at this address (DNS rebinding): 0. */
int hs_monitor_host_allowed(const char *host_header, const char *name);

/* Admits one more event stream: 1 and the count raised when `*open` < `cap`, else 0. Atomic. */
int hs_monitor_stream_admit(atomic_int *open, int cap);

#endif
