/* Reading a run's results.h5 for the plots: the series and their units, checked for shape. */
#include "plot_data.h"

#include "hysim/base.h"

#include <hdf5.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* after <hdf5.h>: its calls through the table that hs_h5_require fills (results_libs.h) */
#include "results/results_libs_names.h"

static int failf(char *err, size_t errlen, const char *fmt, ...) HS_PRINTF(3, 4);
static int failf(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* Copies a string attribute (fixed or variable length) into buf; "" when absent. */
static void read_text(hid_t loc, const char *name, char *buf, size_t len)
{
    buf[0] = '\0';
    if (H5Aexists(loc, name) <= 0) return;
    hid_t attr = H5Aopen(loc, name, H5P_DEFAULT);
    hid_t ftype = attr >= 0 ? H5Aget_type(attr) : -1;
    if (ftype >= 0 && H5Tget_class(ftype) == H5T_STRING) {
        hid_t mtype = H5Tcopy(H5T_C_S1);
        H5Tset_cset(mtype, H5Tget_cset(ftype));
        if (H5Tis_variable_str(ftype) > 0) {
            char *s = NULL;
            H5Tset_size(mtype, H5T_VARIABLE);
            if (H5Aread(attr, mtype, &s) >= 0 && s) snprintf(buf, len, "%s", s);
            if (s) H5free_memory(s);
        } else {
            size_t n = H5Tget_size(ftype);
            if (n + 1 <= len) {
                H5Tset_size(mtype, n + 1);
                H5Tset_strpad(mtype, H5T_STR_NULLTERM);
                if (H5Aread(attr, mtype, buf) < 0) buf[0] = '\0';
                buf[n] = '\0';
            }
        }
        H5Tclose(mtype);
    }
    if (ftype >= 0) H5Tclose(ftype);
    if (attr >= 0) H5Aclose(attr);
}

/* Column names of a dataset (variable-length string array attribute `names`), or "#k" (the
 * displacements of a file written before DOF names: "dk"). */
static char **read_names(hid_t set, int n, const char *fallback)
{
    char **names = hs_calloc((size_t)(n > 0 ? n : 1), sizeof *names);
    if (!names) return NULL;
    char **raw = hs_calloc((size_t)(n > 0 ? n : 1), sizeof *raw);
    int ok = 0;
    if (raw && H5Aexists(set, "names") > 0) {
        hid_t attr = H5Aopen(set, "names", H5P_DEFAULT);
        hid_t ftype = attr >= 0 ? H5Aget_type(attr) : -1;
        hid_t space = attr >= 0 ? H5Aget_space(attr) : -1;
        if (ftype >= 0 && space >= 0 && H5Tis_variable_str(ftype) > 0 &&
            H5Sget_simple_extent_npoints(space) == n) {
            hid_t mtype = H5Tcopy(H5T_C_S1);
            H5Tset_size(mtype, H5T_VARIABLE);
            H5Tset_cset(mtype, H5Tget_cset(ftype));
            ok = H5Aread(attr, mtype, raw) >= 0;
            H5Tclose(mtype);
        }
        if (space >= 0) H5Sclose(space);
        if (ftype >= 0) H5Tclose(ftype);
        if (attr >= 0) H5Aclose(attr);
    }
    for (int i = 0; i < n; i++) {
        char buf[32];
        snprintf(buf, sizeof buf, "%s%d", fallback, i + 1);
        names[i] = hs_strdup(ok && raw[i] ? raw[i] : buf);
        if (raw && raw[i]) H5free_memory(raw[i]);
    }
    hs_free(raw);
    return names;
}

/* Reads dataset `path` of rank 1 (cols < 0 asked) or 2, with `rows` rows; *cols receives the
 * column count of a rank-2 set. Returns NULL (and err) when absent, of the wrong shape or type. */
static double *read_series(hid_t file, const char *path, int64_t rows, int *cols, char *units,
                           char ***names, char *err, size_t errlen)
{
    if (H5Lexists(file, path, H5P_DEFAULT) <= 0) {
        failf(err, errlen, "no dataset /%s", path);
        return NULL;
    }
    hid_t set = H5Dopen2(file, path, H5P_DEFAULT);
    if (set < 0) {
        failf(err, errlen, "cannot open dataset /%s", path);
        return NULL;
    }
    hid_t space = H5Dget_space(set);
    hsize_t dims[2] = {0, 0};
    int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
    int want = *cols < 0 ? 1 : 2;
    double *data = NULL;
    hid_t type = H5Dget_type(set);
    if (rank != want || H5Sget_simple_extent_dims(space, dims, NULL) < 0 ||
        (rows >= 0 && dims[0] != (hsize_t)rows) || type < 0 ||
        (H5Tget_class(type) != H5T_FLOAT && H5Tget_class(type) != H5T_INTEGER) ||
        (want == 2 && dims[1] > 100000)) {
        failf(err, errlen, "dataset /%s: expected %d-D numeric data%s", path, want,
              rows >= 0 ? " with one row per record" : "");
    } else {
        size_t count = (size_t)dims[0] * (want == 2 ? (size_t)dims[1] : 1u);
        data = hs_calloc(count ? count : 1, sizeof *data);
        if (!data ||
            (count && H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)) {
            failf(err, errlen, "dataset /%s: read failed", path);
            hs_free(data);
            data = NULL;
        } else {
            if (want == 2) *cols = (int)dims[1];
            if (rows < 0) *cols = want == 2 ? *cols : (int)dims[0];
            if (units) read_text(set, "units", units, HS_PLOT_TEXT);
            if (names)
                *names =
                    read_names(set, (int)dims[1], strcmp(path, "displacement") == 0 ? "d" : "#");
        }
    }
    if (type >= 0) H5Tclose(type);
    if (space >= 0) H5Sclose(space);
    H5Dclose(set);
    return data;
}

/* /actuators/{command, measured, force} (n x nact) and tangent (n x nact^2). */
static int read_actuators(hid_t file, hs_plot_data *p, char *err, size_t errlen)
{
    int m = 0, c = 0;
    p->act_cmd = read_series(file, "actuators/command", p->n, &m, NULL, &p->act_names, err, errlen);
    if (!p->act_cmd) return -1;
    p->nact = m;
    if (m < 1 || m > 1000) return failf(err, errlen, "/actuators/command: %d actuators", m);
    double **dst[] = {&p->act_meas, &p->act_force, &p->act_tangent};
    const char *names[] = {"actuators/measured", "actuators/force", "actuators/tangent"};
    char *units[] = {NULL, p->unit_force, p->unit_stiffness};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        c = 0;
        *dst[i] = read_series(file, names[i], p->n, &c, units[i], NULL, err, errlen);
        if (!*dst[i]) return -1;
        if (c != (i == 2 ? m * m : m))
            return failf(err, errlen, "/%s has %d columns for %d actuators", names[i], c, m);
    }
    return 0;
}

/* A double array attribute of n values into out (NaN when absent or of another size). */
static void read_doubles(hid_t loc, const char *name, double *out, int n)
{
    for (int i = 0; i < n; i++) out[i] = NAN;
    if (H5Aexists(loc, name) <= 0) return;
    hid_t attr = H5Aopen(loc, name, H5P_DEFAULT);
    hid_t space = attr >= 0 ? H5Aget_space(attr) : -1;
    if (space >= 0 && H5Sget_simple_extent_npoints(space) == n &&
        H5Aread(attr, H5T_NATIVE_DOUBLE, out) < 0)
        for (int i = 0; i < n; i++) out[i] = NAN;
    if (space >= 0) H5Sclose(space);
    if (attr >= 0) H5Aclose(attr);
}

/* /sites/{states, delay} (n x nsites) with the limits, and the actuators' tracking error and
 * indicator when the file has them. */
static int read_sites(hid_t file, hs_plot_data *p, char *err, size_t errlen)
{
    int ns = 0, c = 0;
    p->site_states =
        read_series(file, "sites/states", p->n, &ns, NULL, &p->site_names, err, errlen);
    if (!p->site_states) return -1;
    p->nsites = ns;
    if (ns < 1 || ns > 1000) return failf(err, errlen, "/sites/states: %d sites", ns);
    p->site_delay = read_series(file, "sites/delay", p->n, &c, NULL, NULL, err, errlen);
    if (!p->site_delay) return -1;
    if (c != ns) return failf(err, errlen, "/sites/delay has %d columns for %d sites", c, ns);
    p->slow_after = hs_calloc((size_t)ns, sizeof(double));
    p->hold_after = hs_calloc((size_t)ns, sizeof(double));
    if (!p->slow_after || !p->hold_after) return failf(err, errlen, "out of memory");
    hid_t g = H5Gopen2(file, "sites", H5P_DEFAULT);
    read_doubles(g, "slow_after_s", p->slow_after, ns);
    read_doubles(g, "hold_after_s", p->hold_after, ns);
    if (g >= 0) H5Gclose(g);
    if (p->nact < 1 || H5Lexists(file, "actuators/tracking_error", H5P_DEFAULT) <= 0 ||
        H5Lexists(file, "actuators/tracking_indicator", H5P_DEFAULT) <= 0)
        return 0;
    double **dst[] = {&p->act_te, &p->act_ti};
    const char *names[] = {"actuators/tracking_error", "actuators/tracking_indicator"};
    char *units[] = {NULL, p->unit_ti};
    for (int i = 0; i < 2; i++) {
        c = 0;
        *dst[i] = read_series(file, names[i], p->n, &c, units[i], NULL, err, errlen);
        if (!*dst[i]) return -1;
        if (c != p->nact)
            return failf(err, errlen, "/%s has %d columns for %d actuators", names[i], c, p->nact);
    }
    return 0;
}

static int read_all(hid_t file, hs_plot_data *p, char *err, size_t errlen)
{
    read_text(file, "name", p->name, sizeof p->name);
    read_text(file, "status", p->status, sizeof p->status);
    read_text(file, "integrator", p->integrator, sizeof p->integrator);

    int n1 = -1;
    p->t = read_series(file, "time", -1, &n1, p->unit_time, NULL, err, errlen);
    if (!p->t) return -1;
    p->n = n1;
    int cols = 0;
    p->d =
        read_series(file, "displacement", p->n, &cols, p->unit_length, &p->dof_names, err, errlen);
    if (!p->d) return -1;
    if (cols < 1) return failf(err, errlen, "dataset /displacement has no DOF column");
    p->ndof = cols;
    if (H5Lexists(file, "ground_acceleration", H5P_DEFAULT) > 0) {
        int c = -1;
        p->ag = read_series(file, "ground_acceleration", p->n, &c, p->unit_acceleration, NULL, err,
                            errlen);
        if (!p->ag) return -1;
    }

    if (H5Lexists(file, "springs", H5P_DEFAULT) > 0) {
        int c1 = 0, c2 = 0;
        p->sdef = read_series(file, "springs/deformation", p->n, &c1, NULL, &p->spring_names, err,
                              errlen);
        if (!p->sdef) return -1;
        p->nsprings = c1;
        p->sforce = read_series(file, "springs/force", p->n, &c2, p->unit_force, NULL, err, errlen);
        if (!p->sforce) return -1;
        if (c2 != c1) return failf(err, errlen, "/springs/force and /springs/deformation differ");
    }
    if (H5Lexists(file, "energy", H5P_DEFAULT) > 0) {
        int c = -1;
        double **dst[] = {&p->e_input,  &p->e_kinetic,      &p->e_damping,
                          &p->e_strain, &p->e_experimental, &p->e_error_rel};
        const char *names[] = {"energy/input",  "energy/kinetic",      "energy/damping",
                               "energy/strain", "energy/experimental", "energy/error_rel"};
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            c = -1;
            *dst[i] = read_series(file, names[i], p->n, &c, i == 0 ? p->unit_energy : NULL, NULL,
                                  err, errlen);
            if (!*dst[i]) return -1;
        }
        p->has_energy = 1;
    }
    if (H5Lexists(file, "actuators", H5P_DEFAULT) > 0 && read_actuators(file, p, err, errlen))
        return -1;
    if (H5Lexists(file, "sites", H5P_DEFAULT) > 0) return read_sites(file, p, err, errlen);
    return 0;
}

int hs_plot_data_read(const char *path, hs_plot_data *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (hs_h5_require(NULL, path, err, errlen)) return -1; /* loaded here, not at start-up */
    H5E_auto2_t old_fn = NULL;
    void *old_data = NULL;
    H5Eget_auto2(H5E_DEFAULT, &old_fn, &old_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    int rc = -1;
    if (H5Fis_hdf5(path) <= 0) {
        failf(err, errlen, "not an HDF5 file");
    } else {
        hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
        if (file < 0) {
            failf(err, errlen, "HDF5 cannot open it");
        } else {
            rc = read_all(file, out, err, errlen);
            H5Fclose(file);
        }
    }
    H5Eset_auto2(H5E_DEFAULT, old_fn, old_data);
    if (rc) hs_plot_data_free(out);
    return rc;
}

void hs_plot_data_free(hs_plot_data *p)
{
    double *blocks[] = {p->t,          p->d,         p->ag,        p->sdef,     p->sforce,
                        p->e_input,    p->e_kinetic, p->e_damping, p->e_strain, p->e_experimental,
                        p->e_error_rel};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++) hs_free(blocks[i]);
    if (p->dof_names)
        for (int i = 0; i < p->ndof; i++) hs_free(p->dof_names[i]);
    hs_free(p->dof_names);
    if (p->spring_names)
        for (int i = 0; i < p->nsprings; i++) hs_free(p->spring_names[i]);
    hs_free(p->spring_names);
    double *act[] = {p->act_cmd, p->act_meas, p->act_force, p->act_tangent};
    for (size_t i = 0; i < sizeof act / sizeof act[0]; i++) hs_free(act[i]);
    if (p->act_names)
        for (int i = 0; i < p->nact; i++) hs_free(p->act_names[i]);
    hs_free(p->act_names);
    double *sites[] = {p->act_te,     p->act_ti,     p->site_states,
                       p->site_delay, p->slow_after, p->hold_after};
    for (size_t i = 0; i < sizeof sites / sizeof sites[0]; i++) hs_free(sites[i]);
    if (p->site_names)
        for (int i = 0; i < p->nsites; i++) hs_free(p->site_names[i]);
    hs_free(p->site_names);
    memset(p, 0, sizeof *p);
}
