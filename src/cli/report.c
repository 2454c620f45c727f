/* hysim report DIR [-o FILE] [--test FILE] [--no-plots] (docs/report.md): one self-contained
 * HTML file about a finished (or stopped) run: figures inline as base64 PNG, no external link,
 * print rules for PDF. Made from DIR/summary.json, DIR/results.h5, the PNGs of `hysim plot`
 * (drawn first when missing and gnuplot is there) and the test file: --test, else the one named
 * in DIR/checkpoint.bin, else the only *.yaml in DIR. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "cli.h"
#include "report.h"
#include "report_html.h"

#include "hysim/checkpoint.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

double hs_report_num(const hs_ynode *map, const char *key)
{
    const hs_ynode *v = map ? hs_ynode_get(map, key) : NULL;
    if (!v || v->kind != HS_YNODE_SCALAR || strcmp(v->text, "null") == 0) return NAN;
    char *end = NULL;
    const double x = strtod(v->text, &end);
    return end && *end == '\0' ? x : NAN;
}

const char *hs_report_str(const hs_ynode *map, const char *key)
{
    const hs_ynode *v = map ? hs_ynode_get(map, key) : NULL;
    return v && v->kind == HS_YNODE_SCALAR ? v->text : "";
}

void hs_report_warn(hs_report *r, const char *fmt, ...)
{
    if (r->nwarn >= HS_REPORT_MAX_WARN) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->warn[r->nwarn++], sizeof r->warn[0], fmt, ap);
    va_end(ap);
}

static char *hs_report_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *p = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0) n = ftell(f);
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (p = hs_malloc((size_t)n + 1))) {
        if (fread(p, 1, (size_t)n, f) != (size_t)n) {
            hs_free(p);
            p = NULL;
        } else {
            p[n] = '\0';
            *len = (size_t)n;
        }
    }
    fclose(f);
    return p;
}

/* The test file: given, named by the checkpoint, or the only *.yaml in the folder. */
static void hs_report_find_test(hs_report *r, hs_ctx *ctx, const char *given)
{
    hs_checkpoint_info info;
    if (given)
        snprintf(r->test_path, sizeof r->test_path, "%s", given);
    else if (hs_checkpoint_read_info(ctx, r->dir, &info) == 0 && info.test_path[0])
        snprintf(r->test_path, sizeof r->test_path, "%s", info.test_path);
    else {
        DIR *d = opendir(r->dir);
        int found = 0;
        for (struct dirent *e; d && (e = readdir(d));) {
            const size_t n = strlen(e->d_name);
            if (n > 5 && strcmp(e->d_name + n - 5, ".yaml") == 0 && found++ == 0)
                snprintf(r->test_path, sizeof r->test_path, "%s/%s", r->dir, e->d_name);
        }
        if (d) closedir(d);
        if (found != 1) r->test_path[0] = '\0';
    }
    if (!r->test_path[0]) {
        snprintf(r->test_note, sizeof r->test_note,
                 "the test file is not known (no checkpoint names it): give it with --test FILE");
        return;
    }
    char abs_path[PATH_MAX];
    if (realpath(r->test_path, abs_path))
        snprintf(r->test_path, sizeof r->test_path, "%s", abs_path);
    size_t len = 0;
    if (!(r->test_text = hs_report_slurp(r->test_path, &len))) {
        snprintf(r->test_note, sizeof r->test_note, "%.900s cannot be read", r->test_path);
        return;
    }
    if (hs_report_load_test(r, ctx)) /* with the run's --set overrides */
        snprintf(r->test_note, sizeof r->test_note, "the test file does not load now: %s",
                 hs_ctx_message(ctx));
}

static int hs_report_gather(hs_report *r, hs_ctx *ctx, const char *test, int plots)
{
    char path[PATH_MAX + 64];
    if (!realpath(r->dir, r->dir_abs)) snprintf(r->dir_abs, sizeof r->dir_abs, "%s", r->dir);
    snprintf(path, sizeof path, "%s/summary.json", r->dir);
    size_t len = 0;
    char *text = hs_report_slurp(path, &len);
    if (!text) {
        fprintf(stderr,
                "hysim report: %s cannot be read: is %s a run's folder (hysim run FILE -o "
                "DIR)?\n",
                path, r->dir);
        return HS_EXIT_INPUT;
    }
    const int rc = hs_ytree_parse(ctx, text, len, path, "summary file", &r->summary);
    hs_free(text);
    if (rc || !r->summary->root || r->summary->root->kind != HS_YNODE_MAPPING) {
        fprintf(stderr, "hysim report: %s\n", rc ? hs_ctx_message(ctx) : "summary.json is empty");
        return HS_EXIT_INPUT;
    }
    r->root = r->summary->root;
    struct stat st;
    if (stat(path, &st) == 0) {
        struct tm tm;
        gmtime_r(&st.st_mtime, &tm);
        strftime(r->finished, sizeof r->finished, "%Y-%m-%d %H:%M:%S UTC", &tm);
    }
    snprintf(path, sizeof path, "%s/results.h5", r->dir);
    char err[256];
    r->has_data = hs_plot_data_read(path, &r->data, err, sizeof err) == 0;
    if (!r->has_data) snprintf(r->data_note, sizeof r->data_note, "%.300s: %.200s", path, err);
    hs_report_find_test(r, ctx, test);
    snprintf(path, sizeof path, "%s/displacement.png", r->dir);
    if (plots && r->has_data && access(path, R_OK) != 0) {
        char *pargv[] = {"plot", (char *)r->dir, NULL};
        if (hs_cli_plot(2, pargv) != HS_EXIT_OK)
            hs_report_warn(r, "hysim plot could not draw the figures (is gnuplot installed?)");
    }
    return HS_EXIT_OK;
}

static void hs_report_free(hs_report *r)
{
    hs_ytree_destroy(&r->summary);
    if (r->has_data) hs_plot_data_free(&r->data);
    hs_test_def_destroy(&r->def);
    hs_free(r->test_text);
}

static int hs_report_write(hs_report *r, const char *out)
{
    char tmp[PATH_MAX + 16];
    snprintf(tmp, sizeof tmp, "%s.part", out);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "hysim report: cannot write %s\n", tmp);
        return HS_EXIT_FAILED;
    }
    char title[256];
    snprintf(title, sizeof title, "hysim report: %s", hs_report_str(r->root, "name"));
    hs_html_begin(f, title);
    hs_report_tested(f, r);
    hs_report_trace(f, r);
    hs_report_summary(f, r);
    hs_report_energy(f, r);
    hs_report_integrator(f, r);
    hs_report_sites(f, r);
    hs_report_limits(f, r);
    hs_report_warnings(f, r);
    hs_report_plots(f, r);
    hs_report_test_file(f, r);
    hs_html_end(f);
    const int bad = ferror(f) | fclose(f);
    if (bad || rename(tmp, out) != 0) {
        remove(tmp);
        fprintf(stderr, "hysim report: cannot write %s\n", out);
        return HS_EXIT_FAILED;
    }
    return HS_EXIT_OK;
}

static int hs_report_usage(FILE *f, int code)
{
    fprintf(f, "usage: hysim report DIR [-o FILE] [--test FILE] [--no-plots]\n"
               "  writes DIR/report.html (or FILE): one self-contained page about the run in DIR\n"
               "  (test file, where and when, version, summary, energy, integrator, timing per\n"
               "  site, tracking per actuator, limits, warnings, every plot); draws the plots\n"
               "  with `hysim plot` first when they are missing (--no-plots: do not)\n");
    return code;
}

int hs_cli_report(int argc, char **argv)
{
    const char *dir = NULL, *out = NULL, *test = NULL;
    int plots = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            return hs_report_usage(stdout, HS_EXIT_OK);
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            out = argv[++i];
        else if (strcmp(argv[i], "--test") == 0 && i + 1 < argc)
            test = argv[++i];
        else if (strcmp(argv[i], "--no-plots") == 0)
            plots = 0;
        else if (argv[i][0] != '-' && !dir)
            dir = argv[i];
        else {
            fprintf(stderr, "hysim report: unexpected argument '%s'\n", argv[i]);
            return hs_report_usage(stderr, HS_EXIT_INPUT);
        }
    }
    if (!dir) return hs_report_usage(stderr, HS_EXIT_INPUT);
    char out_default[PATH_MAX];
    if (!out) {
        snprintf(out_default, sizeof out_default, "%s/report.html", dir);
        out = out_default;
    }
    hs_ctx *ctx = NULL;
    if (hs_ctx_create(&ctx)) return HS_EXIT_FAILED;
    hs_report *r = hs_calloc(1, sizeof *r);
    int code = r ? HS_EXIT_OK : HS_EXIT_FAILED;
    if (r) {
        r->dir = dir;
        code = hs_report_gather(r, ctx, test, plots);
        if (code == HS_EXIT_OK) code = hs_report_write(r, out);
        if (code == HS_EXIT_OK)
            printf("report: %s (%d warning%s)\n", out, r->nwarn, r->nwarn == 1 ? "" : "s");
        hs_report_free(r);
        hs_free(r);
    }
    hs_ctx_destroy(&ctx);
    return code;
}
