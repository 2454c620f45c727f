/* A site's laboratory from its configuration: specimen, compensators, virtual lab, controller
 * (see site_build.h). Everything allocates here, at setup; nothing here runs in a tick. */
#include "site_build.h"

#include <string.h>

int hs_site_rig_create(hs_ctx *ctx, const hs_site_config *c, double rate, hs_site_rig *r)
{
    int rc = hs_specimen_create(ctx, c->specimen_type, c->nact, c->specimen_opts, &r->inner);
    if (rc) return hs_fail(ctx, rc, "site %s: specimen: %s", c->name, hs_ctx_message(ctx));
    for (int j = 0; c->has_voltage && j < c->nact; j++) {
        rc = hs_specimen_set_input(r->inner, j, c->voltage[j]);
        if (rc)
            return hs_fail(ctx, rc, "site %s: specimen %s takes no voltage", c->name,
                           c->specimen_type);
    }
    if (c->relaxation_opts && !c->perfect) {
        rc = hs_specimen_create_relaxation(ctx, r->inner, c->relaxation_opts, &r->relax);
        if (rc) return rc;
    }
    for (int j = 0; c->compensation_opts && !c->perfect && j < c->nact; j++) {
        const char *type = hs_options_str(c->compensation_opts, "type", "none");
        if (strcmp(type, "plugin") == 0) /* a site file's plug-in (testfile_controller.c) */
            rc = hs_compensator_plugin_create(ctx, hs_options_str(c->compensation_opts, "path", ""),
                                              hs_options_str(c->compensation_opts, "options", ""),
                                              j, rate, &r->comp[j]);
        else
            rc = hs_compensator_create(ctx, type, c->compensation_opts, rate, &r->comp[j]);
        if (rc) return hs_fail(ctx, rc, "site %s: compensation: %s", c->name, hs_ctx_message(ctx));
    }
    return 0;
}

/* With a setup the laboratory's channels are the setup's actuators; the controller then drives
 * the control DOFs through hs_lab_setup_create (docs/setups.md). */
static int rig_lab_channels(hs_ctx *ctx, const hs_site_config *c, double rate, hs_site_rig *r);

int hs_site_rig_lab(hs_ctx *ctx, const hs_site_config *c, double rate, hs_site_rig *r)
{
    hs_lab_destroy(&r->io);
    hs_vlab_destroy(&r->lab);
    hs_specimen_destroy(&r->through);
    if (!c->has_setup) return rig_lab_channels(ctx, c, rate, r);
    if (!r->setup) {
        const int rc = hs_setup_create(ctx, &c->setup, &r->setup);
        if (rc) return hs_fail(ctx, rc, "site %s: setup: %s", c->name, hs_ctx_message(ctx));
    }
    int rc = rig_lab_channels(ctx, c, rate, r);
    if (rc) return rc;
    hs_lab *inner = r->io;
    r->io = NULL;
    rc = hs_lab_setup_create(ctx, inner, r->setup, c->setup_limits, &r->io);
    if (rc) {
        hs_lab_destroy(&inner);
        return hs_fail(ctx, rc, "site %s: setup: %s", c->name, hs_ctx_message(ctx));
    }
    return 0;
}

static int rig_lab_channels(hs_ctx *ctx, const hs_site_config *c, double rate, hs_site_rig *r)
{
    const int nlab = c->has_setup ? c->setup.nact : c->nact;
    if (strcmp(c->lab.kind, "udp") == 0) {
        const int rc = hs_lab_udp_create(ctx, &c->lab.udp, nlab, rate, &r->io);
        return rc ? hs_fail(ctx, rc, "site %s: lab: %s", c->name, hs_ctx_message(ctx)) : 0;
    }
    if (strcmp(c->lab.kind, "driver") == 0) {
        const int rc = hs_lab_driver_create(ctx, c->lab.driver.path, c->lab.driver.options, nlab,
                                            rate, &r->io);
        return rc ? hs_fail(ctx, rc, "site %s: lab: %s", c->name, hs_ctx_message(ctx)) : 0;
    }
    if (strcmp(c->lab.kind, "shm") == 0) {
        const int rc = hs_lab_shm_create(ctx, &c->lab.shm, nlab, rate, &r->io);
        return rc ? hs_fail(ctx, rc, "site %s: lab: %s", c->name, hs_ctx_message(ctx)) : 0;
    }
    hs_specimen *spec = r->relax ? r->relax : r->inner;
    if (c->has_setup) {
        const int rc = hs_specimen_create_setup(ctx, spec, r->setup, &r->through);
        if (rc) return hs_fail(ctx, rc, "site %s: %s", c->name, hs_ctx_message(ctx));
        spec = r->through;
    }
    hs_actuator_params act[HS_SITE_MAX_ACT];
    for (int j = 0; j < nlab; j++) {
        act[j] = c->has_setup ? c->setup_actuator[j] : c->actuator[j];
        act[j].rate = rate;
    }
    hs_vlab_params p = {.n_act = nlab,
                        .perfect = c->perfect,
                        .seed = c->seed,
                        .actuator = act,
                        .actuator_count = nlab,
                        .displacement = c->displacement,
                        .force = c->force};
    int rc = hs_vlab_create(ctx, &p, spec, &r->lab);
    if (!rc) rc = hs_lab_virtual(ctx, r->lab, &r->io);
    return rc ? hs_fail(ctx, rc, "site %s: %s", c->name, hs_ctx_message(ctx)) : 0;
}

int hs_site_can_unload(const hs_site_config *c)
{
    const double *mass = NULL;
    return hs_options_list(c->command_opts, "mass", &mass) == (size_t)(c->nact * c->nact) && mass;
}

const char *hs_site_ended_why(const hs_site_config *c)
{
    return hs_site_can_unload(c)
               ? "hold timeout, then free vibration: the specimen was unloaded"
               : "hold timeout: the test ended in place with the specimen still loaded (without "
                 "command.mass the site cannot unload it)";
}

/* The command generator's parameters from the site's `command` options. */
static void cmdgen_params(const hs_site_config *c, double rate, double dt, double time_scale,
                          const double *K0, hs_cmdgen_params *p)
{
    const hs_options *o = c->command_opts;
    *p = hs_cmdgen_params_default();
    p->nact = c->nact;
    p->rate = rate;
    p->dt = dt;
    p->time_scale = time_scale;
    p->order = (int)hs_options_num(o, "order", p->order);
    p->extrapolate_limit = hs_options_num(o, "extrapolate_limit", p->extrapolate_limit);
    p->slow_limit = hs_options_num(o, "slow_limit", p->slow_limit);
    p->slow_factor = hs_options_num(o, "slow_factor", p->slow_factor);
    p->blend = hs_options_num(o, "blend", p->blend);
    p->hold_timeout = hs_options_num(o, "hold_timeout", p->hold_timeout);
    p->zeta = hs_options_num(o, "zeta", p->zeta);
    p->fv_dt = hs_options_num(o, "fv_dt", p->fv_dt);
    p->v_tol = hs_options_num(o, "v_tol", p->v_tol);
    p->f_tol = hs_options_num(o, "f_tol", p->f_tol);
    p->rel_tol = hs_options_num(o, "rel_tol", p->rel_tol);
    p->quiet_time = hs_options_num(o, "quiet_time", p->quiet_time);
    p->stop_time = hs_options_num(o, "stop_time", p->stop_time);
    p->fv_max_time = hs_options_num(o, "fv_max_time", p->fv_max_time);
    const double *mass = NULL;
    const size_t nm = hs_options_list(o, "mass", &mass);
    if (mass && nm == (size_t)(c->nact * c->nact)) {
        p->mass = mass; /* given row by row; symmetric, so the layout does not matter */
        p->stiffness = K0;
    }
}

int hs_site_rig_controller(hs_ctx *ctx, const hs_site_config *c, hs_site_rig *r, double rate,
                           double dt, double time_scale, int stepwise, hs_site_controller **out)
{
    double K0[HS_SITE_MAX_ACT * HS_SITE_MAX_ACT];
    const int have_k = hs_specimen_initial_stiffness(r->inner, K0) == 0;
    hs_site_controller_params p = hs_site_controller_params_default();
    cmdgen_params(c, rate, dt, time_scale, have_k ? K0 : NULL, &p.gen);
    p.gen.stepwise = stepwise;
    hs_site_limits limits[HS_SITE_MAX_ACT];
    for (int j = 0; j < c->nact; j++)
        limits[j] = (hs_site_limits){.disp = c->actuator[j].stroke,
                                     .vel = c->actuator[j].velocity_max,
                                     .force = c->actuator[j].force_max,
                                     .acc = c->acceleration_limit[j],
                                     .step = c->step_limit[j]};
    p.limits = limits;
    p.stiffness = have_k ? K0 : NULL;
    p.compensator = r->comp;
    const hs_options *o = c->command_opts;
    p.target_delay = (int)hs_options_num(o, "target_delay", 0.0);
    p.converter_interval = hs_options_num(o, "converter_interval", 0.0);
    p.converter_limit = hs_options_num(o, "converter_limit", 0.0);
    p.unload = (hs_site_unload_params){.after = hs_options_num(o, "unload_after", 0.0),
                                       .vel = hs_options_num(o, "unload_velocity", 0.0),
                                       .acc = hs_options_num(o, "unload_acceleration", 0.0),
                                       .force_tol = hs_options_num(o, "unload_force", 0.0)};
    const int rc = hs_site_controller_create_lab(ctx, &p, r->io, out);
    return rc ? hs_fail(ctx, rc, "site %s: %s", c->name, hs_ctx_message(ctx)) : 0;
}

void hs_site_rig_release(hs_site_rig *r)
{
    hs_lab_destroy(&r->io);
    hs_vlab_destroy(&r->lab);
    for (int j = 0; j < HS_SITE_MAX_ACT; j++) hs_compensator_destroy(&r->comp[j]);
    hs_specimen_destroy(&r->through);
    hs_specimen_destroy(&r->relax);
    hs_specimen_destroy(&r->inner);
    hs_setup_destroy(&r->setup);
}

size_t hs_site_rig_state_size(const hs_site_rig *r, const hs_site_controller *sc,
                              hs_tracking *const *track, int nact)
{
    size_t k = (r->lab ? hs_vlab_state_size(r->lab) : 0) + hs_site_controller_state_size(sc);
    for (int j = 0; j < nact; j++)
        k += (r->comp[j] ? hs_compensator_state_size(r->comp[j]) : 0) +
             hs_tracking_state_size(track[j]);
    return k;
}

int hs_site_rig_state_save(const hs_site_rig *r, const hs_site_controller *sc,
                           hs_tracking *const *track, int nact, double *out)
{
    int rc = r->lab ? hs_vlab_state_save(r->lab, out) : 0;
    out += r->lab ? hs_vlab_state_size(r->lab) : 0;
    if (!rc) rc = hs_site_controller_state_save(sc, out);
    out += hs_site_controller_state_size(sc);
    for (int j = 0; !rc && j < nact; j++) {
        if (r->comp[j]) {
            rc = hs_compensator_state_save(r->comp[j], out);
            out += hs_compensator_state_size(r->comp[j]);
        }
        if (!rc) rc = hs_tracking_state_save(track[j], out);
        out += hs_tracking_state_size(track[j]);
    }
    return rc;
}

int hs_site_rig_state_load(hs_site_rig *r, hs_site_controller *sc, hs_tracking *const *track,
                           int nact, const double *in)
{
    int rc = r->lab ? hs_vlab_state_load(r->lab, in) : 0;
    in += r->lab ? hs_vlab_state_size(r->lab) : 0;
    if (!rc) rc = hs_site_controller_state_load(sc, in);
    in += hs_site_controller_state_size(sc);
    for (int j = 0; !rc && j < nact; j++) {
        if (r->comp[j]) {
            rc = hs_compensator_state_load(r->comp[j], in);
            in += hs_compensator_state_size(r->comp[j]);
        }
        if (!rc) rc = hs_tracking_state_load(track[j], in);
        in += hs_tracking_state_size(track[j]);
    }
    return rc;
}
