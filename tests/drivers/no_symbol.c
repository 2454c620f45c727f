/* A test driver that forgot the entry symbol (it exports another name): the site must refuse it. */
#include "hysim/driver.h"

int hysim_driver_typo(void);
int hysim_driver_typo(void)
{
    return HYSIM_DRIVER_ABI_VERSION;
}
