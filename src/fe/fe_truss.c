/* Trusses of a uniaxial material (OpenSees `element truss|corotTruss tag i j A matTag`): the
 * material's strain is the chord's engineering strain, its stress times A the axial force, in
 * 1-D, 2-D and 3-D models. As OpenSees' Truss (SRC/element/truss/Truss.cpp) with the linear
 * transformation: strain = (u_j - u_i) . n0 / L and rate = (v_j - v_i) . n0 / L along the
 * initial chord n0, force A s along n0, tangent A Et / L n0 n0^T, damping tangent A eta / L n0
 * n0^T. As its CorotTruss (CorotTruss.cpp) with the corotational one: the current chord d = L n0
 * + u_j - u_i of length Ln and direction n, strain (Ln - L) / L, rate d . (v_j - v_i) / (Ln L),
 * force A s along n, tangent A Et / L n n^T + A s / Ln (I - n n^T). A truss of an elastic
 * material without eta or Eneg stays the elastic truss (fe_elements.c, fe_beam3d.c). As its
 * Truss2 (Truss2.cpp) when e->tr names a transverse truss: the material's transverse strain is
 * that truss's strain e_o less this one's strain times |cos theta|, over |sin theta| (theta the
 * angle of the two initial chords; none when it is 0), without a tangent between the two. */
#include "fe_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The chord of a material truss at (u, v): direction n, current length Ln, strain and rate. */
typedef struct chord {
    int nd, per; /* translations per node, element DOFs per node */
    double n[3], Ln, strain, rate;
} chord;

static void initial_axis(const hs_fe *fe, const fe_element *e, double n0[3])
{
    if (fe->ndm == 3)
        memcpy(n0, e->R, 3 * sizeof(double));
    else {
        n0[0] = e->c;
        n0[1] = e->s;
        n0[2] = 0.0;
    }
}

static void chord_at(const hs_fe *fe, const fe_element *e, const fe_map *const maps[],
                     const double *u, const double *v, chord *ch)
{
    ch->per = fe->ndm == 3 ? 6 : 3;
    ch->nd = fe->ndm == 3 ? 3 : 2;
    double n0[3], du[3] = {0}, dv[3] = {0};
    initial_axis(fe, e, n0);
    for (int d = 0; d < ch->nd; d++) {
        if (u) du[d] = fe_map_value(maps[ch->per + d], u) - fe_map_value(maps[d], u);
        if (v) dv[d] = fe_map_value(maps[ch->per + d], v) - fe_map_value(maps[d], v);
    }
    if (e->transf != HS_FE_COROTATIONAL) {
        memcpy(ch->n, n0, sizeof ch->n);
        ch->Ln = e->L;
        ch->strain = ch->rate = 0.0;
        for (int d = 0; d < ch->nd; d++) {
            ch->strain += du[d] * n0[d] / e->L;
            ch->rate += dv[d] * n0[d] / e->L;
        }
        return;
    }
    double dd[3], l2 = 0.0, dot = 0.0;
    for (int d = 0; d < 3; d++) {
        dd[d] = e->L * n0[d] + du[d];
        l2 += dd[d] * dd[d];
        dot += dd[d] * dv[d];
    }
    ch->Ln = sqrt(l2);
    for (int d = 0; d < 3; d++) ch->n[d] = dd[d] / ch->Ln;
    ch->strain = (ch->Ln - e->L) / e->L;
    ch->rate = dot / (ch->Ln * e->L);
}

/* Truss2: the transverse strain at u (Truss2::update, computeCurrentNormalStrain). */
static double transverse_strain(const hs_fe *fe, const fe_element *e, const double *u,
                                double strain)
{
    const fe_node *a = &fe->nodes[e->tr.n[0]], *b = &fe->nodes[e->tr.n[1]];
    double dl = 0.0;
    for (int d = 0; d < fe->ndm; d++) {
        const int q = fe->code_dof[d];
        if (q >= 0)
            dl += (fe_map_value(&b->map[q], u) - fe_map_value(&a->map[q], u)) * e->tr.dir[d];
    }
    return (dl / e->tr.L - strain * e->tr.cos_t) / e->tr.sin_t;
}

int hs_fe_set_truss_transverse(hs_fe *fe, int k, int ni, int nj)
{
    int rc = fe_defining(fe, "a Truss2's transverse truss");
    if (rc) return rc;
    if (k < 0 || k >= fe->nels || fe->els[k].kind != FE_TRUSS || !fe->els[k].mat)
        return hs_fail(fe->ctx, HS_EINVAL, "element %d is not a truss of a material", k);
    fe_element *e = &fe->els[k];
    char what[96];
    snprintf(what, sizeof what, "element '%.32s' (its transverse truss)", e->name);
    const int a = fe_known_node(fe, ni, what), b = a < 0 ? a : fe_known_node(fe, nj, what);
    if (a < 0 || b < 0) return a < 0 ? a : b;
    if (fe->ndm < 2 || e->transf != HS_FE_LINEAR)
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': a Truss2 needs -ndm 2 or 3 and the linear transformation",
                       e->name);
    const fe_node *na = &fe->nodes[a], *nb = &fe->nodes[b];
    const double d[3] = {nb->x - na->x, nb->y - na->y, fe->ndm == 3 ? nb->z - na->z : 0.0};
    const double L = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(L > 0.0))
        return hs_fail(fe->ctx, HS_EINPUT,
                       "element '%s': the transverse truss's nodes %d and %d coincide (give two "
                       "nodes apart)",
                       e->name, ni, nj);
    const fe_node *ei = &fe->nodes[e->ni], *ej = &fe->nodes[e->nj];
    const double x[3] = {ej->x - ei->x, ej->y - ei->y, fe->ndm == 3 ? ej->z - ei->z : 0.0};
    double dot = 0.0;
    for (int i = 0; i < 3; i++) {
        e->tr.dir[i] = d[i] / L;
        dot += x[i] * d[i];
    }
    const double theta = acos(dot / (e->L * L)); /* as Truss2::setDomain */
    e->tr.on = theta != 0.0;
    e->tr.n[0] = a;
    e->tr.n[1] = b;
    e->tr.L = L;
    e->tr.cos_t = fabs(cos(theta));
    e->tr.sin_t = fabs(sin(theta));
    return 0;
}

/* The element matrix of a 3 x 3 block b between the end translations: [b -b; -b b]. */
static void blocks(const chord *ch, double b[3][3], double *m)
{
    const int nde = 2 * ch->per;
    memset(m, 0, (size_t)nde * (size_t)nde * sizeof(double));
    for (int i = 0; i < ch->nd; i++)
        for (int j = 0; j < ch->nd; j++) {
            const int ri = i, rj = ch->per + i, ci = j, cj = ch->per + j;
            m[(size_t)ci * (size_t)nde + (size_t)ri] = b[i][j];
            m[(size_t)cj * (size_t)nde + (size_t)rj] = b[i][j];
            m[(size_t)cj * (size_t)nde + (size_t)ri] = -b[i][j];
            m[(size_t)ci * (size_t)nde + (size_t)rj] = -b[i][j];
        }
}

int fe_truss_state(hs_fe *fe, fe_element *e, const fe_map *const maps[], const double *u,
                   const double *v, int initial, double *f, double *k, double *c)
{
    chord ch;
    chord_at(fe, e, maps, initial ? NULL : u, initial ? NULL : v, &ch);
    double q = 0.0, kt, ct = 0.0;
    if (initial)
        kt = hs_material_initial_tangent(e->mat);
    else {
        const int rc =
            e->tr.on ? hs_material_set_trial_transverse(e->mat, ch.strain, ch.rate,
                                                        transverse_strain(fe, e, u, ch.strain))
                     : hs_material_set_trial(e->mat, ch.strain, ch.rate);
        if (rc) return hs_fail(fe->ctx, rc, "element '%s': %s", e->name, hs_ctx_message(fe->ctx));
        q = e->A * hs_material_stress(e->mat);
        kt = hs_material_tangent(e->mat);
        ct = hs_material_rate_tangent(e->mat);
    }
    const int nde = 2 * ch.per;
    if (f && !initial) {
        memset(f, 0, (size_t)nde * sizeof(double));
        for (int d = 0; d < ch.nd; d++) {
            f[d] = -q * ch.n[d];
            f[ch.per + d] = q * ch.n[d];
        }
    }
    double b[3][3];
    const int corot = e->transf == HS_FE_COROTATIONAL;
    if (k) {
        const double ka = e->A * kt / e->L, kg = corot ? q / ch.Ln : 0.0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                const double nn = ch.n[i] * ch.n[j]; /* symmetric to the bit */
                b[i][j] = ka * nn + kg * ((i == j) - nn);
            }
        blocks(&ch, b, k);
    }
    if (c) {
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) b[i][j] = e->A * ct / e->L * (ch.n[i] * ch.n[j]);
        blocks(&ch, b, c);
    }
    return 0;
}

int fe_truss_response(const hs_fe *fe, const fe_element *e, hs_fe_response r, double *out)
{
    const fe_map *maps[FE_MAX_EDOF];
    fe_element_maps(fe, e, maps);
    chord ch;
    chord_at(fe, e, maps, fe->u_commit, NULL, &ch);
    const double q = e->A * hs_material_stress(e->mat);
    switch (r) {
    case HS_FE_GLOBAL_FORCE: /* ndf values per node */
        memset(out, 0, 2 * (size_t)fe->ndf * sizeof(double));
        for (int d = 0; d < ch.nd && d < fe->ndf; d++) {
            const int slot = fe->code_dof[d];
            if (slot < 0) continue;
            out[slot] = -q * ch.n[d];
            out[fe->ndf + slot] = q * ch.n[d];
        }
        return 0;
    case HS_FE_LOCAL_FORCE: /* [-N 0 0 N 0 0] in 2-D, the 12 of a 3-D element */
        memset(out, 0, 2 * (size_t)ch.per * sizeof(double));
        out[0] = 0.0 - q;
        out[ch.per] = q;
        return 0;
    case HS_FE_BASIC_FORCE:
        out[0] = q;
        return 0;
    case HS_FE_DEFORMATION:
        out[0] = hs_material_strain(e->mat) * e->L;
        return 0;
    case HS_FE_STRAIN:
        out[0] = hs_material_strain(e->mat);
        return 0;
    case HS_FE_TFP_COMP_DISPLACEMENT:
    case HS_FE_TFP_PARAMETERS:
        break;
    }
    return HS_EINVAL;
}
