/* The coordinator: one test from its definition to its results. The step loop:
 *   f(n+1) = -M iota ag(t(n+1));  predict -> d_cmd;  (sites: later issues);  correct;
 *   energy; record; checkpoint when due.  Nothing in the loop allocates or formats text; the
 *   one file I/O is a due checkpoint, written between steps (docs/checkpoints.md). */
#include "coordinator_impl.h"

#include "hysim/fe.h"
#include "hysim/linalg.h"
#include "hysim/results.h"

#include <math.h>
#include <string.h>
#include <time.h>

const char *hs_run_status_name(hs_run_status s)
{
    switch (s) {
    case HS_RUN_COMPLETED:
        return "completed";
    case HS_RUN_UNSTABLE:
        return "unstable";
    default:
        return "aborted";
    }
}

static double hs_coord_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* f = -M iota ag(t). With multi-support excitation the supports move to t (the restores of the
 * step to t see them there) and load the DOFs with -(M_fs a_s + C_fs v_s). */
static void hs_coord_force(hs_coordinator *c, double t, double *f)
{
    const double ag = c->def->gm ? hs_ground_motion_at(c->def->gm, t) : 0.0;
    for (int i = 0; i < c->n; i++) f[i] = -c->m_iota[i] * ag;
    if (c->supports) {
        hs_fe_support_set_time(c->supports, t);
        (void)hs_fe_support_load(c->supports, c->ray_a0, c->ray_a1, f); /* prepared */
    }
}

const char *hs_coordinator_multi_support_refusal(const char *integrator)
{
    const hs_integrator_entry *e = hs_integrator_registry_find(integrator);
    if (e && e->linear_only)
        return "it superposes the modes of K0 under the load and never sees the supports' "
               "displacement";
    if (e && strcmp(e->name, "kr_alpha") == 0)
        return "it evaluates the restoring force at t(n + alpha_f), where the supports are not "
               "placed (hysim moves them to t(n+1)): its error would be first order in dt";
    return NULL;
}

/* Multi-support excitation: the coupling to the supports, an integrator that sees them, and a
 * damping with a C_fs. */
static int hs_coord_supports(hs_coordinator *c)
{
    struct hs_fe *fe = hs_model_fe(c->model);
    if (!fe || hs_fe_support_count(fe) == 0) return 0;
    const char *why = hs_coordinator_multi_support_refusal(c->def->integrator);
    if (why)
        return hs_fail(c->ctx, HS_EINPUT,
                       "integrator %s cannot run a multi-support excitation: %s; use newmark, "
                       "hht, alpha_os, cr, ghaboussi_pc or another (docs/fe_model.md)",
                       c->def->integrator, why);
    if (hs_model_is_large(c->model))
        return hs_fail(c->ctx, HS_EUNSUPPORTED,
                       "multi-support excitation takes dense matrices (the supports' coupling), "
                       "and this model has %d DOFs (dense up to %d): use a uniform excitation",
                       c->n, HS_DENSE_MAX_DOFS);
    hs_model_damping_coefficients(c->model, &c->ray_a0, &c->ray_a1);
    const double *C = hs_model_damping(c->model);
    const size_t nn = (size_t)c->n * (size_t)c->n;
    for (size_t k = 0; c->ray_a0 == 0.0 && c->ray_a1 == 0.0 && k < nn; k++)
        if (C[k] != 0.0)
            return hs_fail(c->ctx, HS_EINPUT,
                           "multi-support excitation needs Rayleigh, stiffness-proportional or no "
                           "damping: the damping force of the moving supports is (a0 M_fs + a1 "
                           "K_fs) v_s, which modal damping does not define");
    int rc = hs_fe_support_prepare(fe);
    if (!rc) c->supports = fe;
    return rc;
}

/* Periods of the whole structure: numerical and experimental initial stiffness (K0) with M;
 * a large model's lowest HS_COORD_LARGE_MODES by ARPACK (its extra stiffness is the
 * experiment's), the rest NaN. */
static int hs_coord_periods(hs_coordinator *c)
{
    const size_t n = (size_t)c->n;
    int rc;
    c->nperiods = c->n;
    if (hs_model_is_large(c->model)) {
        c->nperiods = c->n - 1 < HS_COORD_LARGE_MODES ? c->n - 1 : HS_COORD_LARGE_MODES;
        for (size_t i = 0; i < n; i++) c->periods[i] = NAN;
        rc = hs_model_modes_lowest(c->model, c->nperiods, c->periods, NULL);
    } else {
        double *phi = hs_dvec(n * n);
        if (!phi) return HS_ENOMEM;
        rc = hs_sym_eig(c->ctx, c->n, c->K0, c->dyn.M, c->periods, phi);
        hs_free(phi);
        /* DOFs without mass (kept for experimental elements): omega = inf, no period */
        while (!rc && c->nperiods > 1 && isinf(c->periods[c->nperiods - 1])) c->nperiods--;
    }
    for (int i = 0; !rc && i < c->nperiods; i++) {
        if (!(c->periods[i] > 0.0))
            return hs_fail(c->ctx, HS_EINPUT,
                           "mode %d has omega^2 = %g: the structure (numerical and experimental "
                           "initial stiffness) is not restrained to the ground",
                           i + 1, c->periods[i]);
        c->periods[i] = 2.0 * HS_PI / sqrt(c->periods[i]);
    }
    return rc;
}

/* The frame's zero-length elements and two-node links (one column a direction), the first
 * HS_FE_SPRINGS_RECORDED: recorded beside the model's springs (docs/outputs.md). */
static int hs_coord_fe_springs(hs_coordinator *c)
{
    const struct hs_fe *fe = hs_model_fe(c->model);
    const int all = fe ? hs_fe_spring_columns(fe, 0, NULL, NULL) : 0;
    if (all == 0) return 0;
    c->nfe_springs = all < HS_FE_SPRINGS_RECORDED ? all : HS_FE_SPRINGS_RECORDED;
    c->fe_spring_el = hs_calloc((size_t)c->nfe_springs, sizeof(int));
    c->fe_spring_comp = hs_calloc((size_t)c->nfe_springs, sizeof(int));
    if (!c->fe_spring_el || !c->fe_spring_comp) return HS_ENOMEM;
    hs_fe_spring_columns(fe, c->nfe_springs, c->fe_spring_el, c->fe_spring_comp);
    return 0;
}

/* The frame's springs at the last commit into spring_def, spring_force after the model's. */
static void hs_coord_fe_springs_record(hs_coordinator *c)
{
    struct hs_fe *fe = hs_model_fe(c->model);
    double def[HS_FE_LINK_MAX_DIRS], force[HS_FE_LINK_MAX_DIRS];
    int last = -1;
    for (int k = 0; k < c->nfe_springs; k++) {
        const int e = c->fe_spring_el[k], j = c->fe_spring_comp[k];
        if (e != last) { /* one query an element: a link's directions follow each other */
            hs_fe_element_response(fe, e, HS_FE_DEFORMATION, def);
            hs_fe_element_response(fe, e, HS_FE_BASIC_FORCE, force);
            last = e;
        }
        c->spring_def[c->nsprings + k] = def[j];
        c->spring_force[c->nsprings + k] = force[j];
    }
}

static int hs_coord_alloc(hs_coordinator *c)
{
    const int nall = c->nsprings + c->nfe_springs;
    const size_t n = (size_t)c->n, ns = (size_t)(nall ? nall : 1);
    const int dense = !hs_model_is_large(c->model); /* large: the sparse form only */
    c->K0 = dense ? hs_dvec(n * n) : NULL;
    c->m_iota = hs_dvec(n);
    c->f0 = hs_dvec(n);
    c->f1 = hs_dvec(n);
    c->d_cmd = hs_dvec(n);
    c->d_prev = hs_dvec(n);
    c->v_prev = hs_dvec(n);
    c->a_prev = hs_dvec(n);
    c->periods = hs_dvec(n);
    c->spring_def = hs_dvec(ns);
    c->spring_force = hs_dvec(ns);
    return ((c->K0 || !dense) && c->m_iota && c->f0 && c->f1 && c->d_cmd && c->d_prev &&
            c->v_prev && c->a_prev && c->periods && c->spring_def && c->spring_force)
               ? 0
               : HS_ENOMEM;
}

static int hs_coord_record(hs_coordinator *c, double t)
{
    if (!c->results) return 0;
    for (int s = 0; s < c->nsprings; s++) {
        c->spring_def[s] = hs_model_spring_deformation(c->model, s);
        c->spring_force[s] = hs_model_spring_force(c->model, s);
    }
    hs_coord_fe_springs_record(c);
    const double ag = c->def->gm ? hs_ground_motion_at(c->def->gm, t) : 0.0;
    int rc = hs_results_record(c->results, t, ag, hs_integrator_displacement(c->it),
                               hs_integrator_velocity(c->it), hs_integrator_acceleration(c->it),
                               c->spring_def, c->spring_force, &c->energy.e);
    if (!rc) rc = hs_coord_recorders_record(c, ag);
    if (rc || !c->has_exp) return rc;
    /* the actuators: nothing commanded or measured at t = 0; the tangent when the integrator
     * estimates one */
    const int measured = c->steps_done > 0;
    const double *Kl = hs_integrator_experimental_stiffness(c->it, c->Kl) == 0 ? c->Kl : NULL;
    rc = hs_results_record_actuators(c->results, measured ? c->exp.x_cmd : NULL,
                                     measured ? c->exp.x_meas : NULL,
                                     measured ? c->exp.f_meas : NULL, Kl);
    if (rc) return rc;
    /* the site controllers of the step (nothing at t = 0) */
    return hs_results_record_sites(c->results, measured ? c->exp.site_states : NULL,
                                   measured ? c->exp.site_delay : NULL, measured ? c->exp.te : NULL,
                                   measured ? c->exp.ti : NULL);
}

/* "site.actuator" of every stacked actuator, in names[nact] over the buffer buf (nact x 96). */
static void hs_coord_actuator_names(const hs_coordinator *c, const char **names, char *buf)
{
    for (int i = 0; i < c->exp.nact; i++) {
        const hs_site_config *site = &c->def->sites[c->exp.act_site[i]];
        char *name = buf + (size_t)i * 96u;
        snprintf(name, 96, "%s.%s", site->name, site->actuator_names[c->exp.act_channel[i]]);
        names[i] = name;
    }
}

const char *hs_coordinator_dof_name(const hs_coordinator *c, int i, char *buf, size_t cap)
{
    return hs_model_dof_name(c->model, i, buf, cap);
}

/* The model's names of the n DOFs (hs_model_dof_name), in one block: the pointers, then the
 * texts (HS_COORD_DOF_NAME bytes each). One hs_free releases it. */
#define HS_COORD_DOF_NAME 32
static char **hs_coord_dof_names(const hs_coordinator *c)
{
    const size_t n = (size_t)c->n;
    char **names = hs_malloc(n * (sizeof(char *) + HS_COORD_DOF_NAME));
    if (!names) return NULL;
    char *text = (char *)(names + n);
    for (size_t i = 0; i < n; i++) {
        names[i] = text + i * HS_COORD_DOF_NAME;
        hs_model_dof_name(c->model, (int)i, names[i], HS_COORD_DOF_NAME);
    }
    return names;
}

/* The frame's springs' names into names[nfe_springs] over buf (48 bytes each): a zero-length
 * element's name, a link's name and direction ("link1_uy"). */
static void hs_coord_fe_spring_names(const hs_coordinator *c, const char **names, char *buf)
{
    const struct hs_fe *fe = hs_model_fe(c->model);
    for (int k = 0; k < c->nfe_springs; k++) {
        const int e = c->fe_spring_el[k], dir = hs_fe_link_direction(fe, e, c->fe_spring_comp[k]);
        char *name = buf + (size_t)k * 48u;
        if (dir < 0)
            snprintf(name, 48, "%s", hs_fe_element_name(fe, e));
        else
            snprintf(name, 48, "%s_%s", hs_fe_element_name(fe, e), hs_fe_dir_name(fe, dir));
        names[k] = name;
    }
}

static int hs_coord_results_create(hs_coordinator *c)
{
    const int nall = c->nsprings + c->nfe_springs;
    const char **springs = hs_calloc((size_t)(nall ? nall : 1), sizeof(char *));
    char *fe_names = hs_malloc((size_t)(c->nfe_springs ? c->nfe_springs : 1) * 48u);
    const char **groups = hs_calloc((size_t)(c->ngroups ? c->ngroups : 1), sizeof(char *));
    const size_t na = (size_t)(c->has_exp ? c->exp.nact : 0);
    const char **actuators = hs_calloc(na ? na : 1, sizeof(char *));
    char *names = hs_malloc((na ? na : 1) * 96u);
    const size_t ns = (size_t)(c->has_exp ? c->exp.nsites : 0);
    const char **sites = hs_calloc(ns ? ns : 1, sizeof(char *));
    double *limits = hs_dvec(2 * (ns ? ns : 1)); /* slow, then hold after (s) */
    if (na) c->Kl = hs_dvec(na * na);
    int rc = (!springs || !fe_names || !groups || !actuators || !names || !sites || !limits ||
              (na && !c->Kl))
                 ? HS_ENOMEM
                 : 0;
    if (!rc && na) hs_coord_actuator_names(c, actuators, names);
    hs_results_recorder *recorders = NULL;
    if (!rc) rc = hs_coord_recorders_init(c, &recorders);
    char **dofs = rc ? NULL : hs_coord_dof_names(c);
    if (!rc && !dofs) rc = HS_ENOMEM;
    for (size_t s = 0; !rc && s < ns; s++) {
        hs_site_summary ss;
        memset(&ss, 0, sizeof ss);
        const int known = hs_site_summary_get(c->exp.sites[s], &ss) == 0 && ss.hold_after > 0.0;
        sites[s] = hs_site_name(c->exp.sites[s]);
        limits[s] = known ? ss.slow_after : NAN;
        limits[ns + s] = known ? ss.hold_after : NAN;
    }
    if (!rc) {
        for (int s = 0; s < c->nsprings; s++) springs[s] = hs_model_spring_name(c->model, s);
        hs_coord_fe_spring_names(c, springs + c->nsprings, fe_names);
        for (int g = 0; g < c->ngroups; g++) groups[g] = hs_model_group_name(c->model, g);
        hs_results_layout layout = {.ndof = c->n,
                                    .dof_names = (const char *const *)dofs,
                                    .nsprings = nall,
                                    .ngroups = c->ngroups,
                                    .spring_names = springs,
                                    .group_names = groups,
                                    .capacity = c->def->steps + 1,
                                    .units_force = c->def->units_force,
                                    .units_length = c->def->units_length,
                                    .units_time = c->def->units_time,
                                    .nact = (int)na,
                                    .actuator_names = actuators,
                                    .nsites = (int)ns,
                                    .site_names = sites,
                                    .site_slow_after = limits,
                                    .site_hold_after = limits + ns,
                                    .nrecorders = c->def->nrecorders,
                                    .recorders = recorders};
        rc = hs_results_create(c->ctx, &layout, &c->results);
    }
    hs_free(springs);
    hs_free(fe_names);
    hs_free(groups);
    hs_free(actuators);
    hs_free(names);
    hs_free(sites);
    hs_free(limits);
    hs_free(recorders);
    hs_free(dofs);
    return rc;
}

int hs_coordinator_create(hs_ctx *ctx, hs_test_def *def, hs_coordinator **out)
{
    if (!def || !def->model || !out) return hs_fail(ctx, HS_EINVAL, "coordinator: no test");
    hs_coordinator *c = hs_calloc(1, sizeof *c);
    if (!c) return HS_ENOMEM;
    c->ctx = ctx;
    c->def = def;
    c->model = def->model;
    c->n = hs_model_ndof(def->model);
    c->nsprings = hs_model_spring_count(def->model);
    c->ngroups = hs_model_group_count(def->model);
    c->recording = 1;
    int rc = hs_coord_fe_springs(c);
    if (!rc) rc = hs_coord_alloc(c);
    if (!rc) rc = hs_model_dynamics(c->model, c->K0, &c->dyn);
    if (!rc && def->nexp > 0) {
        c->has_exp = 1;
        rc = hs_coord_exp_init(&c->exp, ctx, def, c->K0);
        c->dyn.Ke = c->exp.Ke;
        c->dyn.exp = &c->exp.view;
        if (!rc) /* a large frame: Ke also in compressed columns, for alpha_os, cr, newmark, hht */
            rc = hs_dynamics_add_experiment_sparse(ctx, &c->dyn, c->exp.nact, c->exp.T, c->exp.K0l,
                                                   NULL, &c->exp_csc);
        if (!rc && !(c->extra_json = hs_malloc(HS_EXTRA_JSON_MAX))) rc = HS_ENOMEM;
    }
    if (!rc) {
        /* M iota: a frame model's consistent mass is not diagonal (a large model's is) */
        const double *M = hs_model_mass_matrix(c->model), *iota = hs_model_influence(c->model);
        if (M)
            hs_matvec(c->n, M, iota, c->m_iota);
        else
            for (int i = 0; i < c->n; i++) c->m_iota[i] = hs_model_mass(c->model)[i] * iota[i];
        rc = hs_coord_periods(c);
    }
    if (!rc) rc = hs_integrator_create(ctx, def->integrator, def->integrator_opts, &c->it);
    if (!rc)
        rc = hs_integrator_set_initial_acceleration(
            c->it, (hs_initial_acceleration)def->initial_acceleration);
    if (!rc) rc = hs_coord_supports(c);
    if (!rc) {
        hs_coord_force(c, 0.0, c->f0);
        rc = hs_integrator_setup(c->it, &c->dyn, def->dt, NULL, NULL, c->f0);
    }
    if (!rc) rc = hs_energy_acc_init(&c->energy, c->model, c->dyn.M, c->dyn.C);
    if (!rc && !c->dyn.M) hs_energy_acc_set_sparse(&c->energy, c->dyn.Ms, c->dyn.Cs);
    if (!rc) rc = hs_coord_results_create(c);
    if (!rc) rc = hs_coord_record(c, 0.0);
    if (rc) {
        hs_coordinator_destroy(&c);
        return rc;
    }
    *out = c;
    return 0;
}

void hs_coordinator_destroy(hs_coordinator **pc)
{
    if (!pc || !*pc) return;
    hs_coordinator *c = *pc;
    hs_coord_ckpt_free(c);
    hs_integrator_destroy(&c->it);
    hs_results_live_csv_finish(&c->live_csv, 0); /* never written: the .part file goes */
    hs_results_destroy(&c->results);
    hs_coord_recorders_free(c);
    hs_energy_acc_free(&c->energy);
    if (c->has_exp) hs_coord_exp_free(&c->exp);
    hs_experiment_csc_free(&c->exp_csc);
    hs_free(c->extra_json);
    hs_free(c->K0);
    hs_free(c->m_iota);
    hs_free(c->f0);
    hs_free(c->f1);
    hs_free(c->d_cmd);
    hs_free(c->d_prev);
    hs_free(c->v_prev);
    hs_free(c->a_prev);
    hs_free(c->periods);
    hs_free(c->spring_def);
    hs_free(c->spring_force);
    hs_free(c->fe_spring_el);
    hs_free(c->fe_spring_comp);
    hs_free(c->Kl);
    hs_free(c);
    *pc = NULL;
}

void hs_coordinator_set_recording(hs_coordinator *c, int on)
{
    c->recording = on;
}

void hs_coordinator_set_progress(hs_coordinator *c, hs_progress_fn fn, void *user, int64_t every)
{
    c->progress = fn;
    c->progress_user = user;
    c->progress_every = every > 0 ? every : 1;
}

void hs_coordinator_set_point_hook(hs_coordinator *c, hs_coord_point_fn fn, void *user)
{
    c->point_hook = fn;
    c->point_user = user;
}

static void hs_coord_point_reached(hs_coordinator *c, hs_coord_point at, int64_t step)
{
    if (c->point_hook) c->point_hook(c->point_user, at, step);
}

static int hs_coord_stop(hs_coordinator *c, int rc)
{
    c->status = (rc == HS_EUNSTABLE) ? HS_RUN_UNSTABLE : HS_RUN_ABORTED;
    /* an unstable response is the test's end; an abort leaves every site holding for a resume */
    if (c->status == HS_RUN_UNSTABLE && c->has_exp) hs_coord_exp_end(&c->exp);
    snprintf(c->reason, sizeof c->reason, "%s",
             hs_ctx_message(c->ctx)[0] ? hs_ctx_message(c->ctx) : hs_strerror(rc));
    if (c->status == HS_RUN_ABORTED && c->has_exp) hs_coord_exp_leave(&c->exp, c->reason);
    c->stopped = 1;
    return rc;
}

/* One step from t_n to t_n+1. */
static int hs_coord_step(hs_coordinator *c)
{
    const int64_t k = c->steps_done;
    const double dt = c->def->dt;
    const double t = (double)k * dt;
    const size_t bytes = (size_t)c->n * sizeof(double);
    memcpy(c->d_prev, hs_integrator_displacement(c->it), bytes);
    memcpy(c->v_prev, hs_integrator_velocity(c->it), bytes);
    memcpy(c->a_prev, hs_integrator_acceleration(c->it), bytes);
    hs_coord_force(c, (double)(k + 1) * dt, c->f1);
    hs_step_io io = {
        .step = k, .t = t, .f_n = c->f0, .f_n1 = c->f1, .d_cmd = c->d_cmd, .r_exp = NULL};
    int rc = hs_integrator_predict(c->it, &io);
    if (!rc && c->has_exp) {
        rc = hs_coord_exp_send_targets(&c->exp, k, t + dt, c->d_cmd);
        hs_coord_point_reached(c, HS_COORD_AT_TARGETS, k + 1);
        if (!rc) rc = hs_coord_exp_collect(&c->exp, k);
        io.r_exp = c->exp.r_exp;
        io.exp = &c->exp.view;
    }
    if (!rc) rc = hs_integrator_correct(c->it, &io);
    if (rc) return rc;
    const double work = c->exp.work;
    if (c->has_exp) {
        hs_coord_exp_commit(&c->exp, io.iterations, io.fallback, io.stiffness_updated);
        hs_coord_exp_compute(&c->exp);
    }
    hs_energy_acc_step(&c->energy, c->model, dt, c->d_prev, c->v_prev, c->a_prev,
                       hs_integrator_displacement(c->it), hs_integrator_velocity(c->it),
                       hs_integrator_acceleration(c->it), c->f0, c->f1, c->exp.work - work);
    c->steps_done = k + 1;
    memcpy(c->f0, c->f1, bytes);
    if (c->recording) {
        rc = hs_coord_record(c, (double)(k + 1) * dt);
        if (rc) return rc;
    }
    if (c->ck) {
        rc = hs_coord_ckpt_after_step(c); /* file I/O between steps, no allocation */
        if (rc) return rc;
    }
    /* COMMIT only once the step is durable: a site never holds a step as committed that the
     * checkpoint does not have (docs/checkpoints.md, "Sites on resume") */
    hs_coord_point_reached(c, HS_COORD_AT_CHECKPOINT, k + 1);
    if (c->has_exp) {
        rc = hs_coord_exp_commit_sites(&c->exp, k);
        if (rc) return rc;
        hs_coord_point_reached(c, HS_COORD_AT_COMMIT, k + 1);
    }
    if (c->progress && c->steps_done % c->progress_every == 0)
        c->progress(c->progress_user, c->steps_done, c->def->steps);
    return 0;
}

int hs_coordinator_advance(hs_coordinator *c, int64_t k)
{
    if (c->stopped) return hs_fail(c->ctx, HS_EINVAL, "coordinator: the run has stopped");
    for (int64_t i = 0; i < k && c->steps_done < c->def->steps; i++) {
        if (atomic_load_explicit(&c->stop_requested, memory_order_acquire))
            return hs_coord_stop(c, hs_fail(c->ctx, HS_EABORTED, "%s after step %lld",
                                            c->stop_reason, (long long)c->steps_done));
        int rc = hs_coord_step(c);
        if (rc) return hs_coord_stop(c, rc);
    }
    return 0;
}

int hs_coordinator_run(hs_coordinator *c)
{
    const double start = hs_coord_now();
    int rc = hs_coordinator_advance(c, c->def->steps - c->steps_done);
    c->wall_time += hs_coord_now() - start;
    if (!rc) {
        c->status = HS_RUN_COMPLETED;
        c->reason[0] = '\0';
        if (c->has_exp) hs_coord_exp_end(&c->exp);
    }
    return rc;
}

hs_run_status hs_coordinator_status(const hs_coordinator *c)
{
    return c->status;
}
const char *hs_coordinator_reason(const hs_coordinator *c)
{
    return c->reason;
}
int64_t hs_coordinator_steps_done(const hs_coordinator *c)
{
    return c->steps_done;
}
const hs_energy *hs_coordinator_energy(const hs_coordinator *c)
{
    return &c->energy.e;
}
const double *hs_coordinator_periods(const hs_coordinator *c)
{
    return c->periods;
}
struct hs_results *hs_coordinator_results(const hs_coordinator *c)
{
    return c->results;
}
const double *hs_coordinator_displacement(const hs_coordinator *c)
{
    return hs_integrator_displacement(c->it);
}
double hs_coordinator_wall_time(const hs_coordinator *c)
{
    return c->wall_time;
}

const hs_experiment *hs_coordinator_experiment(const hs_coordinator *c)
{
    return c->has_exp ? &c->exp.view : NULL;
}

int hs_coordinator_hybrid_stats(const hs_coordinator *c, hs_hybrid_stats *out)
{
    if (!c->has_exp) return hs_fail(c->ctx, HS_EINVAL, "the test has no experimental substructure");
    const hs_coord_exp *e = &c->exp;
    const double steps = e->steps > 0 ? (double)e->steps : 1.0;
    *out = (hs_hybrid_stats){.steps = e->steps,
                             .implicit_steps = e->implicit_steps,
                             .fallback_steps = e->fallback_steps,
                             .stiffness_updates = e->updated_steps,
                             .implicit_percent = 100.0 * (double)e->implicit_steps / steps,
                             .stiffness_update_percent = 100.0 * (double)e->updated_steps / steps,
                             .iterations_mean = (double)e->iter_sum / steps,
                             .iterations_max = e->iter_max,
                             .experimental_work = e->work};
    return 0;
}

struct hs_site *hs_coordinator_site(const hs_coordinator *c, int i)
{
    return (c->has_exp && i >= 0 && i < c->exp.nsites) ? c->exp.sites[i] : NULL;
}

void hs_coordinator_request_stop(hs_coordinator *c, const char *reason)
{
    if (atomic_load_explicit(&c->stop_requested, memory_order_acquire)) return;
    snprintf(c->stop_reason, sizeof c->stop_reason, "%s", reason ? reason : "stopped");
    atomic_store_explicit(&c->stop_requested, 1, memory_order_release);
}

void hs_coordinator_step_view(const hs_coordinator *c, hs_step_view *out)
{
    const hs_coord_exp *e = c->has_exp ? &c->exp : NULL;
    *out = (hs_step_view){.step = c->steps_done,
                          .steps = c->def->steps,
                          .t = (double)c->steps_done * c->def->dt,
                          .ndof = c->n,
                          .d = hs_integrator_displacement(c->it),
                          .nact = e ? e->nact : 0,
                          .x_cmd = e ? e->x_cmd : NULL,
                          .x_meas = e ? e->x_meas : NULL,
                          .f_meas = e ? e->f_meas : NULL,
                          .act_site = e ? e->act_site : NULL,
                          .act_channel = e ? e->act_channel : NULL,
                          .nsites = e ? e->nsites : 0,
                          .site_states = e ? e->site_states : NULL,
                          .site_delay = e ? e->site_delay : NULL,
                          .energy = &c->energy.e};
}

void hs_coordinator_idle(hs_coordinator *c)
{
    for (int s = 0; c->has_exp && s < c->exp.nsites; s++)
        hs_site_idle(c->exp.sites[s]); /* a lost site is reported by the next step */
}

int hs_coordinator_site_hold(const hs_coordinator *c, int site, double *left)
{
    if (!c->has_exp || site < 0 || site >= c->exp.nsites) {
        *left = NAN;
        return HS_SITE_HOLD_UNKNOWN;
    }
    return hs_site_hold(c->exp.sites[site], left);
}
