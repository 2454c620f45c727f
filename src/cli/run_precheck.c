/* `hysim run`'s refusal before the specimen moves (docs/testfile.md, "What check checks"): a test
 * with a remote site (a laboratory: a site server, an OpenFresco or NEES peer) runs only when
 * `hysim check` finds nothing suspicious in it, or when the user accepts its warnings with
 * --accept-warnings. An in-process virtual site moves nothing real: its run goes on, as before.
 * The warnings accepted go into the run's trace (summary.json's trace.accepted_warnings). */
#include "check_physics.h"
#include "cli.h"

#include "hysim/run_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first remote site of def (a rehearsal's twins are virtual), or NULL. */
static const hs_site_config *remote_site(const hs_test_def *def)
{
    for (int s = 0; s < def->nsites; s++)
        if (strcmp(def->sites[s].kind, "remote") == 0 && !def->sites[s].rehearsal)
            return &def->sites[s];
    return NULL;
}

/* Copies the "warning N: ..." lines of the check's text to err (when not NULL) and to the
 * trace's accepted warnings (when not NULL). */
static int take_warnings(FILE *err, hs_run_trace *trace, char *text)
{
    int rc = 0;
    for (char *line = text; !rc && line && *line;) {
        char *end = strchr(line, '\n');
        if (end) *end = '\0';
        if (strncmp(line, "warning ", 8) == 0) {
            if (err) fprintf(err, "%s\n", line);
            if (trace) rc = hs_run_trace_accept(trace, line);
        }
        line = end ? end + 1 : NULL;
    }
    return rc;
}

int hs_cli_run_precheck(const hs_test_def *def, const char *file, int accept, int quiet,
                        hs_run_trace *trace)
{
    const hs_site_config *site = remote_site(def);
    if (!site) return HS_EXIT_OK;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out) return HS_EXIT_FAILED;
    hs_check_refusing refusing;
    const int warnings = hs_check_physics(out, def, &refusing);
    fclose(out);
    if (warnings < 0 || refusing.n == 0) { /* nothing that moves the specimen beyond intent */
        free(text);
        return warnings < 0 ? HS_EXIT_FAILED : HS_EXIT_OK;
    }
    const int rc = take_warnings(!accept || !quiet ? stderr : NULL, accept ? trace : NULL, text);
    free(text);
    if (rc) return HS_EXIT_FAILED;
    char which[128] = "";
    for (int i = 0, at = 0; i < refusing.n && at < (int)sizeof which - 12; i++)
        at += snprintf(which + at, sizeof which - (size_t)at, "%s%d",
                       i == 0                ? ""
                       : i + 1 == refusing.n ? " and "
                                             : ", ",
                       refusing.which[i]);
    if (!accept) {
        fprintf(stderr,
                "hysim run: %s: refused before any command: `hysim check` finds the test unstable, "
                "beyond a limit or in the wrong units (warning%s %s above) and site %s is remote "
                "(%s), a laboratory whose specimen would move; fix the file, rehearse it "
                "(--rehearse), or run it as it is with --accept-warnings\n",
                file, refusing.n > 1 ? "s" : "", which, site->name, site->url);
        return HS_EXIT_INPUT;
    }
    if (!quiet)
        fprintf(stderr, "hysim run: %s: warning%s %s accepted (--accept-warnings)\n", file,
                refusing.n > 1 ? "s" : "", which);
    return HS_EXIT_OK;
}
