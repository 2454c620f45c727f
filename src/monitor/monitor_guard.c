/* The monitor's guards (monitor_guard.h): the Host header check and the stream admission. */
#include "monitor/monitor_guard.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <strings.h>

int hs_monitor_host_allowed(const char *host_header, const char *name)
{
    if (!host_header) return 1;
    char host[256];
    size_t n;
    if (host_header[0] == '[') { /* [IPv6]:port */
        const char *close = strchr(host_header, ']');
        if (!close || (size_t)(close - host_header - 1) >= sizeof host) return 0;
        n = (size_t)(close - host_header - 1);
        memcpy(host, host_header + 1, n);
        host[n] = '\0';
        if (close[1] && close[1] != ':') return 0;
        struct in6_addr a6;
        return inet_pton(AF_INET6, host, &a6) == 1;
    }
    const char *colon = strchr(host_header, ':');
    n = colon ? (size_t)(colon - host_header) : strlen(host_header);
    if (n == 0 || n >= sizeof host) return 0;
    memcpy(host, host_header, n);
    host[n] = '\0';
    if (n > 1 && host[n - 1] == '.') host[--n] = '\0'; /* "localhost." is localhost */
    struct in_addr a4;
    if (inet_pton(AF_INET, host, &a4) == 1) return 1;
    if (strcasecmp(host, "localhost") == 0) return 1;
    return name && name[0] && strcasecmp(host, name) == 0;
}

int hs_monitor_stream_admit(atomic_int *open, int cap)
{
    int cur = atomic_load(open);
    while (cur < cap)
        if (atomic_compare_exchange_weak(open, &cur, cur + 1)) return 1;
    return 0;
}
