/* Implicit Newmark (beta, gamma; average acceleration by default) with Newton on the numerical
 * restoring force. The lab is commanded d(n) + dt v(n) + dt^2/2 a(n) (Mosqueda & Ahmadizadeh 2008b,
 * eq. 3.5); the equation uses the measurement linearised about it. See implicit_core.c and
 * docs/integrators.md.
 */
#include "implicit_core.h"

const hs_param_spec hs_newmark_params[] = {
    {"beta", HS_PARAM_NUM, 0, "Newmark beta (default 0.25; 1/6 = linear acceleration)"},
    {"gamma", HS_PARAM_NUM, 0, "Newmark gamma (default 0.5)"},
    {"tol", HS_PARAM_NUM, 0, "Newton tolerance, relative (default 1e-10)"},
    {"max_iter", HS_PARAM_NUM, 0, "Newton iterations per step (default 20)"},
    {"tangent", HS_PARAM_STR, 0,
     "Newton matrix: current (full Newton, default) | initial (factored once) | every N (steps)"},
    {"update", HS_PARAM_STR, 0,
     "sparse Newton: woodbury (the factor kept while the tangent changes on few DOFs, default) | "
     "refactor (every iteration)"},
    {"update_dofs", HS_PARAM_NUM, 0,
     "woodbury: the DOFs on which the tangent may differ from the factored one (default 64)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

static int newmark_setup(hs_integrator *it)
{
    return hs_implicit_setup(it, it->data);
}
static int newmark_predict(hs_integrator *it, hs_step_io *io)
{
    return hs_implicit_predict(it, it->data, io);
}
static int newmark_correct(hs_integrator *it, hs_step_io *io)
{
    return hs_implicit_correct(it, it->data, io);
}

static void newmark_destroy(hs_integrator *it)
{
    if (!it->data) return;
    hs_implicit_free(it->data);
    hs_free(it->data);
    it->data = NULL;
}

int hs_integrator_create_newmark(hs_integrator *it, const hs_options *opts)
{
    hs_implicit *s = hs_calloc(1, sizeof *s);
    if (!s) return HS_ENOMEM;
    it->data = s;
    it->ops.setup = newmark_setup;
    it->ops.sparse = 1;
    it->ops.sparse_exp = 1; /* Kes (initial) in Newton's matrix: a Woodbury update */
    it->ops.predict = newmark_predict;
    it->ops.correct = newmark_correct;
    it->ops.destroy = newmark_destroy;
    const int rc = hs_implicit_init(it, s, opts, 0.0, hs_options_num(opts, "beta", 0.25),
                                    hs_options_num(opts, "gamma", 0.5));
    return rc ? rc : hs_implicit_tangent_option(it, s, opts);
}
