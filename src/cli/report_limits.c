/* The limits section of `hysim report` (report.h): for each actuator of an in-process site, its
 * stroke, velocity and force limits from the test file (the site controller enforces the same
 * numbers, docs/site_controller.md) against the peaks recorded in results.h5: |measured
 * displacement|, |measured force|, and the step-average velocity |x(k) - x(k-1)| / (dt
 * time_scale) on the laboratory's clock, a lower bound of the peak tick velocity. A remote
 * site's limits live in its own site file and are not known here, unless the run was a rehearsal
 * (hysim run --rehearse): then summary.json holds its twin's limits and tick-level peaks. */
#include "report.h"
#include "report_html.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define HS_REPORT_LIMIT_WARN 0.8 /* share of a limit worth a warning */

typedef struct hs_report_peaks {
    double x, v, f;
} hs_report_peaks;

static hs_report_peaks hs_report_actuator_peaks(const hs_plot_data *p, int j, double dt_wall)
{
    hs_report_peaks k = {0.0, 0.0, 0.0};
    const int m = p->nact;
    for (int64_t i = 1; i < p->n; i++) { /* record 0: nothing commanded yet */
        const double x = p->act_meas[i * m + j], f = p->act_force[i * m + j];
        if (isfinite(x) && fabs(x) > k.x) k.x = fabs(x);
        if (isfinite(f) && fabs(f) > k.f) k.f = fabs(f);
        if (i >= 2 && dt_wall > 0.0) {
            const double v = fabs(x - p->act_meas[(i - 1) * m + j]) / dt_wall;
            if (isfinite(v) && v > k.v) k.v = v;
        }
    }
    return k;
}

/* The site configuration and channel of "site.actuator", or NULL. */
static const hs_site_config *hs_report_find_actuator(const hs_test_def *def, const char *name,
                                                     int *channel)
{
    for (int s = 0; def && s < def->nsites; s++) {
        const hs_site_config *c = &def->sites[s];
        const size_t n = strlen(c->name);
        if (strncmp(name, c->name, n) != 0 || name[n] != '.') continue;
        for (int j = 0; j < c->nact; j++)
            if (strcmp(name + n + 1, c->actuator_names[j]) == 0) {
                *channel = j;
                return c;
            }
    }
    return NULL;
}

static void hs_report_limit_row(FILE *f, hs_report *r, const char *act, const char *what,
                                double limit, double peak, const char *unit)
{
    fputs("<tr><td>", f);
    hs_html_text(f, act);
    fputs("</td><td>", f);
    hs_html_text(f, what);
    fputs("</td><td class=\"n\">", f);
    if (limit > 0.0)
        hs_html_num(f, limit, 4);
    else
        fputs("none", f);
    fputs("</td><td class=\"n\">", f);
    hs_html_num(f, peak, 4);
    fputs("</td><td>", f);
    hs_html_text(f, unit);
    fputs("</td><td class=\"n\">", f);
    if (limit > 0.0) {
        hs_html_num(f, 100.0 * peak / limit, 3);
        fputs(" %", f);
        if (peak >= HS_REPORT_LIMIT_WARN * limit)
            hs_report_warn(r, "actuator %s reached %.3g %% of its %s limit (%.4g of %.4g %s)", act,
                           100.0 * peak / limit, what, peak, limit, unit);
    } else {
        fputs("&mdash;", f);
    }
    fputs("</td></tr>\n", f);
}

/* A rehearsal's twin of a remote site (hysim run --rehearse, docs/pretest.md): the tick-level
 * peaks and limits of the site's actuator `ch` from summary.json (stroke, velocity, force; a null
 * limit as 0). 0 when the summary has none. */
static int hs_report_twin_limits(const hs_report *r, const char *site, int ch, double peak[3],
                                 double limit[3])
{
    const hs_ynode *sites = hs_ynode_get(r->root, "sites");
    for (size_t i = 0; sites && sites->kind == HS_YNODE_SEQUENCE && i < sites->n; i++) {
        const hs_ynode *s = sites->items[i], *acts = NULL, *lim = NULL;
        if (s->kind != HS_YNODE_MAPPING || strcmp(hs_report_str(s, "name"), site) != 0) continue;
        acts = hs_ynode_get(s, "actuators");
        if (!acts || acts->kind != HS_YNODE_SEQUENCE || (size_t)ch >= acts->n) return 0;
        if (acts->items[ch]->kind != HS_YNODE_MAPPING ||
            !(lim = hs_ynode_get(acts->items[ch], "limits")))
            return 0;
        static const char *const names[] = {"stroke", "velocity", "force"};
        for (int k = 0; k < 3; k++) {
            const hs_ynode *e = hs_ynode_get(lim, names[k]);
            if (!e || e->kind != HS_YNODE_MAPPING) return 0;
            peak[k] = hs_report_num(e, "peak");
            limit[k] = hs_report_num(e, "limit");
            if (!isfinite(limit[k])) limit[k] = 0.0;
        }
        return 1;
    }
    return 0;
}

void hs_report_limits(FILE *f, hs_report *r)
{
    if (!r->has_data || r->data.nact == 0) return;
    const hs_plot_data *p = &r->data;
    fputs("<h2>Limits and how close the test came</h2>\n", f);
    if (!r->def) {
        fputs("<p class=\"none\">The limits are in the test file, which is not known: ", f);
        hs_html_text(f, r->test_note);
        fputs("</p>\n", f);
        return;
    }
    const double dt_wall = r->def->dt * (r->def->time_scale > 0.0 ? r->def->time_scale : 1.0);
    char vu[HS_PLOT_TEXT + 8];
    snprintf(vu, sizeof vu, "%s/s", p->unit_length);
    fputs("<p>Peaks of the measured displacement and force over every recorded step; the "
          "velocity is the step average on the laboratory's clock (a lower bound of the peak "
          "between controller ticks). A remote site rehearsed on its virtual twin (hysim run "
          "--rehearse) shows the twin's limits and tick-level peaks from summary.json "
          "(\"(twin)\").</p>\n<table>\n<thead><tr><th>actuator</th><th>limit</th>"
          "<th>value</th><th>peak</th><th>unit</th><th>used</th></tr></thead>\n",
          f);
    for (int j = 0; j < p->nact; j++) {
        int ch = 0;
        const hs_site_config *c = hs_report_find_actuator(r->def, p->act_names[j], &ch);
        double tp[3], tl[3];
        if (c && strcmp(c->kind, "remote") == 0 && hs_report_twin_limits(r, c->name, ch, tp, tl)) {
            hs_report_limit_row(f, r, p->act_names[j], "stroke (twin)", tl[0], tp[0],
                                p->unit_length);
            hs_report_limit_row(f, r, p->act_names[j], "velocity (twin)", tl[1], tp[1], vu);
            hs_report_limit_row(f, r, p->act_names[j], "force (twin)", tl[2], tp[2], p->unit_force);
            continue;
        }
        if (!c || strcmp(c->kind, "remote") == 0) {
            fputs("<tr><td>", f);
            hs_html_text(f, p->act_names[j]);
            fputs("</td><td colspan=\"5\" class=\"none\">limits in the remote site's own file"
                  "</td></tr>\n",
                  f);
            continue;
        }
        const hs_report_peaks k = hs_report_actuator_peaks(p, j, dt_wall);
        hs_report_limit_row(f, r, p->act_names[j], "stroke", c->actuator[ch].stroke, k.x,
                            p->unit_length);
        hs_report_limit_row(f, r, p->act_names[j], "velocity", c->actuator[ch].velocity_max, k.v,
                            vu);
        hs_report_limit_row(f, r, p->act_names[j], "force", c->actuator[ch].force_max, k.f,
                            p->unit_force);
    }
    fputs("</table>\n", f);
}
