/* hysim run --rehearse: the test's sites become their virtual twins (hysim/rehearse.h), what was
 * taken from where is printed, and after the run how close each actuator came to its limits. */
#include "cli.h"

#include "hysim/coordinator.h"
#include "hysim/rehearse.h"
#include "hysim/site.h"

#include <stdio.h>

/* notes on stdout (not with --quiet); warnings and errors on stderr, as the default logger */
static void say(void *user, hs_log_level level, const char *message)
{
    if (level <= HS_LOG_WARN)
        fprintf(stderr, "hysim: %s: %s\n", level == HS_LOG_ERROR ? "error" : "warning", message);
    else if (!*(const int *)user)
        printf("rehearsal: %s\n", message);
}

int hs_cli_rehearse_prepare(hs_ctx *ctx, hs_test_def *def, int quiet)
{
    static int quiet_flag;
    quiet_flag = quiet;
    hs_ctx_set_logger(ctx, say, &quiet_flag, HS_LOG_INFO);
    const int rc = hs_rehearse_prepare(ctx, def);
    hs_ctx_set_logger(ctx, say, &quiet_flag, HS_LOG_WARN); /* the run's warnings, as before */
    if (rc) fprintf(stderr, "hysim run --rehearse: %s\n", hs_ctx_message(ctx));
    return rc ? HS_EXIT_INPUT : HS_EXIT_OK;
}

static void ratio(const char *what, double peak, double limit)
{
    if (limit > 0.0)
        printf("  %s %.4g of %.4g (%.1f %%)%s", what, peak, limit, 100.0 * peak / limit,
               peak >= 0.8 * limit ? " <-- close" : "");
    else
        printf("  %s %.4g (no limit)", what, peak);
}

void hs_cli_rehearse_print(const hs_coordinator *c, const hs_test_def *def)
{
    printf("rehearsal: peaks against the limits (summary.json: sites[].actuators[].limits)\n");
    for (int s = 0; s < def->nsites; s++) {
        hs_site_summary ss;
        if (hs_site_summary_get(hs_coordinator_site(c, s), &ss) || !ss.has_peaks) continue;
        for (int j = 0; j < ss.nact; j++) {
            printf("%s.%s:", def->sites[s].name, def->sites[s].actuator_names[j]);
            ratio("stroke", ss.peak_cmd[j], ss.stroke[j]);
            ratio("velocity", ss.peak_vel[j], ss.velocity_max[j]);
            ratio("force", ss.peak_force[j], ss.force_max[j]);
            printf("\n");
        }
    }
}
