/* results.mat: the series of results.h5 for MATLAB and GNU Octave, through libmatio (MAT v5, or
 * v7.3 when a series is too large for v5). The names follow results.h5 (docs/outputs.md): a
 * dataset /G/D is the field D of the struct variable G (/D a variable D), an attribute of a group
 * is a member of that group (the root's are variables: name, status, dt, ...), and an attribute A
 * of the dataset at path P (units, names, bits) is at A.P (units.displacement,
 * names.springs.force). Matrices keep their orientation: records x columns (displacement(:, 1) is
 * DOF 1's history). */
#include "results_impl.h"

#include "hysim/hysim.h"

#include <matio.h>
#include <stdlib.h>
#include <string.h>

/* after <matio.h>: its calls through the table that hs_mat_require fills (results_libs.h) */
#include "results_libs_names.h"

/* The variables before they are written: a struct per group, and the attribute trees. */
#define HS_MAT_BUFFERS 64

typedef struct mat_tree {
    mat_t *mat;
    matvar_t *root;                 /* the variables, written and dropped group by group */
    matvar_t *units, *names, *bits; /* the attribute trees, written last */
    matvar_t *response, *nodes, *elements, *components; /* ... and the recorders' attributes */
    unsigned written;                                   /* members of root already in the file */
    int failed;
    void *buffers[HS_MAT_BUFFERS]; /* transposed copies the variables point to (not copied) */
    int nbuffers;
} mat_tree;

static matvar_t *new_struct(void)
{
    size_t dims[2] = {1, 1};
    return Mat_VarCreateStruct(NULL, 2, dims, NULL, 0);
}

/* Puts v as member `name` of the struct s (v then belongs to s; freed on failure). */
static void put(mat_tree *t, matvar_t *s, const char *name, matvar_t *v)
{
    if (!v || !s || Mat_VarAddStructField(s, name) != 0 ||
        Mat_VarSetStructFieldByName(s, name, 0, v) != NULL) {
        if (v) Mat_VarFree(v);
        t->failed = 1;
    }
}

/* The member struct `name` of s, created when missing. */
static matvar_t *group(mat_tree *t, matvar_t *s, const char *name)
{
    matvar_t *g = s ? Mat_VarGetStructFieldByName(s, name, 0) : NULL;
    if (g) return g;
    g = new_struct();
    put(t, s, name, g);
    return t->failed ? NULL : g;
}

/* Writes v as the variable `name`. */
static void write_var(mat_tree *t, matvar_t *v, const char *name)
{
    char *old = v->name;
    v->name = (char *)name;
    if (Mat_VarWrite(t->mat, v, MAT_COMPRESSION_NONE) != 0) t->failed = 1;
    v->name = old;
}

/* Writes the members of the root added since the last flush as variables and frees the copies
 * they point to, so that the next group's copies reuse the memory. */
static void flush(mat_tree *t)
{
    const unsigned n = Mat_VarGetNumberOfFields(t->root);
    char *const *fields = Mat_VarGetStructFieldnames(t->root);
    for (unsigned i = t->written; i < n && !t->failed; i++) {
        matvar_t *v = Mat_VarGetStructFieldByIndex(t->root, i, 0);
        if (!v)
            t->failed = 1;
        else
            write_var(t, v, fields[i]);
    }
    t->written = n;
    for (int k = 0; k < t->nbuffers; k++) free(t->buffers[k]);
    t->nbuffers = 0;
}

static matvar_t *text(const char *s)
{
    size_t dims[2] = {1, strlen(s ? s : "")};
    return Mat_VarCreate(NULL, MAT_C_CHAR, MAT_T_UTF8, 2, dims, (void *)(s ? s : ""), 0);
}

static matvar_t *texts(char *const *s, int n)
{
    size_t dims[2] = {1, (size_t)(n > 0 ? n : 0)};
    matvar_t *cell = Mat_VarCreate(NULL, MAT_C_CELL, MAT_T_CELL, 2, dims, NULL, 0);
    for (int i = 0; cell && i < n; i++) {
        matvar_t *c = text(s[i]);
        if (!c) {
            Mat_VarFree(cell);
            return NULL;
        }
        Mat_VarSetCell(cell, i, c);
    }
    return cell;
}

/* n ints as a 1 x n int32 row (copied). */
static matvar_t *ints(const int *x, int n)
{
    size_t dims[2] = {1, (size_t)n};
    return Mat_VarCreate(NULL, MAT_C_INT32, MAT_T_INT32, 2, dims, (void *)x, 0);
}

static matvar_t *scalar(double x)
{
    size_t dims[2] = {1, 1};
    return Mat_VarCreate(NULL, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, &x, 0);
}

static matvar_t *integer(long long x)
{
    size_t dims[2] = {1, 1};
    return Mat_VarCreate(NULL, MAT_C_INT64, MAT_T_INT64, 2, dims, &x, 0);
}

/* rows x cols values stored row-major (cols < 0: a column of rows values) as a MATLAB matrix of
 * the same shape (column-major): a column points at the store, a matrix at a transposed copy
 * kept until the file is written. */
static matvar_t *matrix(mat_tree *t, const void *data, int64_t rows, int cols, int is_int)
{
    const size_t r = (size_t)rows, c = cols < 0 ? 1u : (size_t)cols;
    size_t dims[2] = {r, c};
    const enum matio_classes cls = is_int ? MAT_C_INT32 : MAT_C_DOUBLE;
    const enum matio_types type = is_int ? MAT_T_INT32 : MAT_T_DOUBLE;
    if (c <= 1 || r <= 1)
        return Mat_VarCreate(NULL, cls, type, 2, dims, (void *)data, MAT_F_DONT_COPY_DATA);
    if (t->nbuffers >= HS_MAT_BUFFERS) return NULL;
    void *buf = malloc(r * c * (is_int ? sizeof(int) : sizeof(double)));
    if (!buf) return NULL;
    t->buffers[t->nbuffers++] = buf;
    if (is_int) {
        const int *src = data;
        int *dst = buf;
        for (size_t i = 0; i < r; i++) /* rows in order: c output streams, each sequential */
            for (size_t j = 0; j < c; j++) dst[j * r + i] = src[i * c + j];
    } else {
        const double *src = data;
        double *dst = buf;
        for (size_t i = 0; i < r; i++)
            for (size_t j = 0; j < c; j++) dst[j * r + i] = src[i * c + j];
    }
    return Mat_VarCreate(NULL, cls, type, 2, dims, buf, MAT_F_DONT_COPY_DATA);
}

/* Dataset `name` in group `grp` (NULL: the root) with its units and, when given, its names. */
static void dataset(mat_tree *t, const char *grp, const char *name, matvar_t *v, const char *units,
                    char *const *names, int nnames)
{
    if (!grp) {
        put(t, t->root, name, v);
        put(t, t->units, name, text(units));
        if (names) put(t, t->names, name, texts(names, nnames));
        return;
    }
    put(t, group(t, t->root, grp), name, v);
    put(t, group(t, t->units, grp), name, text(units));
    if (names) put(t, group(t, t->names, grp), name, texts(names, nnames));
}

static void series(mat_tree *t, const char *grp, const char *name, const double *data, int64_t rows,
                   int cols, const char *units, char *const *names)
{
    dataset(t, grp, name, matrix(t, data, rows, cols, 0), units, names, cols);
}

static void root_members(mat_tree *t, const hs_results *r, const hs_run_summary *s)
{
    put(t, t->root, "records", integer((long long)r->count));
    put(t, t->root, "units_force", text(r->units_force));
    put(t, t->root, "units_length", text(r->units_length));
    put(t, t->root, "units_time", text(r->units_time));
    if (!s) return;
    put(t, t->root, "name", text(s->name));
    put(t, t->root, "status", text(s->status));
    put(t, t->root, "reason", text(s->reason));
    put(t, t->root, "integrator", text(s->integrator));
    put(t, t->root, "dt", scalar(s->dt));
    put(t, t->root, "steps", integer((long long)s->steps));
    put(t, t->root, "ndof", integer(s->ndof));
    put(t, t->root, "wall_time_s", scalar(s->wall_time_s));
    if (s->periods && s->ndof > 0)
        series(t, NULL, "periods", s->periods, s->nperiods > 0 ? s->nperiods : s->ndof, -1,
               r->units_time, NULL);
    flush(t);
}

/* The struct `trace` (results.h5's /trace without the embedded texts): version, build, host,
 * start, end, resumed_from, overrides and accepted_warnings (cells), effective (the definition
 * after the overrides), inputs.{role, path, sha256} (cells) and inputs.size (int64). */
static void trace(mat_tree *t, const hs_run_trace *tr)
{
    matvar_t *g = group(t, t->root, "trace");
    if (!g) return;
    put(t, g, "version", text(tr->version));
    put(t, g, "build", text(tr->build));
    put(t, g, "host", text(tr->host));
    put(t, g, "start", text(tr->start));
    put(t, g, "end", text(tr->end));
    put(t, g, "resumed_from", text(tr->resumed_from));
    put(t, g, "overrides", texts((char *const *)tr->overrides, tr->noverrides));
    put(t, g, "accepted_warnings", texts((char *const *)tr->accepted, tr->naccepted));
    put(t, g, "effective", text(tr->effective));
    matvar_t *in = group(t, g, "inputs");
    const int n = tr->ninputs;
    char **cols = hs_calloc((size_t)(3 * n + 1), sizeof *cols);
    long long *sizes = hs_calloc((size_t)n + 1, sizeof *sizes);
    if (!in || !cols || !sizes) {
        t->failed = 1;
    } else {
        for (int i = 0; i < n; i++) {
            cols[i] = (char *)tr->inputs[i].role;
            cols[n + i] = (char *)tr->inputs[i].path;
            cols[2 * n + i] = (char *)tr->inputs[i].sha256;
            sizes[i] = (long long)tr->inputs[i].size;
        }
        size_t dims[2] = {1, (size_t)n};
        put(t, in, "role", texts(cols, n));
        put(t, in, "path", texts(cols + n, n));
        put(t, in, "sha256", texts(cols + 2 * n, n));
        put(t, in, "size", Mat_VarCreate(NULL, MAT_C_INT64, MAT_T_INT64, 2, dims, sizes, 0));
    }
    hs_free(cols);
    hs_free(sizes);
}

static void all_series(mat_tree *t, const hs_results *r)
{
    const int64_t n = r->count;
    series(t, NULL, "time", r->t, n, -1, r->units_time, NULL);
    series(t, NULL, "ground_acceleration", r->ag, n, -1, r->units_acceleration, NULL);
    series(t, NULL, "displacement", r->d, n, r->ndof, r->units_length, r->dof_names);
    flush(t);
    series(t, NULL, "velocity", r->v, n, r->ndof, r->units_velocity, r->dof_names);
    flush(t);
    series(t, NULL, "acceleration", r->a, n, r->ndof, r->units_acceleration, r->dof_names);
    flush(t);
    series(t, "springs", "deformation", r->sdef, n, r->nsprings, r->units_length, r->spring_names);
    series(t, "springs", "force", r->sforce, n, r->nsprings, r->units_force, r->spring_names);
    flush(t);
    series(t, "energy", "input", r->e_input, n, -1, r->units_energy, NULL);
    series(t, "energy", "kinetic", r->e_kinetic, n, -1, r->units_energy, NULL);
    series(t, "energy", "damping", r->e_damping, n, -1, r->units_energy, NULL);
    series(t, "energy", "strain", r->e_strain, n, -1, r->units_energy, NULL);
    series(t, "energy", "experimental", r->e_experimental, n, -1, r->units_energy, NULL);
    series(t, "energy", "error_rel", r->e_error_rel, n, -1, "1", NULL);
    series(t, "energy", "groups", r->e_groups, n, r->ngroups, r->units_energy, r->group_names);
    flush(t);
}

static void actuators(mat_tree *t, const hs_results *r, char *const *tangent_names)
{
    const int64_t n = r->count;
    const int m = r->nact;
    series(t, "actuators", "command", r->act_cmd, n, m, r->units_length, r->act_names);
    series(t, "actuators", "measured", r->act_meas, n, m, r->units_length, r->act_names);
    series(t, "actuators", "force", r->act_force, n, m, r->units_force, r->act_names);
    series(t, "actuators", "tangent", r->act_tangent, n, m * m, r->units_stiffness, tangent_names);
    if (r->nsites <= 0) return;
    series(t, "actuators", "tracking_error", r->act_te, n, m, r->units_length, r->act_names);
    series(t, "actuators", "tracking_indicator", r->act_ti, n, m, r->units_ti, r->act_names);
}

static void sites(mat_tree *t, const hs_results *r)
{
    static char *const bits[] = {"extrapolate", "interpolate",    "slow",
                                 "hold",        "free_vibration", "done"};
    const int ns = r->nsites;
    matvar_t *g = group(t, t->root, "sites");
    put(t, g, "names", texts(r->site_names, ns));
    put(t, g, "slow_after_s", matrix(t, r->slow_after, 1, ns, 0));
    put(t, g, "hold_after_s", matrix(t, r->hold_after, 1, ns, 0));
    dataset(t, "sites", "states", matrix(t, r->site_states, r->count, ns, 1), "1", r->site_names,
            ns);
    put(t, group(t, t->bits, "sites"), "states", texts(bits, (int)(sizeof bits / sizeof bits[0])));
    series(t, "sites", "delay", r->site_delay, r->count, ns, "s", r->site_names);
}

/* The recorders: recorder NAME's columns as recorders.NAME (records x columns), its column
 * names at names.recorders.NAME, units (one per column) at units.recorders.NAME, response at
 * response.recorders.NAME, and nodes, elements, components at nodes.recorders.NAME, ..., as
 * results.h5's /recorders/NAME and its attributes. */
static void recorders(mat_tree *t, const hs_results *r)
{
    const size_t rows = (size_t)r->count, all = rows * r->rec_width;
    double *buf = t->nbuffers < HS_MAT_BUFFERS ? malloc((all ? all : 1) * sizeof(double)) : NULL;
    if (!buf) {
        t->failed = 1;
        return;
    }
    t->buffers[t->nbuffers++] = buf; /* every recorder's matrix, column-major, one after another */
    for (int j = 0; j < r->nrec && !t->failed; j++) {
        const size_t m = (size_t)r->rec_ncols[j];
        double *col = buf + rows * (size_t)r->rec_col0[j];
        for (size_t i = 0; i < rows; i++) {
            const double *x = hs_results_series_recorder(r, j, (int64_t)i);
            for (size_t c = 0; c < m; c++) col[c * rows + i] = x[c];
        }
        size_t dims[2] = {rows, m};
        matvar_t *v =
            Mat_VarCreate(NULL, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, col, MAT_F_DONT_COPY_DATA);
        const char *name = r->rec_names[j];
        put(t, group(t, t->root, "recorders"), name, v);
        put(t, group(t, t->units, "recorders"), name, texts(r->rec_units[j], (int)m));
        put(t, group(t, t->names, "recorders"), name, texts(r->rec_columns[j], (int)m));
        put(t, group(t, t->response, "recorders"), name, text(r->rec_responses[j]));
        if (r->rec_nnodes[j] > 0)
            put(t, group(t, t->nodes, "recorders"), name, ints(r->rec_nodes[j], r->rec_nnodes[j]));
        if (r->rec_elements[j])
            put(t, group(t, t->elements, "recorders"), name, texts(r->rec_elements[j], (int)m));
        if (r->rec_components[j])
            put(t, group(t, t->components, "recorders"), name, texts(r->rec_components[j], (int)m));
    }
    flush(t);
}

/* Column names of the tangent, "K(a,b)" column-major (as results.h5). */
static char **tangent_names(const hs_results *r)
{
    const int m = r->nact;
    char **names = hs_calloc((size_t)(m > 0 ? m * m : 1), sizeof *names);
    for (int j = 0; names && j < m; j++)
        for (int i = 0; i < m; i++) {
            const size_t len = strlen(r->act_names[i]) + strlen(r->act_names[j]) + 5;
            names[j * m + i] = hs_malloc(len);
            if (names[j * m + i])
                snprintf(names[j * m + i], len, "K(%s,%s)", r->act_names[i], r->act_names[j]);
        }
    return names;
}

/* The largest series in bytes: MAT v5 holds at most 2^31 - 1 bytes per variable. */
static size_t largest_series(const hs_results *r)
{
    int w = r->ndof;
    if (r->nsprings > w) w = r->nsprings;
    if (r->nact * r->nact > w) w = r->nact * r->nact;
    if (r->nsites > w) w = r->nsites;
    for (int j = 0; j < r->nrec; j++)
        if (r->rec_ncols[j] > w) w = r->rec_ncols[j];
    return (size_t)r->count * (size_t)w * sizeof(double);
}

int hs_results_mat_version(const hs_results *r)
{
    return largest_series(r) < ((size_t)1 << 31) - 4096u ? 5 : 73;
}

int hs_results_write_mat(const hs_results *r, const hs_run_summary *s, const char *path,
                         int version)
{
    if (!r) return HS_EINVAL;
    if (version == 0) version = hs_results_mat_version(r);
    if (version != 5 && version != 73)
        return hs_fail(r->ctx, HS_EINVAL, "%s: MAT version %d: use 5 or 73 (7.3), or 0", path,
                       version);
    int rc = hs_mat_require(r->ctx, path); /* loaded here, not at the program's start */
    if (rc) return rc;
    hs_atomic_file af;
    rc = hs_atomic_reserve(r->ctx, path, &af);
    if (rc) return rc;
    char header[116];
    snprintf(header, sizeof header, "MATLAB 5.0 MAT-file, written by hysim %s (results.h5's names)",
             HS_VERSION_STRING);
    mat_tree t = {.mat = Mat_CreateVer(af.tmp, header, version == 73 ? MAT_FT_MAT73 : MAT_FT_MAT5),
                  .root = new_struct(),
                  .units = new_struct(),
                  .names = new_struct(),
                  .bits = new_struct(),
                  .response = new_struct(),
                  .nodes = new_struct(),
                  .elements = new_struct(),
                  .components = new_struct()};
    matvar_t *trees[] = {t.root,     t.units, t.names,    t.bits,
                         t.response, t.nodes, t.elements, t.components};
    if (!t.mat) {
        for (size_t k = 0; k < sizeof trees / sizeof trees[0]; k++)
            if (trees[k]) Mat_VarFree(trees[k]);
        hs_atomic_finish(r->ctx, &af, 1);
        return hs_fail(r->ctx, HS_EIO, "%s: libmatio cannot create a MAT %s file", path,
                       version == 73 ? "7.3" : "v5");
    }
    char **tnames = r->nact > 0 ? tangent_names(r) : NULL;
    for (int k = 0; tnames && k < r->nact * r->nact; k++)
        if (!tnames[k]) t.failed = 1;
    for (size_t k = 0; k < sizeof trees / sizeof trees[0]; k++)
        if (!trees[k]) t.failed = 1;
    if (r->nact > 0 && !tnames) t.failed = 1;
    if (!t.failed) root_members(&t, r, s);
    if (!t.failed && s && s->trace) trace(&t, s->trace);
    if (!t.failed) all_series(&t, r);
    if (!t.failed && r->nact > 0) actuators(&t, r, tnames);
    flush(&t);
    if (!t.failed && r->nsites > 0) sites(&t, r);
    flush(&t);
    if (!t.failed && r->nrec > 0) recorders(&t, r);
    flush(&t);
    if (!t.failed) write_var(&t, t.units, "units");
    if (!t.failed) write_var(&t, t.names, "names");
    if (!t.failed && r->nsites > 0) write_var(&t, t.bits, "bits");
    int has[3] = {0, 0, 0}; /* the recorders' attribute trees that hold something */
    for (int j = 0; j < r->nrec; j++) {
        has[0] |= r->rec_nnodes[j] > 0;
        has[1] |= r->rec_elements[j] != NULL;
        has[2] |= r->rec_components[j] != NULL;
    }
    if (!t.failed && r->nrec > 0) write_var(&t, t.response, "response");
    if (!t.failed && has[0]) write_var(&t, t.nodes, "nodes");
    if (!t.failed && has[1]) write_var(&t, t.elements, "elements");
    if (!t.failed && has[2]) write_var(&t, t.components, "components");
    int failed = t.failed;
    if (Mat_Close(t.mat) != 0) failed = 1;
    for (size_t k = 0; k < sizeof trees / sizeof trees[0]; k++)
        if (trees[k]) Mat_VarFree(trees[k]);
    for (int k = 0; k < t.nbuffers; k++) free(t.buffers[k]);
    for (int k = 0; tnames && k < r->nact * r->nact; k++) hs_free(tnames[k]);
    hs_free(tnames);
    if (failed) {
        hs_atomic_finish(r->ctx, &af, 1);
        return hs_fail(r->ctx, HS_EIO, "%s: writing the MAT file failed (%lld records)", path,
                       (long long)r->count);
    }
    return hs_atomic_finish(r->ctx, &af, 0);
}
