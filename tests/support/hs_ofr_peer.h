/* Raw OpenFresco peers for the tests, written from PROTOCOL.md's byte layout (not from the
 * library's OpenFresco code): little-endian int32 and float64 packed by hand, plain TCP on
 * 127.0.0.1, every wait bounded (3 s socket timeouts). Failures end the test (cmocka). */
#ifndef HS_OFR_PEER_H
#define HS_OFR_PEER_H

#include <stddef.h>
#include <stdint.h>

void hs_ofr_put_i32(uint8_t *p, int32_t v);
int32_t hs_ofr_get_i32(const uint8_t *p);
void hs_ofr_put_f64(uint8_t *p, double v);
double hs_ofr_get_f64(const uint8_t *p);

/* A socket connected to 127.0.0.1:port (3 s send and receive timeouts). */
int hs_ofr_connect(int port);
/* A listening socket on 127.0.0.1, any free port (*port); accept with hs_ofr_accept (3 s). */
int hs_ofr_listen(int *port);
int hs_ofr_accept(int lfd);
void hs_ofr_send_bytes(int fd, const uint8_t *p, size_t n);
/* Fails the test unless all n bytes arrive within the timeout. */
void hs_ofr_recv_bytes(int fd, uint8_t *p, size_t n);
/* 0 when all n bytes arrived, -1 on end of stream or timeout (no failure). */
int hs_ofr_try_recv_bytes(int fd, uint8_t *p, size_t n);
/* The 11 int32 sizes of protocol A (sizeCtrl[5], sizeDaq[5], dataSize). */
void hs_ofr_send_sizes(int fd, const int32_t sizes[11]);
/* One message of data_size doubles: v[0 .. n) then zeros. */
void hs_ofr_send_vec(int fd, const double *v, size_t n, size_t data_size);
void hs_ofr_recv_vec(int fd, double *v, size_t data_size);
/* The peer closes its end: end of stream within the timeout. */
void hs_ofr_expect_eof(int fd);

#endif
