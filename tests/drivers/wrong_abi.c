/* A test driver built against a future ABI (version 2): the site must refuse it at load. */
#include "hysim/driver.h"

static const hysim_driver table = {.abi_version = HYSIM_DRIVER_ABI_VERSION + 1, .name = "future"};

const hysim_driver *hysim_driver_v1(void);
const hysim_driver *hysim_driver_v1(void)
{
    return &table;
}
