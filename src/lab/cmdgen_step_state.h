/* Private: the checkpoint state of one step's record of the command generator (hs_cmdgen_step),
 * walked by the generator's state (cmdgen_state.c) and the site controller's (site_controller.c)
 * alike: counted, saved or loaded as hs_state_io says. */
#ifndef HS_CMDGEN_STEP_STATE_H
#define HS_CMDGEN_STEP_STATE_H

#include "hysim/cmdgen.h"

#include "../base/state_io.h"

static inline void hs_cmdgen_step_state(hs_state_io *s, hs_cmdgen_step *st)
{
    const int64_t BIG = HS_STATE_I64_MAX;
    st->step = hs_state_int(s, st->step, 0, BIG);
    st->states = (int)hs_state_int(s, st->states, 0, 1 << HS_CMDGEN_NSTATES);
    st->delay_ticks = hs_state_int(s, st->delay_ticks, 0, BIG);
    st->ticks = hs_state_int(s, st->ticks, 0, BIG);
    for (int k = 0; k < HS_CMDGEN_NSTATES; k++)
        st->state_ticks[k] = hs_state_int(s, st->state_ticks[k], 0, BIG);
}

#endif
