/* A test held for its native coordinator (docs/site_server.md, "A held test"): a coordinator
 * that authenticated with the site's key and disappeared without BYE (killed, a lost network)
 * leaves its test held for `hysim run --resume`. Nobody else touches it: NEES and OpenFresco
 * clients, which have no authentication, are refused ("busy, a test is held") before they hold
 * the site, and can never start a new test over it (hs_srv_new_test). It ends with its owner's
 * resume and BYE, a new test of a native coordinator with the key, the site ending it on its own
 * side (its hold timeout, a limit trip), or the operator's `hysim site --release`. */
#include "site_server_impl.h"

#include <string.h>

int hs_srv_held(hs_site_server *s, char *why, size_t cap)
{
    const hs_srv_test *t = &s->test;
    if (!t->live || t->ended || t->openfresco) return 0;
    hs_site_server_status st;
    hs_srv_status_copy(s, &st);
    /* ended on the site's side: nothing can resume it */
    if (st.tripped || st.state == HS_CMDGEN_DONE || st.state == HS_CMDGEN_FREE_VIBRATION) return 0;
    if (why)
        snprintf(why, cap,
                 "busy, a test is held: the test of %s (step %lld applied, %lld committed) waits "
                 "for its coordinator's resume; it is resumed or ended by a native coordinator "
                 "with the site's key, or released by the operator at the site (`hysim site "
                 "--release`)",
                 t->coordinator, (long long)t->last_step, (long long)t->last_committed);
    return 1;
}

void hs_srv_check_ended(hs_site_server *s)
{
    hs_srv_test *t = &s->test;
    if (!t->live || t->ended || t->openfresco) return;
    hs_site_server_status st;
    hs_srv_status_copy(s, &st);
    if (st.generation != atomic_load(&s->generation) ||
        (st.state != HS_CMDGEN_FREE_VIBRATION && st.state != HS_CMDGEN_DONE))
        return;
    t->ended = t->ended_by_site = 1;
    pthread_mutex_lock(&s->status_lock);
    s->status.test_ended = 1;
    pthread_mutex_unlock(&s->status_lock);
    hs_srv_state_forget(s);
    hs_log(s->ctx, HS_LOG_WARN,
           "site %s: the test of %s is over: %s; it cannot be resumed%s. A new test can start once "
           "the laboratory is at rest",
           s->cfg.site.name, t->coordinator, s->ended_why,
           s->cfg.state_path[0] ? " (its state file is removed)" : "");
}
