/* structure.model.sections and the beam-columns of the YAML frame model
 * (src/io/testfile_fe_section.c, testfile_fe_beamcolumn.c): the 3-D and 2-D bases load, and each
 * bad input fails at its FILE:LINE:COL with a message that says what to do. The responses of
 * these models against their OpenSees Tcl twins: tests/cli/fe_fiber_yaml.sh. */
#include "hs_test.h"
#include "hs_text_def.h"

#include <stdio.h>
#include <string.h>

/* a 3-D column on a zero_length_section base and a force-based column of a circular section */
static const char *const base3d =
    "hysim: 1\n"                                                                          /* 1 */
    "name: col3d\n"                                                                       /* 2 */
    "units: {force: kN, length: m, time: s}\n"                                            /* 3 */
    "materials:\n"                                                                        /* 4 */
    "  core: {type: concrete02, fc: -34000, epsc0: -0.004, fcu: -24000, epscu: -0.014}\n" /* 5
                                                                                           */
    "  rebar: {type: steel02, fy: 420000, E0: 2e8, b: 0.01}\n"                            /* 6 */
    "  shear: {type: elastic, k: 2.0e6}\n"                                                /* 7 */
    "structure:\n"                                                                        /* 8 */
    "  model:\n"                                                                          /* 9 */
    "    ndm: 3\n"                                                                        /* 10 */
    "    nodes:\n"                                                                        /* 11 */
    "      - {id: 1, x: 0, y: 0, z: 0, fix: [1, 1, 1, 1, 1, 1]}\n"                        /* 12 */
    "      - {id: 2, x: 0, y: 0, z: 0}\n"                                                 /* 13 */
    "      - {id: 3, x: 0, y: 0, z: 3, mass: [30, 30, 30, 0.1, 0.1, 0.1]}\n"              /* 14 */
    "      - {id: 4, x: 4, y: 0, z: 0, fix: [1, 1, 1, 1, 1, 1]}\n"                        /* 15 */
    "      - {id: 5, x: 4, y: 0, z: 3, mass: [30, 30, 30, 0.1, 0.1, 0.1]}\n"              /* 16 */
    "    sections:\n"                                                                     /* 17 */
    "      - name: square\n"                                                              /* 18 */
    "        type: fiber\n"                                                               /* 19 */
    "        GJ: 2.0e4\n"                                                                 /* 20 */
    "        patches:\n"                                                                  /* 21 */
    "          - {type: rect, material: core, divisions: [8, 8], I: [-0.2, -0.2], J: [0.2, "
    "0.2]}\n"           /* 22 */
    "        layers:\n" /* 23 */
    "          - {type: straight, material: rebar, bars: 3, area: 4.9e-4, start: [-0.16, "
    "-0.16], end: [-0.16, 0.16]}\n" /* 24 */
    "          - {type: straight, material: rebar, bars: 3, area: 4.9e-4, start: [0.16, "
    "-0.16], end: [0.16, 0.16]}\n" /* 25 */
    "      - {name: base, type: aggregator, materials: {Vy: shear, Vz: shear}, section: "
    "square}\n"             /* 26 */
    "      - name: round\n" /* 27 */
    "        type: fiber\n" /* 28 */
    "        GJ: 1.5e4\n"   /* 29 */
    "        patches:\n"    /* 30 */
    "          - {type: circ, material: core, divisions: [12, 3], center: [0, 0], radius: [0, "
    "0.22]}\n"          /* 31 */
    "        layers:\n" /* 32 */
    "          - {type: circ, material: rebar, bars: 8, area: 3.8e-4, center: [0, 0], radius: "
    "0.18}\n"         /* 33 */
    "    elements:\n" /* 34 */
    "      - {type: zero_length_section, name: hinge, nodes: [1, 2], section: base, orient: "
    "[0, 0, 1, 1, 0, 0]}\n" /* 35 */
    "      - {type: disp_beam_column, name: col, nodes: [2, 3], section: square, vecxz: [1, 0, "
    "0],\n"                                                                      /* 36 */
    "         integration: {type: Legendre, points: 3}, transf: corotational}\n" /* 37 */
    "      - {type: force_beam_column, name: col2, nodes: [4, 5], section: round, vecxz: [0, "
    "1, 0],\n"                                                                       /* 38 */
    "         integration: {type: Lobatto, points: 4}, transf: pdelta, mass: 0.5}\n" /* 39 */
    "    excitation: x\n"                                                            /* 40 */
    "  damping: {rayleigh: {modes: [1, 2], ratios: [0.02, 0.02]}}\n"                 /* 41 */
    "ground_motion:\n"                                                               /* 42 */
    "  synthetic: {seed: 5, pga: 6.0, duration: 4, dt: 0.01}\n"                      /* 43 */
    "analysis:\n"                                                                    /* 44 */
    "  integrator: {type: hht, alpha: -0.05}\n"                                      /* 45 */
    "  dt: 0.01\n"                                                                   /* 46 */
    "  steps: 400\n" /* 47 */;

/* a 2-D cantilever of an elastic section and a uniaxial hinge */
static const char *const base2d =
    "hysim: 1\n"                                                               /* 1 */
    "name: c2d\n"                                                              /* 2 */
    "units: {force: kN, length: m, time: s}\n"                                 /* 3 */
    "materials:\n"                                                             /* 4 */
    "  spring: {type: steel01, fy: 80, E0: 4000, b: 0.02}\n"                   /* 5 */
    "structure:\n"                                                             /* 6 */
    "  model:\n"                                                               /* 7 */
    "    nodes:\n"                                                             /* 8 */
    "      - {id: 1, x: 0, y: 0, fix: [1, 1, 1]}\n"                            /* 9 */
    "      - {id: 2, x: 0, y: 0, fix: [1, 1, 0]}\n"                            /* 10 */
    "      - {id: 3, x: 0, y: 3, mass: [10, 10, 0.1]}\n"                       /* 11 */
    "    sections:\n"                                                          /* 12 */
    "      - {name: el, type: elastic, EA: 1.0e6, EIz: 2.0e4}\n"               /* 13 */
    "      - {name: hinge, type: uniaxial, material: spring, resultant: Mz}\n" /* 14 */
    "    elements:\n"                                                          /* 15 */
    "      - {type: zero_length_section, nodes: [1, 2], section: hinge}\n"     /* 16 */
    "      - {type: disp_beam_column, nodes: [2, 3], section: el,\n"           /* 17 */
    "         integration: {type: Legendre, points: 2}}\n"                     /* 18 */
    "  damping: {none: true}\n"                                                /* 19 */
    "ground_motion:\n"                                                         /* 20 */
    "  synthetic: {seed: 2, pga: 1.0, duration: 1, dt: 0.01}\n"                /* 21 */
    "analysis:\n"                                                              /* 22 */
    "  integrator: {type: newmark}\n"                                          /* 23 */
    "  dt: 0.01\n"                                                             /* 24 */
    "  steps: 10\n";                                                           /* 25 */

static const hs_bad_case bad3d[] = {
    {"        GJ: 2.0e4\n", "", "18:9", "a 3-D fiber section needs GJ"},
    {"material: rebar, bars: 3, area: 4.9e-4, start: [-0.16",
     "material: rebarr, bars: 3, area: 4.9e-4, start: [-0.16", "24:40",
     "unknown material 'rebarr'; did you mean 'rebar'?"},
    {"section: square, vecxz", "section: squar, vecxz", "36:69",
     "no section 'squar' in structure.model.sections; did you mean 'square'?"},
    {"type: Lobatto, points: 4", "type: Lobatto, points: 1", "39:47",
     "Lobatto takes 2 to 20 integration points, got 1"},
    {"divisions: [8, 8]", "division: [8, 8]", "22:42",
     "unknown key 'division' in structure.model.sections[1].patches[1]; did you mean 'divisions'?"},
    {", vecxz: [1, 0, 0]", "", "36:9", "missing required key 'vecxz'"},
    {"transf: corotational}", "transf: corotational, iterations: {max: 5}}", "37:86",
     "a disp_beam_column has no element iterations"},
    {"section: square}", "section: round}", "26:84",
     "no section 'round' above it in structure.model.sections (define it first)"},
    {"type: Lobatto, points: 4", "type: HingeRadau, lp_i: 0.3, lp_j: 0.3", "38:71",
     "HingeRadau takes sections: {i: NAME, j: NAME, interior: NAME}"},
    {"Vz: shear}", "Vw: shear}", "26:63", "expected a resultant P, Mz, Vy, My, Vz or T, got 'Vw'"},
    {"type: rect", "type: rectangle", "22:20", "a patch is rect, quad or circ, got 'rectangle'"},
    {"radius: [0, 0.22]", "radius: [0, 0.22], start: [0, 0]", "31:97",
     "unknown key 'start' in structure.model.sections[3].patches[1]"},
    {"        type: fiber\n        GJ: 1.5e4", "        type: fibre\n        GJ: 1.5e4", "28:15",
     "unknown section type 'fibre'; did you mean 'fiber'?"},
    {"type: Legendre", "type: Legendr", "37:30",
     "unknown integration 'Legendr'; did you mean 'Legendre'?"},
    {"orient: [0, 0, 1, 1, 0, 0]", "orient: [0, 0, 1]", "35:88",
     "expected the local x axis and a vector of the local x-y plane [x1, x2, x3, yp1, yp2, yp3]"},
    {"{name: base, type: aggregator, materials: {Vy: shear, Vz: shear}, section: square}",
     "{name: base, type: elastic, EA: 1.0e6, EIz: 1.0e3, EIy: 1.0e3}", "26:9",
     "missing required key 'GJ'"},
    {"name: round", "name: square", "27:15", "section 'square' is defined twice"},
    {"mass: 0.5", "mass: -1", "39:73", "mass per length must be >= 0 (got -1)"},
    {"points: 3}", "points: 3, lp_i: 0.2}", "37:51",
     "'lp_i' does not apply to Legendre (it takes points)"},
    {"section: square, vecxz: [1, 0, 0]", "section: square, vecxz: [0, 0, 1]", "36:9",
     "element 'col': vecxz (0, 0, 1) is parallel to the element's axis"},
    {"bars: 8, area: 3.8e-4", "bars: 0, area: 3.8e-4", "33:49",
     "bars: must be between 1 and 100000"},
};

static const hs_bad_case bad2d[] = {
    {"EIz: 2.0e4}", "EIz: 2.0e4, GJ: 1}", "13:62", "GJ is for 3-D sections (ndm: 3)"},
    {"EIz: 2.0e4}", "EIz: -1}", "13:51", "must be > 0 (got -1)"},
    {"resultant: Mz", "resultant: My", "14:68",
     "My is a 3-D resultant; a 2-D section has P, Mz, Vy"},
    {"section: el,", "section: el, vecxz: [0, 0, 1],", "17:69", "'vecxz' is for 3-D beam-columns"},
    {"section: el,", "section: el, sections: {i: el, j: el, interior: el},", "17:72",
     "give section or sections, not both"},
    {"section: hinge}", "section: hinge, integration: {type: Lobatto, points: 3}}", "16:81",
     "'integration' does not apply to a zero_length_section element"},
    {"      - {name: el, type: elastic, EA: 1.0e6, EIz: 2.0e4}\n"
     "      - {name: hinge, type: uniaxial, material: spring, resultant: Mz}\n",
     "      - {name: f, type: fiber, GJ: 1}\n"
     "      - {name: hinge, type: uniaxial, material: spring, resultant: Mz}\n",
     "13:9", "a fiber section needs patches, layers or fibers"},
    {"type: Legendre, points: 2", "type: UserDefined, locations: [0.2, 0.8], weights: [0.5]",
     "18:75", "weights: expected 2 values (one per point of locations), got 1"},
};

static void test_bases_load(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    const char *const bases[] = {base3d, base2d};
    const int ndofs[] = {12, 3}; /* nodes 3 and 5: six DOFs each; node 3 of the cantilever */
    for (int b = 0; b < 2; b++) {
        hs_test_def *def = NULL;
        const int rc = hs_testfile_load_string(ctx, bases[b], strlen(bases[b]), "good.yaml", &def);
        if (rc) fprintf(stderr, "base %d: %s\n", b, hs_ctx_message(ctx));
        assert_int_equal(rc, 0);
        assert_int_equal(hs_model_ndof(def->model), ndofs[b]);
        hs_test_def_destroy(&def);
    }
    hs_ctx_destroy(&ctx);
}

static void test_bad_files(void **state)
{
    (void)state;
    hs_ctx *ctx = NULL;
    assert_int_equal(hs_ctx_create(&ctx), 0);
    int failures =
        hs_test_bad_cases(ctx, base3d, "bad.yaml", bad3d, sizeof bad3d / sizeof bad3d[0]);
    failures += hs_test_bad_cases(ctx, base2d, "bad.yaml", bad2d, sizeof bad2d / sizeof bad2d[0]);
    hs_ctx_destroy(&ctx);
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bases_load),
        cmocka_unit_test(test_bad_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
