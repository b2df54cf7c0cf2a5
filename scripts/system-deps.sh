#!/usr/bin/env bash
# Installs what the test suites need that npm cannot provide, from Debian's
# packages: Chromium for Playwright, PostgreSQL for the database suite, and
# OpenTTD (with its free graphics set) as a real game server for the server tests,
# the xz, bzip2 and zstd decompressors the extract step uses for tar.xz/.bz2/.zst,
# OpenSSH's client programs (sftp, ssh, ssh-keyscan, ssh-keygen) that the SFTP tests drive,
# bubblewrap, the sandbox every game server of the host environment runs in, iptables, with which
# a root node keeps its servers off the host's loopback,
# and Docker's engine (docker.io, for the docker environment's tests, which start their own dockerd
# when none runs) with the static busybox their test image is built from (no registry needed),
# MariaDB's server (database hosts and the import from Pterodactyl or Pelican run their tests against it),
# and HAProxy (with curl), the load balancer the scale-out test puts in front of several panels (deploy/haproxy.cfg).
# Idempotent: installs only what is missing. Fails loudly when it cannot.
set -euo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
[ -x /usr/games/openttd ] || missing+=(openttd)
# Without a base graphics set even the dedicated server refuses to start.
dpkg -s openttd-opengfx >/dev/null 2>&1 || missing+=(openttd-opengfx)
command -v xz >/dev/null 2>&1 || missing+=(xz-utils)
command -v bzip2 >/dev/null 2>&1 || missing+=(bzip2)
command -v zstd >/dev/null 2>&1 || missing+=(zstd)
for program in sftp ssh ssh-keyscan ssh-keygen; do
  command -v "$program" >/dev/null 2>&1 || { missing+=(openssh-client); break; }
done
command -v bwrap >/dev/null 2>&1 || missing+=(bubblewrap)
# A root node closes the host's loopback to its servers with an iptables chain (loopback-guard.ts).
[ -x /usr/sbin/iptables-restore ] || missing+=(iptables)
[ -x /usr/sbin/dockerd ] || [ -x /usr/bin/dockerd ] || missing+=(docker.io)
# Only the static build can be copied alone into an image.
{ [ -x /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1; } || missing+=(busybox-static)
[ -x /usr/sbin/haproxy ] || missing+=(haproxy)
[ -x /usr/sbin/mariadbd ] || missing+=(mariadb-server)
# The README's scale-out steps (run by that test) wait for the balancer with curl.
command -v curl >/dev/null 2>&1 || missing+=(curl)

if [ ${#missing[@]} -eq 0 ]; then
  echo "system-deps: all present"
  exit 0
fi

echo "system-deps: installing ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "system-deps: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
else
  SUDO=""
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
# Debian's post-install tries to start a cluster and is refused without an init system; the suite starts its own.
command -v chromium >/dev/null 2>&1 || { echo "system-deps: chromium still missing" >&2; exit 1; }
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { echo "system-deps: PostgreSQL still missing" >&2; exit 1; }
[ -x /usr/games/openttd ] || { echo "system-deps: OpenTTD still missing" >&2; exit 1; }
[ -x /usr/sbin/dockerd ] || [ -x /usr/bin/dockerd ] || { echo "system-deps: dockerd still missing" >&2; exit 1; }
[ -x /usr/sbin/haproxy ] || { echo "system-deps: haproxy still missing" >&2; exit 1; }
[ -x /usr/sbin/mariadbd ] || { echo "system-deps: MariaDB still missing" >&2; exit 1; }
for program in xz bzip2 zstd sftp ssh ssh-keyscan ssh-keygen bwrap; do
  command -v "$program" >/dev/null 2>&1 || { echo "system-deps: $program still missing" >&2; exit 1; }
done
