/* Adaptive inverse compensation (Chen and Ricles 2009c; Chen & Ricles 2010, eq. 1-3):
 *   x_c(k) = a(k) x_t(k) - (a(k) - 1) x_t(k-1),   a(k) = clamp(a_es + delta_a(k), a_min, a_max)
 *   delta_a(k) = kp TI(k) + ki J(k),   J(k) = J(k-1) + TI(k) h   (int_0^t TI dt, t in seconds)
 * TI (eq. 3) is accumulated online from the desired command x_t and the measured displacement
 * x_m: ti_lag = 0 pairs x_t(k) with x_m(k) (eq. 3 as written: the adaptation seeks zero lag);
 * ti_lag = 1 pairs x_t(k-1) with x_m(k) (it seeks Gc Gp = 1/z, i.e. a_es = a for the model).
 * Anti-windup: while a(k) sits on a clamp, J is not integrated further in that direction. */
#include "compensator_impl.h"

#include "hysim/tracking.h"

#include <math.h>

const hs_param_spec hs_compensator_adaptive_inverse_params[] = {
    {"a_es", HS_PARAM_NUM, 0,
     "initial estimate of the delay constant, controller samples "
     "(default 1)"},
    {"kp", HS_PARAM_NUM, 1,
     "proportional gain, samples per length^2 (Chen & Ricles 2010: 0.4 in mm)"},
    {"ki", HS_PARAM_NUM, 0, "integral gain, samples per length^2 per second (default 0.1 kp)"},
    {"ti_lag", HS_PARAM_NUM, 0, "0: TI of x_t(k) against x_m(k) (default); 1: of x_t(k-1)"},
    {"a_min", HS_PARAM_NUM, 0, "lower clamp of a_es + delta_a (default 1)"},
    {"a_max", HS_PARAM_NUM, 0, "upper clamp of a_es + delta_a (default 0: none)"},
    {NULL, HS_PARAM_NUM, 0, NULL}};

enum { AD_J, AD_DA, AD_A, AD_XPREV, AD_NSTATE };

typedef struct {
    double a_es, kp, ki, a_min, a_max;
    int ti_lag;
    double s[AD_NSTATE]; /* state: J, delta_a, a(k), x_t(k-1) */
    hs_tracking *tr;     /* TI of (x_t, x_m), no series */
} adaptive_data;

static double adaptive_tick(hs_compensator *c, double x_desired, double x_measured)
{
    adaptive_data *d = c->data;
    double *s = d->s;
    hs_tracking_add(d->tr, d->ti_lag ? s[AD_XPREV] : x_desired, x_measured);
    const double ti = hs_tracking_ti(d->tr);
    double J = s[AD_J] + ti * c->h;
    double da = d->kp * ti + d->ki * J; /* eq. 2 */
    double a = d->a_es + da;
    if (a < d->a_min) {
        a = d->a_min;
        if (ti < 0.0) J = s[AD_J];
    } else if (d->a_max > 0.0 && a > d->a_max) {
        a = d->a_max;
        if (ti > 0.0) J = s[AD_J];
    }
    da = d->kp * ti + d->ki * J;
    s[AD_J] = J;
    s[AD_DA] = da;
    s[AD_A] = a;
    const double xc = hs_inverse_command(a, x_desired, s[AD_XPREV]); /* eq. 1 */
    s[AD_XPREV] = x_desired;
    return xc;
}

static double clamp_a(const adaptive_data *d, double a)
{
    if (a < d->a_min) return d->a_min;
    if (d->a_max > 0.0 && a > d->a_max) return d->a_max;
    return a;
}

static void adaptive_reset(hs_compensator *c, double x0)
{
    adaptive_data *d = c->data;
    d->s[AD_J] = d->s[AD_DA] = 0.0;
    d->s[AD_A] = clamp_a(d, d->a_es);
    d->s[AD_XPREV] = x0;
    hs_tracking_reset(d->tr);
}

static double adaptive_a_es(const hs_compensator *c)
{
    return ((const adaptive_data *)c->data)->s[AD_A];
}

static double adaptive_delta_a(const hs_compensator *c)
{
    return ((const adaptive_data *)c->data)->s[AD_DA];
}

static double adaptive_ti(const hs_compensator *c)
{
    return hs_tracking_ti(((const adaptive_data *)c->data)->tr);
}

static size_t adaptive_state_size(const hs_compensator *c)
{
    return AD_NSTATE + hs_tracking_state_size(((const adaptive_data *)c->data)->tr);
}

static int adaptive_state_save(const hs_compensator *c, double *out)
{
    const adaptive_data *d = c->data;
    for (int i = 0; i < AD_NSTATE; i++) out[i] = d->s[i];
    return hs_tracking_state_save(d->tr, out + AD_NSTATE);
}

static int adaptive_state_load(hs_compensator *c, const double *in)
{
    adaptive_data *d = c->data;
    int rc = hs_tracking_state_load(d->tr, in + AD_NSTATE);
    if (rc) return rc;
    for (int i = 0; i < AD_NSTATE; i++) d->s[i] = in[i];
    return 0;
}

static void adaptive_destroy(hs_compensator *c)
{
    adaptive_data *d = c->data;
    if (d) hs_tracking_destroy(&d->tr);
}

int hs_compensator_create_adaptive_inverse(hs_compensator *c, const hs_options *opts)
{
    const double kp = hs_options_num(opts, "kp", 0.0);
    const double ki = hs_options_num(opts, "ki", 0.1 * kp);
    const double a_es = hs_options_num(opts, "a_es", 1.0);
    const double a_min = hs_options_num(opts, "a_min", 1.0);
    const double a_max = hs_options_num(opts, "a_max", 0.0);
    const double lag = hs_options_num(opts, "ti_lag", 0.0);
    if (!isfinite(kp) || !isfinite(ki) || !isfinite(a_es) || !isfinite(a_min) || !isfinite(a_max))
        return hs_fail(c->ctx, HS_EINPUT,
                       "compensator adaptive_inverse: a_es, kp, ki, a_min, a_max must be finite");
    if (lag != 0.0 && lag != 1.0)
        return hs_fail(c->ctx, HS_EINPUT,
                       "compensator adaptive_inverse: ti_lag must be 0 or 1 (got %g)", lag);
    if (a_max > 0.0 && a_max < a_min)
        return hs_fail(c->ctx, HS_EINPUT,
                       "compensator adaptive_inverse: a_max (%g) below a_min (%g)", a_max, a_min);
    adaptive_data *d = hs_calloc(1, sizeof *d);
    if (!d) return hs_fail(c->ctx, HS_ENOMEM, "compensator adaptive_inverse: out of memory");
    c->data = d;
    c->ops.destroy = adaptive_destroy;
    d->a_es = a_es;
    d->kp = kp;
    d->ki = ki;
    d->a_min = a_min;
    d->a_max = a_max;
    d->ti_lag = (int)lag;
    int rc = hs_tracking_create(c->ctx, 0, 1, &d->tr);
    if (rc) return rc;
    c->ops.tick = adaptive_tick;
    c->ops.reset = adaptive_reset;
    c->ops.a_es = adaptive_a_es;
    c->ops.delta_a = adaptive_delta_a;
    c->ops.ti = adaptive_ti;
    c->ops.state_size = adaptive_state_size;
    c->ops.state_save = adaptive_state_save;
    c->ops.state_load = adaptive_state_load;
    return 0;
}
