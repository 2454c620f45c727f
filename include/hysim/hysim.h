/* hysim: hybrid simulation of structures. One include for the whole public API. */
#ifndef HYSIM_H
#define HYSIM_H

#include "hysim/base.h"
#include "hysim/energy.h"
#include "hysim/fe.h"
#include "hysim/ground_motion.h"
#include "hysim/integrator.h"
#include "hysim/linalg.h"
#include "hysim/material.h"
#include "hysim/model.h"
#include "hysim/options.h"
#include "hysim/results.h"
#include "hysim/sparse.h"
#include "hysim/testfile.h"

#define HS_VERSION_STRING "0.1.0"

#endif
