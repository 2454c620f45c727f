/* The expElement parser's shared parts (opensees_tcl_openfresco.c), used by its generic
 * element (opensees_tcl_exp_generic.c): the options, what a site drives, the basic system. */
#ifndef HS_OPENSEES_TCL_EXP_ELEMENT_H
#define HS_OPENSEES_TCL_EXP_ELEMENT_H

#include "opensees_tcl_openfresco.h"

/* The element's options: -site tag, -initStif (n x n numbers), -tangStif tag, -iMod, -dir list
 * (twoNodeLink), -rho (truss); the others go to the numerical element's parser (`pass`). */
typedef struct exp_args {
    int site, ndir, dirs[HS_OS_NDF];
    int no_rayleigh; /* -noRayleigh (OpenFresco's elements take the Rayleigh factors by default) */
    int nk;          /* -initStif: its values (column-major, as OpenSees' Matrix::setData) */
    double k[HS_OS_MAX_DIRS * HS_OS_MAX_DIRS];
    int own_tangent; /* -tangStif: an estimated tangent; hysim's is the perfect specimen's own */
    double rho;
    int npass;
    Tcl_Obj *pass[64];
} exp_args;

/* What the site drives: actuator k's specimen, material mat[k] of the control, on the link
 * direction dir[k] (an OpenSees twoNodeLink -dir number), the element's basic DOF that the
 * setup's actuator (OneActuator, NoTransformation) or control DOF k (a setup with actuator
 * geometry) stands for; the setup's factors for the element (one set: equal over its
 * actuators). */
typedef struct exp_drive {
    int n, mat[HS_OF_MAX_MATS], dir[HS_OF_MAX_MATS];
    const hs_of_setup *setup;
    double scale[HS_OF_MAX_MATS][3]; /* per actuator: displacement, velocity, force */
} exp_drive;

/* The element's basic system: n hysim link directions read with a shear distance (< 0: the
 * link's own). */
typedef struct exp_basic {
    int n, dirs[HS_OS_MAX_DIRS];
    double shear_dist;
} exp_basic;

/* Reads the element's options from objv[first] (link: a twoNodeLink's -dir) into a. */
int hs_of_exp_options(hs_os_state *st, Tcl_Obj *const objv[], int objc, int first, int link,
                      exp_args *a);
/* The site's specimens through its setup, on the element's basic DOFs (basic_dir[b]: basic DOF
 * b's twoNodeLink direction). */
int hs_of_site_drive(hs_os_state *st, Tcl_Obj *const objv[], int site, int nbasic,
                     const int *basic_dir, exp_drive *d);
/* -initStif has n x n values, or none. */
int hs_of_check_init_stif(hs_os_state *st, Tcl_Obj *const objv[], const exp_args *a, int n);
/* Marks element e experimental: its site, drive, -initStif over its basic system b. */
void hs_of_mark_experimental(hs_os_element *e, const exp_drive *d, const exp_args *a, int site,
                             const exp_basic *b);
/* Defines `element twoNodeLink tag i j -mat .. -dir ..` (objv[2] the tag, objv[3], objv[4] the
 * nodes) for the drive d, then marks it experimental (opensees_tcl_openfresco.c). */
int hs_of_define_link(hs_os_state *st, Tcl_Interp *interp, Tcl_Obj *const objv[],
                      const exp_drive *d, double mass, const exp_args *a, int site,
                      const exp_basic *b);
/* opensees_tcl_exp_generic.c: the forceless material of a link's undriven directions and an
 * Elastic one of modulus E (a new tag from 1000000000 each, or 0 after raising the error), a
 * free element tag from 1000000000 (0 after the error), and `expElement generic tag -node n1 ..
 * -dof ... -site s ...`. */
int hs_of_generic_zero_material(hs_os_state *st, Tcl_Obj *const objv[]);
int hs_of_elastic_material(hs_os_state *st, Tcl_Obj *const objv[], double E);
int hs_of_free_element_tag(hs_os_state *st, Tcl_Obj *const objv[]);
int hs_of_exp_generic(hs_os_state *st, int objc, Tcl_Obj *const objv[]);
/* opensees_tcl_exp_aggregate.c: expElement twoNodeLink (or the 3-D beamColumn: beam3, its basic
 * system b with EEBeamColumn3d's elastic axial force and torsion) on an Aggregator of setups with
 * actuator geometry (d->setup->nsub): a link per setup between the element's nodes (objv[3],
 * objv[4]), the first with the element's tag, -initStif and mass. */
int hs_of_exp_link_aggregate(hs_os_state *st, Tcl_Interp *interp, Tcl_Obj *const objv[],
                             const exp_drive *d, const exp_args *a, const exp_basic *b, double mass,
                             int beam3);

#endif
