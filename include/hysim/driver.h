/* hysim laboratory driver ABI, version 1 (docs/lab_backends.md, section "driver").
 *
 * A laboratory writes a driver for its hardware (NI-DAQmx, Comedi, a vendor SDK) as a shared
 * library that exports one function, HYSIM_DRIVER_SYMBOL, returning a static table of functions.
 * A site file loads it with `lab: {kind: driver, path: ./libmydriver.so, options: "..."}`; the
 * site checks abi_version against HYSIM_DRIVER_ABI_VERSION at load and refuses any other.
 *
 * At every controller tick the site calls write (one command per actuator, the test's length
 * units, after the site's safety limits) and then read (measured displacement and force per
 * actuator, a status word, the controller's own tick count). Neither may allocate or block longer
 * than a tick. This header needs only the C standard library: a driver does not link hysim. */
#ifndef HYSIM_DRIVER_H
#define HYSIM_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HYSIM_DRIVER_ABI_VERSION 1u
#define HYSIM_DRIVER_SYMBOL      "hysim_driver_v1"

/* Status bits a driver reports; any of them makes the site hold. */
#define HYSIM_DRIVER_INTERLOCK 1u
#define HYSIM_DRIVER_FAULT     2u

typedef struct hysim_driver {
    uint32_t abi_version; /* HYSIM_DRIVER_ABI_VERSION the driver was built against */
    const char *name;     /* for messages */
    /* Opens the hardware for nact actuators at `rate` ticks/s with the site file's options string
     * ("" when none). Returns a handle, or NULL with one sentence in err (cap bytes) saying what
     * to do. */
    void *(*open)(int nact, double rate, const char *options, char *err, size_t cap);
    /* Sends one tick's commands (nact). 0, or < 0 on a hardware error. */
    int (*write)(void *handle, const double *cmd);
    /* Reads one tick's measurements: x and f (nact each), status (HYSIM_DRIVER_*) and the
     * controller's tick count. 0, or < 0 on a hardware error. The site also calls it once alone,
     * right after open and before any write, to learn where the rig rests (its first command is
     * there: docs/lab_backends.md, "The site's first command"). */
    int (*read)(void *handle, double *x, double *f, uint32_t *status, int64_t *ctrl_tick);
    void (*close)(void *handle);
} hysim_driver;

/* The one exported symbol: `const hysim_driver *hysim_driver_v1(void)`. */
typedef const hysim_driver *(*hysim_driver_entry)(void);

#ifdef __cplusplus
}
#endif
#endif
