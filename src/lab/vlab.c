/* The virtual laboratory: n_act actuators, their displacement sensors and load cells, and one
 * specimen, stepped together at the controller rate. In `perfect` mode the actuators follow the
 * command exactly, the sensors are exact and a relaxation wrapper is bypassed. A specimen that
 * moves its own actuator (rths_benchmark, control-structure interaction) gets the command through
 * a perfect actuator (its limits still apply), and its position is the true displacement. */
#include "specimen_impl.h"

#include <math.h>
#include <string.h>

struct hs_vlab {
    hs_ctx *ctx;
    int n, perfect;
    hs_actuator **act;
    hs_sensor **dsens, **fsens;
    hs_specimen *spec; /* lent; the innermost model in perfect mode */
    double *x_true, *f_true;
    double h, ticks;
    int flags;
};

void hs_vlab_destroy(hs_vlab **lab)
{
    if (!lab || !*lab) return;
    hs_vlab *l = *lab;
    for (int i = 0; i < l->n; i++) {
        if (l->act) hs_actuator_destroy(&l->act[i]);
        if (l->dsens) hs_sensor_destroy(&l->dsens[i]);
        if (l->fsens) hs_sensor_destroy(&l->fsens[i]);
    }
    hs_free(l->act);
    hs_free(l->dsens);
    hs_free(l->fsens);
    hs_free(l->x_true);
    hs_free(l->f_true);
    hs_free(l);
    *lab = NULL;
}

int hs_vlab_create(hs_ctx *ctx, const hs_vlab_params *p, hs_specimen *specimen, hs_vlab **out)
{
    if (!p || !specimen || !out || !p->actuator)
        return hs_fail(ctx, HS_EINVAL, "vlab: missing parameters or specimen");
    if (p->n_act < 1 || p->n_act != hs_specimen_n_act(specimen))
        return hs_fail(ctx, HS_EINPUT, "vlab: n_act %d does not match the specimen's %d channels",
                       p->n_act, hs_specimen_n_act(specimen));
    if (p->actuator_count != 1 && p->actuator_count != p->n_act)
        return hs_fail(ctx, HS_EINPUT, "vlab: %d actuator parameter sets for %d channels",
                       p->actuator_count, p->n_act);
    const double rate = p->actuator[0].rate;
    for (int i = 0; i < p->actuator_count; i++)
        if (p->actuator[i].rate != rate)
            return hs_fail(ctx, HS_EINPUT,
                           "vlab: actuator %d runs at %g Hz, actuator 0 at %g Hz: one controller "
                           "rate per lab",
                           i, p->actuator[i].rate, rate);
    hs_vlab *l = hs_calloc(1, sizeof *l);
    if (!l) return hs_fail(ctx, HS_ENOMEM, "vlab: out of memory");
    const size_t n = (size_t)p->n_act;
    l->ctx = ctx;
    l->n = p->n_act;
    l->perfect = p->perfect;
    l->act = hs_calloc(n, sizeof *l->act);
    l->dsens = hs_calloc(n, sizeof *l->dsens);
    l->fsens = hs_calloc(n, sizeof *l->fsens);
    l->x_true = hs_dvec(n);
    l->f_true = hs_dvec(n);
    if (!l->act || !l->dsens || !l->fsens || !l->x_true || !l->f_true) {
        hs_vlab_destroy(&l);
        return hs_fail(ctx, HS_ENOMEM, "vlab: out of memory");
    }
    const hs_sensor_params exact = {0.0, 0, 0.0};
    int rc = 0;
    for (int i = 0; i < l->n && !rc; i++) {
        hs_actuator_params ap = p->actuator[p->actuator_count == 1 ? 0 : i];
        /* a specimen that moves its own actuator gets the command as it is, within the limits */
        if (l->perfect || hs_specimen_actuator_position(specimen)) ap.perfect = 1;
        rc = hs_actuator_create(ctx, &ap, &l->act[i]);
        if (!rc)
            rc = hs_sensor_create(ctx, l->perfect ? &exact : &p->displacement, p->seed,
                                  (uint64_t)(2 * i + 1), &l->dsens[i]);
        if (!rc)
            rc = hs_sensor_create(ctx, l->perfect ? &exact : &p->force, p->seed,
                                  (uint64_t)(2 * i + 2), &l->fsens[i]);
    }
    if (rc) {
        hs_vlab_destroy(&l);
        return rc;
    }
    l->spec = specimen;
    if (l->perfect)
        while (hs_specimen_inner(l->spec)) l->spec = hs_specimen_inner(l->spec);
    l->h = 1.0 / rate;
    *out = l;
    return 0;
}

int hs_vlab_tick(hs_vlab *l, const double *x_cmd, double *x_meas, double *f_meas)
{
    for (int i = 0; i < l->n; i++) {
        l->flags |= hs_actuator_tick(l->act[i], x_cmd[i]);
        l->x_true[i] = hs_actuator_position(l->act[i]);
    }
    const double t = (l->ticks + 1.0) * l->h;
    int rc = hs_specimen_set_trial(l->spec, t, l->x_true);
    if (!rc) rc = hs_specimen_commit(l->spec);
    if (rc) return rc;
    l->ticks += 1.0;
    const double *f = hs_specimen_force(l->spec);
    const double *moved = hs_specimen_actuator_position(l->spec); /* CSI: the plant's position */
    for (int i = 0; i < l->n; i++) {
        if (moved) l->x_true[i] = moved[i];
        l->f_true[i] = f[i];
        l->flags |= hs_actuator_check_force(l->act[i], f[i]);
        x_meas[i] = hs_sensor_measure(l->dsens[i], l->x_true[i]);
        f_meas[i] = hs_sensor_measure(l->fsens[i], f[i]);
    }
    return 0;
}

const double *hs_vlab_true_displacement(const hs_vlab *l)
{
    return l->x_true;
}
const double *hs_vlab_true_force(const hs_vlab *l)
{
    return l->f_true;
}
int hs_vlab_flags(const hs_vlab *l)
{
    return l->flags;
}
double hs_vlab_time(const hs_vlab *l)
{
    return l->ticks * l->h;
}
hs_actuator *hs_vlab_actuator(hs_vlab *l, int channel)
{
    return channel >= 0 && channel < l->n ? l->act[channel] : NULL;
}

/* layout: ticks, flags, x_true[n], f_true[n] (the last tick's true values, exactly), per channel
 * (actuator, displacement sensor, load cell), specimen */
size_t hs_vlab_state_size(const hs_vlab *l)
{
    size_t k = 2 + 2 * (size_t)l->n + hs_specimen_state_size(l->spec);
    for (int i = 0; i < l->n; i++)
        k += hs_actuator_state_size(l->act[i]) + hs_sensor_state_size(l->dsens[i]) +
             hs_sensor_state_size(l->fsens[i]);
    return k;
}

int hs_vlab_state_save(const hs_vlab *l, double *out)
{
    const size_t n = (size_t)l->n;
    *out++ = l->ticks;
    *out++ = (double)l->flags;
    memcpy(out, l->x_true, n * sizeof(double));
    memcpy(out + n, l->f_true, n * sizeof(double));
    out += 2 * n;
    for (int i = 0; i < l->n; i++) {
        hs_actuator_state_save(l->act[i], out);
        out += hs_actuator_state_size(l->act[i]);
        hs_sensor_state_save(l->dsens[i], out);
        out += hs_sensor_state_size(l->dsens[i]);
        hs_sensor_state_save(l->fsens[i], out);
        out += hs_sensor_state_size(l->fsens[i]);
    }
    return hs_specimen_state_save(l->spec, out);
}

int hs_vlab_state_load(hs_vlab *l, const double *in)
{
    const size_t n = (size_t)l->n;
    if (!(in[0] >= 0.0 && in[0] == floor(in[0]) && in[1] >= 0.0 && in[1] == floor(in[1]) &&
          in[1] < 2147483648.0))
        return hs_fail(l->ctx, HS_EINPUT, "vlab: the saved state holds a bad tick count or flags");
    l->ticks = *in++;
    l->flags = (int)*in++;
    memcpy(l->x_true, in, n * sizeof(double));
    memcpy(l->f_true, in + n, n * sizeof(double));
    in += 2 * n;
    for (int i = 0; i < l->n; i++) {
        int rc = hs_actuator_state_load(l->act[i], in);
        if (rc) return rc;
        in += hs_actuator_state_size(l->act[i]);
        hs_sensor_state_load(l->dsens[i], in);
        in += hs_sensor_state_size(l->dsens[i]);
        hs_sensor_state_load(l->fsens[i], in);
        in += hs_sensor_state_size(l->fsens[i]);
    }
    return hs_specimen_state_load(l->spec, in);
}
