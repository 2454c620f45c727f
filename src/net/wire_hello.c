/* Version and capability negotiation, the site's side: a HELLO (what the coordinator's test
 * needs) against the site's own description; a HELLO_ACK when the site can do it, an ERROR
 * that says what it cannot do otherwise. */
#include "wire_impl.h"

#include <string.h>

static const char *const limit_names[3] = {"displacement", "velocity", "force"};

int hs_wire_negotiate(const hs_wire_hello *offer, const hs_wire_hello *site, hs_wire_hello *ack,
                      hs_wire_msg *refusal)
{
    hs_wire_msg scratch;
    if (!refusal) refusal = &scratch;
    if (!offer || !site || !ack) {
        hs_wire_error_set(refusal, 0, HS_EINVAL, "negotiation: missing HELLO or site description");
        return HS_EINVAL;
    }
    const int ver_lo =
        offer->version_min > site->version_min ? offer->version_min : site->version_min;
    const int ver_hi =
        offer->version_max < site->version_max ? offer->version_max : site->version_max;
    const char *who = site->site;
    if (ver_lo > ver_hi) {
        hs_wire_error_set(refusal, 0, HS_EUNSUPPORTED,
                          "site '%s' speaks protocol versions %d..%d, the coordinator %d..%d", who,
                          site->version_min, site->version_max, offer->version_min,
                          offer->version_max);
        return HS_EUNSUPPORTED;
    }
    if (offer->site[0] && strcmp(offer->site, site->site) != 0) {
        hs_wire_error_set(refusal, 0, HS_EUNSUPPORTED,
                          "the coordinator asked for site '%s', this is site '%s'", offer->site,
                          who);
        return HS_EUNSUPPORTED;
    }
    if (offer->nact != site->nact) {
        hs_wire_error_set(refusal, 0, HS_EUNSUPPORTED,
                          "site '%s' has %d actuator(s), the test needs %d", who, site->nact,
                          offer->nact);
        return HS_EUNSUPPORTED;
    }
    if (offer->rate > site->rate) {
        hs_wire_error_set(refusal, 0, HS_EUNSUPPORTED,
                          "site '%s' runs its controller at %g Hz, the test needs at least %g Hz",
                          who, site->rate, offer->rate);
        return HS_EUNSUPPORTED;
    }
    /* site->time_scale: the least time scale (slowest expansion) the site can run at */
    if (offer->time_scale < site->time_scale) {
        hs_wire_error_set(refusal, 0, HS_EUNSUPPORTED,
                          "site '%s' cannot run faster than time scale %g, the test asks for %g",
                          who, site->time_scale, offer->time_scale);
        return HS_EUNSUPPORTED;
    }
    const double ticks = offer->dt * offer->time_scale * site->rate;
    if (!(ticks >= 1.0)) {
        hs_wire_error_set(refusal, 0, HS_EUNSUPPORTED,
                          "a step of %g s at time scale %g lasts %g controller ticks at %g Hz on "
                          "site '%s'; a step needs at least one tick",
                          offer->dt, offer->time_scale, ticks, site->rate, who);
        return HS_EUNSUPPORTED;
    }
    for (int j = 0; j < offer->nact; j++) {
        const double need[3] = {offer->limits[j].displacement, offer->limits[j].velocity,
                                offer->limits[j].force};
        const double have[3] = {site->limits[j].displacement, site->limits[j].velocity,
                                site->limits[j].force};
        for (int k = 0; k < 3; k++) {
            if (have[k] > 0 && need[k] > have[k]) {
                hs_wire_error_set(refusal, 0, HS_EUNSUPPORTED,
                                  "actuator %d of site '%s': the test may need a %s of %g, the "
                                  "site allows %g",
                                  j + 1, who, limit_names[k], need[k], have[k]);
                return HS_EUNSUPPORTED;
            }
        }
    }
    memset(ack, 0, sizeof *ack);
    ack->version_min = ack->version_max = (uint8_t)ver_hi;
    ack->caps = offer->caps & site->caps;
    ack->nact = site->nact;
    ack->rate = site->rate;
    ack->time_scale = offer->time_scale;
    ack->dt = offer->dt;
    memcpy(ack->limits, site->limits, sizeof ack->limits);
    memcpy(ack->coordinator, offer->coordinator, sizeof ack->coordinator);
    memcpy(ack->site, site->site, sizeof ack->site);
    ack->coordinator[HS_WIRE_NAME_MAX - 1] = ack->site[HS_WIRE_NAME_MAX - 1] = '\0';
    return 0;
}
