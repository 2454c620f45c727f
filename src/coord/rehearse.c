/* hysim run --rehearse (hysim/rehearse.h): every site becomes its virtual twin. A remote site
 * takes the laboratory of its `twin` site file (specimen, relaxation, actuators, sensors,
 * controller rate, command generator, compensation; the test keeps its link model), or of its own
 * entry when that describes a specimen; then `pretest` results update the actuators (a, transport
 * delay; the identified first-order model replaces a valve stage and a delay schedule), an inverse
 * compensator's a_es (the actuators' mean: one compensation setting per site) and a linear
 * specimen's K. */
#include "hysim/rehearse.h"

#include "hysim/pretest.h"
#include "hysim/site_server.h"

#include <stdio.h>
#include <string.h>

/* A copy of o (NULL for NULL); *out NULL on failure. */
static int clone(const hs_options *o, hs_options **out)
{
    *out = NULL;
    if (!o) return 0;
    hs_options *c = NULL;
    int rc = hs_options_create(&c);
    for (size_t i = 0; !rc && i < hs_options_count(o); i++) {
        const char *k = hs_options_key(o, i), *s = hs_options_str(o, k, NULL);
        const double *v = NULL;
        const size_t n = hs_options_list(o, k, &v);
        rc = s   ? hs_options_set_str(c, k, s)
             : v ? hs_options_set_list(c, k, v, n)
                 : hs_options_set_num(c, k, hs_options_num(o, k, 0.0));
    }
    if (rc) hs_options_destroy(&c);
    *out = c;
    return rc;
}

static int same_actuators(hs_ctx *ctx, const hs_site_config *c, int n, const char (*names)[32],
                          const char *from)
{
    int same = n == c->nact;
    for (int j = 0; same && j < n; j++) same = strcmp(names[j], c->actuator_names[j]) == 0;
    if (same) return 0;
    char list[512] = "";
    for (int j = 0; j < n; j++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", j ? ", " : "", names[j]);
    return hs_fail(ctx, HS_EINPUT,
                   "site %s: %s has actuators [%s]; the test's site has %d (%s%s): the twin "
                   "must have the same actuators in the same order",
                   c->name, from, list, c->nact, c->actuator_names[0], c->nact > 1 ? ", ..." : "");
}

/* The twin's laboratory from its site file into c (whose name, clock, units and link stay). */
static int take_twin(hs_ctx *ctx, hs_site_config *c)
{
    hs_site_file *file = NULL;
    int rc = hs_site_file_load(ctx, c->twin, &file);
    if (rc) return hs_fail(ctx, rc, "site %s: twin: %s", c->name, hs_ctx_message(ctx));
    const hs_site_config *t = &hs_site_file_config(file)->site;
    rc = same_actuators(ctx, c, t->nact, t->actuator_names, c->twin);
    hs_options *opts[4] = {NULL, NULL, NULL, NULL};
    const hs_options *from[4] = {t->specimen_opts, t->relaxation_opts, t->command_opts,
                                 t->compensation_opts};
    for (int k = 0; k < 4 && !rc; k++) rc = clone(from[k], &opts[k]);
    if (!rc) {
        hs_options **to[4] = {&c->specimen_opts, &c->relaxation_opts, &c->command_opts,
                              &c->compensation_opts};
        for (int k = 0; k < 4; k++) {
            hs_options_destroy(to[k]);
            *to[k] = opts[k];
            opts[k] = NULL;
        }
        c->rate = t->rate;
        c->perfect = t->perfect;
        c->seed = t->seed;
        c->displacement = t->displacement;
        c->force = t->force;
        snprintf(c->specimen_type, sizeof c->specimen_type, "%s", t->specimen_type);
        memcpy(c->voltage, t->voltage, sizeof c->voltage);
        c->has_voltage = t->has_voltage;
        memcpy(c->schedule, t->schedule, sizeof c->schedule);
        for (int j = 0; j < c->nact; j++) {
            c->actuator[j] = t->actuator[j];
            if (c->actuator[j].schedule) c->actuator[j].schedule = c->schedule[j];
        }
        hs_log(ctx, HS_LOG_INFO, "site %s: virtual twin from %s (%s specimen, %g Hz)", c->name,
               c->twin, c->specimen_type, c->rate);
    }
    for (int k = 0; k < 4; k++) hs_options_destroy(&opts[k]);
    hs_site_file_destroy(&file);
    return rc;
}

static int apply_pretest(hs_ctx *ctx, hs_site_config *c)
{
    hs_pretest_report *r = hs_calloc(1, sizeof *r);
    if (!r) return hs_fail(ctx, HS_ENOMEM, "site %s: out of memory", c->name);
    int rc = hs_pretest_read(ctx, c->pretest, r);
    if (rc) rc = hs_fail(ctx, rc, "site %s: pretest: %s", c->name, hs_ctx_message(ctx));
    if (!rc) rc = same_actuators(ctx, c, r->nact, (const char(*)[32])r->actuators, c->pretest);
    if (!rc && r->has_dynamics) {
        double mean = 0.0;
        for (int j = 0; j < c->nact; j++) {
            hs_actuator_params *a = &c->actuator[j];
            a->a = r->dynamics.a[j];
            a->transport_delay = r->dynamics.delay[j];
            a->valve_freq = 0.0;
            a->schedule = NULL;
            a->schedule_points = 0;
            mean += r->dynamics.a_es[j] / c->nact;
            hs_log(ctx, HS_LOG_INFO,
                   "site %s: actuator %s from %s: a = %.4g samples, transport "
                   "delay %d ticks",
                   c->name, c->actuator_names[j], c->pretest, a->a, a->transport_delay);
        }
        const char *type = hs_options_str(c->compensation_opts, "type", "none");
        if (strcmp(type, "inverse") == 0 || strcmp(type, "adaptive_inverse") == 0) {
            rc = hs_options_set_num(c->compensation_opts, "a_es", mean);
            hs_log(ctx, HS_LOG_INFO, "site %s: compensation %s starts from a_es = %.4g", c->name,
                   type, mean);
        }
    }
    if (!rc && r->has_stiffness) {
        if (strcmp(c->specimen_type, "linear") == 0) {
            rc = hs_options_set_list(c->specimen_opts, "K", r->stiffness.K,
                                     (size_t)(c->nact * c->nact));
            hs_log(ctx, HS_LOG_INFO, "site %s: linear specimen K = K0l from %s", c->name,
                   c->pretest);
        } else {
            hs_log(ctx, HS_LOG_INFO,
                   "site %s: K0l of %s not applied: the %s specimen keeps its own model", c->name,
                   c->pretest, c->specimen_type);
        }
    }
    hs_free(r);
    return rc;
}

int hs_rehearse_prepare(hs_ctx *ctx, hs_test_def *def)
{
    for (int i = 0; i < def->nsites; i++) {
        hs_site_config *c = &def->sites[i];
        int rc = 0;
        if (strcmp(c->kind, "remote") == 0) {
            if (c->twin[0])
                rc = take_twin(ctx, c);
            else if (!c->specimen_type[0] || !c->specimen_opts)
                rc = hs_fail(ctx, HS_EINPUT,
                             "site %s: --rehearse needs the laboratory's model: give "
                             "`twin: SITE.yaml` (the site's file) in sites.%s, or its specimen",
                             c->name, c->name);
            if (rc) return rc;
            snprintf(c->kind, sizeof c->kind, "virtual");
            c->url[0] = '\0';
            c->need_rate = 0.0;
        }
        if (c->pretest[0] && (rc = apply_pretest(ctx, c)) != 0) return rc;
        c->rehearsal = 1;
    }
    if (strcmp(def->clock, "virtual") != 0)
        hs_log(ctx, HS_LOG_INFO, "rehearsal: the test's clock is virtual (it was %s)", def->clock);
    snprintf(def->clock, sizeof def->clock, "virtual");
    return 0;
}
