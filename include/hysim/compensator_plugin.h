/* hysim compensator plug-in ABI, version 1 (docs/rths_benchmark.md, "A compensator plug-in").
 *
 * A researcher's own delay compensator or tracking controller, built as a shared library that
 * exports one function, HYSIM_COMPENSATOR_SYMBOL, returning a static table of functions. A site
 * file (never a test file) loads it, with the same rules as a lab driver (include/hysim/driver.h):
 *     compensation: {type: plugin, path: ./libmycomp.so, options: "tau=0.025 kp=0.2"}
 * The site checks abi_version against HYSIM_COMPENSATOR_ABI_VERSION at load and refuses any other.
 *
 * At every controller tick, for each actuator, the site calls tick with the target x_t (from the
 * command generator), the displacement x_m and force f_m measured at that tick (test units), and
 * sends the command it returns through the site's safety limits (stroke, velocity, acceleration,
 * step, force): a command that is not a number, a jump or an error return trips the site, which
 * holds the last command sent and unloads under control. The same library runs unchanged in the
 * virtual benchmark (hs_rths_run_with), with `hysim plant` and with a real rig. tick may not
 * allocate or block. This header needs only the C standard library: a plug-in does not link
 * hysim. */
#ifndef HYSIM_COMPENSATOR_PLUGIN_H
#define HYSIM_COMPENSATOR_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HYSIM_COMPENSATOR_ABI_VERSION 1u
#define HYSIM_COMPENSATOR_SYMBOL      "hysim_compensator_v1"

typedef struct hysim_compensator {
    uint32_t abi_version; /* HYSIM_COMPENSATOR_ABI_VERSION the plug-in was built against */
    const char *name;     /* for messages */
    /* One instance for actuator `actuator` (0-based) ticked at `rate` per second, with the site
     * file's options string ("" when none), at rest at 0. Returns a handle, or NULL with one
     * sentence in err (cap bytes) saying what to do. */
    void *(*open)(int actuator, double rate, const char *options, char *err, size_t cap);
    /* One tick: target x_t, measured x_m and f_m -> *command. 0, or < 0 on an error (the site
     * then holds). */
    int (*tick)(void *handle, double x_t, double x_m, double f_m, double *command);
    void (*close)(void *handle);
} hysim_compensator;

/* The one exported symbol: `const hysim_compensator *hysim_compensator_v1(void)`. */
typedef const hysim_compensator *(*hysim_compensator_entry)(void);

#ifdef __cplusplus
}
#endif
#endif
