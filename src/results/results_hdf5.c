/* results.h5: every recorded series as an HDF5 dataset with a `units` attribute. */
#include "results_impl.h"

#include <hdf5.h>
#include <string.h>

/* after <hdf5.h>: its calls through the table that hs_h5_require fills (results_libs.h) */
#include "results_libs_names.h"

/* A variable-length UTF-8 string type (read back as text by h5py and the C API alike). */
static hid_t string_type(void)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t < 0) return t;
    if (H5Tset_size(t, H5T_VARIABLE) < 0 || H5Tset_cset(t, H5T_CSET_UTF8) < 0) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

/* Attribute `name` on `loc`: one string (n < 0) or an array of n strings. */
static int put_strings(hid_t loc, const char *name, const char *const *values, int n)
{
    hsize_t dims[1] = {(hsize_t)(n > 0 ? n : 0)};
    hid_t type = string_type();
    hid_t space = n < 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, dims, NULL);
    hid_t attr =
        type >= 0 && space >= 0 ? H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT) : -1;
    int rc = attr >= 0 && (n == 0 || H5Awrite(attr, type, values) >= 0) ? 0 : -1;
    if (attr >= 0) H5Aclose(attr);
    if (space >= 0) H5Sclose(space);
    if (type >= 0) H5Tclose(type);
    return rc;
}

static int put_string(hid_t loc, const char *name, const char *value)
{
    const char *v[1] = {value ? value : ""};
    return put_strings(loc, name, v, -1);
}

static int put_scalar(hid_t loc, const char *name, hid_t type, const void *value)
{
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t attr = space >= 0 ? H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT) : -1;
    int rc = attr >= 0 && H5Awrite(attr, type, value) >= 0 ? 0 : -1;
    if (attr >= 0) H5Aclose(attr);
    if (space >= 0) H5Sclose(space);
    return rc;
}

/* Dataset `name` of rows doubles (1-D when cols < 0) or rows x cols doubles, with its `units` and,
 * when given, the `names` of its columns. */
static int put_series(hid_t loc, const char *name, const double *data, int64_t rows, int cols,
                      const char *units, char *const *names)
{
    hsize_t dims[2] = {(hsize_t)rows, (hsize_t)(cols > 0 ? cols : 0)};
    hid_t space = H5Screate_simple(cols >= 0 ? 2 : 1, dims, NULL);
    hid_t set = space >= 0 ? H5Dcreate2(loc, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT,
                                        H5P_DEFAULT, H5P_DEFAULT)
                           : -1;
    int rc = set >= 0 ? 0 : -1;
    if (rc == 0 && rows > 0 && cols != 0 &&
        H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
        rc = -1;
    if (rc == 0) rc = put_string(set, "units", units);
    if (rc == 0 && names) rc = put_strings(set, "names", (const char *const *)names, cols);
    if (set >= 0) H5Dclose(set);
    if (space >= 0) H5Sclose(space);
    return rc;
}

/* Attribute `name` on `loc`: an array of n doubles. */
static int put_doubles(hid_t loc, const char *name, const double *values, int n)
{
    hsize_t dims[1] = {(hsize_t)n};
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t attr =
        space >= 0 ? H5Acreate2(loc, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT) : -1;
    int rc = attr >= 0 && H5Awrite(attr, H5T_NATIVE_DOUBLE, values) >= 0 ? 0 : -1;
    if (attr >= 0) H5Aclose(attr);
    if (space >= 0) H5Sclose(space);
    return rc;
}

static int write_root(hid_t file, const hs_results *r, const hs_run_summary *s)
{
    int rc = 0;
    long long records = (long long)r->count;
    rc |= put_scalar(file, "records", H5T_NATIVE_LLONG, &records);
    rc |= put_string(file, "units_force", r->units_force);
    rc |= put_string(file, "units_length", r->units_length);
    rc |= put_string(file, "units_time", r->units_time);
    if (!s) return rc;
    long long steps = (long long)s->steps;
    rc |= put_string(file, "name", s->name);
    rc |= put_string(file, "status", s->status);
    rc |= put_string(file, "reason", s->reason);
    rc |= put_string(file, "integrator", s->integrator);
    rc |= put_scalar(file, "dt", H5T_NATIVE_DOUBLE, &s->dt);
    rc |= put_scalar(file, "steps", H5T_NATIVE_LLONG, &steps);
    rc |= put_scalar(file, "ndof", H5T_NATIVE_INT, &s->ndof);
    rc |= put_scalar(file, "wall_time_s", H5T_NATIVE_DOUBLE, &s->wall_time_s);
    if (s->periods && s->ndof > 0)
        rc |= put_series(file, "periods", s->periods, s->nperiods > 0 ? s->nperiods : s->ndof, -1,
                         r->units_time, NULL);
    return rc;
}

static int write_series(hid_t file, const hs_results *r)
{
    int64_t n = r->count;
    int rc = 0;
    rc |= put_series(file, "time", r->t, n, -1, r->units_time, NULL);
    rc |= put_series(file, "ground_acceleration", r->ag, n, -1, r->units_acceleration, NULL);
    rc |= put_series(file, "displacement", r->d, n, r->ndof, r->units_length, r->dof_names);
    rc |= put_series(file, "velocity", r->v, n, r->ndof, r->units_velocity, r->dof_names);
    rc |= put_series(file, "acceleration", r->a, n, r->ndof, r->units_acceleration, r->dof_names);
    if (rc) return rc;

    hid_t springs = H5Gcreate2(file, "springs", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (springs < 0) return -1;
    rc |= put_series(springs, "deformation", r->sdef, n, r->nsprings, r->units_length,
                     r->spring_names);
    rc |= put_series(springs, "force", r->sforce, n, r->nsprings, r->units_force, r->spring_names);
    H5Gclose(springs);
    if (rc) return rc;

    hid_t energy = H5Gcreate2(file, "energy", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (energy < 0) return -1;
    rc |= put_series(energy, "input", r->e_input, n, -1, r->units_energy, NULL);
    rc |= put_series(energy, "kinetic", r->e_kinetic, n, -1, r->units_energy, NULL);
    rc |= put_series(energy, "damping", r->e_damping, n, -1, r->units_energy, NULL);
    rc |= put_series(energy, "strain", r->e_strain, n, -1, r->units_energy, NULL);
    rc |= put_series(energy, "experimental", r->e_experimental, n, -1, r->units_energy, NULL);
    rc |= put_series(energy, "error_rel", r->e_error_rel, n, -1, "1", NULL);
    rc |= put_series(energy, "groups", r->e_groups, n, r->ngroups, r->units_energy, r->group_names);
    H5Gclose(energy);
    return rc;
}

/* Column names of the tangent: "K(a,b)" for K_l(a, b), column-major like the record. */
static char **tangent_names(const hs_results *r)
{
    const int m = r->nact;
    char **names = hs_calloc((size_t)m * (size_t)m, sizeof *names);
    if (!names) return NULL;
    for (int j = 0; j < m; j++)
        for (int i = 0; i < m; i++) {
            size_t len = strlen(r->act_names[i]) + strlen(r->act_names[j]) + 5;
            char *s = hs_malloc(len);
            if (s) snprintf(s, len, "K(%s,%s)", r->act_names[i], r->act_names[j]);
            names[j * m + i] = s;
        }
    return names;
}

/* /actuators: command, measured, force (records x nact), tangent (records x nact^2). */
static int write_actuators(hid_t file, const hs_results *r)
{
    const int64_t n = r->count;
    const int m = r->nact;
    char **tnames = tangent_names(r);
    int rc = tnames ? 0 : -1;
    for (int k = 0; tnames && k < m * m; k++)
        if (!tnames[k]) rc = -1;
    hid_t g = rc ? -1 : H5Gcreate2(file, "actuators", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0) rc = -1;
    if (!rc) {
        rc |= put_series(g, "command", r->act_cmd, n, m, r->units_length, r->act_names);
        rc |= put_series(g, "measured", r->act_meas, n, m, r->units_length, r->act_names);
        rc |= put_series(g, "force", r->act_force, n, m, r->units_force, r->act_names);
        rc |= put_series(g, "tangent", r->act_tangent, n, m * m, r->units_stiffness, tnames);
    }
    if (!rc && r->nsites > 0) {
        rc |= put_series(g, "tracking_error", r->act_te, n, m, r->units_length, r->act_names);
        rc |= put_series(g, "tracking_indicator", r->act_ti, n, m, r->units_ti, r->act_names);
    }
    if (g >= 0) H5Gclose(g);
    for (int k = 0; tnames && k < m * m; k++) hs_free(tnames[k]);
    hs_free(tnames);
    return rc;
}

/* /sites: states (records x nsites, int: bit k = state k, named by the attribute `bits`) and
 * delay (records x nsites, s); the group's attributes name the sites and give their TimeOut
 * limits slow_after_s and hold_after_s. */
static int write_sites(hid_t file, const hs_results *r)
{
    static const char *const bits[] = {"extrapolate", "interpolate",    "slow",
                                       "hold",        "free_vibration", "done"};
    const int ns = r->nsites;
    hid_t g = H5Gcreate2(file, "sites", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0) return -1;
    int rc = put_strings(g, "names", (const char *const *)r->site_names, ns);
    rc |= put_doubles(g, "slow_after_s", r->slow_after, ns);
    rc |= put_doubles(g, "hold_after_s", r->hold_after, ns);
    hsize_t dims[2] = {(hsize_t)r->count, (hsize_t)ns};
    hid_t space = H5Screate_simple(2, dims, NULL);
    hid_t set = space >= 0 ? H5Dcreate2(g, "states", H5T_NATIVE_INT, space, H5P_DEFAULT,
                                        H5P_DEFAULT, H5P_DEFAULT)
                           : -1;
    if (set < 0 || (r->count > 0 && H5Dwrite(set, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                             r->site_states) < 0))
        rc = -1;
    if (set >= 0) {
        rc |= put_string(set, "units", "1");
        rc |= put_strings(set, "names", (const char *const *)r->site_names, ns);
        rc |= put_strings(set, "bits", bits, (int)(sizeof bits / sizeof bits[0]));
        H5Dclose(set);
    }
    if (space >= 0) H5Sclose(space);
    rc |= put_series(g, "delay", r->site_delay, r->count, ns, "s", r->site_names);
    H5Gclose(g);
    return rc;
}

/* Attribute `name` on `loc`: an array of n ints. */
static int put_ints(hid_t loc, const char *name, const int *values, int n)
{
    hsize_t dims[1] = {(hsize_t)n};
    hid_t space = H5Screate_simple(1, dims, NULL);
    hid_t attr =
        space >= 0 ? H5Acreate2(loc, name, H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT) : -1;
    int rc = attr >= 0 && H5Awrite(attr, H5T_NATIVE_INT, values) >= 0 ? 0 : -1;
    if (attr >= 0) H5Aclose(attr);
    if (space >= 0) H5Sclose(space);
    return rc;
}

/* /recorders: one dataset per recorder (records x columns) with the attributes `response`,
 * `names` (the columns: "n3_ux", "c1_M_i", ...), `units` (one per column), `components` (the
 * DOF or component of each column), and `nodes` (node recorders: one id per column; a drift: i
 * and j) or `elements` (element recorders: one name per column). */
static int write_recorders(hid_t file, const hs_results *r)
{
    hid_t g = H5Gcreate2(file, "recorders", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0) return -1;
    int rc = 0;
    double *buf = hs_dvec((size_t)r->count * r->rec_width + 1);
    if (!buf) rc = -1;
    for (int j = 0; !rc && j < r->nrec; j++) {
        const size_t m = (size_t)r->rec_ncols[j];
        for (int64_t k = 0; k < r->count; k++) /* the recorder's columns out of the block */
            memcpy(buf + (size_t)k * m, hs_results_series_recorder(r, j, k), m * sizeof(double));
        hsize_t dims[2] = {(hsize_t)r->count, (hsize_t)m};
        hid_t space = H5Screate_simple(2, dims, NULL);
        hid_t set = space >= 0 ? H5Dcreate2(g, r->rec_names[j], H5T_NATIVE_DOUBLE, space,
                                            H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)
                               : -1;
        if (set < 0 || (r->count > 0 && m > 0 &&
                        H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0))
            rc = -1;
        if (set >= 0) {
            rc |= put_string(set, "response", r->rec_responses[j]);
            rc |= put_strings(set, "names", (const char *const *)r->rec_columns[j], (int)m);
            rc |= put_strings(set, "units", (const char *const *)r->rec_units[j], (int)m);
            if (r->rec_nnodes[j] > 0)
                rc |= put_ints(set, "nodes", r->rec_nodes[j], r->rec_nnodes[j]);
            if (r->rec_elements[j])
                rc |= put_strings(set, "elements", (const char *const *)r->rec_elements[j], (int)m);
            if (r->rec_components[j])
                rc |= put_strings(set, "components", (const char *const *)r->rec_components[j],
                                  (int)m);
            H5Dclose(set);
        }
        if (space >= 0) H5Sclose(space);
    }
    hs_free(buf);
    H5Gclose(g);
    return rc;
}

/* Dataset `name`: one string (n < 0) or n strings; texts may be long (no attribute limit). */
static int put_text_set(hid_t loc, const char *name, const char *const *values, int n)
{
    hsize_t dims[1] = {(hsize_t)(n > 0 ? n : 0)};
    hid_t type = string_type();
    hid_t space = n < 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, dims, NULL);
    hid_t set = type >= 0 && space >= 0
                    ? H5Dcreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)
                    : -1;
    /* a conversion buffer for these strings alone: HDF5's default one is 1 MB, zeroed at each
     * write of variable-length strings (two 1 MB callocs a dataset, a quarter of a 4000-step
     * run's page faults: bench/README.md, "Whole program"); the file is the same */
    const size_t elements = n > 0 ? (size_t)n : 1;
    hid_t xfer = H5Pcreate(H5P_DATASET_XFER);
    if (xfer >= 0 && H5Pset_buffer(xfer, 64 * elements, NULL, NULL) < 0) {
        H5Pclose(xfer);
        xfer = -1;
    }
    int rc = set >= 0 && xfer >= 0 &&
                     (n == 0 || H5Dwrite(set, type, H5S_ALL, H5S_ALL, xfer, values) >= 0)
                 ? 0
                 : -1;
    if (xfer >= 0) H5Pclose(xfer);
    if (set >= 0) H5Dclose(set);
    if (space >= 0) H5Sclose(space);
    if (type >= 0) H5Tclose(type);
    return rc;
}

/* /trace (docs/outputs.md, "Trace"): the attributes version, build, host, start, end,
 * resumed_from, overrides, accepted_warnings and, per input, input_roles, input_paths,
 * input_sizes, input_sha256; the datasets `effective` (the definition after the overrides) and
 * `texts` (per input its embedded text, "" when not embedded). */
static int write_trace(hid_t file, const hs_run_trace *t)
{
    hid_t g = H5Gcreate2(file, "trace", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (g < 0) return -1;
    const int n = t->ninputs;
    const char **cols = hs_calloc((size_t)(4 * n + 1), sizeof *cols);
    long long *sizes = hs_calloc((size_t)n + 1, sizeof *sizes);
    int rc = cols && sizes ? 0 : -1;
    for (int i = 0; !rc && i < n; i++) {
        cols[i] = t->inputs[i].role;
        cols[n + i] = t->inputs[i].path;
        cols[2 * n + i] = t->inputs[i].sha256;
        cols[3 * n + i] = t->inputs[i].text ? t->inputs[i].text : "";
        sizes[i] = (long long)t->inputs[i].size;
    }
    if (!rc) {
        rc |= put_string(g, "version", t->version);
        rc |= put_string(g, "build", t->build);
        rc |= put_string(g, "host", t->host);
        rc |= put_string(g, "start", t->start);
        rc |= put_string(g, "end", t->end);
        rc |= put_string(g, "resumed_from", t->resumed_from);
        rc |= put_strings(g, "overrides", t->overrides, t->noverrides);
        rc |= put_strings(g, "accepted_warnings", t->accepted, t->naccepted);
        rc |= put_strings(g, "input_roles", cols, n);
        rc |= put_strings(g, "input_paths", cols + n, n);
        rc |= put_strings(g, "input_sha256", cols + 2 * n, n);
        hsize_t dims[1] = {(hsize_t)n};
        hid_t space = H5Screate_simple(1, dims, NULL);
        hid_t attr = space >= 0 ? H5Acreate2(g, "input_sizes", H5T_NATIVE_LLONG, space, H5P_DEFAULT,
                                             H5P_DEFAULT)
                                : -1;
        rc |= attr >= 0 && (n == 0 || H5Awrite(attr, H5T_NATIVE_LLONG, sizes) >= 0) ? 0 : -1;
        if (attr >= 0) H5Aclose(attr);
        if (space >= 0) H5Sclose(space);
        const char *eff[1] = {t->effective ? t->effective : ""};
        rc |= put_text_set(g, "effective", eff, -1);
        rc |= put_text_set(g, "texts", cols + 3 * n, n);
    }
    hs_free(cols);
    hs_free(sizes);
    H5Gclose(g);
    return rc;
}

int hs_results_write_hdf5(const hs_results *r, const hs_run_summary *s, const char *path)
{
    return r ? hs_results_write_hdf5_ctx(r, s, path, r->ctx) : HS_EINVAL;
}

int hs_results_write_hdf5_ctx(const hs_results *r, const hs_run_summary *s, const char *path,
                              hs_ctx *ctx)
{
    int rc = hs_h5_require(ctx, path, NULL, 0); /* loaded here, not at the program's start */
    if (rc) return rc;
    hs_atomic_file af;
    rc = hs_atomic_reserve(ctx, path, &af);
    if (rc) return rc;

    /* HDF5 prints its error stack by default; we report through the context instead. */
    H5E_auto2_t old_fn = NULL;
    void *old_data = NULL;
    H5Eget_auto2(H5E_DEFAULT, &old_fn, &old_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);

    int failed = 0;
    /* the HDF5 1.8 format: its dense attribute storage holds a `names` list of any length (the
     * 1.6 format's object header refuses one above about 4000 names: a large frame's DOFs) */
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl >= 0 && H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_LATEST) < 0) {
        H5Pclose(fapl);
        fapl = -1;
    }
    hid_t file = fapl >= 0 ? H5Fcreate(af.tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl) : -1;
    if (fapl >= 0) H5Pclose(fapl);
    if (file < 0) {
        failed = 1;
        hs_fail(ctx, HS_EIO, "%s: HDF5 cannot create the file", path);
    } else {
        if (write_root(file, r, s) != 0 || write_series(file, r) != 0 ||
            (r->nact > 0 && write_actuators(file, r) != 0) ||
            (r->nsites > 0 && write_sites(file, r) != 0) ||
            (r->nrec > 0 && write_recorders(file, r) != 0) ||
            (s && s->trace && write_trace(file, s->trace) != 0)) {
            failed = 1;
            hs_fail(ctx, HS_EIO, "%s: HDF5 write failed (%lld records)", path, (long long)r->count);
        }
        if (H5Fclose(file) < 0 && !failed) {
            failed = 1;
            hs_fail(ctx, HS_EIO, "%s: HDF5 cannot close the file", path);
        }
    }
    H5Eset_auto2(H5E_DEFAULT, old_fn, old_data);
    rc = hs_atomic_finish(ctx, &af, failed);
    return failed ? HS_EIO : rc;
}
