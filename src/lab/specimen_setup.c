/* A specimen seen through an experimental setup (include/hysim/setup.h): the virtual laboratory's
 * actuators move the setup's actuators; their strokes place the control point (forward
 * kinematics, warm-started from the committed pose), the wrapped specimen answers there in the
 * control point's DOFs, and the actuator forces are those that hold the platform against it
 * (J^T f = p, the minimum-norm set when actuators outnumber DOFs). So a virtual lab, `hysim
 * plant` and any back end run the setup's real geometry, and a site's setup (labio_setup.c)
 * recovers the control point's displacements and forces from what its actuators measure. */
#include "hysim/setup.h"
#include "specimen_impl.h"

#include <string.h>

/* The specimen is kept here, not in hs_specimen.inner: a perfect virtual lab strips wrappers
 * that model imperfections (relaxation) down to .inner, and the setup is geometry, not one. */
typedef struct through {
    const hs_setup *setup;
    hs_specimen *specimen; /* in the control point's DOFs (lent) */
    double q[6], q_c[6];   /* trial and committed pose */
} through;

static int through_set_trial(hs_specimen *s, double dt)
{
    (void)dt;
    through *w = s->data;
    memcpy(w->q, w->q_c, sizeof w->q);
    int rc = hs_setup_pose(w->setup, s->x, w->q);
    if (rc)
        return hs_fail(s->ctx, rc,
                       "specimen through the setup: the actuators' strokes reach no pose of the "
                       "control point");
    rc = hs_specimen_set_trial(w->specimen, s->t, w->q);
    if (rc) return rc;
    return hs_setup_actuator_forces(w->setup, w->q, hs_specimen_force(w->specimen), s->force);
}

static int through_commit(hs_specimen *s)
{
    through *w = s->data;
    const int rc = hs_specimen_commit(w->specimen);
    if (!rc) memcpy(w->q_c, w->q, sizeof w->q);
    return rc;
}

static int through_set_input(hs_specimen *s, int channel, double value)
{
    const through *w = s->data;
    return hs_specimen_set_input(w->specimen, channel, value);
}

/* layout: inner state, committed pose (6) */
static size_t through_state_size(const hs_specimen *s)
{
    const through *w = s->data;
    return hs_specimen_state_size(w->specimen) + 6;
}
static int through_state_save(const hs_specimen *s, double *out)
{
    const through *w = s->data;
    const int rc = hs_specimen_state_save(w->specimen, out);
    if (!rc) memcpy(out + hs_specimen_state_size(w->specimen), w->q_c, sizeof w->q_c);
    return rc;
}
static int through_state_load(hs_specimen *s, const double *in)
{
    through *w = s->data;
    const int rc = hs_specimen_state_load(w->specimen, in);
    if (!rc) memcpy(w->q_c, in + hs_specimen_state_size(w->specimen), sizeof w->q_c);
    return rc;
}

static void through_destroy(hs_specimen *s)
{
    hs_free(s->data);
}

int hs_specimen_create_setup(hs_ctx *ctx, hs_specimen *inner, const hs_setup *setup,
                             hs_specimen **out)
{
    *out = NULL;
    if (hs_specimen_n_act(inner) != hs_setup_ndof(setup))
        return hs_fail(ctx, HS_EINPUT,
                       "specimen through the setup: the specimen has %d channels, the setup "
                       "controls %d DOFs; give the specimen one channel per control DOF",
                       hs_specimen_n_act(inner), hs_setup_ndof(setup));
    hs_specimen *s = NULL;
    int rc = hs_specimen_shell(ctx, "setup", hs_setup_nact(setup), &s);
    if (rc) return rc;
    through *w = hs_calloc(1, sizeof *w);
    if (!w) {
        hs_specimen_destroy(&s);
        return HS_ENOMEM;
    }
    w->setup = setup;
    w->specimen = inner;
    s->data = w;
    s->ops.set_trial = through_set_trial;
    s->ops.commit = through_commit;
    s->ops.set_input = through_set_input;
    s->ops.state_size = through_state_size;
    s->ops.state_save = through_state_save;
    s->ops.state_load = through_state_load;
    s->ops.destroy = through_destroy;
    /* the forces at rest */
    rc = hs_specimen_set_trial(s, 0.0, s->x);
    if (rc) {
        hs_specimen_destroy(&s);
        return rc;
    }
    *out = s;
    return 0;
}
