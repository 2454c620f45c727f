/* The results store and its writers: a known synthetic history (d1 = sin t, d2 = sin(2t) / 2)
 * recorded step by step, written as CSV, HDF5 and JSON, and read back independently; then the
 * `hysim plot` program (HS_CLI) draws it. */
#include "hs_test.h"

#include "hs_output.h"

#include <dirent.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define NSTEPS   400
#define DT       0.05
#define NDOF     2
#define NSPRINGS 3

static const char *const spring_names[NSPRINGS] = {"column A", "brace 'B' `echo x` \"q\"",
                                                   "damper_1"};
static const char *const group_names[2] = {"steel", "rubber"};
static const char *const run_name = "synthetic \"sine\"\n\ttest";

/* The known history at step k. */
static void history(int k, double *t, double d[NDOF], double v[NDOF], double a[NDOF])
{
    *t = k * DT;
    d[0] = sin(*t);
    v[0] = cos(*t);
    a[0] = -sin(*t);
    d[1] = 0.5 * sin(2 * *t);
    v[1] = cos(2 * *t);
    a[1] = -2 * sin(2 * *t);
}

static hs_results *make_store(int64_t capacity)
{
    hs_results_layout layout = {.ndof = NDOF,
                                .nsprings = NSPRINGS,
                                .ngroups = 2,
                                .spring_names = spring_names,
                                .group_names = group_names,
                                .capacity = capacity,
                                .units_force = "kip",
                                .units_length = "in",
                                .units_time = "s"};
    hs_results *r = NULL;
    assert_int_equal(hs_results_create(NULL, &layout, &r), 0);
    assert_non_null(r);
    return r;
}

/* Records steps 0..nrec-1 of the known history; asserts that recording never allocates. */
static void fill(hs_results *r, int nrec)
{
    uint64_t before = hs_alloc_count();
    for (int k = 0; k < nrec; k++) {
        double t, d[NDOF], v[NDOF], a[NDOF];
        history(k, &t, d, v, a);
        /* springs: an elastic column, a viscoelastic brace (elliptic loop), a damper */
        double def[NSPRINGS] = {d[0], d[0] - d[1], d[1]};
        double force[NSPRINGS] = {3 * d[0], 2 * (d[0] - d[1]) + 0.8 * (v[0] - v[1]), 0.5 * v[1]};
        hs_energy e = {.input = 0.5 + 0.02 * t,
                       .kinetic = 0.5 * v[0] * v[0],
                       .damping = 0.02 * t,
                       .strain = 0.5 * d[0] * d[0],
                       .experimental = 0,
                       .error_rel = 1e-13 * (1 + k % 7),
                       .ngroups = 2,
                       .group = {0.25 * d[0] * d[0], 0.25 * d[0] * d[0]}};
        assert_int_equal(hs_results_record(r, t, 0.1 * sin(3 * t), d, v, a, def, force, &e), 0);
    }
    assert_true(hs_alloc_count() == before);
}

static double expected_peak(int dof, int nrec)
{
    double peak = 0;
    for (int k = 0; k < nrec; k++) {
        double x = dof == 0 ? fabs(sin(k * DT)) : fabs(0.5 * sin(2 * k * DT));
        if (x > peak) peak = x;
    }
    return peak;
}

static int count_files(const char *dir)
{
    DIR *dp = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (dp && (e = readdir(dp)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) n++;
    if (dp) closedir(dp);
    return n;
}

static void test_record_and_accessors(void **state)
{
    (void)state;
    hs_results *r = make_store(NSTEPS + 1);
    assert_int_equal(hs_results_count(r), 0);
    fill(r, NSTEPS + 1);
    assert_int_equal(hs_results_count(r), NSTEPS + 1);
    const double *d = hs_results_series_d(r, 123);
    assert_non_null(d);
    assert_true(d[0] == sin(123 * DT));
    assert_true(d[1] == 0.5 * sin(2 * (123 * DT)));
    assert_null(hs_results_series_d(r, NSTEPS + 1));
    assert_null(hs_results_series_d(r, -1));
    /* peaks from the closed form over the same samples: max |sin| over 0..20 s is near 1 */
    HS_ASSERT_NEAR(hs_results_peak_abs_disp(r, 0), expected_peak(0, NSTEPS + 1), 0);
    HS_ASSERT_NEAR(hs_results_peak_abs_disp(r, 1), expected_peak(1, NSTEPS + 1), 0);
    assert_true(hs_results_peak_abs_disp(r, 0) > 0.9999 && hs_results_peak_abs_disp(r, 0) <= 1);

    /* full: one more record is refused, with a message, and changes nothing */
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_results_layout layout = {.ndof = 1, .capacity = 2, .units_length = "m"};
    hs_results *small = NULL;
    assert_int_equal(hs_results_create(ctx, &layout, &small), 0);
    double x = 1, z = 0;
    assert_int_equal(hs_results_record(small, 0, 0, &x, &z, &z, NULL, NULL, NULL), 0);
    assert_int_equal(hs_results_record(small, 1, 0, &x, &z, &z, NULL, NULL, NULL), 0);
    uint64_t before = hs_alloc_count();
    assert_int_equal(hs_results_record(small, 2, 0, &x, &z, &z, NULL, NULL, NULL), HS_EINVAL);
    assert_true(hs_alloc_count() == before);
    assert_non_null(strstr(hs_ctx_message(ctx), "full"));
    assert_int_equal(hs_results_count(small), 2);
    hs_results_destroy(&small);
    assert_null(small);

    /* bad layouts */
    layout.capacity = 0;
    assert_int_equal(hs_results_create(ctx, &layout, &small), HS_EINVAL);
    layout.capacity = 3;
    layout.ndof = 0;
    assert_int_equal(hs_results_create(ctx, &layout, &small), HS_EINVAL);
    hs_ctx_destroy(&ctx);
    hs_results_destroy(&r);
}

static hs_run_summary make_summary(const char *status, const char *reason, int64_t steps,
                                   const double *periods)
{
    hs_run_summary s = {.name = run_name,
                        .status = status,
                        .reason = reason,
                        .integrator = "newmark_explicit",
                        .steps = steps,
                        .dt = DT,
                        .ndof = NDOF,
                        .periods = periods,
                        .wall_time_s = 0.25};
    return s;
}

static void read_csv(const char *path, int nrec)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512];
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "t,d1,d2\n");
    int rows = 0;
    while (fgets(line, sizeof line, f)) {
        char *p = line, *end = NULL;
        double t = strtod(p, &end);
        assert_true(end != p && *end == ',');
        double d1 = strtod(end + 1, &end);
        assert_true(*end == ',');
        double d2 = strtod(end + 1, &end);
        assert_true(*end == '\n');
        HS_ASSERT_NEAR(t, rows * DT, 1e-10 * (1 + t));
        HS_ASSERT_NEAR(d1, sin(rows * DT), 1e-9);
        HS_ASSERT_NEAR(d2, 0.5 * sin(2 * rows * DT), 1e-9);
        rows++;
    }
    fclose(f);
    assert_int_equal(rows, nrec);
}

static void read_hdf5(const char *path, int nrec, const char *status)
{
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(file >= 0);
    hsize_t n = (hsize_t)nrec;
    double *t = hs_h5_read(file, "time", n, 0, "s");
    double *ag = hs_h5_read(file, "ground_acceleration", n, 0, "in/s^2");
    double *d = hs_h5_read(file, "displacement", n, NDOF, "in");
    double *v = hs_h5_read(file, "velocity", n, NDOF, "in/s");
    double *a = hs_h5_read(file, "acceleration", n, NDOF, "in/s^2");
    double *sd = hs_h5_read(file, "springs/deformation", n, NSPRINGS, "in");
    double *sf = hs_h5_read(file, "springs/force", n, NSPRINGS, "kip");
    double *ein = hs_h5_read(file, "energy/input", n, 0, "kip*in");
    double *ek = hs_h5_read(file, "energy/kinetic", n, 0, "kip*in");
    double *eg = hs_h5_read(file, "energy/groups", n, 2, "kip*in");
    double *er = hs_h5_read(file, "energy/error_rel", n, 0, "1");
    for (int k = 0; k < nrec; k++) {
        double tk = k * DT;
        assert_true(t[k] == tk);
        assert_true(ag[k] == 0.1 * sin(3 * tk));
        assert_true(d[2 * k] == sin(tk) && d[2 * k + 1] == 0.5 * sin(2 * tk));
        assert_true(v[2 * k] == cos(tk) && v[2 * k + 1] == cos(2 * tk));
        assert_true(a[2 * k] == -sin(tk) && a[2 * k + 1] == -2 * sin(2 * tk));
        assert_true(sd[3 * k + 1] == sin(tk) - 0.5 * sin(2 * tk));
        assert_true(sf[3 * k] == 3 * sin(tk));
        assert_true(sf[3 * k + 2] == 0.5 * cos(2 * tk));
        assert_true(ein[k] == 0.5 + 0.02 * tk);
        assert_true(ek[k] == 0.5 * cos(tk) * cos(tk));
        assert_true(eg[2 * k + 1] == 0.25 * sin(tk) * sin(tk));
        assert_true(er[k] == 1e-13 * (1 + k % 7));
    }
    double *arrays[] = {t, ag, d, v, a, sd, sf, ein, ek, eg, er};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) free(arrays[i]);

    /* spring names, root attributes */
    hid_t set = H5Dopen2(file, "springs/force", H5P_DEFAULT);
    hs_h5_names(set, "names", spring_names, NSPRINGS);
    H5Dclose(set);
    char s[128];
    hs_h5_string(file, "status", s, sizeof s);
    assert_string_equal(s, status);
    hs_h5_string(file, "integrator", s, sizeof s);
    assert_string_equal(s, "newmark_explicit");
    double dt = 0;
    hid_t attr = H5Aopen(file, "dt", H5P_DEFAULT);
    assert_true(H5Aread(attr, H5T_NATIVE_DOUBLE, &dt) >= 0);
    H5Aclose(attr);
    assert_true(dt == DT);
    H5Fclose(file);
}

/* JSON: parsed by python3 (json.load) when present, else by a brace/key check. */
static void check_json(const char *dir, const char *path, int nrec, const char *status)
{
    char py[4200], cmd[9000];
    snprintf(py, sizeof py, "%s/check.py", dir);
    FILE *f = fopen(py, "w");
    assert_non_null(f);
    fprintf(f,
            "import json, math, sys\n"
            "d = json.load(open(sys.argv[1], encoding='utf-8'))\n"
            "assert d['name'] == 'synthetic \"sine\"\\n\\ttest', d['name']\n"
            "assert d['status'] == '%s'\n"
            "assert d['records'] == %d and d['steps'] == %d and d['ndof'] == 2\n"
            "assert d['dt'] == 0.05 and d['integrator'] == 'newmark_explicit'\n"
            "assert d['periods'] == [1.25, 0.5]\n"
            "assert d['peak_abs_disp'] == [%.17g, %.17g], d['peak_abs_disp']\n"
            "e = d['energy']\n"
            "t = %.17g\n"
            "assert abs(e['input'] - (0.5 + 0.02 * t)) < 1e-15\n"
            "assert abs(e['kinetic'] - 0.5 * math.cos(t) ** 2) < 1e-15\n"
            "assert e['experimental'] == 0 and e['error_rel'] == %.17g\n"
            "assert abs(e['groups']['rubber'] - 0.25 * math.sin(t) ** 2) < 1e-15\n"
            "assert d['wall_time_s'] == 0.25\n"
            "assert d['units'] == {'force': 'kip', 'length': 'in', 'time': 's'}\n",
            status, nrec, nrec - 1, expected_peak(0, nrec), expected_peak(1, nrec), (nrec - 1) * DT,
            1e-13 * (1 + (nrec - 1) % 7));
    fclose(f);
    if (system("python3 -c 'import json' >/dev/null 2>&1") == 0) {
        snprintf(cmd, sizeof cmd, "python3 '%s' '%s'", py, path);
        assert_int_equal(system(cmd), 0);
    } else {
        printf("python3 absent: checking summary.json by braces and keys only\n");
        f = fopen(path, "r");
        assert_non_null(f);
        char buf[8192];
        size_t len = fread(buf, 1, sizeof buf - 1, f);
        buf[len] = '\0';
        fclose(f);
        int depth = 0, in_string = 0;
        for (size_t i = 0; i < len; i++) {
            if (in_string) {
                if (buf[i] == '\\')
                    i++;
                else if (buf[i] == '"')
                    in_string = 0;
            } else if (buf[i] == '"') {
                in_string = 1;
            } else if (buf[i] == '{' || buf[i] == '[') {
                depth++;
            } else if (buf[i] == '}' || buf[i] == ']') {
                assert_true(--depth >= 0);
            }
        }
        assert_int_equal(depth, 0);
        const char *keys[] = {"\"status\"",        "\"steps\"",  "\"dt\"",       "\"periods\"",
                              "\"peak_abs_disp\"", "\"energy\"", "\"error_rel\""};
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            assert_non_null(strstr(buf, keys[i]));
    }
    remove(py);
}

static void test_writers(void **state)
{
    (void)state;
    char dir[4096], path[4200];
    hs_test_make_dir(dir, sizeof dir, "test_results");
    hs_results *r = make_store(NSTEPS + 1);
    fill(r, NSTEPS + 1);
    const double periods[NDOF] = {1.25, 0.5};
    hs_run_summary s = make_summary("completed", "", NSTEPS, periods);
    snprintf(path, sizeof path, "%s/response.csv", dir);
    assert_int_equal(hs_results_write_csv(r, path), 0);
    read_csv(path, NSTEPS + 1);
    snprintf(path, sizeof path, "%s/results.h5", dir);
    assert_int_equal(hs_results_write_hdf5(r, &s, path), 0);
    read_hdf5(path, NSTEPS + 1, "completed");
    snprintf(path, sizeof path, "%s/summary.json", dir);
    assert_int_equal(hs_results_write_summary(r, &s, path), 0);
    check_json(dir, path, NSTEPS + 1, "completed");
    /* atomic writing leaves no temporaries: exactly the three files */
    assert_int_equal(count_files(dir), 3);
    /* an unwritable place fails with HS_EIO and a message */
    assert_int_equal(hs_results_write_csv(r, "/nonexistent-dir/response.csv"), HS_EIO);
    hs_results_destroy(&r);
    hs_test_remove_dir(dir);
}

/* A run that stopped early keeps every recorded step, and only those. */
static void test_partial_run(void **state)
{
    (void)state;
    char dir[4096], path[4200];
    hs_test_make_dir(dir, sizeof dir, "test_results");
    hs_results *r = make_store(NSTEPS + 1);
    fill(r, 37);
    const double periods[NDOF] = {1.25, 0.5};
    hs_run_summary s = make_summary("unstable", "d1 exceeded the limit at step 36", 36, periods);
    snprintf(path, sizeof path, "%s/results.h5", dir);
    assert_int_equal(hs_results_write_hdf5(r, &s, path), 0);
    read_hdf5(path, 37, "unstable");
    snprintf(path, sizeof path, "%s/response.csv", dir);
    assert_int_equal(hs_results_write_csv(r, path), 0);
    read_csv(path, 37);
    snprintf(path, sizeof path, "%s/summary.json", dir);
    assert_int_equal(hs_results_write_summary(r, &s, path), 0);
    check_json(dir, path, 37, "unstable");
    hs_results_destroy(&r);
    hs_test_remove_dir(dir);
}

static int run_cli(const char *prefix, const char *cli, const char *args)
{
    char cmd[9000];
    snprintf(cmd, sizeof cmd, "%s'%s' plot %s >/dev/null 2>&1", prefix, cli, args);
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_plot(void **state)
{
    (void)state;
    const char *cli = getenv("HS_CLI");
    if (!cli || !cli[0]) {
        printf("HS_CLI not set (run through ctest): skipping the plot test\n");
        skip();
    }
    char dir[4096], path[4200], args[4300];
    hs_test_make_dir(dir, sizeof dir, "test_results");
    hs_results *r = make_store(NSTEPS + 1);
    fill(r, NSTEPS + 1);
    const double periods[NDOF] = {1.25, 0.5};
    hs_run_summary s = make_summary("completed", "", NSTEPS, periods);
    snprintf(path, sizeof path, "%s/results.h5", dir);
    assert_int_equal(hs_results_write_hdf5(r, &s, path), 0);
    hs_results_destroy(&r);

    snprintf(args, sizeof args, "'%s'", dir);
    assert_int_equal(run_cli("PATH=/nonexistent ", cli, args), 1); /* no gnuplot: clear error */
    assert_int_equal(count_files(dir), 1);                         /* and no litter */
    if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
        printf("gnuplot absent: skipping the drawing\n");
        hs_test_remove_dir(dir);
        skip();
    }
    assert_int_equal(run_cli("", cli, args), 0);
    const char *pngs[] = {"displacement.png", "hysteresis.png", "energy.png"};
    for (size_t i = 0; i < 3; i++) {
        assert_true(hs_test_is_png(dir, pngs[i]));
    }
    assert_int_equal(count_files(dir), 4); /* the script and partial files are gone */

    /* bad directories: exit 2 */
    snprintf(args, sizeof args, "'%s/missing'", dir);
    assert_int_equal(run_cli("", cli, args), 2);
    assert_int_equal(run_cli("", cli, ""), 2);
    snprintf(path, sizeof path, "%s/results.h5", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("not hdf5\n", f);
    fclose(f);
    snprintf(args, sizeof args, "'%s'", dir);
    assert_int_equal(run_cli("", cli, args), 2);
    hs_test_remove_dir(dir);
}

/* The actuator block: a known history per actuator (command sin t, measured lagging by 0.1 s,
 * force 3 x measured + 0.5, tangent [[3 + t, -t], [-t, 2]], none every fifth record), recorded
 * without allocating, written to /actuators and read back exactly. */
#define NACT 2
static const char *const actuator_names[NACT] = {"lab.a1", "far 'site'.x"};

static void actuator_history(int k, double x_cmd[NACT], double x_meas[NACT], double f[NACT],
                             double K[NACT * NACT])
{
    const double t = k * DT;
    for (int i = 0; i < NACT; i++) {
        x_cmd[i] = (i + 1) * sin(t);
        x_meas[i] = (i + 1) * sin(t - 0.1);
        f[i] = 3 * x_meas[i] + 0.5;
    }
    K[0] = 3 + t;
    K[1] = K[2] = -t;
    K[3] = 2;
}

static void test_actuators(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    double xc[NACT], xm[NACT], f[NACT], K[NACT * NACT];

    /* without a block: refused, and results.h5 has no /actuators */
    char dir[4096], path[4200];
    hs_test_make_dir(dir, sizeof dir, "test_results");
    hs_results *plain = make_store(3);
    fill(plain, 1);
    assert_int_equal(hs_results_actuator_count(plain), 0);
    actuator_history(0, xc, xm, f, K);
    assert_int_equal(hs_results_record_actuators(plain, xc, xm, f, K), HS_EINVAL);
    snprintf(path, sizeof path, "%s/plain.h5", dir);
    assert_int_equal(hs_results_write_hdf5(plain, NULL, path), 0);
    hs_results_destroy(&plain);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(file >= 0);
    assert_true(H5Lexists(file, "actuators", H5P_DEFAULT) == 0);
    H5Fclose(file);
    remove(path);

    hs_results_layout layout = {.ndof = NDOF,
                                .capacity = NSTEPS + 1,
                                .units_force = "kip",
                                .units_length = "in",
                                .units_time = "s",
                                .nact = NACT,
                                .actuator_names = actuator_names};
    hs_results *r = NULL;
    assert_int_equal(hs_results_create(ctx, &layout, &r), 0);
    assert_int_equal(hs_results_actuator_count(r), NACT);
    assert_int_equal(hs_results_record_actuators(r, xc, xm, f, K), HS_EINVAL); /* no record */
    assert_non_null(strstr(hs_ctx_message(ctx), "before any record"));
    const int nrec = 57;
    uint64_t before = hs_alloc_count();
    for (int k = 0; k < nrec; k++) {
        double t, d[NDOF], v[NDOF], a[NDOF];
        history(k, &t, d, v, a);
        assert_int_equal(hs_results_record(r, t, 0, d, v, a, NULL, NULL, NULL), 0);
        actuator_history(k, xc, xm, f, K);
        if (k == 0) /* nothing commanded yet */
            assert_int_equal(hs_results_record_actuators(r, NULL, NULL, NULL, K), 0);
        else
            assert_int_equal(hs_results_record_actuators(r, xc, xm, f, k % 5 ? K : NULL), 0);
    }
    assert_true(hs_alloc_count() == before);
    snprintf(path, sizeof path, "%s/results.h5", dir);
    assert_int_equal(hs_results_write_hdf5(r, NULL, path), 0);
    hs_results_destroy(&r);

    file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(file >= 0);
    const hsize_t n = (hsize_t)nrec;
    double *cmd = hs_h5_read(file, "actuators/command", n, NACT, "in");
    double *meas = hs_h5_read(file, "actuators/measured", n, NACT, "in");
    double *force = hs_h5_read(file, "actuators/force", n, NACT, "kip");
    double *tan = hs_h5_read(file, "actuators/tangent", n, NACT * NACT, "kip/in");
    for (int k = 0; k < nrec; k++) {
        actuator_history(k, xc, xm, f, K);
        for (int i = 0; i < NACT; i++) {
            if (k == 0) {
                assert_true(isnan(cmd[i]) && isnan(meas[i]) && isnan(force[i]));
                continue;
            }
            assert_true(cmd[k * NACT + i] == (i + 1) * sin(k * DT));
            assert_true(meas[k * NACT + i] == (i + 1) * sin(k * DT - 0.1));
            assert_true(force[k * NACT + i] == 3 * ((i + 1) * sin(k * DT - 0.1)) + 0.5);
        }
        for (int q = 0; q < NACT * NACT; q++) {
            const double got = tan[k * NACT * NACT + q];
            if (k > 0 && k % 5 == 0) {
                assert_true(isnan(got));
            } else {
                const double t = k * DT;
                const double want[4] = {3 + t, -t, -t, 2};
                assert_true(got == want[q]);
            }
        }
    }
    /* column names: the actuators, and K(a,b) column-major for the tangent */
    const char *const tangent_names[4] = {"K(lab.a1,lab.a1)", "K(far 'site'.x,lab.a1)",
                                          "K(lab.a1,far 'site'.x)", "K(far 'site'.x,far 'site'.x)"};
    const char *sets[2] = {"actuators/force", "actuators/tangent"};
    for (int s = 0; s < 2; s++) {
        hid_t set = H5Dopen2(file, sets[s], H5P_DEFAULT);
        hs_h5_names(set, "names", s ? tangent_names : actuator_names, s ? 4 : NACT);
        H5Dclose(set);
    }
    H5Fclose(file);
    free(cmd);
    free(meas);
    free(force);
    free(tan);
    hs_ctx_destroy(&ctx);
    hs_test_remove_dir(dir);
}

/* The site block: a known pattern per step (site 1 visits extrapolate and interpolate, and slow
 * in every third step, hold in every seventh; site 2 only interpolates; delays 0.01 k and
 * 0.02 k s; tracking error 1e-3 sin t, TI 1e-4 t per actuator), recorded without allocating,
 * written to /sites and /actuators and read back exactly, with the names, units, TimeOut limits
 * (one site unknown: NaN) and the bit names. */
#define NSITES 2
static const char *const site_names[NSITES] = {"lab 'one'", "lab2"};

static int site_states(int k, int s)
{
    if (s == 1) return 1 << 1;
    return 1 | 1 << 1 | (k % 3 == 0 ? 1 << 2 : 0) | (k % 7 == 0 ? 1 << 3 : 0);
}

static void test_sites(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[4096], path[4200];
    hs_test_make_dir(dir, sizeof dir, "test_results");

    /* without a block: refused, and results.h5 has no /sites */
    const int st0[NSITES] = {1, 2};
    const double dl0[NSITES] = {0.5, 0.5};
    hs_results *plain = make_store(3);
    fill(plain, 1);
    assert_int_equal(hs_results_site_count(plain), 0);
    assert_int_equal(hs_results_record_sites(plain, st0, dl0, NULL, NULL), HS_EINVAL);
    snprintf(path, sizeof path, "%s/plain.h5", dir);
    assert_int_equal(hs_results_write_hdf5(plain, NULL, path), 0);
    hs_results_destroy(&plain);
    hid_t file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(file >= 0);
    assert_true(H5Lexists(file, "sites", H5P_DEFAULT) == 0);
    H5Fclose(file);
    remove(path);

    const double slow_after[NSITES] = {0.72, NAN}, hold_after[NSITES] = {1.2, NAN};
    hs_results_layout layout = {.ndof = NDOF,
                                .capacity = NSTEPS + 1,
                                .units_force = "kip",
                                .units_length = "in",
                                .units_time = "s",
                                .nact = NACT,
                                .actuator_names = actuator_names,
                                .nsites = NSITES,
                                .site_names = site_names,
                                .site_slow_after = slow_after,
                                .site_hold_after = hold_after};
    hs_results *r = NULL;
    assert_int_equal(hs_results_create(ctx, &layout, &r), 0);
    assert_int_equal(hs_results_site_count(r), NSITES);
    assert_int_equal(hs_results_record_sites(r, st0, dl0, NULL, NULL), HS_EINVAL); /* no record */
    assert_non_null(strstr(hs_ctx_message(ctx), "before any record"));
    const int nrec = 43;
    const uint64_t before = hs_alloc_count();
    for (int k = 0; k < nrec; k++) {
        double t, d[NDOF], v[NDOF], a[NDOF];
        history(k, &t, d, v, a);
        assert_int_equal(hs_results_record(r, t, 0, d, v, a, NULL, NULL, NULL), 0);
        if (k == 0) { /* nothing happened yet */
            assert_int_equal(hs_results_record_sites(r, NULL, NULL, NULL, NULL), 0);
            continue;
        }
        int st[NSITES];
        double dl[NSITES], te[NACT], ti[NACT];
        for (int s = 0; s < NSITES; s++) {
            st[s] = site_states(k, s);
            dl[s] = (s + 1) * 0.01 * k;
        }
        for (int i = 0; i < NACT; i++) {
            te[i] = (i + 1) * 1e-3 * sin(t);
            ti[i] = (i + 1) * 1e-4 * t;
        }
        assert_int_equal(hs_results_record_sites(r, st, dl, te, ti), 0);
    }
    assert_true(hs_alloc_count() == before);
    snprintf(path, sizeof path, "%s/results.h5", dir);
    assert_int_equal(hs_results_write_hdf5(r, NULL, path), 0);
    hs_results_destroy(&r);

    file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    assert_true(file >= 0);
    const hsize_t n = (hsize_t)nrec;
    /* the states are integers in the file */
    hid_t set = H5Dopen2(file, "sites/states", H5P_DEFAULT);
    assert_true(set >= 0);
    hid_t type = H5Dget_type(set);
    assert_int_equal(H5Tget_class(type), H5T_INTEGER);
    H5Tclose(type);
    static const char *const bits[6] = {"extrapolate", "interpolate",    "slow",
                                        "hold",        "free_vibration", "done"};
    hs_h5_names(set, "bits", bits, 6);
    hs_h5_names(set, "names", site_names, NSITES);
    H5Dclose(set);
    double *states = hs_h5_read(file, "sites/states", n, NSITES, "1");
    double *delay = hs_h5_read(file, "sites/delay", n, NSITES, "s");
    double *te = hs_h5_read(file, "actuators/tracking_error", n, NACT, "in");
    double *ti = hs_h5_read(file, "actuators/tracking_indicator", n, NACT, "in^2");
    for (int k = 0; k < nrec; k++) {
        for (int s = 0; s < NSITES; s++) {
            if (k == 0) {
                assert_true(states[s] == 0 && isnan(delay[s]));
                continue;
            }
            assert_true(states[k * NSITES + s] == site_states(k, s));
            assert_true(delay[k * NSITES + s] == (s + 1) * 0.01 * k);
        }
        for (int i = 0; i < NACT; i++) {
            if (k == 0) {
                assert_true(isnan(te[i]) && isnan(ti[i]));
                continue;
            }
            assert_true(te[k * NACT + i] == (i + 1) * 1e-3 * sin(k * DT));
            assert_true(ti[k * NACT + i] == (i + 1) * 1e-4 * (k * DT));
        }
    }
    /* the group: names and TimeOut limits (NaN: unknown) */
    hid_t g = H5Gopen2(file, "sites", H5P_DEFAULT);
    assert_true(g >= 0);
    hs_h5_names(g, "names", site_names, NSITES);
    const char *lims[2] = {"slow_after_s", "hold_after_s"};
    for (int i = 0; i < 2; i++) {
        double got[NSITES] = {0, 0};
        hid_t attr = H5Aopen(g, lims[i], H5P_DEFAULT);
        assert_true(attr >= 0);
        assert_true(H5Aread(attr, H5T_NATIVE_DOUBLE, got) >= 0);
        H5Aclose(attr);
        assert_true(got[0] == (i ? 1.2 : 0.72));
        assert_true(isnan(got[1]));
    }
    H5Gclose(g);
    H5Fclose(file);
    free(states);
    free(delay);
    free(te);
    free(ti);

    /* `hysim plot` draws the site figures from it */
    const char *cli = getenv("HS_CLI");
    if (cli && cli[0] && system("command -v gnuplot >/dev/null 2>&1") == 0) {
        char args[4300];
        snprintf(args, sizeof args, "'%s'", dir);
        assert_int_equal(run_cli("", cli, args), 0);
        const char *pngs[] = {"sites_states.png", "sites_delay.png", "actuators_ti.png"};
        for (size_t i = 0; i < 3; i++) {
            assert_true(hs_test_is_png(dir, pngs[i]));
        }
    }
    hs_ctx_destroy(&ctx);
    hs_test_remove_dir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_and_accessors),
        cmocka_unit_test(test_writers),
        cmocka_unit_test(test_partial_run),
        cmocka_unit_test(test_plot),
        cmocka_unit_test(test_actuators),
        cmocka_unit_test(test_sites),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
