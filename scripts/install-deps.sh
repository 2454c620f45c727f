#!/usr/bin/env bash
# Installs the Debian packages hysim needs, only those missing. Uses sudo when not root.
set -euo pipefail
pkgs=(build-essential cmake pkg-config clang libclang-rt-dev libcmocka-dev liblapacke-dev
      libopenblas-serial-dev libopenblas0-serial libsuitesparse-dev libarpack2-dev libyaml-dev libhdf5-dev
      libssl-dev libsodium-dev gnuplot-nox libmicrohttpd-dev libjs-dygraphs
      chromium poppler-utils python3 iptables iproute2 libmatio-dev help2man man-db
      python3-numpy python3-scipy python3-h5py tcl-dev time)
missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
