/* The two-node link's state, shared by its construction (fe_link_build.c) and its state
 * determination (fe_link.c). */
#ifndef HS_FE_LINK_IMPL_H
#define HS_FE_LINK_IMPL_H

#include "fe_impl.h"

#include "hysim/setup.h"

typedef struct fe_link {
    int ndir;
    int nd; /* element DOFs: 6 (1-D, 2-D) or 12 (3-D) */
    int dir[FE_MAX_MATS];
    hs_material *mat[FE_MAX_MATS];
    double B[FE_MAX_MATS * FE_MAX_EDOF]; /* basic <- global, row k = direction k (nd values) */
    double T[FE_MAX_MATS * FE_MAX_EDOF]; /* basic <- local (T_lb), the same layout */
    /* P-Delta: ax the axial direction's index; per lateral axis a (y, z) with pd[a]: delta_a =
     * h[a] . u_g, the force N delta_a w[a] (local) = N delta_a g[a] (global); dl the last trial
     * deltas (for the recorded forces, as OpenSees keeps its trial local displacements) */
    int ax, pd[2];
    double h[2][FE_MAX_EDOF], w[2][FE_MAX_EDOF], g[2][FE_MAX_EDOF], dl[2];
    /* a bearing's P-Delta (hs_fe_link_def p_delta_bearing): the moments rot_c N rho gr, rho =
     * hr . u_g its rotations' term (the last trial in drot), and the tangent at fixed N */
    int bearing;
    double rot_c, hr[FE_MAX_EDOF], gr[FE_MAX_EDOF], drot;
    /* a given stiffness per direction (hs_fe_link_def k_dir) */
    int kfix[FE_MAX_MATS];
    double kval[FE_MAX_MATS];
    /* a given stiffness (hs_fe_link_def kb): K (nd x nd, column-major), the initial stiffness,
     * and the tangent when k_tangent */
    int has_k, k_tangent;
    double K[FE_MAX_EDOF * FE_MAX_EDOF];
    double da[FE_MAX_MATS], dv[FE_MAX_MATS], fb[FE_MAX_MATS]; /* a scaled specimen's factors */
    /* an experimental setup between the directions and the materials (fe_link_setup.c), its
     * last trial basic deformations and forces (for the recorders) */
    hs_setup *setup;
    double ub[FE_MAX_MATS], qs[FE_MAX_MATS];
    int side[FE_MAX_MATS]; /* a generic element's (hs_fe_link_def absolute): 0 node i, 1 j */
    /* an OpenFresco experimental beam-column (fe_link_beam.c): its transformation, -initStif in
     * B, its last trial global force (the recorders') */
    int beam, beam_transf;
    double kbB[9], fg[6], qA[3],
        b9[9]; /* b9: its last trial db, vb, qb in B (fe_link_beam_state) */
    int beam3; /* the 3-D one (fe_link_beam3.c): its basic system B over the link's directions */
    fe_beam3 b3;
    /* an experimental control's signal filters (hs_fe_link_def ctrl_filter, daq_filter; 1 in
     * filtered when any): the last trial basic deformations (ubt), the filtered commands the
     * materials took (cmd, cmv) and the filtered measurements (daq_u, daq_q), measured 0 before
     * the first measurement */
    int filtered, measured;
    hs_signal_filter cf[HS_SF_RESPONSES], df[HS_SF_RESPONSES];
    double ubt[FE_MAX_MATS], cmd[FE_MAX_MATS], cmv[FE_MAX_MATS], daq_u[FE_MAX_MATS],
        daq_q[FE_MAX_MATS];
    double vbt[FE_MAX_MATS]; /* the last trial basic velocities (hs_fe_link_rates) */
    /* a specimen elsewhere (hs_fe_link_set_specimen): its forces replace the materials' */
    int has_spec;
    hs_fe_specimen spec;
    double spec_db[FE_MAX_EDOF]; /* the basic deformations of its last trial (spec_moved) */
} fe_link;

#endif
