/* The NEES ASCII protocol's lines (docs/nees.md): assembling them from bytes in any chunking,
 * splitting them with every quirk real peers show tolerated (LF or CR LF, NUL padding, a space
 * after the command word, a `:suffix` on it, double and trailing TABs), reading the control
 * points and their "geom ptype value" triplets, and building reply lines that never end with a
 * TAB. The DOF labels and the control-point map shared by the lab and the coordinator side. */
#include "hysim/nees.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const geoms[3] = {"x", "y", "z"};

void hs_nees_config_default(hs_nees_config *c, int nact)
{
    memset(c, 0, sizeof *c);
    c->mode = HS_NEES_LABVIEW1;
    c->ncp = 1;
    snprintf(c->cp[0], sizeof c->cp[0], "MDL-00-01");
    for (int j = 0; j < nact && j < HS_NEES_MAX_ACT; j++) {
        c->act_cp[j] = 0;
        c->act_dof[j] = j < HS_NEES_NDOF ? j : -1;
    }
    c->port = -1;
    c->step_time = 0.05;
    c->line_gap = 0.05;
    c->idle_timeout = 600.0;
    c->execute_timeout = 600.0;
}

const char *hs_nees_geom(int dof)
{
    return dof >= 0 && dof < HS_NEES_NDOF ? geoms[dof % 3] : "?";
}

const char *hs_nees_kin(int dof)
{
    return dof >= HS_NEES_RX ? "rotation" : "displacement";
}

const char *hs_nees_reaction(int dof)
{
    return dof >= HS_NEES_RX ? "moment" : "force";
}

int hs_nees_dof(const char *geom, const char *ptype, int *reaction)
{
    int g = -1;
    for (int k = 0; k < 3; k++)
        if (strcmp(geom, geoms[k]) == 0) g = k;
    int rot = -1, reac = 0;
    if (strcmp(ptype, "displacement") == 0) rot = 0;
    if (strcmp(ptype, "rotation") == 0) rot = 1;
    if (strcmp(ptype, "force") == 0) rot = 0, reac = 1;
    if (strcmp(ptype, "moment") == 0) rot = 1, reac = 1;
    if (g < 0 || rot < 0) return -1;
    if (reaction) *reaction = reac;
    return g + 3 * rot;
}

int hs_nees_allowed(const hs_nees_config *c, uint32_t peer)
{
    if (c->nallow == 0) return 1;
    for (int k = 0; k < c->nallow; k++)
        if ((peer & c->allow_mask[k]) == (c->allow_addr[k] & c->allow_mask[k])) return 1;
    return 0;
}

int hs_nees_lines_push(hs_nees_lines *L, const uint8_t *data, size_t n, size_t *used)
{
    if (L->ready) { /* the line returned last time has been used */
        L->len = 0;
        L->ready = 0;
    }
    for (size_t i = 0; i < n; i++) {
        const uint8_t b = data[i];
        if (b == '\n') {
            *used = i + 1;
            while (L->len > 0 && L->buf[L->len - 1] == '\r') L->len--;
            L->buf[L->len] = '\0';
            L->truncated = L->overlong;
            L->overlong = 0;
            if (L->len == 0 && !L->truncated) continue; /* a blank line */
            L->ready = 1;
            return 1;
        }
        if (b == '\0') continue; /* ECLabVIEW's NUL padding */
        if (L->len < HS_NEES_MAX_LINE)
            L->buf[L->len++] = (char)b;
        else
            L->overlong = 1;
    }
    *used = n;
    return 0;
}

void hs_nees_split(char *line, hs_nees_msg *m)
{
    memset(m, 0, sizeof *m);
    char *p = line;
    while (*p == ' ' || *p == '\t' || *p == '\r') p++;
    m->raw_cmd = p;
    char *end = p + strcspn(p, " \t");
    const int more = *end != '\0';
    *end = '\0';
    size_t k = 0;
    for (const char *q = p; *q && *q != ':' && k + 1 < sizeof m->cmd; q++)
        m->cmd[k++] = (char)tolower((unsigned char)*q);
    m->cmd[k] = '\0';
    if (!more) return;
    for (char *f = end + 1; f;) {
        char *tab = strchr(f, '\t');
        if (tab) *tab = '\0';
        /* a stray CR (a reader in LF mode leaves it) is not part of the field */
        size_t len = strlen(f);
        while (len > 0 && f[len - 1] == '\r') f[--len] = '\0';
        if (len > 0) {
            if (m->nf < HS_NEES_MAX_FIELDS)
                m->f[m->nf++] = f;
            else
                m->too_many = 1;
        }
        f = tab ? tab + 1 : NULL;
    }
}

static int is_ptype(const char *s)
{
    static const char *const t[] = {"displacement", "rotation", "force", "moment", "external"};
    for (size_t k = 0; k < sizeof t / sizeof t[0]; k++)
        if (strcmp(s, t[k]) == 0) return 1;
    return 0;
}

int hs_nees_points(char *const *f, int nf, hs_nees_triplet *out, int cap, char *why, size_t wcap)
{
    const char *cp = NULL;
    int n = 0;
    for (int i = 0; i < nf;) {
        if (strcmp(f[i], "control-point") == 0 && i + 1 < nf) {
            cp = f[i + 1];
            i += 2;
            continue;
        }
        if (i + 1 < nf && is_ptype(f[i + 1])) {
            if (!cp) {
                snprintf(why, wcap, "'%.40s %.20s' comes before any control point", f[i], f[i + 1]);
                return -1;
            }
            if (i + 2 >= nf) {
                snprintf(why, wcap, "'%.40s %.20s' of %.48s has no value", f[i], f[i + 1], cp);
                return -1;
            }
            char *end = NULL;
            const double v = strtod(f[i + 2], &end);
            /* decimal only: strtod also reads hex floats (0x1p-2), which no NEES peer writes */
            if (end == f[i + 2] || *end != '\0' || !isfinite(v) ||
                f[i + 2][strspn(f[i + 2], "0123456789+-.eE")] != '\0') {
                snprintf(why, wcap,
                         "the value '%.40s' of %.40s %.20s at %.48s is not a finite decimal "
                         "number",
                         f[i + 2], f[i], f[i + 1], cp);
                return -1;
            }
            hs_nees_triplet t = {.cp = cp, .dof = -1, .v = v};
            if (strcmp(f[i + 1], "external") == 0) {
                t.name = f[i];
            } else {
                t.dof = hs_nees_dof(f[i], f[i + 1], &t.reaction);
                if (t.dof < 0) {
                    snprintf(why, wcap,
                             "'%.40s' is not a geom (x, y or z) in '%.40s %.20s' at %.48s", f[i],
                             f[i], f[i + 1], cp);
                    return -1;
                }
            }
            if (n >= cap) {
                snprintf(why, wcap, "more than %d values", cap);
                return -1;
            }
            out[n++] = t;
            i += 3;
            continue;
        }
        cp = f[i++]; /* any other field names a control point */
    }
    return n;
}

int hs_nees_find_cp(const hs_nees_config *c, const char *name)
{
    for (int k = 0; k < c->ncp; k++)
        if (strcmp(c->cp[k], name) == 0) return k;
    const char *colon = strchr(name, ':');
    if (!colon) return -1;
    const size_t len = (size_t)(colon - name);
    for (int k = 0; k < c->ncp; k++)
        if (strlen(c->cp[k]) == len && strncmp(c->cp[k], name, len) == 0) return k;
    return -1;
}

static void out_raw(hs_nees_out *o, const char *s)
{
    const size_t len = strlen(s);
    if (o->len + len > HS_NEES_MAX_OUT) {
        o->overflow = 1;
        return;
    }
    memcpy(o->buf + o->len, s, len);
    o->len += len;
    o->buf[o->len] = '\0';
}

void hs_nees_out_start(hs_nees_out *o, const char *first)
{
    o->len = 0;
    o->overflow = 0;
    o->buf[0] = '\0';
    out_raw(o, first);
}

void hs_nees_out_field(hs_nees_out *o, const char *field)
{
    if (!field[0]) return; /* an empty field would make a double TAB */
    out_raw(o, "\t");
    const size_t at = o->len;
    out_raw(o, field);
    /* 7-bit text without control characters: an echoed field never splits a line or a field */
    for (size_t i = at; !o->overflow && i < o->len; i++)
        if ((unsigned char)o->buf[i] < 0x20 || (unsigned char)o->buf[i] >= 0x7f) o->buf[i] = '?';
}

void hs_nees_out_num(hs_nees_out *o, double v, int digits)
{
    char num[40];
    if (v == 0.0) v = 0.0; /* no "-0" */
    snprintf(num, sizeof num, "%.*E", digits - 1, v);
    hs_nees_out_field(o, num);
}

void hs_nees_out_end(hs_nees_out *o)
{
    while (o->len > 0 && (o->buf[o->len - 1] == '\t' || o->buf[o->len - 1] == '\n'))
        o->len--; /* never a TAB before the EOL */
    o->buf[o->len++] = '\n';
    o->buf[o->len] = '\0';
}
