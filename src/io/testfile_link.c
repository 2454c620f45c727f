/* Virtual-time network and task times: a site's `link` (include/hysim/link.h, hs_link_create's
 * options) and `analysis.compute_time` (hs_compute_model_create's options). A delay is written
 * {TYPE: {parameters}}: TYPE names an entry of the delay registry, and its parameters are
 * flattened into the same options as the link's own keys (`delay: TYPE`, then e.g. `median`,
 * `sigma`). `{histogram: FILE}` (or `{empirical: {file: FILE}}`) reads an empirical histogram
 * relative to the test file. Each distribution, each link and the compute-time model are created
 * once while loading: what they refuse is reported at the mapping that holds it. */
#include "testfile_impl.h"

#include "hysim/link.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define HS_TF_MAX_OUTAGES   HS_TF_MAX_MATRIX
#define HS_TF_MAX_RTO       1e6
#define HS_TF_MAX_RETRIES   1000L
#define HS_TF_MAX_DIST_KIND 16

/* Distribution names a key may take: the registry's (link) or the compute-time model's. */
static size_t dist_names(int compute, const char **names)
{
    size_t n = 0;
    if (compute) {
        names[n++] = "constant";
        names[n++] = "lognormal";
        return n;
    }
    for (size_t i = 0; i < hs_delay_dist_registry_count() && n + 1 < HS_TF_MAX_DIST_KIND; i++)
        names[n++] = hs_delay_dist_registry_get(i)->name;
    names[n++] = "histogram";
    return n;
}

static int unknown_dist(hs_tf *L, const hs_ynode *at, const char *what, int compute)
{
    const char *names[HS_TF_MAX_DIST_KIND];
    const size_t n = dist_names(compute, names);
    char list[256] = "";
    for (size_t i = 0; i < n; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", names[i]);
    const char *kind = compute ? "compute-time distribution" : "delay distribution";
    const char *near = hs_suggest(at->text, names, n);
    if (near)
        return hs_tf_fail(L, at, "%s: unknown %s '%.40s'; did you mean '%s'? (known: %s)", what,
                          kind, at->text, near, list);
    return hs_tf_fail(L, at, "%s: unknown %s '%.40s' (known: %s)", what, kind, at->text, list);
}

/* A histogram file: resolved against the test file's folder and read once. */
static int histogram(hs_tf *L, const hs_ynode *node, const char *what, const char *type_key,
                     hs_options *opts)
{
    char path[1024];
    int rc = hs_tf_input(L, node, what, path, sizeof path);
    if (rc) return rc;
    hs_delay_dist *probe = NULL;
    rc = hs_delay_dist_read_histogram(L->ctx, path, &probe);
    hs_delay_dist_destroy(&probe);
    if (rc) return hs_tf_wrap(L, node, what, rc);
    rc = hs_options_set_str(opts, type_key, "empirical");
    if (!rc) rc = hs_options_set_str(opts, "file", path);
    if (!rc) rc = hs_options_set_str(opts, "histogram", path);
    return rc;
}

/* {TYPE: PARAMS}: exactly one key naming the distribution. The type goes under `type_key`
 * ("delay" for a link, "type" for compute time) and its parameters next to it. `constant`
 * also takes a bare number. */
static int distribution(hs_tf *L, const hs_ynode *node, const char *what, const char *type_key,
                        int compute, hs_options *opts)
{
    if (node->kind != HS_YNODE_MAPPING || node->n != 1)
        return hs_tf_fail(L, node,
                          "%s: expected one distribution, e.g. {lognormal: {median: 0.2, sigma: "
                          "0.5}} or {constant: 0.05}, got %s",
                          what,
                          node->kind == HS_YNODE_MAPPING ? "a mapping with several keys"
                                                         : hs_ynode_kind_name(node));
    const hs_ynode *k = hs_ynode_key(node, 0), *v = hs_ynode_value(node, 0);
    const char *names[HS_TF_MAX_DIST_KIND];
    const size_t n = dist_names(compute, names);
    size_t found = n;
    for (size_t i = 0; i < n && found == n; i++)
        if (strlen(names[i]) == k->len && strcmp(names[i], k->text) == 0) found = i;
    if (found == n) return unknown_dist(L, k, what, compute);
    char sub[256];
    hs_tf_path(sub, sizeof sub, what, names[found]);
    if (strcmp(names[found], "histogram") == 0) return histogram(L, v, sub, type_key, opts);
    if (strcmp(names[found], "empirical") == 0) {
        static const char *const keys[] = {"file"};
        const hs_ynode *fn;
        char fsub[288];
        int rc = hs_tf_mapping(L, v, sub, keys, 1);
        if (!rc) rc = hs_tf_required(L, v, "file", sub, &fn);
        return rc ? rc
                  : histogram(L, fn, hs_tf_path(fsub, sizeof fsub, sub, "file"), type_key, opts);
    }
    const hs_delay_dist_entry *e = hs_delay_dist_registry_find(names[found]);
    if (!e) return unknown_dist(L, k, what, compute);
    int rc = hs_options_set_str(opts, type_key, e->name);
    if (rc) return rc;
    if (strcmp(e->name, "constant") == 0 && v->kind == HS_YNODE_SCALAR) {
        double x = 0.0;
        rc = hs_tf_num(L, v, sub, &x);
        if (!rc && !(x >= 0.0))
            rc = hs_tf_fail(L, v, "%s: a duration must be >= 0 (got %g)", sub, x);
        return rc ? rc : hs_options_set_num(opts, "value", x);
    }
    rc = hs_tf_params(L, v, sub, e->params, NULL, 0, opts);
    if (rc) return rc;
    hs_delay_dist *probe = NULL;
    rc = hs_delay_dist_create(L->ctx, e->name, opts, &probe);
    hs_delay_dist_destroy(&probe);
    return rc ? hs_tf_wrap(L, v, sub, rc) : 0;
}

/* outages: [[start, end], ...] in s, 0 <= start < end, sorted and disjoint; stored flat. */
static int outages(hs_tf *L, const hs_ynode *node, const char *what, hs_options *opts)
{
    if (node->kind == HS_YNODE_SEQUENCE && node->n == 0) return 0; /* [] : none */
    if (node->kind == HS_YNODE_SEQUENCE && node->n > HS_TF_MAX_OUTAGES)
        return hs_tf_fail(L, node, "%s: at most %d windows (got %zu)", what, HS_TF_MAX_OUTAGES,
                          node->n);
    double w[2 * HS_TF_MAX_OUTAGES];
    size_t rows = 0;
    int rc = hs_tf_matrix(L, node, what, 0, 2, "window", "value of [start, end]", w, &rows, NULL);
    if (rc) return rc;
    char item[224];
    for (size_t i = 0; i < rows; i++) {
        hs_tf_index(item, sizeof item, what, i);
        const hs_ynode *row = node->items[i];
        if (!(w[2 * i] >= 0.0))
            return hs_tf_fail(L, row->items[0], "%s: a window starts at >= 0 s (got %g)", item,
                              w[2 * i]);
        if (!(w[2 * i + 1] > w[2 * i]))
            return hs_tf_fail(L, row->items[1], "%s: the end (%g) must be after the start (%g)",
                              item, w[2 * i + 1], w[2 * i]);
        if (i > 0 && !(w[2 * i] >= w[2 * i - 1]))
            return hs_tf_fail(L, row->items[0],
                              "%s: windows must be sorted and disjoint (starts at %g, before the "
                              "previous window ends at %g)",
                              item, w[2 * i], w[2 * i - 1]);
    }
    return hs_options_set_list(opts, "outages", w, 2 * rows);
}

int hs_tf_link(hs_tf *L, const hs_ynode *node, const char *what, hs_site_config *cfg, int index)
{
    static const char *const keys[] = {"delay", "loss", "rto", "max_retries", "outages"};
    int rc = hs_tf_mapping(L, node, what, keys, sizeof keys / sizeof keys[0]);
    if (!rc) rc = hs_options_create(&cfg->link_opts);
    if (rc) return rc;
    hs_options *opts = cfg->link_opts;
    char sub[224];
    const hs_ynode *v;
    if ((v = hs_ynode_get(node, "delay")) != NULL) {
        rc = distribution(L, v, hs_tf_path(sub, sizeof sub, what, "delay"), "delay", 0, opts);
    } else { /* no delay: messages arrive when sent */
        rc = hs_options_set_str(opts, "delay", "constant");
        if (!rc) rc = hs_options_set_num(opts, "value", 0.0);
    }
    if (!rc && (v = hs_ynode_get(node, "loss")) != NULL) {
        double loss = 0.0;
        rc = hs_tf_num(L, v, hs_tf_path(sub, sizeof sub, what, "loss"), &loss);
        if (!rc && !(loss >= 0.0 && loss < 1.0))
            rc = hs_tf_fail(L, v, "%s: a probability in [0, 1) (got %g)", sub, loss);
        if (!rc) rc = hs_options_set_num(opts, "loss", loss);
    }
    if (!rc && (v = hs_ynode_get(node, "rto")) != NULL) {
        double rto = 0.0;
        rc = hs_tf_num(L, v, hs_tf_path(sub, sizeof sub, what, "rto"), &rto);
        if (!rc && !(rto > 0.0 && rto < HS_TF_MAX_RTO))
            rc = hs_tf_fail(L, v, "%s: must be > 0 and below %g s (got %g)", sub, HS_TF_MAX_RTO,
                            rto);
        if (!rc) rc = hs_options_set_num(opts, "rto", rto);
    }
    if (!rc && (v = hs_ynode_get(node, "max_retries")) != NULL) {
        long retries = 0;
        rc = hs_tf_int(L, v, hs_tf_path(sub, sizeof sub, what, "max_retries"), 0, HS_TF_MAX_RETRIES,
                       &retries);
        if (!rc) rc = hs_options_set_num(opts, "max_retries", (double)retries);
    }
    if (!rc && (v = hs_ynode_get(node, "outages")) != NULL)
        rc = outages(L, v, hs_tf_path(sub, sizeof sub, what, "outages"), opts);
    if (rc) return rc;
    hs_link *probe = NULL;
    rc = hs_link_create(L->ctx, opts, cfg->seed, HS_LINK_ID(index, HS_LINK_DOWN), &probe);
    hs_link_destroy(&probe);
    return rc ? hs_tf_wrap(L, node, what, rc) : 0;
}

int hs_tf_compute_time(hs_tf *L, const hs_ynode *node)
{
    const char *what = "analysis.compute_time";
    int rc = hs_options_create(&L->def->compute_time_opts);
    if (!rc) rc = distribution(L, node, what, "type", 1, L->def->compute_time_opts);
    if (rc) return rc;
    hs_compute_model *probe = NULL;
    rc = hs_compute_model_create(L->ctx, L->def->compute_time_opts, L->def->seed, 0, &probe);
    hs_compute_model_destroy(&probe);
    return rc ? hs_tf_wrap(L, node, what, rc) : 0;
}
