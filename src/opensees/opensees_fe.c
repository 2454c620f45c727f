/* The hs_fe of an OpenSees Tcl model (opensees_tcl.h): the dimension (-ndm, -ndf), nodes,
 * fixities (-ndm 2 -ndf 2: the rotation is fixed, nothing in a truss model turns it), masses (the
 * nodes' plus the elements' -mass / -rho lumped as OpenSees does: 0.5 rho L on each end's
 * translations; with -cMass the element's consistent mass, hs_fe_set_element_mass), elements,
 * equalDOF, rigidDiaphragm, rigidLink, and the axial forces that the Plain patterns' loads
 * (gravity) leave in P-Delta and corotational members: a linear static solution of the model
 * under those loads (what OpenSees' gravity step followed by loadConst holds constant, without its
 * P-Delta sway), given to hysim as each member's axial_compression. */
#include "opensees_tcl.h"

#include "hysim/linalg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NDF HS_OS_NDF /* per-node arrays: OpenSees' DOF order */

/* The names of a zero-length element's directions (ele3.x): 2-D x, y, rz; else the DOFs'. */
static const char *dir_name(const hs_os_model *m, int dir)
{
    static const char *const PLANE[3] = {"x", "y", "rz"}, *const SPACE[6] = {"x",  "y",  "z",
                                                                             "rx", "ry", "rz"};
    return m->ndm == 2 ? PLANE[dir] : SPACE[dir];
}

/* The element's length and direction cosines c (3, may be NULL). */
static double length(const hs_os_model *m, const hs_os_element *e, double *c)
{
    const hs_os_node *a = hs_os_find_node(m, e->ni), *b = hs_os_find_node(m, e->nj);
    const double d[3] = {b->x - a->x, b->y - a->y, b->z - a->z};
    const double L = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (int k = 0; c && k < 3; k++) c[k] = L > 0.0 ? d[k] / L : k == 0;
    return L;
}

/* "WHERE: WHAT: " + the library's message (copied: hs_fail writes where it reads) */
static int fe_error(hs_ctx *ctx, int rc, const char *where, const char *what)
{
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", hs_ctx_message(ctx));
    return hs_fail(ctx, rc == HS_ENOMEM ? rc : HS_EINPUT, "%s: %s: %s", where, what, msg);
}

static int element_error(hs_ctx *ctx, const hs_os_element *e, int rc)
{
    char what[32];
    snprintf(what, sizeof what, "element %d", e->tag);
    return fe_error(ctx, rc, e->where, what);
}

/* The elements' lumped masses added to `mass` (NDF per node, in the model's node order): 0.5 rho
 * L on each end's translations (OpenSees' Truss, ElasticBeam2d and 3d without -cMass). */
void hs_os_element_masses(const hs_os_model *m, int alpha_m, double *mass)
{
    for (int k = 0; k < m->nels; k++) {
        const hs_os_element *e = &m->els[k];
        const double half = e->kind == HS_OS_LINK ? 0.5 * e->mass /* twoNodeLink -mass */
                            : e->cmass            ? 0.0 /* consistent: the element's own */
                                                  : 0.5 * e->rho * length(m, e, NULL);
        if (!(half > 0.0)) continue;
        const double w = alpha_m ? e->ray.alphaM : 1.0;
        for (int i = 0; i < m->nnodes; i++)
            if (m->nodes[i].tag == e->ni || m->nodes[i].tag == e->nj)
                for (int d = 0; d < m->ndm; d++) mass[NDF * i + d] += w * half;
    }
}

/* A twoNodeLink (its mass is lumped on the nodes by hs_os_element_masses). */
static int add_link(hs_fe *fe, const hs_os_model *m, const hs_os_element *e, const char *name)
{
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    def.ndir = e->nmat;
    for (int j = 0; j < e->nmat; j++) {
        const hs_os_material *mat = hs_os_find_material(m, e->mat[j]);
        def.dirs[j] = e->dir[j];
        def.mat_type[j] = mat->type;
        def.mat_opts[j] = mat->opts;
    }
    def.has_orient = e->has_orient;
    for (int c = 0; c < 3; c++) def.orient[c] = e->orient[c];
    def.shear_dist = e->shear_dist;
    def.has_yp = e->has_yp;
    for (int c = 0; c < 3; c++) def.yp[c] = e->yp[c];
    def.shear_dist_z = e->shear_dist_z;
    def.has_p_delta = e->has_p_delta;
    for (int c = 0; c < 4; c++) def.p_delta[c] = e->p_delta[c];
    def.p_delta_bearing = e->p_delta_bearing;
    def.p_delta_rot = e->p_delta_rot;
    for (int j = 0; j < e->nmat; j++)
        def.has_k_dir[j] = e->has_k_dir[j], def.k_dir[j] = e->k_dir[j];
    def.nk = e->nkinit; /* an expElement's -initStif over its basic system */
    for (int j = 0; j < e->nkinit; j++) def.kdirs[j] = e->kinit_dirs[j];
    def.k_shear_dist = e->kinit_shear;
    def.k_shear_dist_z = e->shear_dist_z;
    memcpy(def.kb, e->kinit, (size_t)(e->nkinit * e->nkinit) * sizeof(double));
    def.k_tangent = !e->exp_own_tangent;
    for (int j = 0; e->exp_scaled && j < e->nmat; j++) { /* a scaled experimental specimen */
        def.disp_factor[j] = e->exp_scale[j][0];
        def.vel_factor[j] = e->exp_scale[j][1];
        def.force_factor[j] = e->exp_scale[j][2];
    }
    def.setup = e->exp_has_geom ? &e->exp_geom : NULL; /* an expSetup with actuators */
    def.absolute = e->exp_generic;                     /* expElement generic: absolute node DOFs */
    memcpy(def.dir_node, e->dir_node, sizeof def.dir_node);
    memcpy(def.kdir_node, e->kinit_node, sizeof def.kdir_node);
    def.exp_beam = e->exp_beam;
    def.beam_transf = e->exp_beam_transf;
    memcpy(def.ctrl_filter, e->exp_ctrl_filter, sizeof def.ctrl_filter);
    memcpy(def.daq_filter, e->exp_daq_filter, sizeof def.daq_filter);
    return hs_fe_add_link(fe, name, e->ni, e->nj, &def);
}

/* The rigid constraints of the script (rigidDiaphragm, rigidLink). */
static int rigids(hs_ctx *ctx, hs_fe *fe, const hs_os_model *m)
{
    int rc = 0;
    for (int k = 0; !rc && k < m->nrigids; k++) {
        const hs_os_rigid *r = &m->rigids[k];
        if (r->kind == HS_OS_DIAPHRAGM)
            rc = hs_fe_rigid_diaphragm(fe, r->perp, r->master, r->slaves, r->nslaves);
        else
            rc = hs_fe_rigid_link(fe,
                                  r->kind == HS_OS_LINK_BEAM ? HS_FE_RIGID_BEAM : HS_FE_RIGID_BAR,
                                  r->master, r->slaves[0]);
        if (rc)
            rc = fe_error(ctx, rc, r->where,
                          r->kind == HS_OS_DIAPHRAGM ? "rigidDiaphragm" : "rigidLink");
    }
    return rc;
}

/* Where the frame model's numbering error `msg` comes from: a rigid constraint's line when it
 * names one of its slaves ("rigid_diaphragm: node 3 uy carries mass ..."), else `fallback`. */
static const char *constraint_where(const hs_os_model *m, const char *msg, const char *fallback)
{
    const char *colon = strchr(msg, ':');
    int slave;
    if (strncmp(msg, "rigid_", 6) != 0 || !colon || sscanf(colon, ": node %d", &slave) != 1)
        return fallback;
    for (int k = 0; k < m->nrigids; k++)
        for (int j = 0; j < m->rigids[k].nslaves; j++)
            if (m->rigids[k].slaves[j] == slave) return m->rigids[k].where;
    return fallback;
}

/* 1 when equalDOF q ties DOF d to a fixed DOF of its retained node: OpenSees' transformation
 * handler then gives the constrained DOF the support's (zero) displacement, so hysim fixes it
 * (TransformationConstraintHandler / TransformationDOF_Group: a retained DOF with an SP
 * constraint has no equation). */
static int equal_fixed(const hs_os_model *m, const hs_os_equal *q, int d)
{
    const hs_os_node *r = hs_os_find_node(m, q->master);
    return q->dofs[d] && r && (r->fix[d] || (m->ndm == 2 && m->ndf == 2 && d == 2));
}

/* The DOFs a test file's control points name stay dynamic without mass (m->keep_*); an unknown
 * node or DOF is the test file reader's to report. */
static int keep_dofs(hs_ctx *ctx, hs_fe *fe, const hs_os_model *m)
{
    for (int k = 0; k < m->nkeep; k++)
        for (int d = 0; d < hs_fe_ndf(fe); d++) {
            const char *s = hs_fe_dir_name(fe, d);
            if (strcmp(s[0] == 'u' ? s + 1 : s, m->keep_dof[k]) != 0) continue;
            const int rc = hs_fe_keep_dof(fe, m->keep_node[k], d);
            if (rc == HS_ENOMEM) return rc;
            if (rc) hs_ctx_clear(ctx);
        }
    return 0;
}

/* Defines the model in a new hs_fe: `mass` per node (NDF each), member compressions P0 (NULL: 0),
 * `linear`: every member with the linear transformation (the gravity solve); `keep` (NULL: all)
 * the elements to define, and no element mass (the script's own analysis). */
static int define_some(hs_ctx *ctx, const hs_os_model *m, const char *script, const double *mass,
                       const double *P0, int linear, const unsigned char *keep, hs_fe **out)
{
    hs_fe *fe = NULL;
    int *el_index = hs_malloc(((size_t)m->nels + 1) * sizeof *el_index);
    int rc = el_index ? hs_fe_create(ctx, &fe) : HS_ENOMEM;
    for (int k = 0; el_index && k < m->nels; k++) el_index[k] = -1;
    /* a plane model is hysim's 2-D frame (-ndf 2: the rotations fixed, nothing turns them) */
    if (!rc && m->ndm != 2) rc = hs_fe_set_dimension(fe, m->ndm, m->ndf);
    if (rc && rc != HS_ENOMEM) rc = fe_error(ctx, rc, script, "model");
    for (int i = 0; !rc && i < m->nnodes; i++) {
        const hs_os_node *n = &m->nodes[i];
        int fix[NDF];
        memcpy(fix, n->fix, sizeof fix);
        for (int d = 0; d < NDF; d++) /* an imposed DOF: the live model's equation, else fixed */
            if (n->sp[d]) fix[d] = !keep;
        if (m->ndm == 2 && m->ndf == 2) fix[2] = 1;
        for (int k = 0; k < m->nequals; k++) /* an equalDOF to a fixed DOF fixes it */
            if (m->equals[k].slave == n->tag)
                for (int d = 0; d < NDF; d++) fix[d] |= equal_fixed(m, &m->equals[k], d);
        /* after a coordinate's updateParameter, OpenSees' trusses measure their length to the
         * nodes as displaced then (Truss::setDomain with initialDisp) */
        const double crd[3] = {n->x + n->uref[0], n->y + n->uref[1], n->z + n->uref[2]};
        rc = m->ndm == 2 ? hs_fe_add_node(fe, n->tag, crd[0], crd[1])
                         : hs_fe_add_node_crd(fe, n->tag, crd);
        if (rc >= 0) rc = hs_fe_fix(fe, n->tag, fix);
        if (!rc) rc = hs_fe_add_mass(fe, n->tag, &mass[NDF * i]);
        char what[32];
        snprintf(what, sizeof what, "node %d", n->tag);
        if (rc) rc = fe_error(ctx, rc, n->where, what);
    }
    for (int k = 0; !rc && k < m->nels; k++) {
        const hs_os_element *e = &m->els[k];
        if (keep && !keep[k]) continue;
        char name[32];
        snprintf(name, sizeof name, "ele%d", e->tag);
        const hs_fe_transf t = linear ? HS_FE_LINEAR : e->transf;
        const double p = P0 ? P0[k] : 0.0;
        if (e->kind == HS_OS_TRUSS && e->section) {
            const char *type;
            const hs_options *opts;
            double A;
            hs_fe_section_def_axial_material(hs_os_find_section(m, e->section)->def, &type, &opts,
                                             &A);
            rc = hs_fe_add_truss_material(fe, name, e->ni, e->nj, A, t, type, opts);
        } else if (e->kind == HS_OS_TRUSS && e->nmat) {
            const hs_os_material *mat = hs_os_find_material(m, e->mat[0]);
            rc = hs_fe_add_truss_material(fe, name, e->ni, e->nj, e->A, t, mat->type, mat->opts);
            const int tr = rc >= 0 && e->has_aux /* Truss2 */
                               ? hs_fe_set_truss_transverse(fe, rc, e->aux[0], e->aux[1])
                               : 0;
            if (tr) rc = tr;
        } else if (e->kind == HS_OS_TRUSS)
            rc = hs_fe_add_truss(fe, name, e->ni, e->nj, e->E, e->A, t, p);
        else if (e->kind == HS_OS_BEAM && m->ndm == 3) {
            const hs_fe_section_3d sec = {
                .E = e->E, .G = e->G, .A = e->A, .J = e->J, .Iy = e->Iy, .Iz = e->I};
            rc = hs_fe_add_beam_3d(fe, name, e->ni, e->nj, &sec, e->vecxz, t, p);
        } else if (e->kind == HS_OS_BEAM)
            rc = hs_fe_add_beam(fe, name, e->ni, e->nj, e->E, e->A, e->I, t, p);
        else if (e->kind == HS_OS_LINK)
            rc = add_link(fe, m, e, name);
        else if (e->kind == HS_OS_BEAM_COLUMN)
            rc = hs_os_add_beam_column(fe, m, e, name, t);
        else if (e->kind == HS_OS_ZERO_LENGTH_SECTION)
            rc = hs_os_add_zero_length_section(fe, m, e, name);
        else if (e->kind == HS_OS_TFP_X)
            rc = hs_os_add_tfp_x(fe, m, e, name);
        else if (e->kind == HS_OS_COUPLED_ZERO_LENGTH) {
            const hs_os_material *mat = hs_os_find_material(m, e->mat[0]);
            rc = hs_fe_add_coupled_zero_length(fe, name, e->ni, e->nj, e->dir[0], e->dir[1],
                                               mat->type, mat->opts);
        }
        for (int j = 0; e->kind == HS_OS_ZERO_LENGTH && rc >= 0 && j < e->nmat; j++) {
            const hs_os_material *mat = hs_os_find_material(m, e->mat[j]);
            if (e->nmat > 1)
                snprintf(name, sizeof name, "ele%d.%s", e->tag, dir_name(m, e->dir[j]));
            rc = hs_fe_add_zero_length(fe, name, e->ni, e->nj, e->dir[j], mat->type, mat->opts);
        }
        if (rc >= 0) el_index[k] = rc; /* the element's index (zero-length: its last) */
        if (rc >= 0 && e->kind == HS_OS_BEAM && (e->release_z || e->release_y))
            rc = hs_fe_set_beam_release(fe, el_index[k], e->release_z, e->release_y);
        if (rc >= 0 && !linear && !keep && e->cmass && e->rho > 0.0) /* -cMass (fe_mass.c) */
            rc = hs_fe_set_element_mass(fe, el_index[k], e->rho, 1);
        if (rc < 0)
            rc = element_error(ctx, e, rc);
        else
            rc = 0;
    }
    for (int k = 0; !rc && k < m->nequals; k++) {
        const hs_os_equal *q = &m->equals[k];
        int dofs[NDF], any = 0;
        for (int d = 0; d < NDF; d++) any |= dofs[d] = q->dofs[d] && !equal_fixed(m, q, d);
        if (!any) continue;
        rc = hs_fe_equal_dof(fe, q->master, q->slave, dofs);
        char what[48];
        snprintf(what, sizeof what, "equalDOF %d %d", q->master, q->slave);
        if (rc) rc = fe_error(ctx, rc, q->where, what);
    }
    if (!rc) rc = rigids(ctx, fe, m);
    /* the member loads: the script's own analysis scales them by their patterns' factors, the
     * gravity solve takes them at their Plain factors; the test file's dynamics about the static
     * equilibrium has none */
    if (!rc && (keep || linear)) rc = hs_os_add_member_loads(ctx, fe, m, el_index, keep != NULL);
    if (!rc && !linear && !keep) rc = keep_dofs(ctx, fe, m);
    if (!rc && (rc = hs_fe_finalize(fe)) != 0)
        rc = fe_error(ctx, rc, constraint_where(m, hs_ctx_message(ctx), script), "the model");
    hs_free(el_index);
    if (rc) hs_fe_destroy(&fe);
    *out = fe;
    return rc;
}

static int define(hs_ctx *ctx, const hs_os_model *m, const char *script, const double *mass,
                  const double *P0, int linear, hs_fe **out)
{
    return define_some(ctx, m, script, mass, P0, linear, NULL, out);
}

int hs_os_build_live_fe(hs_ctx *ctx, const hs_os_model *m, const char *script,
                        const unsigned char *keep, hs_fe **out)
{
    double *mass = hs_calloc((size_t)m->nnodes * NDF + 1, sizeof *mass);
    unsigned char *all = hs_malloc((size_t)m->nels + 1);
    if (!mass || !all) {
        hs_free(mass);
        hs_free(all);
        return HS_ENOMEM;
    }
    memset(all, 1, (size_t)m->nels + 1);
    for (int i = 0; i < m->nnodes; i++)
        for (int d = 0; d < m->ndf; d++)
            mass[NDF * i + d] = m->nodes[i].fix[d] && !m->nodes[i].sp[d] ? 0.0 : 1.0;
    const int rc = define_some(ctx, m, script, mass, NULL, 0, keep ? keep : all, out);
    hs_free(mass);
    hs_free(all);
    return rc;
}

/* The axial forces (tension positive) of the members under the Plain loads, by a linear static
 * solution: a copy of the model whose only dynamic DOFs are the loaded ones (every other DOF is
 * condensed statically by hs_fe), K u = P on them, then the node displacements. */
static int gravity_forces(hs_ctx *ctx, const hs_os_model *m, const char *script, double *N)
{
    double *mass = hs_calloc((size_t)m->nnodes * NDF, sizeof *mass);
    if (!mass) return HS_ENOMEM;
    for (int l = 0; l < m->nloads; l++)
        for (int i = 0; i < m->nnodes; i++)
            if (m->nodes[i].tag == m->loads[l].node)
                for (int d = 0; d < m->ndf; d++)
                    if (m->loads[l].f[d] != 0.0 && !m->nodes[i].fix[d]) mass[NDF * i + d] = 1.0;
    for (int l = 0; l < m->neleloads; l++) { /* a member load: its element's nodes */
        const hs_os_element *e = hs_os_find_element(m, m->eleloads[l].ele);
        for (int i = 0; e && i < m->nnodes; i++)
            if (m->nodes[i].tag == e->ni || m->nodes[i].tag == e->nj)
                for (int d = 0; d < m->ndf; d++)
                    if (!m->nodes[i].fix[d]) mass[NDF * i + d] = 1.0;
    }
    int loaded = 0;
    for (int i = 0; i < NDF * m->nnodes; i++) loaded |= mass[i] > 0.0;
    memset(N, 0, (size_t)m->nels * sizeof *N);
    hs_fe *fe = NULL;
    int rc = loaded ? define(ctx, m, script, mass, NULL, 1, &fe) : 0; /* else: on supports only */
    hs_free(mass);
    if (rc || !loaded) return rc;
    const int n = hs_fe_ndof(fe);
    double *K = hs_calloc((size_t)n * (size_t)n, sizeof *K), *P = hs_calloc((size_t)n, sizeof *P),
           *r = hs_calloc((size_t)n, sizeof *r);
    hs_linsolver *s = NULL;
    rc = (!K || !P || !r) ? HS_ENOMEM : hs_fe_initial_stiffness(fe, K);
    for (int l = 0; !rc && l < m->nloads; l++)
        for (int d = 0; d < m->ndf; d++) {
            const int q = hs_fe_dof(fe, m->loads[l].node, d);
            if (q >= 0) P[q] += m->loads[l].f[d];
        }
    /* the member loads' fixed-end forces: K u = P - r(0) */
    double *z = m->neleloads && !rc ? hs_calloc((size_t)n, sizeof *z) : NULL;
    if (m->neleloads && !rc) rc = z ? hs_fe_restore(fe, z, NULL, r, NULL, NULL) : HS_ENOMEM;
    for (int i = 0; !rc && m->neleloads && i < n; i++) {
        P[i] -= r[i];
        r[i] = 0.0;
    }
    hs_free(z);
    if (!rc) rc = hs_linsolver_create(ctx, "dense", n, &s);
    if (!rc) rc = hs_linsolver_factor(s, K);
    if (rc == HS_ESINGULAR)
        rc = hs_fail(ctx, HS_EINPUT,
                     "%s: the gravity loads (pattern Plain) act on a mechanism: the model has no "
                     "static solution under them; fix or connect the loaded nodes",
                     script);
    if (!rc) rc = hs_linsolver_solve(s, P);
    if (!rc) rc = hs_fe_restore(fe, P, NULL, r, NULL, NULL);
    if (!rc) rc = hs_fe_commit(fe);
    for (int k = 0; !rc && k < m->nels; k++) {
        const hs_os_element *e = &m->els[k];
        double c[3];
        const double L = length(m, e, c);
        N[k] = 0.0;
        if (e->kind == HS_OS_ZERO_LENGTH || e->kind == HS_OS_LINK ||
            e->kind == HS_OS_ZERO_LENGTH_SECTION || e->kind == HS_OS_COUPLED_ZERO_LENGTH ||
            e->kind == HS_OS_TFP_X || !(L > 0.0))
            continue;
        double elong = 0.0; /* the chord's elongation: (u_j - u_i) . c over the translations */
        for (int d = 0; d < m->ndm; d++)
            elong +=
                (hs_fe_node_displacement(fe, e->nj, d) - hs_fe_node_displacement(fe, e->ni, d)) *
                c[d];
        N[k] = e->E * e->A / L * elong;
    }
    hs_linsolver_destroy(&s);
    hs_free(K);
    hs_free(P);
    hs_free(r);
    hs_fe_destroy(&fe);
    return rc;
}

int hs_os_build_fe(hs_ctx *ctx, const hs_os_model *m, const char *script, hs_fe **out)
{
    *out = NULL;
    int geometric = 0;
    for (int k = 0; k < m->nels; k++) geometric |= m->els[k].transf != HS_FE_LINEAR;
    double *mass = hs_calloc((size_t)m->nnodes * NDF, sizeof *mass),
           *P0 = hs_calloc((size_t)m->nels + 1, sizeof *P0);
    int rc = (!mass || !P0) ? HS_ENOMEM : 0;
    const int loads = m->nloads > 0 || m->neleloads > 0;
    for (int k = 0; !rc && loads && k < m->nels; k++)
        if (m->els[k].kind == HS_OS_LINK && m->els[k].has_p_delta)
            rc = hs_fail(ctx, HS_EINPUT,
                         "%s: element %d: twoNodeLink -pDelta under the loads of pattern Plain: "
                         "hysim does not carry gravity loads into a link's axial force (its "
                         "response starts from the equilibrium with the materials at their "
                         "initial state), so the P-Delta would miss the gravity compression "
                         "that OpenSees' gravity analysis gives; give the axial material the "
                         "force as an initial stress (Steel02 ... sigInit) balanced by the "
                         "structure, or remove -pDelta (docs/opensees_tcl.md, \"Gravity and "
                         "P-Delta\")",
                         m->els[k].where, m->els[k].tag);
    if (!rc && geometric && loads) rc = gravity_forces(ctx, m, script, P0);
    for (int k = 0; !rc && k < m->nels; k++) {
        const hs_os_element *e = &m->els[k];
        if (e->transf == HS_FE_LINEAR)
            P0[k] = 0.0;
        else if (P0[k] > 0.0) {
            hs_log(ctx, HS_LOG_WARN,
                   "%s: element %d is in tension (%g) under the gravity loads; hysim's P-Delta "
                   "takes compression only, so its geometric stiffness is left out",
                   e->where, e->tag, P0[k]);
            P0[k] = 0.0;
        } else
            P0[k] = -P0[k];
    }
    for (int i = 0; !rc && i < m->nnodes; i++)
        for (int d = 0; d < NDF; d++) mass[NDF * i + d] = m->nodes[i].mass[d];
    if (!rc) hs_os_element_masses(m, 0, mass);
    if (!rc) rc = define(ctx, m, script, mass, P0, 0, out);
    hs_free(mass);
    hs_free(P0);
    return rc;
}

/* The Rayleigh stiffness factor an element applies (OpenSees: trusses and zero-length elements
 * only with -doRayleigh). */
static double element_beta(const hs_os_element *e)
{
    return e->rayleigh_ok ? e->ray.betaK + e->ray.betaKinit + e->ray.betaKcomm : 0.0;
}

/* 1 when the element has initial stiffness (a zero-length of viscous materials has none). */
static int stiff(const hs_os_model *m, const hs_os_element *e)
{
    if (e->kind != HS_OS_ZERO_LENGTH && e->kind != HS_OS_LINK &&
        e->kind != HS_OS_COUPLED_ZERO_LENGTH)
        return 1;
    for (int j = 0; j < e->nmat; j++)
        if (strcmp(hs_os_find_material(m, e->mat[j])->type, "viscous") != 0) return 1;
    return 0;
}

int hs_os_rayleigh_coefficients(hs_ctx *ctx, const hs_os_model *m, const char *script, double *a0,
                                double *a1, int *uses_tangent)
{
    double *mass = hs_calloc((size_t)m->nnodes * NDF, sizeof *mass);
    if (!mass) return HS_ENOMEM;
    hs_os_element_masses(m, 0, mass);
    const hs_os_node *first_node = NULL;
    const hs_os_element *first_el = NULL;
    int rc = 0;
    *uses_tangent = 0;
    for (int i = 0; !rc && i < m->nnodes; i++) {
        const hs_os_node *n = &m->nodes[i];
        double mt = 0.0;
        for (int d = 0; d < NDF; d++) mt += n->mass[d] + mass[NDF * i + d];
        if (!(mt > 0.0)) continue;
        if (!first_node)
            first_node = n;
        else if (n->ray.alphaM != first_node->ray.alphaM)
            rc = hs_fail(ctx, HS_EINPUT,
                         "%s: not yet supported by hysim: nodes %d and %d have different "
                         "Rayleigh alphaM (%g, %g); hysim's damping matrix is alphaM M + beta K0 "
                         "of the whole model (use one rayleigh command after the model)",
                         script, first_node->tag, n->tag, first_node->ray.alphaM, n->ray.alphaM);
    }
    for (int k = 0; !rc && k < m->nels; k++) {
        const hs_os_element *e = &m->els[k];
        if (!stiff(m, e)) continue;
        *uses_tangent |= e->rayleigh_ok && (e->ray.betaK != 0.0 || e->ray.betaKcomm != 0.0);
        if (!first_el)
            first_el = e;
        else if (element_beta(e) != element_beta(first_el))
            rc = hs_fail(ctx, HS_EINPUT,
                         "%s: element %d: not yet supported by hysim: its Rayleigh stiffness "
                         "factor (%g%s) differs from element %d's (%g%s); hysim's damping "
                         "matrix is alphaM M + beta K0 of the whole model. Give every element "
                         "the same factors (a truss or zeroLength takes them only with "
                         "-doRayleigh 1, as in OpenSees)",
                         e->where, e->tag, element_beta(e),
                         e->rayleigh_ok ? "" : ", no -doRayleigh", first_el->tag,
                         element_beta(first_el), first_el->rayleigh_ok ? "" : ", no -doRayleigh");
    }
    *a0 = first_node ? first_node->ray.alphaM : 0.0;
    *a1 = first_el ? element_beta(first_el) : 0.0;
    hs_free(mass);
    return rc;
}
