/* Static condensation of a dense symmetric stiffness (hs_static_condense, linalg.h). */
#include "hysim/linalg.h"

int hs_static_condense(hs_ctx *ctx, int n, double *K, const unsigned char *drop)
{
    int n0 = 0;
    for (int i = 0; i < n; i++) n0 += drop[i] != 0;
    if (n0 == 0) return 0;
    int *idx = hs_calloc((size_t)n0, sizeof *idx);
    double *K00 = hs_dvec((size_t)n0 * (size_t)n0), *X = hs_dvec((size_t)n0 * (size_t)n);
    hs_linsolver *s = NULL;
    int rc = (!idx || !K00 || !X) ? HS_ENOMEM : 0;
    for (int i = 0, a = 0; !rc && i < n; i++)
        if (drop[i]) idx[a++] = i;
    for (int b = 0; !rc && b < n0; b++)
        for (int a = 0; a < n0; a++) HS_AT(K00, n0, a, b) = HS_AT(K, n, idx[a], idx[b]);
    if (!rc) rc = hs_linsolver_create(ctx, "dense", n0, &s);
    if (!rc) rc = hs_linsolver_factor(s, K00);
    /* X = K00^-1 K0m, column j of the n; then K -= Km0 X on the kept DOFs */
    for (int j = 0; !rc && j < n; j++) {
        double *x = &X[(size_t)j * (size_t)n0];
        for (int a = 0; a < n0; a++) x[a] = HS_AT(K, n, idx[a], j);
        rc = hs_linsolver_solve(s, x);
    }
    /* the entries Km0 read live in the dropped columns, which the update leaves as they are */
    for (int j = 0; !rc && j < n; j++)
        for (int i = 0; !drop[j] && i < n; i++) {
            if (drop[i]) continue;
            double t = 0.0;
            for (int a = 0; a < n0; a++)
                t += HS_AT(K, n, i, idx[a]) * X[(size_t)j * (size_t)n0 + (size_t)a];
            HS_AT(K, n, i, j) -= t;
        }
    for (int a = 0; !rc && a < n0; a++)
        for (int i = 0; i < n; i++) HS_AT(K, n, i, idx[a]) = HS_AT(K, n, idx[a], i) = 0.0;
    hs_linsolver_destroy(&s);
    hs_free(idx);
    hs_free(K00);
    hs_free(X);
    return rc;
}
