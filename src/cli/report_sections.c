/* The sections of `hysim report` (report.h), from summary.json (docs/outputs.md) and the test
 * file. Warnings are the numbers a reviewer should look at twice: an early stop, an energy
 * balance error above 5 %, a site that held or ended the test, a tripped limit, Newton steps
 * that fell back. */
#include "report.h"
#include "report_html.h"

#include "hysim/hysim.h"
#include "hysim/lab.h"
#include "hysim/site_controller.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define HS_REPORT_ENERGY_WARN 0.05 /* relative energy balance error worth a warning */

/* "stroke, velocity" ... of HS_ACT_LIMIT_* and HS_SITE_LIMIT_* flags, into buf. */
static const char *hs_report_flags(int flags, char *buf, size_t size)
{
    static const struct {
        int bit;
        const char *name;
    } names[] = {{HS_ACT_LIMIT_STROKE, "actuator stroke"},
                 {HS_ACT_LIMIT_VELOCITY, "actuator velocity"},
                 {HS_ACT_LIMIT_FORCE, "actuator force"},
                 {HS_SITE_LIMIT_DISPLACEMENT, "site displacement limit"},
                 {HS_SITE_LIMIT_VELOCITY, "site velocity limit"},
                 {HS_SITE_LIMIT_FORCE, "site force limit"},
                 {HS_SITE_LIMIT_ACCELERATION, "site acceleration limit"},
                 {HS_SITE_LIMIT_STEP, "site step limit"},
                 {HS_SITE_LIMIT_MEASURED_DISP, "site stroke limit (measured)"},
                 {HS_SITE_LIMIT_MEASURED_FORCE, "site force limit (measured)"},
                 {HS_SITE_LIMIT_LAB, "laboratory alarm (interlock, fault or watchdog)"},
                 {HS_SITE_LIMIT_ABORT, "operator abort at the site"}};
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (flags & names[i].bit)
            snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", buf[0] ? ", " : "",
                     names[i].name);
    if (!buf[0]) snprintf(buf, size, "none");
    return buf;
}

void hs_report_tested(FILE *f, hs_report *r)
{
    const char *status = hs_report_str(r->root, "status");
    fputs("<h1>", f);
    hs_html_text(f, hs_report_str(r->root, "name"));
    fprintf(f, " <span class=\"status %s\">",
            strcmp(status, "completed") == 0  ? "completed"
            : strcmp(status, "unstable") == 0 ? "unstable"
                                              : "aborted");
    hs_html_text(f, status);
    fputs("</span></h1>\n<h2>What, where and when</h2>\n<table>\n", f);
    hs_html_row_text(f, "test file", r->test_path[0] ? r->test_path : r->test_note);
    if (r->test_path[0] && r->test_note[0]) hs_html_row_text(f, "note", r->test_note);
    char host[256] = "unknown"; /* the run's computer (its trace), else the report's */
    if (hs_report_trace_str(r, "host")[0])
        snprintf(host, sizeof host, "%s", hs_report_trace_str(r, "host"));
    else
        gethostname(host, sizeof host - 1);
    hs_html_row_text(f, "machine", host);
    hs_html_row_text(f, "run folder", r->dir_abs);
    hs_html_row_text(f, "run finished", r->finished[0] ? r->finished : "unknown");
    char now[64];
    const time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(now, sizeof now, "%Y-%m-%d %H:%M:%S UTC", &tm);
    hs_html_row_text(f, "report written", now);
    hs_html_row_text(f, "software",
                     "hysim " HS_VERSION_STRING " (the program that wrote this "
                     "report)");
    fputs("</table>\n", f);
}

void hs_report_summary(FILE *f, hs_report *r)
{
    const hs_ynode *root = r->root, *units = hs_ynode_get(root, "units");
    const char *tu = hs_report_str(units, "time"), *lu = hs_report_str(units, "length");
    const char *status = hs_report_str(root, "status"), *reason = hs_report_str(root, "reason");
    fputs("<h2>Summary</h2>\n<table>\n", f);
    hs_html_row_text(f, "status", status);
    if (reason[0]) hs_html_row_text(f, "reason", reason);
    if (strcmp(status, "completed") != 0)
        hs_report_warn(r,
                       "the test stopped early (%s): %s; every step recorded until then is "
                       "kept",
                       status, reason);
    hs_html_row_text(f, "integrator", hs_report_str(root, "integrator"));
    hs_html_row_num(f, "steps completed", hs_report_num(root, "steps"), "");
    if (r->def) hs_html_row_num(f, "steps of the test", (double)r->def->steps, "");
    hs_html_row_num(f, "time step dt", hs_report_num(root, "dt"), tu);
    hs_html_row_num(f, "degrees of freedom", hs_report_num(root, "ndof"), "");
    char u[128];
    snprintf(u, sizeof u, "force %s, length %s, time %s", hs_report_str(units, "force"), lu, tu);
    hs_html_row_text(f, "units", u);
    const hs_ynode *periods = hs_ynode_get(root, "periods"),
                   *peak = hs_ynode_get(root, "peak_abs_disp");
    for (size_t i = 0;
         periods && periods->kind == HS_YNODE_SEQUENCE && i < periods->nitems && i < 6; i++) {
        char label[64];
        snprintf(label, sizeof label, "period of mode %zu", i + 1);
        hs_html_row_num(f, label, atof(periods->items[i]->text), tu);
    }
    for (size_t i = 0; peak && peak->kind == HS_YNODE_SEQUENCE && i < peak->nitems; i++) {
        char label[HS_PLOT_TEXT + 64]; /* the DOF's name from results.h5 (floor1, n3_ux) */
        if (r->has_data && i < (size_t)r->data.ndof)
            snprintf(label, sizeof label, "peak |d| of %s (DOF %zu)", r->data.dof_names[i], i + 1);
        else
            snprintf(label, sizeof label, "peak |d| of DOF %zu", i + 1);
        hs_html_row_num(
            f, label, strcmp(peak->items[i]->text, "null") ? atof(peak->items[i]->text) : NAN, lu);
    }
    hs_html_row_num(f, "wall-clock time of the run", hs_report_num(root, "wall_time_s"), "s");
    fputs("</table>\n", f);
}

void hs_report_energy(FILE *f, hs_report *r)
{
    const hs_ynode *e = hs_ynode_get(r->root, "energy"), *units = hs_ynode_get(r->root, "units");
    char eu[64];
    snprintf(eu, sizeof eu, "%s*%s", hs_report_str(units, "force"), hs_report_str(units, "length"));
    fputs("<h2>Energy balance</h2>\n<p>At the last record: input = kinetic + damping + strain "
          "(the strain energy includes the experimental part, from measured forces).</p>\n"
          "<table>\n",
          f);
    static const char *const keys[] = {"input", "kinetic", "damping", "strain", "experimental"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        hs_html_row_num(f, keys[i], hs_report_num(e, keys[i]), eu);
    const double err = hs_report_num(e, "error_rel");
    hs_html_row_num(f, "balance error", 100.0 * err, "%");
    fputs("</table>\n", f);
    if (err > HS_REPORT_ENERGY_WARN)
        hs_report_warn(r,
                       "the energy balance error is %.3g %% (above %.0f %%): check dt, the "
                       "integrator and the measured forces",
                       100.0 * err, 100.0 * HS_REPORT_ENERGY_WARN);
}

void hs_report_integrator(FILE *f, hs_report *r)
{
    const hs_ynode *h = hs_ynode_get(r->root, "hybrid");
    const double steps = hs_report_num(r->root, "steps"),
                 wall = hs_report_num(r->root, "wall_time_s");
    fputs("<h2>Integrator</h2>\n<table>\n", f);
    hs_html_row_text(f, "integrator", hs_report_str(r->root, "integrator"));
    hs_html_row_num(f, "steps per wall-clock second", wall > 0 ? steps / wall : NAN, "");
    if (h) {
        const hs_ynode *it = hs_ynode_get(h, "iterations");
        hs_html_row_num(f, "actuators", hs_report_num(h, "actuators"), "");
        hs_html_row_num(f, "implicit steps", hs_report_num(h, "implicit_percent"), "%");
        hs_html_row_num(f, "fallback steps", hs_report_num(h, "fallback_steps"), "");
        hs_html_row_num(f, "steps with a tangent update",
                        hs_report_num(h, "stiffness_update_percent"), "%");
        hs_html_row_num(f, "iterations per step, mean", hs_report_num(it, "mean"), "");
        hs_html_row_num(f, "iterations per step, max", hs_report_num(it, "max"), "");
        const hs_ynode *units = hs_ynode_get(r->root, "units");
        char work_unit[64];
        snprintf(work_unit, sizeof work_unit, "%s*%s", hs_report_str(units, "force"),
                 hs_report_str(units, "length"));
        hs_html_row_num(f, "experimental work", hs_report_num(h, "experimental_work"), work_unit);
        hs_html_row_num(f, "test time on the test's clock", hs_report_num(h, "test_time_s"), "s");
        hs_html_row_num(f, "longest wait for a measurement", hs_report_num(h, "max_wait_s"), "s");
        char flags[256];
        const double lf = hs_report_num(h, "limit_flags");
        hs_html_row_text(f, "limit flags seen",
                         hs_report_flags(isfinite(lf) ? (int)lf : 0, flags, sizeof flags));
        if (hs_report_num(h, "fallback_steps") > 0)
            hs_report_warn(r, "%.0f steps fell back from the implicit iteration",
                           hs_report_num(h, "fallback_steps"));
    } else {
        fputs("<tr><td colspan=\"2\" class=\"none\">no experimental substructure</td></tr>\n", f);
    }
    fputs("</table>\n", f);
}

void hs_report_sites(FILE *f, hs_report *r)
{
    const hs_ynode *sites = hs_ynode_get(r->root, "sites");
    if (!sites || sites->kind != HS_YNODE_SEQUENCE || sites->nitems == 0) return;
    fputs("<h2>Timing per site</h2>\n<p>As in Table 1 of Mosqueda, Stojadinovic &amp; Mahin "
          "(2004): steps, the longest delay from a target's arrival (D<sub>target</sub>) to the "
          "next (D<sub>update</sub>), the site's run time, and the share of steps in which the "
          "command generator slowed down and in which it held.</p>\n<table>\n<thead><tr><th>site"
          "</th><th>steps</th><th>max delay (s)</th><th>run time (s)</th><th>% of steps slow"
          "</th><th>% of steps held</th><th>ended on the site</th><th>limits tripped</th></tr>"
          "</thead>\n",
          f);
    for (size_t s = 0; s < sites->nitems; s++) {
        const hs_ynode *site = sites->items[s];
        const char *name = hs_report_str(site, "name");
        const int ended = strcmp(hs_report_str(site, "ended_on_site"), "true") == 0;
        const double lf = hs_report_num(site, "limit_flags"),
                     hold = hs_report_num(site, "hold_percent");
        char flags[256];
        hs_report_flags(isfinite(lf) ? (int)lf : 0, flags, sizeof flags);
        fputs("<tr><td>", f);
        hs_html_text(f, name);
        static const char *const cols[] = {"steps", "max_delay_s", "total_time_s", "slow_percent",
                                           "hold_percent"};
        for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++) {
            fputs("</td><td class=\"n\">", f);
            hs_html_num(f, hs_report_num(site, cols[c]), 4);
        }
        fprintf(f, "</td><td>%s</td><td>", ended ? "yes" : "no");
        hs_html_text(f, flags);
        fputs("</td></tr>\n", f);
        if (hold > 0)
            hs_report_warn(r, "site %s held in %.3g %% of its steps (targets came late)", name,
                           hold);
        if (ended) hs_report_warn(r, "site %s ended the test on its side (hold timeout)", name);
        if (isfinite(lf) && (int)lf) hs_report_warn(r, "site %s: limit tripped: %s", name, flags);
    }
    const char *lu = hs_report_str(hs_ynode_get(r->root, "units"), "length");
    fputs("</table>\n<h2>Tracking per actuator</h2>\n<p>Maximum tracking error (MTE, the largest "
          "|command &minus; measured|), RMS error in % of the RMS command and the tracking "
          "indicator of largest magnitude (TI, the area of the synchronized subspace plot: "
          "length<sup>2</sup>), after Chen &amp; Ricles (2010); a<sub>es</sub> is the adaptive "
          "compensator's final estimate (1 without one).</p>\n<table>\n<thead><tr><th>actuator"
          "</th><th>MTE (",
          f);
    hs_html_text(f, lu);
    fputs(")</th><th>RMS %</th><th>max TI (", f);
    hs_html_text(f, lu);
    fputs("<sup>2</sup>)</th><th>a<sub>es</sub></th></tr></thead>\n", f);
    for (size_t s = 0; s < sites->nitems; s++) {
        const hs_ynode *site = sites->items[s], *acts = hs_ynode_get(site, "actuators");
        for (size_t j = 0; acts && acts->kind == HS_YNODE_SEQUENCE && j < acts->nitems; j++) {
            const hs_ynode *a = acts->items[j];
            fputs("<tr><td>", f);
            hs_html_text(f, hs_report_str(site, "name"));
            const char *name = hs_report_str(a, "name");
            if (name[0]) {
                fputc('.', f);
                hs_html_text(f, name);
            } else if (r->def && s < (size_t)r->def->nsites && j < (size_t)r->def->sites[s].nact) {
                fputc('.', f);
                hs_html_text(f, r->def->sites[s].actuator_names[j]);
            } else {
                fprintf(f, " #%zu", j + 1);
            }
            static const char *const cols[] = {"mte", "rms_percent", "max_ti", "a_es"};
            for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++) {
                fputs("</td><td class=\"n\">", f);
                hs_html_num(f, hs_report_num(a, cols[c]), 4);
            }
            fputs("</td></tr>\n", f);
        }
    }
    fputs("</table>\n", f);
}

void hs_report_warnings(FILE *f, const hs_report *r)
{
    fputs("<h2>Warnings</h2>\n", f);
    if (r->nwarn == 0) {
        fputs("<p class=\"none\">none</p>\n", f);
        return;
    }
    fputs("<ul class=\"warn\">\n", f);
    for (int i = 0; i < r->nwarn; i++) {
        fputs("<li>", f);
        hs_html_text(f, r->warn[i]);
        fputs("</li>\n", f);
    }
    fputs("</ul>\n", f);
}

static const struct {
    const char *file, *caption;
} hs_report_figures[] = {
    {"displacement.png", "Displacement of each degree of freedom"},
    {"hysteresis.png", "Hysteresis: force against deformation"},
    {"energy.png", "Energy balance over the test"},
    {"actuators_hysteresis.png", "Actuators: measured force against measured displacement"},
    {"actuators_tracking.png", "Actuators: command, measurement and tracking error"},
    {"actuators_ti.png", "Actuators: tracking indicator"},
    {"tangent.png", "The integrator's estimate of the experimental tangent"},
    {"sites_states.png", "Site controllers: states of the command generator"},
    {"sites_delay.png", "Site controllers: delay from target to update"},
};

static int hs_report_known_figure(const char *name)
{
    for (size_t i = 0; i < sizeof hs_report_figures / sizeof hs_report_figures[0]; i++)
        if (strcmp(name, hs_report_figures[i].file) == 0) return 1;
    return 0;
}

static int hs_report_cmp(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int hs_report_png_other(const struct dirent *e)
{
    const size_t n = strlen(e->d_name);
    return n > 4 && strcmp(e->d_name + n - 4, ".png") == 0 && e->d_name[0] != '.' &&
           !hs_report_known_figure(e->d_name);
}

void hs_report_plots(FILE *f, hs_report *r)
{
    char path[PATH_MAX + 300];
    int drawn = 0;
    fputs("<h2>Plots</h2>\n", f);
    for (size_t i = 0; i < sizeof hs_report_figures / sizeof hs_report_figures[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", r->dir, hs_report_figures[i].file);
        drawn += hs_html_png(f, path, hs_report_figures[i].caption) == 0;
    }
    struct dirent **list = NULL;
    const int n = scandir(r->dir, &list, hs_report_png_other, hs_report_cmp);
    for (int i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", r->dir, list[i]->d_name);
        drawn += hs_html_png(f, path, list[i]->d_name) == 0;
        free(list[i]);
    }
    free(list);
    if (!drawn)
        fputs("<p class=\"none\">no plots in the run folder (draw them with <code>hysim plot "
              "DIR</code>, which needs gnuplot)</p>\n",
              f);
}

void hs_report_test_file(FILE *f, const hs_report *r)
{
    fputs("<h2>The test file</h2>\n", f);
    if (!r->test_text) {
        fputs("<p class=\"none\">", f);
        hs_html_text(f, r->test_note);
        fputs("</p>\n", f);
        return;
    }
    fputs("<p>", f);
    hs_html_text(f, r->test_path);
    fputs(":</p>\n<pre>", f);
    hs_html_text(f, r->test_text);
    fputs("</pre>\n", f);
}
