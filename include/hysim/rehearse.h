/* hysim run --rehearse (docs/pretest.md): the same test with every site replaced by its virtual
 * twin, the laboratory its site file describes (`twin: SITE.yaml` in a remote site's entry, or the
 * entry's own actuators and specimen), updated with the pre-test results (`pretest: FILE.json`:
 * the identified a and transport delay of each actuator, a_es for an inverse compensator, K0l for
 * a linear specimen). The run's summary.json then says how close to each limit it came. */
#ifndef HYSIM_REHEARSE_H
#define HYSIM_REHEARSE_H

#include "hysim/testfile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Rewrites def's sites into their virtual twins (kind virtual, rehearsal = 1) and the test's
 * clock to virtual. Each change is logged at HS_LOG_INFO ("site lab1: twin east from
 * site.yaml; pretest pt.json: a1 a = 3.00, transport delay 0, ..."). HS_EINPUT with the site's
 * name and what to write when a site has no model. */
int hs_rehearse_prepare(hs_ctx *ctx, hs_test_def *def);

#ifdef __cplusplus
}
#endif
#endif
