/* The results store's recorder block: the frame model's recorders (include/hysim/recorders.h),
 * their columns side by side in every record, and their CSV files (DIR/recorders/NAME.csv, full
 * precision as response.csv). results.h5 and results.mat write the block with the other series. */
#include "base/number_text.h"
#include "results_impl.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

int hs_results_recorders_init(hs_results *r, const hs_results_layout *layout)
{
    const int n = layout->nrecorders;
    if (n <= 0 || !layout->recorders) return 0;
    r->nrec = n;
    r->rec_names = hs_calloc((size_t)n, sizeof(char *));
    r->rec_responses = hs_calloc((size_t)n, sizeof(char *));
    r->rec_ncols = hs_calloc((size_t)n, sizeof(int));
    r->rec_col0 = hs_calloc((size_t)n, sizeof(int));
    r->rec_columns = hs_calloc((size_t)n, sizeof(char **));
    r->rec_units = hs_calloc((size_t)n, sizeof(char **));
    r->rec_elements = hs_calloc((size_t)n, sizeof(char **));
    r->rec_components = hs_calloc((size_t)n, sizeof(char **));
    r->rec_nodes = hs_calloc((size_t)n, sizeof(int *));
    r->rec_nnodes = hs_calloc((size_t)n, sizeof(int));
    if (!r->rec_names || !r->rec_responses || !r->rec_ncols || !r->rec_col0 || !r->rec_columns ||
        !r->rec_units || !r->rec_elements || !r->rec_components || !r->rec_nodes || !r->rec_nnodes)
        return HS_ENOMEM;
    size_t width = 0;
    for (int j = 0; j < n; j++) {
        const hs_results_recorder *x = &layout->recorders[j];
        r->rec_ncols[j] = x->ncols;
        r->rec_col0[j] = (int)width;
        width += (size_t)x->ncols;
        r->rec_names[j] = hs_strdup(x->name ? x->name : "recorder");
        r->rec_responses[j] = hs_strdup(x->response ? x->response : "");
        r->rec_columns[j] = hs_results_names(x->columns, x->ncols, "c");
        r->rec_units[j] = hs_results_names(x->units, x->ncols, "");
        if (!r->rec_names[j] || !r->rec_responses[j] || !r->rec_columns[j] || !r->rec_units[j])
            return HS_ENOMEM;
        if (x->elements && !(r->rec_elements[j] = hs_results_names(x->elements, x->ncols, "")))
            return HS_ENOMEM;
        if (x->components &&
            !(r->rec_components[j] = hs_results_names(x->components, x->ncols, "")))
            return HS_ENOMEM;
        if (x->nnodes > 0 && x->nodes) {
            r->rec_nodes[j] = hs_calloc((size_t)x->nnodes, sizeof(int));
            if (!r->rec_nodes[j]) return HS_ENOMEM;
            memcpy(r->rec_nodes[j], x->nodes, (size_t)x->nnodes * sizeof(int));
            r->rec_nnodes[j] = x->nnodes;
        }
    }
    r->rec_width = width;
    const size_t count = (size_t)r->capacity * width;
    r->rec = hs_calloc(count ? count : 1, sizeof(double));
    if (!r->rec) return HS_ENOMEM;
    for (size_t k = 0; k < count; k++) r->rec[k] = NAN;
    return 0;
}

void hs_results_recorders_free(hs_results *r)
{
    for (int j = 0; j < r->nrec; j++) {
        const int m = r->rec_ncols ? r->rec_ncols[j] : 0;
        if (r->rec_names) hs_free(r->rec_names[j]);
        if (r->rec_responses) hs_free(r->rec_responses[j]);
        if (r->rec_columns) hs_results_names_free(r->rec_columns[j], m);
        if (r->rec_units) hs_results_names_free(r->rec_units[j], m);
        if (r->rec_elements) hs_results_names_free(r->rec_elements[j], m);
        if (r->rec_components) hs_results_names_free(r->rec_components[j], m);
        if (r->rec_nodes) hs_free(r->rec_nodes[j]);
    }
    hs_free(r->rec_names);
    hs_free(r->rec_responses);
    hs_free(r->rec_ncols);
    hs_free(r->rec_col0);
    hs_free(r->rec_columns);
    hs_free(r->rec_units);
    hs_free(r->rec_elements);
    hs_free(r->rec_components);
    hs_free(r->rec_nodes);
    hs_free(r->rec_nnodes);
    hs_free(r->rec);
}

int hs_results_record_recorders(hs_results *r, const double *values)
{
    if (!r) return HS_EINVAL;
    if (r->nrec <= 0)
        return hs_fail(r->ctx, HS_EINVAL, "results: recorders recorded without a recorder block");
    if (r->count <= 0)
        return hs_fail(r->ctx, HS_EINVAL, "results: recorders recorded before any record");
    memcpy(r->rec + (size_t)(r->count - 1) * r->rec_width, values, r->rec_width * sizeof(double));
    return 0;
}

int hs_results_recorder_count(const hs_results *r)
{
    return r ? r->nrec : 0;
}

size_t hs_results_recorder_width(const hs_results *r)
{
    return r ? r->rec_width : 0;
}

const double *hs_results_series_recorder(const hs_results *r, int j, int64_t k)
{
    if (!r || j < 0 || j >= r->nrec || k < 0 || k >= r->count) return NULL;
    return r->rec + (size_t)k * r->rec_width + (size_t)r->rec_col0[j];
}

static int write_one(const hs_results *r, int j, const char *path)
{
    hs_atomic_file af;
    int rc = hs_atomic_open(r->ctx, path, &af);
    if (rc) return rc;
    const int m = r->rec_ncols[j];
    fputs("t", af.f);
    for (int c = 0; c < m; c++) fprintf(af.f, ",%s", r->rec_columns[j][c]);
    fputc('\n', af.f);
    char num[HS_NUMBER_TEXT_MAX];
    for (int64_t k = 0; k < r->count; k++) {
        hs_number_text(r->t[k], num);
        fputs(num, af.f);
        const double *x = hs_results_series_recorder(r, j, k);
        for (int c = 0; c < m; c++) {
            hs_number_text(x[c], num);
            fputc(',', af.f);
            fputs(num, af.f);
        }
        fputc('\n', af.f);
    }
    return hs_atomic_finish(r->ctx, &af, 0); /* it checks the stream for errors */
}

int hs_results_write_recorders_csv(const hs_results *r, const char *dir)
{
    if (!r) return HS_EINVAL;
    if (r->nrec <= 0) return 0;
    char path[4200];
    if (snprintf(path, sizeof path, "%s/recorders", dir) >= (int)sizeof path)
        return hs_fail(r->ctx, HS_EINVAL, "%s: folder name too long", dir);
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return hs_fail(r->ctx, HS_EIO, "cannot create folder %s: %s", path, strerror(errno));
    for (int j = 0; j < r->nrec; j++) {
        snprintf(path, sizeof path, "%s/recorders/%s.csv", dir, r->rec_names[j]);
        const int rc = write_one(r, j, path);
        if (rc) return rc;
    }
    return 0;
}
