/* The physics checks of `hysim check` (check_physics.c). */
#ifndef HS_CLI_CHECK_PHYSICS_H
#define HS_CLI_CHECK_PHYSICS_H

#include "hysim/hysim.h"

#include <stdio.h>

/* The numbers of the warnings for which `hysim run` refuses a test with a remote site: the test
 * unstable or beyond a limit, its record or masses in the wrong units. */
#define HS_CHECK_MAX_REFUSING 16
typedef struct hs_check_refusing {
    int n;
    int which[HS_CHECK_MAX_REFUSING];
} hs_check_refusing;

/* Prints the periods, the record's PGA and duration, the response estimate and one numbered
 * "warning N: ..." line per likely mistake on out; returns the number of warnings (-1: out of
 * memory), and in *refusing (when not NULL) those that refuse a run. */
int hs_check_physics(FILE *out, const hs_test_def *def, hs_check_refusing *refusing);
/* Standard gravity in length/time^2 for the unit names (0 when unknown). */
double hs_check_gravity(const char *length, const char *time);
/* The stability limit on omega dt (INFINITY: unconditionally stable), chi the numerical fraction
 * of the mode's stiffness. */
double hs_check_stability_limit(const char *integrator, const hs_options *opts, double chi);

#endif
