/* `uniaxialMaterial TYPE tag args...` onto hysim's registered materials, with OpenSees 3.x's
 * argument order and counts; the optional arguments OpenSees leaves out take OpenSees' defaults,
 * which hysim's materials share (docs/opensees_tcl.md lists each mapping). */
#include "opensees_tcl.h"

#include <string.h>

/* One OpenSees material: its hysim type, the hysim names of its positional numbers in
 * OpenSees' order, and the argument counts (after the tag) that OpenSees accepts. */
typedef struct material_map {
    const char *opensees, *hysim;
    const char *params[18];
    int counts[5]; /* accepted counts, 0-terminated */
    const char *usage;
} material_map;

/* The options after the numbers of the materials that have them, each "-flag name1 name2 ..."
 * (in any order, as OpenSees' parsers read them). */
static const struct {
    const char *opensees;
    const char *flags[7];
} material_options[] = {
    {"ConcretewBeta",
     {"-lambda lambda", "-alpha alpha", "-beta bint etbint bres etbres", "-M M", "-E E",
      "-conf fcc ecc", NULL}},
};

static const material_map maps[] = {
    {"Elastic", "elastic", {"k", "eta", "Eneg"}, {1, 2, 3, 0}, "Elastic tag E <eta> <Eneg>"},
    {"Steel01",
     "steel01",
     {"fy", "E0", "b", "a1", "a2", "a3", "a4"},
     {3, 7, 0},
     "Steel01 tag Fy E0 b <a1 a2 a3 a4>"},
    {"Steel02",
     "steel02",
     {"fy", "E0", "b", "R0", "cR1", "cR2", "a1", "a2", "a3", "a4", "sig_init"},
     {3, 6, 10, 11, 0},
     "Steel02 tag Fy E0 b <R0 cR1 cR2 <a1 a2 a3 a4 <sigInit>>>"},
    {"BoucWen",
     "bouc_wen",
     {"alpha", "k0", "n", "gamma", "beta", "A0", "delta_a", "delta_nu", "delta_eta", "tol",
      "maxIter"},
     {9, 10, 11, 0},
     "BoucWen tag alpha ko n gamma beta Ao deltaA deltaNu deltaEta <tol maxIter>"},
    {"ElasticPPGap",
     "elastic_pp_gap",
     {"E", "fy", "gap", "eta", "damage"},
     {3, 4, 5, 0},
     "ElasticPPGap tag E Fy gap <eta> <damage>"},
    {"Viscous", "viscous", {"c", "alpha", "v_reg"}, {2, 3, 0}, "Viscous tag C alpha <minVel>"},
    {"ElasticPP",
     "elastic_pp",
     {"E", "epsyP", "epsyN", "eps0"},
     {2, 3, 4, 0},
     "ElasticPP tag E epsyP <epsyN eps0>"},
    {"Concrete01",
     "concrete01",
     {"fpc", "epsc0", "fpcu", "epscu"},
     {4, 0},
     "Concrete01 tag fpc epsc0 fpcu epsU"},
    {"Concrete02",
     "concrete02",
     {"fc", "epsc0", "fcu", "epscu", "lambda", "ft", "Ets"},
     {4, 7, 0},
     "Concrete02 tag fpc epsc0 fpcu epsU <lambda ft Ets>"},
    /* Hysteretic's two forms: two-point and three-point backbones */
    {"Hysteretic",
     "hysteretic",
     {"s1p", "e1p", "s2p", "e2p", "s1n", "e1n", "s2n", "e2n", "pinchX", "pinchY", "damage1",
      "damage2", "beta"},
     {12, 13, 0},
     "Hysteretic tag s1p e1p s2p e2p <s3p e3p> s1n e1n s2n e2n <s3n e3n> pinchX pinchY damage1 "
     "damage2 <beta>"},
    {"Hysteretic",
     "hysteretic",
     {"s1p", "e1p", "s2p", "e2p", "s3p", "e3p", "s1n", "e1n", "s2n", "e2n", "s3n", "e3n", "pinchX",
      "pinchY", "damage1", "damage2", "beta"},
     {16, 17, 0},
     "Hysteretic tag s1p e1p s2p e2p <s3p e3p> s1n e1n s2n e2n <s3n e3n> pinchX pinchY damage1 "
     "damage2 <beta>"},
    {"ElasticBilin",
     "elastic_bilin",
     {"E1p", "E2p", "eps2p", "E1n", "E2n", "eps2n"},
     {3, 6, 0},
     "ElasticBilin tag E1P E2P eps2P <E1N E2N eps2N>"},
    {"HystereticPoly",
     "hysteretic_poly",
     {"ka", "kb", "a", "b1", "b2", "tol"},
     {5, 6, 0},
     "HystereticPoly tag ka kb a b1 b2 <tol>"},
    /* (-alpha after the numbers: the third number is alpha, not the band's height) */
    {"HystereticSmooth",
     "hysteretic_smooth",
     {"ka", "kb", "fbar", "beta"},
     {4, 0},
     "HystereticSmooth tag ka kb fbar beta <-alpha>"},
    {"HystereticAsym",
     "hysteretic_asym",
     {"ka", "kb", "fo", "b1", "b2", "gamma"},
     {6, 0},
     "HystereticAsym tag ka kb fo b1 b2 gamma <-alpha>"},
    {"Ratchet",
     "ratchet",
     {"E", "freeTravel", "freeTravelInitial", "RatType"},
     {4, 0},
     "Ratchet tag E freeTravel freeTravelInitial RatType"},
    {"SteelBRB",
     "steel_brb",
     {"E", "sigmaY0", "sigmaY_T", "alpha_T", "beta_T", "delta_T", "sigmaY_C", "alpha_C", "beta_C",
      "delta_C", "tol"},
     {10, 11, 0},
     "SteelBRB tag E sigmaY0 sigmaY_T alpha_T beta_T delta_T sigmaY_C alpha_C beta_C delta_C "
     "<Tol>"},
    {"ConcretewBeta",
     "concrete_w_beta",
     {"fpc", "ec0", "fcint", "ecint", "fcres", "ecres", "ft", "ftint", "etint", "ftres", "etres"},
     {11, 0},
     "ConcretewBeta tag fpc ec0 fcint ecint fcres ecres ft ftint etint ftres etres <-lambda l> "
     "<-alpha a> <-beta bint ebint bres ebres> <-M m> <-E E> <-conf fcc ecc>"},
    {"BWBN",
     "bwbn",
     {"alpha", "ko", "n", "gamma", "beta", "Ao", "q", "zetas", "p", "Shi", "deltaShi", "lamda",
      "tolerance", "maxNumIter"},
     {14, 0},
     "BWBN tag alpha ko n gamma beta Ao q zetas p Shi deltaShi lamda tolerance maxNumIter"},
    {"BoucWenInfill",
     "bouc_wen_infill",
     {"mass", "alpha", "beta0", "eta0", "n", "k", "xy", "deltak", "deltaf", "psi", "Zs", "As",
      "epsp", "tolerance", "maxNumIter"},
     {15, 0},
     "BoucWenInfill tag mass alpha beta0 eta0 n k xy deltak deltaf psi Zs As epsp tol "
     "maxNumIter"},
};

/* 1 when OpenSees accepts nargs numbers after the tag for this form. */
static int count_fits(const material_map *mm, int nargs)
{
    for (int k = 0; mm->counts[k]; k++)
        if (mm->counts[k] == nargs) return 1;
    return 0;
}

/* The option of material mm that `word` is ("-beta bint ..."), or NULL. */
static const char *flag_of(const material_map *mm, const char *word)
{
    const size_t n = strlen(word);
    for (size_t i = 0; i < sizeof material_options / sizeof material_options[0]; i++) {
        if (strcmp(material_options[i].opensees, mm->opensees) != 0) continue;
        for (int k = 0; k < 7 && material_options[i].flags[k]; k++) {
            const char *f = material_options[i].flags[k];
            if (strncmp(f, word, n) == 0 && f[n] == ' ') return f;
        }
    }
    return NULL;
}

/* The OpenSees names of the table, each once, comma-separated, into buf. */
static const char *known_types(char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = 0;
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
        if (i > 0 && strcmp(maps[i].opensees, maps[i - 1].opensees) == 0) continue;
        const int n = snprintf(buf + len, size - len, "%s%s", len ? ", " : "", maps[i].opensees);
        if (n < 0 || (size_t)n >= size - len) break;
        len += (size_t)n;
    }
    return buf;
}

/* The arguments OpenSees accepts that hysim's material does not have: only their OpenSees
 * default (the same law) is allowed. */
static int fixed_value(hs_os_state *st, Tcl_Obj *const objv[], const char *name, double v)
{
    if (strcmp(name, "tol") == 0 && v != 1e-8)
        return hs_os_fail(st, objv,
                          "tolerance %g: hysim's Bouc-Wen solves its local equation to "
                          "1e-8 (OpenSees' default); leave it out",
                          v);
    if (strcmp(name, "maxIter") == 0 && v != 20.0)
        return hs_os_fail(st, objv,
                          "maxNumIter %g: hysim's Bouc-Wen iterates at most 20 times "
                          "(OpenSees' default); leave it out",
                          v);
    return TCL_OK;
}

int hs_os_cmd_uniaxial_material(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[])
{
    hs_os_state *st = cd;
    if (objc < 3) return hs_os_fail(st, objv, "expected 'uniaxialMaterial type tag args...'");
    const char *type = Tcl_GetString(objv[1]);
    int nargs = objc - 3;
    /* HystereticSmooth / HystereticAsym ... -alpha: the third number is alpha */
    const int alpha_flag = nargs > 0 && strcmp(Tcl_GetString(objv[objc - 1]), "-alpha") == 0 &&
                           (!strcmp(type, "HystereticSmooth") || !strcmp(type, "HystereticAsym"));
    nargs -= alpha_flag;
    const material_map *mm = NULL;
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
        if (strcmp(type, maps[i].opensees) == 0 && (!mm || count_fits(&maps[i], nargs)))
            mm = &maps[i];
    if (!mm && strcmp(type, "EPPGap") == 0) mm = &maps[4];
    if (!mm) {
        char list[512];
        return hs_os_fail(st, objv, "type '%s' is not supported by hysim (it has %s)", type,
                          known_types(list, sizeof list));
    }
    int tag;
    if (hs_os_int(st, objv, 2, "tag", &tag)) return TCL_ERROR;
    if (hs_os_find_material(st->m, tag))
        return hs_os_fail(st, objv, "uniaxialMaterial %d is already defined", tag);
    int first_flag = objc; /* the options after the numbers (mm->flags) */
    for (int i = 3; i < objc; i++)
        if (flag_of(mm, Tcl_GetString(objv[i]))) {
            first_flag = i;
            nargs = i - 3;
            break;
        }
    if (!count_fits(mm, nargs))
        return hs_os_fail(st, objv, "%d arguments after the tag; expected uniaxialMaterial %s",
                          nargs, mm->usage);
    hs_options *opts = NULL;
    if (hs_options_create(&opts)) return hs_os_fail(st, objv, "out of memory");
    int rc = TCL_OK;
    for (int i = 0; i < nargs && rc == TCL_OK; i++) {
        const char *name = alpha_flag && i == 2 ? "alpha" : mm->params[i];
        if (strcmp(name, "damage") == 0) {
            const char *s = Tcl_GetString(objv[3 + i]);
            /* OpenSees: "damage" or "Damage" accumulates, anything else does not */
            const int damage = strcmp(s, "damage") == 0 || strcmp(s, "Damage") == 0;
            if (hs_options_set_str(opts, "damage", damage ? "damage" : "noDamage"))
                rc = hs_os_fail(st, objv, "out of memory");
            continue;
        }
        double v;
        rc = hs_os_num(st, objv, 3 + i, name, &v);
        if (rc) break;
        if (!strcmp(mm->hysim, "bouc_wen") && (!strcmp(name, "tol") || !strcmp(name, "maxIter"))) {
            rc = fixed_value(st, objv, name, v);
            continue;
        }
        if (hs_options_set_num(opts, name, v)) rc = hs_os_fail(st, objv, "out of memory");
    }
    for (int i = first_flag; i < objc && rc == TCL_OK;) {
        const char *f = flag_of(mm, Tcl_GetString(objv[i]));
        if (!f) {
            rc = hs_os_fail(st, objv, "option '%s' is not known; expected uniaxialMaterial %s",
                            Tcl_GetString(objv[i]), mm->usage);
            break;
        }
        i++;
        for (const char *w = strchr(f, ' '); w && rc == TCL_OK; w = strchr(w + 1, ' ')) {
            char name[32];
            const size_t len = strcspn(w + 1, " ");
            snprintf(name, sizeof name, "%.*s", (int)len, w + 1);
            double v;
            if (i >= objc) {
                rc = hs_os_fail(st, objv, "%s: expected %s", Tcl_GetString(objv[i - 1]), f);
                break;
            }
            rc = hs_os_num(st, objv, i++, name, &v);
            if (!rc && hs_options_set_num(opts, name, v))
                rc = hs_os_fail(st, objv, "out of memory");
        }
    }
    /* hysim checks the values (fy > 0, 0 <= b < 1, ...) as for the test file's materials */
    hs_material *probe = NULL;
    if (rc == TCL_OK && hs_material_create(st->ctx, mm->hysim, opts, &probe) != 0) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s", hs_ctx_message(st->ctx));
        rc = hs_os_fail(st, objv, "%s", msg);
    }
    hs_material_destroy(&probe);
    hs_os_material *m = NULL;
    if (rc == TCL_OK && !(m = hs_os_push((void **)&st->m->mats, &st->m->nmats, sizeof *m)))
        rc = hs_os_fail(st, objv, "out of memory");
    if (rc != TCL_OK) {
        hs_options_destroy(&opts);
        return TCL_ERROR;
    }
    m->tag = tag;
    m->type = mm->hysim;
    m->opts = opts;
    hs_os_where(st, m->where, sizeof m->where);
    Tcl_ResetResult(interp);
    return TCL_OK;
}
