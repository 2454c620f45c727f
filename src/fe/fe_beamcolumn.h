/* The basic system of 2-D and 3-D beam-column elements with sections at integration points
 * (private to src/fe): from the basic deformations v = [chord elongation, rotations about z at I
 * and J (relative to the chord); 3-D: rotations about y at I and J, twist] to the basic forces
 * q = [axial force, Mz at I, Mz at J; 3-D: My at I, My at J, torque] and the basic stiffness
 * kb = dq/dv (nq = 3 or 6 of them), as OpenSees' DispBeamColumn2d/3d and ForceBeamColumn2d/3d
 * (SRC/element/dispBeamColumn, forceBeamColumn, read for facts). The geometric transformation
 * (Linear, PDelta, Corotational) maps these to the nodes.
 *
 * Displacement-based: section deformations from cubic/linear displacement fields,
 *   eps = v0 / L,   kz = ((6 xi - 4) v1 + (6 xi - 2) v2) / L,   ky = ((6 xi - 4) v3 + (6 xi - 2)
 * v4) / L,   twist = v5 / L,   q = sum w L B^T s,   kb = sum w L B^T ks B. Force-based (Spacone,
 * Filippou & Taucer 1996; Neuenhofer & Filippou 1997): section forces in equilibrium with q, s(xi)
 * = b(xi) q with P = q0, Mz = (xi - 1) q1 + xi q2, Vy = (q1 + q2) / L; 3-D also My = (xi - 1) q3 +
 * xi q4, Vz = (q3 + q4) / L, T = q5; element state determination iterates on the section
 * deformations until the basic deformations they integrate to, vr = sum w L b^T (vs + fs (b q -
 * s)), match v: each iteration q += kv (v - vr),   kv = (sum w L b^T fs b)^-1, converged when the
 * work |(v - vr) . dq| < tol (OpenSees' test, default 1e-12) within maxIters (default 10); on
 * failure OpenSees' fallbacks in order: the initial section flexibility with 10 maxIters, then
 * initial first and current after, then the increment halved... by the factor 10, up to 4
 * subdivisions. An increment of v of norm <= DBL_EPSILON leaves the state (as OpenSees'
 * update). The iterations are counted (last call, total, largest). */
#ifndef HS_FE_BEAMCOLUMN_H
#define HS_FE_BEAMCOLUMN_H

#include "fe_beam_integration.h"
#include "fe_section.h"

/* The force-based element's arrays of its points: per point the section deformations vs (of a
 * section of order n the first n used: the rows its sections are set from), and its resultants
 * sr and flexibility fs packed point after point, ns + ns^2 values a point for the element's
 * largest order ns (fe_bc_sr, fe_bc_fs: a 2-D fiber element's 5 points in 240 bytes instead of 5
 * rows of 336). */
typedef double fe_pt_vec[FE_SEC_MAX];
typedef struct fe_bc_points {
    fe_pt_vec vs[FE_BI_MAX];
    double srfs[FE_BI_MAX * (FE_SEC_MAX + FE_SEC_MAX * FE_SEC_MAX)];
} fe_bc_points;

typedef struct fe_bc2d {
    /* (the fields of every state determination first: a few cache lines) */
    hs_ctx *ctx;
    int force_based; /* 0 displacement-based, 1 force-based, 2 force-based with CBDI */
    int nq;          /* basic forces: 3 (2-D sections) or 6 (3-D) */
    int order2;      /* every section has 2 resultants (a 2-D fiber section's) */
    int pm;          /* 2-D, every section of P and Mz (force_attempt_pm) */
    int max_iter;    /* force-based: per attempt (OpenSees' maxIters) */
    int max_sub;     /* force-based: subdivisions of the increment */
    int ns;          /* the largest order of its sections (the points' packed arrays) */
    /* member loads (fe_member_load.c), set before each trial: whether the element has any (the
     * force-based state is then determined even without an increment, as OpenSees'), the
     * displacement-based element's fixed-end forces q0 (added to q), the force-based one's
     * section forces sp of each point (its sections carry b q + sp; both below) */
    int loaded;
    int iters_last, iters_max; /* force-based: iterations of the last call, the largest */
    long iters_total, calls;
    double L, iL;            /* the length and 1 / L (its transformations' T, once) */
    double tol;              /* force-based: on the work |dv . dq| */
    fe_section_batch *batch; /* force-based, P-Mz fiber sections: set in one call (owned) */
    /* force-based: the points' arrays, converged (pt: of the state q, kb), committed (pt_c)
     * and an attempt's (pt_t); pt and pt_t are the two sets of pts, swapped when an attempt
     * converges (no copy) */
    fe_bc_points *pt, *pt_t;
    /* trial and committed state */
    double v[6], q[6], kb[36];
    fe_section *sec[FE_BI_MAX]; /* one per point (owned) */
    fe_beam_integration bi;
    double v_c[6], q_c[6], kb_c[36];
    fe_bc_points pts[2], pt_c;
    double q0[6];
    double sp[FE_BI_MAX][FE_SEC_MAX];
} fe_bc2d;

/* The attempt's points' arrays become the converged ones, the converged ones the next attempt's
 * scratch. */
static inline void fe_bc_points_swap(fe_bc2d *e)
{
    fe_bc_points *t = e->pt;
    e->pt = e->pt_t;
    e->pt_t = t;
}

/* Point p's resultants sr (ns) and flexibility fs (n x n of its section's order n <= ns) in a
 * set of the element's points' arrays. */
static inline double *fe_bc_point_sr(fe_bc_points *s, int p, int ns)
{
    return s->srfs + (size_t)p * (size_t)(ns + ns * ns);
}
static inline double *fe_bc_sr(const fe_bc2d *e, fe_bc_points *s, int p)
{
    return fe_bc_point_sr(s, p, e->ns);
}
static inline double *fe_bc_fs(const fe_bc2d *e, fe_bc_points *s, int p)
{
    return fe_bc_sr(e, s, p) + e->ns;
}

/* An element of length L with rule bi and its sections (bi->n of them, one per point, owned
 * from here even on failure; all 2-D or all 3-D, 3-D ones with torsion); a batch of its sections
 * (fe_section_batch) takes its scratch in `scratch` (the model's; NULL: its own). */
int fe_bc2d_create(hs_ctx *ctx, int force_based, double L, const fe_beam_integration *bi,
                   fe_section **secs, fe_batch_scratch *scratch, fe_bc2d **out);
void fe_bc2d_destroy(fe_bc2d **e);
/* Trial basic deformations (nq): e->q, e->kb (nq x nq, row-major). HS_ECONVERGE when the
 * force-based state determination does not converge (the message names the element's work and
 * iterations). */
int fe_bc2d_set_trial(fe_bc2d *e, const double *v);
int fe_bc2d_commit(fe_bc2d *e);
/* The basic stiffness (nq x nq) from the sections' initial tangents (nothing changes); -1 if
 * singular. */
int fe_bc2d_initial_stiffness(const fe_bc2d *e, double *kb);
int fe_bc2d_revert(fe_bc2d *e);
/* forceBeamColumnCBDI (fe_beamcolumn_cbdi.c; force_based 2): the element's sections must be of P
 * and Mz in 2-D (an error in ctx otherwise), and its state determination at v. */
int fe_bc_cbdi_check(hs_ctx *ctx, const fe_bc2d *e);
int fe_bc_cbdi_state(fe_bc2d *e, const double *v);

#endif
