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
