/* Plain TCP on 127.0.0.1 for the tests: a listening socket on a free port and a client socket.
 * Failures end the test (cmocka). */
#ifndef HS_LOOPBACK_H
#define HS_LOOPBACK_H

/* A listening socket on 127.0.0.1, any free port (*port), backlog 4. timeout_s > 0 sets send and
 * receive timeouts of that many seconds on it (they bound accept() too); 0 leaves accept()
 * waiting as long as it takes (bound it with poll(), or let the peer's own timeout end it). */
int hs_loopback_listen(int *port, int timeout_s);
/* A socket connected to 127.0.0.1:port with TCP_NODELAY (the site tests' coordinators). */
int hs_loopback_connect(int port);
/* Send and receive timeouts of timeout_s seconds on fd. */
void hs_loopback_timeouts(int fd, int timeout_s);

#endif
