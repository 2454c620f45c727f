/* What the tests read back from a run's folder. */
#include "hs_test.h"

#include "hs_output.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void hs_test_make_dir(char *dir, size_t len, const char *prefix)
{
    const char *base = getenv("HS_BINARY_DIR");
    snprintf(dir, len, "%s/%s_XXXXXX", base && base[0] ? base : "/tmp", prefix);
    assert_non_null(mkdtemp(dir));
}

void hs_test_remove_dir(const char *dir)
{
    if (getenv("HS_KEEP_OUTPUT")) {
        printf("kept %s\n", dir);
        return;
    }
    DIR *dp = opendir(dir);
    if (!dp) return;
    struct dirent *e;
    char path[4400];
    while ((e = readdir(dp)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        remove(path);
    }
    closedir(dp);
    rmdir(dir);
}

int hs_test_is_png(const char *dir, const char *name)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    char path[4400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    unsigned char buf[8];
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t got = fread(buf, 1, 8, f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fclose(f);
    return got == 8 && memcmp(buf, sig, 8) == 0 && size > 1000;
}

int hs_test_plot(const char *dir)
{
    const char *cli = getenv("HS_CLI");
    if (!cli || !cli[0] || system("command -v gnuplot >/dev/null 2>&1") != 0) {
        printf("HS_CLI or gnuplot absent: the figures are not drawn\n");
        return 0;
    }
    char cmd[9000];
    snprintf(cmd, sizeof cmd, "'%s' plot '%s' >/dev/null 2>&1", cli, dir);
    const int st = system(cmd);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    return 1;
}

/* A variable-length UTF-8 string type; H5Tclose it. */
static hid_t text_type(void)
{
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    H5Tset_cset(type, H5T_CSET_UTF8);
    return type;
}

void hs_h5_string(hid_t loc, const char *name, char *out, size_t len)
{
    hid_t attr = H5Aopen(loc, name, H5P_DEFAULT);
    assert_true(attr >= 0);
    hid_t type = text_type();
    char *s = NULL;
    assert_true(H5Aread(attr, type, &s) >= 0);
    snprintf(out, len, "%s", s);
    H5free_memory(s);
    H5Tclose(type);
    H5Aclose(attr);
}

void hs_h5_names(hid_t loc, const char *name, const char *const *want, int n)
{
    assert_true(n >= 0 && n <= 16);
    hid_t attr = H5Aopen(loc, name, H5P_DEFAULT);
    assert_true(attr >= 0);
    hid_t space = H5Aget_space(attr);
    assert_true(H5Sget_simple_extent_npoints(space) == n);
    hid_t type = text_type();
    char *got[16] = {0};
    assert_true(H5Aread(attr, type, got) >= 0);
    for (int i = 0; i < n; i++) {
        assert_string_equal(got[i], want[i]);
        H5free_memory(got[i]);
    }
    H5Tclose(type);
    H5Sclose(space);
    H5Aclose(attr);
}

double *hs_h5_read(hid_t file, const char *name, hsize_t rows, hsize_t cols, const char *units)
{
    hid_t set = H5Dopen2(file, name, H5P_DEFAULT);
    assert_true(set >= 0);
    hid_t space = H5Dget_space(set);
    hsize_t dims[2] = {0, 0};
    const int rank = H5Sget_simple_extent_dims(space, dims, NULL);
    assert_int_equal(rank, cols ? 2 : 1);
    assert_true(dims[0] == rows);
    if (cols) assert_true(dims[1] == cols);
    double *x = calloc(rows * (cols ? cols : 1) + 1, sizeof *x);
    assert_non_null(x);
    if (rows) assert_true(H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, x) >= 0);
    char u[64];
    hs_h5_string(set, "units", u, sizeof u);
    assert_string_equal(u, units);
    H5Sclose(space);
    H5Dclose(set);
    return x;
}
