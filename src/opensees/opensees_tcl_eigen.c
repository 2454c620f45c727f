/* `eigen <solver> N` in hysim's interpreter (opensees_tcl.h): the N lowest eigenvalues omega^2
 * of the model built so far, as OpenSees returns them, so that scripts that compute their
 * Rayleigh factors from `eigen` run unchanged. hysim condenses the massless DOFs statically,
 * which leaves the finite eigenvalues of OpenSees' full model unchanged; the stiffness is the
 * tangent at the committed state once the script's own analysis has run (OpenSees' eigen after
 * a gravity analysis: the materials' tangents and the P-Delta of the members' axial forces);
 * with the test file's analysis, the initial one with the P-Delta of the gravity loads that an
 * `analyze` has applied, without the P-Delta of twoNodeLink -pDelta (a line says so).
 * The solver option (-genBandArpack, -fullGenLapack, ...) does not
 * change the values. */
#include "opensees_analysis.h"
#include "opensees_tcl.h"

#include "hysim/linalg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The live model's tangent at its committed state, condensed onto its DOFs with mass (n of them,
 * in the live model's order; ADDED to K, their mass to M), as OpenSees' eigen takes its elements'
 * tangent stiffness after an analysis: a restore at the committed displacements, then back to
 * the commit. The live model keeps its massless DOFs; condensing them leaves OpenSees' finite
 * eigenvalues unchanged. HS_EINPUT when the live model's massive DOFs are not n (n < 0: any,
 * their count in *nkept). keep[lv->n]: the live DOFs kept, in order. */
static int live_tangent(hs_ctx *ctx, hs_os_live *lv, int n, double *K, double *M, int *keep,
                        int *nkept)
{
    const int nl = lv->n;
    const size_t nn = (size_t)nl * (size_t)nl;
    double *Kl = hs_calloc(nn, sizeof *Kl), *r = hs_calloc((size_t)nl, sizeof *r);
    unsigned char *drop = hs_calloc((size_t)nl, 1);
    int rc = (!Kl || !r || !drop || !keep) ? HS_ENOMEM : 0;
    if (!rc) rc = hs_fe_restore(lv->fe, lv->U, NULL, r, Kl, NULL);
    hs_fe_revert(lv->fe);
    if (!rc) rc = hs_os_live_imposed_resolve(lv, NULL);
    for (int k = 0; !rc && k < lv->nsp; k++) { /* an imposed DOF: fixed, as in OpenSees */
        const int q = lv->sp_eq[k];
        for (int i = 0; i < nl; i++) HS_AT(Kl, nl, i, q) = HS_AT(Kl, nl, q, i) = 0.0;
        HS_AT(Kl, nl, q, q) = 1.0;
    }
    int nk = 0; /* lv->M is the mass (its fe has unit masses) */
    for (int i = 0; !rc && i < nl; i++) {
        for (int j = 0; j < nl; j++) drop[i] |= HS_AT(lv->M, nl, i, j) != 0.0;
        drop[i] = !drop[i];
        for (int k = 0; k < lv->nsp; k++) drop[i] |= lv->sp_eq[k] == i;
        if (!drop[i]) keep[nk++] = i;
    }
    *nkept = nk;
    if (n < 0) n = nk;
    if (!rc && nk != n)
        rc = hs_fail(ctx, HS_EINPUT, "the analysed model has %d DOFs with mass, the model %d", nk,
                     n);
    if (!rc) rc = hs_static_condense(ctx, nl, Kl, drop);
    for (int j = 0; !rc && j < nk; j++)
        for (int i = 0; i < nk; i++) {
            HS_AT(K, n, i, j) += HS_AT(Kl, nl, keep[i], keep[j]);
            HS_AT(M, n, i, j) += HS_AT(lv->M, nl, keep[i], keep[j]);
        }
    hs_free(Kl);
    hs_free(r);
    hs_free(drop);
    return rc;
}

/* The eigenproblem of the live tangent: symmetric, or the general one when K is nonsymmetric
 * beyond round-off (P-Delta links: OpenSees' -fullGenLapack solves that one too). */
static int live_eig(hs_ctx *ctx, int n, const double *K, const double *M, double *w2, double *phi)
{
    double big = 0.0, skew = 0.0;
    for (size_t k = 0; k < (size_t)n * (size_t)n; k++) big = fmax(big, fabs(K[k]));
    for (int j = 0; j < n; j++)
        for (int i = 0; i < j; i++) skew = fmax(skew, fabs(HS_AT(K, n, i, j) - HS_AT(K, n, j, i)));
    return skew > 1e-12 * big ? hs_gen_eig(ctx, n, K, M, w2, phi)
                              : hs_sym_eig(ctx, n, K, M, w2, phi);
}

int hs_os_live_modes(hs_ctx *ctx, hs_os_live *lv, int count)
{
    const int nl = lv->n;
    const size_t nn = (size_t)nl * (size_t)nl;
    double *K = hs_calloc(nn, sizeof *K), *M = hs_calloc(nn, sizeof *M),
           *phi = hs_calloc(nn, sizeof *phi), *w2 = hs_calloc((size_t)nl, sizeof *w2);
    int *keep = hs_calloc((size_t)nl, sizeof *keep), nk = 0;
    int rc = (!K || !M || !phi || !w2 || !keep) ? HS_ENOMEM : 0;
    if (!rc) rc = live_tangent(ctx, lv, -1, K, M, keep, &nk); /* K, M: nk x nk */
    if (!rc && (count < 1 || count > nk))
        rc = hs_fail(ctx, HS_EINPUT, "%d modes asked; the model has %d DOFs with mass", count, nk);
    if (!rc) rc = live_eig(ctx, nk, K, M, w2, phi);
    if (!rc) rc = hs_os_live_store_modes(lv, count, nk, keep, w2, phi);
    hs_free(K);
    hs_free(M);
    hs_free(phi);
    hs_free(w2);
    hs_free(keep);
    return rc;
}

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
    /* OpenSees' tangent holds the gravity loads once an analysis has applied them (the live
     * model's own tangent has them: this build then only counts the DOFs) */
    hs_os_model applied = *st->m;
    const int live = st->live && st->an && st->an->lv;
    applied.nloads = live ? 0 : st->loads_applied;
    applied.neleloads = live ? 0 : st->eleloads_applied;
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
    hs_os_live *lv = st->live && st->an ? st->an->lv : NULL;
    int *keep = lv ? hs_calloc((size_t)lv->n, sizeof *keep) : NULL, nk = 0;
    int rc = (!K || !M || !phi || !w2 || (lv && !keep)) ? HS_ENOMEM : 0;
    if (!rc && lv && st->an->rebuild) { /* updateParameter since the last analyze */
        rc = hs_os_live_rebuild(st, &st->an->lv);
        lv = st->an->lv;
    }
    if (!rc && lv) rc = hs_os_live_refresh(st, lv); /* a mass given since the last analyze */
    if (!rc)
        rc = lv ? live_tangent(st->ctx, lv, n, K, M, keep, &nk) : hs_fe_initial_stiffness(fe, K);
    if (!rc && !lv) hs_fe_mass_matrix(fe, M); /* full with -cMass or a mass on a rigid slave */
    if (!rc) rc = lv ? live_eig(st->ctx, n, K, M, w2, phi) : hs_sym_eig(st->ctx, n, K, M, w2, phi);
    /* the modes modalDamping uses: now on the live model, or at its first analyze (the same
     * initial state: no analysis has run) */
    if (!rc && st->live && st->an) {
        st->an->eigen_count = count;
        st->an->modes_pending = !lv;
        st->an->modal_dirty = 1;
        if (lv) rc = hs_os_live_store_modes(lv, count, nk, keep, w2, phi);
    }
    hs_free(keep);
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
    hs_os_analysis_for_eigen(st);
    Tcl_SetObjResult(interp, list);
    return TCL_OK;
}
