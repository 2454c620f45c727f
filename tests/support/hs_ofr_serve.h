/* A test's in-process OpenFresco server on a connected socket: hysim's own server session fed
 * with what the socket reads, each reply sent back, until the session ends, the peer closes or
 * poll_ms passes without a byte. */
#ifndef HS_OFR_SERVE_H
#define HS_OFR_SERVE_H

#include "hysim/openfresco.h"

void hs_ofr_serve_fd(hs_ofr_server *srv, int fd, int poll_ms);

#endif
