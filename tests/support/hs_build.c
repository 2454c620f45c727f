/* Test definitions built in code. */
#include "hs_test.h"

#include "hs_build.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

hs_test_def *hs_tb_new(hs_ctx *ctx, int n, const double *mass, const char *integrator,
                       const double *acc, size_t npts, double dt)
{
    hs_test_def *def = calloc(1, sizeof *def);
    assert_non_null(def);
    snprintf(def->name, sizeof def->name, "test");
    snprintf(def->integrator, sizeof def->integrator, "%s", integrator);
    snprintf(def->units_force, sizeof def->units_force, "kN");
    snprintf(def->units_length, sizeof def->units_length, "mm");
    snprintf(def->units_time, sizeof def->units_time, "s");
    assert_int_equal(hs_options_create(&def->integrator_opts), 0);
    def->dt = dt;
    def->steps = (int64_t)npts - 1;
    def->time_scale = 1.0;
    def->seed = 1;
    assert_int_equal(hs_model_create(ctx, n, &def->model), 0);
    assert_int_equal(hs_model_set_mass(def->model, mass), 0);
    assert_int_equal(hs_ground_motion_from_array(ctx, acc, npts, dt, &def->gm), 0);
    return def;
}

void hs_tb_story(hs_test_def *def, int story, const char *type, const hs_options *opts)
{
    char group[32];
    snprintf(group, sizeof group, "story%d", story + 1);
    assert_true(hs_model_add_story(def->model, story, type, opts, group) >= 0);
}

void hs_tb_damping(hs_test_def *def, const double *K, int i, int j, double zi, double zj)
{
    const int n = hs_model_ndof(def->model);
    double *w2 = calloc((size_t)n, sizeof(double)), *phi = calloc((size_t)n * (size_t)n, 8);
    assert_int_equal(hs_sym_eig(NULL, n, K, hs_model_mass_matrix(def->model), w2, phi), 0);
    double a0, a1;
    const double wi = sqrt(w2[i]), wj = sqrt(w2[j]);
    if (i == j) {
        a0 = 0.0;
        a1 = 2.0 * zi / wi;
    } else {
        a1 = 2.0 * (zj * wj - zi * wi) / (wj * wj - wi * wi);
        a0 = 2.0 * zi * wi - a1 * wi * wi;
    }
    hs_mat_axpby(n, a0, hs_model_mass_matrix(def->model), a1, K,
                 (double *)hs_model_damping(def->model));
    free(w2);
    free(phi);
}

hs_site_config *hs_tb_site(hs_test_def *def, const char *name, int nact, int perfect,
                           const char *specimen_type, hs_options *specimen_opts)
{
    def->sites = realloc(def->sites, (size_t)(def->nsites + 1) * sizeof *def->sites);
    hs_site_config *s = &def->sites[def->nsites];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    snprintf(s->kind, sizeof s->kind, "virtual");
    s->nact = nact;
    for (int i = 0; i < nact; i++) {
        snprintf(s->actuator_names[i], sizeof s->actuator_names[i], "a%d", i + 1);
        s->actuator[i] = hs_actuator_params_default();
    }
    s->rate = 1024;
    s->perfect = perfect;
    s->seed = (uint64_t)(11 + def->nsites);
    s->time_scale = 1.0;
    snprintf(s->specimen_type, sizeof s->specimen_type, "%s", specimen_type);
    s->specimen_opts = specimen_opts;
    def->nsites++;
    return s;
}

void hs_tb_element(hs_test_def *def, int site, int nact, const double *T, const double *K0l)
{
    const int n = hs_model_ndof(def->model);
    def->experimental =
        realloc(def->experimental, (size_t)(def->nexp + 1) * sizeof *def->experimental);
    hs_exp_element_def *el = &def->experimental[def->nexp];
    memset(el, 0, sizeof *el);
    snprintf(el->name, sizeof el->name, "element%d", def->nexp + 1);
    snprintf(el->site, sizeof el->site, "%s", def->sites[site].name);
    el->site_index = site;
    el->nact = nact;
    for (int i = 0; i < nact; i++) el->channel[i] = i;
    el->T = malloc((size_t)nact * (size_t)n * sizeof(double));
    memcpy(el->T, T, (size_t)nact * (size_t)n * sizeof(double));
    if (K0l) {
        el->K0l = malloc((size_t)nact * (size_t)nact * sizeof(double));
        memcpy(el->K0l, K0l, (size_t)nact * (size_t)nact * sizeof(double));
    }
    def->nexp++;
}

void hs_tb_free(hs_test_def *def)
{
    if (!def) return;
    for (int k = 0; k < def->nexp; k++) {
        free(def->experimental[k].T);
        free(def->experimental[k].K0l);
        free(def->experimental[k].Tp);
    }
    for (int s = 0; s < def->nsites; s++) {
        hs_options_destroy(&def->sites[s].specimen_opts);
        hs_options_destroy(&def->sites[s].relaxation_opts);
    }
    free(def->experimental);
    free(def->sites);
    hs_model_destroy(&def->model);
    hs_ground_motion_destroy(&def->gm);
    hs_options_destroy(&def->integrator_opts);
    free(def);
}

double *hs_tb_record(size_t npts, double dt, double amp)
{
    double *a = malloc(npts * sizeof(double));
    const double T = (double)(npts - 1) * dt;
    for (size_t k = 0; k < npts; k++) {
        const double t = (double)k * dt, env = pow(sin(HS_PI * t / T), 2);
        a[k] = amp * env * (sin(9.0 * t) + 0.6 * sin(23.0 * t + 1.0));
    }
    return a;
}

hs_ground_motion *hs_tb_synthetic(hs_ctx *ctx, double seed, double pga, double duration, double dt)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "seed", seed);
    hs_options_set_num(o, "pga", pga);
    hs_options_set_num(o, "duration", duration);
    hs_options_set_num(o, "dt", dt);
    hs_ground_motion *gm = NULL;
    assert_int_equal(hs_ground_motion_create(ctx, "synthetic", o, &gm), 0);
    hs_options_destroy(&o);
    return gm;
}

/* Two equal floor masses m and story stiffnesses k1, k2 with periods T1, T2 (m chosen 0.01):
 * k1 k2 = m^2 w1^2 w2^2 and k1 + 2 k2 = m (w1^2 + w2^2); the root with k2 > k1. */
static void two_story_for_periods(double T1, double T2, double *m, double *k1, double *k2)
{
    const double w1 = 2.0 * HS_PI / T1, w2 = 2.0 * HS_PI / T2;
    *m = 0.01;
    const double p = *m * *m * w1 * w1 * w2 * w2, s = *m * (w1 * w1 + w2 * w2);
    *k2 = (s + sqrt(s * s - 8.0 * p)) / 4.0;
    *k1 = s - 2.0 * *k2;
}

hs_test_def *hs_tb_mosqueda2008b(hs_ctx *ctx, const hs_ground_motion *gm, const char *integrator,
                                 int perfect, double T1, double T2, int bouc_wen)
{
    double m, k1, k2;
    two_story_for_periods(T1, T2, &m, &k1, &k2);
    const double mass[2] = {m, m};
    hs_test_def *def = hs_tb_new(ctx, 2, mass, integrator, gm->acc, gm->npts, gm->dt);
    snprintf(def->name, sizeof def->name, "Mosqueda & Ahmadizadeh 2008b two-story, %s", integrator);
    const double K[4] = {k1 + k2, -k2, -k2, k2};
    hs_tb_damping(def, K, 0, 1, 0.05, 0.05 * T2 / T1); /* C = a0 M: zeta_i = a0 / (2 w_i) */
    hs_options *spec = NULL;
    assert_int_equal(hs_options_create(&spec), 0);
    if (bouc_wen) {
        /* each story a Bouc-Wen coupon: yield drift 2 mm, 5 % post-yield stiffness */
        const double k0[2] = {k1, k2};
        hs_options_set_str(spec, "material", "bouc_wen");
        hs_options_set_list(spec, "k0", k0, 2);
        hs_options_set_num(spec, "alpha", 0.05);
        hs_options_set_num(spec, "n", 2);
        hs_options_set_num(spec, "gamma", 0.125);
        hs_options_set_num(spec, "beta", 0.125);
        hs_options_set_num(spec, "A0", 1.0);
    } else {
        const double Kl[4] = {k1, 0, 0, k2}; /* story drifts, row by row */
        hs_options_set_list(spec, "K", Kl, 4);
    }
    hs_site_config *s = hs_tb_site(def, "lab", 2, perfect, bouc_wen ? "material" : "linear", spec);
    for (int i = 0; i < 2; i++) s->actuator[i].a = 3.0;
    s->displacement.rms = perfect ? 0.0 : 0.01;
    s->force.rms = perfect ? 0.0 : 0.01 * k1 * 0.1;
    const double T[4] = {1.0, -1.0, 0.0, 1.0}; /* x1 = d1, x2 = d2 - d1 (column-major) */
    const double K0l[4] = {k1, 0, 0, k2};
    hs_tb_element(def, 0, 2, T, K0l);
    return def;
}
