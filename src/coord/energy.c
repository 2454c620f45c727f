/* Energy balance. Within a step the displacement is the quintic Hermite interpolant of (d, v, a)
 * at both ends; input and damping work are integrated exactly on it by 5-point Gauss-Legendre,
 * so a linear model integrated exactly balances to the interpolation error O(dt^6). */
#include "energy_impl.h"

#include "hysim/fe.h"
#include "hysim/linalg.h"

#include <math.h>
#include <string.h>

static const double hs_gauss_x[5] = {-0.9061798459386640, -0.5384693101056831, 0.0,
                                     0.5384693101056831, 0.9061798459386640};
static const double hs_gauss_w[5] = {0.2369268850561891, 0.4786286704993665, 0.5688888888888889,
                                     0.4786286704993665, 0.2369268850561891};

int hs_energy_acc_init(hs_energy_acc *acc, const hs_model *m, const double *M, const double *C)
{
    memset(acc, 0, sizeof *acc);
    acc->n = hs_model_ndof(m);
    acc->nsprings = hs_model_spring_count(m);
    acc->M = M;
    acc->C = C;
    acc->e.ngroups = hs_model_group_count(m);
    if (acc->e.ngroups > HS_ENERGY_MAX_GROUPS) acc->e.ngroups = HS_ENERGY_MAX_GROUPS;
    const size_t n = (size_t)acc->n, ns = (size_t)(acc->nsprings ? acc->nsprings : 1);
    acc->vg = hs_dvec(5 * n);
    acc->cv = hs_dvec(n);
    acc->coef = hs_dvec(3 * n);
    acc->kd_M = hs_mat_bandwidth(acc->n, M);
    acc->kd_C = hs_mat_bandwidth(acc->n, C);
    acc->spring_e = hs_dvec(ns);
    acc->spring_f = hs_dvec(ns);
    acc->spring_group = hs_calloc(ns, sizeof(int));
    acc->spring_rate = hs_calloc(ns, sizeof(int));
    if (!acc->vg || !acc->cv || !acc->coef || !acc->spring_e || !acc->spring_f ||
        !acc->spring_group || !acc->spring_rate) {
        hs_energy_acc_free(acc);
        return HS_ENOMEM;
    }
    for (int s = 0; s < acc->nsprings; s++) {
        acc->spring_e[s] = hs_model_spring_deformation(m, s);
        acc->spring_f[s] = hs_model_spring_force(m, s);
        acc->spring_group[s] = hs_model_spring_group(m, s);
        acc->spring_rate[s] = hs_material_is_rate_dependent(hs_model_spring_material(m, s));
    }
    if (hs_model_fe(m)) {
        if (!(acc->fe_r = hs_dvec(n))) {
            hs_energy_acc_free(acc);
            return HS_ENOMEM;
        }
        memcpy(acc->fe_r, hs_fe_committed_force(hs_model_fe(m)), n * sizeof(double));
    }
    return 0;
}

void hs_energy_acc_set_sparse(hs_energy_acc *acc, const hs_csc *Ms, const hs_csc *Cs)
{
    acc->Ms = Ms;
    acc->Cs = Cs;
}

void hs_energy_acc_free(hs_energy_acc *acc)
{
    hs_free(acc->vg);
    hs_free(acc->cv);
    hs_free(acc->coef);
    hs_free(acc->spring_e);
    hs_free(acc->spring_f);
    hs_free(acc->spring_group);
    hs_free(acc->spring_rate);
    acc->vg = acc->cv = acc->coef = acc->spring_e = acc->spring_f = NULL;
    acc->spring_group = acc->spring_rate = NULL;
    hs_free(acc->fe_r);
    acc->fe_r = NULL;
}

/* The quintic through (d0, v0, a0) at 0 and (d1, v1, a1) at h: its coefficients c3, c4, c5 of
 * t^3, t^4, t^5 (the lower ones are d0, v0, a0 / 2). */
static void hs_quintic(double h, double d0, double v0, double a0, double d1, double v1, double a1,
                       double c[3])
{
    const double D = d1 - d0 - v0 * h - 0.5 * a0 * h * h;
    const double V = v1 - v0 - a0 * h;
    const double A = a1 - a0;
    const double h2 = h * h, h3 = h2 * h;
    c[0] = (20.0 * D - 8.0 * V * h + A * h2) / (2.0 * h3);
    c[1] = (-30.0 * D + 14.0 * V * h - 2.0 * A * h2) / (2.0 * h3 * h);
    c[2] = (12.0 * D - 6.0 * V * h + A * h2) / (2.0 * h3 * h2);
}

void hs_energy_acc_step(hs_energy_acc *acc, const hs_model *m, double h, const double *d0,
                        const double *v0, const double *a0, const double *d1, const double *v1,
                        const double *a1, const double *f0, const double *f1,
                        double experimental_work)
{
    const int n = acc->n;
    double win = 0.0, wdamp = 0.0, wg[5], vCv[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
    /* per DOF the velocity's coefficients 3 c3 and 4 c4 (and c5: t 5 c5 is formed below), so
     * that v(t) = v0 + t (a0 + t (3 c3 + t (4 c4 + t 5 c5))) takes no product twice */
    for (int i = 0; i < n; i++) {
        double *c = acc->coef + 3 * i;
        hs_quintic(h, d0[i], v0[i], a0[i], d1[i], v1[i], a1[i], c);
        c[0] *= 3.0;
        c[1] *= 4.0;
    }
    for (int g = 0; g < 5; g++) {
        const double s = 0.5 * (hs_gauss_x[g] + 1.0), t = s * h, t5 = t * 5.0, r = 1.0 - s;
        double *vg = acc->vg + (size_t)g * (size_t)n;
        wg[g] = 0.5 * h * hs_gauss_w[g];
        double fv = 0.0; /* the input power at t: the force linear over the step, times v(t) */
        for (int i = 0; i < n; i++) {
            const double *c = acc->coef + 3 * i;
            vg[i] = v0[i] + t * (a0[i] + t * (c[0] + t * (c[1] + t5 * c[2])));
            fv += (r * f0[i] + s * f1[i]) * vg[i];
        }
        win += wg[g] * fv;
        if (!acc->C && acc->Cs) {
            hs_csc_matvec(acc->Cs, vg, acc->cv);
            vCv[g] = hs_dot(n, vg, acc->cv);
        }
    }
    if (acc->C) /* vg^T C vg at the five points in one pass over C's band (exact zeros skipped) */
        for (int j = 0; j < n; j++) {
            const int lo = j - acc->kd_C > 0 ? j - acc->kd_C : 0;
            const int hi = j + acc->kd_C < n - 1 ? j + acc->kd_C : n - 1;
            for (int i = lo; i <= hi; i++) {
                const double c = HS_AT(acc->C, n, i, j);
                if (c == 0.0) continue;
                for (int g = 0; g < 5; g++) {
                    const double *vg = acc->vg + (size_t)g * (size_t)n;
                    vCv[g] += c * vg[i] * vg[j];
                }
            }
        }
    for (int g = 0; g < 5; g++) wdamp += wg[g] * vCv[g];
    acc->e.input += win;
    acc->e.damping += wdamp;
    /* springs: trapezoid on committed force and deformation (exact for linear springs) */
    for (int s = 0; s < acc->nsprings; s++) {
        const double e1 = hs_model_spring_deformation(m, s), f1s = hs_model_spring_force(m, s);
        const double w = 0.5 * (acc->spring_f[s] + f1s) * (e1 - acc->spring_e[s]);
        if (acc->spring_rate[s])
            acc->e.damping += w;
        else {
            acc->e.strain += w;
            if (acc->spring_group[s] < HS_ENERGY_MAX_GROUPS)
                acc->e.group[acc->spring_group[s]] += w;
        }
        acc->spring_e[s] = e1;
        acc->spring_f[s] = f1s;
    }
    /* the frame model: trapezoid on its committed condensed force (exact when linear) */
    if (acc->fe_r) {
        const double *r1 = hs_fe_committed_force(hs_model_fe(m));
        double w = 0.0;
        for (int i = 0; i < n; i++) {
            w += 0.5 * (acc->fe_r[i] + r1[i]) * (d1[i] - d0[i]);
            acc->fe_r[i] = r1[i];
        }
        acc->e.strain += w;
    }
    /* experimental substructure: measured work (trapezoid in actuator coordinates) */
    acc->e.experimental += experimental_work;
    acc->e.strain += experimental_work;
    double kin = 0.0;
    if (acc->M)
        hs_band_matvec(n, acc->kd_M, acc->M, v1, acc->cv);
    else
        hs_csc_matvec(acc->Ms, v1, acc->cv);
    kin = 0.5 * hs_dot(n, v1, acc->cv);
    acc->e.kinetic = kin;
    const double out = acc->e.kinetic + acc->e.damping + acc->e.strain;
    const double scale =
        fmax(fabs(acc->e.input), acc->e.kinetic + fabs(acc->e.damping) + fabs(acc->e.strain));
    acc->e.error_rel = scale > 0.0 ? fabs(acc->e.input - out) / scale : 0.0;
}
