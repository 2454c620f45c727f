#!/usr/bin/env bash
# `cmake --install` into a temporary prefix puts the shared, versioned libhysim, its headers,
# hysim.pc, the program and its man page in place; a small program built against the installed
# library with `pkg-config --cflags --libs hysim` integrates an undamped SDOF (m = 2, k = 800,
# omega = 20 rad/s) in free vibration from d0 = 0.01 with Newmark's average acceleration and
# checks it against the closed form of that rule: (omega d, v) turns by exactly theta per step,
# tan(theta / 2) = omega dt / 2, so d_n = d0 cos(n theta) (to round-off). Usage: install.sh HYSIM
set -u
hysim=$1
build=${HS_BINARY_DIR:?HS_BINARY_DIR not set (run through ctest)}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v pkg-config >/dev/null || fail "pkg-config not found (scripts/install-deps.sh installs it)"

prefix="$dir/prefix"
cmake --install "$build" --prefix "$prefix" >"$dir/install.log" 2>&1 ||
    fail "cmake --install failed: $(tail -5 "$dir/install.log")"
version=$(sed -n 's/^project(hysim VERSION \([0-9.]*\).*/\1/p' "${HS_SOURCE_DIR:?}/CMakeLists.txt")
pc=$(find "$prefix" -name hysim.pc)
[ -n "$pc" ] || fail "no hysim.pc installed"
libdir=$(dirname "$(dirname "$pc")")
real=$(find "$libdir" -name "libhysim.so.$version" -type f)
[ -n "$real" ] || fail "no libhysim.so.$version in $libdir: $(ls "$libdir")"
soname=$(objdump -p "$real" | awk '/SONAME/{print $2}')
[ "$soname" = "libhysim.so.${version%.*}" ] || fail "SONAME '$soname', expected libhysim.so.${version%.*}"
[ -L "$libdir/$soname" ] && [ -L "$libdir/libhysim.so" ] || fail "the libhysim.so symlinks are missing"
for h in hysim.h model.h integrator.h results.h; do
    [ -f "$prefix/include/hysim/$h" ] || fail "header hysim/$h not installed"
done
[ -x "$prefix/bin/hysim" ] || fail "the program is not installed"
"$prefix/bin/hysim" --version | grep -qx "hysim $version" || fail "installed hysim --version"

export PKG_CONFIG_PATH="$(dirname "$pc")"
[ "$(pkg-config --modversion hysim)" = "$version" ] || fail "pkg-config --modversion hysim"
cat >"$dir/sdof.c" <<'C'
#include <hysim/hysim.h>
#include <math.h>
#include <stdio.h>

int main(void)
{
    const double m = 2.0, k = 800.0, dt = 0.01, d0 = 0.01, omega = sqrt(k / m);
    hs_ctx *ctx = NULL;
    hs_model *model = NULL;
    hs_options *o = NULL;
    hs_integrator *it = NULL;
    hs_dynamics dyn;
    double K0[1], f[1] = {0.0}, x0[1] = {d0}, v0[1] = {0.0}, dcmd[1];
    int rc = hs_ctx_create(&ctx);
    if (!rc) rc = hs_model_create(ctx, 1, &model);
    if (!rc) rc = hs_model_set_mass(model, &m);
    if (!rc) rc = hs_options_create(&o);
    if (!rc) rc = hs_options_set_num(o, "k", k);
    if (!rc && hs_model_add_story(model, 0, "elastic", o, "column") < 0) rc = 1;
    if (!rc) rc = hs_model_dynamics(model, K0, &dyn);
    if (!rc) rc = hs_integrator_create(ctx, "newmark", NULL, &it);
    if (!rc) rc = hs_integrator_setup(it, &dyn, dt, x0, v0, f);
    const double theta = 2.0 * atan(omega * dt / 2.0);
    double worst = 0.0;
    for (int n = 1; !rc && n <= 1000; n++) {
        hs_step_io io = {.step = n - 1, .t = (n - 1) * dt, .f_n = f, .f_n1 = f, .d_cmd = dcmd};
        rc = hs_integrator_step(it, &io);
        const double err = fabs(hs_integrator_displacement(it)[0] - d0 * cos(n * theta));
        if (err > worst) worst = err;
    }
    if (rc) {
        fprintf(stderr, "sdof: %s\n", hs_ctx_message(ctx));
        return 2;
    }
    printf("sdof: hysim %s, 1000 steps, d(10 s) = %.12g, largest error %.3g of d0 = %g\n",
           HS_VERSION_STRING, hs_integrator_displacement(it)[0], worst, d0);
    hs_integrator_destroy(&it);
    hs_options_destroy(&o);
    hs_model_destroy(&model);
    hs_ctx_destroy(&ctx);
    return worst <= 1e-12 * d0 ? 0 : 1;
}
C
# the compiler and sanitizers of this build (a sanitized library needs its runtime)
cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
flags=()
grep -q '^HS_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" && flags=(-fsanitize=address,undefined)
# shellcheck disable=SC2046
"${cc:-cc}" -std=c17 -Wall -Werror "${flags[@]}" "$dir/sdof.c" -o "$dir/sdof" \
    $(pkg-config --cflags --libs hysim) -lm 2>"$dir/cc.log" || fail "building against the installed library: $(cat "$dir/cc.log")"
ldd "$dir/sdof" | grep -q "libhysim.so.${version%.*} => $libdir" || {
    LD_LIBRARY_PATH="$libdir" ldd "$dir/sdof" | grep -q "libhysim.so.${version%.*} => $libdir" ||
        fail "the program does not load the installed libhysim: $(ldd "$dir/sdof" | grep hysim)"
}
LD_LIBRARY_PATH="$libdir" ASAN_OPTIONS=detect_leaks=0 "$dir/sdof" || fail "the SDOF program failed"

# the man page
man1="$prefix/share/man/man1/hysim.1"
if [ ! -f "$build/hysim.1" ]; then
    echo "install.sh: man page not checked: help2man was not found at configure time"
else
    [ -f "$man1" ] || fail "hysim.1 not installed in share/man/man1"
    command -v man >/dev/null || fail "man not found (man-db: scripts/install-deps.sh)"
    MANWIDTH=100 man -l "$man1" >"$dir/man.txt" 2>"$dir/man.err" || fail "man -l: $(cat "$dir/man.err")"
    grep -q "^NAME" "$dir/man.txt" || fail "the man page has no NAME section"
    for cmd in $("$hysim" --help | awk '/^  [a-z][a-z-]* /{print $1}'); do
        grep -q "^ *$cmd\b" "$dir/man.txt" || fail "the man page lacks the command '$cmd'"
    done
    MANPATH="$prefix/share/man" man -w hysim | grep -q "^$man1" || fail "man -w hysim does not find the installed page"
fi
echo "install.sh: libhysim.so.$version (SONAME $soname), headers, hysim.pc, hysim and hysim.1 installed; SDOF built with pkg-config"
