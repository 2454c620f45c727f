/* summary.json: the run's metrics, written by hand as pretty, stable, valid JSON. */
#include "results_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Shortest of %.15g..%.17g that reads back exactly; non-finite numbers as null. */
static void json_number(FILE *f, double x)
{
    if (!isfinite(x)) {
        fputs("null", f);
        return;
    }
    char buf[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, x);
        if (strtod(buf, NULL) == x) break;
    }
    fputs(buf, f);
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when the bytes are not valid UTF-8. */
static int utf8_length(const unsigned char *s)
{
    unsigned c = s[0];
    int n = c < 0x80             ? 1
            : (c & 0xE0) == 0xC0 ? 2
            : (c & 0xF0) == 0xE0 ? 3
            : (c & 0xF8) == 0xF0 ? 4
                                 : 0;
    if (n == 0 || (n == 2 && c < 0xC2) || (n == 4 && c > 0xF4)) return 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    if (n == 3 && ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] >= 0xA0))) return 0;
    if (n == 4 && ((c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] >= 0x90))) return 0;
    return n;
}

/* A JSON string: quotes, backslashes and control characters escaped; invalid UTF-8 bytes become
 * U+FFFD so that the file always parses. */
static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    while (*p) {
        unsigned c = *p;
        if (c == '"' || c == '\\') {
            fputc('\\', f);
            fputc((int)c, f);
        } else if (c == '\n') {
            fputs("\\n", f);
        } else if (c == '\r') {
            fputs("\\r", f);
        } else if (c == '\t') {
            fputs("\\t", f);
        } else if (c < 0x20 || c == 0x7F) {
            fprintf(f, "\\u%04x", c);
        } else if (c < 0x80) {
            fputc((int)c, f);
        } else {
            int n = utf8_length(p);
            if (n == 0) {
                fputs("\\ufffd", f);
                p++;
                continue;
            }
            fwrite(p, 1, (size_t)n, f);
            p += n;
            continue;
        }
        p++;
    }
    fputc('"', f);
}

static void json_array(FILE *f, const double *x, int n, int stride)
{
    fputc('[', f);
    for (int i = 0; i < n; i++) {
        if (i) fputs(", ", f);
        json_number(f, x ? x[(size_t)i * (size_t)stride] : NAN);
    }
    fputc(']', f);
}

static void key(FILE *f, int indent, const char *name)
{
    fprintf(f, "%*s", indent, "");
    json_string(f, name);
    fputs(": ", f);
}

static void key_number(FILE *f, int indent, const char *name, double x, const char *end)
{
    key(f, indent, name);
    json_number(f, x);
    fputs(end, f);
}

static void key_string(FILE *f, int indent, const char *name, const char *s, const char *end)
{
    key(f, indent, name);
    json_string(f, s);
    fputs(end, f);
}

static void write_energy(FILE *f, const hs_results *r)
{
    int64_t k = r->count - 1; /* the last record, or none */
    const char *names[] = {"input", "kinetic", "damping", "strain", "experimental", "error_rel"};
    const double *series[] = {r->e_input,  r->e_kinetic,      r->e_damping,
                              r->e_strain, r->e_experimental, r->e_error_rel};
    key(f, 2, "energy");
    fputs("{\n", f);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        key_number(f, 4, names[i], k >= 0 ? series[i][k] : NAN, ",\n");
    key(f, 4, "groups");
    if (r->ngroups == 0) {
        fputs("{}\n", f);
    } else {
        fputs("{\n", f);
        for (int g = 0; g < r->ngroups; g++)
            key_number(f, 6, r->group_names[g],
                       k >= 0 ? r->e_groups[(size_t)k * (size_t)r->ngroups + (size_t)g] : NAN,
                       g + 1 < r->ngroups ? ",\n" : "\n");
        fputs("    }\n", f);
    }
    fputs("  },\n", f);
}

static void json_strings(FILE *f, const char *const *s, int n)
{
    fputc('[', f);
    for (int i = 0; i < n; i++) {
        if (i) fputs(", ", f);
        json_string(f, s[i]);
    }
    fputc(']', f);
}

/* "trace": what the run was made from and by (docs/outputs.md, "Trace"). */
static void write_trace(FILE *f, const hs_run_trace *t)
{
    key(f, 2, "trace");
    fputs("{\n", f);
    key_string(f, 4, "version", t->version, ",\n");
    key_string(f, 4, "build", t->build, ",\n");
    key_string(f, 4, "host", t->host, ",\n");
    key_string(f, 4, "start", t->start, ",\n");
    key_string(f, 4, "end", t->end, ",\n");
    key_string(f, 4, "resumed_from", t->resumed_from, ",\n");
    key(f, 4, "overrides");
    json_strings(f, t->overrides, t->noverrides);
    fputs(",\n", f);
    key(f, 4, "accepted_warnings");
    json_strings(f, t->accepted, t->naccepted);
    fputs(",\n", f);
    key(f, 4, "inputs");
    fputs("[", f);
    for (int i = 0; i < t->ninputs; i++) {
        const hs_run_input *in = &t->inputs[i];
        fputs(i ? ",\n      {" : "\n      {", f);
        key_string(f, 0, "role", in->role, ", ");
        key_string(f, 0, "path", in->path, ", ");
        key(f, 0, "size");
        fprintf(f, "%lld, ", (long long)in->size);
        key_string(f, 0, "sha256", in->sha256, "}");
    }
    fputs(t->ninputs ? "\n    ],\n" : "],\n", f);
    key_string(f, 4, "effective", t->effective, "\n");
    fputs("  },\n", f);
}

int hs_results_write_summary(const hs_results *r, const hs_run_summary *s, const char *path)
{
    if (!r) return HS_EINVAL;
    if (!s) return hs_fail(r->ctx, HS_EINVAL, "%s: no run summary to write", path ? path : "");
    hs_atomic_file af;
    int rc = hs_atomic_open(r->ctx, path, &af);
    if (rc) return rc;
    FILE *f = af.f;
    fputs("{\n", f);
    key_string(f, 2, "name", s->name, ",\n");
    key_string(f, 2, "status", s->status, ",\n");
    key_string(f, 2, "reason", s->reason, ",\n");
    key_string(f, 2, "integrator", s->integrator, ",\n");
    key(f, 2, "steps");
    fprintf(f, "%lld,\n", (long long)s->steps);
    key(f, 2, "records");
    fprintf(f, "%lld,\n", (long long)r->count);
    key_number(f, 2, "dt", s->dt, ",\n");
    key(f, 2, "ndof");
    fprintf(f, "%d,\n", s->ndof);
    key(f, 2, "units");
    fputs("{", f);
    key_string(f, 0, "force", r->units_force, ", ");
    key_string(f, 0, "length", r->units_length, ", ");
    key_string(f, 0, "time", r->units_time, "},\n");
    key(f, 2, "periods");
    if (s->periods) {
        json_array(f, s->periods, s->nperiods > 0 ? s->nperiods : s->ndof, 1);
    } else {
        fputs("[]", f);
    }
    fputs(",\n", f);
    key(f, 2, "peak_abs_disp");
    fputc('[', f);
    double *peaks = hs_dvec((size_t)r->ndof);
    if (peaks) hs_results_peaks(r, peaks);
    for (int i = 0; i < r->ndof; i++) {
        if (i) fputs(", ", f);
        json_number(f, peaks ? peaks[i] : hs_results_peak_abs_disp(r, i));
    }
    hs_free(peaks);
    fputs("],\n", f);
    write_energy(f, r);
    if (s->extra_json && s->extra_json[0]) fprintf(f, "  %s,\n", s->extra_json);
    if (s->trace) write_trace(f, s->trace);
    key_number(f, 2, "wall_time_s", s->wall_time_s, "\n");
    fputs("}\n", f);
    return hs_atomic_finish(r->ctx, &af, 0);
}
