#!/usr/bin/env bash
# Installs the Debian packages a job needs, only what is missing.  Safe to
# run again; needs root (or sudo) only when something is missing.
#
# usage: scripts/deps.sh [--engines] [--fuzz] [--ovs-build] [--list]
#   (none)       build and run: compiler, meson, ninja, google-benchmark,
#                jemalloc, OpenSSL headers, hyperfine, valgrind, Python with
#                matplotlib and scipy, Open vSwitch's ovsdb-tool/-server/
#                -client (openvswitch-common), and the OVN NB/SB schemas,
#                taken out of the ovn-central package into /usr/share/ovn
#                without installing it (it ships OVN's services)
#   --engines    also Slurm, munge, GNU parallel, rsync, ssh and sshd: what
#                `scripts/jsonbench slurm|parallel` and the tests of those
#                engines run (docs/shards.md)
#   --fuzz       also clang 14 and its runtimes (libFuzzer), for scripts/fuzz.sh
#   --ovs-build  also what building OVS from a git tree takes (autoconf,
#                automake, libtool), for real OVS in the loop
#                (scripts/real-ovs.sh, --ovs-tree); the runner calls it
#   --list       print the packages the other options select and exit
#
# No service is enabled or started: the default packages ship none (the
# test 'deps-no-services' checks it), and the services --engines brings
# (slurmctld, slurmd, munge, ssh) are installed disabled and not started;
# the tests start their own daemons and stop them by pid.
set -euo pipefail

base=(
  build-essential meson ninja-build pkg-config
  libbenchmark-dev libjemalloc-dev libssl-dev
  hyperfine valgrind python3 python3-matplotlib python3-scipy
  openvswitch-common
)
engines=(slurmctld slurmd slurm-client munge parallel rsync openssh-client openssh-server)
fuzz=(clang libclang-rt-14-dev)
ovs_build=(autoconf automake libtool)
# The one file set taken from ovn-central (see ovn_schemas below).
OVN_DIR=/usr/share/ovn
OVN_SCHEMAS=(ovn-nb.ovsschema ovn-sb.ovsschema)

usage() {
  echo "usage: scripts/deps.sh [--engines] [--fuzz] [--ovs-build] [--list]" >&2
  exit 2
}

packages=("${base[@]}")
list=0 with_engines=0
for arg in "$@"; do
  case "$arg" in
    --engines) packages+=("${engines[@]}"); with_engines=1 ;;
    --fuzz) packages+=("${fuzz[@]}") ;;
    --ovs-build) packages+=("${ovs_build[@]}") ;;
    --list) list=1 ;;
    *) usage ;;
  esac
done
if [ $list -eq 1 ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

installed() {  # installed PKG: true when dpkg has it fully installed
  dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q '^install ok installed$'
}
missing=()
for p in "${packages[@]}"; do
  installed "$p" || missing+=("$p")
done
need_schemas=0
for s in "${OVN_SCHEMAS[@]}"; do
  [ -f "$OVN_DIR/$s" ] || need_schemas=1
done
[ ${#missing[@]} -eq 0 ] && [ $need_schemas -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq

# ovn-central holds the OVN schemas but also ships and starts OVN's
# northd and NB/SB database services: take only the two schema files out
# of its package, into the folder every script and test reads them from.
# dpkg overwrites them if ovn-central is ever installed.
ovn_schemas() {
  local tmp
  tmp=$(mktemp -d /tmp/jsonbench-deps.XXXXXX)
  echo "deps: taking ${OVN_SCHEMAS[*]} out of package ovn-central into $OVN_DIR" \
       "(ovn-central itself is not installed)" >&2
  (cd "$tmp" && apt-get download -qq -o APT::Sandbox::User=root ovn-central >/dev/null)
  local deb members=()
  deb=$(ls "$tmp"/ovn-central_*.deb)
  for s in "${OVN_SCHEMAS[@]}"; do members+=("./usr/share/ovn/$s"); done
  dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" "${members[@]}"
  $sudo install -d -m 755 "$OVN_DIR"
  for s in "${OVN_SCHEMAS[@]}"; do
    $sudo install -m 644 "$tmp/usr/share/ovn/$s" "$OVN_DIR/$s"
  done
  rm -rf "$tmp"
}
[ $need_schemas -eq 1 ] && ovn_schemas
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}" >&2
# Nothing installed here starts a service: a policy-rc.d that denies every
# start stands in for the system's (if any) during the install, and the
# units of each package new to the system are disabled afterwards (their
# postinst enables them).  A package that was installed before keeps the
# settings it had.
before=$(dpkg-query -W -f='${Package}\t${Status}\n' | awk '/install ok installed/ {print $1}')
policy=/usr/sbin/policy-rc.d saved=""
if [ -e "$policy" ]; then
  saved=$policy.jsonbench-saved
  $sudo mv "$policy" "$saved"
fi
restore_policy() {
  $sudo rm -f "$policy"
  if [ -n "$saved" ]; then $sudo mv "$saved" "$policy"; fi
}
trap restore_policy EXIT
printf '#!/bin/sh\n# scripts/deps.sh: no service starts during its install\nexit 101\n' |
  $sudo tee "$policy" >/dev/null
$sudo chmod 755 "$policy"
# openssh-server (--engines) brings sshd for the ssh test, which runs its
# own on a high port: sshd_not_to_be_run also keeps the system's ssh
# service from starting at the next boot if someone enables it.
if [[ " ${missing[*]} " == *" openssh-server "* ]]; then
  $sudo mkdir -p /etc/ssh
  $sudo touch /etc/ssh/sshd_not_to_be_run
fi
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
restore_policy
trap - EXIT

after=$(dpkg-query -W -f='${Package}\t${Status}\n' | awk '/install ok installed/ {print $1}')
new=$(comm -13 <(sort <<<"$before") <(sort <<<"$after"))
units=() scripts=()
for p in $new; do
  while read -r f; do
    case "$f" in
      */systemd/system/*@.*) ;;  # templates: nothing enables them on install
      */systemd/system/*.service|*/systemd/system/*.socket|*/systemd/system/*.timer|\
      */systemd/system/*.path|*/systemd/system/*.target) units+=("${f##*/}") ;;
      /etc/init.d/*) scripts+=("${f##*/}") ;;
    esac
  done < <(dpkg -L "$p" 2>/dev/null)
done
if [ ${#units[@]} -gt 0 ] && command -v systemctl >/dev/null; then
  $sudo systemctl disable --quiet "${units[@]}" 2>/dev/null || true
  if [ -d /run/systemd/system ]; then
    # policy-rc.d kept them from starting; a unit active now was started
    # by what was just installed and is stopped again.
    for u in "${units[@]}"; do
      if systemctl is-active --quiet "$u"; then $sudo systemctl stop "$u" || true; fi
    done
  fi
fi
for s in "${scripts[@]}"; do
  $sudo update-rc.d "$s" disable >/dev/null 2>&1 || true
done
if [ ${#units[@]} -gt 0 ] || [ ${#scripts[@]} -gt 0 ]; then
  echo "deps: installed disabled and not started: $(printf '%s\n' "${units[@]}" \
       "${scripts[@]}" | sed 's/\.[a-z]*$//' | sort -u | tr '\n' ' ')" >&2
fi
if [ $with_engines -eq 1 ]; then
  echo "deps: the engines' daemons are for the tests, which start their own;" \
       "a cluster is set up by hand (docs/shards.md)" >&2
fi
