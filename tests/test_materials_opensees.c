/* steel01, steel02, elastic_pp_gap, elastic (Eneg), elastic_pp, concrete01, concrete02,
 * hysteretic, elastic_bilin, hysteretic_poly, hysteretic_smooth, hysteretic_asym, ratchet,
 * steel_brb, bwbn and bouc_wen_infill against OpenSees itself (OPENSEES=/path/to/OpenSees; skips
 * with a message otherwise). Each OpenSees material sits in a zeroLength element whose free node is
 * driven by a single-point constraint through the same strain history (one static step per strain,
 * committed); a second, unloaded spring keeps the system non-empty. The strains OpenSees actually
 * imposed are read back
 * (%.17g) and fed to hysim's material, step by step committed; the stresses must agree to 1e-12 of
 * the case's peak stress. A material whose law also runs over fiber arrays (material_fibers.h:
 * Steel02, Concrete02, as the fiber sections run them) is driven there too, six fibers in one call,
 * fiber j the same history j steps later (at rest before), so that the fibers of a call take
 * different branches; to the same 1e-12. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include "hs_test.h"

#include "model/material_fibers.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NSTEP 400

static const double PI = 3.14159265358979323846;

typedef struct os_case {
    const char *tcl;  /* uniaxialMaterial arguments (tag 1) */
    const char *type; /* hysim type */
    const char *opts; /* hysim options "key value key value ..." (value "s:" for strings) */
    double scale;     /* strain scale of the history (about 4 yield strains) */
    double k;         /* elastic stiffness */
} os_case;

static const os_case CASES[] = {
    {"Steel01 1 50.0 29000.0 0.02", "steel01", "fy 50 E0 29000 b 0.02", 0.007, 29000.0},
    {"Steel01 1 50.0 29000.0 0.02 0.05 2.0 0.04 3.0", "steel01",
     "fy 50 E0 29000 b 0.02 a1 0.05 a2 2 a3 0.04 a4 3", 0.007, 29000.0},
    {"Steel02 1 50.0 29000.0 0.02", "steel02", "fy 50 E0 29000 b 0.02", 0.007, 29000.0},
    {"Steel02 1 60.0 30000.0 0.01 18.0 0.9 0.2", "steel02",
     "fy 60 E0 30000 b 0.01 R0 18 cR1 0.9 cR2 0.2", 0.008, 30000.0},
    {"Steel02 1 50.0 29000.0 0.02 20.0 0.925 0.15 0.05 2.0 0.04 3.0", "steel02",
     "fy 50 E0 29000 b 0.02 R0 20 cR1 0.925 cR2 0.15 a1 0.05 a2 2 a3 0.04 a4 3", 0.007, 29000.0},
    {"Steel02 1 50.0 29000.0 0.02 20.0 0.925 0.15 0.0 1.0 0.0 1.0 20.0", "steel02",
     "fy 50 E0 29000 b 0.02 R0 20 cR1 0.925 cR2 0.15 sig_init 20", 0.007, 29000.0},
    {"ElasticPPGap 1 100.0 10.0 0.05", "elastic_pp_gap", "E 100 fy 10 gap 0.05", 0.4, 100.0},
    {"ElasticPPGap 1 100.0 10.0 0.05 0.1 damage", "elastic_pp_gap",
     "E 100 fy 10 gap 0.05 eta 0.1 damage s:damage", 0.4, 100.0},
    {"ElasticPPGap 1 100.0 -10.0 -0.05 0.05", "elastic_pp_gap", "E 100 fy -10 gap -0.05 eta 0.05",
     0.4, 100.0},
    {"Elastic 1 3000.0 0.0 1200.0", "elastic", "k 3000 Eneg 1200", 0.01, 3000.0},
    {"ElasticPP 1 29000.0 0.002", "elastic_pp", "E 29000 epsyP 0.002", 0.007, 29000.0},
    {"ElasticPP 1 29000.0 0.002 -0.0015 0.0004", "elastic_pp",
     "E 29000 epsyP 0.002 epsyN -0.0015 eps0 0.0004", 0.007, 29000.0},
    /* concrete: the drift is towards tension, so the history is mirrored (negative scale) to
     * crush the concrete and then open cracks */
    {"Concrete01 1 -4.0 -0.002 -0.8 -0.006", "concrete01",
     "fpc -4 epsc0 -0.002 fpcu -0.8 epscu -0.006", -0.004, 4000.0},
    {"Concrete01 1 5.0 0.0025 1.0 0.01", "concrete01", "fpc 5 epsc0 0.0025 fpcu 1 epscu 0.01",
     -0.007, 4000.0},
    {"Concrete02 1 -4.0 -0.002 -0.8 -0.006", "concrete02",
     "fc -4 epsc0 -0.002 fcu -0.8 epscu -0.006", -0.004, 4000.0},
    {"Concrete02 1 -5.0 -0.0025 -1.0 -0.01 0.15 0.5 300.0", "concrete02",
     "fc -5 epsc0 -0.0025 fcu -1 epscu -0.01 lambda 0.15 ft 0.5 Ets 300", -0.006, 4000.0},
    /* Ets = 0: no tension softening (a plateau at ft), or no tension at all with ft = 0 (the
     * census's Test-BoucWenInfill.tcl) */
    {"Concrete02 1 -5.0 -0.0025 -1.0 -0.01 0.15 0.5 0.0", "concrete02",
     "fc -5 epsc0 -0.0025 fcu -1 epscu -0.01 lambda 0.15 ft 0.5 Ets 0", -0.006, 4000.0},
    {"Concrete02 1 -0.035 -0.002 -0.028 -0.01 0.10 0.00 0.0", "concrete02",
     "fc -0.035 epsc0 -0.002 fcu -0.028 epscu -0.01 lambda 0.1 ft 0 Ets 0", -0.006, 35.0},
    /* ConcretewBeta: plain envelopes; the census's BiaxialConcrete_matTest.tcl material (ksi,
     * -beta given: no transverse strain reaches a plain uniaxial material, as here) */
    {"ConcretewBeta 1 -4.0 -0.002 -0.04 -0.004 0.0 -0.02 0.4 0.004 0.0004 0.0 0.01",
     "concrete_w_beta",
     "fpc -4 ec0 -0.002 fcint -0.04 ecint -0.004 fcres 0 ecres -0.02 ft 0.4 ftint 0.004 etint "
     "0.0004 ftres 0 etres 0.01",
     -0.004, 4000.0},
    {"ConcretewBeta 1 -5.8 -0.002 -0.058 -0.004 0.0 -1.0 0.3046 0.003046 0.00028 0.0 1.0 -beta "
     "0.3 0.01 0.1 0.025 -alpha 0.5 -lambda 0.5 -E 4341.0",
     "concrete_w_beta",
     "fpc -5.8 ec0 -0.002 fcint -0.058 ecint -0.004 fcres 0 ecres -1 ft 0.3046 ftint 0.003046 "
     "etint 0.00028 ftres 0 etres 1 bint 0.3 etbint 0.01 bres 0.1 etbres 0.025 alpha 0.5 lambda "
     "0.5 E 4341",
     -0.005, 4341.0},
    {"Hysteretic 1 50.0 0.002 60.0 0.01 -50.0 -0.002 -60.0 -0.01 0.8 0.2 0.01 0.01", "hysteretic",
     "s1p 50 e1p 0.002 s2p 60 e2p 0.01 s1n -50 e1n -0.002 s2n -60 e2n -0.01 pinchX 0.8 "
     "pinchY 0.2 damage1 0.01 damage2 0.01",
     0.008, 25000.0},
    {"Hysteretic 1 50.0 0.002 60.0 0.006 45.0 0.02 -50.0 -0.002 -65.0 -0.005 -40.0 -0.03 0.6 0.3 "
     "0.02 0.05 0.4",
     "hysteretic",
     "s1p 50 e1p 0.002 s2p 60 e2p 0.006 s3p 45 e3p 0.02 s1n -50 e1n -0.002 s2n -65 e2n -0.005 "
     "s3n -40 e3n -0.03 pinchX 0.6 pinchY 0.3 damage1 0.02 damage2 0.05 beta 0.4",
     0.008, 25000.0},
    {"ElasticBilin 1 1000.0 100.0 0.002", "elastic_bilin", "E1p 1000 E2p 100 eps2p 0.002", 0.004,
     1000.0},
    {"ElasticBilin 1 1000.0 100.0 -0.002 800.0 -50.0 0.001", "elastic_bilin",
     "E1p 1000 E2p 100 eps2p -0.002 E1n 800 E2n -50 eps2n 0.001", 0.004, 1000.0},
    /* the census's test-HystereticPoly.tcl and a softer one with the default tol */
    {"HystereticPoly 1 100.0 10.0 20.0 -10.0 10.0 1.0e-8", "hysteretic_poly",
     "ka 100 kb 10 a 20 b1 -10 b2 10 tol 1e-8", 0.5, 100.0},
    {"HystereticPoly 1 50.0 2.0 1.5 3.0 -1.0", "hysteretic_poly", "ka 50 kb 2 a 1.5 b1 3 b2 -1",
     0.6, 50.0},
    /* the census's test-HystereticSmooth.tcl and test-HystereticAsym.tcl, and their -alpha forms */
    {"HystereticSmooth 1 5.0 0.5 0.45 1.0", "hysteretic_smooth", "ka 5 kb 0.5 fbar 0.45 beta 1",
     0.8, 5.0},
    {"HystereticSmooth 1 5.0 0.2 4.0 0.5 -alpha", "hysteretic_smooth",
     "ka 5 kb 0.2 alpha 4 beta 0.5", 0.8, 5.0},
    {"HystereticAsym 1 5.0 0.5 0.45 1.5 1.0 0.3", "hysteretic_asym",
     "ka 5 kb 0.5 fo 0.45 b1 1.5 b2 1 gamma 0.3", 0.8, 5.0},
    {"HystereticAsym 1 6.0 0.4 5.0 0.8 1.2 -0.2 -alpha", "hysteretic_asym",
     "ka 6 kb 0.4 alpha 5 b1 0.8 b2 1.2 gamma -0.2", 0.8, 6.0},
    /* the census's RatchetTest.tcl (RatType 2) and the toothed form */
    {"Ratchet 1 1000000.0 0.004 0.0 2", "ratchet",
     "E 1000000 freeTravel 0.004 freeTravelInitial 0 RatType 2", 0.01, 1.0e6},
    {"Ratchet 1 1000.0 0.0015 0.0005 1", "ratchet",
     "E 1000 freeTravel 0.0015 freeTravelInitial 0.0005 RatType 1", 0.006, 1000.0},
    /* the census's SteelBRB.tcl and one with alpha > 2 and the tolerance given */
    {"SteelBRB 1 190000.0 275.0 440.0 0.8 0.01 0.80 528.0 0.6 0.02 1.00", "steel_brb",
     "E 190000 sigmaY0 275 sigmaY_T 440 alpha_T 0.8 beta_T 0.01 delta_T 0.8 sigmaY_C 528 "
     "alpha_C 0.6 beta_C 0.02 delta_C 1",
     0.01, 190000.0},
    {"SteelBRB 1 200000.0 250.0 350.0 4.0 0.02 0.05 400.0 6.0 0.03 0.08 1.0e-13", "steel_brb",
     "E 200000 sigmaY0 250 sigmaY_T 350 alpha_T 4 beta_T 0.02 delta_T 0.05 sigmaY_C 400 "
     "alpha_C 6 beta_C 0.03 delta_C 0.08 tol 1e-13",
     0.006, 200000.0},
    /* the census's BWBN.tcl and a pinched one with n = 2 */
    {"BWBN 1 0.03 24.877 1 0.1 0.5 1 0.4 0.9 1 0.2 0.001 0.05 1e-6 1000", "bwbn",
     "alpha 0.03 ko 24.877 n 1 gamma 0.1 beta 0.5 Ao 1 q 0.4 zetas 0.9 p 1 Shi 0.2 deltaShi 0.001 "
     "lamda 0.05 tolerance 1e-6 maxNumIter 1000",
     5.0, 24.877},
    {"BWBN 1 0.05 100.0 2 0.4 0.6 1 0.2 0.8 2 0.3 0.01 0.2 1e-12 50", "bwbn",
     "alpha 0.05 ko 100 n 2 gamma 0.4 beta 0.6 Ao 1 q 0.2 zetas 0.8 p 2 Shi 0.3 deltaShi 0.01 "
     "lamda 0.2 tolerance 1e-12 maxNumIter 50",
     4.0, 100.0},
    /* the census's Test-BoucWenInfill.tcl */
    {"BoucWenInfill 1 7416 0.003 0.295 0.2 1.5 153 1.8627 0.023 0.0011 0.001 0.17 5.8 0.21 "
     "1.0e-05 1000000",
     "bouc_wen_infill",
     "mass 7416 alpha 0.003 beta0 0.295 eta0 0.2 n 1.5 k 153 xy 1.8627 deltak 0.023 deltaf "
     "0.0011 psi 0.001 Zs 0.17 As 5.8 epsp 0.21 tolerance 1e-5 maxNumIter 1000000",
     8.0, 153.0},
};
#define NCASES (sizeof CASES / sizeof CASES[0])

/* The strain history in units of `scale`: growing cycles with a drift, partial unloadings and
 * one step that stays put. */
static double history(int i)
{
    const double t = (double)i / NSTEP;
    return (0.15 + 1.1 * t) * sin(2.0 * PI * 5.3 * t) + 0.3 * sin(2.0 * PI * 23.0 * t) * t +
           0.2 * t;
}

static void write_script(const char *path, const char *out)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "set out [open {%s} w]\n", out);
    for (size_t c = 0; c < NCASES; c++) {
        fprintf(f,
                "wipe\nmodel basic -ndm 1 -ndf 1\nnode 1 0.0\nnode 2 0.0\nnode 3 0.0\nfix 1 1\n"
                "uniaxialMaterial %s\nuniaxialMaterial Elastic 2 1.0\n"
                "element zeroLength 1 1 2 -mat 1 -dir 1\nelement zeroLength 2 1 3 -mat 2 -dir 1\n"
                "timeSeries Linear 1\npattern Plain 1 1 { sp 2 1 1.0 }\n"
                "constraints Transformation\nnumberer Plain\nsystem FullGeneral\nalgorithm Linear\n"
                "set hist {",
                CASES[c].tcl);
        for (int i = 1; i <= NSTEP; i++)
            fprintf(f, " %.17g", (i == NSTEP / 2 ? history(i - 1) : history(i)) * CASES[c].scale);
        fprintf(f,
                "}\nforeach e $hist {\n"
                "  integrator LoadControl [expr {$e - [getTime]}]\n  analysis Static\n"
                "  if {[analyze 1] != 0} { puts $out \"FAIL\" }\n"
                "  puts $out \"%zu [format %%.17g [nodeDisp 2 1]] "
                "[lindex [eleResponse 1 material 1 stress] 0]\"\n}\n",
                c);
    }
    fprintf(f, "close $out\n");
    fclose(f);
}

/* Runs OpenSees on the script (output to log) with a 120 s bound; 0 when it exited 0. */
static int run_opensees(const char *exe, const char *dir, const char *script, const char *log)
{
    fflush(stdout);
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (chdir(dir) != 0) _exit(126);
        const int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        execl(exe, exe, script, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    for (int k = 0; k < 6000; k++) {
        if (waitpid(pid, &status, WNOHANG) == pid)
            return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
        nanosleep(&(struct timespec){0, 20000000}, NULL);
    }
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    print_message("    OpenSees did not finish within 120 s\n");
    return 1;
}

static hs_material *make_case(const os_case *c)
{
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    char buf[512], *save = NULL;
    snprintf(buf, sizeof buf, "%s", c->opts);
    for (char *k = strtok_r(buf, " ", &save); k; k = strtok_r(NULL, " ", &save)) {
        const char *v = strtok_r(NULL, " ", &save);
        assert_non_null(v);
        if (!strncmp(v, "s:", 2))
            hs_options_set_str(o, k, v + 2);
        else
            hs_options_set_num(o, k, strtod(v, NULL));
    }
    hs_material *m = NULL;
    assert_int_equal(hs_material_create(NULL, c->type, o, &m), 0);
    hs_options_destroy(&o);
    return m;
}

/* The largest difference from OpenSees' stresses of case c's law over fiber arrays (NFIB fibers,
 * fiber j delayed by j steps), -1 when the material has no such law. */
static double fiber_law_worst(const os_case *c, const double *strain, const double *stress)
{
    enum { NFIB = 6, MAXS = 32 };
    hs_material *m = make_case(c);
    hs_fiber_law law;
    double one[MAXS], cs[MAXS * NFIB], ts[MAXS * NFIB], e[NFIB], s[NFIB], k[NFIB], worst = -1.0;
    if (hs_material_fiber_law(m, &law, NULL)) {
        assert_true(law.state_n <= MAXS);
        hs_material_fiber_law(m, &law, one);
        for (size_t j = 0; j < NFIB; j++)
            for (size_t v = 0; v < law.state_n; v++)
                cs[law.rows ? v * NFIB + j : j * law.state_n + v] = one[v];
        worst = 0.0;
        for (int i = 0; i < NSTEP + NFIB - 1; i++) {
            for (int j = 0; j < NFIB; j++) {
                const int at = i - j;
                e[j] = at < 0 ? 0.0 : strain[at < NSTEP ? at : NSTEP - 1];
            }
            law.trial(law.params, NFIB, NFIB, e, cs, ts, s, k);
            for (int j = 0; j < NFIB; j++)
                if (i - j >= 0 && i - j < NSTEP) worst = fmax(worst, fabs(s[j] - stress[i - j]));
            memcpy(cs, ts, law.state_n * NFIB * sizeof(double)); /* commit */
        }
    }
    hs_material_destroy(&m);
    return worst;
}

static void test_against_opensees(void **state)
{
    (void)state;
    const char *exe = getenv("OPENSEES");
    if (!exe || !exe[0]) {
        print_message(
            "    SKIP: no OpenSees (set OPENSEES=/path/to/OpenSees to compare hysim's "
            "materials with OpenSees' Steel01, Steel02, ElasticPPGap, Elastic, ElasticPP, "
            "Concrete01, Concrete02, Hysteretic, ElasticBilin, HystereticPoly, HystereticSmooth, "
            "HystereticAsym, Ratchet, SteelBRB, BWBN, BoucWenInfill)\n");
        skip();
    }
    if (access(exe, X_OK) != 0) {
        print_message("    SKIP: OPENSEES=%s is not an executable\n", exe);
        skip();
    }
    char dir[] = "/tmp/hs_steel_os_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char script[64], out[64], log[64];
    snprintf(script, sizeof script, "%s/drive.tcl", dir);
    snprintf(out, sizeof out, "%s/stress.txt", dir);
    snprintf(log, sizeof log, "%s/opensees.log", dir);
    write_script(script, out);
    const int rc = run_opensees(exe, dir, script, log);
    static double strain[NCASES][NSTEP], stress[NCASES][NSTEP];
    int count[NCASES] = {0}, bad_lines = 0;
    FILE *f = fopen(out, "r");
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f)) {
            unsigned c;
            double e, s;
            if (sscanf(line, "%u %lf %lf", &c, &e, &s) != 3 || c >= NCASES || count[c] >= NSTEP) {
                bad_lines++;
                continue;
            }
            strain[c][count[c]] = e;
            stress[c][count[c]++] = s;
        }
        fclose(f);
    }
    if (rc || bad_lines) {
        char text[512] = "";
        FILE *l = fopen(log, "r");
        if (l) {
            const size_t n = fread(text, 1, sizeof text - 1, l);
            text[n] = 0;
            fclose(l);
        }
        print_message("    OpenSees failed (exit %d, %d bad lines); its log begins:\n%s\n", rc,
                      bad_lines, text);
    }
    unlink(script);
    unlink(out);
    unlink(log);
    rmdir(dir);
    assert_int_equal(rc, 0);
    assert_int_equal(bad_lines, 0);
    for (size_t c = 0; c < NCASES; c++) {
        assert_int_equal(count[c], NSTEP);
        hs_material *m = make_case(&CASES[c]);
        double peak = 0.0, worst = 0.0;
        int yielded = 0;
        for (int i = 0; i < NSTEP; i++) peak = fmax(peak, fabs(stress[c][i]));
        for (int i = 0; i < NSTEP; i++) {
            assert_int_equal(hs_material_set_trial(m, strain[c][i], 0.0), 0);
            assert_int_equal(hs_material_commit(m), 0);
            worst = fmax(worst, fabs(hs_material_stress(m) - stress[c][i]));
            yielded += hs_material_tangent(m) < 0.5 * CASES[c].k;
        }
        print_message("    %-62s %d steps (%d off the elastic slope): largest difference %.3g "
                      "(%.2g of the peak %.4g)\n",
                      CASES[c].tcl, NSTEP, yielded, worst, worst / peak, peak);
        assert_true(peak > 0.0 && yielded > NSTEP / 20);
        assert_true(worst <= 1e-12 * peak);
        const double fibers = fiber_law_worst(&CASES[c], strain[c], stress[c]);
        if (fibers >= 0.0) {
            print_message("    %-62s over fiber arrays: largest difference %.3g (%.2g of the "
                          "peak)\n",
                          "", fibers, fibers / peak);
            assert_true(fibers <= 1e-12 * peak);
        }
        hs_material_destroy(&m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_opensees),
    };
    return cmocka_run_group_tests_name("materials_opensees", tests, NULL, NULL);
}
