/* Linear elastic specimen with a coupled stiffness matrix: f = K x (n_act x n_act). */
#include "specimen_impl.h"

#include "hysim/linalg.h"

#include <string.h>

const hs_param_spec hs_specimen_linear_params[] = {
    {"K", HS_PARAM_LIST, 1, "stiffness matrix n_act x n_act, row by row (force/length)"},
    {NULL, HS_PARAM_NUM, 0, NULL},
};

typedef struct linear {
    double *K; /* column-major */
} linear;

static int linear_set_trial(hs_specimen *s, double dt)
{
    (void)dt;
    const linear *l = s->data;
    hs_matvec(s->n, l->K, s->x, s->force);
    return 0;
}

static int linear_initial_stiffness(const hs_specimen *s, double *K)
{
    const linear *l = s->data;
    memcpy(K, l->K, (size_t)s->n * (size_t)s->n * sizeof(double));
    return 0;
}

static void linear_destroy(hs_specimen *s)
{
    linear *l = s->data;
    if (l) hs_free(l->K);
    hs_free(l);
}

int hs_specimen_create_linear(hs_specimen *s, const hs_options *opts)
{
    const int n = s->n;
    const double *v = NULL;
    size_t m = hs_options_list(opts, "K", &v);
    if (m != (size_t)n * (size_t)n)
        return hs_fail(s->ctx, HS_EINPUT, "specimen linear: K has %zu values, expected %d x %d", m,
                       n, n);
    linear *l = hs_calloc(1, sizeof *l);
    if (!l) return hs_fail(s->ctx, HS_ENOMEM, "specimen linear: out of memory");
    s->data = l;
    s->ops.set_trial = linear_set_trial;
    s->ops.initial_stiffness = linear_initial_stiffness;
    s->ops.destroy = linear_destroy;
    l->K = hs_dvec(m);
    if (!l->K) return hs_fail(s->ctx, HS_ENOMEM, "specimen linear: out of memory");
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) HS_AT(l->K, n, i, j) = v[(size_t)i * (size_t)n + (size_t)j];
    return 0;
}
