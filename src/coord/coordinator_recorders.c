/* The coordinator's side of the frame model's recorders (include/hysim/recorders.h): created
 * with the results store (their columns join its layout) and gathered at every record, after the
 * step's commit, into a preallocated row. */
#include "coordinator_impl.h"

#include "hysim/fe.h"
#include "hysim/recorders.h"
#include "hysim/results.h"

int hs_coord_recorders_init(hs_coordinator *c, hs_results_recorder **layout)
{
    *layout = NULL;
    if (c->def->nrecorders <= 0) return 0;
    int rc =
        hs_recorders_create(c->ctx, c->def->recorders, c->def->nrecorders, hs_model_fe(c->model),
                            hs_model_influence(c->model), c->def->units_force, c->def->units_length,
                            c->def->units_time, &c->recorders);
    const int n = rc ? 0 : hs_recorders_count(c->recorders);
    if (!rc) c->rec_row = hs_dvec((size_t)hs_recorders_width(c->recorders) + 1);
    if (!rc) *layout = hs_calloc((size_t)n, sizeof **layout);
    if (!rc && (!c->rec_row || !*layout)) rc = HS_ENOMEM;
    for (int k = 0; !rc && k < n; k++) {
        int nnodes;
        const int *nodes = hs_recorders_nodes(c->recorders, k, &nnodes);
        (*layout)[k] = (hs_results_recorder){
            .name = hs_recorders_name(c->recorders, k),
            .response = hs_recorders_response(c->recorders, k),
            .ncols = hs_recorders_columns(c->recorders, k),
            .columns = hs_recorders_column_names(c->recorders, k),
            .units = hs_recorders_column_units(c->recorders, k),
            .nnodes = nnodes,
            .nodes = nodes,
            .elements = hs_recorders_elements(c->recorders, k),
            .components = hs_recorders_components(c->recorders, k),
        };
    }
    return rc;
}

int hs_coord_recorders_record(hs_coordinator *c, double ag)
{
    if (!c->recorders) return 0;
    int rc = hs_recorders_gather(c->recorders, hs_integrator_displacement(c->it),
                                 hs_integrator_velocity(c->it), hs_integrator_acceleration(c->it),
                                 ag, c->rec_row);
    return rc ? rc : hs_results_record_recorders(c->results, c->rec_row);
}

void hs_coord_recorders_free(hs_coordinator *c)
{
    hs_recorders_destroy(&c->recorders);
    hs_free(c->rec_row);
    c->rec_row = NULL;
}
