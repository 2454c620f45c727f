/* A remote site that speaks the NEES ASCII "LabVIEW plugin" protocol (docs/nees.md):
 * nees://HOST:PORT reaches an LBCB Operations Manager, a NEES-SAM module, a LabVIEW plugin or
 * another hysim site's NEES port. hysim plays UI-SimCor: open-session and set-parameter at setup;
 * per step one propose carrying every control point's targets (the actuators mapped to their DOFs
 * by the site's `nees.control_points`), then (LabView1) execute, whose reply comes after the
 * motion and is awaited up to `nees.execute_timeout`, and one get-control-point per point; or
 * (LabView2) the propose's reply is the data. Replies are read by their labels, so the OM's
 * 12-value replies and sensor triplets map onto the actuators. A reply whose status is not `OK`
 * (NOK, ERROR, NOT OK) stops the test with the lab's words; close-session at the end.
 *
 * Sends and reads are bounded by the site's timeout; numbers go out with 17 significant digits
 * (exact). The protocol carries no controller record: the tracking figures are computed here
 * from the target and the measured displacement. */
#include "site_net.h"

#include "hysim/nees.h"
#include "hysim/tracking.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_TRIPLETS (HS_NEES_MAX_CP * 2 * HS_NEES_NDOF * 4)

typedef struct site_nees {
    hs_site_url url;
    hs_nees_config nc;
    int fd;
    int timeout_ms, execute_ms;
    int broken;
    int64_t pending; /* step whose measurement is awaited, -1 none */
    char tid[64];
    double target[HS_SITE_MAX_ACT], t_target;
    hs_tracking *track[HS_SITE_MAX_ACT];
    int64_t steps;
    hs_nees_msg msg; /* the last reply, split */
    hs_nees_triplet trip[MAX_TRIPLETS];
    uint8_t buf[4096];
    size_t buf_len, buf_off;
    hs_nees_lines lines;
    hs_nees_out out;
} site_nees;

static int lost(hs_site *s, int code, const char *what, const char *why)
{
    site_nees *o = s->data;
    o->broken = 1;
    return hs_fail(s->ctx, code, "site %s (%s): %s: %s", s->cfg.name, s->cfg.url, what, why);
}

/* The next line from the lab within timeout_ms. */
static int read_line(hs_site *s, int timeout_ms, const char *what)
{
    site_nees *o = s->data;
    const double deadline = hs_site_clock() + 1e-3 * timeout_ms;
    for (;;) {
        if (o->buf_off < o->buf_len) {
            size_t used = 0;
            const int got =
                hs_nees_lines_push(&o->lines, o->buf + o->buf_off, o->buf_len - o->buf_off, &used);
            o->buf_off += used;
            if (got) {
                if (o->lines.truncated)
                    return lost(s, HS_EPROTO, what, "a reply line longer than 64 KB");
                return 0;
            }
        }
        const double left = deadline - hs_site_clock();
        struct pollfd p = {.fd = o->fd, .events = POLLIN};
        const int r = left > 0.0 ? poll(&p, 1, (int)(1000.0 * left) + 1) : 0;
        if (r < 0 && errno == EINTR) continue;
        if (r == 0) {
            char why[64];
            snprintf(why, sizeof why, "no answer within %g s", 1e-3 * timeout_ms);
            return lost(s, HS_ETIMEOUT, what, why);
        }
        const ssize_t got = r < 0 ? -1 : recv(o->fd, o->buf, sizeof o->buf, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0)
            return lost(s, HS_ENET, what,
                        got == 0 ? "the lab closed the connection" : strerror(errno));
        o->buf_len = (size_t)got;
        o->buf_off = 0;
    }
}

static int send_out(hs_site *s, const char *what)
{
    site_nees *o = s->data;
    if (o->out.overflow)
        return hs_fail(s->ctx, HS_EINVAL, "site %s: %s: line too long", s->cfg.name, what);
    hs_nees_out_end(&o->out);
    hs_ctx_clear(s->ctx);
    const int rc = hs_site_tcp_send(s, o->fd, o->out.buf, o->out.len, o->timeout_ms, what);
    if (rc) o->broken = 1;
    return rc;
}

/* Reads the lab's reply to `what` into o->msg (split): HS_EABORTED with the lab's words when its
 * status is not exactly OK. */
static int reply(hs_site *s, int timeout_ms, const char *what)
{
    site_nees *o = s->data;
    const int rc = read_line(s, timeout_ms, what);
    if (rc) return rc;
    char said[600];
    snprintf(said, sizeof said, "%.590s", o->lines.buf);
    for (char *p = said; *p; p++)
        if (*p == '\t') *p = ' ';
    hs_nees_split(o->lines.buf, &o->msg);
    if (strcmp(o->msg.raw_cmd, "OK") != 0)
        return hs_fail(s->ctx, HS_EABORTED, "site %s (%s): the lab refused %s: \"%s\"", s->cfg.name,
                       s->cfg.url, what, said);
    return 0;
}

/* Sends the line built in o->out and reads its reply. */
static int request(hs_site *s, int timeout_ms, const char *what)
{
    const int rc = send_out(s, what);
    return rc ? rc : reply(s, timeout_ms, what);
}

static void disconnect(site_nees *o)
{
    if (o->fd >= 0) close(o->fd);
    o->fd = -1;
    o->buf_len = o->buf_off = 0;
    o->lines.len = 0;
    o->lines.ready = 0;
    o->lines.overlong = 0;
}

static int sn_setup(hs_site *s, double dt)
{
    (void)dt; /* the protocol carries no time */
    site_nees *o = s->data;
    disconnect(o);
    o->broken = 0;
    o->pending = -1;
    for (int j = 0; j < s->cfg.nact; j++) hs_tracking_reset(o->track[j]);
    int rc = hs_site_tcp_connect(s, &o->url, o->timeout_ms, &o->fd);
    if (rc) {
        o->broken = 1;
        return rc;
    }
    hs_nees_out_start(&o->out, "open-session");
    hs_nees_out_field(&o->out, "hysim");
    rc = request(s, o->timeout_ms, "open-session");
    if (rc) return rc;
    hs_nees_out_start(&o->out, "set-parameter");
    hs_nees_out_field(&o->out, "hysimSetParam");
    hs_nees_out_field(&o->out, "nstep");
    hs_nees_out_field(&o->out, "0");
    return request(s, o->timeout_ms, "set-parameter");
}

static int sn_send_target(hs_site *s, int64_t step, double t, const double *x, double wall)
{
    (void)wall;
    site_nees *o = s->data;
    if (o->broken || o->fd < 0)
        return hs_fail(s->ctx, HS_ENET, "site %s (%s): the connection is lost", s->cfg.name,
                       s->cfg.url);
    if (o->pending >= 0)
        return hs_fail(s->ctx, HS_EINVAL,
                       "site %s: target of step %lld sent before step %lld was measured",
                       s->cfg.name, (long long)step + 1, (long long)o->pending);
    const int n = s->cfg.nact;
    memcpy(o->target, x, (size_t)n * sizeof *x);
    o->t_target = t;
    snprintf(o->tid, sizeof o->tid, "trans-hysim-%lld", (long long)step + 1);
    hs_nees_out_start(&o->out, "propose");
    hs_nees_out_field(&o->out, o->tid);
    for (int k = 0; k < o->nc.ncp; k++) {
        hs_nees_out_field(&o->out, o->nc.cp[k]);
        for (int d = 0; d < HS_NEES_NDOF; d++)
            for (int j = 0; j < n; j++)
                if (o->nc.act_cp[j] == k && o->nc.act_dof[j] == d) {
                    hs_nees_out_field(&o->out, hs_nees_geom(d));
                    hs_nees_out_field(&o->out, hs_nees_kin(d));
                    hs_nees_out_num(&o->out, x[j], 17);
                }
    }
    char what[96];
    snprintf(what, sizeof what, "the propose of step %lld", (long long)step + 1);
    if (o->nc.mode == HS_NEES_LABVIEW2) {
        const int rc = send_out(s, what);
        if (rc) return rc;
    } else {
        int rc = request(s, o->timeout_ms, what);
        if (rc) return rc;
        hs_nees_out_start(&o->out, "execute");
        hs_nees_out_field(&o->out, o->tid);
        snprintf(what, sizeof what, "the execute of step %lld", (long long)step + 1);
        rc = send_out(s, what);
        if (rc) return rc;
    }
    o->pending = step + 1;
    return 0;
}

/* Reads control point k's values out of the reply in o->msg into m. */
static int take_values(hs_site *s, int k, hs_site_measurement *m, const char *what)
{
    site_nees *o = s->data;
    char why[512];
    const int nt = hs_nees_points(o->msg.f, o->msg.nf, o->trip, MAX_TRIPLETS, why, sizeof why);
    if (nt < 0) return lost(s, HS_EPROTO, what, why);
    for (int j = 0; j < s->cfg.nact; j++) {
        if (o->nc.act_cp[j] != k) continue;
        int have = 0;
        for (int i = 0; i < nt; i++) {
            const hs_nees_triplet *t = &o->trip[i];
            if (t->dof != o->nc.act_dof[j] || hs_nees_find_cp(&o->nc, t->cp) != k) continue;
            if (t->reaction)
                m->f[j] = t->v, have |= 2;
            else
                m->x[j] = t->v, have |= 1;
        }
        if (have != 3) {
            const int d = o->nc.act_dof[j];
            snprintf(why, sizeof why, "the reply has no '%s %s' at %s (actuator %s)",
                     hs_nees_geom(d), have & 1 ? hs_nees_reaction(d) : hs_nees_kin(d), o->nc.cp[k],
                     s->cfg.actuator_names[j]);
            return lost(s, HS_EPROTO, what, why);
        }
    }
    return 0;
}

static int sn_get_measurement(hs_site *s, hs_site_measurement *m)
{
    site_nees *o = s->data;
    if (o->pending < 0) return hs_fail(s->ctx, HS_EINVAL, "site %s: no target awaits", s->cfg.name);
    char what[96];
    int rc = 0;
    if (o->nc.mode == HS_NEES_LABVIEW2) {
        snprintf(what, sizeof what, "the propose of step %lld (LabView2: its data)",
                 (long long)o->pending);
        rc = reply(s, o->execute_ms, what);
        for (int k = 0; !rc && k < o->nc.ncp; k++) rc = take_values(s, k, m, what);
    } else {
        snprintf(what, sizeof what, "the execute of step %lld", (long long)o->pending);
        rc = reply(s, o->execute_ms, what); /* execute's reply comes after the motion */
        for (int k = 0; !rc && k < o->nc.ncp; k++) {
            hs_nees_out_start(&o->out, "get-control-point");
            hs_nees_out_field(&o->out, o->tid);
            hs_nees_out_field(&o->out, o->nc.cp[k]);
            snprintf(what, sizeof what, "get-control-point %s of step %lld", o->nc.cp[k],
                     (long long)o->pending);
            rc = request(s, o->timeout_ms, what);
            if (!rc) rc = take_values(s, k, m, what);
        }
    }
    if (rc) return rc;
    const int n = s->cfg.nact;
    m->t = o->t_target;
    m->nhist = 1; /* the one sample the lab reports */
    m->hist_t[0] = o->t_target;
    for (int j = 0; j < n; j++) {
        m->hist_x[j] = m->x[j];
        m->hist_f[j] = m->f[j];
        hs_tracking_add(o->track[j], o->target[j], m->x[j]);
        m->te[j] = o->target[j] - m->x[j];
        m->ti[j] = hs_tracking_ti(o->track[j]);
    }
    m->flags = 0;
    m->ticks = 0;
    m->wall = hs_site_clock();
    m->states = 0;
    m->delay = NAN; /* the protocol does not say */
    o->steps++;
    o->pending = -1;
    return 0;
}

static int sn_commit(hs_site *s, int64_t step)
{
    (void)step; /* the protocol has no commit: a step is final once executed */
    const site_nees *o = s->data;
    if (o->broken || o->fd < 0)
        return hs_fail(s->ctx, HS_ENET, "site %s (%s): the connection is lost", s->cfg.name,
                       s->cfg.url);
    return 0;
}

static int sn_summary(const hs_site *s, hs_site_summary *out)
{
    const site_nees *o = s->data;
    hs_site_tracked_summary(out, o->steps, s->cfg.nact, o->track);
    return 0;
}

/* execute's reply comes after the motion: the coordinator waits as long as this site does */
static double sn_wait_limit(const hs_site *s, double usual)
{
    const site_nees *o = s->data;
    const double mine = 1e-3 * (double)(o->execute_ms + o->timeout_ms * o->nc.ncp);
    return mine > usual ? mine : usual;
}

static void sn_destroy(hs_site *s)
{
    site_nees *o = s->data;
    if (!o) return;
    /* close-session; UI-SimCor does not wait for its reply, we wait briefly and log a refusal;
     * the context keeps the error that ended the test (the close must not erase why) */
    if (o->fd >= 0 && !o->broken && o->pending < 0) {
        char why[1024];
        const int code = hs_ctx_code(s->ctx);
        snprintf(why, sizeof why, "%s", hs_ctx_message(s->ctx));
        hs_nees_out_start(&o->out, "close-session");
        hs_nees_out_field(&o->out, "hysim");
        const int wait = o->timeout_ms < 2000 ? o->timeout_ms : 2000;
        if (request(s, wait, "close-session"))
            hs_log(s->ctx, HS_LOG_WARN, "%s", hs_ctx_message(s->ctx));
        hs_ctx_clear(s->ctx);
        if (code) hs_fail(s->ctx, code, "%s", why);
    }
    disconnect(o);
    for (int j = 0; j < HS_SITE_MAX_ACT; j++) hs_tracking_destroy(&o->track[j]);
    hs_free(o);
    s->data = NULL;
}

int hs_site_create_nees(hs_site *s, const hs_site_url *u)
{
    site_nees *o = hs_calloc(1, sizeof *o);
    if (!o) return HS_ENOMEM;
    s->data = o;
    o->url = *u;
    o->fd = -1;
    o->pending = -1;
    if (s->cfg.nees.given) {
        o->nc = s->cfg.nees;
    } else {
        hs_nees_config_default(&o->nc, s->cfg.nact);
        if (s->cfg.nact > HS_NEES_NDOF)
            return hs_fail(s->ctx, HS_EINPUT,
                           "site %s: %d actuators do not fit one control point's 6 DOFs: give "
                           "nees.control_points",
                           s->cfg.name, s->cfg.nact);
    }
    o->timeout_ms = hs_site_timeout_ms(s);
    const double et = o->nc.execute_timeout > 0.0 ? o->nc.execute_timeout : 600.0;
    o->execute_ms = et > 86400.0 ? 86400000 : (int)(1000.0 * et + 0.5);
    s->ops.setup = sn_setup;
    s->ops.send_target = sn_send_target;
    s->ops.get_measurement = sn_get_measurement;
    s->ops.commit = sn_commit;
    s->ops.summary = sn_summary;
    s->ops.wait_limit = sn_wait_limit;
    s->ops.destroy = sn_destroy;
    for (int j = 0; j < s->cfg.nact; j++) {
        const int rc = hs_tracking_create(s->ctx, 0, 1, &o->track[j]);
        if (rc) return rc;
    }
    if (s->cfg.key[0])
        return hs_fail(s->ctx, HS_EINPUT,
                       "site %s (%s): the NEES protocol carries no key (plain TCP); remove `key`",
                       s->cfg.name, s->cfg.url);
    return 0;
}
