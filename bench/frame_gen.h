/* A regular 2-D moment frame for benchmarks and tests: `bays` x `stories` of elastic
 * beam-columns (bay 6 m, story 3.5 m; columns about a W14x120: A = 0.0228 m^2, I = 5.41e-4 m^4;
 * beams about a W24x55: A = 0.0105 m^2, I = 5.62e-4 m^4; E = 200 GPa), fixed bases, and at every
 * joint a mass of 20 t in x and y with a rotational inertia of 20 t x (0.5 m)^2, so that every
 * free DOF is dynamic (no condensation: the sparse path). n = 3 (bays + 1) stories DOFs. Nodes are
 * numbered story by story (half-bandwidth 3 (bays + 1) + 2) or, with `by_column`, column line by
 * column line (half-bandwidth 3 (stories + 1) + 2). With `hinge_k` > 0 each first-story column
 * stands on a bilinear rotational spring (zero-length in rz, k = hinge_k, fy = hinge_fy, b =
 * 0.05; the base node's rotation, free, gets the joints' rotational inertia: n grows by
 * bays + 1): a nonlinear frame.
 * Header-only (bench/ and tests/ include it). */
#ifndef HS_BENCH_FRAME_GEN_H
#define HS_BENCH_FRAME_GEN_H

#include "hysim/hysim.h"

#include <stdio.h>

#define HS_FRAME_BAY      6.0
#define HS_FRAME_STORY    3.5
#define HS_FRAME_E        200e9
#define HS_FRAME_COL_A    0.0228
#define HS_FRAME_COL_I    5.41e-4
#define HS_FRAME_BEAM_A   0.0105
#define HS_FRAME_BEAM_I   5.62e-4
#define HS_FRAME_MASS     20e3
#define HS_FRAME_ROT_MASS (20e3 * 0.25)

/* Node id of column line c (0..bays), level s (0 = ground..stories). */
static inline int hs_frame_node(int bays, int stories, int by_column, int c, int s)
{
    return 1 + (by_column ? c * (stories + 1) + s : s * (bays + 1) + c);
}

/* Base node of the hinge under column line c (ids after the frame's). */
static inline int hs_frame_hinge_node(int bays, int stories, int c)
{
    return 1 + (bays + 1) * (stories + 1) + c;
}

static inline int hs_frame_build(hs_ctx *ctx, int bays, int stories, int by_column, double hinge_k,
                                 double hinge_fy, hs_fe **out)
{
    hs_fe *fe = NULL;
    int rc = hs_fe_create(ctx, &fe);
    static const int FIX[3] = {1, 1, 1}, FIX_XY[3] = {1, 1, 0};
    const double mass[3] = {HS_FRAME_MASS, HS_FRAME_MASS, HS_FRAME_ROT_MASS},
                 rot_mass[3] = {0.0, 0.0, HS_FRAME_ROT_MASS}; /* a hinged base's rotation */
    const int lines = bays + 1;
    for (int k = 0; !rc && k < lines * (stories + 1); k++) { /* in id order */
        const int c = by_column ? k / (stories + 1) : k % lines;
        const int s = by_column ? k % (stories + 1) : k / lines;
        const int id = hs_frame_node(bays, stories, by_column, c, s);
        rc = hs_fe_add_node(fe, id, c * HS_FRAME_BAY, s * HS_FRAME_STORY);
        if (rc >= 0)
            rc = s == 0 ? hs_fe_fix(fe, id, hinge_k > 0.0 ? FIX_XY : FIX)
                        : hs_fe_add_mass(fe, id, mass);
        if (!rc && s == 0 && hinge_k > 0.0) rc = hs_fe_add_mass(fe, id, rot_mass);
    }
    hs_options *o = NULL;
    if (!rc && hinge_k > 0.0) {
        rc = hs_options_create(&o);
        if (!rc) {
            hs_options_set_num(o, "k", hinge_k);
            hs_options_set_num(o, "fy", hinge_fy);
            hs_options_set_num(o, "b", 0.05);
        }
        for (int c = 0; !rc && c < lines; c++) {
            const int id = hs_frame_hinge_node(bays, stories, c);
            char name[32];
            snprintf(name, sizeof name, "hinge%d", c);
            rc = hs_fe_add_node(fe, id, c * HS_FRAME_BAY, 0.0);
            if (rc >= 0) rc = hs_fe_fix(fe, id, FIX);
            if (!rc)
                rc = hs_fe_add_zero_length(fe, name, id,
                                           hs_frame_node(bays, stories, by_column, c, 0), HS_FE_RZ,
                                           "bilinear", o);
            if (rc > 0) rc = 0;
        }
    }
    hs_options_destroy(&o);
    for (int s = 1; !rc && s <= stories; s++)
        for (int c = 0; !rc && c < lines; c++) {
            char name[32];
            const int top = hs_frame_node(bays, stories, by_column, c, s);
            snprintf(name, sizeof name, "col%d_%d", c, s);
            rc = hs_fe_add_beam(fe, name, hs_frame_node(bays, stories, by_column, c, s - 1), top,
                                HS_FRAME_E, HS_FRAME_COL_A, HS_FRAME_COL_I, HS_FE_LINEAR, 0.0);
            if (rc >= 0 && c < bays) {
                snprintf(name, sizeof name, "beam%d_%d", c, s);
                rc =
                    hs_fe_add_beam(fe, name, top, hs_frame_node(bays, stories, by_column, c + 1, s),
                                   HS_FRAME_E, HS_FRAME_BEAM_A, HS_FRAME_BEAM_I, HS_FE_LINEAR, 0.0);
            }
            if (rc > 0) rc = 0;
        }
    if (!rc) rc = hs_fe_finalize(fe);
    if (rc) {
        hs_fe_destroy(&fe);
        return rc;
    }
    *out = fe;
    return 0;
}

/* The frame (without hinges, nodes story by story) as an OpenSees Tcl model in SI units: the
 * same nodes, masses and elements in the same order as hs_frame_build, `rayleigh a0 a1 0 0` at
 * the end. Returns fclose's result. */
static inline int hs_frame_write_tcl(const char *path, int bays, int stories, double a0, double a1)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "model BasicBuilder -ndm 2 -ndf 3\n");
    for (int s = 0; s <= stories; s++)
        for (int c = 0; c <= bays; c++) {
            const int id = hs_frame_node(bays, stories, 0, c, s);
            fprintf(f, "node %d %.17g %.17g\n", id, c * HS_FRAME_BAY, s * HS_FRAME_STORY);
            if (s == 0)
                fprintf(f, "fix %d 1 1 1\n", id);
            else
                fprintf(f, "mass %d %.17g %.17g %.17g\n", id, HS_FRAME_MASS, HS_FRAME_MASS,
                        HS_FRAME_ROT_MASS);
        }
    fprintf(f, "geomTransf Linear 1\n");
    int e = 1;
    for (int s = 1; s <= stories; s++)
        for (int c = 0; c <= bays; c++) {
            const int top = hs_frame_node(bays, stories, 0, c, s);
            fprintf(f, "element elasticBeamColumn %d %d %d %.17g %.17g %.17g 1\n", e++,
                    hs_frame_node(bays, stories, 0, c, s - 1), top, HS_FRAME_COL_A, HS_FRAME_E,
                    HS_FRAME_COL_I);
            if (c < bays)
                fprintf(f, "element elasticBeamColumn %d %d %d %.17g %.17g %.17g 1\n", e++, top,
                        hs_frame_node(bays, stories, 0, c + 1, s), HS_FRAME_BEAM_A, HS_FRAME_E,
                        HS_FRAME_BEAM_I);
        }
    fprintf(f, "rayleigh %.17g %.17g 0 0\n", a0, a1);
    return fclose(f);
}

#endif
