#!/usr/bin/env bash
# Installs the system libraries Persist links against, when they are missing.
set -euo pipefail

# pkg-config finds libpq's headers (/usr/include/postgresql) through libpq.pc.
packages=(libsqlite3-dev libgdbm-dev libpq-dev postgresql pkg-config)
missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done

if [ "${#missing[@]}" -gt 0 ]; then
    echo "installing ${missing[*]}" >&2
    sudo_cmd=()
    if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
    # The frontend is set through env, which sudo keeps; a fresh machine's own apt runs may hold
    # the dpkg lock for a while, so wait for it rather than fail.
    apt=("${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600)
    "${apt[@]}" update -qq
    "${apt[@]}" install -y -qq "${missing[@]}" >/dev/null
fi
