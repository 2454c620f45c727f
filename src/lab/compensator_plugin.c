/* A compensator plug-in (include/hysim/compensator_plugin.h): a researcher's own shared library,
 * loaded with dlopen by a site file, its ABI version checked at load, one instance per actuator
 * behind hysim's compensator interface, so the site controller ticks it like a built-in one and
 * its safety limits judge every command. A failing tick (an error return) latches: from then on
 * the command is not a number, which the site's limits trip on (hold, then controlled unloading).
 * The conventions (path without a slash = working folder, messages that say what to do) are the
 * lab driver's (src/lab/labio_driver.c). */
#include "compensator_impl.h"

#include "hysim/compensator_plugin.h"
#include "plugin_load.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct plugin_data {
    void *dl, *handle;
    const hysim_compensator *p;
    int actuator, failed;
    double x0; /* the rest position of the last reset: the plug-in works about it */
    char path[256], options[256];
} plugin_data;

static double plugin_tick(hs_compensator *c, double x_desired, double x_measured)
{
    plugin_data *d = c->data;
    double cmd = NAN;
    if (!d->failed && d->handle &&
        d->p->tick(d->handle, x_desired - d->x0, x_measured - d->x0, c->f_measured, &cmd) < 0)
        d->failed = 1;
    return d->failed ? NAN : d->x0 + cmd;
}

static void plugin_reset(hs_compensator *c, double x0)
{
    plugin_data *d = c->data;
    d->x0 = x0;
    if (d->handle) d->p->close(d->handle);
    char err[200] = "";
    d->handle = d->p->open(d->actuator, c->rate, d->options, err, sizeof err);
    d->failed = d->handle == NULL;
}

static double plugin_a_es(const hs_compensator *c)
{
    (void)c;
    return 1.0; /* unknown to hysim: the plug-in's own */
}

static size_t plugin_state_size(const hs_compensator *c)
{
    (void)c;
    return 0; /* the ABI carries no state: a resumed session restarts the plug-in at rest */
}

static int plugin_state_io(const hs_compensator *c, double *buf)
{
    (void)c;
    (void)buf;
    return 0;
}

static int plugin_state_load(hs_compensator *c, const double *in)
{
    (void)c;
    (void)in;
    return 0;
}

static void plugin_destroy(hs_compensator *c)
{
    plugin_data *d = c->data;
    if (!d) return;
    if (d->handle) d->p->close(d->handle);
    if (d->dl) dlclose(d->dl);
}

/* Loads and checks the library; a message saying what to do on failure. */
static int load(hs_ctx *ctx, plugin_data *d)
{
    static const hs_plugin_kind kind = {.what = "compensator plug-in",
                                        .symbol = HYSIM_COMPENSATOR_SYMBOL,
                                        .header = "include/hysim/compensator_plugin.h",
                                        .noun = "hysim compensator",
                                        .table = "hysim_compensator",
                                        .doc = "docs/rths_benchmark.md"};
    hs_plugin_fn entry = NULL;
    const int rc = hs_plugin_load(ctx, d->path, &kind, &d->dl, &entry);
    if (rc) return rc;
    d->p = ((hysim_compensator_entry)entry)();
    if (!d->p)
        return hs_fail(ctx, HS_EINPUT, "compensator plug-in %s: %s() returned no table", d->path,
                       HYSIM_COMPENSATOR_SYMBOL);
    if (d->p->abi_version != HYSIM_COMPENSATOR_ABI_VERSION)
        return hs_fail(ctx, HS_EINPUT,
                       "compensator plug-in %s: ABI version %u, this hysim needs %u: rebuild it "
                       "against this hysim's include/hysim/compensator_plugin.h",
                       d->path, (unsigned)d->p->abi_version,
                       (unsigned)HYSIM_COMPENSATOR_ABI_VERSION);
    if (!d->p->open || !d->p->tick || !d->p->close)
        return hs_fail(ctx, HS_EINPUT,
                       "compensator plug-in %s: its table lacks open, tick or close: fill in all "
                       "three",
                       d->path);
    return 0;
}

int hs_compensator_plugin_create(hs_ctx *ctx, const char *path, const char *options, int actuator,
                                 double rate, hs_compensator **out)
{
    if (!path || !out || actuator < 0 || !(rate > 0.0 && isfinite(rate)))
        return hs_fail(ctx, HS_EINVAL, "compensator plug-in: a path, an actuator and a rate > 0");
    hs_compensator *c = hs_calloc(1, sizeof *c);
    plugin_data *d = hs_calloc(1, sizeof *d);
    if (!c || !d) {
        hs_free(c);
        hs_free(d);
        return hs_fail(ctx, HS_ENOMEM, "compensator plug-in: out of memory");
    }
    c->ctx = ctx;
    c->type = "plugin";
    c->rate = rate;
    c->h = 1.0 / rate;
    c->data = d;
    c->ops = (struct hs_compensator_ops){.tick = plugin_tick,
                                         .reset = plugin_reset,
                                         .a_es = plugin_a_es,
                                         .state_size = plugin_state_size,
                                         .state_save = plugin_state_io,
                                         .state_load = plugin_state_load,
                                         .destroy = plugin_destroy};
    d->actuator = actuator;
    /* a name without a slash is a file in the working folder, not one of the linker's search */
    snprintf(d->path, sizeof d->path, "%s%s", strchr(path, '/') ? "" : "./", path);
    snprintf(d->options, sizeof d->options, "%s", options ? options : "");
    int rc = load(ctx, d);
    if (!rc) {
        char err[200] = "";
        d->handle = d->p->open(actuator, rate, d->options, err, sizeof err);
        if (!d->handle)
            rc = hs_fail(ctx, HS_EINPUT, "compensator plug-in %s: open failed: %s", d->path,
                         err[0] ? err : "(the plug-in gave no reason)");
    }
    if (rc) {
        hs_compensator_destroy(&c);
        return rc;
    }
    *out = c;
    return 0;
}
