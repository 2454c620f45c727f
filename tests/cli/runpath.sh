#!/usr/bin/env bash
# No program or library that hysim builds searches the current folder for shared libraries
# (issue 17, hole 1): an empty entry in DT_RUNPATH/DT_RPATH is read by the loader as ".", so a
# libmicrohttpd.so.12 planted where `hysim version` runs had its constructor executed (since
# libmicrohttpd is loaded on first use, src/monitor/mhd_libs.c, the plant is libsodium's name).
# 1. Every ELF file of the build tree and of a `cmake --install` tree: each RPATH/RUNPATH entry
#    (readelf -d) is absolute or starts with $ORIGIN; none is empty or relative.
# 2. A planted libsodium.so.N (the soname hysim needs) whose constructor writes a marker is not loaded when the
#    program runs in its folder; the same library is loaded when named on LD_LIBRARY_PATH (the
#    positive control: the plant would be seen if the loader took it).
# Usage: runpath.sh HYSIM
set -u
hysim=$1
build=${HS_BINARY_DIR:?HS_BINARY_DIR not set (run through ctest)}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v readelf >/dev/null || fail "readelf not found (binutils: scripts/install-deps.sh)"

# prints "FILE: ENTRY" for every search-path entry that is empty or relative
bad_entries() {
    local f=$1 path
    path=$(readelf -d "$f" 2>/dev/null | sed -n 's/.*(R\(UN\)\{0,1\}PATH).*path: \[\(.*\)\]$/\2/p')
    [ -n "$path" ] || return 0
    # a trailing or doubled colon is an empty entry: split keeping the empty fields
    awk -v f="$f" -v p="$path" 'BEGIN {
        n = split(p, e, ":");
        for (i = 1; i <= n; i++)
            if (e[i] !~ /^\// && e[i] !~ /^\$ORIGIN/ && e[i] !~ /^\$\{ORIGIN\}/)
                printf "%s: entry %d of \"%s\" is \"%s\"\n", f, i, p, e[i];
    }'
}
is_elf() { [ "$(head -c 4 "$1" 2>/dev/null | od -An -c | tr -d ' ')" = '177ELF' ]; }

scan() {
    local root=$1 count=0 f
    while IFS= read -r -d '' f; do
        is_elf "$f" || continue
        count=$((count + 1))
        bad_entries "$f" >>"$dir/bad"
    done < <(find "$root" -type f \( -perm -u+x -o -name '*.so*' \) -not -path '*/CMakeFiles/*' -print0)
    echo "$count"
}
: >"$dir/bad"
n_build=$(scan "$build")
[ "$n_build" -ge 3 ] || fail "found only $n_build ELF files in $build (expected the program, the library, the tests)"
cmake --install "$build" --prefix "$dir/prefix" >"$dir/install.log" 2>&1 ||
    fail "cmake --install failed: $(tail -5 "$dir/install.log")"
n_inst=$(scan "$dir/prefix")
[ "$n_inst" -ge 2 ] || fail "found only $n_inst ELF files in the installed tree (expected hysim and libhysim)"
[ ! -s "$dir/bad" ] || fail "search paths that include the current folder or a relative one:
$(cat "$dir/bad")"

# the planted library
cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
mkdir -p "$dir/cwd"
cat >"$dir/plant.c" <<'C'
#include <fcntl.h>
#include <unistd.h>
__attribute__((constructor)) static void planted(void)
{
    int fd = open("planted_library_ran", O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd >= 0) close(fd);
}
C
plant=$(readelf -d "$hysim" | sed -n 's/.*(NEEDED).*\[\(libsodium\.so\.[0-9]*\)\]$/\1/p')
[ -n "$plant" ] ||
    fail "hysim does not need libsodium.so.N any more: update the planted library's name ($(readelf -d "$hysim" | grep NEEDED))"
"${cc:-cc}" -shared -fPIC -Wl,-soname,"$plant" "$dir/plant.c" -o "$dir/cwd/$plant" \
    2>"$dir/cc.log" || fail "building the planted library: $(cat "$dir/cc.log")"
for prog in "$hysim" "$dir/prefix/bin/hysim"; do
    rm -f "$dir/cwd/planted_library_ran"
    (cd "$dir/cwd" && ASAN_OPTIONS=detect_leaks=0 "$prog" version >/dev/null 2>&1)
    [ ! -e "$dir/cwd/planted_library_ran" ] ||
        fail "$prog loaded $plant from the current folder"
    # positive control: with the folder on LD_LIBRARY_PATH the plant is loaded (and the run fails)
    (cd "$dir/cwd" && LD_LIBRARY_PATH=. ASAN_OPTIONS=detect_leaks=0 "$prog" version >/dev/null 2>&1)
    [ -e "$dir/cwd/planted_library_ran" ] ||
        fail "control: the planted library was not loaded even through LD_LIBRARY_PATH=. (the test cannot see a plant)"
done
echo "runpath.sh: $n_build ELF files in the build tree and $n_inst installed, no empty or relative search path; a planted $plant in the current folder is not loaded"
