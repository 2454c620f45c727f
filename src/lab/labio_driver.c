/* The driver laboratory back end (include/hysim/driver.h, docs/lab_backends.md): a lab's own
 * shared library loaded with dlopen, its ABI version checked at load, then one write and one read
 * per controller tick. The driver's status bits (interlock, fault) and a failing write or read
 * (reported as a fault) hold the site. */
#include "hysim/driver.h"
#include "hysim/labio.h"
#include "plugin_load.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef struct driver_lab {
    void *dl, *handle;
    const hysim_driver *d;
    int n;
    int64_t ticks, ctrl_tick;
    double x[HS_LAB_MAX_ACT], f[HS_LAB_MAX_ACT];
    char path[256], alarm[200];
} driver_lab;

static int d_exchange(void *self, const double *cmd, hs_lab_input *in)
{
    driver_lab *l = self;
    uint32_t st = 0;
    int64_t tick = l->ctrl_tick;
    l->ticks++;
    const int wr = l->d->write(l->handle, cmd);
    const int rd = wr < 0 ? wr : l->d->read(l->handle, l->x, l->f, &st, &tick);
    st &= HS_LAB_ST_INTERLOCK | HS_LAB_ST_FAULT;
    /* a failed call: the driver (or its hardware) is gone: the site holds without moving */
    const int gone = wr < 0 || rd < 0;
    if (gone) st |= HS_LAB_ST_FAULT | HS_LAB_ST_WATCHDOG;
    l->ctrl_tick = tick;
    if (st && !l->alarm[0]) {
        if (wr < 0 || rd < 0)
            snprintf(l->alarm, sizeof l->alarm, "lab driver %s: %s failed (%d) at tick %lld",
                     l->d->name, wr < 0 ? "write" : "read", wr < 0 ? wr : rd, (long long)l->ticks);
        else
            snprintf(l->alarm, sizeof l->alarm,
                     "lab driver %s: the controller's status 0x%x at tick %lld", l->d->name,
                     (unsigned)st, (long long)l->ticks);
    }
    memcpy(in->x, l->x, (size_t)l->n * sizeof(double));
    memcpy(in->f, l->f, (size_t)l->n * sizeof(double));
    in->status = st;
    in->ctrl_tick = l->ctrl_tick;
    in->missing = gone;
    in->missing_max = 1;
    return 0;
}

/* The rig's position before any command: the driver's read alone (no write). */
static int d_position(void *self, hs_ctx *ctx, double *x)
{
    driver_lab *l = self;
    uint32_t st = 0;
    int64_t tick = l->ctrl_tick;
    const int rd = l->d->read(l->handle, l->x, l->f, &st, &tick);
    if (rd < 0)
        return hs_fail(ctx, HS_EIO,
                       "lab driver %s: read failed (%d) before the first command: the site cannot "
                       "tell where the rig rests; check the hardware, then start the site again",
                       l->d->name, rd);
    l->ctrl_tick = tick;
    memcpy(x, l->x, (size_t)l->n * sizeof(double));
    return 0;
}

static const double *d_x(void *self)
{
    return ((driver_lab *)self)->x;
}
static const double *d_f(void *self)
{
    return ((driver_lab *)self)->f;
}
static const char *d_alarm(void *self)
{
    return ((driver_lab *)self)->alarm;
}
static void d_destroy(void *self)
{
    driver_lab *l = self;
    if (l->handle) l->d->close(l->handle);
    if (l->dl) dlclose(l->dl);
    hs_free(l);
}

static const hs_lab_ops driver_ops = {.kind = "driver",
                                      .exchange = d_exchange,
                                      .true_displacement = d_x,
                                      .true_force = d_f,
                                      .alarm = d_alarm,
                                      .position = d_position,
                                      .destroy = d_destroy};

/* Loads and checks the library; a message saying what to do on failure. */
static int load(hs_ctx *ctx, driver_lab *l, const char *path)
{
    static const hs_plugin_kind kind = {.what = "lab driver",
                                        .symbol = HYSIM_DRIVER_SYMBOL,
                                        .header = "include/hysim/driver.h",
                                        .noun = "hysim driver",
                                        .table = "hysim_driver",
                                        .doc = "docs/lab_backends.md"};
    hs_plugin_fn entry = NULL;
    const int rc = hs_plugin_load(ctx, path, &kind, &l->dl, &entry);
    if (rc) return rc;
    l->d = ((hysim_driver_entry)entry)();
    if (!l->d)
        return hs_fail(ctx, HS_EINPUT, "lab driver %s: %s() returned no table", path,
                       HYSIM_DRIVER_SYMBOL);
    if (l->d->abi_version != HYSIM_DRIVER_ABI_VERSION)
        return hs_fail(ctx, HS_EINPUT,
                       "lab driver %s: ABI version %u, this hysim needs %u: rebuild the driver "
                       "against this hysim's include/hysim/driver.h",
                       path, (unsigned)l->d->abi_version, (unsigned)HYSIM_DRIVER_ABI_VERSION);
    if (!l->d->open || !l->d->write || !l->d->read || !l->d->close)
        return hs_fail(ctx, HS_EINPUT,
                       "lab driver %s: its table lacks open, write, read or close: fill in all "
                       "four",
                       path);
    return 0;
}

int hs_lab_driver_create(hs_ctx *ctx, const char *path, const char *options, int nact, double rate,
                         hs_lab **out)
{
    if (!path || !out || nact < 1 || nact > HS_LAB_MAX_ACT || !(rate > 0.0))
        return hs_fail(ctx, HS_EINVAL, "lab driver: a path, 1..%d actuators and a rate > 0",
                       HS_LAB_MAX_ACT);
    driver_lab *l = hs_calloc(1, sizeof *l);
    if (!l) return hs_fail(ctx, HS_ENOMEM, "lab driver: out of memory");
    l->n = nact;
    /* a name without a slash is a file in the working folder, not one of the linker's search */
    snprintf(l->path, sizeof l->path, "%s%s", strchr(path, '/') ? "" : "./", path);
    int rc = load(ctx, l, l->path);
    if (!rc) {
        char err[200] = "";
        l->handle = l->d->open(nact, rate, options ? options : "", err, sizeof err);
        if (!l->handle)
            rc = hs_fail(ctx, HS_EIO, "lab driver %s: open failed: %s", l->path,
                         err[0] ? err : "(the driver gave no reason)");
    }
    if (!rc) rc = hs_lab_create(ctx, &driver_ops, l, nact, rate, out);
    if (rc) d_destroy(l);
    return rc;
}
