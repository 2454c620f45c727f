/* `hysim plot` figures of the site controllers (see plot_sites.c). */
#ifndef HS_PLOT_SITES_H
#define HS_PLOT_SITES_H

#include "plot_data.h"

#include <stdio.h>

/* The figures drawn for p (none without /sites; actuators_ti.png only with the actuators'
 * tracking series): up to 3 file names into out. */
int hs_plot_site_outputs(const hs_plot_data *p, const char **out);
/* Appends their gnuplot script (each figure to ".NAME.part" in the current folder). */
void hs_plot_script_sites(FILE *f, const hs_plot_data *p);

#endif
