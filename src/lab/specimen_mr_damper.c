/* Magneto-rheological damper, the modified Bouc-Wen model of Spencer, Dyke, Sain and Carlson
 * (1997), one damper per actuator channel:
 *   F = c1 ydot + k1 (x - x0)
 *   ydot = [alpha z + c0 xdot + k0 (x - y)] / (c0 + c1)
 *   zdot = -gamma |xdot - ydot| z |z|^(n-1) - beta (xdot - ydot) |z|^n + A (xdot - ydot)
 *   alpha = alpha_a + alpha_b u, c1 = c1a + c1b u, c0 = c0a + c0b u, udot = -eta (u - v)
 * Parameters in N, cm, s, V (the published 3 kN prototype by default); length_cm and force_N
 * convert the test's units (x_cm = length_cm x, F = F_N / force_N). `scale` multiplies c0a, c0b,
 * c1a, c1b, k0, k1, alpha_a, alpha_b: ydot and z are unchanged (numerator and denominator of ydot
 * scale alike), so the force history scales exactly by `scale` for the same motion.
 * Over a controller step the displacement is linear in time (constant xdot) and (y, z, u) are
 * integrated by RK4 with sub-steps. */
#include "specimen_impl.h"

#include <math.h>
#include <string.h>

const hs_param_spec hs_specimen_mr_damper_params[] = {
    {"c0a", HS_PARAM_NUM, 0, "N s/cm (21.0)"},
    {"c0b", HS_PARAM_NUM, 0, "N s/(cm V) (3.50)"},
    {"k0", HS_PARAM_NUM, 0, "N/cm (46.9)"},
    {"c1a", HS_PARAM_NUM, 0, "N s/cm (283)"},
    {"c1b", HS_PARAM_NUM, 0, "N s/(cm V) (2.95)"},
    {"k1", HS_PARAM_NUM, 0, "N/cm (5.00)"},
    {"x0", HS_PARAM_NUM, 0, "cm (14.3)"},
    {"alpha_a", HS_PARAM_NUM, 0, "N/cm (140)"},
    {"alpha_b", HS_PARAM_NUM, 0, "N/(cm V) (695)"},
    {"gamma", HS_PARAM_NUM, 0, "cm^-2 (363)"},
    {"beta", HS_PARAM_NUM, 0, "cm^-2 (363)"},
    {"A", HS_PARAM_NUM, 0, "(301)"},
    {"n", HS_PARAM_NUM, 0, "(2)"},
    {"eta", HS_PARAM_NUM, 0, "1/s (190)"},
    {"voltage", HS_PARAM_NUM, 0, "applied voltage v, all channels (0: passive-off)"},
    {"scale", HS_PARAM_NUM, 0, "force scale for larger dampers (1)"},
    {"length_cm", HS_PARAM_NUM, 0, "cm in one length unit of the test (1)"},
    {"force_N", HS_PARAM_NUM, 0, "N in one force unit of the test (1)"},
    {"substeps", HS_PARAM_NUM, 0, "RK4 sub-steps per trial; 0: from max_substep (0)"},
    {"max_substep", HS_PARAM_NUM, 0, "longest RK4 sub-step when substeps = 0, s (5e-5)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

enum { MR_Y, MR_Z, MR_U, MR_V, MR_NSTATE };

typedef struct mr {
    double c0a, c0b, k0, c1a, c1b, k1, x0, aa, ab, gamma, beta, A, n, eta;
    double length_cm, force_N, max_substep;
    int substeps;
    double *c, *tr; /* committed, trial: MR_NSTATE per channel */
} mr;

/* Derivatives of (y, z, u) at displacement x (cm), velocity xd (cm/s), applied voltage v. */
static void mr_rhs(const mr *m, double x, double xd, double v, const double *s, double *ds)
{
    const double u = s[2];
    const double alpha = m->aa + m->ab * u, c0 = m->c0a + m->c0b * u, c1 = m->c1a + m->c1b * u;
    const double z = s[1], az = fabs(z);
    const double yd = (alpha * z + c0 * xd + m->k0 * (x - s[0])) / (c0 + c1);
    const double dv = xd - yd;
    const double zn1 = m->n == 2.0 ? az : pow(az, m->n - 1.0);
    ds[0] = yd;
    ds[1] = -m->gamma * fabs(dv) * z * zn1 - m->beta * dv * zn1 * az + m->A * dv;
    ds[2] = -m->eta * (u - v);
}

static double mr_force(const mr *m, double x, double xd, const double *s)
{
    double ds[3];
    mr_rhs(m, x, xd, s[MR_V], s, ds);
    return (m->c1a + m->c1b * s[MR_U]) * ds[0] + m->k1 * (x - m->x0);
}

static int mr_set_trial(hs_specimen *s, double dt)
{
    mr *m = s->data;
    int nsub = m->substeps;
    if (nsub <= 0) {
        const double q = ceil(dt / m->max_substep);
        nsub = q < 1.0 ? 1 : (q > 1e6 ? 1000000 : (int)q);
    }
    const double h = dt / nsub;
    for (int i = 0; i < s->n; i++) {
        const double *c = m->c + i * MR_NSTATE;
        double *t = m->tr + i * MR_NSTATE;
        memcpy(t, c, MR_NSTATE * sizeof(double));
        const double xc = m->length_cm * s->x_c[i], x1 = m->length_cm * s->x[i];
        const double xd = dt > 0.0 ? (x1 - xc) / dt : 0.0;
        const double v = c[MR_V];
        if (dt > 0.0) {
            double st[3] = {c[MR_Y], c[MR_Z], c[MR_U]};
            for (int k = 0; k < nsub; k++) {
                const double x = xc + xd * (k * h);
                double k1[3], k2[3], k3[3], k4[3], w[3];
                mr_rhs(m, x, xd, v, st, k1);
                for (int j = 0; j < 3; j++) w[j] = st[j] + 0.5 * h * k1[j];
                mr_rhs(m, x + 0.5 * h * xd, xd, v, w, k2);
                for (int j = 0; j < 3; j++) w[j] = st[j] + 0.5 * h * k2[j];
                mr_rhs(m, x + 0.5 * h * xd, xd, v, w, k3);
                for (int j = 0; j < 3; j++) w[j] = st[j] + h * k3[j];
                mr_rhs(m, x + h * xd, xd, v, w, k4);
                for (int j = 0; j < 3; j++)
                    st[j] += h / 6.0 * (k1[j] + 2.0 * k2[j] + 2.0 * k3[j] + k4[j]);
            }
            if (!(isfinite(st[0]) && isfinite(st[1]) && isfinite(st[2])))
                return hs_fail(s->ctx, HS_EUNSTABLE,
                               "specimen mr_damper: channel %d at t = %g: the damper ODE "
                               "diverged (use more substeps)",
                               i, s->t);
            t[MR_Y] = st[0];
            t[MR_Z] = st[1];
            t[MR_U] = st[2];
        }
        s->force[i] = mr_force(m, x1, xd, t) / m->force_N;
    }
    return 0;
}

static int mr_commit(hs_specimen *s)
{
    mr *m = s->data;
    memcpy(m->c, m->tr, (size_t)s->n * MR_NSTATE * sizeof(double));
    return 0;
}

static int mr_set_input(hs_specimen *s, int channel, double value)
{
    mr *m = s->data;
    if (!(value >= 0.0))
        return hs_fail(s->ctx, HS_EINPUT, "specimen mr_damper: voltage must be >= 0 (got %g)",
                       value);
    m->c[channel * MR_NSTATE + MR_V] = value;
    m->tr[channel * MR_NSTATE + MR_V] = value;
    return 0;
}

static size_t mr_state_size(const hs_specimen *s)
{
    return (size_t)s->n * MR_NSTATE;
}
static int mr_state_save(const hs_specimen *s, double *out)
{
    const mr *m = s->data;
    memcpy(out, m->c, (size_t)s->n * MR_NSTATE * sizeof(double));
    return 0;
}
static int mr_state_load(hs_specimen *s, const double *in)
{
    mr *m = s->data;
    memcpy(m->c, in, (size_t)s->n * MR_NSTATE * sizeof(double));
    return 0;
}

static void mr_destroy(hs_specimen *s)
{
    mr *m = s->data;
    if (!m) return;
    hs_free(m->c);
    hs_free(m->tr);
    hs_free(m);
}

int hs_specimen_create_mr_damper(hs_specimen *s, const hs_options *o)
{
    mr *m = hs_calloc(1, sizeof *m);
    if (!m) return hs_fail(s->ctx, HS_ENOMEM, "specimen mr_damper: out of memory");
    s->data = m;
    s->ops.set_trial = mr_set_trial;
    s->ops.commit = mr_commit;
    s->ops.set_input = mr_set_input;
    s->ops.state_size = mr_state_size;
    s->ops.state_save = mr_state_save;
    s->ops.state_load = mr_state_load;
    s->ops.destroy = mr_destroy;
    const double scale = hs_options_num(o, "scale", 1.0);
    m->c0a = scale * hs_options_num(o, "c0a", 21.0);
    m->c0b = scale * hs_options_num(o, "c0b", 3.50);
    m->k0 = scale * hs_options_num(o, "k0", 46.9);
    m->c1a = scale * hs_options_num(o, "c1a", 283.0);
    m->c1b = scale * hs_options_num(o, "c1b", 2.95);
    m->k1 = scale * hs_options_num(o, "k1", 5.00);
    m->x0 = hs_options_num(o, "x0", 14.3);
    m->aa = scale * hs_options_num(o, "alpha_a", 140.0);
    m->ab = scale * hs_options_num(o, "alpha_b", 695.0);
    m->gamma = hs_options_num(o, "gamma", 363.0);
    m->beta = hs_options_num(o, "beta", 363.0);
    m->A = hs_options_num(o, "A", 301.0);
    m->n = hs_options_num(o, "n", 2.0);
    m->eta = hs_options_num(o, "eta", 190.0);
    m->length_cm = hs_options_num(o, "length_cm", 1.0);
    m->force_N = hs_options_num(o, "force_N", 1.0);
    m->max_substep = hs_options_num(o, "max_substep", 5e-5);
    const double ns = hs_options_num(o, "substeps", 0.0);
    const double v = hs_options_num(o, "voltage", 0.0);
    if (!(scale > 0.0 && m->length_cm > 0.0 && m->force_N > 0.0 && m->max_substep > 0.0))
        return hs_fail(s->ctx, HS_EINPUT,
                       "specimen mr_damper: scale, length_cm, force_N, max_substep must be > 0");
    if (!(ns >= 0.0 && ns <= 1e6 && ns == floor(ns)))
        return hs_fail(s->ctx, HS_EINPUT,
                       "specimen mr_damper: substeps must be a whole number >= 0 (got %g)", ns);
    m->substeps = (int)ns;
    if (!(m->c0a + m->c1a > 0.0 && m->n >= 1.0 && m->eta > 0.0 && v >= 0.0))
        return hs_fail(s->ctx, HS_EINPUT,
                       "specimen mr_damper: need c0a + c1a > 0, n >= 1, eta > 0, voltage >= 0");
    m->c = hs_dvec((size_t)s->n * MR_NSTATE);
    m->tr = hs_dvec((size_t)s->n * MR_NSTATE);
    if (!m->c || !m->tr) return hs_fail(s->ctx, HS_ENOMEM, "specimen mr_damper: out of memory");
    /* constant voltage from the start: the filtered command u starts settled at v */
    for (int i = 0; i < s->n; i++) {
        m->c[i * MR_NSTATE + MR_U] = v;
        m->c[i * MR_NSTATE + MR_V] = v;
    }
    return 0;
}
