/* `structure.model`: the frame model (include/hysim/fe.h, docs/fe_model.md) in 1-D, 2-D or 3-D
 * (ndm, ndf): nodes with fixities and masses, sections (testfile_fe_section.c), elements (truss,
 * elastic_beam, zero_length, two_node_link; force_beam_column, disp_beam_column and
 * zero_length_section in testfile_fe_beamcolumn.c), equal_dof, rigid_diaphragm and rigid_link
 * constraints and the direction of the uniform excitation. The model's DOFs are the frame's dynamic
 * DOFs. */
#include "testfile_impl.h"

#include "hysim/fe.h"

#include <stdio.h>
#include <string.h>

/* The file's name of a node DOF: its label without the u of a translation. */
static const char *dof_key(const hs_fe *fe, int d)
{
    const char *s = hs_fe_dir_name(fe, d);
    return s[0] == 'u' ? s + 1 : s;
}

int hs_tf_fe_dof(hs_tf *L, const hs_fe *fe, const hs_ynode *node, const char *what, int *dir)
{
    char s[8], known[64] = "";
    int rc = hs_tf_str(L, node, what, s, sizeof s);
    if (rc) return rc;
    const int ndf = hs_fe_ndf(fe);
    for (int d = 0; d < ndf; d++) {
        if (strcmp(s, dof_key(fe, d)) == 0) return *dir = d, 0;
        const size_t len = strlen(known);
        snprintf(known + len, sizeof known - len, "%s%s",
                 d == 0         ? ""
                 : d == ndf - 1 ? " or "
                                : ", ",
                 dof_key(fe, d));
    }
    return hs_tf_fail(L, node, "%s: expected a direction %s, got '%s'", what, known, s);
}

int hs_tf_fe_dir(hs_tf *L, const hs_ynode *node, const char *what, int *dir)
{
    const hs_fe *fe = L->def->model ? hs_model_fe(L->def->model) : NULL;
    if (fe) return hs_tf_fe_dof(L, fe, node, what, dir);
    static const char *const DIRS[3] = {"x", "y", "rz"};
    char s[8];
    int rc = hs_tf_str(L, node, what, s, sizeof s);
    if (rc) return rc;
    for (int d = 0; d < 3; d++)
        if (strcmp(s, DIRS[d]) == 0) return *dir = d, 0;
    return hs_tf_fail(L, node, "%s: expected a direction x, y or rz, got '%s'", what, s);
}

static int node_id(hs_tf *L, const hs_ynode *node, const char *what, int *id)
{
    long v;
    int rc = hs_tf_int(L, node, what, 1, 1000000000L, &v);
    if (!rc) *id = (int)v;
    return rc;
}

/* A list of ndf numbers (or 0/1 flags), one per DOF. */
static int per_dof(hs_tf *L, const hs_fe *fe, const hs_ynode *node, const char *what, double *out)
{
    static const char *const LABEL[] = {
        "", "DOF (x)", "DOF (x, y)", "DOF (x, y, rz)", "", "", "DOF (x, y, z, rx, ry, rz)"};
    const int ndf = hs_fe_ndf(fe);
    return hs_tf_num_list(L, node, what, (size_t)ndf,
                          hs_fe_ndm(fe) == 3 && ndf == 3 ? "DOF (x, y, z)" : LABEL[ndf], out);
}

static int coordinate(hs_tf *L, const hs_fe *fe, const hs_ynode *nd, const char *key, int axis,
                      const char *what, double *out)
{
    const hs_ynode *v = hs_ynode_get(nd, key);
    char sub[96];
    if (axis >= hs_fe_ndm(fe)) {
        if (v)
            return hs_tf_fail(L, v, "%s: a %d-D model has no %s coordinate (set ndm)", what,
                              hs_fe_ndm(fe), key);
        return 0;
    }
    int rc = hs_tf_required(L, nd, key, what, &v);
    return rc ? rc : hs_tf_num(L, v, hs_tf_path(sub, sizeof sub, what, key), out);
}

static int nodes(hs_tf *L, hs_fe *fe, const hs_ynode *list)
{
    if (list->kind != HS_YNODE_SEQUENCE || list->n == 0)
        return hs_tf_fail(L, list,
                          "structure.model.nodes: expected a list of {id, x, y, fix, mass}");
    static const char *const keys[] = {"id", "x", "y", "z", "fix", "mass"};
    const int ndf = hs_fe_ndf(fe);
    for (size_t i = 0; i < list->n; i++) {
        const hs_ynode *nd = list->items[i], *v;
        char what[64], sub[96];
        hs_tf_index(what, sizeof what, "structure.model.nodes", i);
        int id = 0, rc = hs_tf_mapping(L, nd, what, keys, 6);
        double crd[3] = {0.0, 0.0, 0.0};
        if (!rc) rc = hs_tf_required(L, nd, "id", what, &v);
        if (!rc) rc = node_id(L, v, hs_tf_path(sub, sizeof sub, what, "id"), &id);
        for (int a = 0; a < 3 && !rc; a++)
            rc = coordinate(L, fe, nd, (const char *[]){"x", "y", "z"}[a], a, what, &crd[a]);
        if (rc) return rc;
        rc = hs_fe_add_node_crd(fe, id, crd);
        if (rc < 0) return hs_tf_wrap(L, nd, what, rc);
        if ((v = hs_ynode_get(nd, "fix")) != NULL) {
            double f[6];
            rc = per_dof(L, fe, v, hs_tf_path(sub, sizeof sub, what, "fix"), f);
            if (rc) return rc;
            int fix[6];
            for (int d = 0; d < ndf; d++) {
                if (f[d] != 0.0 && f[d] != 1.0)
                    return hs_tf_fail(L, v->items[d], "%s: a fixity is 0 (free) or 1 (fixed)", sub);
                fix[d] = f[d] != 0.0;
            }
            hs_fe_fix(fe, id, fix);
        }
        if ((v = hs_ynode_get(nd, "mass")) != NULL) {
            double m[6];
            rc = per_dof(L, fe, v, hs_tf_path(sub, sizeof sub, what, "mass"), m);
            if (!rc && (rc = hs_fe_add_mass(fe, id, m)) != 0) rc = hs_tf_wrap(L, v, sub, rc);
            if (rc) return rc;
        }
    }
    return 0;
}

static int transf(hs_tf *L, const hs_ynode *el, const char *what, hs_fe_transf *t)
{
    const hs_ynode *v = hs_ynode_get(el, "transf");
    *t = HS_FE_LINEAR;
    if (!v) return 0;
    char s[16], sub[128];
    int rc = hs_tf_str(L, v, hs_tf_path(sub, sizeof sub, what, "transf"), s, sizeof s);
    if (rc) return rc;
    if (strcmp(s, "linear") == 0) return 0;
    if (strcmp(s, "pdelta") == 0) return *t = HS_FE_PDELTA, 0;
    if (strcmp(s, "corotational") == 0) return *t = HS_FE_COROTATIONAL, 0;
    return hs_tf_fail(L, v, "%s: expected linear, pdelta or corotational, got '%s'", sub, s);
}

static int num_key(hs_tf *L, const hs_ynode *el, const char *key, const char *what, int required,
                   double *out)
{
    const hs_ynode *v = hs_ynode_get(el, key);
    char sub[128];
    if (!v) return required ? hs_tf_required(L, el, key, what, &v) : 0;
    return hs_tf_num(L, v, hs_tf_path(sub, sizeof sub, what, key), out);
}

/* vecxz: three numbers */
static int vector3(hs_tf *L, const hs_ynode *el, const char *what, double v[3])
{
    const hs_ynode *n;
    char sub[128];
    int rc = hs_tf_required(L, el, "vecxz", what, &n);
    return rc ? rc
              : hs_tf_num_list(L, n, hs_tf_path(sub, sizeof sub, what, "vecxz"), 3,
                               "global component (x, y, z) of a vector in the local x-z plane", v);
}

/* Keys of each element type (after type, name, nodes); the bending ones are the beam's only. */
static const char *const TYPES[] = {"truss",
                                    "elastic_beam",
                                    "zero_length",
                                    "two_node_link",
                                    "force_beam_column",
                                    "disp_beam_column",
                                    "zero_length_section"};
static const char *const TYPE_KEYS[][15] = {
    {"E", "A", "transf", "axial_compression", "rho", "mass_type", NULL},
    {"E", "A", "I", "G", "J", "Iy", "Iz", "vecxz", "transf", "axial_compression", "rho",
     "mass_type", "release", "release_y", NULL},
    {"dir", "material", NULL},
    {"dirs", "materials", "orient", "yp", "shear_dist", "mass", "p_delta", "p_delta_rotation",
     NULL},
    {"section", "sections", "integration", "transf", "vecxz", "iterations", "mass", "mass_type",
     NULL},
    {"section", "sections", "integration", "transf", "vecxz", "iterations", "mass", "mass_type",
     NULL},
    {"section", "orient", NULL}};

/* A key of another element type is an error that names the type. */
static int foreign_keys(hs_tf *L, const hs_ynode *el, const char *what, int kind)
{
    for (size_t i = 0; i < el->n; i++) {
        const char *key = hs_ynode_key(el, i)->text;
        int own = strcmp(key, "type") == 0 || strcmp(key, "name") == 0 || strcmp(key, "nodes") == 0;
        for (int k = 0; !own && TYPE_KEYS[kind][k]; k++) own = strcmp(key, TYPE_KEYS[kind][k]) == 0;
        if (own) continue;
        static const char *const bending[] = {"I", "G", "J", "Iy", "Iz", "vecxz"};
        for (int k = 0; kind == 0 && k < 6; k++)
            if (strcmp(key, bending[k]) == 0)
                return hs_tf_fail(L, hs_ynode_value(el, i),
                                  "%s: a truss has no %s (use elastic_beam for bending)", what,
                                  key);
        return hs_tf_fail(L, hs_ynode_value(el, i), "%s: '%s' does not apply to a %s element", what,
                          key, TYPES[kind]);
    }
    return 0;
}

/* `mass_type: lumped | consistent` at `v` into *consistent. */
static int mass_type(hs_tf *L, const hs_ynode *v, const char *what, int *consistent)
{
    char s[16];
    int rc = hs_tf_str(L, v, what, s, sizeof s);
    if (rc) return rc;
    if (strcmp(s, "lumped") == 0 || strcmp(s, "consistent") == 0)
        return *consistent = s[0] == 'c', 0;
    return hs_tf_fail(L, v, "%s: expected lumped or consistent, got '%s'", what, s);
}

/* An element; cmass: the model's mass_type (1 consistent) for a truss or beam without one. */
static int element(hs_tf *L, hs_fe *fe, const hs_tf_section_table *secs, const hs_ynode *el,
                   size_t i, int cmass)
{
    static const char *const keys[] = {"type",
                                       "name",
                                       "nodes",
                                       "E",
                                       "A",
                                       "I",
                                       "G",
                                       "J",
                                       "Iy",
                                       "Iz",
                                       "vecxz",
                                       "transf",
                                       "axial_compression",
                                       "dir",
                                       "material",
                                       "dirs",
                                       "materials",
                                       "orient",
                                       "yp",
                                       "shear_dist",
                                       "p_delta",
                                       "p_delta_rotation",
                                       "mass",
                                       "rho",
                                       "mass_type",
                                       "section",
                                       "sections",
                                       "integration",
                                       "iterations",
                                       "release",
                                       "release_y"};
    const int ntypes = (int)(sizeof TYPES / sizeof TYPES[0]);
    char what[64], sub[128], type[32], name[32];
    const hs_ynode *v, *nn;
    hs_tf_index(what, sizeof what, "structure.model.elements", i);
    int rc = hs_tf_mapping(L, el, what, keys, sizeof keys / sizeof keys[0]);
    if (!rc) rc = hs_tf_required(L, el, "type", what, &v);
    if (!rc) rc = hs_tf_str(L, v, hs_tf_path(sub, sizeof sub, what, "type"), type, sizeof type);
    if (rc) return rc;
    int kind = -1;
    for (int k = 0; k < ntypes; k++)
        if (strcmp(type, TYPES[k]) == 0) kind = k;
    if (kind < 0) {
        const char *near = hs_suggest(type, TYPES, (size_t)ntypes);
        return hs_tf_fail(L, v,
                          "%s: unknown element type '%s'%s%s%s (known: truss, elastic_beam, "
                          "zero_length, two_node_link, force_beam_column, disp_beam_column, "
                          "zero_length_section)",
                          sub, type, near ? "; did you mean '" : "", near ? near : "",
                          near ? "'?" : "");
    }
    snprintf(name, sizeof name, "%.19s%u", TYPES[kind], (unsigned)(i + 1));
    if ((v = hs_ynode_get(el, "name")) != NULL &&
        (rc = hs_tf_str(L, v, hs_tf_path(sub, sizeof sub, what, "name"), name, sizeof name)))
        return rc;
    rc = hs_tf_required(L, el, "nodes", what, &nn);
    if (rc) return rc;
    if (nn->kind != HS_YNODE_SEQUENCE || nn->n != 2)
        return hs_tf_fail(L, nn, "%s.nodes: expected two node ids [i, j]", what);
    int ni, nj;
    rc = node_id(L, nn->items[0], hs_tf_index(sub, sizeof sub, "nodes", 0), &ni);
    if (!rc) rc = node_id(L, nn->items[1], hs_tf_index(sub, sizeof sub, "nodes", 1), &nj);
    if (!rc) rc = foreign_keys(L, el, what, kind);
    if (rc) return rc;
    if (kind == 3) return hs_tf_fe_link(L, fe, el, what, name, ni, nj);
    if (kind == 6) return hs_tf_fe_zero_length_section(L, fe, secs, el, what, name, ni, nj);
    const int is3d = hs_fe_ndm(fe) == 3;
    if (kind == 4 || kind == 5) { /* beam-columns with sections */
        hs_fe_transf t;
        double vecxz[3];
        if (!is3d && (v = hs_ynode_get(el, "vecxz")) != NULL)
            return hs_tf_fail(L, v, "%s: 'vecxz' is for 3-D beam-columns (ndm: 3)", what);
        rc = transf(L, el, what, &t);
        if (!rc && is3d) rc = vector3(L, el, what, vecxz);
        return rc ? rc
                  : hs_tf_fe_beam_column(L, fe, secs, el, what, name, ni, nj, kind == 4, (int)t,
                                         is3d ? vecxz : NULL);
    }
    static const char *const only3d[] = {"G", "J", "Iy", "Iz", "vecxz"};
    for (size_t k = 0; kind == 1 && k < 5; k++)
        if (!is3d && (v = hs_ynode_get(el, only3d[k])) != NULL)
            return hs_tf_fail(L, v, "%s: '%s' is for 3-D beams (ndm: 3); a 2-D beam takes E, A, I",
                              what, only3d[k]);
    if (kind == 1 && is3d && (v = hs_ynode_get(el, "I")) != NULL)
        return hs_tf_fail(L, v, "%s: a 3-D beam takes Iy and Iz (and G, J, vecxz), not I", what);
    if (kind == 2) {
        int dir;
        rc = hs_tf_required(L, el, "dir", what, &v);
        if (!rc) rc = hs_tf_fe_dof(L, fe, v, hs_tf_path(sub, sizeof sub, what, "dir"), &dir);
        if (!rc) rc = hs_tf_required(L, el, "material", what, &v);
        if (rc) return rc;
        const hs_tf_material *mat =
            hs_tf_find_material(L, v, hs_tf_path(sub, sizeof sub, what, "material"), &rc);
        if (!mat) return rc;
        rc = hs_fe_add_zero_length(fe, name, ni, nj, dir, mat->type, mat->opts);
        return rc < 0 ? hs_tf_wrap(L, el, what, rc) : 0;
    }
    double E = 0.0, A = 0.0, I = 0.0, P0 = 0.0, vecxz[3];
    hs_fe_section_3d sec = {0};
    hs_fe_transf t;
    rc = num_key(L, el, "E", what, 1, &E);
    if (!rc) rc = num_key(L, el, "A", what, 1, &A);
    if (!rc && kind == 1 && !is3d) rc = num_key(L, el, "I", what, 1, &I);
    if (!rc && kind == 1 && is3d) {
        rc = num_key(L, el, "G", what, 1, &sec.G);
        if (!rc) rc = num_key(L, el, "J", what, 1, &sec.J);
        if (!rc) rc = num_key(L, el, "Iy", what, 1, &sec.Iy);
        if (!rc) rc = num_key(L, el, "Iz", what, 1, &sec.Iz);
        if (!rc) rc = vector3(L, el, what, vecxz);
        sec.E = E;
        sec.A = A;
    }
    if (!rc) rc = num_key(L, el, "axial_compression", what, 0, &P0);
    if (!rc) rc = transf(L, el, what, &t);
    if (rc) return rc;
    double rho = 0.0;
    if (!rc) rc = num_key(L, el, "rho", what, 0, &rho);
    if (!rc && (v = hs_ynode_get(el, "mass_type")) != NULL)
        rc = mass_type(L, v, hs_tf_path(sub, sizeof sub, what, "mass_type"), &cmass);
    if (rc) return rc;
    const int e = kind == 0 ? hs_fe_add_truss(fe, name, ni, nj, E, A, t, P0)
                  : is3d    ? hs_fe_add_beam_3d(fe, name, ni, nj, &sec, vecxz, t, P0)
                            : hs_fe_add_beam(fe, name, ni, nj, E, A, I, t, P0);
    rc = e < 0 ? e : hs_fe_set_element_mass(fe, e, rho, cmass);
    if (rc) return hs_tf_wrap(L, el, what, rc);
    return kind == 1 ? hs_tf_fe_release(L, fe, el, what, e) : 0;
}

static int equal_dofs(hs_tf *L, hs_fe *fe, const hs_ynode *list)
{
    if (list->kind != HS_YNODE_SEQUENCE)
        return hs_tf_fail(L, list,
                          "structure.model.equal_dof: expected a list of {master, slave, dofs}");
    static const char *const keys[] = {"master", "slave", "dofs"};
    for (size_t i = 0; i < list->n; i++) {
        const hs_ynode *c = list->items[i], *mn, *sn, *dn;
        char what[64], sub[96], item[128];
        hs_tf_index(what, sizeof what, "structure.model.equal_dof", i);
        int master, slave, rc = hs_tf_mapping(L, c, what, keys, 3);
        if (!rc) rc = hs_tf_required(L, c, "master", what, &mn);
        if (!rc) rc = hs_tf_required(L, c, "slave", what, &sn);
        if (!rc) rc = hs_tf_required(L, c, "dofs", what, &dn);
        if (!rc) rc = node_id(L, mn, hs_tf_path(sub, sizeof sub, what, "master"), &master);
        if (!rc) rc = node_id(L, sn, hs_tf_path(sub, sizeof sub, what, "slave"), &slave);
        if (rc) return rc;
        hs_tf_path(sub, sizeof sub, what, "dofs");
        if (dn->kind != HS_YNODE_SEQUENCE || dn->n == 0 || dn->n > (size_t)hs_fe_ndf(fe))
            return hs_tf_fail(L, dn, "%s: expected a list of directions ([x], [x, y, rz])", sub);
        int dofs[6] = {0, 0, 0, 0, 0, 0};
        for (size_t k = 0; k < dn->n; k++) {
            int d;
            rc = hs_tf_fe_dof(L, fe, dn->items[k], hs_tf_index(item, sizeof item, sub, k), &d);
            if (rc) return rc;
            dofs[d] = 1;
        }
        rc = hs_fe_equal_dof(fe, master, slave, dofs);
        if (rc) return hs_tf_wrap(L, c, what, rc);
    }
    return 0;
}

static int rigid_diaphragms(hs_tf *L, hs_fe *fe, const hs_ynode *list)
{
    if (list->kind != HS_YNODE_SEQUENCE)
        return hs_tf_fail(L, list,
                          "structure.model.rigid_diaphragm: expected a list of {perp: x | y | z, "
                          "master, slaves: [...]}");
    static const char *const keys[] = {"perp", "master", "slaves"};
    for (size_t i = 0; i < list->n; i++) {
        const hs_ynode *c = list->items[i], *pn, *mn, *sn;
        char what[64], sub[96], item[128], p[4];
        hs_tf_index(what, sizeof what, "structure.model.rigid_diaphragm", i);
        int master, rc = hs_tf_mapping(L, c, what, keys, 3);
        if (!rc) rc = hs_tf_required(L, c, "perp", what, &pn);
        if (!rc) rc = hs_tf_required(L, c, "master", what, &mn);
        if (!rc) rc = hs_tf_required(L, c, "slaves", what, &sn);
        if (!rc) rc = hs_tf_str(L, pn, hs_tf_path(sub, sizeof sub, what, "perp"), p, sizeof p);
        if (rc) return rc;
        const int perp = strcmp(p, "x") == 0   ? 0
                         : strcmp(p, "y") == 0 ? 1
                         : strcmp(p, "z") == 0 ? 2
                                               : -1;
        if (perp < 0)
            return hs_tf_fail(L, pn, "%s: the perpendicular direction is x, y or z, got '%s'", sub,
                              p);
        rc = node_id(L, mn, hs_tf_path(sub, sizeof sub, what, "master"), &master);
        if (rc) return rc;
        hs_tf_path(sub, sizeof sub, what, "slaves");
        if (sn->kind != HS_YNODE_SEQUENCE || sn->n == 0 || sn->n > 10000)
            return hs_tf_fail(L, sn, "%s: expected a list of node ids", sub);
        int *slaves = hs_calloc(sn->n, sizeof(int));
        if (!slaves) return HS_ENOMEM;
        for (size_t k = 0; !rc && k < sn->n; k++)
            rc = node_id(L, sn->items[k], hs_tf_index(item, sizeof item, sub, k), &slaves[k]);
        if (!rc && (rc = hs_fe_rigid_diaphragm(fe, perp, master, slaves, (int)sn->n)) != 0)
            rc = hs_tf_wrap(L, c, what, rc);
        hs_free(slaves);
        if (rc) return rc;
    }
    return 0;
}

static int rigid_links(hs_tf *L, hs_fe *fe, const hs_ynode *list)
{
    if (list->kind != HS_YNODE_SEQUENCE)
        return hs_tf_fail(L, list,
                          "structure.model.rigid_link: expected a list of {type: beam | bar, "
                          "master, slave}");
    static const char *const keys[] = {"type", "master", "slave"};
    for (size_t i = 0; i < list->n; i++) {
        const hs_ynode *c = list->items[i], *tn, *mn, *sn;
        char what[64], sub[96], type[8];
        hs_tf_index(what, sizeof what, "structure.model.rigid_link", i);
        int master, slave, rc = hs_tf_mapping(L, c, what, keys, 3);
        if (!rc) rc = hs_tf_required(L, c, "type", what, &tn);
        if (!rc) rc = hs_tf_required(L, c, "master", what, &mn);
        if (!rc) rc = hs_tf_required(L, c, "slave", what, &sn);
        if (!rc)
            rc = hs_tf_str(L, tn, hs_tf_path(sub, sizeof sub, what, "type"), type, sizeof type);
        if (!rc && strcmp(type, "beam") != 0 && strcmp(type, "bar") != 0)
            rc = hs_tf_fail(L, tn, "%s: a rigid link is a beam or a bar, got '%s'", sub, type);
        if (!rc) rc = node_id(L, mn, hs_tf_path(sub, sizeof sub, what, "master"), &master);
        if (!rc) rc = node_id(L, sn, hs_tf_path(sub, sizeof sub, what, "slave"), &slave);
        if (rc) return rc;
        rc = hs_fe_rigid_link(fe, strcmp(type, "beam") == 0 ? HS_FE_RIGID_BEAM : HS_FE_RIGID_BAR,
                              master, slave);
        if (rc) return hs_tf_wrap(L, c, what, rc);
    }
    return 0;
}

/* ndm and ndf (OpenSees' defaults: ndf 1, 3, 6 for ndm 1, 2, 3). */
static int dimension(hs_tf *L, hs_fe *fe, const hs_ynode *node)
{
    const hs_ynode *v;
    long ndm = 2, ndf;
    int rc = 0;
    if ((v = hs_ynode_get(node, "ndm")) != NULL)
        rc = hs_tf_int(L, v, "structure.model.ndm", 1, 3, &ndm);
    ndf = ndm == 1 ? 1 : ndm == 2 ? 3 : 6;
    if (!rc && (v = hs_ynode_get(node, "ndf")) != NULL)
        rc = hs_tf_int(L, v, "structure.model.ndf", 1, 6, &ndf);
    if (!rc && (rc = hs_fe_set_dimension(fe, (int)ndm, (int)ndf)) != 0)
        rc = hs_tf_wrap(L, v ? v : node, "structure.model", rc);
    return rc;
}

int hs_tf_fe_model(hs_tf *L, const hs_ynode *node)
{
    static const char *const keys[] = {"ndm",       "ndf",        "nodes",           "elements",
                                       "equal_dof", "rigid_link", "rigid_diaphragm", "excitation",
                                       "opensees",  "mass_type",  "sections"};
    const char *what = "structure.model";
    const hs_ynode *nl, *el, *v;
    if (node->kind == HS_YNODE_MAPPING && hs_ynode_get(node, "opensees"))
        return hs_tf_opensees_model(L, node);
    int cmass = 0, rc = hs_tf_mapping(L, node, what, keys, 11);
    if (!rc && (v = hs_ynode_get(node, "mass_type")) != NULL)
        rc = mass_type(L, v, "structure.model.mass_type", &cmass);
    if (!rc) rc = hs_tf_required(L, node, "nodes", what, &nl);
    if (!rc) rc = hs_tf_required(L, node, "elements", what, &el);
    if (rc) return rc;
    hs_fe *fe = NULL;
    hs_tf_section_table secs = {0};
    rc = hs_fe_create(L->ctx, &fe);
    if (!rc) rc = dimension(L, fe, node);
    if (!rc) rc = nodes(L, fe, nl);
    if (!rc && (v = hs_ynode_get(node, "sections")) != NULL)
        rc = hs_tf_fe_sections(L, hs_fe_ndm(fe), v, &secs);
    if (!rc && (el->kind != HS_YNODE_SEQUENCE || el->n == 0))
        rc = hs_tf_fail(L, el,
                        "structure.model.elements: expected a list of {type: truss | "
                        "elastic_beam | zero_length | two_node_link | force_beam_column | "
                        "disp_beam_column | zero_length_section, nodes: [i, j], ...}");
    for (size_t i = 0; !rc && i < el->n; i++) rc = element(L, fe, &secs, el->items[i], i, cmass);
    hs_tf_fe_sections_free(&secs); /* the elements made their sections */
    if (!rc && (v = hs_ynode_get(node, "equal_dof")) != NULL) rc = equal_dofs(L, fe, v);
    if (!rc && (v = hs_ynode_get(node, "rigid_diaphragm")) != NULL) rc = rigid_diaphragms(L, fe, v);
    if (!rc && (v = hs_ynode_get(node, "rigid_link")) != NULL) rc = rigid_links(L, fe, v);
    int dir = HS_FE_UX;
    if (!rc && (v = hs_ynode_get(node, "excitation")) != NULL) {
        rc = hs_tf_fe_dof(L, fe, v, "structure.model.excitation", &dir);
        if (!rc && dir >= hs_fe_ndm(fe)) /* the translations come first */
            rc = hs_tf_fail(L, v, "structure.model.excitation: the ground moves in %s, not %s",
                            hs_fe_ndm(fe) == 1   ? "x"
                            : hs_fe_ndm(fe) == 2 ? "x or y"
                                                 : "x, y or z",
                            dof_key(fe, dir));
    }
    if (!rc) rc = hs_tf_keep_experimental_dofs(L, fe);
    if (!rc && (rc = hs_fe_finalize(fe)) != 0) rc = hs_tf_wrap(L, node, what, rc);
    if (rc) {
        hs_fe_destroy(&fe);
        return rc;
    }
    return hs_tf_fe_install(L, node, fe, dir);
}

int hs_tf_fe_install(hs_tf *L, const hs_ynode *node, hs_fe *fe, int dir)
{
    const char *what = "structure.model";
    int rc = 0;
    const int n = hs_fe_ndof(fe);
    if (!rc && n > HS_TF_MAX_FE_DOFS)
        rc = hs_tf_fail(L, node, "%s: %d dynamic DOFs; at most %d", what, n, HS_TF_MAX_FE_DOFS);
    double *mass = rc ? NULL : hs_dvec((size_t)n), *iota = rc ? NULL : hs_dvec((size_t)n);
    if (!rc && (!mass || !iota)) rc = HS_ENOMEM;
    if (!rc) {
        hs_fe_mass(fe, mass);
        hs_fe_influence(fe, dir, iota);
        rc = hs_model_create(L->ctx, n, &L->def->model);
    }
    if (!rc && hs_fe_kept_massless(fe) > 0) hs_model_allow_massless(L->def->model);
    if (!rc) rc = hs_model_set_mass(L->def->model, mass);
    if (!rc && !hs_fe_mass_is_lumped(fe)) { /* consistent mass, masses on rigid slaves */
        double *M = hs_dvec((size_t)n * (size_t)n);
        if (!M) rc = HS_ENOMEM;
        if (!rc) hs_fe_mass_matrix(fe, M);
        if (!rc) rc = hs_model_set_mass_matrix(L->def->model, M);
        hs_free(M);
    }
    if (!rc) rc = hs_model_set_influence(L->def->model, iota);
    hs_free(mass);
    hs_free(iota);
    if (!rc) {
        rc = hs_model_attach_fe(L->def->model, fe);
        fe = NULL;
    }
    hs_fe_destroy(&fe);
    return rc;
}

int hs_tf_control_point(hs_tf *L, const hs_ynode *cp, const hs_ynode *tn, const hs_ynode *acts,
                        const char *what, hs_exp_element_def *el)
{
    static const char *const keys[] = {"node", "dofs"};
    char sub[160], item[192];
    hs_tf_path(sub, sizeof sub, what, "control_point");
    const hs_fe *fe = hs_model_fe(L->def->model);
    if (!fe)
        return hs_tf_fail(L, cp,
                          "%s: a control point names a node of structure.model; this structure "
                          "has no frame model (use 'story' or 'dofs' with 'T')",
                          sub);
    const hs_ynode *nn, *dn;
    int id, rc = hs_tf_mapping(L, cp, sub, keys, 2);
    if (!rc) rc = hs_tf_required(L, cp, "node", sub, &nn);
    if (!rc) rc = hs_tf_required(L, cp, "dofs", sub, &dn);
    if (!rc) rc = node_id(L, nn, hs_tf_path(item, sizeof item, sub, "node"), &id);
    if (rc) return rc;
    hs_tf_path(sub, sizeof sub, what, "control_point.dofs");
    if (dn->kind != HS_YNODE_SEQUENCE || dn->n == 0 || dn->n > (size_t)hs_fe_ndf(fe))
        return hs_tf_fail(L, dn, "%s: expected a list of 1 to %d directions ([x], [x, y, rz])", sub,
                          hs_fe_ndf(fe));
    const int n = hs_model_ndof(L->def->model), na = el->nact, nd = (int)dn->n;
    int dofs[6];
    double *rows = hs_dvec((size_t)nd * (size_t)n); /* row k: control DOF k over the DOFs */
    if (!rows) return HS_ENOMEM;
    for (int k = 0; !rc && k < nd; k++) {
        int dir;
        const hs_ynode *dk = dn->items[k];
        rc = hs_tf_fe_dof(L, fe, dk, hs_tf_index(item, sizeof item, sub, (size_t)k), &dir);
        if (rc) break;
        dofs[k] = hs_fe_dof(fe, id, dir);
        if (dofs[k] == HS_FE_CONSTRAINED) /* a rigid slave: T from the geometry */
            dofs[k] = hs_fe_dof_row(fe, id, dir, &rows[(size_t)k * (size_t)n]) == 0
                          ? HS_FE_CONSTRAINED
                          : HS_FE_CONDENSED;
        else if (dofs[k] >= 0)
            rows[(size_t)k * (size_t)n + (size_t)dofs[k]] = 1.0;
        if (dofs[k] == HS_FE_NO_NODE)
            rc = hs_tf_fail(L, nn, "%s.node: no node %d in structure.model.nodes", what, id);
        else if (dofs[k] == HS_FE_FIXED)
            rc = hs_tf_fail(L, dk, "%s: node %d %s is fixed", item, id, dof_key(fe, dir));
        else if (dofs[k] == HS_FE_CONDENSED)
            rc = hs_tf_fail(L, dk,
                            "%s: node %d %s carries no mass (it is condensed out); give it (or "
                            "the master it follows) a mass to attach an experimental element",
                            item, id, dof_key(fe, dir));
        for (int j = 0; !rc && j < k; j++)
            if (dofs[j] == dofs[k] && dofs[k] != HS_FE_CONSTRAINED)
                rc = hs_tf_fail(L, dk, "%s: the DOF is listed twice", item);
    }
    if (rc) {
        hs_free(rows);
        return rc;
    }
    double Tr[HS_SITE_MAX_ACT * 6];
    if (tn) {
        rc = hs_tf_matrix(L, tn, hs_tf_path(item, sizeof item, what, "T"), (size_t)na, (size_t)nd,
                          "actuator", "DOF of control_point.dofs", Tr, NULL, NULL);
    } else if (na != nd) {
        rc = hs_tf_fail(L, acts,
                        "%s: %d actuators for %d control-point DOFs; give T (one row per "
                        "actuator, one column per DOF) or one actuator per DOF",
                        what, na, nd);
    } else {
        for (int r = 0; r < na; r++)
            for (int k = 0; k < nd; k++) Tr[r * nd + k] = r == k ? 1.0 : 0.0;
    }
    if (!rc && !(el->T = hs_dvec((size_t)na * (size_t)n))) rc = HS_ENOMEM;
    for (int r = 0; !rc && r < na; r++) /* T = Tr rows */
        for (int k = 0; k < nd; k++)
            for (int j = 0; j < n; j++) {
                const double t = rows[(size_t)k * (size_t)n + (size_t)j];
                if (t != 0.0) el->T[(size_t)j * (size_t)na + (size_t)r] += Tr[r * nd + k] * t;
            }
    hs_free(rows);
    return rc;
}
