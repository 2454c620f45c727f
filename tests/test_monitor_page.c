/* The monitor's page in a real browser: a test whose name, units and actuator names are HTML
 * (`<base href>` redirected the page's control requests, and with them the token, on main) is
 * shown to headless Chromium (`--dump-dom` after the stream has ended); the page's DOM holds no
 * element the test's names made, and the names appear as text. Skipped with a message where
 * chromium is absent (Debian package chromium; CHROMIUM names another binary). */
#include "hs_test.h"

#include "hysim/monitor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *chromium(void)
{
    const char *env = getenv("CHROMIUM");
    if (env && *env) return access(env, X_OK) == 0 ? env : NULL;
    static const char *const where[] = {"/usr/bin/chromium", "/usr/bin/chromium-browser", NULL};
    for (int i = 0; where[i]; i++)
        if (access(where[i], X_OK) == 0) return where[i];
    return NULL;
}

static void test_hostile_names(void **state)
{
    (void)state;
    const char *browser = chromium();
    if (!browser) {
        print_message("SKIP: no chromium (apt install chromium, or set CHROMIUM)\n");
        skip();
    }
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    hs_monitor_layout l;
    memset(&l, 0, sizeof l);
    snprintf(l.title, sizeof l.title, "<i id=q1>title</i>");
    snprintf(l.role, sizeof l.role, "test");
    snprintf(l.units_length, sizeof l.units_length, "<base href=//x>");
    snprintf(l.units_force, sizeof l.units_force, "<b id=q2>N</b>");
    snprintf(l.units_time, sizeof l.units_time, "<i id=q3>s</i>");
    l.ndof = 1;
    l.nact = 1;
    l.nsites = 1;
    snprintf(l.act_names[0], HS_MON_NAME, "<img id=q4 src=x>.a1");
    snprintf(l.site_names[0], HS_MON_NAME, "<b id=q5>lab</b>");
    hs_monitor *m = NULL;
    assert_int_equal(hs_monitor_create(ctx, "127.0.0.1:0", &l, 64, &m), 0);
    for (int k = 1; k <= 5; k++) {
        hs_monitor_sample s;
        memset(&s, 0, sizeof s);
        s.step = k;
        s.steps = 5;
        s.t = 0.01 * k;
        s.ndof = s.nact = s.nsites = 1;
        s.d[0] = s.x_cmd[0] = s.x_meas[0] = 0.1 * k;
        s.f_meas[0] = 2.0 * k;
        assert_int_equal(hs_monitor_publish(m, &s), 1);
    }
    hs_monitor_finish(m, "completed", "<i id=q6>done</i>");

    char profile[] = "/tmp/hs_monitor_page_XXXXXX";
    assert_non_null(mkdtemp(profile));
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "'%s' --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir=%s "
             "--virtual-time-budget=4000 --dump-dom http://127.0.0.1:%d/ 2>/dev/null",
             browser, profile, hs_monitor_port(m));
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    static char dom[1 << 20];
    const size_t n = fread(dom, 1, sizeof dom - 1, p);
    dom[n] = '\0';
    pclose(p);
    char rm[128];
    snprintf(rm, sizeof rm, "rm -rf '%s'", profile);
    assert_int_equal(system(rm), 0);
    hs_monitor_destroy(&m);
    hs_ctx_destroy(&ctx);

    assert_non_null(strstr(dom, "</html>"));
    assert_non_null(strstr(dom, "ended: completed")); /* the page ran to the end */
    /* no element was made from a name */
    assert_null(strstr(dom, "<base"));
    for (int i = 1; i <= 6; i++) {
        char id[16];
        snprintf(id, sizeof id, "id=\"q%d\"", i);
        if (strstr(dom, id)) fail_msg("an element %s came from a test's name", id);
    }
    /* and they are shown as text */
    assert_non_null(strstr(dom, "&lt;base href=//x&gt;"));
    assert_non_null(strstr(dom, "&lt;img id=q4 src=x&gt;.a1"));
    assert_non_null(strstr(dom, "&lt;b id=q5&gt;lab&lt;/b&gt;"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_hostile_names)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
