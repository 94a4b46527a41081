#!/usr/bin/env bash
# Installs the Debian packages the project needs, only if something is
# missing.  Safe to run again; needs root (or sudo) only when installing.
#
# usage: scripts/deps.sh [--fuzz | --ovs-build]
#   --fuzz       also clang 14 and its runtimes (libFuzzer), for scripts/fuzz.sh;
#                nothing else needs them
#   --ovs-build  also what building OVS from a git tree takes (autoconf,
#                automake, libtool), for real OVS in the loop
#                (scripts/real-ovs.sh, --ovs-tree); the runner calls it
set -euo pipefail

packages=(
  build-essential meson ninja-build pkg-config
  libbenchmark-dev libjemalloc-dev libssl-dev
  hyperfine valgrind python3 python3-matplotlib python3-scipy
  openvswitch-common ovn-common ovn-central
  slurmctld slurmd slurm-client munge parallel rsync openssh-client openssh-server
)
case "${1:-}" in
  --fuzz) packages+=(clang libclang-rt-14-dev) ;;
  --ovs-build) packages+=(autoconf automake libtool) ;;
  "") ;;
  *) echo "usage: scripts/deps.sh [--fuzz | --ovs-build]" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' \
    || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# openssh-server only brings sshd for the ssh test (tests/shards/test_ssh.py
# starts its own on a high port): when this installs it, sshd_not_to_be_run
# keeps the system's ssh service from starting.
if [[ " ${missing[*]} " == *" openssh-server "* ]]; then
  $sudo mkdir -p /etc/ssh
  $sudo touch /etc/ssh/sshd_not_to_be_run
fi
# ovn-central only brings the OVN schemas here; policy-rc.d keeps its
# services from starting where an init system would start them.
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
