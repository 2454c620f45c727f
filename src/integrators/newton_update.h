/* The Newton matrix of a model whose tangent changes on few DOFs: a factor kept for a base matrix
 * B and, for a later matrix J = B + E D E^T whose entries differ from B's only in the rows and
 * columns of a small DOF set S (E the columns of the identity for S, D = (J - B) on S x S), the
 * exact solution of J x = b by the Sherman-Morrison-Woodbury identity (Woodbury 1950):
 *   y = B^-1 b,   (I + G D) x_S = y_S   with G = (B^-1)_SS,   x = y - W (D x_S),   W = B^-1 E.
 * A step of a frame with a few yielding hinges then costs solves with the base factor and an s x s
 * LU instead of a numeric refactor of the whole matrix (bench/bench_frame.c). The columns of W are
 * computed once per DOF (one solve each) and kept until the next refactor. J is refactored, and
 * becomes the new base, when S would exceed `max_dofs` or the kept columns `4 max_dofs`. Not
 * public: the implicit core's sparse path uses it (docs/integrators.md, "update"). */
#ifndef HS_NEWTON_UPDATE_H
#define HS_NEWTON_UPDATE_H

#include "hysim/linalg.h"
#include "hysim/sparse.h"

typedef struct hs_newton_update hs_newton_update;

/* For matrices on `pattern` (lent, n x n, kept by the caller), factored by `ls` (owned from now
 * on, also on failure). Allocates everything the steps use. */
int hs_newton_update_create(hs_ctx *ctx, hs_linsolver *ls, const hs_csc *pattern, int max_dofs,
                            hs_newton_update **out);
/* J (on the pattern): kept as an update of the base when it can be, else factored. HS_ESINGULAR
 * when J is singular. Never allocates. */
int hs_newton_update_factor(hs_newton_update *u, const hs_csc *J);
/* The same when J differs from the J of the previous call at most at the positions `at` (nat of
 * them; NULL: anywhere): only those and the last update's are compared with the base. */
int hs_newton_update_factor_at(hs_newton_update *u, const hs_csc *J, const int *at, int nat);
/* Solves J x = b in place for the last J given. */
int hs_newton_update_solve(hs_newton_update *u, double *b);
/* Counts since creation: full factors, factors kept as updates (J differs from the base) and
 * factors of a J equal to the base (nothing to do); the DOFs of the last update. */
void hs_newton_update_counts(const hs_newton_update *u, long *factors, long *updates,
                             long *unchanged, int *dofs);
void hs_newton_update_destroy(hs_newton_update **u);

#endif
