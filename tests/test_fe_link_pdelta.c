/* The two-node link's P-Delta (OpenSees twoNodeLink -pDelta Mratios; hs_fe_link_def.p_delta)
 * against closed forms computed here, independently of src/fe:
 *  - a vertical isolator link (2-D, ndf 3: axial, shear and moment springs, shear distance s)
 *    with an axial force N = ka u_axial and a lateral offset delta: the local end forces are
 *    T_lb^T q plus the shear V = (1 - r_zi - r_zj) N delta / L (-V at i, +V at j) and the end
 *    moments r_zi N delta, r_zj N delta; the global forces of hs_fe_restore and the recorded
 *    local force equal them to 1e-12, and the end forces are in moment equilibrium in the
 *    deformed position (sum of end moments + L V_j - delta N_j = 0: the P-Delta moment N delta is
 *    carried whole, whatever the ratios);
 *  - the same in 3-D (ndf 6, six directions, shear distances along y and z, the four ratios):
 *    shears along local y and z, moments about z (+) and about y (-), equilibrium about both;
 *  - the tangent of hs_fe_restore against a central difference of the force (exact here: the
 *    force of elastic springs is quadratic in u), 2-D, 3-D and a 2-D ndf-2 link: it includes
 *    the change of N with the axial displacement, and it is nonsymmetric (both off-diagonals
 *    checked: d(moment)/d(lateral) = r N, d(lateral)/d(moment) = 0);
 *  - without the shear direction or the axial direction, no P-Delta force (as OpenSees); the
 *    model becomes nonlinear (hs_fe_is_linear);
 *  - an axial force at rest (steel02 sig_init = -P): the tangent at rest has the P-Delta
 *    stiffness (1 - r_zi - r_zj) N / L and r N, the initial stiffness K0 has none (OpenSees'
 *    getTangentStiff and getInitialStiff);
 *  - errors: a negative ratio, a pair summing above 1 (the message gives the ratios OpenSees
 *    would scale to), coincident nodes. */
#include "hs_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static hs_options *elastic(double k)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "k", k);
    return o;
}

typedef struct model {
    hs_ctx *ctx;
    hs_fe *fe;
    hs_options *o[6];
    int n, ndf, q[12]; /* q[i]: dynamic DOF of element DOF i (node i's ndf, then node j's) */
} model;

/* Two nodes with unit mass on every DOF (no condensation: r and K are the link's own) and a
 * link with directions 0 .. ndir-1 of stiffness k[d]. */
static void build(model *m, int ndm, int ndf, const double *xi, const double *xj, int ndir,
                  const int *dirs, const double *k, const double *ratios, double s, double sz)
{
    memset(m, 0, sizeof *m);
    hs_ctx_create(&m->ctx);
    assert_int_equal(hs_fe_create(m->ctx, &m->fe), 0);
    assert_int_equal(hs_fe_set_dimension(m->fe, ndm, ndf), 0);
    assert_true(hs_fe_add_node_crd(m->fe, 1, xi) >= 0);
    assert_true(hs_fe_add_node_crd(m->fe, 2, xj) >= 0);
    const double one[6] = {1, 1, 1, 1, 1, 1};
    assert_int_equal(hs_fe_add_mass(m->fe, 1, one), 0);
    assert_int_equal(hs_fe_add_mass(m->fe, 2, one), 0);
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    def.ndir = ndir;
    for (int d = 0; d < ndir; d++) {
        m->o[d] = elastic(k[d]);
        def.dirs[d] = dirs[d];
        def.mat_type[d] = "elastic";
        def.mat_opts[d] = m->o[d];
    }
    def.shear_dist = s;
    def.shear_dist_z = sz;
    if (ratios) {
        def.has_p_delta = 1;
        memcpy(def.p_delta, ratios, sizeof def.p_delta);
    }
    const int rc = hs_fe_add_link(m->fe, "iso", 1, 2, &def);
    if (rc < 0) fprintf(stderr, "%s\n", hs_ctx_message(m->ctx));
    assert_true(rc >= 0);
    assert_int_equal(hs_fe_finalize(m->fe), 0);
    m->ndf = ndf;
    m->n = hs_fe_ndof(m->fe);
    assert_int_equal(m->n, 2 * ndf);
    for (int i = 0; i < 2 * ndf; i++) m->q[i] = hs_fe_dof(m->fe, i < ndf ? 1 : 2, i % ndf);
}

static void destroy(model *m)
{
    for (int d = 0; d < 6; d++) hs_options_destroy(&m->o[d]);
    hs_fe_destroy(&m->fe);
    hs_ctx_destroy(&m->ctx);
}

/* Element force (element DOF order) at element displacements u; K (column-major, element DOF
 * order) when asked. */
static void force(model *m, const double *u, double *f, double *K)
{
    double d[12] = {0}, r[12] = {0}, Kt[144] = {0};
    const int n = m->n;
    for (int i = 0; i < n; i++) d[m->q[i]] = u[i];
    assert_int_equal(hs_fe_restore(m->fe, d, NULL, r, K ? Kt : NULL, NULL), 0);
    for (int i = 0; i < n; i++) f[i] = r[m->q[i]];
    if (K)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) K[j * n + i] = Kt[m->q[j] * n + m->q[i]];
}

/* The tangent against central differences of the force: the largest difference relative to
 * the largest entry; returns K for further checks. */
static void check_tangent(model *m, const double *u, double h, double *K)
{
    const int n = m->n;
    double f[12], fp[12], fm[12], up[12], kmax = 0.0, worst = 0.0;
    force(m, u, f, K);
    for (int i = 0; i < n * n; i++) kmax = fmax(kmax, fabs(K[i]));
    for (int j = 0; j < n; j++) {
        memcpy(up, u, (size_t)n * sizeof(double));
        up[j] = u[j] + h;
        force(m, up, fp, NULL);
        up[j] = u[j] - h;
        force(m, up, fm, NULL);
        for (int i = 0; i < n; i++) {
            const double fd = (fp[i] - fm[i]) / (2.0 * h), e = fabs(fd - K[j * n + i]);
            if (e > 1e-6 * kmax)
                fprintf(stderr, "K(%d,%d) = %.17g, central difference %.17g\n", i, j, K[j * n + i],
                        fd);
            worst = fmax(worst, e);
        }
    }
    printf("tangent against central differences: %.3g of the largest entry %.6g\n", worst / kmax,
           kmax);
    assert_true(worst <= 1e-6 * kmax);
    force(m, u, f, NULL); /* leave the state at u */
}

/* 2-D: a vertical link (x = +Y, y = z x x = -X), node i at the origin, length L. */
static void test_isolator_2d(void **state)
{
    (void)state;
    const double L = 2.0, s = 0.3, ka = 5e5, ks = 2e3, kr = 7e3, rzi = 0.2, rzj = 0.35;
    const double xi[2] = {0, 0}, xj[2] = {0, L}, k[3] = {ka, ks, kr};
    const double ratios[4] = {0, 0, rzi, rzj};
    const int dirs[3] = {0, 1, 2};
    model m;
    build(&m, 2, 3, xi, xj, 3, dirs, k, ratios, s, 0.5);
    assert_int_equal(hs_fe_is_linear(m.fe), 0);
    /* node j: lateral dx (global), axial shortening, a rotation; node i: a small motion too */
    const double u[6] = {0.004, -0.001, 0.002, 0.05, -0.03, 0.01};
    /* local: x' = uy, y' = -ux */
    const double ul[6] = {u[1], -u[0], u[2], u[4], -u[3], u[5]};
    const double ua = ul[3] - ul[0], delta = ul[4] - ul[1];
    const double ubs = delta - s * L * ul[2] - (1.0 - s) * L * ul[5], ubm = ul[5] - ul[2];
    const double N = ka * ua, qs = ks * ubs, qm = kr * ubm;
    assert_true(N < 0.0); /* compression: P-Delta softens */
    double pl[6] = {-N, -qs, -s * L * qs - qm, N, qs, -(1.0 - s) * L * qs + qm};
    const double V = (1.0 - rzi - rzj) * N * delta / L;
    pl[1] -= V, pl[4] += V, pl[2] += rzi * N * delta, pl[5] += rzj * N * delta;
    /* equilibrium in the deformed position: moments about node i */
    const double eq = pl[2] + pl[5] + (L + ua) * pl[4] - delta * pl[3];
    printf("2-D: N = %.6g, delta = %.6g, V_pdelta = %.6g, M_i = %.6g, M_j = %.6g; deformed "
           "moment sum %.3g (of N delta %.6g; ua V %.3g)\n",
           N, delta, V, rzi * N * delta, rzj * N * delta, eq, N * delta, ua * pl[4]);
    assert_true(fabs(eq - ua * pl[4]) <= 1e-12 * fabs(N * delta)); /* to first order */
    double f[6], fl[6];
    force(&m, u, f, NULL);
    const double gl[6] = {-pl[1], pl[0], pl[2], -pl[4], pl[3], pl[5]}; /* T_gl^T pl */
    double fmax_ = 0.0;
    for (int i = 0; i < 6; i++) fmax_ = fmax(fmax_, fabs(gl[i]));
    for (int i = 0; i < 6; i++) {
        if (fabs(f[i] - gl[i]) > 1e-12 * fmax_)
            fprintf(stderr, "f[%d] = %.17g, closed form %.17g\n", i, f[i], gl[i]);
        assert_true(fabs(f[i] - gl[i]) <= 1e-12 * fmax_);
    }
    assert_int_equal(hs_fe_commit(m.fe), 0);
    assert_int_equal(hs_fe_element_response(m.fe, 0, HS_FE_LOCAL_FORCE, fl), 0);
    for (int i = 0; i < 6; i++) assert_true(fabs(fl[i] - pl[i]) <= 1e-12 * fmax_);
    assert_int_equal(hs_fe_element_response(m.fe, 0, HS_FE_GLOBAL_FORCE, fl), 0);
    for (int i = 0; i < 6; i++) assert_true(fabs(fl[i] - gl[i]) <= 1e-12 * fmax_);
    double K[36];
    check_tangent(&m, u, 1e-6, K);
    /* nonsymmetric: the moment at j takes r_zj N per unit lateral motion of j (local y = -X);
     * the lateral force takes nothing from the rotation but through the shear spring */
    const double kmj_x = K[3 * 6 + 5], kx_mj = K[5 * 6 + 3];
    printf("2-D: dM_j/du_xj = %.9g (r_zj N (-1) + spring %.9g), du_xj/dM_j = %.9g\n", kmj_x,
           ks * (1.0 - s) * L, kx_mj);
    assert_true(fabs(kmj_x - (-rzj * N + ks * (1.0 - s) * L)) <= 1e-9 * fabs(rzj * N));
    assert_true(fabs(kx_mj - ks * (1.0 - s) * L) <= 1e-9 * fabs(rzj * N));
    /* the axial coupling: d(V_j)/d(u_axial) = (1 - r) ka delta / L, global: dF_xj/du_yj */
    const double kc = K[4 * 6 + 3], kc_closed = -(1.0 - rzi - rzj) * ka * delta / L;
    assert_true(fabs(kc - kc_closed) <= 1e-9 * fabs(kc_closed));
    destroy(&m);
}

/* 3-D: a vertical link (x = +Z; OpenSees' default y' = global Y: y = Y, z = -X), six
 * directions. */
static void test_isolator_3d(void **state)
{
    (void)state;
    const double L = 1.5, sy = 0.3, sz = 0.7, r[4] = {0.1, 0.25, 0.2, 0.3};
    const double k[6] = {8e5, 3e3, 4e3, 2e3, 9e3, 6e3};
    const double xi[3] = {0, 0, 0}, xj[3] = {0, 0, L};
    const int dirs[6] = {0, 1, 2, 3, 4, 5};
    model m;
    build(&m, 3, 6, xi, xj, 6, dirs, k, r, sy, sz);
    const double u[12] = {0.001, -0.002, 0.0005, 0.01,  0.02,  -0.01,
                          0.03,  0.02,   -0.002, 0.015, -0.02, 0.025};
    const double Rm[3][3] = {{0, 0, 1}, {0, 1, 0}, {-1, 0, 0}};
    double ul[12];
    for (int b = 0; b < 4; b++)
        for (int a = 0; a < 3; a++)
            ul[3 * b + a] = Rm[a][0] * u[3 * b] + Rm[a][1] * u[3 * b + 1] + Rm[a][2] * u[3 * b + 2];
    double ub[6], q[6];
    for (int d = 0; d < 6; d++) ub[d] = ul[6 + d] - ul[d];
    ub[1] += -sy * L * ul[5] - (1.0 - sy) * L * ul[11];
    ub[2] += sz * L * ul[4] + (1.0 - sz) * L * ul[10];
    for (int d = 0; d < 6; d++) q[d] = k[d] * ub[d];
    double pl[12] = {0};
    for (int d = 0; d < 6; d++) pl[d] -= q[d], pl[6 + d] += q[d];
    pl[5] -= sy * L * q[1], pl[11] -= (1.0 - sy) * L * q[1];
    pl[4] += sz * L * q[2], pl[10] += (1.0 - sz) * L * q[2];
    const double N = q[0], d1 = ul[7] - ul[1], d2 = ul[8] - ul[2];
    const double V1 = (1.0 - r[2] - r[3]) * N * d1 / L, V2 = (1.0 - r[0] - r[1]) * N * d2 / L;
    pl[1] -= V1, pl[7] += V1, pl[2] -= V2, pl[8] += V2;
    pl[5] += r[2] * N * d1, pl[11] += r[3] * N * d1;
    pl[4] -= r[0] * N * d2, pl[10] -= r[1] * N * d2;
    assert_true(N < 0.0 && fabs(N * d1) > 1.0 && fabs(N * d2) > 1.0);
    /* deformed equilibrium about local z and y at node i (to first order: without the axial
     * elongation's lever on the shears) */
    const double ua = ul[6] - ul[0];
    const double ez = pl[5] + pl[11] + (L + ua) * pl[7] - d1 * pl[6] - ua * pl[7];
    const double ey = pl[4] + pl[10] - (L + ua) * pl[8] + d2 * pl[6] + ua * pl[8];
    printf("3-D: N = %.6g, delta_y = %.6g, delta_z = %.6g; deformed moment sums about z %.3g, "
           "about y %.3g\n",
           N, d1, d2, ez, ey);
    assert_true(fabs(ez) <= 1e-12 * fabs(N * d1) && fabs(ey) <= 1e-12 * fabs(N * d2));
    double gl[12];
    for (int b = 0; b < 4; b++) /* T_gl^T: g = Rm^T l */
        for (int c = 0; c < 3; c++)
            gl[3 * b + c] =
                Rm[0][c] * pl[3 * b] + Rm[1][c] * pl[3 * b + 1] + Rm[2][c] * pl[3 * b + 2];
    double f[12], fl[12], fmax_ = 0.0;
    force(&m, u, f, NULL);
    for (int i = 0; i < 12; i++) fmax_ = fmax(fmax_, fabs(gl[i]));
    for (int i = 0; i < 12; i++) {
        if (fabs(f[i] - gl[i]) > 1e-12 * fmax_)
            fprintf(stderr, "f[%d] = %.17g, closed form %.17g\n", i, f[i], gl[i]);
        assert_true(fabs(f[i] - gl[i]) <= 1e-12 * fmax_);
    }
    assert_int_equal(hs_fe_commit(m.fe), 0);
    assert_int_equal(hs_fe_element_response(m.fe, 0, HS_FE_LOCAL_FORCE, fl), 0);
    for (int i = 0; i < 12; i++) assert_true(fabs(fl[i] - pl[i]) <= 1e-12 * fmax_);
    assert_int_equal(hs_fe_element_response(m.fe, 0, HS_FE_GLOBAL_FORCE, fl), 0);
    for (int i = 0; i < 12; i++) assert_true(fabs(fl[i] - gl[i]) <= 1e-12 * fmax_);
    double K[144];
    check_tangent(&m, u, 1e-6, K);
    /* nonsymmetric: global ry_j (local ry') against global ux_j (local z' = -X): the moment
     * about y takes -r_yj N d(delta_z)/du_x = r_yj N; the reverse term has the spring only */
    const double a = K[6 * 12 + 10], b = K[10 * 12 + 6];
    printf("3-D: dM_yj/du_xj = %.9g, dF_xj/dr_yj = %.9g (difference r_yj N = %.9g)\n", a, b,
           r[1] * N);
    assert_true(fabs((a - b) - r[1] * N) <= 1e-9 * fabs(r[1] * N));
    destroy(&m);
}

/* ndf 2 (OpenSees' 4-DOF link): the shear term alone; an axial-only or shear-only link has no
 * P-Delta force. */
static void test_truss_link_and_no_effect(void **state)
{
    (void)state;
    const double xi[2] = {0, 0}, xj[2] = {3, 4}, k[2] = {4e5, 1e3}, r[4] = {0, 0, 0.2, 0.3};
    const int dirs[2] = {0, 1};
    model m;
    build(&m, 2, 2, xi, xj, 2, dirs, k, r, 0.5, 0.5);
    const double u[4] = {0.01, -0.02, 0.05, 0.03};
    double K[16], f[4];
    check_tangent(&m, u, 1e-6, K);
    /* local x = (0.6, 0.8), y = (-0.8, 0.6) */
    const double ua = 0.6 * (u[2] - u[0]) + 0.8 * (u[3] - u[1]);
    const double delta = -0.8 * (u[2] - u[0]) + 0.6 * (u[3] - u[1]);
    const double N = k[0] * ua, Vj = k[1] * delta + (1.0 - 0.2 - 0.3) * N * delta / 5.0;
    force(&m, u, f, NULL);
    const double fxj = 0.6 * N - 0.8 * Vj, fyj = 0.8 * N + 0.6 * Vj;
    assert_true(fabs(f[2] - fxj) <= 1e-12 * fabs(N) && fabs(f[3] - fyj) <= 1e-12 * fabs(N));
    assert_true(fabs(f[0] + fxj) <= 1e-12 * fabs(N) && fabs(f[1] + fyj) <= 1e-12 * fabs(N));
    destroy(&m);
    /* without the shear direction (axial and moment only) or without the axial one: linear */
    const double xv[2] = {0, 2}, k3[2] = {4e5, 1e3};
    const int am[2] = {0, 2}, sm[2] = {1, 2};
    build(&m, 2, 3, xi, xv, 2, am, k3, r, 0.5, 0.5);
    assert_int_equal(hs_fe_is_linear(m.fe), 1);
    destroy(&m);
    build(&m, 2, 3, xi, xv, 2, sm, k3, r, 0.5, 0.5);
    assert_int_equal(hs_fe_is_linear(m.fe), 1);
    destroy(&m);
}

static void test_preload(void **state)
{
    (void)state;
    const double L = 1.2, P = 2000.0, ks = 6000.0, kr = 9000.0, rzi = 0.2, rzj = 0.3, s = 0.4;
    const double xi[2] = {0, 0}, xj[2] = {0, L}, k[3] = {0.0, ks, kr}, r[4] = {0, 0, rzi, rzj};
    const int dirs[3] = {0, 1, 2};
    model m;
    /* the axial direction: steel02, elastic (fy out of reach), initial stress -P */
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "fy", 1e12);
    hs_options_set_num(o, "E0", 8e5);
    hs_options_set_num(o, "b", 0.01);
    hs_options_set_num(o, "sig_init", -P);
    memset(&m, 0, sizeof m);
    hs_ctx_create(&m.ctx);
    assert_int_equal(hs_fe_create(m.ctx, &m.fe), 0);
    assert_int_equal(hs_fe_set_dimension(m.fe, 2, 3), 0);
    assert_true(hs_fe_add_node_crd(m.fe, 1, xi) >= 0);
    assert_true(hs_fe_add_node_crd(m.fe, 2, xj) >= 0);
    const double one[3] = {1, 1, 1};
    assert_int_equal(hs_fe_add_mass(m.fe, 1, one), 0);
    assert_int_equal(hs_fe_add_mass(m.fe, 2, one), 0);
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    def.ndir = 3;
    m.o[1] = elastic(k[1]);
    m.o[2] = elastic(k[2]);
    const char *types[3] = {"steel02", "elastic", "elastic"};
    hs_options *opts[3] = {o, m.o[1], m.o[2]};
    for (int d = 0; d < 3; d++) {
        def.dirs[d] = dirs[d];
        def.mat_type[d] = types[d];
        def.mat_opts[d] = opts[d];
    }
    def.shear_dist = s;
    def.has_p_delta = 1;
    memcpy(def.p_delta, r, sizeof def.p_delta);
    assert_true(hs_fe_add_link(m.fe, "iso", 1, 2, &def) >= 0);
    assert_int_equal(hs_fe_finalize(m.fe), 0);
    m.ndf = 3;
    m.n = 6;
    for (int i = 0; i < 6; i++) m.q[i] = hs_fe_dof(m.fe, i < 3 ? 1 : 2, i % 3);
    const double u0[6] = {0};
    double f[6], K[36], K0[36] = {0};
    force(&m, u0, f, K);
    for (int i = 0; i < 6; i++) { /* at rest: the axial preload only (+-P along Y) */
        const double e = i == 1 ? P : i == 4 ? -P : 0.0;
        assert_true(fabs(f[i] - e) <= 1e-9 * P);
    }
    /* lateral stiffness at node j (local y = -X): ks + (1 - r) N / L with N = -P */
    const double kxx = ks + (1.0 - rzi - rzj) * (-P) / L;
    printf("at rest: dF_xj/du_xj = %.9g (closed form %.9g), dM_j/du_xj = %.9g (%.9g)\n",
           K[3 * 6 + 3], kxx, K[3 * 6 + 5], ks * (1.0 - s) * L - rzj * (-P));
    assert_true(fabs(K[3 * 6 + 3] - kxx) <= 1e-9 * ks);
    assert_true(fabs(K[3 * 6 + 5] - (ks * (1.0 - s) * L - rzj * (-P))) <= 1e-9 * ks);
    double Kd[36] = {0};
    assert_int_equal(hs_fe_initial_stiffness(m.fe, Kd), 0);
    for (int j = 0; j < 6; j++)
        for (int i = 0; i < 6; i++) K0[j * 6 + i] = Kd[m.q[j] * 6 + m.q[i]];
    assert_true(fabs(K0[3 * 6 + 3] - ks) <= 1e-9 * ks);             /* no P-Delta */
    assert_true(fabs(K0[3 * 6 + 5] - K0[5 * 6 + 3]) <= 1e-12 * ks); /* symmetric */
    hs_options_destroy(&o);
    destroy(&m);
}

static void expect_error(const double *xj, const double r[4], const char *msg)
{
    hs_ctx *ctx = NULL;
    hs_fe *fe = NULL;
    hs_ctx_create(&ctx);
    assert_int_equal(hs_fe_create(ctx, &fe), 0);
    assert_int_equal(hs_fe_set_dimension(fe, 3, 6), 0);
    const double xi[3] = {0, 0, 0};
    assert_true(hs_fe_add_node_crd(fe, 1, xi) >= 0);
    assert_true(hs_fe_add_node_crd(fe, 2, xj) >= 0);
    hs_options *o = elastic(1e3);
    hs_fe_link_def def;
    hs_fe_link_def_init(&def);
    def.ndir = 2;
    def.dirs[0] = 0, def.dirs[1] = 1;
    def.mat_type[0] = def.mat_type[1] = "elastic";
    def.mat_opts[0] = def.mat_opts[1] = o;
    def.has_p_delta = 1;
    memcpy(def.p_delta, r, sizeof def.p_delta);
    assert_int_equal(hs_fe_add_link(fe, "bad", 1, 2, &def), HS_EINPUT);
    const char *got = hs_ctx_message(ctx);
    if (!strstr(got, msg)) fprintf(stderr, "got: %s\nexpected: %s\n", got, msg);
    assert_non_null(strstr(got, msg));
    hs_options_destroy(&o);
    hs_fe_destroy(&fe);
    hs_ctx_destroy(&ctx);
}

static void test_errors(void **state)
{
    (void)state;
    const double xj[3] = {0, 0, 2}, x0[3] = {0, 0, 0};
    const double neg[4] = {0.1, 0.2, -0.3, 0.1}, big[4] = {0.75, 0.5, 0.1, 0.1},
                 ok[4] = {0.1, 0.2, 0.3, 0.4};
    expect_error(xj, neg,
                 "element 'bad': P-Delta moment ratio 3 (Mz at node i) is -0.3; the ratios are "
                 "fractions of N delta, 0 to 1 (OpenSees would make a negative one positive with "
                 "a warning: write 0.3 if that is what you mean)");
    expect_error(xj, big,
                 "element 'bad': P-Delta moment ratios My at node i + My at node j = 0.75 + 0.5 "
                 "= 1.25 exceed 1 (the end moments would exceed N delta; OpenSees would scale "
                 "them down to 0.6 and 0.4 with a warning");
    expect_error(x0, ok, "element 'bad': P-Delta needs a link with length");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_isolator_2d),
        cmocka_unit_test(test_isolator_3d),
        cmocka_unit_test(test_truss_link_and_no_effect),
        cmocka_unit_test(test_preload),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
