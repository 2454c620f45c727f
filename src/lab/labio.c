/* The laboratory exchange's ops table (include/hysim/labio.h) and its virtual back end: the
 * in-process virtual laboratory (vlab.c) stepped once per exchange, status 0. */
#include "hysim/labio.h"

struct hs_lab {
    const hs_lab_ops *ops;
    void *self;
    int nact;
    double rate;
};

int hs_lab_create(hs_ctx *ctx, const hs_lab_ops *ops, void *self, int nact, double rate,
                  hs_lab **out)
{
    if (!ops || !ops->exchange || !out || nact < 1 || nact > HS_LAB_MAX_ACT)
        return hs_fail(ctx, HS_EINVAL, "lab: an ops table with an exchange and 1..%d actuators",
                       HS_LAB_MAX_ACT);
    hs_lab *l = hs_calloc(1, sizeof *l);
    if (!l) return hs_fail(ctx, HS_ENOMEM, "lab: out of memory");
    l->ops = ops;
    l->self = self;
    l->nact = nact;
    l->rate = rate;
    *out = l;
    return 0;
}

void hs_lab_destroy(hs_lab **lab)
{
    if (!lab || !*lab) return;
    if ((*lab)->ops->destroy) (*lab)->ops->destroy((*lab)->self);
    hs_free(*lab);
    *lab = NULL;
}

int hs_lab_exchange(hs_lab *lab, const double *cmd, hs_lab_input *in)
{
    return lab->ops->exchange(lab->self, cmd, in);
}
int hs_lab_nact(const hs_lab *lab)
{
    return lab->nact;
}
double hs_lab_rate(const hs_lab *lab)
{
    return lab->rate;
}
const char *hs_lab_kind(const hs_lab *lab)
{
    return lab->ops->kind;
}
int hs_lab_actuator_flags(hs_lab *lab, int channel)
{
    return lab->ops->actuator_flags ? lab->ops->actuator_flags(lab->self, channel) : 0;
}
const double *hs_lab_true_displacement(hs_lab *lab)
{
    return lab->ops->true_displacement(lab->self);
}
const double *hs_lab_true_force(hs_lab *lab)
{
    return lab->ops->true_force(lab->self);
}
const char *hs_lab_alarm(hs_lab *lab)
{
    return lab->ops->alarm ? lab->ops->alarm(lab->self) : "";
}
void *hs_lab_self(hs_lab *lab)
{
    return lab->self;
}
void hs_lab_detach(hs_lab *lab)
{
    if (lab && lab->ops->detach) lab->ops->detach(lab->self);
}
int hs_lab_position(hs_ctx *ctx, hs_lab *lab, double *x)
{
    if (!lab->ops->position)
        return hs_fail(ctx, HS_EUNSUPPORTED, "lab %s: it reports no position before a command",
                       lab->ops->kind);
    return lab->ops->position(lab->self, ctx, x);
}

/* ---------------------------------------------------------------- virtual */

static int v_exchange(void *self, const double *cmd, hs_lab_input *in)
{
    hs_vlab *v = self;
    const int rc = hs_vlab_tick(v, cmd, in->x, in->f);
    in->status = 0;
    in->ctrl_tick = (int64_t)(hs_vlab_time(v) * hs_actuator_rate(hs_vlab_actuator(v, 0)) + 0.5);
    return rc;
}
static int v_flags(void *self, int channel)
{
    return hs_actuator_flags(hs_vlab_actuator(self, channel));
}
static const double *v_x(void *self)
{
    return hs_vlab_true_displacement(self);
}
static const double *v_f(void *self)
{
    return hs_vlab_true_force(self);
}

static const hs_lab_ops virtual_ops = {.kind = "virtual",
                                       .exchange = v_exchange,
                                       .actuator_flags = v_flags,
                                       .true_displacement = v_x,
                                       .true_force = v_f};

int hs_lab_virtual(hs_ctx *ctx, hs_vlab *vlab, hs_lab **out)
{
    if (!vlab) return hs_fail(ctx, HS_EINVAL, "lab: no virtual laboratory");
    int n = 0;
    while (n < HS_LAB_MAX_ACT && hs_vlab_actuator(vlab, n)) n++;
    return hs_lab_create(ctx, &virtual_ops, vlab, n, hs_actuator_rate(hs_vlab_actuator(vlab, 0)),
                         out);
}
