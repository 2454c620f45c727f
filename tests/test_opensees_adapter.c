/* opensees-adapter://: hysim's coordinator driving OpenSees' adapter element as a computational
 * module, against fake adapters written from docs/opensees_adapter.md (not from OpenSees' code):
 * a TCP server that reads the 11 int32 sizes (every non-zero entry among the first ten must be
 * its basic DOF count n, else it quits as OpenSees does: "wrong data sizes"), then, at the start
 * of each of its analysis steps, reads one message of dataSize doubles; a 10 is answered with
 * [daqDisp, daqForce] (zero padded) and followed by the next message; that one must be 3 (the
 * trial, from which the step is solved) or 99 (the end); anything else makes it quit. Its model
 * is a linear static module K_sub held at the trial by the adapter's penalty spring kb:
 * (K_sub + kb I) db = kb ctrl, daqDisp = db, daqForce = -kb (db - ctrl).
 *
 * Mosqueda et al.'s (2004) two-story frame (Mosqueda, Stojadinovic & Mahin: 4 kip / 386.1 per
 * floor, 2.8 kip/in per story, 2 % stiffness-proportional damping) split between two modules at
 * once, each on its own port: the first story (one basic DOF, the drift) and the second (two basic
 * DOFs, the floors' displacements, K_sub = k [1 -1; -1 1]). The split run must equal the single
 * hysim model (both stories numerical) to round-off: the site carries the module's force to the
 * trial with the elements' initial stiffness (f + K (trial - db)), exact for a linear module
 * whatever kb. */
#define _GNU_SOURCE /* unshare, CLONE_NEWUSER, CLONE_NEWNET */
#include "hs_ofr_peer.h"
#include "hs_test.h"

#include "hysim/coordinator.h"
#include "hysim/results.h"
#include "hysim/testfile.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { NSTEP = 400, NDOF = 2 };
static const double K_STORY = 2.8;

/* ---- the fake adapter ---- */

typedef struct fake_adapter {
    int lfd, port;
    int n;
    double K[4]; /* K_sub, column-major */
    double kb;
    int crash_after; /* > 0: closes the connection after that many steps (a crashed OpenSees) */
    /* what it saw */
    int32_t sizes[11];
    int steps, force_requests, died;
    char error[160];
    double first_ctrl;
} fake_adapter;

static void fake_listen(fake_adapter *a)
{
    a->lfd = hs_ofr_listen(&a->port);
}

/* (K + kb I) db = kb ctrl, for n = 1 or 2 */
static void fake_solve(const fake_adapter *a, const double *ctrl, double *db)
{
    if (a->n == 1) {
        db[0] = a->kb * ctrl[0] / (a->K[0] + a->kb);
        return;
    }
    const double m00 = a->K[0] + a->kb, m10 = a->K[1], m01 = a->K[2], m11 = a->K[3] + a->kb;
    const double det = m00 * m11 - m01 * m10, b0 = a->kb * ctrl[0], b1 = a->kb * ctrl[1];
    db[0] = (m11 * b0 - m01 * b1) / det;
    db[1] = (m00 * b1 - m10 * b0) / det;
}

static void *fake_main(void *arg)
{
    fake_adapter *a = arg;
    const int fd = hs_ofr_accept(a->lfd);
    uint8_t b[44];
    if (hs_ofr_try_recv_bytes(fd, b, sizeof b)) {
        snprintf(a->error, sizeof a->error, "no sizes");
        close(fd);
        return NULL;
    }
    for (int i = 0; i < 11; i++) a->sizes[i] = hs_ofr_get_i32(b + 4 * i);
    for (int i = 0; i < 10; i++)
        if (a->sizes[i] != 0 && a->sizes[i] != a->n) {
            snprintf(a->error, sizeof a->error, "wrong data sizes != %d received", a->n);
            close(fd);
            return NULL;
        }
    const size_t ds = (size_t)a->sizes[10];
    double *recv = calloc(ds, sizeof(double)), *send = calloc(ds, sizeof(double));
    uint8_t *raw = malloc(8 * ds);
    for (;;) { /* one analysis step */
        if (hs_ofr_try_recv_bytes(fd, raw, 8 * ds)) {
            snprintf(a->error, sizeof a->error, "connection lost at step %d", a->steps + 1);
            break;
        }
        for (size_t i = 0; i < ds; i++) recv[i] = hs_ofr_get_f64(raw + 8 * i);
        if (recv[0] == 10.0) {
            a->force_requests++;
            for (size_t i = 0; i < ds; i++) hs_ofr_put_f64(raw + 8 * i, send[i]);
            hs_ofr_send_bytes(fd, raw, 8 * ds);
            if (hs_ofr_try_recv_bytes(fd, raw, 8 * ds)) {
                snprintf(a->error, sizeof a->error, "connection lost after getForce");
                break;
            }
            for (size_t i = 0; i < ds; i++) recv[i] = hs_ofr_get_f64(raw + 8 * i);
        }
        if (recv[0] == 99.0) {
            a->died = 1;
            break;
        }
        if (recv[0] != 3.0) {
            snprintf(a->error, sizeof a->error, "wrong action received: expecting 3 but got %g",
                     recv[0]);
            break;
        }
        const double *ctrl = recv + 1;
        if (a->steps == 0) a->first_ctrl = ctrl[0];
        double db[2];
        fake_solve(a, ctrl, db);
        memset(send, 0, ds * sizeof(double));
        for (int i = 0; i < a->n; i++) {
            send[i] = db[i];
            send[a->n + i] = -a->kb * (db[i] - ctrl[i]);
        }
        a->steps++;
        if (a->crash_after > 0 && a->steps == a->crash_after) break;
    }
    free(recv);
    free(send);
    free(raw);
    close(fd); /* OpenSees exits */
    return NULL;
}

/* ---- the test files ---- */

static const char HEAD[] =
    "hysim: 1\nname: mosqueda2004-split\nunits: {force: kip, length: in, time: s}\n"
    "structure:\n  dofs: 2\n  mass: [0.010360, 0.010360]\n"
    "  ground_influence: [1, 1]\n";
static const char TAIL[] =
    "ground_motion:\n  synthetic: {seed: 5, pga: 115.8, duration: 4, dt: 0.01}\n"
    "analysis:\n  integrator: {type: newmark_explicit}\n  dt: 0.01\n"
    "  steps: %d\n  site_timeout: 10\n";

static void run(const char *text, double *d)
{
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_test_def *def = NULL;
    int rc = hs_testfile_load_string(ctx, text, strlen(text), "split.yaml", &def);
    if (rc) fail_msg("load: %s", hs_ctx_message(ctx));
    hs_coordinator *c = NULL;
    if (hs_coordinator_create(ctx, def, &c)) fail_msg("create: %s", hs_ctx_message(ctx));
    rc = hs_coordinator_run(c);
    if (rc) fail_msg("run: %s", hs_coordinator_reason(c));
    const hs_results *r = hs_coordinator_results(c);
    assert_int_equal(hs_results_count(r), NSTEP + 1);
    for (int k = 0; k <= NSTEP; k++)
        for (int i = 0; i < NDOF; i++) d[k * NDOF + i] = hs_results_series_d(r, k)[i];
    hs_coordinator_destroy(&c);
    hs_test_def_destroy(&def);
    hs_ctx_destroy(&ctx);
}

/* The single model: both stories numerical. */
static void single_text(char *text, size_t cap)
{
    int n = snprintf(text, cap, "%s", HEAD);
    n += snprintf(text + n, cap - (size_t)n,
                  "  shear_building:\n    stories: [{material: col}, {material: col}]\n"
                  "  damping: {stiffness_proportional: {mode: 1, ratio: 0.02}}\n"
                  "materials:\n  col: {type: elastic, k: %g}\n",
                  K_STORY);
    snprintf(text + n, cap - (size_t)n, TAIL, NSTEP);
}

/* The split: story 1 a module with one basic DOF (the drift) at port1, story 2 one with two
 * (the floors) at port2. */
static void split_text(char *text, size_t cap, int port1, int port2)
{
    int n = snprintf(text, cap, "%s", HEAD);
    n += snprintf(
        text + n, cap - (size_t)n,
        "  damping: {stiffness_proportional: {mode: 1, ratio: 0.02}}\n"
        "experimental:\n"
        "  - {name: story1, site: os1, story: 1, actuators: [drift], initial_stiffness: [[%g]]}\n"
        "  - {name: story2, site: os2, dofs: [1, 2], T: [[1, 0], [0, 1]], actuators: [u1, u2],\n"
        "     initial_stiffness: [[%g, %g], [%g, %g]]}\n"
        "sites:\n"
        "  os1: {kind: remote, url: \"opensees-adapter://127.0.0.1:%d\", actuators: {drift: {}}}\n"
        "  os2: {kind: remote, url: \"opensees-adapter://127.0.0.1:%d\", "
        "actuators: {u1: {}, u2: {}}}\n",
        K_STORY, K_STORY, -K_STORY, -K_STORY, K_STORY, port1, port2);
    snprintf(text + n, cap - (size_t)n, TAIL, NSTEP);
}

/* Largest |a - b| over every DOF and record, and the peak |a|. */
static void compare(const double *a, const double *b, double *worst, double *peak)
{
    *worst = *peak = 0.0;
    for (int k = 0; k < (NSTEP + 1) * NDOF; k++) {
        *peak = fmax(*peak, fabs(a[k]));
        *worst = fmax(*worst, fabs(a[k] - b[k]));
    }
}

static void test_two_modules_equal_single_model(void **state)
{
    (void)state;
    static char text[4096];
    static double ref[(NSTEP + 1) * NDOF], split[(NSTEP + 1) * NDOF];
    single_text(text, sizeof text);
    run(text, ref);

    fake_adapter a = {.n = 1, .K = {K_STORY}, .kb = 100.0 * K_STORY};
    fake_adapter b = {.n = 2, .K = {K_STORY, -K_STORY, -K_STORY, K_STORY}, .kb = 100.0 * K_STORY};
    fake_listen(&a);
    fake_listen(&b);
    pthread_t ta, tb;
    assert_int_equal(pthread_create(&ta, NULL, fake_main, &a), 0);
    assert_int_equal(pthread_create(&tb, NULL, fake_main, &b), 0);
    split_text(text, sizeof text, a.port, b.port);
    run(text, split);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    close(a.lfd);
    close(b.lfd);

    const fake_adapter *m[2] = {&a, &b};
    for (int k = 0; k < 2; k++) {
        if (m[k]->error[0]) fail_msg("fake adapter %d: %s", k + 1, m[k]->error);
        const int nb = m[k]->n;
        const int32_t want[10] = {nb, 0, 0, 0, 0, nb, 0, 0, nb, 0};
        for (int i = 0; i < 10; i++) assert_int_equal(m[k]->sizes[i], want[i]);
        assert_true(m[k]->sizes[10] >= 1 + nb && m[k]->sizes[10] >= 2 * nb);
        assert_int_equal(m[k]->steps, NSTEP);          /* one trial a step */
        assert_int_equal(m[k]->force_requests, NSTEP); /* one getForce a step */
        assert_true(m[k]->died);                       /* and DIE at the end */
    }
    double peak, worst;
    compare(ref, split, &worst, &peak);
    print_message("    two modules (1 and 2 basic DOFs, kb = 100 k), %d steps: sizes, one trial, "
                  "one getForce a step, DIE; largest difference from the single model %.3g "
                  "(peak %.4g in, %.2g of it)\n",
                  NSTEP, worst, peak, worst / peak);
    assert_true(peak > 0.5);
    assert_true(worst <= 1e-12 * peak);
}

/* ---- a real OpenSees (OPENSEES=/path/to/OpenSees) ---- */

/* The module's script: a story spring (zeroLength, elastic k), held by the adapter with
 * kb = 100 k; static analysis with Newton (it forms the unbalance after its last update, so the
 * answer is the converged state's; Linear would leave daqForce at the step's first evaluation),
 * one analyze step per coordinator step (ended by hysim's 99). */
static void write_module(const char *path, int fixed_base, int port)
{
    FILE *f = fopen(path, "w");
    if (!f) exit(1);
    const double kb = 100.0 * K_STORY;
    fprintf(f,
            "model BasicBuilder -ndm 1 -ndf 1\nnode 1 0.0\nnode 2 0.0\n%s"
            "uniaxialMaterial Elastic 1 %.17g\nelement zeroLength 1 1 2 -mat 1 -dir 1\n",
            fixed_base ? "fix 1 1\n" : "", K_STORY);
    if (fixed_base)
        fprintf(f, "element adapter 2 -node 2 -dof 1 -stif %.17g %d\n", kb, port);
    else
        fprintf(f, "element adapter 2 -node 1 2 -dof 1 -dof 1 -stif %.17g 0.0 0.0 %.17g %d\n", kb,
                kb, port);
    fprintf(f,
            "system FullGeneral\nnumberer Plain\nconstraints Plain\n"
            "test NormDispIncr 1.0e-12 10\nalgorithm Newton\n"
            "integrator LoadControl 1.0\nanalysis Static\nanalyze %d\n",
            NSTEP + 10);
    fclose(f);
}

/* OpenSees on a script, in dir, its output to log; killed if this process dies. */
static pid_t start_opensees(const char *exe, const char *dir, const char *script, const char *log)
{
    const pid_t pid = fork();
    if (pid != 0) return pid;
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

static int log_has(const char *path, const char *what)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    char line[512];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) found = strstr(line, what) != NULL;
    fclose(f);
    return found;
}

/* In a child of the test, in its own user and network namespaces (OpenSees' adapter listens on
 * every interface: inside, there is only a loopback): two OpenSees modules, the split run, the
 * single model; exit 0 when equal to round-off, 1 when not, 77 when it cannot run here. */
static int real_opensees_child(const char *exe)
{
    if (unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0) {
        printf("    SKIP: no network namespace for OpenSees (%s)\n", strerror(errno));
        return 77;
    }
    const int sfd = socket(AF_INET, SOCK_DGRAM, 0);
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "lo");
    if (sfd < 0 || ioctl(sfd, SIOCGIFFLAGS, &ifr) != 0 ||
        (ifr.ifr_flags |= IFF_UP, ioctl(sfd, SIOCSIFFLAGS, &ifr) != 0)) {
        printf("    SKIP: cannot bring the namespace's loopback up (%s)\n", strerror(errno));
        return 77;
    }
    close(sfd);
    char dir[] = "/tmp/hs_opensees_XXXXXX";
    if (!mkdtemp(dir)) return 1;
    char s1[64], s2[64], l1[64], l2[64];
    snprintf(s1, sizeof s1, "%s/story1.tcl", dir);
    snprintf(s2, sizeof s2, "%s/story2.tcl", dir);
    snprintf(l1, sizeof l1, "%s/story1.log", dir);
    snprintf(l2, sizeof l2, "%s/story2.log", dir);
    write_module(s1, 1, 9101);
    write_module(s2, 0, 9102);
    const pid_t p1 = start_opensees(exe, dir, s1, l1), p2 = start_opensees(exe, dir, s2, l2);
    static char text[4096];
    static double ref[(NSTEP + 1) * NDOF], split[(NSTEP + 1) * NDOF];
    single_text(text, sizeof text);
    run(text, ref);
    split_text(text, sizeof text, 9101, 9102);
    run(text, split);
    /* OpenSees exits on hysim's 99 (status 255 by design): bounded wait, then kill */
    int died = 0;
    for (int k = 0; k < 200 && died < 2; k++) {
        died = (waitpid(p1, NULL, WNOHANG) == p1 || kill(p1, 0) != 0) +
               (waitpid(p2, NULL, WNOHANG) == p2 || kill(p2, 0) != 0);
        nanosleep(&(struct timespec){0, 20000000}, NULL);
    }
    kill(p1, SIGKILL);
    kill(p2, SIGKILL);
    waitpid(p1, NULL, 0);
    waitpid(p2, NULL, 0);
    const int ended =
        log_has(l1, "successfully completed") && log_has(l2, "successfully completed");
    double peak, worst;
    compare(ref, split, &worst, &peak);
    printf("    real OpenSees, two modules (1 and 2 basic DOFs, kb = 100 k), %d steps: largest "
           "difference from the single model %.3g (peak %.4g in, %.2g of it); OpenSees ended on "
           "DIE: %s\n",
           NSTEP, worst, peak, worst / peak, ended ? "yes" : "no");
    fflush(stdout);
    unlink(s1);
    unlink(s2);
    unlink(l1);
    unlink(l2);
    rmdir(dir);
    return ended && peak > 0.5 && worst <= 1e-12 * peak ? 0 : 1;
}

static void test_real_opensees(void **state)
{
    (void)state;
    const char *exe = getenv("OPENSEES");
    if (!exe || !exe[0]) {
        print_message("    SKIP: no OpenSees (set OPENSEES=/path/to/OpenSees to split the frame "
                      "with real OpenSees modules)\n");
        skip();
    }
    if (access(exe, X_OK) != 0) {
        print_message("    SKIP: OPENSEES=%s is not an executable\n", exe);
        skip();
    }
    fflush(stdout);
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) _exit(real_opensees_child(exe));
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == 77) skip();
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* The first module crashes (closes its connection) after solving step 50: the coordinator aborts
 * with a sentence naming the site and keeps every step it completed, and the second module, whose
 * reply was still awaited when the test stopped, gets its 99 all the same (an OpenSees left without
 * it would loop forever on the closed socket). */
static void test_module_crash(void **state)
{
    (void)state;
    fake_adapter a = {.n = 1, .K = {K_STORY}, .kb = 100.0 * K_STORY, .crash_after = 50};
    fake_adapter b = {.n = 2, .K = {K_STORY, -K_STORY, -K_STORY, K_STORY}, .kb = 100.0 * K_STORY};
    fake_listen(&a);
    fake_listen(&b);
    pthread_t ta, tb;
    assert_int_equal(pthread_create(&ta, NULL, fake_main, &a), 0);
    assert_int_equal(pthread_create(&tb, NULL, fake_main, &b), 0);
    static char text[4096];
    split_text(text, sizeof text, a.port, b.port);
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_test_def *def = NULL;
    assert_int_equal(hs_testfile_load_string(ctx, text, strlen(text), "crash.yaml", &def), 0);
    hs_coordinator *c = NULL;
    assert_int_equal(hs_coordinator_create(ctx, def, &c), 0);
    assert_true(hs_coordinator_run(c) != 0);
    assert_int_equal(hs_coordinator_status(c), HS_RUN_ABORTED);
    print_message("    %s; %lld steps kept\n", hs_coordinator_reason(c),
                  (long long)hs_coordinator_steps_done(c));
    assert_non_null(strstr(hs_coordinator_reason(c), "os1"));
    /* it solved step 50 and closed before answering it: 49 steps complete */
    assert_int_equal(hs_coordinator_steps_done(c), 49);
    assert_int_equal(hs_results_count(hs_coordinator_results(c)), 50);
    hs_coordinator_destroy(&c);
    hs_test_def_destroy(&def);
    hs_ctx_destroy(&ctx);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    close(a.lfd);
    close(b.lfd);
    if (b.error[0]) fail_msg("the surviving module: %s", b.error);
    assert_true(b.died);
    assert_int_equal(b.steps, 50); /* it had solved step 50 too when the other one failed */
}

/* A module that is not there yet: the coordinator retries the connection until its timeout and
 * then fails with a sentence naming the site; nothing hangs. */
static void test_module_absent(void **state)
{
    (void)state;
    /* a port bound but not listening: connections to it are refused, and no other test running
     * in parallel can be given it (a port merely freed could become another test's server) */
    const int hold = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(hold >= 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    assert_int_equal(bind(hold, (struct sockaddr *)&a, sizeof a), 0);
    socklen_t alen = sizeof a;
    assert_int_equal(getsockname(hold, (struct sockaddr *)&a, &alen), 0);
    const int port = ntohs(a.sin_port);
    static char text[4096];
    int n = snprintf(text, sizeof text, "%s", HEAD);
    n +=
        snprintf(text + n, sizeof text - (size_t)n,
                 "  damping: {none: true}\n"
                 "experimental:\n"
                 "  - {name: s1, site: os1, story: 1, actuators: [d], initial_stiffness: [[2.8]]}\n"
                 "  - {name: s2, site: os1, story: 2, actuators: [e], initial_stiffness: [[2.8]]}\n"
                 "sites:\n"
                 "  os1: {kind: remote, url: \"opensees-adapter://127.0.0.1:%d\", "
                 "actuators: {d: {}, e: {}}}\n",
                 port);
    snprintf(text + n, sizeof text - (size_t)n, TAIL, 10);
    char *p = strstr(text, "site_timeout: 10");
    assert_non_null(p);
    memcpy(p, "site_timeout: 1 ", 16);
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_test_def *def = NULL;
    assert_int_equal(hs_testfile_load_string(ctx, text, strlen(text), "absent.yaml", &def), 0);
    hs_coordinator *c = NULL;
    assert_true(hs_coordinator_create(ctx, def, &c) != 0);
    print_message("    %s\n", hs_ctx_message(ctx));
    assert_non_null(strstr(hs_ctx_message(ctx), "os1"));
    hs_test_def_destroy(&def);
    hs_ctx_destroy(&ctx);
    close(hold);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_modules_equal_single_model),
        cmocka_unit_test(test_module_crash),
        cmocka_unit_test(test_module_absent),
        cmocka_unit_test(test_real_opensees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
