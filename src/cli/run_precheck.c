/* `hysim run`'s refusal before the specimen moves (docs/testfile.md, "What check checks"): a test
 * with a remote site (a laboratory: a site server, an OpenFresco or NEES peer) runs only when
 * `hysim check` finds nothing suspicious in it, or when the user accepts its warnings with
 * --accept-warnings. An in-process virtual site moves nothing real: its run goes on, as before.
 * The warnings accepted are kept for summary.json (hs_cli_precheck.accepted). */
#include "check_physics.h"
#include "cli.h"

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

/* Copies the "warning N: ..." lines of the check's text to err. */
static void print_warnings(FILE *err, const char *text)
{
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        const size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
        if (strncmp(line, "warning ", 8) == 0) fprintf(err, "%.*s", (int)len, line);
        line += len;
    }
}

int hs_cli_run_precheck(const hs_test_def *def, const char *file, int accept, int quiet,
                        int *accepted)
{
    *accepted = 0;
    const hs_site_config *site = remote_site(def);
    if (!site) return HS_EXIT_OK;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out) return HS_EXIT_FAILED;
    const int warnings = hs_check_physics(out, def);
    fclose(out);
    if (warnings <= 0) {
        free(text);
        return warnings < 0 ? HS_EXIT_FAILED : HS_EXIT_OK;
    }
    if (!accept || !quiet) print_warnings(stderr, text);
    free(text);
    if (!accept) {
        fprintf(stderr,
                "hysim run: %s: refused before any command: `hysim check` finds %d warning%s "
                "(above) and site %s is remote (%s), a laboratory whose specimen would move; fix "
                "the file, rehearse it (--rehearse), or run it as it is with --accept-warnings\n",
                file, warnings, warnings > 1 ? "s" : "", site->name, site->url);
        return HS_EXIT_INPUT;
    }
    if (!quiet)
        fprintf(stderr, "hysim run: %s: %d warning%s accepted (--accept-warnings)\n", file,
                warnings, warnings > 1 ? "s" : "");
    *accepted = warnings;
    return HS_EXIT_OK;
}
