#!/usr/bin/env bash
# Makes the Debian 12 root the VM test boots, once, and caches it: a debootstrap
# --variant=minbase root with systemd as PID 1, a kernel and initrd, and the clients the
# test uses (socat; Xvfb and dunst for herald-notify's user session). It has no Swift
# toolchain: Herald's programs must run on it as `make install` leaves them.
#
# Usage: build-root.sh CACHE_DIR — prints the path of the cached root folder.
set -euo pipefail

cache="$1"
mirror="${HERALD_VM_MIRROR:-http://deb.debian.org/debian}"
suite=bookworm
packages="systemd,systemd-sysv,linux-image-amd64,udev,dbus,dbus-user-session,libpam-systemd,socat,xvfb,dunst,procps"
# The key names what the root holds: a change to the suite or the packages makes a new one.
key="$(printf '%s\n' "$suite" "$packages" "3" | sha256sum | cut -c1-12)"
root="$cache/root-$key"

if [ -f "$root/.herald-root-complete" ]; then
  echo "$root"
  exit 0
fi

mkdir -p "$cache"
rm -rf "$root" "$root.partial"
echo "vm: making the Debian $suite root (once; cached in $root)" >&2
debootstrap --variant=minbase --include="$packages" "$suite" "$root.partial" "$mirror" >&2

# Boot quietly to multi-user and leave the console to the kernel and systemd: no getty
# on the serial console (it swallows what is written there), no periodic jobs that
# would start in the middle of a test.
r="$root.partial"
echo herald-vm > "$r/etc/hostname"
: > "$r/etc/fstab"
ln -sf /lib/systemd/system/multi-user.target "$r/etc/systemd/system/default.target"
for unit in serial-getty@ttyS0.service getty@tty1.service apt-daily.timer apt-daily-upgrade.timer \
  e2scrub_all.timer fstrim.timer man-db.timer dpkg-db-backup.timer systemd-tmpfiles-clean.timer; do
  ln -sf /dev/null "$r/etc/systemd/system/$unit"
done
# The journal in memory and on disk alike is fine; keep it persistent so a failed run
# can be read back from the image.
mkdir -p "$r/var/log/journal"
rm -rf "$r/var/cache/apt/archives/"*.deb
touch "$r/.herald-root-complete"
mv "$r" "$root"
echo "$root"
