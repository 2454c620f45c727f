/* `eigen <solver> N` in hysim's interpreter (opensees_tcl.h): the N lowest eigenvalues omega^2
 * of the model built so far, as OpenSees returns them, so that scripts that compute their
 * Rayleigh factors from `eigen` run unchanged. hysim condenses the massless DOFs statically,
 * which leaves the finite eigenvalues of OpenSees' full model unchanged; the stiffness is the
 * initial one with the P-Delta of the gravity loads that an `analyze` has applied (OpenSees'
 * tangent after its gravity step), without the P-Delta of twoNodeLink -pDelta (a line says so).
 * The solver option (-genBandArpack, -fullGenLapack, ...) does not
 * change the values. */
#include "opensees_tcl.h"

#include "hysim/linalg.h"

#include <stdio.h>
#include <string.h>

int hs_os_cmd_eigen(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = cd;
    if (!hs_os_need_model(st, objv)) return TCL_ERROR;
    int count = 0, i = 1;
    for (; i < objc - 1; i++) {
        const char *opt = Tcl_GetString(objv[i]);
        if (opt[0] != '-' || !strcmp(opt, "-findLargest"))
            return hs_os_fail(st, objv,
                              "option '%s' is not supported by hysim (eigen <solver> "
                              "N gives the N lowest)",
                              opt);
    }
    if (objc < 2 || hs_os_int(st, objv, objc - 1, "number of eigenvalues", &count))
        return objc < 2 ? hs_os_fail(st, objv, "expected 'eigen <solver> N'") : TCL_ERROR;
    /* OpenSees' tangent holds the gravity loads once an analysis has applied them */
    hs_os_model applied = *st->m;
    applied.nloads = st->loads_applied;
    hs_fe *fe = NULL;
    if (hs_os_build_fe(st->ctx, &applied, st->script, &fe)) {
        char msg[768];
        snprintf(msg, sizeof msg, "%s", hs_ctx_message(st->ctx));
        return hs_os_fail(st, objv, "the model so far cannot be built: %s", msg);
    }
    const int n = hs_fe_ndof(fe);
    if (count < 1 || count > n) {
        hs_fe_destroy(&fe);
        return hs_os_fail(st, objv,
                          "%d eigenvalues asked; the model has %d DOFs with mass (hysim "
                          "condenses the massless ones)",
                          count, n);
    }
    const size_t nn = (size_t)n * (size_t)n;
    double *K = hs_calloc(nn, sizeof *K), *M = hs_calloc(nn, sizeof *M),
           *phi = hs_calloc(nn, sizeof *phi), *w2 = hs_calloc((size_t)n, sizeof *w2);
    int rc = (!K || !M || !phi || !w2) ? HS_ENOMEM : hs_fe_initial_stiffness(fe, K);
    if (!rc) {
        hs_fe_mass_matrix(fe, M); /* full with -cMass or a mass on a rigid slave */
        rc = hs_sym_eig(st->ctx, n, K, M, w2, phi);
    }
    Tcl_Obj *list = rc ? NULL : Tcl_NewListObj(0, NULL);
    for (int k = 0; list && k < count; k++)
        Tcl_ListObjAppendElement(interp, list, Tcl_NewDoubleObj(w2[k]));
    if (list) { /* kept for hysim check (hs_os_model.eigen_w2) */
        st->m->neigen = count < HS_OS_EIGEN_KEPT ? count : HS_OS_EIGEN_KEPT;
        memcpy(st->m->eigen_w2, w2, (size_t)st->m->neigen * sizeof *w2);
        hs_os_where(st, st->m->eigen_where, sizeof st->m->eigen_where);
    }
    hs_free(K);
    hs_free(M);
    hs_free(phi);
    hs_free(w2);
    hs_fe_destroy(&fe);
    if (rc) {
        char msg[768];
        snprintf(msg, sizeof msg, "%s", hs_ctx_message(st->ctx));
        return hs_os_fail(st, objv, "%s", msg);
    }
    for (int k = 0; k < st->m->nels; k++)
        if (st->m->els[k].kind == HS_OS_LINK && st->m->els[k].has_p_delta) {
            char where[HS_OS_WHERE];
            hs_os_where(st, where, sizeof where);
            hs_log(st->ctx, HS_LOG_WARN,
                   "%s: eigen: the P-Delta of twoNodeLink -pDelta (element %d) is left out "
                   "(hysim's initial stiffness); OpenSees' eigen has the P-Delta of an axial "
                   "force at rest (a material's initial stress), so its periods differ when "
                   "there is one (docs/fe_model.md, \"Two-node link\")",
                   where, st->m->els[k].tag);
            break;
        }
    Tcl_SetObjResult(interp, list);
    return TCL_OK;
}
