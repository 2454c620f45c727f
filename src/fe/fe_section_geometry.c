/* Fiber geometry of OpenSees' patches and layers (fe_section.h), as OpenSees 3.8 lays them out
 * (SRC/material/section/repres/patch/QuadPatch.cpp, CircPatch.cpp, cell/QuadCell.cpp,
 * reinfLayer/StraightReinfLayer.cpp, CircReinfLayer.cpp, read for facts). */
#include "fe_section.h"

#include <math.h>

static const double PI = 3.14159265358979323846;

/* Area and centroid of the quadrilateral v (4 vertices y, z in order): the polygon formulas. */
static double quad_cell(const double v[8], double *cy, double *cz)
{
    double area = 0.0, gy = 0.0, gz = 0.0;
    for (int i = 0; i < 4; i++) {
        const int j = (i + 1) % 4;
        const double yi = v[2 * i], zi = v[2 * i + 1], yj = v[2 * j], zj = v[2 * j + 1];
        area += (zj - zi) * (yj + yi);
        const double dy = yj - yi, dz = zj - zi;
        const double integ = yi * zi + (yi * dz + zi * dy) / 2.0 + dy * dz / 3.0;
        gy -= dy * integ;
        gz += dz * integ;
    }
    area /= 2.0;
    *cy = gy / area;
    *cz = gz / area;
    return area;
}

/* Stores one cell as a fiber; -1 when the cell is degenerate or turns clockwise. */
static int put_cell(hs_ctx *ctx, const double v[8], double *y, double *z, double *A, int k)
{
    double cy, cz;
    const double area = quad_cell(v, &cy, &cz);
    if (!(area > 0.0)) {
        hs_fail(ctx, HS_EINPUT,
                "patch: a cell has area %g; give the vertices counterclockwise (I J K L) with "
                "radii and angles increasing",
                area);
        return -1;
    }
    y[k] = cy;
    z[k] = cz;
    A[k] = area;
    return 0;
}

static int check_count(hs_ctx *ctx, const char *what, int n, int m, int cap)
{
    if (n < 1 || m < 1) {
        hs_fail(ctx, HS_EINPUT, "%s: %d x %d subdivisions (at least 1 each)", what, n, m);
        return -1;
    }
    if ((long)n * m > cap) {
        hs_fail(ctx, HS_EINPUT, "%s: %ld fibers, more than the %d allowed", what, (long)n * m, cap);
        return -1;
    }
    return 0;
}

int hs_fe_patch_quad(hs_ctx *ctx, int nij, int njk, const double yz[8], double *y, double *z,
                     double *A, int cap)
{
    if (check_count(ctx, "patch quad", nij, njk, cap)) return -1;
    const double dxi = 2.0 / nij, deta = 2.0 / njk;
    int k = 0;
    for (int j = 0; j < njk; j++)
        for (int i = 0; i < nij; i++) {
            const double nat[8] = {-1.0 + dxi * i,  -1.0 + deta * j,      -1.0 + dxi * (i + 1),
                                   -1.0 + deta * j, -1.0 + dxi * (i + 1), -1.0 + deta * (j + 1),
                                   -1.0 + dxi * i,  -1.0 + deta * (j + 1)};
            double v[8];
            for (int r = 0; r < 4; r++) {
                const double xi = nat[2 * r], eta = nat[2 * r + 1];
                const double N[4] = {(1.0 - xi) * (1.0 - eta) / 4.0, (1.0 + xi) * (1.0 - eta) / 4.0,
                                     (1.0 + xi) * (1.0 + eta) / 4.0,
                                     (1.0 - xi) * (1.0 + eta) / 4.0};
                v[2 * r] = v[2 * r + 1] = 0.0;
                for (int s = 0; s < 4; s++) {
                    v[2 * r] += N[s] * yz[2 * s];
                    v[2 * r + 1] += N[s] * yz[2 * s + 1];
                }
            }
            if (put_cell(ctx, v, y, z, A, k++)) return -1;
        }
    return k;
}

int hs_fe_patch_rect(hs_ctx *ctx, int ny, int nz, double yi, double zi, double yj, double zj,
                     double *y, double *z, double *A, int cap)
{
    const double yz[8] = {yi, zi, yj, zi, yj, zj, yi, zj};
    return hs_fe_patch_quad(ctx, ny, nz, yz, y, z, A, cap);
}

int hs_fe_patch_circ(hs_ctx *ctx, int nc, int nr, double yc, double zc, double ri, double re,
                     double a0, double a1, double *y, double *z, double *A, int cap)
{
    if (check_count(ctx, "patch circ", nc, nr, cap)) return -1;
    if (!(ri >= 0.0 && re > ri && a1 > a0)) {
        hs_fail(ctx, HS_EINPUT,
                "patch circ: radii %g..%g and angles %g..%g (need 0 <= intRad < extRad, "
                "startAng < endAng)",
                ri, re, a0, a1);
        return -1;
    }
    /* each cell the annular sector between radii r0, r1 and angles ti, ti + dt, at its centroid:
     * area h (r1^2 - r0^2) with h = dt / 2, centroid radius from the two circular sectors' (2 r
     * sin h / (3 h)), as OpenSees 3.8's CircPatch (CircSectionCell.cpp) */
    const double t0 = PI * a0 / 180.0, dt = (PI * a1 / 180.0 - t0) / nc, dr = (re - ri) / nr;
    const double h = dt / 2.0, arm = 2.0 * sin(h) / (3.0 * h);
    int k = 0;
    for (int j = 0; j < nr; j++) {
        const double r0 = ri + dr * j, r1 = r0 + dr;
        const double A0 = h * r0 * r0, A1 = h * r1 * r1, area = A1 - A0;
        const double c = (A1 * arm * r1 - A0 * arm * r0) / area;
        for (int i = 0; i < nc; i++, k++) {
            const double tm = t0 + dt * i + h;
            y[k] = yc + c * cos(tm);
            z[k] = zc + c * sin(tm);
            A[k] = area;
        }
    }
    return k;
}

static int check_bars(hs_ctx *ctx, const char *what, int n, double area, int cap)
{
    if (check_count(ctx, what, n, 1, cap)) return -1;
    if (!(area > 0.0 && isfinite(area))) {
        hs_fail(ctx, HS_EINPUT, "%s: bar area %g (must be > 0)", what, area);
        return -1;
    }
    return 0;
}

int hs_fe_layer_straight(hs_ctx *ctx, int n, double area, double y0, double z0, double y1,
                         double z1, double *y, double *z, double *A, int cap)
{
    if (check_bars(ctx, "layer straight", n, area, cap)) return -1;
    for (int i = 0; i < n; i++) {
        if (n == 1) {
            y[i] = (y0 + y1) / 2;
            z[i] = (z0 + z1) / 2;
        } else {
            y[i] = y0 + (y1 - y0) / (n - 1) * i;
            z[i] = z0 + (z1 - z0) / (n - 1) * i;
        }
        A[i] = area;
    }
    return n;
}

int hs_fe_layer_circ(hs_ctx *ctx, int n, double area, double yc, double zc, double r, double a0,
                     double a1, int whole, double *y, double *z, double *A, int cap)
{
    if (check_bars(ctx, "layer circ", n, area, cap)) return -1;
    if (whole) {
        a0 = 0.0;
        a1 = 360.0 - 360.0 / n;
    } else if (a1 - a0 >= 360.0) {
        a1 = a0 + 360.0 - 360.0 / n;
    }
    const double t0 = PI * a0 / 180.0, dt = n > 1 ? (PI * a1 / 180.0 - t0) / (n - 1) : 0.0;
    for (int i = 0; i < n; i++) {
        y[i] = yc + r * cos(t0 + dt * i);
        z[i] = zc + r * sin(t0 + dt * i);
        A[i] = area;
    }
    return n;
}
