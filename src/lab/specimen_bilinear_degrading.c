/* Bilinear specimen with strength degradation after yield (the degraded columns of Mosqueda et al.
 * 2004), one uncoupled spring per actuator. Rate-independent plasticity with kinematic hardening:
 *   f = k (x - xp),  |f - q| <= fy_eff,  q = H xp,  H = b k / (1 - b)  (post-yield slope b k),
 * and one of two rules for the yield force fy_eff:
 *   "excursion":  the j-th plastic excursion (a run of yielding in one direction; a new one
 *                 starts when yielding resumes in the other direction) yields at
 *                 fy (1 - d)^(j - 1), floored at r_min fy. The side of the last excursion keeps
 *                 its level; the opposite side is already at the next level, so the yield surface
 *                 is [-fy_next, fy_last] (or mirrored) and is never crossed by a reduction.
 *   "cumulative": fy_eff = fy max(r_min, 1 - beta ep / uy), ep the accumulated plastic
 *                 deformation, uy = fy / k (isotropic softening, return map solved exactly). */
#include "specimen_impl.h"

#include <math.h>
#include <string.h>

const hs_param_spec hs_specimen_bilinear_degrading_params[] = {
    {"k", HS_PARAM_NUM, 1, "elastic stiffness (force/length)"},
    {"fy", HS_PARAM_NUM, 1, "initial yield force"},
    {"b", HS_PARAM_NUM, 0, "post-yield stiffness ratio, 0 <= b < 1 (0)"},
    {"rule", HS_PARAM_STR, 0, "\"excursion\" (default) or \"cumulative\""},
    {"d", HS_PARAM_NUM, 0, "excursion rule: yield force reduction per excursion (0.05)"},
    {"beta", HS_PARAM_NUM, 0,
     "cumulative rule: reduction of fy / fy0 per yield displacement of plastic deformation (0.02)"},
    {"r_min", HS_PARAM_NUM, 0, "floor of the yield force ratio fy_eff / fy (0.5)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

enum { BD_XP, BD_Q, BD_EP, BD_N, BD_DIR, BD_NSTATE };

typedef struct bdeg {
    double k, fy, b, H, d, beta, r_min;
    int cumulative;
    double *c, *tr; /* committed and trial states, BD_NSTATE per channel */
} bdeg;

static double excursion_level(const bdeg *m, double j)
{
    const double r = pow(1.0 - m->d, j - 1.0);
    return m->fy * (r > m->r_min ? r : m->r_min);
}

static int bd_set_trial(hs_specimen *s, double dt)
{
    (void)dt;
    bdeg *m = s->data;
    const double k = m->k, H = m->H;
    for (int i = 0; i < s->n; i++) {
        const double *c = m->c + i * BD_NSTATE;
        double *t = m->tr + i * BD_NSTATE;
        memcpy(t, c, BD_NSTATE * sizeof(double));
        const double xi = k * (s->x[i] - c[BD_XP]) - c[BD_Q];
        const double sg = xi >= 0.0 ? 1.0 : -1.0, axi = fabs(xi);
        double dg = 0.0;
        if (!m->cumulative) {
            const double n = c[BD_N];
            const double j = (n > 0.0 && sg == c[BD_DIR]) ? n : n + 1.0;
            const double phi = axi - excursion_level(m, j);
            if (phi > 0.0) {
                dg = phi / (k + H);
                t[BD_N] = j;
                t[BD_DIR] = sg;
            }
        } else {
            const double uy = m->fy / k, Hs = m->beta * k;
            const double ep_floor = m->beta > 0.0 ? (1.0 - m->r_min) * uy / m->beta : INFINITY;
            const double ep = c[BD_EP];
            const double fyc = ep >= ep_floor ? m->r_min * m->fy : m->fy - Hs * ep;
            const double phi = axi - fyc;
            if (phi > 0.0) {
                if (ep >= ep_floor) {
                    dg = phi / (k + H);
                } else {
                    dg = phi / (k + H - Hs);
                    if (ep + dg > ep_floor) dg = (axi - m->r_min * m->fy) / (k + H);
                }
            }
        }
        t[BD_XP] = c[BD_XP] + sg * dg;
        t[BD_Q] = c[BD_Q] + sg * H * dg;
        t[BD_EP] = c[BD_EP] + dg;
        s->force[i] = k * (s->x[i] - t[BD_XP]);
    }
    return 0;
}

static int bd_commit(hs_specimen *s)
{
    bdeg *m = s->data;
    memcpy(m->c, m->tr, (size_t)s->n * BD_NSTATE * sizeof(double));
    return 0;
}

static int bd_initial_stiffness(const hs_specimen *s, double *K)
{
    const bdeg *m = s->data;
    for (int j = 0; j < s->n; j++)
        for (int i = 0; i < s->n; i++) K[j * s->n + i] = i == j ? m->k : 0.0;
    return 0;
}

static size_t bd_state_size(const hs_specimen *s)
{
    return (size_t)s->n * BD_NSTATE;
}
static int bd_state_save(const hs_specimen *s, double *out)
{
    const bdeg *m = s->data;
    memcpy(out, m->c, (size_t)s->n * BD_NSTATE * sizeof(double));
    return 0;
}
static int bd_state_load(hs_specimen *s, const double *in)
{
    bdeg *m = s->data;
    memcpy(m->c, in, (size_t)s->n * BD_NSTATE * sizeof(double));
    return 0;
}

static void bd_destroy(hs_specimen *s)
{
    bdeg *m = s->data;
    if (!m) return;
    hs_free(m->c);
    hs_free(m->tr);
    hs_free(m);
}

int hs_specimen_create_bilinear_degrading(hs_specimen *s, const hs_options *o)
{
    bdeg *m = hs_calloc(1, sizeof *m);
    if (!m) return hs_fail(s->ctx, HS_ENOMEM, "specimen bilinear_degrading: out of memory");
    s->data = m;
    s->ops.set_trial = bd_set_trial;
    s->ops.commit = bd_commit;
    s->ops.initial_stiffness = bd_initial_stiffness;
    s->ops.state_size = bd_state_size;
    s->ops.state_save = bd_state_save;
    s->ops.state_load = bd_state_load;
    s->ops.destroy = bd_destroy;
    m->k = hs_options_num(o, "k", 0.0);
    m->fy = hs_options_num(o, "fy", 0.0);
    m->b = hs_options_num(o, "b", 0.0);
    m->d = hs_options_num(o, "d", 0.05);
    m->beta = hs_options_num(o, "beta", 0.02);
    m->r_min = hs_options_num(o, "r_min", 0.5);
    const char *rule = hs_options_str(o, "rule", "excursion");
    if (strcmp(rule, "excursion") && strcmp(rule, "cumulative"))
        return hs_fail(s->ctx, HS_EINPUT,
                       "specimen bilinear_degrading: rule must be \"excursion\" or "
                       "\"cumulative\" (got \"%s\")",
                       rule);
    m->cumulative = strcmp(rule, "cumulative") == 0;
    if (!(m->k > 0.0 && m->fy > 0.0 && m->b >= 0.0 && m->b < 1.0))
        return hs_fail(s->ctx, HS_EINPUT,
                       "specimen bilinear_degrading: need k > 0, fy > 0, 0 <= b < 1 (got %g, %g, "
                       "%g)",
                       m->k, m->fy, m->b);
    if (!(m->d >= 0.0 && m->d < 1.0 && m->r_min > 0.0 && m->r_min <= 1.0 && m->beta >= 0.0))
        return hs_fail(s->ctx, HS_EINPUT,
                       "specimen bilinear_degrading: need 0 <= d < 1, 0 < r_min <= 1, beta >= 0");
    m->H = m->b * m->k / (1.0 - m->b);
    if (m->cumulative && !(m->k + m->H - m->beta * m->k > 0.0))
        return hs_fail(s->ctx, HS_EINPUT,
                       "specimen bilinear_degrading: beta (1 - b) must be < 1 (got beta %g)",
                       m->beta);
    m->c = hs_dvec((size_t)s->n * BD_NSTATE);
    m->tr = hs_dvec((size_t)s->n * BD_NSTATE);
    if (!m->c || !m->tr)
        return hs_fail(s->ctx, HS_ENOMEM, "specimen bilinear_degrading: out of memory");
    return 0;
}
