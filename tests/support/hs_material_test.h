/* Helpers for the uniaxial material tests: a material from a "key value ..." string and a
 * committed step. */
#ifndef HS_MATERIAL_TEST_H
#define HS_MATERIAL_TEST_H

#include "hs_test.h"

/* The material `type` with the parameters of `spec`, "key value key value ..." (numbers); fails
 * the test (printing the message) when it cannot be created. */
hs_material *hs_test_material(const char *type, const char *spec);
/* Creates it with ctx and returns the code (0 or the error; *out NULL then), for error tests. */
int hs_test_material_try(hs_ctx *ctx, const char *type, const char *spec, hs_material **out);
/* Sets the trial strain e (rate 0), commits, returns the stress. */
double hs_test_material_go(hs_material *m, double e);

#endif
