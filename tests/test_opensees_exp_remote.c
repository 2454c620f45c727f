/* OpenFresco's networked sites in a script (src/opensees/opensees_tcl_exp_remote.c):
 *  - an experimental twoNodeLink on `expSite ShadowSite` whose server, written here from
 *    hysim's protocol B server session (hs_ofr_server, the ActorSite side) over a Steel01 law,
 *    gives the same displacements, step by step, as the same element on a LocalSite with that
 *    Steel01 as its SimUniaxialMaterials specimen (the script runs both and compares them
 *    itself, to 1e-12 of the peak); the server sees one trial and one commit per step and the
 *    end (99);
 *  - the refusals, each with the script's FILE:LINE and what to do. */
#include "hs_output.h"
#include "hs_ofr_serve.h"
#include "hs_loopback.h"
#include "hs_test.h"
#include "hs_tcl_def.h"

#include "hysim/material.h"
#include "hysim/nees.h"
#include "hysim/openfresco.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* The ActorSite: Steel01 (Fy 1.5, E0 2.8, b 0.01) driven to the trial displacement. */
typedef struct actor {
    int lfd, proto; /* HS_OFR_PROTO_B: an ActorSite; HS_OFR_PROTO_A: a GenericTCP controller */
    hs_material *mat;
    int trials, commits, closed;
    hs_ofr_stats stats;
} actor;

static int a_set_trial(void *user, const double *disp, const double *vel, const double *accel,
                       double time)
{
    (void)vel, (void)accel, (void)time;
    actor *a = user;
    a->trials++;
    return hs_material_set_trial(a->mat, disp[0], 0.0);
}
static int a_get_disp(void *user, double *out)
{
    out[0] = hs_material_strain(((actor *)user)->mat);
    return 0;
}
static int a_get_force(void *user, double *out)
{
    out[0] = hs_material_stress(((actor *)user)->mat);
    return 0;
}
static int a_commit(void *user, double time)
{
    (void)time;
    actor *a = user;
    a->commits++;
    return hs_material_commit(a->mat);
}
static void a_close(void *user)
{
    ((actor *)user)->closed = 1;
}

static void *actor_main(void *arg)
{
    actor *a = arg;
    struct pollfd lp = {.fd = a->lfd, .events = POLLIN};
    if (poll(&lp, 1, 10000) != 1) return NULL;
    const int fd = accept(a->lfd, NULL, NULL);
    if (fd < 0) return NULL;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_ofr_backend be = {.user = a,
                         .set_trial = a_set_trial,
                         .get_disp = a_get_disp,
                         .get_force = a_get_force,
                         .commit = a_commit,
                         .close = a_close};
    hs_ofr_server_config cfg = {.n = 1, .server_tag = 1};
    hs_ofr_server *srv = NULL;
    hs_ofr_server_create(ctx, (hs_ofr_proto)a->proto, &cfg, &be, &srv);
    hs_ofr_serve_fd(srv, fd, 20000);
    hs_ofr_server_stats(srv, &a->stats);
    hs_ofr_server_destroy(&srv);
    close(fd);
    hs_ctx_destroy(&ctx);
    return NULL;
}

#define NSTEPS 400

/* gm.txt: a support acceleration of 100 in/s^2 at 1.8 Hz, near the frame's 1.9 Hz, for NSTEPS
 * steps of 0.01 s: the column (Steel01, yield at 1.5 / 2.8 = 0.54 in) yields */
static void ground_motion(const char *dir)
{
    static char text[NSTEPS * 24];
    size_t len = 0;
    for (int k = 0; k < NSTEPS; k++)
        len += (size_t)snprintf(text + len, sizeof text - len, "%.17g\n",
                                100.0 * sin(2.0 * acos(-1.0) * 1.8 * 0.01 * k));
    hs_tcl_write_file(dir, "gm.txt", text);
}

/* OneBayFrame's model (OpenFresco's EXAMPLES/OneBayFrame, kip and in) with its left column an
 * experimental twoNodeLink on site 1, driven by a sine of the support (UniformExcitation) with
 * NewmarkExplicit and Linear as the example; `site` the site's definition. The displacements
 * of node 3 are kept in the list `name`. */
static void model(char *out, size_t cap, const char *site, const char *name)
{
    snprintf(out, cap,
             "model BasicBuilder -ndm 2 -ndf 2\n"
             "node 1 0 0; node 2 100 0; node 3 0 54 -mass 0.04 0.04; node 4 100 54 -mass 0.02 "
             "0.02\n"
             "fix 1 1 1; fix 2 1 1; fix 3 0 1; fix 4 0 1\n"
             "uniaxialMaterial Steel01 1 1.5 2.8 0.01\nuniaxialMaterial Elastic 2 5.6\n"
             "uniaxialMaterial Elastic 3 200\n"
             "%s"
             "expElement twoNodeLink 1 1 3 -dir 2 -site 1 -initStif 2.8\n"
             "element twoNodeLink 2 2 4 -mat 2 -dir 2\nelement truss 3 3 4 1.0 3\n"
             "timeSeries Path 1 -filePath gm.txt -dt 0.01\n"
             "pattern UniformExcitation 1 1 -accel 1\nrayleigh 1.01 0 0 0\n"
             "system BandGeneral; numberer Plain; constraints Plain\n"
             "integrator NewmarkExplicit 0.5; algorithm Linear; analysis Transient\n"
             "set %s {}\n"
             "for {set i 0} {$i < %d} {incr i} {\n"
             "  if {[analyze 1 0.01] != 0} { error \"step $i failed\" }\n"
             "  lappend %s [nodeDisp 3 1]\n"
             "}\n",
             site, name, NSTEPS, name);
}

/* dir/frame.tcl and a test file naming only it, loaded, then the script's own analysis run (as
 * `hysim run` runs OpenFresco's scripts: tests/cli/lib/openfresco_cli.sh) */
static int load_bare(hs_ctx *ctx, const char *dir, const char *tcl, hs_test_def **def)
{
    hs_tcl_write_file(dir, "frame.tcl", tcl);
    hs_tcl_write_file(dir, "bare.yaml",
                      "hysim: 1\nname: remote\nunits: {force: kip, length: in, time: s}\n"
                      "structure:\n  model: {opensees: frame.tcl}\n");
    char path[1200];
    snprintf(path, sizeof path, "%s/bare.yaml", dir);
    int rc = hs_testfile_load(ctx, path, def);
    if (!rc) rc = hs_testfile_run_script(ctx, *def, dir);
    return rc;
}

/* The script's own analysis must stop with a message holding `want`. */
static void fails_in_analysis(hs_ctx *ctx, const char *dir, const char *tcl, const char *want)
{
    hs_test_def *def = NULL;
    const int rc = load_bare(ctx, dir, tcl, &def);
    hs_test_def_destroy(&def);
    assert_int_not_equal(rc, 0);
    if (!strstr(hs_ctx_message(ctx), want))
        fail_msg("message '%s' lacks '%s'", hs_ctx_message(ctx), want);
}

/* The LocalSite run (list dl), wipe, the remote run (dr); then the script compares them: equal
 * to 1e-12 of the peak, which must pass 0.6 in (the column yields). */
static void compare_script(char *tcl, size_t cap, const char *local, const char *remote)
{
    snprintf(tcl, cap,
             "%swipeExp\nwipe\n%s"
             "set peak 0.0; set worst 0.0\n"
             "foreach a $dl b $dr {\n"
             "  if {abs($a) > $peak} { set peak [expr abs($a)] }\n"
             "  if {abs($a - $b) > $worst} { set worst [expr abs($a - $b)] }\n"
             "}\n"
             "if {[llength $dr] != %d || $peak < 0.6 || $worst > 1e-12 * $peak} {\n"
             "  error \"remote vs LocalSite: [llength $dr] steps, peak $peak, worst $worst\"\n"
             "}\n"
             "wipeExp\n",
             local, remote, NSTEPS);
}

/* The same element on a LocalSite with Steel01 (its OneActuator setup with the similitude
 * `factors`) and on `site` (a printf format taking the server's port, then the factors), served
 * by hysim's protocol `proto` session over that Steel01: equal to 1e-12 of the peak (the script
 * compares them), one trial and one commit per step and the close seen by the server. */
static void remote_is_local(int proto, const char *factors, const char *site_format)
{
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_exp_remote");
    ground_motion(dir);
    actor a = {.proto = proto};
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "fy", 1.5);
    hs_options_set_num(o, "E0", 2.8);
    hs_options_set_num(o, "b", 0.01);
    assert_int_equal(hs_material_create(ctx, "steel01", o, &a.mat), 0);
    hs_options_destroy(&o);
    int port = 0;
    a.lfd = hs_loopback_listen(&port, 0);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, actor_main, &a), 0);
    static char local[4096], remote[4096], tcl[12288];
    char setup[512];
    snprintf(setup, sizeof setup,
             "expControl SimUniaxialMaterials 1 1\n"
             "expSetup OneActuator 1 -control 1 1 -sizeTrialOut 1 1 %s\nexpSite LocalSite 1 1\n",
             factors);
    model(local, sizeof local, setup, "dl");
    char site[512];
    snprintf(site, sizeof site, site_format, port, factors);
    model(remote, sizeof remote, site, "dr");
    compare_script(tcl, sizeof tcl, local, remote);
    hs_test_def *def = NULL;
    const int rc = load_bare(ctx, dir, tcl, &def);
    pthread_join(th, NULL);
    close(a.lfd);
    if (rc) fail_msg("%s", hs_ctx_message(ctx));
    hs_test_def_destroy(&def);
    /* one trial per step (NewmarkExplicit with Linear restores once) where the link moved, one
     * commit once the site is open: the first step from rest (ground acceleration sin 0 = 0)
     * does not move it, and an element sends no unmoved trial (as OpenFresco's) */
    assert_int_equal(a.trials, NSTEPS - 1);
    assert_int_equal(a.commits, NSTEPS - 1);
    assert_int_equal(a.closed, 1);
    assert_int_equal((int)a.stats.backend_errors, 0);
    hs_material_destroy(&a.mat);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

static void test_shadow_site_is_local_site(void **state)
{
    (void)state;
    remote_is_local(HS_OFR_PROTO_B, "",
                    "expSite ShadowSite 1 \"127.0.0.1\" %d -noDelay -dataSize 256%s\n");
}

/* expControl GenericTCP on a LocalSite whose setup scales: the specimen (here the server's
 * Steel01) sees twice the element's displacement and gives back half its force, on the client
 * side as a LocalSite's setup does with its own control */
static void test_generic_tcp_is_local_site(void **state)
{
    (void)state;
    remote_is_local(HS_OFR_PROTO_A, "-trialDispFact 2.0 -outDispFact 0.5 -outForceFact 0.5",
                    "expControl GenericTCP 2 127.0.0.1 %d -ctrlModes 1 0 0 0 0 -daqModes 1 0 0 1 "
                    "0\nexpSetup OneActuator 1 -control 2 1 -sizeTrialOut 1 1 %s\n"
                    "expSite LocalSite 1 1\n");
}

/* ---- expControl LabVIEW on hysim's NEES lab session ---- */

/* ECLabVIEW's factors in OpenFresco's OneBayFrame/TestLabVIEW: the command is 0.003 of the
 * actuator displacement, the measured displacement 1/0.003 and the force 7/18 of the lab's. */
#define LV_TRIAL 0.003
#define LV_FORCE (7.0 / 18.0)

/* A LabVIEW lab: hysim's NEES session (the lab side, docs/nees.md) over Steel01 in the lab's
 * units (yield 1.5 / LV_FORCE, E0 2.8 / (LV_TRIAL LV_FORCE)), committed at each move. */
typedef struct nees_lab {
    int lfd;
    hs_material *mat;
    int moves, closed;
    double peak; /* the largest |x| moved to */
} nees_lab;

static int send_lines(int fd, const hs_nees_action *a)
{
    for (int i = 0; i < a->nlines; i++)
        if (send(fd, a->line[i], a->len[i], MSG_NOSIGNAL) != (ssize_t)a->len[i]) return -1;
    return 0;
}

static void *nees_lab_main(void *arg)
{
    nees_lab *L = arg;
    struct pollfd lp = {.fd = L->lfd, .events = POLLIN};
    if (poll(&lp, 1, 10000) != 1) return NULL;
    const int fd = accept(L->lfd, NULL, NULL);
    if (fd < 0) return NULL;
    hs_ctx *ctx = NULL;
    hs_ctx_create(&ctx);
    hs_nees_config cfg;
    hs_nees_config_default(&cfg, 1);
    const char *names[1] = {"a1"};
    const double stroke[1] = {0.0};
    hs_nees_session *ses = NULL;
    hs_nees_session_create(ctx, &cfg, 1, names, stroke, &ses);
    static hs_nees_lines in;
    static uint8_t buf[4096];
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int done = !ses;
    while (!done && poll(&p, 1, 20000) == 1) {
        const ssize_t got = recv(fd, buf, sizeof buf, 0);
        if (got <= 0) break;
        size_t off = 0, used = 0;
        while (!done && off < (size_t)got &&
               hs_nees_lines_push(&in, buf + off, (size_t)got - off, &used)) {
            off += used;
            hs_nees_action a, b;
            hs_nees_session_line(ses, in.buf, &a);
            if (a.kind == HS_NEES_ACT_MOVE) {
                L->moves++;
                if (fabs(a.x[0]) > L->peak) L->peak = fabs(a.x[0]);
                hs_material_set_trial(L->mat, a.x[0], 0.0);
                hs_material_commit(L->mat);
                const double x = hs_material_strain(L->mat), f = hs_material_stress(L->mat);
                hs_nees_session_moved(ses, &x, &f, 0, NULL, &b);
                done = send_lines(fd, &b) != 0;
            } else {
                L->closed |= a.kind == HS_NEES_ACT_CLOSE;
                done = send_lines(fd, &a) != 0 || a.kind == HS_NEES_ACT_CLOSE;
            }
        }
    }
    hs_nees_session_destroy(&ses);
    close(fd);
    hs_ctx_destroy(&ctx);
    return NULL;
}

/* The left column on expControl LabVIEW (OneBayFrame/TestLabVIEW's control points, `lim` added
 * to the trial point) served by the NEES lab over the scaled Steel01, and on a LocalSite with
 * the unscaled Steel01: the script compares them (1e-12 of the peak). With `lim`, the analysis
 * must stop with `want` instead. Returns the lab's record through *L. */
static void labview_run(const char *lim, const char *want, nees_lab *L)
{
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_exp_labview");
    ground_motion(dir);
    memset(L, 0, sizeof *L);
    hs_options *o = NULL;
    assert_int_equal(hs_options_create(&o), 0);
    hs_options_set_num(o, "fy", 1.5 / LV_FORCE);
    hs_options_set_num(o, "E0", 2.8 / (LV_TRIAL * LV_FORCE));
    hs_options_set_num(o, "b", 0.01);
    assert_int_equal(hs_material_create(ctx, "steel01", o, &L->mat), 0);
    hs_options_destroy(&o);
    int port = 0;
    L->lfd = hs_loopback_listen(&port, 0);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, nees_lab_main, L), 0);
    static char local[4096], remote[4096], tcl[12288];
    model(local, sizeof local,
          "expControl SimUniaxialMaterials 1 1\n"
          "expSetup OneActuator 1 -control 1 1 -sizeTrialOut 1 1\nexpSite LocalSite 1 1\n",
          "dl");
    char site[1024];
    snprintf(site, sizeof site,
             "expControlPoint 1 -node 3 ux disp -fact %.17g %s\n"
             "expControlPoint 2 -node 3 ux disp -fact [expr 1.0/%.17g] ux force -fact [expr "
             "7.0/18.0]\n"
             "expControl LabVIEW 2 \"127.0.0.1\" %d -trialCP 1 -outCP 2\n"
             "expSetup OneActuator 1 -control 2 1 -sizeTrialOut 1 1\nexpSite LocalSite 1 1\n",
             LV_TRIAL, lim, LV_TRIAL, port);
    model(remote, sizeof remote, site, "dr");
    if (want)
        snprintf(tcl, sizeof tcl, "%s", remote);
    else
        compare_script(tcl, sizeof tcl, local, remote);
    hs_test_def *def = NULL;
    const int rc = load_bare(ctx, dir, tcl, &def);
    char said[2048];
    snprintf(said, sizeof said, "%s", rc ? hs_ctx_message(ctx) : "(none)");
    hs_test_def_destroy(&def); /* closes the session */
    pthread_join(th, NULL);
    close(L->lfd);
    if (!want && rc) fail_msg("%s", said);
    if (want && (!rc || !strstr(said, want))) fail_msg("message '%s' lacks '%s'", said, want);
    hs_material_destroy(&L->mat);
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

static void test_labview_is_local_site(void **state)
{
    (void)state;
    nees_lab L;
    labview_run("-lim -0.01 0.01", NULL, &L);
    /* one move per step where the link moved (the first step from rest does not move it, and
     * an element sends no unmoved trial, as OpenFresco's), the session closed at the end */
    assert_true(L.moves >= NSTEPS - 1);
    assert_int_equal(L.closed, 1);
    assert_true(L.peak > 0.6 * LV_TRIAL && L.peak < 0.01);
}

/* The trial point's -lim, on the factored command: the test stops before the command beyond it
 * is sent (ECLabVIEW would prompt its operator), naming the command, the point and the limits */
static void test_labview_stops_at_its_limits(void **state)
{
    (void)state;
    nees_lab L;
    labview_run("-lim -0.0015 0.0015",
                "beyond its -lim -0.0015 0.0015; ECLabVIEW would ask its operator", &L);
    assert_true(L.moves > 10);
    assert_true(L.peak <= 0.0015);
    assert_int_equal(L.closed, 1);
}

#define HEAD                                                                                       \
    "model BasicBuilder -ndm 2 -ndf 2\n"                                                           \
    "node 1 0 0; node 3 0 54 -mass 0.04 0.04\nfix 1 1 1; fix 3 0 1\n"

static void test_refusals(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    char dir[1024];
    hs_test_make_dir(dir, sizeof dir, "opensees_exp_remote");
    ground_motion(dir);
    /* HEAD has 3 lines: the first command below is line 4 */
    HS_TCL_FAILS(HEAD "expSite ShadowSite 1 127.0.0.1 8090 -ssl\n",
                 "frame.tcl:4: expSite: -ssl: OpenFresco's SSL channel (TCP_SocketSSL) is not in "
                 "hysim",
                 "ssh -L");
    HS_TCL_FAILS(HEAD "expSite RemoteSite 1 127.0.0.1 8090 -udp\n",
                 "frame.tcl:4: expSite: -udp: OpenFresco's UDP channel");
    HS_TCL_FAILS(HEAD "expSite ShadowSite 1 -setup 1 127.0.0.1 8090\n",
                 "frame.tcl:4: expSite: -setup: no expSetup 1 (define it first)");
    HS_TCL_FAILS(HEAD "expSetup TwoActuators2d 1 30.0 30.0 20.0\n"
                      "expSite ShadowSite 1 -setup 1 127.0.0.1 8090\n",
                 "frame.tcl:5: expSite: -setup 1 (TwoActuators2d): hysim's ShadowSite transforms "
                 "on the client side through setups without actuator geometry",
                 "ActorSite -setup");
    HS_TCL_FAILS(HEAD "expSite ShadowSite 1 127.0.0.1 70000\n",
                 "frame.tcl:4: expSite: ipPort 70000: expected 1 to 65535");
    HS_TCL_FAILS(HEAD "expSite ShadowSite 1 127.0.0.1 8090 -dataSize 0\n",
                 "frame.tcl:4: expSite: -dataSize 0: expected a positive size");
    HS_TCL_FAILS(HEAD "expSite ShadowSite 1 127.0.0.1 8090 -foo\n",
                 "frame.tcl:4: expSite: option '-foo' is not supported by hysim (ShadowSite "
                 "knows -noDelay and -dataSize)");
    HS_TCL_FAILS(HEAD "expSite ShadowSite 1\n", "frame.tcl:4: expSite: expected 'expSite "
                                                "ShadowSite tag <-setup setupTag> ipAddr ipPort");
    HS_TCL_FAILS(HEAD "expSite ShadowSite 1 127.0.0.1 8090\nexpSite ShadowSite 1 127.0.0.1 8091\n",
                 "frame.tcl:5: expSite: site 1 is already defined");
    /* one element per networked site */
    HS_TCL_FAILS(HEAD "node 2 100 0; fix 2 1 1; node 4 100 54 -mass 0.02 0.02; fix 4 0 1\n"
                      "expSite ShadowSite 1 127.0.0.1 8090\n"
                      "expElement twoNodeLink 1 1 3 -dir 2 -site 1 -initStif 2.8\n"
                      "expElement twoNodeLink 2 2 4 -dir 2 -site 1 -initStif 2.8\n",
                 "frame.tcl:7: expElement: site 1 already serves element 1: a networked site "
                 "carries one element's vectors");
    /* a test file's own analysis cannot drive it */
    HS_TCL_FAILS(HEAD "expSite ShadowSite 1 127.0.0.1 8090\n"
                      "expElement twoNodeLink 1 1 3 -dir 2 -site 1 -initStif 2.8\n",
                 "frame.tcl:5: element 1 is on a networked site", "only the script's own analysis");
    /* control points and the adapter's control */
    HS_TCL_FAILS(HEAD "expControlPoint 1 1 foo\n",
                 "frame.tcl:4: expControlPoint: DOF 1: response type 'foo': expected disp, vel, "
                 "accel, force or time");
    HS_TCL_FAILS(HEAD "expControlPoint 1 -node 3 ux disp -fact 0.003 -lim 0.01 -0.01\n",
                 "frame.tcl:4: expControlPoint: -lim 0.01 -0.01: the lower limit must be below "
                 "the upper");
    HS_TCL_FAILS(HEAD "expControlPoint 1 1 disp -bar\n",
                 "frame.tcl:4: expControlPoint: option '-bar' is not supported by hysim");
    HS_TCL_FAILS(HEAD "expControlPoint 1 x1 disp\n", "frame.tcl:4: expControlPoint: 'x1': "
                                                     "expected a DOF");
#define CPS "expControlPoint 1 1 disp\nexpControlPoint 2 1 disp 1 force\n"
    HS_TCL_FAILS(HEAD CPS "expControl SimFEAdapter 1 127.0.0.1 44000 -trialCP 9 -outCP 2\n",
                 "frame.tcl:6: expControl: -trialCP 9: no expControlPoint 9 (define it first)");
    HS_TCL_FAILS(HEAD CPS "expControl SimFEAdapter 1 127.0.0.1 44000 -trialCP 2 -outCP 2\n",
                 "frame.tcl:6: expControl: -trialCP 2: signal 2 (DOF 1) is a force");
    HS_TCL_FAILS(HEAD CPS "expControl SimFEAdapter 1 127.0.0.1 44000 -trialCP 1 -outCP 1\n",
                 "frame.tcl:6: expControl: 1 trial displacements, 1 measured displacements, 0 "
                 "forces");
    HS_TCL_FAILS(HEAD CPS "expControl SimFEAdapter 1 127.0.0.1 44000 -trialCP 1 -outCP 2 -ssl\n",
                 "frame.tcl:6: expControl: -ssl: OpenFresco's SSL channel");
    HS_TCL_FAILS(HEAD "expControlPoint 1 1 disp -relTrial\nexpControlPoint 2 1 disp 1 force\n"
                      "expControl SimFEAdapter 1 127.0.0.1 44000 -trialCP 1 -outCP 2\n",
                 "frame.tcl:6: expControl: -trialCP 1: relative signals (-relTrial ...) are not "
                 "yet in hysim");
    HS_TCL_FAILS(HEAD CPS "expControl LabVIEW 1 127.0.0.1 44000 -trialCP 1 -outCP 2\n",
                 "frame.tcl:6: expControl: -trialCP 1: expected -node nodeTag");
#define LCPS "expControlPoint 1 -node 3 1 disp\nexpControlPoint 2 -node 3 1 disp 1 force\n"
    HS_TCL_FAILS(HEAD LCPS "expControl LabVIEW 1 127.0.0.1 44000 -trialCP 1 1 -outCP 2\n",
                 "frame.tcl:6: expControl: -trialCP: 2 control points: ECLabVIEW names its first "
                 "trial point MDL-00-01");
    HS_TCL_FAILS(HEAD LCPS "expControl LabVIEW 1 127.0.0.1 44000 -trialCP 2 -outCP 2\n",
                 "frame.tcl:6: expControl: -trialCP 2: signal 2 (DOF 1) is a force: hysim's NEES "
                 "client commands displacements");
    HS_TCL_FAILS(HEAD LCPS "expControl LabVIEW 1 127.0.0.1 44000 -trialCP 1 -outCP 1\n",
                 "frame.tcl:6: expControl: -outCP 1: 0 force signals for 1 trial DOFs");
    HS_TCL_FAILS(HEAD LCPS "expControlPoint 3 -node 3 2 disp 2 force\n"
                           "expControl LabVIEW 1 127.0.0.1 44000 -trialCP 1 -outCP 3\n",
                 "frame.tcl:7: expControl: -outCP 3: its displacement signal 1 is DOF 2, the "
                 "trial's signal 1 is DOF 1");
    HS_TCL_FAILS(HEAD LCPS "expControlPoint 3 -node 3 3 disp 6 disp\n"
                           "expControl LabVIEW 1 127.0.0.1 44000 -trialCP 3 -outCP 2\n",
                 "frame.tcl:7: expControl: -trialCP 3: DOFs 3 and 6 are both 'z rotation' on "
                 "the wire (ndm 2)");
    HS_TCL_FAILS(HEAD LCPS "expControl LabVIEW 1 127.0.0.1 44000 -trialCP 1 -outCP 2 -ssl\n",
                 "frame.tcl:6: expControl: option '-ssl': expControl LabVIEW takes -trialCP");
    HS_TCL_FAILS(HEAD "expControl GenericTCP 1 127.0.0.1 44000 -ctrlModes 1 0 0 0 0\n",
                 "frame.tcl:4: expControl: expected -daqModes followed by 5 modes");
    HS_TCL_FAILS(HEAD "expControl GenericTCP 1 127.0.0.1 44000 -ctrlModes 1 1 0 0 0 -daqModes 1 "
                      "0 0 1 0\n",
                 "frame.tcl:4: expControl: -ctrlModes 1: hysim's protocol A client commands "
                 "displacements");
    HS_TCL_FAILS(HEAD "expControl GenericTCP 1 127.0.0.1 44000 -ctrlModes 1 0 0 0 0 -daqModes 1 "
                      "0 0 1 0 -initFile a.txt\n",
                 "frame.tcl:4: expControl: -initFile: hysim's protocol A client sends no "
                 "parameter file");
    /* at the first analyze, before any connection: -initStif is the client's only stiffness,
     * OpenFresco's tangent estimators are not in hysim */
#define RUN                                                                                        \
    "timeSeries Path 1 -filePath gm.txt -dt 0.01\npattern UniformExcitation 1 1 -accel 1\n"        \
    "integrator NewmarkExplicit 0.5; algorithm Linear; analysis Transient\nanalyze 1 0.01\n"
    fails_in_analysis(ctx, dir,
                      HEAD "expSite ShadowSite 1 127.0.0.1 8090\n"
                           "expElement twoNodeLink 1 1 3 -dir 2 -site 1\n" RUN,
                      "frame.tcl:5: element 1 on networked site 1: expected -initStif Kij");
    fails_in_analysis(ctx, dir,
                      HEAD "expSite ShadowSite 1 127.0.0.1 8090\n"
                           "expElement twoNodeLink 1 1 3 -dir 2 -site 1 -initStif 2.8 "
                           "-tangStif 1\n" RUN,
                      "frame.tcl:5: element 1 on networked site 1: -tangStif: OpenFresco's "
                      "tangent estimators are not in hysim");
    hs_test_remove_dir(dir);
    hs_ctx_destroy(&ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shadow_site_is_local_site),
        cmocka_unit_test(test_generic_tcp_is_local_site),
        cmocka_unit_test(test_labview_is_local_site),
        cmocka_unit_test(test_labview_stops_at_its_limits),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
