/* A remote site that is an OpenFresco server (docs/openfresco.md, docs/distributed.md):
 * openfresco-a://HOST:PORT drives a SimApp site or element server (protocol A: the 44-byte
 * sizes, then per step 3 setTrialResponse, 6 getDaqResponse, 5 commitState, and 99 at the end);
 * openfresco-b://HOST:PORT plays a ShadowSite against an ActorSite (protocol B: byte order,
 * open, setup, then 3, 6, 5 and 99 answered [4, serverTag]); opensees-adapter://HOST:PORT
 * drives OpenSees' adapter element, a computational module (docs/opensees_adapter.md: the sizes
 * [n,0,0,0,0, n,0,0,n,0, dataSize], per step 3 then 10 answered with daqDisp and daqForce, no
 * commit, 99 at the end; the connection is retried until OpenSees listens, which it does only
 * once its `analyze` has begun). Plain TCP with TCP_NODELAY, through the client sessions of
 * hysim/openfresco.h; every wait is bounded by the site's timeout.
 *
 * Sizes: sizeCtrl [n, 0, 0, 0, 1] (displacement and time; the adapter: no time), sizeDaq
 * [n, 0, 0, n, 0] (measured displacement and force): one getDaqResponse (the adapter: getForce)
 * per step answers both. Protocol B with cfg.ofr_velocity adds the velocities to both, [n, n, 0,
 * 0, 1] and [n, n, 0, n, 0] (hs_site_set_velocity; a ShadowSite whose setup is on the client
 * side, its server's control taking them: ShadowExpSite.cpp setup sends its setup's control
 * sizes, ECSimUniaxialMaterials::setSize wants displacements and velocities). The n channels are
 * the site's actuators (the coordinator's experimental elements map global DOFs onto them). The
 * protocols carry no controller record: the site's tracking figures are computed here from the
 * target and the measured displacement, step by step.
 *
 * The adapter holds its interface with a penalty spring kb, so the module's displacement db
 * differs from the trial by about r / kb, and daqForce is the module's force at db. When the
 * coordinator gave the site its interface stiffness K (hs_site_set_stiffness: the experimental
 * elements' initial stiffness), the force is carried to the trial, f = daqForce + K (trial - db),
 * and reported with the trial as the displacement (exact for a linear static module whatever
 * kb); db stays in the tracking figures. */
#include "site_net.h"

#include "hysim/openfresco.h"
#include "hysim/tracking.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct site_ofr {
    hs_site_url url;
    int proto;
    int fd;
    hs_ofr_client *cl;
    int timeout_ms;
    int broken;
    int64_t pending; /* step whose daq reply is awaited, -1 none */
    double target[HS_SITE_MAX_ACT], t_target;
    double vel[HS_SITE_MAX_ACT]; /* the next target's velocities (cfg.ofr_velocity) */
    hs_tracking *track[HS_SITE_MAX_ACT];
    int64_t steps;
    int has_K; /* K: the interface stiffness (nact x nact, column-major), adapter only */
    double K[HS_SITE_MAX_ACT * HS_SITE_MAX_ACT];
    uint8_t buf[4096];
} site_ofr;

static const char *proto_name(const site_ofr *o)
{
    return o->proto == HS_OFR_PROTO_A   ? "OpenFresco protocol A"
           : o->proto == HS_OFR_PROTO_B ? "OpenFresco protocol B"
                                        : "OpenSees adapter";
}

/* The adapter listens only once OpenSees' analysis has begun: connect until the timeout. */
static int connect_retrying(hs_site *s)
{
    site_ofr *o = s->data;
    const double deadline = hs_site_clock() + 1e-3 * o->timeout_ms;
    for (;;) {
        const double left = deadline - hs_site_clock();
        hs_ctx_clear(s->ctx);
        const int rc =
            hs_site_tcp_connect(s, &o->url, left > 0.0 ? (int)(1000.0 * left) + 1 : 1, &o->fd);
        if (!rc || o->proto != HS_OFR_PROTO_ADAPTER || hs_site_clock() + 0.05 > deadline) return rc;
        const struct timespec pause = {0, 50000000};
        nanosleep(&pause, NULL);
    }
}

static int lost(hs_site *s, int code, const char *what)
{
    site_ofr *o = s->data;
    o->broken = 1;
    const char *why = hs_ctx_message(s->ctx);
    return hs_fail(s->ctx, code, "site %s (%s): %s%s%s", s->cfg.name, s->cfg.url, what,
                   why[0] ? ": " : "", why);
}

/* Sends what the session has queued. */
static int flush(hs_site *s)
{
    site_ofr *o = s->data;
    size_t len = 0;
    const uint8_t *out = hs_ofr_client_output(o->cl, &len);
    if (!out) return 0;
    hs_ctx_clear(s->ctx);
    const int rc = hs_site_tcp_send(s, o->fd, out, len, o->timeout_ms, proto_name(o));
    if (rc) {
        o->broken = 1;
        return rc;
    }
    hs_ofr_client_output_sent(o->cl);
    return 0;
}

enum { UNTIL_READY, UNTIL_CLOSED };

static int done(const site_ofr *o, int until)
{
    return until == UNTIL_READY ? hs_ofr_client_ready(o->cl)
                                : hs_ofr_client_state(o->cl) == HS_OFR_CLOSED;
}

/* Sends and receives until the session is ready (or closed), within timeout_ms. */
static int pump(hs_site *s, int until, int timeout_ms, const char *what)
{
    site_ofr *o = s->data;
    const double deadline = hs_site_clock() + 1e-3 * timeout_ms;
    for (;;) {
        int rc = flush(s);
        if (rc) return rc;
        if (done(o, until)) return 0;
        const double left = deadline - hs_site_clock();
        struct pollfd p = {.fd = o->fd, .events = POLLIN};
        const int r = left > 0.0 ? poll(&p, 1, (int)(1000.0 * left) + 1) : 0;
        if (r < 0 && errno == EINTR) continue;
        if (r == 0) {
            o->broken = 1;
            return hs_fail(s->ctx, HS_ETIMEOUT, "site %s (%s): %s: no answer within %g s",
                           s->cfg.name, s->cfg.url, what, 1e-3 * timeout_ms);
        }
        const ssize_t got = r < 0 ? -1 : recv(o->fd, o->buf, sizeof o->buf, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) {
            o->broken = 1;
            return hs_fail(s->ctx, HS_ENET, "site %s (%s): connection lost (%s): %s", s->cfg.name,
                           s->cfg.url, what, got == 0 ? "the server closed it" : strerror(errno));
        }
        size_t used = 0;
        hs_ctx_clear(s->ctx);
        rc = hs_ofr_client_feed(o->cl, o->buf, (size_t)got, &used);
        if (rc) return lost(s, rc, what);
    }
}

static void disconnect(site_ofr *o)
{
    hs_ofr_client_destroy(&o->cl);
    if (o->fd >= 0) close(o->fd);
    o->fd = -1;
}

static int so_setup(hs_site *s, double dt)
{
    (void)dt; /* OpenFresco servers are not told the step */
    site_ofr *o = s->data;
    disconnect(o);
    o->broken = 0;
    o->pending = -1;
    const int n = s->cfg.nact, t = o->proto == HS_OFR_PROTO_ADAPTER ? 0 : 1;
    const int nv = o->proto == HS_OFR_PROTO_B && s->cfg.ofr_velocity ? n : 0;
    hs_ofr_client_config cc = {.sizes = {.ctrl = {n, nv, 0, 0, t}, .daq = {n, nv, 0, n, 0}},
                               .client_tag = 1};
    int rc = hs_ofr_client_create(s->ctx, (hs_ofr_proto)o->proto, &cc, &o->cl);
    if (rc) return lost(s, rc, "OpenFresco client");
    rc = connect_retrying(s);
    if (rc) {
        o->broken = 1;
        return rc;
    }
    for (int j = 0; j < n; j++) hs_tracking_reset(o->track[j]);
    return pump(s, UNTIL_READY, o->timeout_ms, "opening the session");
}

static int so_send_target(hs_site *s, int64_t step, double t, const double *x, double wall)
{
    (void)wall;
    site_ofr *o = s->data;
    if (o->broken || !o->cl)
        return hs_fail(s->ctx, HS_ENET, "site %s (%s): the connection is lost", s->cfg.name,
                       s->cfg.url);
    if (o->pending >= 0)
        return hs_fail(s->ctx, HS_EINVAL,
                       "site %s: target of step %lld sent before step %lld "
                       "was measured",
                       s->cfg.name, (long long)step + 1, (long long)o->pending);
    memcpy(o->target, x, (size_t)s->cfg.nact * sizeof *x);
    o->t_target = t;
    hs_ctx_clear(s->ctx);
    int rc = hs_ofr_client_set_trial(o->cl, x, s->cfg.ofr_velocity ? o->vel : NULL, NULL, t);
    if (!rc) rc = flush(s);
    /* the adapter answers 10 with its daq vector, once it has begun its next step */
    if (!rc)
        rc = hs_ofr_client_request(o->cl, o->proto == HS_OFR_PROTO_ADAPTER ? HS_OFR_GET_FORCE
                                                                           : HS_OFR_GET_DAQ);
    if (!rc) rc = flush(s);
    if (rc) return o->broken ? rc : lost(s, rc, "sending a target");
    o->pending = step + 1;
    return 0;
}

static int so_get_measurement(hs_site *s, hs_site_measurement *m)
{
    site_ofr *o = s->data;
    if (o->pending < 0) return hs_fail(s->ctx, HS_EINVAL, "site %s: no target awaits", s->cfg.name);
    char what[64];
    snprintf(what, sizeof what, "the measurement of step %lld", (long long)o->pending);
    int rc = pump(s, UNTIL_READY, o->timeout_ms, what);
    if (rc) return rc;
    size_t nv = 0;
    const double *v = hs_ofr_client_reply(o->cl, &nv);
    const int n = s->cfg.nact;
    const int32_t *daq = hs_ofr_client_sizes(o->cl)->daq;
    if (!v || nv != (size_t)(daq[0] + daq[1] + daq[2] + daq[3] + daq[4]))
        return lost(s, HS_EPROTO, "no daq reply");
    hs_ofr_unpack(hs_ofr_client_sizes(o->cl)->daq, v, m->x, NULL, NULL, m->f, NULL);
    double db[HS_SITE_MAX_ACT];
    memcpy(db, m->x, (size_t)n * sizeof *db);
    if (o->has_K) /* the force carried to the trial: f + K (trial - db), reported at the trial */
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) m->f[i] += o->K[j * n + i] * (o->target[j] - db[j]);
            m->x[j] = o->target[j];
        }
    m->t = o->t_target;
    m->nhist = 1; /* the one sample the server reports */
    m->hist_t[0] = o->t_target;
    for (int j = 0; j < n; j++) {
        m->hist_x[j] = m->x[j];
        m->hist_f[j] = m->f[j];
        hs_tracking_add(o->track[j], o->target[j], db[j]);
        m->te[j] = o->target[j] - db[j];
        m->ti[j] = hs_tracking_ti(o->track[j]);
    }
    m->flags = 0;
    m->ticks = 0;
    m->wall = hs_site_clock();
    m->states = 0;
    m->delay = NAN; /* OpenFresco does not say */
    o->steps++;
    o->pending = -1;
    return 0;
}

static int so_commit(hs_site *s, int64_t step)
{
    (void)step;
    site_ofr *o = s->data;
    if (o->broken || !o->cl)
        return hs_fail(s->ctx, HS_ENET, "site %s (%s): the connection is lost", s->cfg.name,
                       s->cfg.url);
    if (o->proto == HS_OFR_PROTO_ADAPTER)
        return 0; /* the adapter has no commit: its analyze
                     step commits on its own */
    hs_ctx_clear(s->ctx);
    int rc = hs_ofr_client_request(o->cl, HS_OFR_COMMIT);
    if (rc) return lost(s, rc, "commit");
    return flush(s);
}

static int so_summary(const hs_site *s, hs_site_summary *out)
{
    const site_ofr *o = s->data;
    hs_site_tracked_summary(out, o->steps, s->cfg.nact, o->track);
    return 0;
}

static int so_set_velocity(hs_site *s, const double *v)
{
    site_ofr *o = s->data;
    memcpy(o->vel, v, (size_t)s->cfg.nact * sizeof *v);
    return 0;
}

static int so_set_stiffness(hs_site *s, const double *K)
{
    site_ofr *o = s->data;
    const size_t nn = (size_t)s->cfg.nact * (size_t)s->cfg.nact;
    memcpy(o->K, K, nn * sizeof *K);
    o->has_K = o->proto == HS_OFR_PROTO_ADAPTER;
    return 0;
}

static void so_destroy(hs_site *s)
{
    site_ofr *o = s->data;
    if (!o) return;
    /* 99 at the end (protocol B answers [4, serverTag]); a dead server is not waited for. A
     * test stopped while a reply is awaited takes that reply first (bounded), so that the peer
     * still gets its 99: an OpenSees left without it loops forever on the closed socket. */
    const int wait = o->timeout_ms < 2000 ? o->timeout_ms : 2000;
    if (o->cl && !o->broken && o->pending >= 0) {
        if (pump(s, UNTIL_READY, wait, "the reply awaited at the end"))
            hs_log(s->ctx, HS_LOG_WARN, "%s", hs_ctx_message(s->ctx));
        else
            o->pending = -1;
    }
    if (o->cl && !o->broken && o->pending < 0 && hs_ofr_client_ready(o->cl) &&
        hs_ofr_client_request(o->cl, HS_OFR_DIE) == 0) {
        if (pump(s, UNTIL_CLOSED, wait, "closing the session"))
            hs_log(s->ctx, HS_LOG_WARN, "%s", hs_ctx_message(s->ctx));
    }
    disconnect(o);
    for (int j = 0; j < HS_SITE_MAX_ACT; j++) hs_tracking_destroy(&o->track[j]);
    hs_free(o);
    s->data = NULL;
}

int hs_site_create_openfresco(hs_site *s, const hs_site_url *u, int proto)
{
    site_ofr *o = hs_calloc(1, sizeof *o);
    if (!o) return HS_ENOMEM;
    s->data = o;
    o->url = *u;
    o->proto = proto;
    o->fd = -1;
    o->pending = -1;
    o->timeout_ms = hs_site_timeout_ms(s);
    s->ops.setup = so_setup;
    s->ops.send_target = so_send_target;
    s->ops.get_measurement = so_get_measurement;
    s->ops.commit = so_commit;
    s->ops.summary = so_summary;
    s->ops.set_stiffness = so_set_stiffness;
    s->ops.set_velocity = so_set_velocity;
    s->ops.destroy = so_destroy;
    for (int j = 0; j < s->cfg.nact; j++) {
        const int rc = hs_tracking_create(s->ctx, 0, 1, &o->track[j]);
        if (rc) return rc;
    }
    if (s->cfg.key[0])
        return hs_fail(s->ctx, HS_EINPUT,
                       "site %s (%s): OpenFresco and OpenSees links carry no key (plain TCP); "
                       "remove `key`",
                       s->cfg.name, s->cfg.url);
    return 0;
}
