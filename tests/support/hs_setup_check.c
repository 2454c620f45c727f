/* The checks every setup geometry passes (tests/support/hs_setup_check.h). */
#include "hs_setup_check.h"

#include "hs_test.h"

#include <math.h>
#include <string.h>

/* Deterministic pseudo-random numbers in [-1, 1]. */
static double uniform(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return ((double)((*seed >> 8) & 0xffffff) / (double)0xffffff) * 2.0 - 1.0;
}

/* Round trips, the force resultant from the actuators' force vectors, virtual work and the
 * inverse force map, at n random poses within +-umax and +-rmax. */
void hs_test_setup_check(const hs_setup_geometry *g, double umax, double rmax, int n)
{
    hs_setup *s = NULL;
    assert_int_equal(hs_setup_create(NULL, g, &s), 0);
    const int na = g->nact, nd = g->ndof;
    unsigned seed = 7u;
    double worst_trip = 0.0, worst_force = 0.0, worst_work = 0.0, worst_inverse = 0.0;
    for (int c = 0; c < n; c++) {
        double q[6], x[HS_SETUP_MAX_ACT], back[6] = {0};
        for (int k = 0; k < nd; k++) q[k] = uniform(&seed) * (g->dof[k] < 3 ? umax : rmax);
        hs_setup_strokes(s, q, x);
        assert_int_equal(hs_setup_pose(s, x, back), 0);
        for (int k = 0; k < nd; k++) worst_trip = fmax(worst_trip, fabs(back[k] - q[k]));
        /* resultant by hand: R p_i, the axis from base to pin, sum of forces and moments */
        double f[HS_SETUP_MAX_ACT], p[6], pose[6] = {0}, F[3] = {0}, M[3] = {0};
        for (int i = 0; i < na; i++) f[i] = 10.0 * uniform(&seed);
        hs_setup_forces(s, q, f, p);
        for (int k = 0; k < nd; k++) pose[g->dof[k]] = q[k];
        const double ca = cos(pose[3]), sa = sin(pose[3]), cb = cos(pose[4]), sb = sin(pose[4]);
        const double cg = cos(pose[5]), sg = sin(pose[5]);
        double R[3][3] = {{cg * cb, cg * sb * sa - sg * ca, cg * sb * ca + sg * sa},
                          {sg * cb, sg * sb * sa + cg * ca, sg * sb * ca - cg * sa},
                          {-sb, cb * sa, cb * ca}};
        const double t = sqrt(pose[3] * pose[3] + pose[4] * pose[4] + pose[5] * pose[5]);
        if (g->rot_vector && t > 0.0) { /* the angle t about the axis e: Rodrigues */
            const double e[3] = {pose[3] / t, pose[4] / t, pose[5] / t}, ct = cos(t), st = sin(t);
            const double E[3][3] = {{0, -e[2], e[1]}, {e[2], 0, -e[0]}, {-e[1], e[0], 0}};
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++)
                    R[i][j] = (i == j ? ct : 0.0) + st * E[i][j] + (1.0 - ct) * e[i] * e[j];
        }
        for (int i = 0; i < na; i++) {
            double r[3], v[3];
            for (int j = 0; j < 3; j++)
                r[j] = g->nl_geom ? R[j][0] * g->pin[i][0] + R[j][1] * g->pin[i][1] +
                                        R[j][2] * g->pin[i][2]
                                  : g->pin[i][j];
            for (int j = 0; j < 3; j++)
                v[j] = g->nl_geom ? pose[j] + r[j] - g->base[i][j] : g->pin[i][j] - g->base[i][j];
            const double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            double fv[3];
            for (int j = 0; j < 3; j++) fv[j] = f[i] * v[j] / l;
            for (int j = 0; j < 3; j++) F[j] += fv[j];
            M[0] += r[1] * fv[2] - r[2] * fv[1];
            M[1] += r[2] * fv[0] - r[0] * fv[2];
            M[2] += r[0] * fv[1] - r[1] * fv[0];
        }
        for (int k = 0; k < nd; k++) {
            const int d = g->dof[k];
            worst_force = fmax(worst_force, fabs(p[k] - (d < 3 ? F[d] : M[d - 3])));
        }
        /* virtual work in 2-D (one rotation): p . dq = f . dx, dx from central differences */
        if (nd <= 3 && g->dof[nd - 1] != HS_POSE_RX && g->dof[nd - 1] != HS_POSE_RY) {
            for (int k = 0; k < nd; k++) {
                const double h = 1e-6;
                double qp[6], qm[6], xp[HS_SETUP_MAX_ACT], xm[HS_SETUP_MAX_ACT], w = 0.0;
                memcpy(qp, q, sizeof qp);
                memcpy(qm, q, sizeof qm);
                qp[k] += h;
                qm[k] -= h;
                hs_setup_strokes(s, qp, xp);
                hs_setup_strokes(s, qm, xm);
                for (int i = 0; i < na; i++) w += f[i] * (xp[i] - xm[i]) / (2 * h);
                worst_work = fmax(worst_work, fabs(w - p[k]) / (1.0 + fabs(p[k])));
            }
        }
        double fa[HS_SETUP_MAX_ACT], p2[6];
        assert_int_equal(hs_setup_actuator_forces(s, q, p, fa), 0);
        hs_setup_forces(s, q, fa, p2);
        for (int k = 0; k < nd; k++) worst_inverse = fmax(worst_inverse, fabs(p2[k] - p[k]));
    }
    print_message("    nact %d ndof %d nl %d: round trip %.2e, resultant %.2e, work %.2e, inverse "
                  "%.2e\n",
                  na, nd, g->nl_geom, worst_trip, worst_force, worst_work, worst_inverse);
    assert_true(worst_trip < 1e-12);
    assert_true(worst_force < 1e-12);
    assert_true(worst_work < 1e-7); /* central differences, h = 1e-6 */
    assert_true(worst_inverse < 1e-12);
    hs_setup_destroy(&s);
}

/* OpenFresco's FourActuators3d strokes (ESFourActuators3d.cpp transfTrialDisp, written from its
 * expressions): D = (ux, uy, phix, phiy), d = rotLocX D (both pairs turned by -phi), the tilt
 * R = A B C with alpha = atan(d3 / d2), beta = -sign(d2) |(d2, d3)|, A = Rz'(-alpha), B = the
 * rotation about x by beta, C = Rz'(alpha) (primes: OpenFresco's [c s; -s c]), the pins V (-a1,
 * 0, 0), (0, -a2, 0), (-a3, 0, h), (0, -a4, h) turned to R V, and actuator i's stroke the length
 * of (its base-to-pin vector) - Li; at d2 = 0, alpha = sign(d3) pi / 2 and beta = -|d3| (d3 = 0
 * too: OpenFresco's 0 / 0, a NaN stroke at no tilt). */
void hs_test_openfresco_four_actuators(const double L[4], const double a[4], double h, double phi,
                                       const double D[4], double x[4])
{
    const double ph = phi * (3.14159265358979323846 / 180.0), cp = cos(ph), sp = sin(ph);
    const double d[4] = {cp * D[0] + sp * D[1], -sp * D[0] + cp * D[1], cp * D[2] + sp * D[3],
                         -sp * D[2] + cp * D[3]};
    const double sg2 = d[2] > 0.0 ? 1.0 : -1.0, sg3 = d[3] > 0.0 ? 1.0 : -1.0;
    const double alpha = d[2] == 0.0 ? sg3 * 3.14159265358979323846 / 2.0 : atan(d[3] / d[2]);
    const double beta = d[2] == 0.0 ? -sg3 * d[3] : -sg2 * hypot(d[2], d[3]);
    const double ca = cos(alpha), sa = sin(alpha), cb = cos(beta), sb = sin(beta);
    const double A[3][3] = {{ca, -sa, 0}, {sa, ca, 0}, {0, 0, 1}}; /* gamma = -alpha */
    const double B[3][3] = {{1, 0, 0}, {0, cb, sb}, {0, -sb, cb}};
    const double C[3][3] = {{ca, sa, 0}, {-sa, ca, 0}, {0, 0, 1}};
    double AB[3][3], R[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            AB[i][j] = A[i][0] * B[0][j] + A[i][1] * B[1][j] + A[i][2] * B[2][j];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            R[i][j] = AB[i][0] * C[0][j] + AB[i][1] * C[1][j] + AB[i][2] * C[2][j];
    const double V[4][3] = {{-a[0], 0, 0}, {0, -a[1], 0}, {-a[2], 0, h}, {0, -a[3], h}};
    for (int i = 0; i < 4; i++) {
        double u3[3];
        for (int j = 0; j < 3; j++)
            u3[j] = R[j][0] * V[i][0] + R[j][1] * V[i][1] + R[j][2] * V[i][2];
        u3[0] += d[0];
        u3[1] += d[1];
        u3[i % 2] += L[i] + a[i];
        u3[2] -= i < 2 ? 0.0 : h;
        x[i] = sqrt(u3[0] * u3[0] + u3[1] * u3[1] + u3[2] * u3[2]) - L[i];
    }
}
