/* Writing a run's results: summary.json, response.csv, results.h5 (and results.mat when the test
 * file asks for it) in one folder. */
#include "coordinator_impl.h"

#include "hysim/fe.h"
#include "hysim/results.h"
#include "hysim/rths.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int hs_coord_mkdirs(hs_ctx *ctx, const char *dir, const char *too_long)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", dir) >= (int)sizeof buf)
        return hs_fail(ctx, HS_EINVAL, "%s", too_long);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return hs_fail(ctx, HS_EIO, "cannot create folder %s: %s", buf, strerror(errno));
        *p = '/';
    }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST)
        return hs_fail(ctx, HS_EIO, "cannot create folder %s: %s", buf, strerror(errno));
    return 0;
}

int hs_coordinator_set_output(hs_coordinator *c, const char *dir)
{
    if (!c->results) return 0; /* nothing recorded, nothing to write ahead */
    hs_results_live_csv_finish(&c->live_csv, 0);
    int rc = hs_coord_mkdirs(c->ctx, dir, "output folder name too long");
    if (rc) return rc;
    char path[4200];
    if (snprintf(c->live_dir, sizeof c->live_dir, "%s", dir) >= (int)sizeof c->live_dir)
        return hs_fail(c->ctx, HS_EINVAL, "output folder name too long");
    snprintf(path, sizeof path, "%s/response.csv", dir);
    return hs_results_live_csv_start(c->results, path, &c->live_csv);
}

void hs_coordinator_set_reference(hs_coordinator *c, const struct hs_results *ref)
{
    c->reference = ref;
}

void hs_coordinator_set_trace(hs_coordinator *c, const struct hs_run_trace *trace)
{
    c->trace = trace;
}

int hs_coordinator_write(hs_coordinator *c, const char *dir)
{
    if (!c->results) return hs_fail(c->ctx, HS_EINVAL, "coordinator: nothing was recorded");
    int rc = hs_coord_mkdirs(c->ctx, dir, "output folder name too long");
    if (rc) return rc;
    /* response.csv is being written into dir already: its thread goes on while results.h5 and
     * results.mat are written, and is finished after them */
    const int live = c->live_csv && strcmp(c->live_dir, dir) == 0;
    if (!live) hs_results_live_csv_finish(&c->live_csv, 0);
    hs_run_summary s = {.name = c->def->name,
                        .status = hs_run_status_name(c->status),
                        .reason = c->reason,
                        .integrator = c->def->integrator,
                        .steps = c->steps_done,
                        .dt = c->def->dt,
                        .ndof = c->n,
                        .periods = c->periods,
                        .nperiods = c->nperiods,
                        .wall_time_s = c->wall_time,
                        .trace = c->trace};
    if (c->has_exp && hs_coord_exp_summary_json(&c->exp, c->extra_json, HS_EXTRA_JSON_MAX) == 0) {
        s.extra_json = c->extra_json;
        hs_rths_criteria j; /* against the reference run, when there is one */
        if (c->reference && hs_rths_criteria_from_results(c->ctx, c->results, c->reference, 0,
                                                          c->def->dt, &j) == 0) {
            const size_t len = strlen(c->extra_json);
            snprintf(c->extra_json + len, HS_EXTRA_JSON_MAX - len, ",\n  ");
            const size_t at = strlen(c->extra_json);
            if (hs_rths_criteria_json(&j, c->extra_json + at, HS_EXTRA_JSON_MAX - at))
                c->extra_json[len] = '\0'; /* no room: the summary without it */
        }
    }
    const struct hs_fe *fe = hs_model_fe(c->model);
    hs_fe_iterations it;
    if (fe) hs_fe_force_based_iterations(fe, &it);
    if (fe && it.elements > 0 &&
        (c->extra_json || (c->extra_json = hs_malloc(HS_EXTRA_JSON_MAX)))) {
        /* the force-based elements' own iterations (docs/outputs.md) */
        const size_t len = s.extra_json ? strlen(c->extra_json) : 0;
        snprintf(c->extra_json + len, HS_EXTRA_JSON_MAX - len,
                 "%s\"element_state_determination\": {\"elements\": %d, \"calls\": %ld, "
                 "\"iterations\": %ld, \"most_in_a_call\": %d, \"max_iter\": %d, "
                 "\"tolerance\": %.17g}",
                 len ? ",\n  " : "", it.elements, it.calls, it.iterations, it.most, it.max_iter,
                 it.tol);
        s.extra_json = c->extra_json;
    }
    char path[4200];
    if (!live) {
        snprintf(path, sizeof path, "%s/response.csv", dir);
        rc = hs_results_write_csv(c->results, path);
    }
    if (!rc) { /* results.h5 and results.mat side by side */
        char mat[4200];
        snprintf(path, sizeof path, "%s/results.h5", dir);
        snprintf(mat, sizeof mat, "%s/results.mat", dir);
        rc = hs_results_write_h5_mat(c->results, &s, path, c->def->output_mat ? mat : NULL);
    }
    if (!rc) rc = hs_results_write_recorders_csv(c->results, dir); /* recorders/NAME.csv */
    if (live) { /* kept even when another file failed: it loses nothing */
        const int rc_csv = hs_results_live_csv_finish(&c->live_csv, 1);
        if (!rc) rc = rc_csv;
    }
    if (!rc) {
        snprintf(path, sizeof path, "%s/summary.json", dir);
        rc = hs_results_write_summary(c->results, &s, path);
    }
    return rc;
}
