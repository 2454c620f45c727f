/* DOFs without mass (a zero diagonal of M: an experimental element on a frame's massless DOF,
 * hs_fe_keep_dof; docs/integrators.md, "Experimental DOFs without mass").
 *
 * The integrators that take them (the registry's `massless`: newmark, hht, alpha_os, os_tangent,
 * implicit_hht_fe) solve them as ordinary DOFs with zero mass: their rows of the step's equation
 * are the static equilibrium there, and every effective matrix holds K_I = K0 + Ke on them. Two
 * things differ from a DOF with mass, both here:
 *   - the initial acceleration is solved on the DOFs with mass only (zero on the others);
 *   - the command: a DOF without inertia has no kinematic predictor (d + dt v + dt^2/2 a
 * extrapolates an acceleration that Newmark's relations only back-figure there), so its command is
 * the static condensation of the step's increment with the initial stiffness, d0~(n+1) = d0(n) +
 * K_I,00^-1 [f0(n+1) - f0(n) - K_I,0m (dm~(n+1) - dm(n))], the operator-splitting predictor of a
 * massless DOF: the split r ~ K_I d + p of Combescure and Pegon (1997) with p frozen over the
 * predictor, solved on the rows without mass (the measured force at those DOFs then enters the
 * step's equilibrium with the rest of r~). OpenSees' AlphaOS (SRC/analysis/integrator/AlphaOS.cpp)
 * predicts every DOF kinematically, massless ones included; hysim does not, since there the
 * predictor has no inertia to follow. The other integrators are refused at setup with the list of
 * those that take them. */
#include "integrator_impl.h"

#include <stdio.h>
#include <string.h>

struct hs_int_massless {
    int n0;
    int *idx;        /* the DOFs without mass (n0) */
    int *massive;    /* n: 1 where the DOF has mass */
    double *K0m;     /* rows of K_I = dyn.K0 at those DOFs (n0 x n, column-major) */
    hs_linsolver *s; /* K_I,00 */
    double *b;       /* n0 scratch */
};

void hs_int_massless_free(hs_integrator *it)
{
    hs_int_massless *ml = it->ml;
    if (!ml) return;
    hs_linsolver_destroy(&ml->s);
    hs_free(ml->idx);
    hs_free(ml->massive);
    hs_free(ml->K0m);
    hs_free(ml->b);
    hs_free(ml);
    it->ml = NULL;
}

/* M's diagonal entry i, dense or in compressed columns */
static double mass_at(const hs_dynamics *dyn, int i)
{
    if (dyn->M) return HS_AT(dyn->M, dyn->n, i, i);
    const hs_csc *M = dyn->Ms;
    for (int k = M->colptr[i]; k < M->colptr[i + 1]; k++)
        if (M->rowind[k] == i) return M->val[k];
    return 0.0;
}

int hs_int_massless_setup(hs_integrator *it, const hs_dynamics *dyn)
{
    hs_int_massless_free(it);
    const int n = dyn->n;
    int n0 = 0;
    for (int i = 0; i < n; i++) n0 += !(mass_at(dyn, i) > 0.0);
    if (n0 == 0) return 0;
    const hs_integrator_entry *e = hs_integrator_registry_find(it->type);
    char first[24] = "", list[160];
    for (int i = 0; i < n && !first[0]; i++)
        if (!(mass_at(dyn, i) > 0.0)) snprintf(first, sizeof first, "DOF %d", i + 1);
    if (!e || !e->massless)
        return hs_fail(it->ctx, HS_EUNSUPPORTED,
                       "integrator %s: %d DOF(s) carry no mass (%s first), and %s needs a mass "
                       "at every DOF (an explicit method's M or its predictor); use one that "
                       "takes DOFs without mass (%s; docs/integrators.md)",
                       it->type, n0, first, it->type,
                       hs_integrator_massless_list(list, sizeof list));
    if (!dyn->M || !dyn->K0)
        return hs_fail(it->ctx, HS_EUNSUPPORTED,
                       "integrator %s: DOFs without mass (%s first) need the dense matrices "
                       "(this structure has sparse ones); give those DOFs a mass",
                       it->type, first);
    hs_int_massless *ml = hs_calloc(1, sizeof *ml);
    if (!ml) return HS_ENOMEM;
    it->ml = ml;
    ml->n0 = n0;
    ml->idx = hs_calloc((size_t)n0, sizeof *ml->idx);
    ml->massive = hs_calloc((size_t)n, sizeof *ml->massive);
    ml->K0m = hs_dvec((size_t)n0 * (size_t)n);
    ml->b = hs_dvec((size_t)n0);
    double *K00 = hs_dvec((size_t)n0 * (size_t)n0);
    int rc = (!ml->idx || !ml->massive || !ml->K0m || !ml->b || !K00) ? HS_ENOMEM : 0;
    for (int i = 0, a = 0; !rc && i < n; i++) {
        ml->massive[i] = HS_AT(dyn->M, n, i, i) > 0.0;
        if (!ml->massive[i]) ml->idx[a++] = i;
    }
    for (int j = 0; !rc && j < n; j++)
        for (int a = 0; a < n0; a++) HS_AT(ml->K0m, n0, a, j) = HS_AT(dyn->K0, n, ml->idx[a], j);
    for (int b = 0; !rc && b < n0; b++)
        for (int a = 0; a < n0; a++) HS_AT(K00, n0, a, b) = HS_AT(ml->K0m, n0, a, ml->idx[b]);
    if (!rc) rc = hs_linsolver_create(it->ctx, "dense", n0, &ml->s);
    if (!rc) rc = hs_linsolver_factor(ml->s, K00);
    if (rc == HS_ESINGULAR)
        rc = hs_fail(it->ctx, HS_EINPUT,
                     "integrator %s: the DOFs without mass (%s first) have no initial stiffness "
                     "of their own (K0 + Ke singular there); give the experimental element an "
                     "initial stiffness, connect an element or give them a mass",
                     it->type, first);
    if (!rc) rc = hs_linsolver_solve(ml->s, ml->b); /* sizes the solver's work arrays */
    hs_free(K00);
    if (rc) hs_int_massless_free(it);
    return rc;
}

int hs_int_massless_count(const hs_integrator *it)
{
    return it->ml ? it->ml->n0 : 0;
}

int hs_int_has_mass(const hs_integrator *it, int i)
{
    return !it->ml || it->ml->massive[i];
}

int hs_int_massless_command(const hs_integrator *it, const hs_step_io *io, double *d)
{
    const hs_int_massless *ml = it->ml;
    if (!ml) return 0;
    const int n = it->n, n0 = ml->n0;
    for (int a = 0; a < n0; a++) {
        const int i = ml->idx[a];
        double s = io->f_n1 && io->f_n ? io->f_n1[i] - io->f_n[i] : 0.0;
        for (int j = 0; j < n; j++)
            if (ml->massive[j]) s -= HS_AT(ml->K0m, n0, a, j) * (d[j] - it->d[j]);
        ml->b[a] = s;
    }
    const int rc = hs_linsolver_solve(ml->s, ml->b);
    if (rc) return rc;
    for (int a = 0; a < n0; a++) d[ml->idx[a]] = it->d[ml->idx[a]] + ml->b[a];
    return 0;
}
