/* The physics part of `hysim check` (docs/testfile.md, "What check checks"): the periods, the
 * record's PGA and duration, a modal response-spectrum estimate of each actuator's stroke and
 * velocity, and one numbered warning line for each likely mistake:
 *   1. omega_max dt beyond the integrator's stability limit (docs/integrators.md, "Stability
 *      limits"),
 *   2. a step that is not a whole number of controller ticks (dt x rate x time_scale),
 *   3. a record that looks like it is in g while the units are length/s^2 (or scaled twice),
 *   4. masses that look like weights (the periods absurdly long, and right once divided by g),
 *   5. a stroke or velocity limit below the response-spectrum estimate,
 *   6. a Tcl model's Rayleigh factors, computed from the script's own `eigen`, that give another
 *      damping in the model's modes (the experimental elements' stiffness is not in the
 *      script's eigen).
 * Warnings never change the exit code of `hysim check` (the file is valid, the numbers are
 * suspicious) unless --strict is given; `hysim run` refuses a test with a remote site for 1, 3,
 * 4 and 5 (the specimen would move beyond what was meant), not for 2 and 6. */
#include "check_physics.h"

#include "hysim/fe.h"
#include "hysim/ground_motion.h"
#include "hysim/integrator.h"
#include "hysim/linalg.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const double two_pi = 6.283185307179586476925286766559;

typedef struct checker {
    FILE *out;
    const hs_test_def *def;
    int n;                       /* DOFs */
    int nm;                      /* modes: n, or a large model's lowest (ARPACK) */
    int large;                   /* hs_model_is_large: no n x n array */
    int warnings;                /* printed so far */
    hs_check_refusing *refusing; /* NULL: not asked */
    double g;                    /* standard gravity in the test's units (0: units unknown) */
    double *w2, *phi;            /* modes (ascending omega^2, M-orthonormal shapes) */
    double *zeta;                /* modal damping ratios */
    double *gamma;               /* participation factors phi^T M iota */
    double *sd, *sv;             /* each mode's spectral displacement and velocity */
    int have_modes;
} checker;

/* One numbered warning; refuses: hysim run refuses the test with a remote site (unstable,
 * beyond a limit, a record or masses in the wrong units). */
static void HS_PRINTF(3, 4) warn_as(checker *k, int refuses, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(k->out, "warning %d: ", ++k->warnings);
    if (refuses && k->refusing && k->refusing->n < HS_CHECK_MAX_REFUSING)
        k->refusing->which[k->refusing->n++] = k->warnings;
    vfprintf(k->out, fmt, ap);
    va_end(ap);
    fputc('\n', k->out);
}

/* Standard gravity (9.80665 m/s^2) in the test's length/time^2; 0 when a unit is unknown. */
double hs_check_gravity(const char *length, const char *time)
{
    static const struct {
        const char *name;
        double metres;
    } lengths[] = {{"m", 1.0},  {"mm", 1e-3},   {"cm", 1e-2},
                   {"km", 1e3}, {"in", 0.0254}, {"ft", 0.3048}};
    static const struct {
        const char *name;
        double seconds;
    } times[] = {{"s", 1.0}, {"ms", 1e-3}, {"min", 60.0}};
    double lf = 0.0, tf = 0.0;
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++)
        if (strcmp(length, lengths[i].name) == 0) lf = lengths[i].metres;
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
        if (strcmp(time, times[i].name) == 0) tf = times[i].seconds;
    return lf > 0.0 && tf > 0.0 ? 9.80665 / lf * tf * tf : 0.0;
}

/* The integrator's stability limit on Omega = omega dt for a mode whose stiffness is a
 * fraction chi numerical (the rest experimental); INFINITY when unconditionally stable for
 * linear (and softening) structures. The table is docs/integrators.md, "Stability limits". */
double hs_check_stability_limit(const char *integrator, const hs_options *opts, double chi)
{
    if (strcmp(integrator, "newmark_explicit") == 0 ||
        strcmp(integrator, "central_difference") == 0)
        return 2.0;
    if (strcmp(integrator, "newmark") == 0) {
        const double beta = hs_options_num(opts, "beta", 0.25),
                     gamma = hs_options_num(opts, "gamma", 0.5);
        if (2.0 * beta >= gamma && gamma >= 0.5) return INFINITY;
        return gamma / 2.0 - beta > 0.0 ? 1.0 / sqrt(gamma / 2.0 - beta) : INFINITY;
    }
    if (strcmp(integrator, "ode4") == 0) return 2.0 * sqrt(2.0); /* |exp(iW) to W^4| <= 1 */
    if (strcmp(integrator, "ghaboussi_pc") == 0)
        return chi < 1.0 ? 2.0 / sqrt(1.0 - fmax(chi, 0.0)) : INFINITY;
    return INFINITY; /* hht, alpha_os, cr, kr_alpha, os_tangent, implicit_hht_fe, exact */
}

/* x^T M y with a large model's lumped masses (its mass matrix is diagonal). */
static double m_product(const hs_model *model, const double *x, const double *y)
{
    const double *mass = hs_model_mass(model);
    double s = 0.0;
    for (int i = 0; i < hs_model_ndof(model); i++) s += x[i] * mass[i] * y[i];
    return s;
}

/* A large model's lowest modes (ARPACK) and their damping ratios from the Rayleigh
 * coefficients: phi^T C phi = a0 + a1 omega^2 for M-orthonormal shapes (its C is a0 M + a1 K). */
static int modes_large(checker *k)
{
    const hs_model *model = k->def->model;
    if (hs_model_modes_lowest((hs_model *)model, k->nm, k->w2, k->phi)) return HS_EINPUT;
    double a0, a1;
    hs_model_damping_coefficients(model, &a0, &a1);
    for (int m = 0; m < k->nm; m++) {
        const double omega = sqrt(k->w2[m]);
        k->zeta[m] = omega > 0.0 ? (a0 + a1 * k->w2[m]) / (2.0 * omega) : 0.0;
        k->gamma[m] =
            m_product(model, k->phi + (size_t)m * (size_t)k->n, hs_model_influence(model));
    }
    k->have_modes = 1;
    return 0;
}

static int modes(checker *k)
{
    const int n = k->n;
    k->large = hs_model_is_large(k->def->model);
    k->nm = k->large ? (n > 21 ? 20 : n - 1) : n;
    const size_t nn = (size_t)n * (size_t)k->nm;
    k->w2 = hs_dvec((size_t)n);
    k->phi = hs_dvec(nn);
    k->zeta = hs_dvec((size_t)n);
    k->gamma = hs_dvec((size_t)n);
    k->sd = hs_dvec((size_t)n);
    k->sv = hs_dvec((size_t)n);
    if (!k->w2 || !k->phi || !k->zeta || !k->gamma || !k->sd || !k->sv) return HS_ENOMEM;
    if (k->large) return modes_large(k);
    if (hs_model_modes(k->def->model, k->w2, k->phi)) return HS_EINPUT;
    const double *M = hs_model_mass_matrix(k->def->model), *C = hs_model_damping(k->def->model),
                 *iota = hs_model_influence(k->def->model);
    for (int m = 0; m < n; m++) {
        const double *p = k->phi + (size_t)m * (size_t)n;
        double pcp = 0.0, pmi = 0.0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                if (C) pcp += p[i] * HS_AT(C, n, i, j) * p[j];
                pmi += p[i] * HS_AT(M, n, i, j) * (iota ? iota[j] : 1.0);
            }
        const double omega = sqrt(k->w2[m]);
        k->zeta[m] = omega > 0.0 ? fmax(0.0, pcp / (2.0 * omega)) : 0.0;
        k->gamma[m] = pmi;
    }
    /* DOFs without mass (kept for experimental elements) give the last modes omega = infinity:
     * static, no period; the checks see the modes with mass */
    while (k->nm > 1 && !isfinite(k->w2[k->nm - 1])) k->nm--;
    k->have_modes = 1;
    return 0;
}

static void print_periods(checker *k)
{
    const char *t = k->def->units_time;
    fprintf(k->out, "periods (%s):", t);
    const int shown = k->nm < 8 ? k->nm : 8;
    for (int m = 0; m < shown; m++) fprintf(k->out, " %.5g", two_pi / sqrt(k->w2[m]));
    if (shown < k->nm && k->large)
        fprintf(k->out, " ... (the lowest %d of %d modes, ARPACK; hysim modes prints them)", k->nm,
                k->n);
    else if (shown < k->nm)
        fprintf(k->out, " ... (%d modes; hysim modes prints all)", k->n);
    fprintf(k->out, "; damping (%% of critical):");
    for (int m = 0; m < shown; m++) fprintf(k->out, " %.3g", 100.0 * k->zeta[m]);
    fputc('\n', k->out);
}

/* The experimental DOFs without mass (hs_fe_keep_dof), and the integrators that take them. */
static void print_massless(checker *k)
{
    const hs_model *model = k->def->model;
    const int n0 = hs_model_massless_count(model);
    if (n0 == 0) return;
    const double *mass = hs_model_mass(model);
    char name[48], list[160];
    fprintf(k->out, "experimental DOFs without mass (%d, solved statically, no period):", n0);
    for (int i = 0, shown = 0; i < k->n && shown < 8; i++)
        if (mass[i] == 0.0) {
            fprintf(k->out, "%s %s", shown++ ? "," : "",
                    hs_model_dof_name(model, i, name, sizeof name));
        }
    fprintf(k->out,
            "; taken by %s (implicit_hht_fe with fallback: os_tangent); the explicit methods "
            "need a mass at every DOF (docs/integrators.md, \"Experimental DOFs without "
            "mass\")\n",
            hs_integrator_massless_list(list, sizeof list));
}

/* 1: omega_max dt against the integrator's stability limit (worst mode). */
static void check_stability(checker *k)
{
    const hs_test_def *def = k->def;
    const int n = k->n;
    if (k->large) { /* omega_max is the highest of n modes: ARPACK gave the lowest */
        if (isfinite(hs_check_stability_limit(def->integrator, def->integrator_opts, 1.0)))
            fprintf(k->out,
                    "stability: not checked for %d DOFs (the highest mode is not computed); %s "
                    "needs omega_max dt below its limit\n",
                    n, def->integrator);
        return;
    }
    double *Kn = hs_dvec((size_t)n * (size_t)n);
    if (!Kn || hs_model_initial_stiffness(def->model, Kn)) {
        hs_free(Kn);
        return;
    }
    int worst = -1;
    double worst_ratio = 0.0, worst_limit = INFINITY;
    for (int m = 0; m < k->nm; m++) {
        const double *p = k->phi + (size_t)m * (size_t)n;
        double pkp = 0.0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) pkp += p[i] * HS_AT(Kn, n, i, j) * p[j];
        const double chi = k->w2[m] > 0.0 ? pkp / k->w2[m] : 1.0;
        const double limit = hs_check_stability_limit(def->integrator, def->integrator_opts, chi);
        const double ratio = sqrt(k->w2[m]) * def->dt / limit;
        if (ratio > worst_ratio) {
            worst_ratio = ratio;
            worst = m;
            worst_limit = limit;
        }
    }
    hs_free(Kn);
    if (worst < 0 || !(worst_ratio > 1.0)) return;
    const double omega = sqrt(k->w2[worst]);
    warn_as(
        k, 1,
        "analysis.dt = %g %s: omega dt = %.4g in mode %d (T = %.4g %s) exceeds %s's stability "
        "limit %.4g (docs/integrators.md, \"Stability limits\"): the response will grow without "
        "bound and trip a limit; use dt <= %.4g %s or an unconditionally stable integrator",
        def->dt, def->units_time, omega * def->dt, worst + 1, two_pi / omega, def->units_time,
        def->integrator, worst_limit, worst_limit / omega, def->units_time);
}

/* 2: each site's controller ticks per step. */
static void check_ticks(checker *k)
{
    const hs_test_def *def = k->def;
    for (int s = 0; s < def->nsites; s++) {
        const hs_site_config *site = &def->sites[s];
        const double rate = strcmp(site->kind, "remote") == 0 ? site->need_rate : site->rate;
        if (!(rate > 0.0)) continue;
        const double ticks = def->dt * rate * def->time_scale, whole = round(ticks);
        if (fabs(ticks - whole) <= 1e-9 * fmax(1.0, ticks) && whole >= 1.0) continue;
        warn_as(k, 0,
                "site %s: a step is dt x rate x time_scale = %g x %g x %g = %.6g controller ticks, "
                "not a whole number%s: the targets fall between ticks and the step time jitters by "
                "a tick; choose dt = %.6g %s (%g ticks)",
                site->name, def->dt, rate, def->time_scale, ticks,
                whole < 1.0 ? " (and less than one)" : "",
                fmax(1.0, whole) / (rate * def->time_scale), def->units_time, fmax(1.0, whole));
    }
}

/* 3: a record in g read as length/s^2, or one scaled to g twice. */
static void check_record_units(checker *k, double pga)
{
    if (!(k->g > 0.0) || !(pga > 0.0)) return;
    const double in_g = pga / k->g;
    if (in_g < 0.005 && pga >= 0.005 && pga <= 3.0)
        warn_as(k, 1,
                "ground_motion: PGA %.4g %s/%s^2 is %.3g g, too small to test anything, yet %.4g "
                "is a typical PGA in g: the record looks like it is in g; set ground_motion.scale "
                "to g in the test's units (%.6g %s/%s^2)",
                pga, k->def->units_length, k->def->units_time, in_g, pga, k->g,
                k->def->units_length, k->def->units_time);
    else if (in_g > 3.0)
        warn_as(k, 1,
                "ground_motion: PGA %.4g %s/%s^2 is %.4g g, beyond any recorded motion: the record "
                "looks scaled twice (a record already in length/s^2 given scale = g, %.6g) or in "
                "other units; check ground_motion.scale",
                pga, k->def->units_length, k->def->units_time, in_g, k->g);
}

/* 4: masses given as weights make the periods sqrt(g) times too long. */
static void check_weights(checker *k)
{
    if (!(k->g > 0.0) || strcmp(k->def->units_time, "s") != 0) return;
    const double T1 = two_pi / sqrt(k->w2[0]), as_mass = T1 / sqrt(k->g);
    if (T1 > 5.0 && as_mass >= 0.02 && as_mass <= 3.0)
        warn_as(
            k, 1,
            "structure.mass: the first period is %.4g s, long for a structure tested in the lab; "
            "the masses look like weights (mass x g): as weight / g (g = %.6g %s/s^2) T1 would "
            "be %.4g s",
            T1, k->g, k->def->units_length, as_mass);
}

/* The record's spectral values at each mode (from rest over the analysis). Modes with periods
 * below 2.5 record steps move with the ground (rigid): Sd = PGA / omega^2 and Sv = omega Sd,
 * which keeps a check of a large model quick (the exact oscillator would need more than 50
 * sub-steps a sample there). */
static void spectra(checker *k, double pga)
{
    const double t_end = (double)k->def->steps * k->def->dt;
    for (int m = 0; m < k->nm; m++) {
        const double omega = sqrt(k->w2[m]);
        if (two_pi / omega < 2.5 * k->def->gm->dt) {
            k->sd[m] = pga / k->w2[m];
            k->sv[m] = omega * k->sd[m];
        } else if (hs_ground_motion_sdof_peak(k->def->gm, omega, k->zeta[m], t_end, &k->sd[m],
                                              &k->sv[m])) {
            k->sd[m] = k->sv[m] = 0.0;
        }
    }
}

/* SRSS over the modes of c_m Gamma_m s_m, c_m = row . phi_m (row: n weights on the DOFs). */
static double srss(const checker *k, const double *row, const double *spec)
{
    double sum = 0.0;
    for (int m = 0; m < k->nm; m++) {
        const double *p = k->phi + (size_t)m * (size_t)k->n;
        double c = 0.0;
        for (int i = 0; i < k->n; i++) c += row[i] * p[i];
        const double r = c * k->gamma[m] * spec[m];
        sum += r * r;
    }
    return sqrt(sum);
}

/* The estimate per DOF, then per actuator against stroke and velocity_limit (5). */
static void check_limits(checker *k)
{
    const hs_test_def *def = k->def;
    const int n = k->n;
    const char *L = def->units_length, *t = def->units_time;
    double *row = hs_dvec((size_t)n);
    if (!row) return;
    fprintf(k->out,
            "response estimate (modal response spectrum of the record, SRSS of %d modes): "
            "peak |d| per DOF (%s):",
            k->nm, L);
    if (k->large) fprintf(k->out, " not printed for %d DOFs", n);
    for (int i = 0; i < n && !k->large; i++) {
        memset(row, 0, (size_t)n * sizeof *row);
        row[i] = 1.0;
        fprintf(k->out, " %.4g", srss(k, row, k->sd));
    }
    fputc('\n', k->out);
    for (int e = 0; e < def->nexp; e++) {
        const hs_exp_element_def *el = &def->experimental[e];
        const hs_site_config *site = &def->sites[el->site_index];
        const int remote = strcmp(site->kind, "remote") == 0;
        for (int j = 0; j < el->nact; j++) {
            for (int i = 0; i < n; i++) row[i] = HS_AT(el->T, el->nact, j, i);
            const double x = srss(k, row, k->sd), v = srss(k, row, k->sv) / def->time_scale;
            const int ch = el->channel[j];
            const char *act = site->actuator_names[ch];
            fprintf(k->out,
                    "  actuator %s.%s: |x| ~ %.4g %s, |v| ~ %.4g %s/%s at the lab (time scale %g)",
                    site->name, act, x, L, v, L, t, def->time_scale);
            if (remote) {
                fprintf(k->out, "; its limits are in the site's own file\n");
                continue;
            }
            const hs_actuator_params *a = &site->actuator[ch];
            fprintf(k->out, "; stroke %s%.4g, velocity limit %s%.4g\n",
                    a->stroke > 0 ? "" : "none ", a->stroke, a->velocity_max > 0 ? "" : "none ",
                    a->velocity_max);
            if (a->stroke > 0.0 && a->stroke < x)
                warn_as(k, 1,
                        "sites.%s.actuators.%s.stroke = %g %s is below the estimated peak %.4g %s "
                        "(modal response spectrum, SRSS): the stroke limit will likely stop the "
                        "test; scale the record down or raise the stroke",
                        site->name, act, a->stroke, L, x, L);
            if (a->velocity_max > 0.0 && a->velocity_max < v)
                warn_as(k, 1,
                        "sites.%s.actuators.%s.velocity_limit = %g %s/%s is below the estimated "
                        "peak %.4g %s/%s at the lab (spectral velocity / time scale %g): the "
                        "velocity limit will likely stop the test; raise analysis.time_scale to "
                        "at least %.3g or scale the record down",
                        site->name, act, a->velocity_max, L, t, v, L, t, def->time_scale,
                        def->time_scale * v / a->velocity_max);
        }
    }
    hs_free(row);
}

/* 6: zeta = (a0 / omega + a1 omega) / 2 at the script's eigen frequencies (what its factors
 * were computed for) against the model's modal damping (phi^T C phi / 2 omega with the
 * experimental elements' initial stiffness in the modes): a miss beyond 5 % of the target. */
static void check_script_damping(checker *k)
{
    const hs_script_damping *sd = &k->def->script_damping;
    if (sd->neigen < 1 || k->large) return;
    double a0, a1;
    hs_model_damping_coefficients(k->def->model, &a0, &a1);
    const int nm = sd->neigen < k->nm ? sd->neigen : k->nm;
    int missed = 0;
    double target[8], actual[8];
    for (int m = 0; m < nm; m++) {
        const double w = sqrt(sd->eigen_w2[m]);
        target[m] = w > 0.0 ? 0.5 * (a0 / w + a1 * w) : 0.0;
        actual[m] = k->zeta[m];
        missed |= target[m] > 0.0 && fabs(actual[m] - target[m]) > 0.05 * target[m];
    }
    if (!missed) return;
    char list[512] = "", want[512] = "";
    size_t at = 0, wat = 0;
    for (int m = 0; m < nm; m++) {
        at += (size_t)snprintf(list + at, sizeof list - at, "%s%.3g %% (mode %d, T = %.4g %s)",
                               m ? ", " : "", 100.0 * actual[m], m + 1, two_pi / sqrt(k->w2[m]),
                               k->def->units_time);
        wat += (size_t)snprintf(want + wat, sizeof want - wat, "%s%.3g %% (T = %.4g %s)",
                                m ? ", " : "", 100.0 * target[m], two_pi / sqrt(sd->eigen_w2[m]),
                                k->def->units_time);
        if (at >= sizeof list || wat >= sizeof want) break;
    }
    warn_as(k, 0,
            "structure.model.opensees: the rayleigh factors of %s give damping %s in this model's "
            "modes, yet %s at the periods of the script's own eigen (%s), which did not see the "
            "experimental elements' stiffness: the damping misses its target; compute the factors "
            "from the periods `hysim modes` prints, or give structure.damping (rayleigh: {modes, "
            "ratios}) in the test file, whose modes include the experimental elements",
            sd->rayleigh_where, list, want, sd->eigen_where);
}

static void print_record(checker *k, const hs_ground_motion *gm, double pga)
{
    const hs_test_def *def = k->def;
    FILE *out = k->out;
    size_t at = 0;
    for (size_t i = 0; i < gm->npts; i++)
        if (fabs(gm->acc[i]) == pga) {
            at = i;
            break;
        }
    fprintf(out, "record: PGA %.4g %s/%s^2", pga, def->units_length, def->units_time);
    if (k->g > 0.0)
        fprintf(out, " = %.4g g", pga / k->g);
    else
        fprintf(out, " (g unknown in these units)");
    fprintf(out,
            " at %.4g %s, duration %.4g %s (%zu points at %g %s); the analysis covers %.4g %s\n",
            (double)at * gm->dt, def->units_time, hs_ground_motion_duration(gm), def->units_time,
            gm->npts, gm->dt, def->units_time, (double)def->steps * def->dt, def->units_time);
}

int hs_check_physics(FILE *out, const hs_test_def *def, hs_check_refusing *refusing)
{
    checker k = {.out = out, .def = def, .n = hs_model_ndof(def->model), .refusing = refusing};
    if (refusing) refusing->n = 0;
    k.g = hs_check_gravity(def->units_length, def->units_time);
    const hs_ground_motion *gm = def->gm;
    const double pga = gm ? hs_ground_motion_pga(gm) : 0.0;
    if (gm)
        print_record(&k, gm, pga);
    else /* multi-support excitation: one record per support (docs/fe_model.md) */
        fprintf(out, "record: multi-support excitation; the record, spectrum and limit checks "
                     "need one uniform record and are skipped\n");
    int rc = modes(&k);
    if (rc == HS_EINPUT)
        fprintf(out, "periods: not available (the initial stiffness is not positive definite)\n");
    print_massless(&k);
    if (k.have_modes) {
        print_periods(&k);
        if (gm) spectra(&k, pga);
        check_stability(&k);
        check_script_damping(&k);
    }
    check_ticks(&k);
    if (gm) check_record_units(&k, pga);
    if (k.have_modes) {
        check_weights(&k);
        if (gm) check_limits(&k);
    }
    hs_free(k.w2);
    hs_free(k.phi);
    hs_free(k.zeta);
    hs_free(k.gamma);
    hs_free(k.sd);
    hs_free(k.sv);
    return rc == HS_ENOMEM ? -1 : k.warnings;
}
