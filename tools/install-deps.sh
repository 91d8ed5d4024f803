#!/usr/bin/env bash
# Installs the Debian packages clfuse needs to build and test, only those missing; safe to
# run again (nothing is fetched, not even the package lists, when all are present).
# Works as root, else through sudo.
set -euo pipefail
packages=(cmake build-essential gcc pkg-config ocl-icd-opencl-dev opencl-headers
          libclblast-dev libcjson-dev pocl-opencl-icd libcmocka-dev libxxhash-dev clinfo
          python3 oclgrind libdnnl-dev clang-format)
if ! command -v dpkg-query > /dev/null; then
    echo "install-deps: not a Debian-based system (no dpkg-query); install by hand:" \
         "${packages[*]}" >&2
    exit 1
fi
missing=()
for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2> /dev/null || true)
    [ "$status" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#packages[@]} packages present"
    exit 0
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo > /dev/null; then
        echo "install-deps: need root or sudo to install: ${missing[*]}" >&2
        exit 1
    fi
    sudo=(sudo)
fi
echo "install-deps: installing ${missing[*]}"
# env after sudo: sudo's env_reset would drop DEBIAN_FRONTEND set before it.
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends "${missing[@]}"
