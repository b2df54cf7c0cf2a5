#!/bin/sh
# Installs this release as a service, run as root from the unpacked folder:
#   tar xzf outpost-<version>-linux-x64.tar.gz && sudo outpost-<version>/install.sh
# - copies the release to /opt/outpost-<version> and points /opt/outpost at it (an upgrade is the
#   same command with a newer release: the data in /var/lib/outpost stays; the previous folder is
#   kept for a rollback);
# - makes the system user `outpost` with its data in /var/lib/outpost, and /etc/outpost/outpost.env;
# - installs bubblewrap (the game servers' sandbox) when apt-get is there and it is missing;
# - installs outpost.service and starts it, and links /usr/local/bin/outpost.
# The first administrator: sudo -u outpost env OUTPOST_DATA_DIR=/var/lib/outpost outpost user add --admin …
set -eu
here=$(cd "$(dirname "$0")" && pwd)
version=$(node -p "require('$here/package.json').version")
[ "$(id -u)" -eq 0 ] || { echo "install.sh: run it as root (sudo $0)" >&2; exit 1; }
command -v node >/dev/null 2>&1 || { echo "install.sh: Node.js 20 or newer is needed first" >&2; exit 1; }
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 20 ] || { echo "install.sh: Node.js 20 or newer is needed (this is $(node --version))" >&2; exit 1; }
if ! command -v bwrap >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then apt-get install -y -qq bubblewrap
  else echo "install.sh: install bubblewrap (bwrap), the sandbox game servers run in" >&2; exit 1; fi
fi
target=/opt/outpost-$version
if [ "$here" != "$target" ]; then rm -rf "$target"; cp -a "$here" "$target"; fi
ln -sfn "$target" /opt/outpost
ln -sfn /opt/outpost/bin/outpost /usr/local/bin/outpost
id outpost >/dev/null 2>&1 || useradd --system --home /var/lib/outpost --create-home outpost
mkdir -p /var/lib/outpost /etc/outpost
chown outpost:outpost /var/lib/outpost
chmod 700 /var/lib/outpost
[ -f /etc/outpost/outpost.env ] || printf '# OUTPOST_PUBLIC_URL=https://panel.example.com\n# DATABASE_URL=postgres://outpost@localhost/outpost\n' > /etc/outpost/outpost.env
cp "$target/outpost.service" /etc/systemd/system/outpost.service
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
  systemctl daemon-reload
  systemctl enable outpost >/dev/null
  systemctl restart outpost
  echo "install.sh: Outpost $version runs (systemctl status outpost); it listens on port 8080"
else
  echo "install.sh: Outpost $version is in $target; no systemd here: start it with"
  echo "  sudo -u outpost env OUTPOST_DATA_DIR=/var/lib/outpost /opt/outpost/bin/outpost serve"
fi
