/* HTML pieces of `hysim report` (report_html.h). The style sheet keeps the report readable on
 * screen and on paper: A4 pages with margins, headings kept with what follows, tables and
 * figures never split across pages, images no wider than the page. */
#include "report_html.h"

#include "hysim/base.h"

#include <math.h>
#include <sodium.h>
#include <string.h>

void hs_html_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            fputc(*s, f);
        }
    }
}

void hs_html_num(FILE *f, double x, int digits)
{
    if (isfinite(x))
        fprintf(f, "%.*g", digits, x);
    else
        fputs("n/a", f);
}

void hs_html_row_text(FILE *f, const char *label, const char *value)
{
    fputs("<tr><th>", f);
    hs_html_text(f, label);
    fputs("</th><td>", f);
    hs_html_text(f, value);
    fputs("</td></tr>\n", f);
}

void hs_html_row_num(FILE *f, const char *label, double x, const char *unit)
{
    fputs("<tr><th>", f);
    hs_html_text(f, label);
    fputs("</th><td class=\"n\">", f);
    hs_html_num(f, x, 6);
    if (unit && *unit) {
        fputc(' ', f);
        hs_html_text(f, unit);
    }
    fputs("</td></tr>\n", f);
}

static const char *const hs_html_style =
    "body{font:11pt/1.4 'DejaVu Sans',sans-serif;color:#1d2329;max-width:60em;margin:2em auto;"
    "padding:0 1em}\n"
    "h1{font-size:20pt;margin-bottom:.2em}h2{font-size:14pt;border-bottom:1px solid #ccd;"
    "margin-top:1.6em}\n"
    "table{border-collapse:collapse;margin:.5em 0}th,td{padding:2px 8px;text-align:left;"
    "border-bottom:1px solid #e3e6ea;vertical-align:top}\n"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
    "thead th{background:#eef1f4}\n"
    ".status{display:inline-block;padding:1px 8px;border-radius:4px;font-weight:bold}\n"
    ".completed{background:#dcfce7}.aborted,.unstable{background:#fecaca}\n"
    ".warn li{color:#92400e}.none{color:#555}\n"
    "pre{background:#f6f7f9;border:1px solid #e3e6ea;padding:.6em;font-size:8.5pt;"
    "white-space:pre-wrap;word-break:break-all}\n"
    "figure{margin:1em 0;text-align:center}figure img{max-width:100%;height:auto}\n"
    "figcaption{font-size:9pt;color:#444}\n"
    "@page{size:A4;margin:15mm}\n"
    "@media print{body{margin:0;max-width:none;font-size:10pt}h2{break-after:avoid}"
    "table,figure,pre{break-inside:avoid}figure{break-before:auto}a{color:inherit}}\n";

void hs_html_begin(FILE *f, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", f);
    hs_html_text(f, title);
    fprintf(f, "</title>\n<style>\n%s</style>\n</head><body>\n", hs_html_style);
}

void hs_html_end(FILE *f)
{
    fputs("</body></html>\n", f);
}

int hs_html_png(FILE *f, const char *path, const char *caption)
{
    FILE *in = fopen(path, "rb");
    if (!in) return -1;
    unsigned char *bin = NULL;
    char *b64 = NULL;
    long n = -1;
    if (fseek(in, 0, SEEK_END) == 0) n = ftell(in);
    int rc = -1;
    if (n > 8 && fseek(in, 0, SEEK_SET) == 0 && (bin = hs_malloc((size_t)n)) &&
        fread(bin, 1, (size_t)n, in) == (size_t)n &&
        memcmp(bin, "\x89PNG", 4) == 0) { /* a PNG, not a half-written file */
        const size_t len = sodium_base64_ENCODED_LEN((size_t)n, sodium_base64_VARIANT_ORIGINAL);
        if ((b64 = hs_malloc(len))) {
            sodium_bin2base64(b64, len, bin, (size_t)n, sodium_base64_VARIANT_ORIGINAL);
            fputs("<figure><img alt=\"", f);
            hs_html_text(f, caption);
            fputs("\" src=\"data:image/png;base64,", f);
            fputs(b64, f);
            fputs("\"><figcaption>", f);
            hs_html_text(f, caption);
            fputs("</figcaption></figure>\n", f);
            rc = 0;
        }
    }
    hs_free(b64);
    hs_free(bin);
    fclose(in);
    return rc;
}
