/* `hysim plot` figures of a hybrid run's actuators (see plot_actuators.c). */
#ifndef HS_PLOT_ACTUATORS_H
#define HS_PLOT_ACTUATORS_H

#include "plot_data.h"

#include <stdio.h>

/* The figures drawn for p (none without /actuators; tangent.png only when the tangent has a
 * finite value): up to 3 file names into out. */
int hs_plot_actuator_outputs(const hs_plot_data *p, const char **out);
/* Appends their gnuplot script (each figure to ".NAME.part" in the current folder). */
void hs_plot_script_actuators(FILE *f, const hs_plot_data *p);

#endif
