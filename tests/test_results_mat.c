/* results.mat against results.h5, read back independently (libmatio and the HDF5 C API): every
 * object of results.h5 is found in results.mat under its name (dataset /G/D as field D of the
 * struct G, a group's attributes as its members, the root's as variables, a dataset's attribute
 * A at A.<path>) with the same shape (records x columns) and the same bits, every string the same;
 * and results.mat holds nothing else. Two runs: the 15-story shear building of Mosqueda &
 * Ahmadizadeh (Bouc-Wen stories, HHT, written by the coordinator because the test file says
 * `output: {mat: true}`), and Mosqueda & Ahmadizadeh's two-story hybrid test with a virtual lab
 * (actuators, tangent, sites), written as MAT v5 and as MAT 7.3. */
#include "hs_test.h"

#include "hs_build.h"
#include "hs_output.h"
#include "hysim/coordinator.h"
#include "hysim/results.h"

#include <hdf5.h>
#include <matio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct compare {
    mat_t *mat;
    matvar_t **vars; /* every top-level variable of the file, read once */
    int nvars, *used;
    int items; /* values and strings compared */
} compare;

static matvar_t *top(compare *c, const char *name)
{
    for (int i = 0; i < c->nvars; i++)
        if (strcmp(c->vars[i]->name, name) == 0) {
            c->used[i] = 1;
            return c->vars[i];
        }
    return NULL;
}

/* The member at `path` ("a/b/c") under the variable `first` (NULL: path's first part is it). */
static matvar_t *lookup(compare *c, const char *first, const char *path)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", path);
    char *save = NULL, *part = strtok_r(buf, "/", &save);
    matvar_t *v = first ? top(c, first) : (part ? top(c, part) : NULL);
    if (!first && part) part = strtok_r(NULL, "/", &save);
    for (; v && part; part = strtok_r(NULL, "/", &save)) {
        if (v->class_type != MAT_C_STRUCT) return NULL;
        v = Mat_VarGetStructFieldByName(v, part, 0);
    }
    return v;
}

/* Text in results.mat: UTF-8 bytes (v5) or UTF-16 code units (7.3, MATLAB's own char; the
 * strings here are ASCII). */
static void assert_text(compare *c, matvar_t *v, const char *want, const char *where)
{
    if (!v || v->class_type != MAT_C_CHAR) fail_msg("%s: no text in results.mat", where);
    const size_t len = v->dims[0] * v->dims[1];
    char got[512] = "";
    for (size_t i = 0; i < len && i + 1 < sizeof got; i++)
        got[i] = v->data_type == MAT_T_UINT16 ? (char)((const unsigned short *)v->data)[i]
                                              : ((const char *)v->data)[i];
    if (len != strlen(want) || strncmp(got, want, len) != 0)
        fail_msg("%s: '%s' in results.mat, '%s' in results.h5", where, got, want);
    c->items++;
}

/* A string attribute (scalar or 1-D array) of an HDF5 object against text or a cell of texts. */
static void compare_string_attr(compare *c, hid_t attr, matvar_t *v, const char *where)
{
    hid_t space = H5Aget_space(attr), type = H5Aget_type(attr);
    hssize_t n = H5Sget_simple_extent_npoints(space);
    const int scalar = H5Sget_simple_extent_ndims(space) == 0;
    char **s = calloc((size_t)(n > 0 ? n : 1), sizeof *s);
    hid_t mem = H5Tcopy(H5T_C_S1);
    H5Tset_size(mem, H5T_VARIABLE);
    H5Tset_cset(mem, H5T_CSET_UTF8);
    if (n > 0) assert_true(H5Aread(attr, mem, s) >= 0);
    if (scalar) {
        assert_text(c, v, s[0], where);
    } else {
        if (!v || v->class_type != MAT_C_CELL || v->dims[0] * v->dims[1] != (size_t)n)
            fail_msg("%s: not a cell of %lld texts in results.mat", where, (long long)n);
        for (hssize_t i = 0; i < n; i++) assert_text(c, Mat_VarGetCell(v, (int)i), s[i], where);
    }
    if (n > 0) H5Dvlen_reclaim(mem, space, H5P_DEFAULT, s);
    free(s);
    H5Tclose(mem);
    H5Tclose(type);
    H5Sclose(space);
}

/* A numeric attribute (scalar or 1-D) against a MATLAB double or integer array, bit for bit. */
static void compare_number_attr(compare *c, hid_t attr, matvar_t *v, const char *where)
{
    hid_t space = H5Aget_space(attr), type = H5Aget_type(attr);
    const hssize_t n = H5Sget_simple_extent_npoints(space);
    if (!v || (size_t)n != v->dims[0] * v->dims[1]) fail_msg("%s: size differs", where);
    if (H5Tget_class(type) == H5T_FLOAT) {
        double *x = calloc((size_t)n + 1, sizeof *x);
        assert_true(H5Aread(attr, H5T_NATIVE_DOUBLE, x) >= 0);
        assert_int_equal(v->class_type, MAT_C_DOUBLE);
        if (n && memcmp(x, v->data, (size_t)n * sizeof *x) != 0)
            fail_msg("%s: values differ", where);
        free(x);
    } else {
        long long x = 0;
        assert_int_equal(n, 1);
        assert_true(H5Aread(attr, H5T_NATIVE_LLONG, &x) >= 0);
        assert_int_equal(v->class_type, MAT_C_INT64);
        if (*(const long long *)v->data != x)
            fail_msg("%s: %lld, expected %lld", where, *(const long long *)v->data, x);
    }
    c->items += (int)n;
    H5Tclose(type);
    H5Sclose(space);
}

typedef struct visit {
    compare *c;
    const char *path; /* of the object whose attributes are visited */
    int is_dataset;
} visit;

static herr_t on_attr(hid_t loc, const char *name, const H5A_info_t *info, void *op)
{
    (void)info;
    visit *vi = op;
    char where[512];
    matvar_t *v;
    if (vi->is_dataset) { /* units.<path>, names.<path>, bits.<path> */
        v = lookup(vi->c, name, vi->path);
    } else { /* a member of the group's struct; the root's are variables */
        char path[512];
        snprintf(path, sizeof path, "%s%s%s", vi->path, vi->path[0] ? "/" : "", name);
        v = lookup(vi->c, NULL, path);
    }
    snprintf(where, sizeof where, "attribute %s of /%s", name, vi->path);
    hid_t attr = H5Aopen(loc, name, H5P_DEFAULT);
    hid_t type = H5Aget_type(attr);
    if (H5Tget_class(type) == H5T_STRING)
        compare_string_attr(vi->c, attr, v, where);
    else
        compare_number_attr(vi->c, attr, v, where);
    H5Tclose(type);
    H5Aclose(attr);
    return 0;
}

/* A dataset: the same shape (rows x columns, a 1-D one a column) and, transposed back, the same
 * bytes. */
static void compare_dataset(compare *c, hid_t file, const char *path)
{
    hid_t set = H5Dopen2(file, path, H5P_DEFAULT), space = H5Dget_space(set);
    hid_t type = H5Dget_type(set);
    hsize_t dims[2] = {0, 1};
    const int rank = H5Sget_simple_extent_ndims(space);
    H5Sget_simple_extent_dims(space, dims, NULL);
    if (rank == 1) dims[1] = 1;
    const int is_int = H5Tget_class(type) == H5T_INTEGER;
    const size_t size = is_int ? sizeof(int) : sizeof(double), rows = dims[0], cols = dims[1];
    matvar_t *v = lookup(c, NULL, path);
    if (!v) fail_msg("/%s: not in results.mat", path);
    if (v->rank != 2 || v->dims[0] != rows || v->dims[1] != cols)
        fail_msg("/%s: %zu x %zu in results.mat, %zu x %zu in results.h5", path, v->dims[0],
                 v->dims[1], rows, cols);
    assert_int_equal(v->class_type, is_int ? MAT_C_INT32 : MAT_C_DOUBLE);
    unsigned char *h5 = malloc(rows * cols * size + 1);
    if (rows > 0 && cols > 0)
        assert_true(H5Dread(set, is_int ? H5T_NATIVE_INT : H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL,
                            H5P_DEFAULT, h5) >= 0);
    const unsigned char *m = v->data;
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < cols; j++)
            if (memcmp(h5 + (i * cols + j) * size, m + (j * rows + i) * size, size) != 0)
                fail_msg("/%s(%zu, %zu): the bits differ", path, i, j);
    c->items += (int)(rows * cols);
    free(h5);
    visit vi = {c, path, 1};
    H5Aiterate2(set, H5_INDEX_NAME, H5_ITER_INC, NULL, on_attr, &vi);
    H5Tclose(type);
    H5Sclose(space);
    H5Dclose(set);
}

typedef struct walk {
    compare *c;
    hid_t file;
} walk;

static herr_t on_object(hid_t obj, const char *name, const H5O_info_t *info, void *op)
{
    walk *w = op;
    if (info->type == H5O_TYPE_DATASET) {
        compare_dataset(w->c, w->file, name);
    } else if (info->type == H5O_TYPE_GROUP) {
        const char *path = strcmp(name, ".") == 0 ? "" : name;
        visit vi = {w->c, path, 0};
        hid_t g = H5Gopen2(obj, name, H5P_DEFAULT);
        H5Aiterate2(g, H5_INDEX_NAME, H5_ITER_INC, NULL, on_attr, &vi);
        H5Gclose(g);
    }
    return 0;
}

/* Compares dir/results.mat with dir/results.h5; returns the number of items compared. */
static int compare_files(const char *dir, const char *matname)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, matname);
    compare c = {.mat = Mat_Open(path, MAT_ACC_RDONLY)};
    if (!c.mat) fail_msg("%s: libmatio cannot open it", path);
    c.vars = calloc(256, sizeof *c.vars);
    c.used = calloc(256, sizeof *c.used);
    matvar_t *v;
    while ((v = Mat_VarReadNext(c.mat)) != NULL && c.nvars < 256) c.vars[c.nvars++] = v;
    Mat_Close(c.mat);
    snprintf(path, sizeof path, "%s/results.h5", dir);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(file >= 0);
    walk w = {&c, file};
    assert_true(H5Ovisit2(file, H5_INDEX_NAME, H5_ITER_INC, on_object, &w, H5O_INFO_BASIC) >= 0);
    H5Fclose(file);
    for (int i = 0; i < c.nvars; i++) { /* nothing else */
        const char *n = c.vars[i]->name;
        if (strcmp(n, "units") == 0 || strcmp(n, "names") == 0 || strcmp(n, "bits") == 0)
            c.used[i] = 1;
        if (!c.used[i]) fail_msg("%s: variable '%s' has no counterpart in results.h5", matname, n);
        Mat_VarFree(c.vars[i]);
    }
    free(c.vars);
    free(c.used);
    return c.items;
}

static const char building[] =
    "hysim: 1\nname: fifteen-story\nunits: {force: kN, length: mm, time: s}\n"
    "structure:\n  dofs: 15\n  mass: [0.0014825502, 0.0014825502, 0.0014825502, 0.0014825502, "
    "0.0014825502, 0.0014825502, 0.0014825502, 0.0014825502, 0.0014825502, 0.0014825502, "
    "0.0014825502, 0.0014825502, 0.0014825502, 0.0014825502, 0.0014825502]\n"
    "  shear_building:\n    stories: [{material: story1}, {material: story}, {material: story}, "
    "{material: story}, {material: story}, {material: story}, {material: story}, "
    "{material: story}, {material: story}, {material: story}, {material: story}, "
    "{material: story}, {material: story}, {material: story}, {material: story}]\n"
    "  damping: {rayleigh: {modes: [1, 2], ratios: [0.02, 0.02]}}\n"
    "materials:\n"
    "  story1: {type: bouc_wen, alpha: 0.05, k0: 1.77, n: 2, gamma: 0.0385802469, beta: "
    "0.0385802469, A0: 1}\n"
    "  story: {type: bouc_wen, alpha: 0.05, k0: 8.86, n: 2, gamma: 0.0385802469, beta: "
    "0.0385802469, A0: 1}\n"
    "ground_motion:\n  synthetic: {seed: 7, pga: 3000, duration: 5, dt: 0.01}\n"
    "analysis:\n  integrator: {type: hht, alpha: -0.05}\n  dt: 0.01\n  duration: 5\n"
    "  checkpoint_every: 0\n"
    "output:\n  mat: true\n";

static void test_numerical(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_test_def *def = NULL;
    if (hs_testfile_load_string(ctx, building, strlen(building), "building.yaml", &def))
        fail_msg("%s", hs_ctx_message(ctx));
    assert_int_equal(def->output_mat, 1);
    hs_coordinator *c = NULL;
    assert_int_equal(hs_coordinator_create(ctx, def, &c), 0);
    if (hs_coordinator_run(c)) fail_msg("%s", hs_ctx_message(ctx));
    char dir[4096];
    hs_test_make_dir(dir, sizeof dir, "test_results_mat");
    assert_int_equal(hs_coordinator_write(c, dir), 0);
    const int items = compare_files(dir, "results.mat");
    /* 501 records of t, ag, 3 x 15 kinematics, 2 x 15 springs, 6 energies, 1 group */
    assert_true(items > 501 * (2 + 45 + 30 + 7));
    print_message("test_results_mat: 15-story run, %d values and texts identical\n", items);
    hs_coordinator_destroy(&c);
    hs_test_def_destroy(&def);
    hs_test_remove_dir(dir);

    /* the key is validated like the others */
    char *bad = strdup(building);
    char *at = strstr(bad, "mat: true");
    memcpy(at, "mat: 1   ", 9);
    assert_int_equal(hs_testfile_load_string(ctx, bad, strlen(bad), "bad.yaml", &def), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "output.mat: expected true or false, got '1'"));
    memcpy(at, "mta: true", 9);
    assert_int_equal(hs_testfile_load_string(ctx, bad, strlen(bad), "bad.yaml", &def), HS_EINPUT);
    assert_non_null(strstr(hs_ctx_message(ctx), "mat"));
    free(bad);
    hs_ctx_destroy(&ctx);
}

static void test_hybrid(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_ground_motion *gm = hs_tb_synthetic(ctx, 3, 0.35 * 0.85 * 9806.65, 2.0, 0.01);
    hs_test_def *def = hs_tb_mosqueda2008b(ctx, gm, "os_tangent", 0, 0.60, 0.15, 1);
    hs_coordinator *c = NULL;
    assert_int_equal(hs_coordinator_create(ctx, def, &c), 0);
    if (hs_coordinator_run(c)) fail_msg("%s", hs_ctx_message(ctx));
    char dir[4096], path[4200];
    hs_test_make_dir(dir, sizeof dir, "test_results_mat");
    assert_int_equal(hs_coordinator_write(c, dir), 0); /* results.h5, no results.mat */
    snprintf(path, sizeof path, "%s/results.mat", dir);
    assert_int_equal(access(path, F_OK), -1);
    const hs_results *r = hs_coordinator_results(c);
    hs_run_summary s = {.name = def->name,
                        .status = "completed",
                        .reason = "",
                        .integrator = def->integrator,
                        .steps = def->steps,
                        .dt = def->dt,
                        .ndof = 2,
                        .wall_time_s = hs_coordinator_wall_time(c)};
    /* the root attributes of both files from the same summary */
    snprintf(path, sizeof path, "%s/results.h5", dir);
    assert_int_equal(hs_results_write_hdf5(r, &s, path), 0);
    snprintf(path, sizeof path, "%s/results.mat", dir);
    assert_int_equal(hs_results_write_mat(r, &s, path, 5), 0);
    const int v5 = compare_files(dir, "results.mat");
    snprintf(path, sizeof path, "%s/results73.mat", dir);
    assert_int_equal(hs_results_write_mat(r, &s, path, 73), 0);
    const int v73 = compare_files(dir, "results73.mat");
    assert_int_equal(v5, v73);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT); /* 7.3 is HDF5 underneath */
    assert_true(f >= 0);
    H5Fclose(f);
    assert_int_equal(hs_results_write_mat(r, &s, path, 6), HS_EINVAL);
    print_message("test_results_mat: hybrid run, v5 and 7.3, %d values and texts identical\n", v5);
    hs_coordinator_destroy(&c);
    hs_tb_free(def);
    hs_ground_motion_destroy(&gm);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numerical),
        cmocka_unit_test(test_hybrid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
