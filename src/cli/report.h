/* `hysim report DIR` (docs/report.md): what the report is made from, and its sections
 * (report_sections.c, report_limits.c). */
#ifndef HS_REPORT_H
#define HS_REPORT_H

#include "hysim/testfile.h"
#include "io/yaml_tree.h"
#include "plot_data.h"

#include <stdio.h>

#define HS_REPORT_MAX_WARN 64

typedef struct hs_report {
    const char *dir;
    char dir_abs[4096];
    char test_path[4096]; /* "" when unknown */
    char *test_text;      /* the test file's bytes (NUL-ended), NULL when unknown */
    char test_note[1024]; /* why the test file is missing or did not load */
    hs_test_def *def;     /* the loaded test file, NULL when unknown */
    hs_ytree *summary;    /* summary.json */
    const hs_ynode *root;
    hs_plot_data data; /* results.h5 */
    int has_data;
    char data_note[512];
    char finished[64]; /* when summary.json was written (UTC) */
    char warn[HS_REPORT_MAX_WARN][512];
    int nwarn;
} hs_report;

/* summary.json access: a number (NaN when absent or null), a string ("" when absent). */
double hs_report_num(const hs_ynode *map, const char *key);
const char *hs_report_str(const hs_ynode *map, const char *key);
void hs_report_warn(hs_report *r, const char *fmt, ...) HS_PRINTF(2, 3);

/* The sections, in the report's order. Each may add warnings (written last). */
void hs_report_tested(FILE *f, hs_report *r);
void hs_report_summary(FILE *f, hs_report *r);
void hs_report_energy(FILE *f, hs_report *r);
void hs_report_integrator(FILE *f, hs_report *r);
void hs_report_sites(FILE *f, hs_report *r);
void hs_report_limits(FILE *f, hs_report *r); /* report_limits.c */
void hs_report_trace(FILE *f, hs_report *r);  /* report_trace.c: the test as run */
/* Loads r->test_path into r->def with the --set overrides of the run's trace (report_trace.c). */
int hs_report_load_test(hs_report *r, hs_ctx *ctx);
/* A string member of summary.json's trace ("" when absent). */
const char *hs_report_trace_str(const hs_report *r, const char *key);
void hs_report_warnings(FILE *f, const hs_report *r);
void hs_report_plots(FILE *f, hs_report *r);
void hs_report_test_file(FILE *f, const hs_report *r);

#endif
