/* HTML pieces of `hysim report` (report_html.c): escaped text, numbers, tables, and figures
 * embedded as base64 PNG, written to one stream. */
#ifndef HS_REPORT_HTML_H
#define HS_REPORT_HTML_H

#include <stdio.h>

/* Text with & < > " escaped. */
void hs_html_text(FILE *f, const char *s);
/* A number with `digits` significant digits; "n/a" when not finite. */
void hs_html_num(FILE *f, double x, int digits);
/* <tr><th>label</th><td>value</td></tr> rows of a two-column table. */
void hs_html_row_text(FILE *f, const char *label, const char *value);
void hs_html_row_num(FILE *f, const char *label, double x, const char *unit);
/* The head of the document: title, and the style sheet with its print rules. */
void hs_html_begin(FILE *f, const char *title);
void hs_html_end(FILE *f);
/* <figure> with the PNG at `path` inline as base64 and its caption; 0, or -1 when the file
 * cannot be read (nothing written). */
int hs_html_png(FILE *f, const char *path, const char *caption);

#endif
