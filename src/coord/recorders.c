/* The frame model's recorders (include/hysim/recorders.h): column names and units at creation,
 * then one row of values per recorded step, gathered from the model's committed state without
 * allocating. */
#include "hysim/recorders.h"

#include "hysim/fe.h"

#include <stdio.h>
#include <string.h>

static const char *const RESPONSE[HS_REC_NRESPONSES] = {
    "disp",        "vel",         "accel",       "abs_accel", "reaction", "force",
    "local_force", "basic_force", "deformation", "strain",    "drift"};
static const hs_fe_response FE_RESPONSE[] = {HS_FE_GLOBAL_FORCE, HS_FE_LOCAL_FORCE,
                                             HS_FE_BASIC_FORCE, HS_FE_DEFORMATION, HS_FE_STRAIN};

typedef struct rec {
    const hs_recorder_def *def;
    int col0, ncols;
    char **cols, **units;
    int *node, *dof;        /* per column: node recorders */
    hs_fe_dof_map *map;     /* per column: node recorders' DOF maps over the equations */
    int *el, *comp;         /* per column: element recorders */
    const char **what;      /* per column: the DOF ("ux") or the component ("M_i") */
    const char **elname;    /* per column: the element's name (element recorders) */
    hs_fe_dof_map drift[2]; /* drift: the two nodes' maps of the DOF */
    int pair[2];            /* drift: nodes i and j */
    double h;               /* drift: the perpendicular distance */
} rec;

struct hs_recorders {
    hs_ctx *ctx;
    hs_fe *fe;
    int n, width, need_v, need_a;
    rec *recs;
    double ground[HS_REC_MAX_DOFS];
    double *ud, *uv, *ua; /* every retained equation's displacement, velocity, acceleration */
    const char *uf, *ul, *ut;
};

const char *hs_rec_response_name(hs_rec_response r)
{
    return (unsigned)r < HS_REC_NRESPONSES ? RESPONSE[r] : "?";
}

int hs_rec_response_is_node(hs_rec_response r)
{
    return r <= HS_REC_REACTION;
}

int hs_rec_response_is_element(hs_rec_response r)
{
    return r >= HS_REC_FORCE && r <= HS_REC_STRAIN;
}

int hs_recorder_columns(const hs_recorder_def *d, const struct hs_fe *fe)
{
    if (hs_rec_response_is_node(d->response)) return d->nitems * d->ndofs;
    if (!hs_rec_response_is_element(d->response)) return 1;
    int n = 0;
    for (int i = 0; i < d->nitems; i++)
        n += hs_fe_element_response_size(fe, d->items[i], FE_RESPONSE[d->response - HS_REC_FORCE]);
    return n;
}

static char *text(const char *fmt, const char *a, const char *b, const char *c)
{
    char buf[128];
    snprintf(buf, sizeof buf, fmt, a, b, c);
    return hs_strdup(buf);
}

/* Unit of a quantity: a length (rad for a rotation) per time^tpow, or a force (force * length for
 * a moment). Empty when a unit it needs is not stated. */
static char *unit(const hs_recorders *r, int force, int rotation, int tpow)
{
    if (force) {
        if (!rotation) return hs_strdup(r->uf);
        return r->uf[0] && r->ul[0] ? text("%s*%s", r->uf, r->ul, "") : hs_strdup("");
    }
    const char *len = rotation ? "rad" : r->ul;
    if (!len[0] || (tpow && !r->ut[0])) return hs_strdup("");
    if (tpow == 0) return hs_strdup(len);
    return text(tpow == 1 ? "%s/%s" : "%s/%s^2", len, r->ut, "");
}

/* The spatial code (0..5: x y z rx ry rz) of node DOF d, from its name (ux .. rz). */
static int dof_code(const struct hs_fe *fe, int d)
{
    static const char *const CODES[6] = {"ux", "uy", "uz", "rx", "ry", "rz"};
    const char *s = hs_fe_dir_name(fe, d);
    for (int c = 0; c < 6; c++)
        if (strcmp(s, CODES[c]) == 0) return c;
    return 0;
}

/* Component k of an element response: its name, and whether it is a moment or a rotation. */
static const char *component(const struct hs_fe *fe, hs_rec_response resp, int e, int k, int *rot)
{
    static const char *const gf[2][6] = {{"Fx_i", "Fy_i", "Fz_i", "Mx_i", "My_i", "Mz_i"},
                                         {"Fx_j", "Fy_j", "Fz_j", "Mx_j", "My_j", "Mz_j"}};
    static const char *const lf2[] = {"N_i", "V_i", "M_i", "N_j", "V_j", "M_j"};
    static const char *const lf3[] = {"N_i", "Vy_i", "Vz_i", "T_i", "My_i", "Mz_i",
                                      "N_j", "Vy_j", "Vz_j", "T_j", "My_j", "Mz_j"};
    static const char *const bb2[] = {"N", "M_i", "M_j"}, *const bd2[] = {"du", "th_i", "th_j"};
    static const char *const bb3[] = {"N", "Mz_i", "Mz_j", "My_i", "My_j", "T"};
    static const char *const bd3[] = {"du", "thz_i", "thz_j", "thy_i", "thy_j", "twist"};
    const char *type = hs_fe_element_type(fe, e);
    const int beam = strcmp(type, "elastic_beam") == 0, zl = strcmp(type, "zero_length") == 0;
    const int three = hs_fe_ndm(fe) == 3, ndf = hs_fe_ndf(fe);
    /* a zero-length element in a rotation carries a moment and a rotation */
    const int zl_rot = zl && dof_code(fe, hs_fe_element_dof(fe, e)) >= 3;
    switch (resp) {
    case HS_REC_FORCE: {
        const int code = dof_code(fe, k % ndf);
        *rot = code >= 3;
        return gf[k / ndf][code];
    }
    case HS_REC_LOCAL_FORCE:
        *rot = three ? k % 6 >= 3 : k % 3 == 2;
        return three ? lf3[k] : lf2[k];
    case HS_REC_BASIC_FORCE:
    case HS_REC_DEFORMATION:
        *rot = beam ? k > 0 : zl_rot;
        if (!beam) return resp == HS_REC_BASIC_FORCE ? (zl ? "F" : "N") : "du";
        if (resp == HS_REC_BASIC_FORCE) return three ? bb3[k] : bb2[k];
        return three ? bd3[k] : bd2[k];
    default:
        *rot = 0;
        return "strain";
    }
}

static int rec_alloc(rec *q, int ncols)
{
    const size_t c = (size_t)(ncols > 0 ? ncols : 1);
    q->ncols = ncols;
    q->cols = hs_calloc(c, sizeof(char *));
    q->units = hs_calloc(c, sizeof(char *));
    q->node = hs_calloc(c, sizeof(int));
    q->dof = hs_calloc(c, sizeof(int));
    q->map = hs_calloc(c, sizeof(hs_fe_dof_map));
    q->el = hs_calloc(c, sizeof(int));
    q->comp = hs_calloc(c, sizeof(int));
    q->what = hs_calloc(c, sizeof(char *));
    q->elname = hs_calloc(c, sizeof(char *));
    return q->cols && q->units && q->node && q->dof && q->map && q->el && q->comp && q->what &&
                   q->elname
               ? 0
               : HS_ENOMEM;
}

static int node_recorder(hs_recorders *r, rec *q)
{
    const hs_recorder_def *d = q->def;
    int rc = rec_alloc(q, d->nitems * d->ndofs);
    const int tpow = d->response == HS_REC_VEL ? 1 : d->response >= HS_REC_ACCEL ? 2 : 0;
    for (int i = 0, c = 0; !rc && i < d->nitems; i++)
        for (int k = 0; k < d->ndofs; k++, c++) {
            char id[16];
            snprintf(id, sizeof id, "%d", d->items[i]);
            q->node[c] = d->items[i];
            q->dof[c] = d->dofs[k];
            if (hs_fe_node_map(r->fe, d->items[i], d->dofs[k], &q->map[c]))
                return hs_fail(r->ctx, HS_EINPUT, "recorder '%s': node %d has no DOF %d", d->name,
                               d->items[i], d->dofs[k] + 1);
            const int rot = dof_code(r->fe, d->dofs[k]) >= 3;
            q->what[c] = hs_fe_dir_name(r->fe, d->dofs[k]);
            q->cols[c] = text("n%s_%s", id, q->what[c], "");
            q->units[c] =
                d->response == HS_REC_REACTION ? unit(r, 1, rot, 0) : unit(r, 0, rot, tpow);
            if (!q->cols[c] || !q->units[c]) rc = HS_ENOMEM;
        }
    r->need_v |= d->response == HS_REC_VEL;
    r->need_a |= d->response == HS_REC_ACCEL || d->response == HS_REC_ABS_ACCEL;
    return rc;
}

static int element_recorder(hs_recorders *r, rec *q)
{
    const hs_recorder_def *d = q->def;
    const hs_fe_response fr = FE_RESPONSE[d->response - HS_REC_FORCE];
    int ncols = 0;
    for (int i = 0; i < d->nitems; i++) {
        const int m = hs_fe_element_response_size(r->fe, d->items[i], fr);
        if (m == 0)
            return hs_fail(r->ctx, HS_EINPUT, "recorder '%s': a %s element ('%s') has no %s",
                           d->name, hs_fe_element_type(r->fe, d->items[i]),
                           hs_fe_element_name(r->fe, d->items[i]), RESPONSE[d->response]);
        ncols += m;
    }
    int rc = rec_alloc(q, ncols);
    for (int i = 0, c = 0; !rc && i < d->nitems; i++) {
        const int e = d->items[i], m = hs_fe_element_response_size(r->fe, e, fr);
        for (int k = 0; k < m; k++, c++) {
            int moment;
            q->el[c] = e;
            q->comp[c] = k;
            q->what[c] = component(r->fe, d->response, e, k, &moment);
            q->elname[c] = hs_fe_element_name(r->fe, e);
            q->cols[c] = text("%s_%s", hs_fe_element_name(r->fe, e), q->what[c], "");
            if (d->response == HS_REC_STRAIN)
                q->units[c] = hs_strdup("1");
            else if (d->response == HS_REC_DEFORMATION)
                q->units[c] = unit(r, 0, moment, 0);
            else
                q->units[c] = unit(r, 1, moment, 0);
            if (!q->cols[c] || !q->units[c]) rc = HS_ENOMEM;
        }
    }
    return rc;
}

static int drift_recorder(hs_recorders *r, rec *q)
{
    const hs_recorder_def *d = q->def;
    double xi, xj;
    if (hs_fe_node_coord(r->fe, d->drift_i, d->drift_perp, &xi) ||
        hs_fe_node_coord(r->fe, d->drift_j, d->drift_perp, &xj))
        return hs_fail(r->ctx, HS_EINPUT, "recorder '%s': no node %d or %d", d->name, d->drift_i,
                       d->drift_j);
    q->h = xj - xi;
    if (q->h == 0.0)
        return hs_fail(r->ctx, HS_EINPUT,
                       "recorder '%s': nodes %d and %d have the same %s coordinate; a drift "
                       "divides by their distance along perp",
                       d->name, d->drift_i, d->drift_j, hs_fe_dir_name(r->fe, d->drift_perp) + 1);
    int rc = rec_alloc(q, 1);
    if (rc) return rc;
    hs_fe_node_map(r->fe, d->drift_i, d->drift_dof, &q->drift[0]);
    hs_fe_node_map(r->fe, d->drift_j, d->drift_dof, &q->drift[1]);
    q->pair[0] = d->drift_i;
    q->pair[1] = d->drift_j;
    q->what[0] = hs_fe_dir_name(r->fe, d->drift_dof);
    char a[16], b[16];
    snprintf(a, sizeof a, "%d", d->drift_i);
    snprintf(b, sizeof b, "%d", d->drift_j);
    q->cols[0] = text("drift_n%s_n%s_%s", a, b, q->what[0]);
    q->units[0] = hs_strdup("1");
    return q->cols[0] && q->units[0] ? 0 : HS_ENOMEM;
}

static void rec_free(rec *q)
{
    for (int c = 0; c < q->ncols; c++) {
        if (q->cols) hs_free(q->cols[c]);
        if (q->units) hs_free(q->units[c]);
    }
    hs_free(q->cols);
    hs_free(q->units);
    hs_free(q->node);
    hs_free(q->dof);
    hs_free(q->map);
    hs_free(q->el);
    hs_free(q->comp);
    hs_free(q->what);
    hs_free(q->elname);
}

void hs_recorders_destroy(hs_recorders **pr)
{
    if (!pr || !*pr) return;
    hs_recorders *r = *pr;
    for (int k = 0; r->recs && k < r->n; k++) rec_free(&r->recs[k]);
    hs_free(r->recs);
    hs_free(r->ud);
    hs_free(r->uv);
    hs_free(r->ua);
    hs_free(r);
    *pr = NULL;
}

/* The uniform excitation's direction: the DOF index whose influence vector is iota. */
static int ground_direction(hs_recorders *r, const double *iota)
{
    const int n = hs_fe_ndof(r->fe);
    double *x = hs_dvec((size_t)n);
    if (!x) return HS_ENOMEM;
    for (int d = 0; d < 3; d++) {
        hs_fe_influence(r->fe, d, x);
        int same = 1, any = 0;
        for (int i = 0; i < n; i++) {
            same &= x[i] == iota[i];
            any |= iota[i] != 0.0;
        }
        r->ground[d] = same && any ? 1.0 : 0.0;
    }
    hs_free(x);
    return 0;
}

int hs_recorders_create(hs_ctx *ctx, const hs_recorder_def *defs, int n, struct hs_fe *fe,
                        const double *iota, const char *units_force, const char *units_length,
                        const char *units_time, hs_recorders **out)
{
    *out = NULL;
    if (!fe || n < 1) return hs_fail(ctx, HS_EINVAL, "recorders: no frame model or no recorder");
    hs_recorders *r = hs_calloc(1, sizeof *r);
    if (!r) return HS_ENOMEM;
    r->ctx = ctx;
    r->fe = fe;
    r->uf = units_force ? units_force : "";
    r->ul = units_length ? units_length : "";
    r->ut = units_time ? units_time : "";
    const size_t q = (size_t)hs_fe_equation_count(fe);
    r->recs = hs_calloc((size_t)n, sizeof *r->recs);
    r->ud = hs_dvec(q);
    r->uv = hs_dvec(q);
    r->ua = hs_dvec(q);
    int rc = r->recs && r->ud && r->uv && r->ua ? 0 : HS_ENOMEM;
    if (!rc) rc = ground_direction(r, iota);
    for (int k = 0; !rc && k < n; k++) {
        rec *x = &r->recs[k];
        x->def = &defs[k];
        r->n = k + 1;
        if (hs_rec_response_is_node(defs[k].response))
            rc = node_recorder(r, x);
        else if (hs_rec_response_is_element(defs[k].response))
            rc = element_recorder(r, x);
        else
            rc = drift_recorder(r, x);
        x->col0 = r->width;
        r->width += x->ncols;
    }
    if (rc) {
        hs_recorders_destroy(&r);
        return rc;
    }
    *out = r;
    return 0;
}

int hs_recorders_count(const hs_recorders *r)
{
    return r ? r->n : 0;
}
int hs_recorders_width(const hs_recorders *r)
{
    return r ? r->width : 0;
}
const char *hs_recorders_name(const hs_recorders *r, int k)
{
    return r->recs[k].def->name;
}
const char *hs_recorders_response(const hs_recorders *r, int k)
{
    return RESPONSE[r->recs[k].def->response];
}
int hs_recorders_columns(const hs_recorders *r, int k)
{
    return r->recs[k].ncols;
}
const char *const *hs_recorders_column_names(const hs_recorders *r, int k)
{
    return (const char *const *)r->recs[k].cols;
}
const char *const *hs_recorders_column_units(const hs_recorders *r, int k)
{
    return (const char *const *)r->recs[k].units;
}

const int *hs_recorders_nodes(const hs_recorders *r, int k, int *count)
{
    const rec *q = &r->recs[k];
    if (hs_rec_response_is_element(q->def->response)) return *count = 0, NULL;
    if (q->def->response == HS_REC_DRIFT) return *count = 2, q->pair;
    return *count = q->ncols, q->node;
}

const char *const *hs_recorders_elements(const hs_recorders *r, int k)
{
    const rec *q = &r->recs[k];
    return hs_rec_response_is_element(q->def->response) ? q->elname : NULL;
}

const char *const *hs_recorders_components(const hs_recorders *r, int k)
{
    return r->recs[k].what;
}

double hs_recorders_ground_accel(const hs_recorders *r, int node, int dof, double ag)
{
    (void)node; /* uniform excitation: every node moves with the ground */
    return dof >= 0 && dof < HS_REC_MAX_DOFS ? r->ground[dof] * ag : 0.0;
}

static int gather_node(hs_recorders *r, const rec *q, double ag, double *out)
{
    const hs_rec_response resp = q->def->response;
    const double *u = resp == HS_REC_DISP ? r->ud : resp == HS_REC_VEL ? r->uv : r->ua;
    for (int c = 0; c < q->ncols; c++) {
        if (resp == HS_REC_REACTION) {
            const int rc = hs_fe_reaction(r->fe, q->node[c], q->dof[c], &out[c]);
            if (rc) return rc;
            continue;
        }
        out[c] = hs_fe_map_value(&q->map[c], u); /* a fixed DOF moves with the ground */
        if (resp == HS_REC_ABS_ACCEL)
            out[c] += hs_recorders_ground_accel(r, q->node[c], q->dof[c], ag);
    }
    return 0;
}

static int gather_element(hs_recorders *r, const rec *q, double *out)
{
    const hs_fe_response fr = FE_RESPONSE[q->def->response - HS_REC_FORCE];
    double v[2 * HS_REC_MAX_DOFS] = {0};
    for (int c = 0; c < q->ncols; c++) {
        if (q->comp[c] == 0) {
            const int rc = hs_fe_element_response(r->fe, q->el[c], fr, v);
            if (rc) return rc;
        }
        out[c] = v[q->comp[c]];
    }
    return 0;
}

int hs_recorders_gather(hs_recorders *r, const double *d, const double *v, const double *a,
                        double ag, double *row)
{
    int rc = hs_fe_expand(r->fe, 0, d, r->ud);
    if (!rc && r->need_v) rc = hs_fe_expand(r->fe, 1, v, r->uv);
    if (!rc && r->need_a) rc = hs_fe_expand(r->fe, 2, a, r->ua);
    for (int k = 0; !rc && k < r->n; k++) {
        const rec *q = &r->recs[k];
        double *out = row + q->col0;
        if (hs_rec_response_is_node(q->def->response))
            rc = gather_node(r, q, ag, out);
        else if (hs_rec_response_is_element(q->def->response))
            rc = gather_element(r, q, out);
        else
            out[0] = (hs_fe_map_value(&q->drift[1], r->ud) - hs_fe_map_value(&q->drift[0], r->ud)) /
                     q->h;
    }
    return rc;
}
