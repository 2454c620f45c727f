/* libFuzzer target: arbitrary bytes into the NEES ASCII protocol's lab session (hysim/nees.h):
 * the line assembler, the splitter, the control-point parser and the session, with every move
 * answered by a perfect spring lab. They must never crash, leak or read out of bounds; every
 * reply is one line ending in LF with no TAB before it and no CR inside, below HS_NEES_MAX_OUT;
 * a move's target is finite and within every actuator's stroke (nothing a peer sends moves an
 * actuator past a limit). The first byte picks the chunking and the variant (LabView1 or 2). */
#include "hysim/nees.h"

#include <math.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const double stroke[3] = {5.0, 0.01, 0.0}; /* the third has none */

static void check(const hs_nees_action *a)
{
    for (int i = 0; i < a->nlines; i++) {
        const char *l = a->line[i];
        const size_t n = a->len[i];
        if (n < 2 || n > HS_NEES_MAX_OUT + 1 || l[n - 1] != '\n' || l[n - 2] == '\t' ||
            memchr(l, '\n', n - 1) || memchr(l, '\r', n) || strlen(l) != n)
            __builtin_trap();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const size_t chunk = 1 + (data[0] & 0x3f);
    hs_nees_config cfg;
    hs_nees_config_default(&cfg, 3);
    cfg.mode = (data[0] & 0x40) ? HS_NEES_LABVIEW2 : HS_NEES_LABVIEW1;
    cfg.all12 = (data[0] & 0x80) != 0;
    cfg.ncp = 2;
    strcpy(cfg.cp[1], "CPNode02");
    cfg.act_cp[2] = 1;
    cfg.act_dof[2] = HS_NEES_RZ;
    static const char *const names[3] = {"a1", "a2", "a3"};
    hs_nees_session *s = NULL;
    if (hs_nees_session_create(NULL, &cfg, 3, names, stroke, &s)) __builtin_trap();
    static hs_nees_lines L;
    memset(&L, 0, sizeof L);
    const double zero[3] = {0, 0, 0};
    hs_nees_session_state(s, zero, zero);
    size_t off = 1;
    while (off < size) {
        const size_t part = size - off < chunk ? size - off : chunk;
        size_t done = 0;
        while (done < part) {
            size_t used = 0;
            const int got = hs_nees_lines_push(&L, data + off + done, part - done, &used);
            done += used;
            if (!got) break;
            hs_nees_action a;
            if (L.truncated)
                hs_nees_session_overlong(s, &a);
            else
                hs_nees_session_line(s, L.buf, &a);
            check(&a);
            if (a.kind == HS_NEES_ACT_MOVE) {
                double f[3];
                for (int j = 0; j < 3; j++) {
                    if (!isfinite(a.x[j]) || (stroke[j] > 0.0 && fabs(a.x[j]) > stroke[j]))
                        __builtin_trap();
                    f[j] = 7.0 * a.x[j];
                }
                hs_nees_action b;
                hs_nees_session_moved(s, a.x, f, (data[off] & 1) ? HS_ELIMIT : 0, "refused", &b);
                check(&b);
            }
        }
        off += part;
    }
    hs_nees_session_destroy(&s);
    return 0;
}
