/* os_tangent: operator splitting with the estimated experimental tangent stiffness (Mosqueda &
 * Ahmadizadeh 2008b section 5), in the HHT-alpha form of Mosqueda & Ahmadizadeh 2008b, eq. 3.3-3.4
 * (alpha in [-1/3, 0]). predictor (commanded):  d~ = d(n) + dt v(n) + dt^2/2 a(n) (eq. 3.5)
 *   tangent:                K_l updated from the measured increments                (eq. 5.2-5.9)
 *   corrector:              d(n+1) = d~ + beta dt^2 (a(n+1) - a(n))                 (eq. 3.6)
 *                           r^l = r~^l + K_l (T d(n+1) - x~^m), r = T^T r^l          (eq. 5.1)
 *   equilibrium:            eq. 3.4 (with Me), Newton on the numerical part only.
 * Without io->exp it is hht (an experimental force, if any, linearised about d~ with dyn->Ke). */
#include "hybrid_core.h"

const hs_param_spec hs_os_tangent_params[] = {
    {"alpha", HS_PARAM_NUM, 0, "numerical dissipation, in [-1/3, 0] (default -0.05)"},
    {"tol", HS_PARAM_NUM, 0, "Newton tolerance on the numerical part, relative (default 1e-10)"},
    {"max_iter", HS_PARAM_NUM, 0, "Newton iterations per step (default 20)"},
    {"threshold", HS_PARAM_NUM, 0,
     "displacement increment that updates the tangent (default: from the noise RMS, Mosqueda & "
     "Ahmadizadeh 2008b "
     "eq. 5.9)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

static int ost_setup(hs_integrator *it)
{
    return hs_hybrid_setup(it, it->data);
}

static int ost_predict(hs_integrator *it, hs_step_io *io)
{
    hs_hybrid *h = it->data;
    return hs_implicit_predict(it, &h->core, io);
}

static int ost_correct(hs_integrator *it, hs_step_io *io)
{
    hs_hybrid *h = it->data;
    if (!io->exp) return hs_implicit_correct(it, &h->core, io);
    int rc = hs_hybrid_size(it, h, io->exp);
    if (!rc) rc = hs_hybrid_observe(it, h, io->exp);
    if (rc < 0) return rc;
    io->stiffness_updated = rc;
    return hs_hybrid_os_correct(it, h, io);
}

static size_t ost_state_size(const hs_integrator *it)
{
    return hs_hybrid_state_size(it, it->data);
}
static int ost_state_save(const hs_integrator *it, double *out)
{
    return hs_hybrid_state_save(it, it->data, out);
}
static int ost_state_load(hs_integrator *it, const double *in)
{
    return hs_hybrid_state_load(it, it->data, in);
}

static int ost_tangent(const hs_integrator *it, double *Kl)
{
    return hs_hybrid_tangent(it->data, Kl);
}

static void ost_destroy(hs_integrator *it)
{
    if (!it->data) return;
    hs_hybrid_free(it->data);
    hs_free(it->data);
    it->data = NULL;
}

int hs_integrator_create_os_tangent(hs_integrator *it, const hs_options *opts)
{
    hs_hybrid *h = hs_calloc(1, sizeof *h);
    if (!h) return HS_ENOMEM;
    it->data = h;
    it->ops.setup = ost_setup;
    it->ops.predict = ost_predict;
    it->ops.correct = ost_correct;
    it->ops.destroy = ost_destroy;
    it->ops.state_size = ost_state_size;
    it->ops.state_save = ost_state_save;
    it->ops.state_load = ost_state_load;
    it->ops.experimental_stiffness = ost_tangent;
    return hs_hybrid_init(it, h, opts);
}
