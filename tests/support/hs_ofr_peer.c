/* Raw OpenFresco peers for the tests (hs_ofr_peer.h). */
#include "hs_ofr_peer.h"

#include "hs_loopback.h"
#include "hs_test.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

void hs_ofr_put_i32(uint8_t *p, int32_t v)
{
    const uint32_t u = (uint32_t)v;
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(u >> (8 * i));
}

int32_t hs_ofr_get_i32(const uint8_t *p)
{
    uint32_t u = 0;
    for (int i = 0; i < 4; i++) u |= (uint32_t)p[i] << (8 * i);
    return (int32_t)u;
}

void hs_ofr_put_f64(uint8_t *p, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(u >> (8 * i));
}

double hs_ofr_get_f64(const uint8_t *p)
{
    uint64_t u = 0;
    for (int i = 0; i < 8; i++) u |= (uint64_t)p[i] << (8 * i);
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

int hs_ofr_connect(int port)
{
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    hs_loopback_timeouts(fd, 3);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    return fd;
}

int hs_ofr_listen(int *port)
{
    return hs_loopback_listen(port, 3); /* the timeouts bound accept() too */
}

int hs_ofr_accept(int lfd)
{
    int fd;
    do fd = accept(lfd, NULL, NULL);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) fail_msg("fake peer: no connection within 3 s (%s)", strerror(errno));
    hs_loopback_timeouts(fd, 3);
    return fd;
}

void hs_ofr_send_bytes(int fd, const uint8_t *p, size_t n)
{
    while (n) {
        const ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        assert_true(w > 0);
        p += w;
        n -= (size_t)w;
    }
}

int hs_ofr_try_recv_bytes(int fd, uint8_t *p, size_t n)
{
    while (n) {
        const ssize_t r = recv(fd, p, n, 0);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

void hs_ofr_recv_bytes(int fd, uint8_t *p, size_t n)
{
    if (hs_ofr_try_recv_bytes(fd, p, n)) fail_msg("OpenFresco peer: %zu bytes not received", n);
}

void hs_ofr_send_sizes(int fd, const int32_t sizes[11])
{
    uint8_t b[44];
    for (int i = 0; i < 11; i++) hs_ofr_put_i32(b + 4 * i, sizes[i]);
    hs_ofr_send_bytes(fd, b, sizeof b);
}

void hs_ofr_send_vec(int fd, const double *v, size_t n, size_t data_size)
{
    uint8_t *buf = calloc(data_size, 8);
    assert_non_null(buf);
    for (size_t i = 0; i < n && i < data_size; i++) hs_ofr_put_f64(buf + 8 * i, v[i]);
    hs_ofr_send_bytes(fd, buf, 8 * data_size);
    free(buf);
}

void hs_ofr_recv_vec(int fd, double *v, size_t data_size)
{
    uint8_t *buf = malloc(8 * data_size);
    assert_non_null(buf);
    hs_ofr_recv_bytes(fd, buf, 8 * data_size);
    for (size_t i = 0; i < data_size; i++) v[i] = hs_ofr_get_f64(buf + 8 * i);
    free(buf);
}

void hs_ofr_expect_eof(int fd)
{
    uint8_t b;
    ssize_t r;
    do r = recv(fd, &b, 1, 0);
    while (r < 0 && errno == EINTR);
    assert_int_equal(r, 0);
}
