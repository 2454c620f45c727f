/* gnuplot script helpers shared by the `hysim plot` figures (plot.c, plot_actuators.c,
 * plot_sites.c). Every text taken from a results file goes through hs_gp_quote, so that no name
 * can inject commands. */
#ifndef HS_PLOT_GP_H
#define HS_PLOT_GP_H

#include "plot_data.h"

#include <stdint.h>
#include <stdio.h>

/* Records drawn per series: longer runs are thinned evenly (every stride-th and the last). */
#define HS_GP_MAX_POINTS 20000

void hs_gp_quote(FILE *f, const char *s);                      /* 'text', '' for a quote */
void hs_gp_label(FILE *f, const char *what, const char *unit); /* 'what [unit]' quoted */
void hs_gp_number(FILE *f, double x);                          /* " %.9g", or " ?" */
/* The terminal of the chosen format (hs_gp_set_format: png by default, pngcairo when gnuplot
 * has it; svg; pdf through pdfcairo) at width x height pixels (pdf: 1/96 in each), and the
 * output: `part` is named for png (".NAME.png.part"); another format replaces ".png". */
void hs_gp_terminal(FILE *f, int width, int height, const char *part);
/* "png", "svg" or "pdf": 0; anything else: -1. */
int hs_gp_set_format(const char *format);
const char *hs_gp_format(void);
/* NAME.png -> NAME.<format> in out (len bytes). */
void hs_gp_output_name(const char *png_name, char *out, size_t len);
void hs_gp_title(const hs_plot_data *p, const char *what, char *buf, size_t len);
/* hs_gp_title with "(first DRAWN of TOTAL)" after `what` when not every item is drawn. */
void hs_gp_title_first(const hs_plot_data *p, const char *what, int drawn, int total, char *buf,
                       size_t len);
int64_t hs_gp_stride_of(int64_t n);
int hs_gp_drawn(int64_t k, int64_t n, int64_t stride);
void hs_gp_reset(FILE *f); /* reset, missing '?', grid, border, key style */
/* Range of the finite values of column col of an n x width block; returns how many there are. */
int64_t hs_gp_finite_range(const double *x, int64_t n, int width, int col, double *lo, double *hi);
/* `set {axis}range`: autoscaled, or explicit when all finite values are equal. */
void hs_gp_range(FILE *f, const char *axis, const double *x, int64_t n, int width, int col);
/* A panel that says why there is nothing to draw; `key`: show the key again afterwards. */
void hs_gp_empty_panel(FILE *f, const char *why, int key);
/* A whole figure (after its terminal) that says why there is nothing to draw, under its title. */
void hs_gp_empty_figure(FILE *f, const char *title, const char *why);

/* A grid of x-y loops (hysteresis), one panel per column j < count of two n x width blocks, with
 * its own terminal: about square, panels of panel_width x panel_height pixels. */
typedef struct hs_gp_loops {
    const char *block;   /* datablock name, like "$S" */
    const double *x, *y; /* n x width each */
    int width, count;    /* count <= width panels */
    char *const *names;  /* panel titles, or NULL */
    int panel_width, panel_height;
    const char *part;  /* the terminal's output file */
    const char *title; /* the figure's (quoted here) */
    const char *xlabel, *xunit, *ylabel, *yunit;
    const char *empty; /* a panel without finite values says this */
} hs_gp_loops;
void hs_gp_loop_grid(FILE *f, const hs_plot_data *p, const hs_gp_loops *g);

double hs_gp_nice_step(double lo, double hi, int target); /* tic step, about target intervals */
const char *hs_gp_style_of(const hs_plot_data *p);        /* lines, or points for one record */

#endif
