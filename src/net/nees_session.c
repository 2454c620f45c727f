/* The lab side of the NEES ASCII protocol without sockets (docs/nees.md): one request line in,
 * the reply lines out, or a move for the site to make first. LabView1 (propose stores the target,
 * execute moves, get-control-point reports) and LabView2 (propose moves and answers with the
 * data of every control point). A target is checked before it is accepted: known control points
 * and DOFs driven by an actuator, finite values, within every actuator's stroke; anything else is
 * declined with `NOK 1 <id> <reason>` and the session goes on. Replies echo the ID and the
 * control point as received, put no TAB before the EOL and stay below ECLabVIEW's 512 bytes
 * (fewer digits when 17 do not fit). */
#include "hysim/nees.h"

#include <stdio.h>
#include <string.h>

#define MAX_TRIPLETS (HS_NEES_MAX_CP * 2 * HS_NEES_NDOF * 4)

struct hs_nees_session {
    hs_ctx *ctx;
    hs_nees_config cfg;
    int nact;
    char names[HS_NEES_MAX_ACT][32];
    double stroke[HS_NEES_MAX_ACT];
    int act_at[HS_NEES_MAX_CP][HS_NEES_NDOF]; /* the actuator driving each DOF, -1 none */
    double target[HS_NEES_MAX_ACT];           /* the last target moved to */
    double x[HS_NEES_MAX_ACT], f[HS_NEES_MAX_ACT];
    int pending; /* a proposal awaits execute */
    char pending_id[256];
    double px[HS_NEES_MAX_ACT];
    int moving;      /* a MOVE was asked; its reply awaits hs_nees_session_moved */
    int moving_data; /* LabView2: answer with the data */
    char move_id[256];
    double move_x[HS_NEES_MAX_ACT];
    hs_nees_triplet trip[MAX_TRIPLETS];
    hs_nees_out out[HS_NEES_MAX_CP + 1];
};

int hs_nees_session_create(hs_ctx *ctx, const hs_nees_config *cfg, int nact,
                           const char *const *names, const double *stroke, hs_nees_session **out)
{
    if (!out || !cfg || nact < 1 || nact > HS_NEES_MAX_ACT)
        return hs_fail(ctx, HS_EINVAL, "NEES session: needs a configuration and 1..%d actuators",
                       HS_NEES_MAX_ACT);
    *out = NULL;
    hs_nees_session *s = hs_calloc(1, sizeof *s);
    if (!s) return hs_fail(ctx, HS_ENOMEM, "NEES session: out of memory");
    s->ctx = ctx;
    s->cfg = *cfg;
    s->nact = nact;
    for (int k = 0; k < HS_NEES_MAX_CP; k++)
        for (int d = 0; d < HS_NEES_NDOF; d++) s->act_at[k][d] = -1;
    for (int j = 0; j < nact; j++) {
        snprintf(s->names[j], sizeof s->names[j], "%s", names ? names[j] : "");
        s->stroke[j] = stroke ? stroke[j] : 0.0;
        const int k = cfg->act_cp[j], d = cfg->act_dof[j];
        if (k < 0 || k >= cfg->ncp || d < 0 || d >= HS_NEES_NDOF || s->act_at[k][d] >= 0) {
            hs_free(s);
            return hs_fail(ctx, HS_EINVAL, "NEES session: actuator %d has no DOF of its own", j);
        }
        s->act_at[k][d] = j;
    }
    *out = s;
    return 0;
}

void hs_nees_session_destroy(hs_nees_session **s)
{
    if (!s || !*s) return;
    hs_free(*s);
    *s = NULL;
}

void hs_nees_session_state(hs_nees_session *s, const double *x, const double *f)
{
    memcpy(s->x, x, (size_t)s->nact * sizeof(double));
    memcpy(s->f, f, (size_t)s->nact * sizeof(double));
    memcpy(s->target, x, (size_t)s->nact * sizeof(double));
    s->pending = 0;
}

/* ---- replies ---- */

static void reply(hs_nees_action *a, hs_nees_out *o)
{
    hs_nees_out_end(o);
    a->line[a->nlines] = o->buf;
    a->len[a->nlines] = o->len;
    a->nlines++;
    if (a->kind == HS_NEES_ACT_NONE) a->kind = HS_NEES_ACT_REPLY;
}

static void ok_text(hs_nees_session *s, hs_nees_action *a, const char *id, const char *t1,
                    const char *t2)
{
    hs_nees_out *o = &s->out[a->nlines];
    hs_nees_out_start(o, "OK");
    hs_nees_out_field(o, "0");
    hs_nees_out_field(o, id);
    hs_nees_out_field(o, t1);
    if (t2) hs_nees_out_field(o, t2);
    reply(a, o);
}

static void nok(hs_nees_session *s, hs_nees_action *a, const char *id, const char *why)
{
    hs_nees_out *o = &s->out[a->nlines];
    char text[HS_NEES_MAX_OUT / 2];
    size_t k = 0;
    for (const char *p = why; *p && k + 1 < sizeof text; p++) /* no TAB, CR or LF inside */
        text[k++] = (*p == '\t' || *p == '\r' || *p == '\n') ? ' ' : *p;
    text[k] = '\0';
    hs_nees_out_start(o, "NOK");
    hs_nees_out_field(o, "1");
    hs_nees_out_field(o, id);
    hs_nees_out_field(o, text);
    reply(a, o);
    a->declined = 1;
}

/* One control point's triplets: displacements and rotations in x, y, z order, then forces and
 * moments (all 12 with zeros where no actuator when configured). */
static void cp_values(hs_nees_session *s, hs_nees_out *o, int k, int digits)
{
    for (int reac = 0; reac < 2; reac++)
        for (int d = 0; d < HS_NEES_NDOF; d++) {
            const int j = s->act_at[k][d];
            if (j < 0 && !s->cfg.all12) continue;
            hs_nees_out_field(o, hs_nees_geom(d));
            hs_nees_out_field(o, reac ? hs_nees_reaction(d) : hs_nees_kin(d));
            hs_nees_out_num(o, j < 0 ? 0.0 : reac ? s->f[j] : s->x[j], digits);
        }
}

/* OK 0 ID CP triplets [CP2 triplets ...]: with 17 significant digits (exact), fewer when the
 * line would not stay below ECLabVIEW's 512 bytes. */
static void data_line(hs_nees_session *s, hs_nees_action *a, const char *id, const char **cps,
                      const int *ks, int n)
{
    static const int digits[] = {17, 15, 12, 10, 8, 6};
    hs_nees_out *o = &s->out[a->nlines];
    for (size_t t = 0; t < sizeof digits / sizeof digits[0]; t++) {
        hs_nees_out_start(o, "OK");
        hs_nees_out_field(o, "0");
        hs_nees_out_field(o, id);
        for (int i = 0; i < n; i++) {
            hs_nees_out_field(o, cps[i]);
            cp_values(s, o, ks[i], digits[t]);
        }
        if (o->len + 1 < HS_NEES_ECL_LIMIT) break;
    }
    reply(a, o);
}

/* ---- requests ---- */

/* The ID slot: the first field unless it already names a control point (no ID: "dummy"). */
static const char *id_of(const hs_nees_session *s, const hs_nees_msg *m, int *first)
{
    if (m->nf == 0 || hs_nees_find_cp(&s->cfg, m->f[0]) >= 0) {
        *first = 0;
        return "dummy";
    }
    *first = 1;
    return m->f[0];
}

static void on_propose(hs_nees_session *s, const hs_nees_msg *m, hs_nees_action *a)
{
    int first = 0;
    const char *id = id_of(s, m, &first);
    char why[512];
    const int n =
        hs_nees_points(m->f + first, m->nf - first, s->trip, MAX_TRIPLETS, why, sizeof why);
    if (n < 0) {
        nok(s, a, id, why);
        return;
    }
    if (n == 0) {
        nok(s, a, id, "propose carries no target (CP geom ptype value ...)");
        return;
    }
    double x[HS_NEES_MAX_ACT];
    const int merge = s->pending && strcmp(s->pending_id, id) == 0;
    memcpy(x, merge ? s->px : s->target, (size_t)s->nact * sizeof(double));
    int given[HS_NEES_MAX_ACT] = {0};
    for (int i = 0; i < n; i++) {
        const hs_nees_triplet *t = &s->trip[i];
        const int k = hs_nees_find_cp(&s->cfg, t->cp);
        if (k < 0) {
            snprintf(why, sizeof why, "unknown control point '%.48s' (this site has %s%s)", t->cp,
                     s->cfg.cp[0], s->cfg.ncp > 1 ? ", ..." : "");
            {
                nok(s, a, id, why);
                return;
            }
        }
        if (t->dof < 0 || t->reaction) {
            snprintf(why, sizeof why,
                     "%.48s: '%s %s' cannot be proposed: this site takes displacements and "
                     "rotations",
                     t->cp, t->dof < 0 ? t->name : hs_nees_geom(t->dof),
                     t->dof < 0 ? "external" : hs_nees_reaction(t->dof));
            {
                nok(s, a, id, why);
                return;
            }
        }
        const int j = s->act_at[k][t->dof];
        if (j < 0) {
            snprintf(why, sizeof why, "%.48s has no actuator on %s %s", t->cp, hs_nees_geom(t->dof),
                     hs_nees_kin(t->dof));
            {
                nok(s, a, id, why);
                return;
            }
        }
        if (s->stroke[j] > 0.0 && !(t->v >= -s->stroke[j] && t->v <= s->stroke[j])) {
            snprintf(why, sizeof why,
                     "propose declined: actuator %s (%.48s %s %s) target %.10g is beyond "
                     "its stroke +-%.10g",
                     s->names[j], t->cp, hs_nees_geom(t->dof), hs_nees_kin(t->dof), t->v,
                     s->stroke[j]);
            {
                nok(s, a, id, why);
                return;
            }
        }
        if (given[j]++) {
            snprintf(why, sizeof why,
                     "propose declined: %.48s %s %s is given twice (actuator %s); give each DOF "
                     "once",
                     t->cp, hs_nees_geom(t->dof), hs_nees_kin(t->dof), s->names[j]);
            nok(s, a, id, why);
            return;
        }
        x[j] = t->v;
    }
    if (s->cfg.mode == HS_NEES_LABVIEW2) {
        s->pending = 0;
        s->moving = 1;
        s->moving_data = 1;
        snprintf(s->move_id, sizeof s->move_id, "%s", id);
        memcpy(a->x, x, (size_t)s->nact * sizeof(double));
        memcpy(s->move_x, x, (size_t)s->nact * sizeof(double));
        a->kind = HS_NEES_ACT_MOVE;
        return;
    }
    s->pending = 1;
    snprintf(s->pending_id, sizeof s->pending_id, "%s", id);
    memcpy(s->px, x, (size_t)s->nact * sizeof(double));
    ok_text(s, a, id, "propose", "Accepted");
}

static void on_execute(hs_nees_session *s, const hs_nees_msg *m, hs_nees_action *a)
{
    int first = 0;
    const char *id = id_of(s, m, &first);
    if (!s->pending) {
        ok_text(s, a, id, "execute", "Done");
        return;
    } /* nothing to move */
    s->pending = 0;
    s->moving = 1;
    s->moving_data = 0;
    snprintf(s->move_id, sizeof s->move_id, "%s", id);
    memcpy(a->x, s->px, (size_t)s->nact * sizeof(double));
    memcpy(s->move_x, s->px, (size_t)s->nact * sizeof(double));
    a->kind = HS_NEES_ACT_MOVE;
}

static void on_get(hs_nees_session *s, const hs_nees_msg *m, hs_nees_action *a)
{
    int first = 0;
    const char *id = id_of(s, m, &first);
    int named = 0;
    for (int i = first; i < m->nf && a->nlines < HS_NEES_MAX_CP; i++) {
        const int k = hs_nees_find_cp(&s->cfg, m->f[i]);
        if (k < 0) continue; /* a stray field (`dummy` after the name) */
        const char *cp = m->f[i];
        data_line(s, a, id, &cp, &k, 1);
        named++;
    }
    if (!named) {
        char why[256];
        snprintf(why, sizeof why, "get-control-point names no control point of this site (%s%s)",
                 s->cfg.cp[0], s->cfg.ncp > 1 ? ", ..." : "");
        nok(s, a, id, why);
    }
}

void hs_nees_session_line(hs_nees_session *s, char *line, hs_nees_action *a)
{
    memset(a, 0, sizeof *a);
    hs_nees_msg m;
    hs_nees_split(line, &m);
    const char *id = m.nf > 0 ? m.f[0] : "dummy";
    if (s->moving) {
        nok(s, a, id, "a move is under way (one request at a time)");
        return;
    }
    if (m.too_many) {
        nok(s, a, id, "too many fields");
        return;
    }
    if (strcmp(m.cmd, "open-session") == 0) {
        s->pending = 0;
        {
            ok_text(s, a, id, "Open Session Succeeded.", NULL);
            return;
        }
    }
    if (strcmp(m.cmd, "set-parameter") == 0 || strcmp(m.cmd, "get-parameter") == 0) {
        ok_text(s, a, id, "Command ignored. Carry on.", NULL);
        return;
    }
    if (strcmp(m.cmd, "cancel") == 0) {
        s->pending = 0;
        {
            ok_text(s, a, id, "Cancel Accepted", NULL);
            return;
        }
    }
    if (strcmp(m.cmd, "close-session") == 0) {
        s->pending = 0;
        ok_text(s, a, id, "Close Session Succeeded.", NULL);
        a->kind = HS_NEES_ACT_CLOSE;
        return;
    }
    if (strcmp(m.cmd, "propose") == 0) {
        on_propose(s, &m, a);
        return;
    }
    if (strcmp(m.cmd, "execute") == 0) {
        on_execute(s, &m, a);
        return;
    }
    if (strcmp(m.cmd, "get-control-point") == 0) {
        on_get(s, &m, a);
        return;
    }
    char why[96];
    snprintf(why, sizeof why, "Unknown command %.40s", m.raw_cmd);
    nok(s, a, id, why);
}

void hs_nees_session_moved(hs_nees_session *s, const double *x, const double *f, int err,
                           const char *why, hs_nees_action *a)
{
    memset(a, 0, sizeof *a);
    if (!s->moving) return;
    s->moving = 0;
    if (err) {
        nok(s, a, s->move_id, why && why[0] ? why : "the move failed");
        return;
    }
    memcpy(s->x, x, (size_t)s->nact * sizeof(double));
    memcpy(s->f, f, (size_t)s->nact * sizeof(double));
    memcpy(s->target, s->move_x, (size_t)s->nact * sizeof(double));
    if (!s->moving_data) {
        ok_text(s, a, s->move_id, "execute", "Done");
        return;
    }
    const char *cps[HS_NEES_MAX_CP];
    int ks[HS_NEES_MAX_CP];
    for (int k = 0; k < s->cfg.ncp; k++) cps[k] = s->cfg.cp[k], ks[k] = k;
    data_line(s, a, s->move_id, cps, ks, s->cfg.ncp);
}

void hs_nees_session_overlong(hs_nees_session *s, hs_nees_action *a)
{
    memset(a, 0, sizeof *a);
    char why[96];
    snprintf(why, sizeof why, "line longer than %d bytes: refused", HS_NEES_MAX_LINE);
    nok(s, a, "dummy", why);
}
