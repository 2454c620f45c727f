/* Elements on the sections of structure.model.sections (testfile_fe_section.c; docs/fe_model.md,
 * "Beam-columns with sections"), as OpenSees' forceBeamColumn, dispBeamColumn and
 * zeroLengthSection:
 *   {type: force_beam_column | disp_beam_column, nodes: [i, j], section: NAME,
 *    integration: {type: Lobatto | Legendre | Radau | NewtonCotes, points: N}
 *               | {type: HingeRadau | HingeRadauTwo | HingeEndpoint, lp_i, lp_j}
 *                 with sections: {i: NAME, j: NAME, interior: NAME}
 *               | {type: UserDefined, locations: [...], weights: [...]}
 *                 with section or sections: [NAME per point],
 *    transf: linear | pdelta | corotational, vecxz (3-D), iterations: {max, tol} (force-based),
 *    mass: per length, lumped (0.5 m L on each node's translations, as OpenSees' -mass),
 *    mass_type: lumped | consistent (disp_beam_column: OpenSees' dispBeamColumn -cMass)}
 *   {type: zero_length_section, nodes: [i, j], section: NAME, orient: [x1, x2, x3] (2-D) or
 *    [x1, x2, x3, yp1, yp2, yp3]}
 * The reader's checks point at the key (FILE:LINE:COL); what the frame model refuses is wrapped
 * with the element. */
#include "testfile_impl.h"

#include "hysim/fe.h"

#include <math.h>
#include <string.h>

#define MAX_POINTS 20 /* src/fe/fe_beam_integration.h FE_BI_MAX */

static const char *const RULES[] = {"Lobatto",     "Legendre",   "Radau",         "NewtonCotes",
                                    "UserDefined", "HingeRadau", "HingeRadauTwo", "HingeEndpoint"};
enum { GAUSS_RULES = 4, USER = 4, HINGE = 5, NRULES = 8 };

typedef struct rule {
    hs_fe_beam_column_def def;
    double xi[MAX_POINTS], w[MAX_POINTS];
    const hs_fe_section_def *per[MAX_POINTS];
} rule;

static int list_of(hs_tf *L, const hs_ynode *map, const char *key, const char *what, int n,
                   const char *unit, double *out)
{
    const hs_ynode *v;
    char sub[160];
    int rc = hs_tf_required(L, map, key, what, &v);
    return rc ? rc
              : hs_tf_num_list(L, v, hs_tf_path(sub, sizeof sub, what, key), (size_t)n, unit, out);
}

/* integration: {type, points | lp_i, lp_j | locations, weights} into r (kind: index of RULES). */
static int integration(hs_tf *L, const hs_ynode *el, const char *what, rule *r, int *kind)
{
    static const char *const keys[] = {"type", "points", "lp_i", "lp_j", "locations", "weights"};
    const hs_ynode *in, *tn, *v;
    char sub[160], item[192], type[16];
    int rc = hs_tf_required(L, el, "integration", what, &in);
    hs_tf_path(sub, sizeof sub, what, "integration");
    if (!rc) rc = hs_tf_mapping(L, in, sub, keys, 6);
    if (!rc) rc = hs_tf_required(L, in, "type", sub, &tn);
    if (!rc) rc = hs_tf_str(L, tn, hs_tf_path(item, sizeof item, sub, "type"), type, sizeof type);
    if (rc) return rc;
    *kind = -1;
    for (int k = 0; k < NRULES; k++)
        if (strcmp(type, RULES[k]) == 0) *kind = k;
    if (*kind < 0) {
        const char *near = hs_suggest(type, RULES, NRULES);
        return hs_tf_fail(L, tn,
                          "%s: unknown integration '%s'%s%s%s (known: Lobatto, Legendre, Radau, "
                          "NewtonCotes, UserDefined, HingeRadau, HingeRadauTwo, HingeEndpoint)",
                          item, type, near ? "; did you mean '" : "", near ? near : "",
                          near ? "'?" : "");
    }
    r->def.integration = RULES[*kind];
    /* each rule's own keys */
    static const char *const own[][2] = {
        {"points", NULL},         {"points", NULL}, {"points", NULL}, {"points", NULL},
        {"locations", "weights"}, {"lp_i", "lp_j"}, {"lp_i", "lp_j"}, {"lp_i", "lp_j"}};
    for (size_t i = 0; i < in->n; i++) {
        const hs_ynode *key = hs_ynode_key(in, i);
        if (strcmp(key->text, "type") == 0) continue;
        if (!(own[*kind][0] && strcmp(key->text, own[*kind][0]) == 0) &&
            !(own[*kind][1] && strcmp(key->text, own[*kind][1]) == 0))
            return hs_tf_fail(L, key, "%s: '%s' does not apply to %s (it takes %s%s%s)", sub,
                              key->text, type, own[*kind][0], own[*kind][1] ? " and " : "",
                              own[*kind][1] ? own[*kind][1] : "");
    }
    if (*kind < GAUSS_RULES) {
        long n = 0;
        const long lo = *kind == 0 || *kind == 3 ? 2 : 1; /* Lobatto, NewtonCotes: both ends */
        rc = hs_tf_required(L, in, "points", sub, &v);
        if (!rc) rc = hs_tf_int(L, v, hs_tf_path(item, sizeof item, sub, "points"), 0, 1000, &n);
        if (!rc && (n < lo || n > MAX_POINTS))
            rc = hs_tf_fail(L, v, "%s: %s takes %ld to %d integration points, got %ld", item, type,
                            lo, MAX_POINTS, n);
        r->def.npoints = (int)n;
        return rc;
    }
    if (*kind == USER) {
        rc = hs_tf_required(L, in, "locations", sub, &v);
        if (!rc && (v->kind != HS_YNODE_SEQUENCE || v->n < 1 || v->n > MAX_POINTS))
            rc = hs_tf_fail(L, v,
                            "%s.locations: expected a list of 1 to %d points in [0, 1] from "
                            "node i",
                            sub, MAX_POINTS);
        if (rc) return rc;
        r->def.npoints = (int)v->n;
        rc = list_of(L, in, "locations", sub, r->def.npoints, "point", r->xi);
        if (!rc) rc = list_of(L, in, "weights", sub, r->def.npoints, "point of locations", r->w);
        r->def.xi = r->xi;
        r->def.w = r->w;
        return rc;
    }
    rc = hs_tf_required(L, in, "lp_i", sub, &v);
    if (!rc) rc = hs_tf_num(L, v, hs_tf_path(item, sizeof item, sub, "lp_i"), &r->def.lpI);
    if (!rc) rc = hs_tf_required(L, in, "lp_j", sub, &v);
    if (!rc) rc = hs_tf_num(L, v, hs_tf_path(item, sizeof item, sub, "lp_j"), &r->def.lpJ);
    return rc;
}

/* section: NAME, or sections (hinge rules: {i, j, interior}; UserDefined: one per point). */
static int sections(hs_tf *L, const hs_tf_section_table *t, const hs_ynode *el, const char *what,
                    int kind, rule *r)
{
    const hs_ynode *one = hs_ynode_get(el, "section"), *many = hs_ynode_get(el, "sections");
    char sub[160], item[192];
    int rc = 0;
    if (one && many) return hs_tf_fail(L, many, "%s: give section or sections, not both", what);
    if (kind >= HINGE) {
        static const char *const ends[] = {"i", "interior", "j"};
        if (!many)
            return hs_tf_fail(L, one ? one : el,
                              "%s: %s takes sections: {i: NAME, j: NAME, interior: NAME} (the "
                              "hinge sections over lp_i, lp_j and the one between)",
                              what, RULES[kind]);
        hs_tf_path(sub, sizeof sub, what, "sections");
        rc = hs_tf_mapping(L, many, sub, ends, 3);
        for (int k = 0; !rc && k < 3; k++) {
            const hs_ynode *v;
            rc = hs_tf_required(L, many, ends[k], sub, &v);
            if (!rc)
                r->def.sec[k] = hs_tf_fe_find_section(
                    L, t, v, hs_tf_path(item, sizeof item, sub, ends[k]), &rc);
        }
        return rc;
    }
    if (many && kind == USER) {
        hs_tf_path(sub, sizeof sub, what, "sections");
        if (many->kind != HS_YNODE_SEQUENCE || many->n != (size_t)r->def.npoints)
            return hs_tf_fail(L, many,
                              "%s: expected a list of %d section names, one per point of "
                              "integration.locations",
                              sub, r->def.npoints);
        for (size_t k = 0; !rc && k < many->n; k++)
            r->per[k] = hs_tf_fe_find_section(L, t, many->items[k],
                                              hs_tf_index(item, sizeof item, sub, k), &rc);
        r->def.sec[0] = r->per[0];
        r->def.sec_per_point = r->per;
        return rc;
    }
    if (many)
        return hs_tf_fail(L, many,
                          "%s: sections is for the hinge rules and UserDefined; %s takes one "
                          "section: NAME",
                          what, RULES[kind]);
    if (!one)
        return hs_tf_fail(L, el,
                          "%s: missing required key 'section' (a name of "
                          "structure.model.sections)",
                          what);
    r->def.sec[0] =
        hs_tf_fe_find_section(L, t, one, hs_tf_path(sub, sizeof sub, what, "section"), &rc);
    return rc;
}

/* iterations: {max, tol} of the force-based element state determination. */
static int iterations(hs_tf *L, const hs_ynode *v, const char *what, rule *r)
{
    static const char *const keys[] = {"max", "tol"};
    char sub[160], item[192];
    const hs_ynode *n;
    hs_tf_path(sub, sizeof sub, what, "iterations");
    int rc = hs_tf_mapping(L, v, sub, keys, 2);
    if (!rc && (n = hs_ynode_get(v, "max")) != NULL) {
        long m;
        rc = hs_tf_int(L, n, hs_tf_path(item, sizeof item, sub, "max"), 1, 1000, &m);
        r->def.max_iter = (int)m;
    }
    if (!rc && (n = hs_ynode_get(v, "tol")) != NULL) {
        rc = hs_tf_num(L, n, hs_tf_path(item, sizeof item, sub, "tol"), &r->def.tol);
        if (!rc && !(r->def.tol > 0.0))
            rc = hs_tf_fail(L, n, "%s: must be > 0 (got %g)", item, r->def.tol);
    }
    return rc;
}

/* mass per length: 0.5 m L on each node's translations (OpenSees' -mass, lumped). */
static int lumped_mass(hs_tf *L, hs_fe *fe, const hs_ynode *v, const char *what, int ni, int nj)
{
    char sub[160];
    double m;
    int rc = hs_tf_num(L, v, hs_tf_path(sub, sizeof sub, what, "mass"), &m);
    if (!rc && !(m >= 0.0))
        rc = hs_tf_fail(L, v, "%s: mass per length must be >= 0 (got %g)", sub, m);
    if (rc || m == 0.0) return rc;
    const int ndm = hs_fe_ndm(fe);
    double d[3] = {0.0, 0.0, 0.0};
    for (int a = 0; a < ndm; a++) {
        double xi, xj;
        if (hs_fe_node_coord(fe, ni, a, &xi) || hs_fe_node_coord(fe, nj, a, &xj))
            return hs_tf_wrap(L, v, sub, HS_EINPUT);
        d[a] = xj - xi;
    }
    const double half = 0.5 * m * sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    double add[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    for (int a = 0; a < ndm; a++) add[a] = half;
    rc = hs_fe_add_mass(fe, ni, add);
    if (!rc) rc = hs_fe_add_mass(fe, nj, add);
    return rc ? hs_tf_wrap(L, v, sub, rc) : 0;
}

int hs_tf_fe_beam_column(hs_tf *L, hs_fe *fe, const hs_tf_section_table *t, const hs_ynode *el,
                         const char *what, const char *name, int ni, int nj, int force_based,
                         int transf, const double *vecxz)
{
    rule r;
    memset(&r, 0, sizeof r);
    r.def.force_based = force_based;
    if (vecxz) memcpy(r.def.vecxz, vecxz, sizeof r.def.vecxz);
    int kind, rc = integration(L, el, what, &r, &kind);
    if (!rc) rc = sections(L, t, el, what, kind, &r);
    const hs_ynode *v;
    if (!rc && (v = hs_ynode_get(el, "iterations")) != NULL) {
        if (!force_based)
            return hs_tf_fail(L, v,
                              "%s: a disp_beam_column has no element iterations (they are the "
                              "force_beam_column's)",
                              what);
        rc = iterations(L, v, what, &r);
    }
    if (rc) return rc;
    const int e = hs_fe_add_beam_column(fe, name, ni, nj, &r.def, (hs_fe_transf)transf);
    if (e < 0) return hs_tf_wrap(L, el, what, e);
    const hs_ynode *mt = hs_ynode_get(el, "mass_type");
    v = hs_ynode_get(el, "mass");
    if (!mt) return v ? lumped_mass(L, fe, v, what, ni, nj) : 0;
    char s[16], sub[160];
    hs_tf_path(sub, sizeof sub, what, "mass_type");
    rc = hs_tf_str(L, mt, sub, s, sizeof s);
    if (rc) return rc;
    if (strcmp(s, "lumped") != 0 && strcmp(s, "consistent") != 0)
        return hs_tf_fail(L, mt, "%s: expected lumped or consistent, got '%s'", sub, s);
    if (s[0] == 'c' && force_based)
        return hs_tf_fail(L, mt,
                          "%s: a force_beam_column's mass is lumped (OpenSees' forceBeamColumn has "
                          "no -cMass); a disp_beam_column takes consistent",
                          sub);
    if (s[0] == 'l') return v ? lumped_mass(L, fe, v, what, ni, nj) : 0;
    double m = 0.0; /* consistent: the element's own (fe_mass.c, OpenSees' -cMass) */
    if (v && (rc = hs_tf_num(L, v, hs_tf_path(sub, sizeof sub, what, "mass"), &m)) != 0) return rc;
    if (!(m >= 0.0)) return hs_tf_fail(L, v, "%s: mass per length must be >= 0 (got %g)", sub, m);
    rc = hs_fe_set_element_mass(fe, e, m, 1);
    return rc ? hs_tf_wrap(L, el, what, rc) : 0;
}

int hs_tf_fe_zero_length_section(hs_tf *L, hs_fe *fe, const hs_tf_section_table *t,
                                 const hs_ynode *el, const char *what, const char *name, int ni,
                                 int nj)
{
    const hs_ynode *sn, *on;
    char sub[160];
    int rc = hs_tf_required(L, el, "section", what, &sn);
    if (rc) return rc;
    const hs_fe_section_def *sec =
        hs_tf_fe_find_section(L, t, sn, hs_tf_path(sub, sizeof sub, what, "section"), &rc);
    if (!sec) return rc;
    double v[6] = {1.0, 0.0, 0.0, 0.0, 1.0, 0.0};
    const int ndm = hs_fe_ndm(fe);
    const double *x = NULL, *yp = NULL;
    if ((on = hs_ynode_get(el, "orient")) != NULL) {
        hs_tf_path(sub, sizeof sub, what, "orient");
        if (on->kind != HS_YNODE_SEQUENCE || (on->n != 6 && !(on->n == 3 && ndm == 2)))
            return hs_tf_fail(L, on,
                              "%s: expected the local x axis and a vector of the local x-y plane "
                              "[x1, x2, x3, yp1, yp2, yp3]%s (OpenSees -orient)",
                              sub, ndm == 2 ? ", or in 2-D the local x [x1, x2, x3]" : "");
        rc = hs_tf_num_list(L, on, sub, on->n, "component", v);
        if (rc) return rc;
        if (on->n == 3) { /* OpenSees' OPS_ZeroLengthSection in 2-D: y = z x x */
            v[3] = -v[1];
            v[4] = v[0];
            v[5] = 0.0;
        }
        x = v;
        yp = v + 3;
    }
    rc = hs_fe_add_zero_length_section(fe, name, ni, nj, sec, x, yp);
    return rc < 0 ? hs_tf_wrap(L, el, what, rc) : 0;
}
