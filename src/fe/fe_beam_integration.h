/* Integration along a beam-column (private to src/fe): OpenSees' beamIntegration rules as points
 * xi in [0, 1] from node I and weights summing to 1 (times L in the element's integrals), with the
 * section each point uses (the files SRC/element/forceBeamColumn/...BeamIntegration.cpp, read for
 * facts; the Gauss-type points are computed to round-off rather than taken from OpenSees' 15-digit
 * tables). Lobatto (n >= 2: both ends), Legendre (n >= 1: Gauss), Radau (n >= 1: node I's end
 * included), NewtonCotes (n >= 2: equally spaced, ends included), UserDefined (given points and
 * weights); the plastic-hinge rules (Scott & Fenves 2006) put hinge sections at the ends over
 * lengths lpI, lpJ and an interior section at two Gauss points between them: HingeRadau:     0, 8/3
 * lpI/L (weights lpI/L, 3 lpI/L), mirror at J, interior 2 Gauss points; HingeRadauTwo:  0, 2/3
 * lpI/L (weights lpI/4L, 3 lpI/4L), mirror at J; HingeEndpoint:  0 (weight lpI/L), 1 (lpJ/L),
 * interior 2 Gauss points. */
#ifndef HS_FE_BEAM_INTEGRATION_H
#define HS_FE_BEAM_INTEGRATION_H

#include "hysim/base.h"

#define FE_BI_MAX 20 /* integration points of an element */

typedef enum fe_bi_kind {
    FE_BI_LOBATTO,
    FE_BI_LEGENDRE,
    FE_BI_RADAU,
    FE_BI_NEWTON_COTES,
    FE_BI_USER,
    FE_BI_HINGE_RADAU,
    FE_BI_HINGE_RADAU_TWO,
    FE_BI_HINGE_ENDPOINT
} fe_bi_kind;

/* Which section a point uses: the element's one section (or hinge I's), the interior one, or
 * hinge J's. */
enum { FE_BI_SEC_I = 0, FE_BI_SEC_E = 1, FE_BI_SEC_J = 2 };

typedef struct fe_beam_integration {
    fe_bi_kind kind;
    int n;                /* points (hinge rules: 6 or 4) */
    double xi[FE_BI_MAX]; /* in [0, 1] from node I */
    double w[FE_BI_MAX];  /* sum 1 */
    int which[FE_BI_MAX]; /* FE_BI_SEC_* */
} fe_beam_integration;

/* The rule of `kind` with n points (Gauss types and NewtonCotes) on an element of length L with
 * hinge lengths lpI, lpJ (hinge rules), or the user's n points xi and weights w (UserDefined:
 * xi in [0, 1], weights summing to 1 are not required, as OpenSees). HS_EINPUT with a message
 * that names the rule and the limit. */
int fe_beam_integration_make(hs_ctx *ctx, fe_bi_kind kind, int n, double L, double lpI, double lpJ,
                             const double *xi, const double *w, fe_beam_integration *out);
/* The kind called `name` (OpenSees' word: "Lobatto", ..., "UserDefined"), or -1. */
int fe_beam_integration_kind(const char *name);

#endif
