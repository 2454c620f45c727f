/* The RTHS benchmark's numerical stiffness as a specimen (Silva et al. 2020;
 * docs/rths_benchmark.md, "The benchmark as a test file"): the reference frame's condensed
 * stiffness less the specimen actually tested at floor 1, Kn = K - ke e1 e1' (the package's
 * F1_input_file.m:30,37), with the plant chosen by the same keys as specimen rths_benchmark, so
 * that a test file's frame follows a perturbed plant. Three channels (floors 1-3), f = Kn x; for a
 * perfect in-process site (the frame condensed to its floors couples floors 1 and 3, which springs
 * cannot hold). */
#include "specimen_impl.h"

#include "hysim/linalg.h"
#include "hysim/rths.h"

const hs_param_spec hs_specimen_rths_frame_params[] = {
    {"plant", HS_PARAM_STR, 0, "nominal (default) or perturbed: the plant whose ke is subtracted"},
    {"seed", HS_PARAM_NUM, 0, "perturbed plant: seed of its draw (default 1)"},
    {"spread", HS_PARAM_NUM, 0,
     "perturbed plant: standard deviations in units of the benchmark's (default 1)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

typedef struct rths_frame {
    double K[9]; /* Kn, symmetric (the storage order does not matter) */
} rths_frame;

static int frame_set_trial(hs_specimen *s, double dt)
{
    (void)dt;
    const rths_frame *f = s->data;
    hs_matvec(3, f->K, s->x, s->force);
    return 0;
}

static int frame_initial_stiffness(const hs_specimen *s, double *K)
{
    const rths_frame *f = s->data;
    for (int i = 0; i < 9; i++) K[i] = f->K[i];
    return 0;
}

static void frame_destroy(hs_specimen *s)
{
    hs_free(s->data);
}

int hs_specimen_create_rths_frame(hs_specimen *s, const hs_options *opts)
{
    if (s->n != 3)
        return hs_fail(s->ctx, HS_EINPUT,
                       "specimen rths_frame: three actuators, one per floor (got %d)", s->n);
    hs_rths_plant_params p;
    const int rc = hs_rths_plant_from_options(s->ctx, opts, "specimen rths_frame", &p);
    if (rc) return rc;
    rths_frame *f = hs_calloc(1, sizeof *f);
    if (!f) return hs_fail(s->ctx, HS_ENOMEM, "specimen rths_frame: out of memory");
    hs_rths_structure st;
    hs_rths_structure_build(&p, &st);
    for (int i = 0; i < 9; i++) f->K[i] = st.Kn[i];
    s->data = f;
    s->ops.set_trial = frame_set_trial;
    s->ops.initial_stiffness = frame_initial_stiffness;
    s->ops.destroy = frame_destroy;
    return 0;
}
