/* modalDamping in the script's own analysis, as OpenSees 3.8 applies it (facts from OpenSees'
 * SRC: interpreter/OpenSeesCommands.cpp OPS_modalDamping, domain/domain/Domain.cpp
 * setModalDampingFactors, analysis/integrator/TransientIntegrator.cpp formUnbalance and
 * formTangent, IncrementalIntegrator.cpp setupModal, addModalDampingForce and
 * addModalDampingMatrix):
 *  - the factors go to the domain, one per mode of the last `eigen` (one factor: every mode;
 *    fewer: the others 0; more: the extra ignored); `eigen` must come first; `wipe` clears them;
 *  - every transient step's unbalance gets the force -sum_i 2 zeta_i omega_i (M phi_i)
 *    (M phi_i)^T v, v the trial velocity at t + dt (Newmark's and HHT's getVel: Udot), modes
 *    of omega^2 <= 0 or zeta 0 left out, phi the modes the last eigen found (M-orthonormal);
 *  - `modalDamping` puts the same matrix times the integrator's c factor into the tangent:
 *    Newmark's gamma / (beta dt); HHT's getCFactor is IncrementalIntegrator's 0, so HHT's tangent
 *    has none; `modalDampingQ` (setModalDampingFactors(..., false)) puts none in any.
 * AlphaOS and NewmarkExplicit (their own getVel) are not yet in hysim with modal damping. */
#include "opensees_analysis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int hs_os_live_store_modes(hs_os_live *lv, int count, int nk, const int *keep, const double *w2,
                           const double *phi)
{
    const int n = lv->n;
    hs_free(lv->modal_w2);
    hs_free(lv->modal_mphi);
    lv->nmodes = 0;
    lv->modal_w2 = hs_dvec((size_t)count);
    lv->modal_mphi = hs_dvec((size_t)n * (size_t)count);
    if (!lv->modal_w2 || !lv->modal_mphi) return HS_ENOMEM;
    for (int k = 0; k < count; k++) {
        lv->modal_w2[k] = w2[k];
        double *mphi = lv->modal_mphi + (size_t)n * (size_t)k;
        for (int b = 0; b < nk; b++) {
            const double p = HS_AT(phi, nk, b, k);
            if (p == 0.0) continue;
            for (int i = 0; i < n; i++) mphi[i] += HS_AT(lv->M, n, i, keep[b]) * p;
        }
    }
    lv->nmodes = count;
    return 0;
}

int hs_os_live_modal_damping(hs_os_live *lv, const hs_os_settings *set, const double *zeta,
                             int nzeta, int modal_q)
{
    const int n = lv->n, modes = nzeta < lv->nmodes ? nzeta : lv->nmodes;
    hs_free(lv->Cmodal);
    lv->Cmodal = NULL;
    if (modes == 0) return 0;
    if (set->explicit_newmark || set->alpha_os)
        return hs_fail(lv->ctx, HS_EUNSUPPORTED,
                       "modalDamping with integrator %s: not yet in hysim (it has it with Newmark "
                       "and HHT); give the damping with rayleigh, or integrator Newmark",
                       set->alpha_os ? "AlphaOS" : "NewmarkExplicit");
    if (!set->hht && !modal_q) { /* its tangent term couples every DOF */
        const int rc = hs_os_live_storage_full(lv);
        if (rc) return rc;
    }
    lv->modal_q = modal_q;
    lv->Cmodal = hs_dvec((size_t)n * (size_t)n);
    if (!lv->Cmodal) return HS_ENOMEM;
    for (int k = 0; k < modes; k++) {
        if (!(lv->modal_w2[k] > 0.0) || zeta[k] == 0.0) continue;
        const double c = 2.0 * zeta[k] * sqrt(lv->modal_w2[k]);
        const double *e = lv->modal_mphi + (size_t)n * (size_t)k;
        for (int j = 0; j < n; j++) {
            if (e[j] == 0.0) continue;
            for (int i = 0; i < n; i++) HS_AT(lv->Cmodal, n, i, j) += c * e[i] * e[j];
        }
    }
    return 0;
}

/* modalDamping|modalDampingQ factor | factor1 factor2 ...: with a test file's analysis, ignored
 * (its damping applies); in the script's own analysis, OpenSees' domain factors. */
int hs_os_cmd_modal_damping(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = cd;
    hs_os_analysis *an = st->an;
    if (objc < 2) return hs_os_fail(st, objv, "expected 'modalDamping factor <factor2 ...>'");
    const int neig = an->eigen_count;
    double *zeta = hs_dvec((size_t)(objc > neig ? objc : neig));
    if (!zeta) return hs_os_fail(st, objv, "out of memory");
    for (int i = 1; i < objc; i++)
        if (hs_os_num(st, objv, i, "damping factor", &zeta[i - 1])) {
            hs_free(zeta);
            return TCL_ERROR;
        }
    if (!st->live) {
        hs_free(zeta);
        hs_os_ignored_once(st, Tcl_GetString(objv[0]), "the test file sets the analysis");
        Tcl_ResetResult(interp);
        return TCL_OK;
    }
    if (neig == 0) {
        hs_free(zeta);
        return hs_os_fail(st, objv,
                          "no modes: give 'eigen N' first (OpenSees 3.8 refuses it too: "
                          "\"eigen command needs to be called first\")");
    }
    const int given = objc - 1;
    if (given > 1 && given != neig) {
        char where[HS_OS_WHERE];
        hs_os_where(st, where, sizeof where);
        hs_log(st->ctx, HS_LOG_WARN,
               "%s: %s: %d factors for the %d modes of the last eigen: %s (as OpenSees)", where,
               Tcl_GetString(objv[0]), given, neig,
               given < neig ? "the other modes undamped" : "the extra factors ignored");
    }
    for (int k = 0; k < neig; k++) zeta[k] = given == 1 ? zeta[0] : k < given ? zeta[k] : 0.0;
    hs_free(an->modal_zeta);
    an->modal_zeta = zeta;
    an->nmodal = neig;
    an->modal_q = !strcmp(Tcl_GetString(objv[0]), "modalDampingQ");
    an->modal_dirty = 1;
    Tcl_ResetResult(interp);
    return TCL_OK;
}
