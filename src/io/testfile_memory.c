/* What a run of the definition will keep in memory: its results store holds every series of every
 * record, preallocated for steps + 1 records. `hysim check` and `hysim run` refuse a definition
 * whose records would not fit in this machine's memory, where `run` would otherwise fail to
 * allocate them (or be killed) after the check said ok. */
#include "testfile_impl.h"

#include "hysim/fe.h"
#include "hysim/results.h"

#include <unistd.h>

uint64_t hs_test_def_record_width(const hs_test_def *def)
{
    int nact = 0;
    for (int k = 0; k < def->nexp; k++) nact += def->experimental[k].nact;
    const struct hs_fe *fe = hs_model_fe(def->model);
    int fe_springs = fe ? hs_fe_spring_columns(fe, 0, NULL, NULL) : 0; /* the coordinator's */
    if (fe_springs > HS_FE_SPRINGS_RECORDED) fe_springs = HS_FE_SPRINGS_RECORDED;
    const hs_results_layout layout = {.ndof = hs_model_ndof(def->model),
                                      .nsprings = hs_model_spring_count(def->model) + fe_springs,
                                      .ngroups = hs_model_group_count(def->model),
                                      .nact = def->nexp > 0 ? nact : 0,
                                      .nsites = def->nexp > 0 ? def->nsites : 0};
    uint64_t rec = 0; /* the frame model's recorders */
    for (int k = 0; k < def->nrecorders; k++)
        rec += (uint64_t)hs_recorder_columns(&def->recorders[k], hs_model_fe(def->model));
    return hs_results_layout_width(&layout) + rec;
}

uint64_t hs_test_def_record_bytes(const hs_test_def *def)
{
    return (uint64_t)(def->steps + 1) * hs_test_def_record_width(def) * sizeof(double);
}

int hs_tf_memory(hs_tf *L, const hs_ynode *analysis)
{
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return 0; /* unknown: nothing to compare with */
    const double have = (double)pages * (double)page;
    const double need = (double)hs_test_def_record_bytes(L->def);
    if (need <= have) return 0;
    const hs_ynode *at = hs_ynode_get(analysis, "steps");
    const char *what = at ? "analysis.steps" : "analysis.duration";
    if (!at) at = hs_ynode_get(analysis, "duration");
    return hs_tf_fail(L, at ? at : analysis,
                      "%s: %lld steps keep %lld records of %llu values, %.3g GB in memory, more "
                      "than this machine's %.3g GB: use fewer steps (a shorter duration or a "
                      "longer dt) or split the test into several runs",
                      what, (long long)L->def->steps, (long long)L->def->steps + 1,
                      (unsigned long long)hs_test_def_record_width(L->def), need / 1e9, have / 1e9);
}
