/* The report's "The test as run" section (docs/report.md) from summary.json's trace
 * (docs/outputs.md, "Trace"): the effective values of the test (after the --set overrides), the
 * overrides, the warnings of hysim check accepted for the run, when and where it ran and with
 * which program, and every input's size and SHA-256 (a key by its fingerprint); and the test
 * file loaded with the run's overrides, so that every section shows the values that ran. */
#include "report.h"
#include "report_html.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>

/* The trace's overrides as an array of strings (lent from the summary's tree; at most max). */
static size_t overrides(const hs_report *r, const char **out, size_t max)
{
    const hs_ynode *t = hs_ynode_get(r->root, "trace"),
                   *o = t ? hs_ynode_get(t, "overrides") : NULL;
    size_t n = 0;
    for (size_t i = 0; o && o->kind == HS_YNODE_SEQUENCE && i < o->nitems && n < max; i++)
        if (o->items[i]->kind == HS_YNODE_SCALAR) out[n++] = o->items[i]->text;
    return n;
}

int hs_report_load_test(hs_report *r, hs_ctx *ctx)
{
    const char *sets[64];
    const size_t n = overrides(r, sets, sizeof sets / sizeof sets[0]);
    return hs_testfile_load_set(ctx, r->test_path, sets, n, &r->def);
}

const char *hs_report_trace_str(const hs_report *r, const char *key)
{
    return hs_report_str(hs_ynode_get(r->root, "trace"), key);
}

/* One row whose value is a list of scalars, one per line ("none" when empty). */
static void row_list(FILE *f, const char *label, const hs_ynode *list)
{
    fputs("<tr><th>", f);
    hs_html_text(f, label);
    fputs("</th><td>", f);
    size_t shown = 0;
    for (size_t i = 0; list && list->kind == HS_YNODE_SEQUENCE && i < list->nitems; i++)
        if (list->items[i]->kind == HS_YNODE_SCALAR) {
            fputs(shown++ ? "<br>" : "", f);
            hs_html_text(f, list->items[i]->text);
        }
    fputs(shown ? "</td></tr>\n" : "none</td></tr>\n", f);
}

/* The effective values a reader looks for first (the test file as loaded with the overrides). */
static void effective_rows(FILE *f, const hs_test_def *def)
{
    char v[320];
    hs_html_row_text(f, "integrator", def->integrator);
    hs_html_row_num(f, "time step dt", def->dt, def->units_time);
    hs_html_row_num(f, "steps", (double)def->steps, "");
    snprintf(v, sizeof v, "%g (wall seconds per test second)", def->time_scale);
    hs_html_row_text(f, "time scale", v);
    hs_html_row_text(f, "clock", def->clock);
    hs_html_row_text(f, "damping", def->damping_kind);
    for (int s = 0; s < def->nsites; s++) {
        char label[96];
        snprintf(label, sizeof label, "site %s", def->sites[s].name);
        if (strcmp(def->sites[s].kind, "remote") == 0)
            snprintf(v, sizeof v, "remote, %s", def->sites[s].url);
        else
            snprintf(v, sizeof v, "%s, controller at %g Hz", def->sites[s].kind,
                     def->sites[s].rate);
        hs_html_row_text(f, label, v);
    }
}

/* A warning when the test file now differs from the one the run read (its trace's hash). */
static void check_test_file(hs_report *r, const hs_ynode *inputs)
{
    if (!r->test_text || !inputs || inputs->kind != HS_YNODE_SEQUENCE || inputs->nitems == 0)
        return;
    const char *want = hs_report_str(inputs->items[0], "sha256");
    if (strcmp(hs_report_str(inputs->items[0], "role"), "test file") != 0 || !want[0]) return;
    unsigned char h[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(h, (const unsigned char *)r->test_text, strlen(r->test_text));
    char got[2 * sizeof h + 1];
    sodium_bin2hex(got, sizeof got, h, sizeof h);
    if (strcmp(got, want) != 0)
        hs_report_warn(r,
                       "the test file changed since the run (SHA-256 %.16s..., the run read "
                       "%.16s...): the values shown are the file's as it is now; the text the "
                       "run read is in results.h5 (/trace/texts)",
                       got, want);
}

void hs_report_trace(FILE *f, hs_report *r)
{
    const hs_ynode *t = hs_ynode_get(r->root, "trace");
    fputs("<h2>The test as run</h2>\n", f);
    if (!t) {
        fputs("<p class=\"none\">summary.json carries no trace (a run of an earlier hysim): the "
              "values below are the test file's as it is now</p>\n",
              f);
        hs_report_warn(r, "the run's inputs are not traced (summary.json has no trace)");
    }
    fputs("<table>\n", f);
    if (r->def) effective_rows(f, r->def);
    if (t) {
        row_list(f, "overrides (--set)", hs_ynode_get(t, "overrides"));
        row_list(f, "check's warnings accepted (--accept-warnings)",
                 hs_ynode_get(t, "accepted_warnings"));
        hs_html_row_text(f, "run started", hs_report_str(t, "start"));
        hs_html_row_text(f, "run ended", hs_report_str(t, "end"));
        const char *resumed = hs_report_str(t, "resumed_from");
        if (resumed[0]) hs_html_row_text(f, "resumed from", resumed);
        hs_html_row_text(f, "computer", hs_report_str(t, "host"));
        char prog[512];
        snprintf(prog, sizeof prog, "hysim %s (%s)", hs_report_str(t, "version"),
                 hs_report_str(t, "build"));
        hs_html_row_text(f, "program", prog);
    }
    fputs("</table>\n", f);
    const hs_ynode *inputs = t ? hs_ynode_get(t, "inputs") : NULL;
    check_test_file(r, inputs);
    const hs_ynode *o = t ? hs_ynode_get(t, "overrides") : NULL;
    if (o && o->kind == HS_YNODE_SEQUENCE && o->nitems > 0) {
        fputs("<h3>The test definition after the overrides</h3>\n<pre>", f);
        hs_html_text(f, hs_report_str(t, "effective"));
        fputs("</pre>\n", f);
    }
    if (!inputs || inputs->kind != HS_YNODE_SEQUENCE) return;
    fputs("<h3>Inputs</h3>\n<table>\n<tr><th>role</th><th>file</th><th>bytes</th><th>SHA-256 "
          "(a key: its fingerprint)</th></tr>\n",
          f);
    for (size_t i = 0; i < inputs->nitems; i++) {
        const hs_ynode *in = inputs->items[i];
        const char *cells[4] = {hs_report_str(in, "role"), hs_report_str(in, "path"),
                                hs_report_str(in, "size"), hs_report_str(in, "sha256")};
        fputs("<tr>", f);
        for (int c = 0; c < 4; c++) {
            fputs(c == 2 ? "<td class=\"n\">" : "<td>", f);
            hs_html_text(f, c == 2 && strcmp(cells[2], "-1") == 0 ? "unreadable" : cells[c]);
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}
