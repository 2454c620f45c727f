/* The monitor's server-sent events (include/hysim/monitor.h): a sample, the layout and the end
 * event written byte for byte as the page reads them (fields, %.9g numbers, null for what is not
 * finite, names escaped per RFC 8259, the blank line that ends an event), and a buffer one byte
 * too small refused instead of cut. */
#include "hs_test.h"

#include "hysim/monitor.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void test_sample(void **state)
{
    (void)state;
    hs_monitor_sample s;
    memset(&s, 0, sizeof s);
    s.step = 517;
    s.steps = 2000;
    s.t = 2.585;
    s.wall = 5.5;
    s.ndof = 2;
    s.d[0] = 0.213062932;
    s.d[1] = -1.0 / 3.0;
    s.nact = 1;
    s.x_cmd[0] = 0.25;
    s.x_meas[0] = NAN;
    s.f_meas[0] = -12.5;
    s.limit_use[0] = 0.5;
    s.nsites = 2;
    s.site_states[0] = 15;
    s.site_states[1] = 1;
    s.site_delay[0] = 0.0048828125;
    s.site_delay[1] = INFINITY;
    s.energy_error = 1e-12;
    s.paused = 1;
    s.paused_s = 2.25;
    s.site_hold[0] = 1; /* kept alive */
    s.site_hold_left[0] = 27.75;
    s.site_hold[1] = 3; /* nothing times out */
    s.site_hold_left[1] = INFINITY;
    s.hold_left = 27.75;
    char buf[2048];
    const char *want =
        "id: 82\nevent: sample\ndata: {\"step\":517,\"steps\":2000,\"t\":2.585,\"wall\":5.5,"
        "\"d\":[0.213062932,-0.333333333],\"xc\":[0.25],\"xm\":[null],\"fm\":[-12.5],\"lim\":[0.5],"
        "\"states\":[15,1],\"delay\":[0.0048828125,null],\"eerr\":1e-12,\"paused\":1,"
        "\"paused_s\":2.25,\"hold_left\":27.75,\"holds\":[1,3],\"holds_left\":[27.75,null],"
        "\"dropped\":7}\n\n";
    const int n = hs_monitor_sse_sample(&s, 82, 7, buf, sizeof buf);
    assert_string_equal(buf, want);
    assert_int_equal(n, (int)strlen(want));
    /* exactly fitting (with its terminating zero) works, one byte less is refused */
    assert_int_equal(hs_monitor_sse_sample(&s, 82, 7, buf, strlen(want) + 1), n);
    assert_int_equal(hs_monitor_sse_sample(&s, 82, 7, buf, strlen(want)), -1);
}

static void test_layout_and_end(void **state)
{
    (void)state;
    hs_monitor_layout l;
    memset(&l, 0, sizeof l);
    snprintf(l.title, sizeof l.title, "two \"story\"\\frame\n");
    snprintf(l.role, sizeof l.role, "test");
    snprintf(l.units_length, sizeof l.units_length, "in");
    snprintf(l.units_force, sizeof l.units_force, "kip");
    snprintf(l.units_time, sizeof l.units_time, "s");
    l.ndof = 2;
    l.nact = 2;
    snprintf(l.act_names[0], HS_MON_NAME, "lab1.a1");
    snprintf(l.act_names[1], HS_MON_NAME, "lab2.a1");
    l.nsites = 1;
    snprintf(l.site_names[0], HS_MON_NAME, "lab1");
    char buf[1024];
    hs_monitor_sse_layout(&l, buf, sizeof buf);
    assert_string_equal(buf,
                        "event: layout\ndata: {\"title\":\"two \\\"story\\\"\\\\frame\\u000a\","
                        "\"role\":\"test\",\"units\":{\"length\":\"in\",\"force\":\"kip\","
                        "\"time\":\"s\"},\"ndof\":2,\"actuators\":[\"lab1.a1\",\"lab2.a1\"],"
                        "\"sites\":[\"lab1\"]}\n\n");
    /* with the model's names of the DOFs */
    snprintf(l.dof_names[0], HS_MON_DOF_NAME, "n3_ux");
    snprintf(l.dof_names[1], HS_MON_DOF_NAME, "floor2");
    hs_monitor_sse_layout(&l, buf, sizeof buf);
    assert_non_null(strstr(buf, "\"sites\":[\"lab1\"],\"dofs\":[\"n3_ux\",\"floor2\"]}\n\n"));
    hs_monitor_sse_end("aborted", "by the operator", buf, sizeof buf);
    assert_string_equal(
        buf, "event: end\ndata: {\"status\":\"aborted\",\"reason\":\"by the operator\"}\n\n");
    assert_int_equal(hs_monitor_sse_end("aborted", "by the operator", buf, 10), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sample),
        cmocka_unit_test(test_layout_and_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
