/* The load and boundary condition box of the tests and bench_setup (docs/setups.md, "The LBCB's
 * layout"): a 2.7 m x 1.2 m platform on three vertical actuators (1.2 m), two along x at its end
 * (1.5 m) and one along y (1.2 m), the control point at the platform's centre; six DOFs. */
#ifndef HS_TEST_LBCB_H
#define HS_TEST_LBCB_H

#include "hysim/setup.h"

#include <string.h>

static inline hs_setup_geometry hs_test_lbcb(int nl_geom)
{
    hs_setup_geometry g;
    memset(&g, 0, sizeof g);
    g.nact = 6;
    g.ndof = 6;
    for (int k = 0; k < 6; k++) g.dof[k] = k;
    g.nl_geom = nl_geom;
    const double pins[6][3] = {{-1.0, -0.45, 0},  {-1.0, 0.45, 0},  {1.0, 0, 0},
                               {-1.35, -0.45, 0}, {-1.35, 0.45, 0}, {0, -0.6, 0}};
    const double axes[6][3] = {{0, 0, 1.2}, {0, 0, 1.2}, {0, 0, 1.2},
                               {1.5, 0, 0}, {1.5, 0, 0}, {0, 1.2, 0}};
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 3; j++) {
            g.pin[i][j] = pins[i][j];
            g.base[i][j] = pins[i][j] - axes[i][j];
        }
    return g;
}

#endif
