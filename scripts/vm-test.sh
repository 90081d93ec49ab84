#!/usr/bin/env bash
# Herald under a real systemd: boots Debian 12 under QEMU with systemd as PID 1, Herald
# installed into it by its own `make install DESTDIR=… PREFIX=/usr`, on an image with no
# Swift toolchain, and runs scripts/vm/guest-test.sh there as the administrator would.
#
# The Debian root is made once by scripts/vm/build-root.sh and cached in
# $HERALD_VM_CACHE (default: $XDG_CACHE_HOME/herald-vm, else ~/.cache/herald-vm).
# Each run copies it, installs Herald, makes an ext4 disk of it with `mkfs.ext4 -d` and
# boots its kernel under TCG (KVM guests hang on these machines). The guest writes each
# case's verdict to its second serial port; the first is its console.
#
# Usage: scripts/vm-test.sh   (root; exit 1 when a case fails or the VM does not finish)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" != 0 ]; then
    echo "vm-test: needs root (debootstrap, and files owned by root in the image): skipped" >&2
    exit 0
fi
for tool in debootstrap mkfs.ext4 qemu-system-x86_64; do
    command -v "$tool" >/dev/null || { echo "vm-test: $tool is missing (make deps installs it)" >&2; exit 1; }
done

cache="${HERALD_VM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/herald-vm}"
root="$(bash scripts/vm/build-root.sh "$cache")"
work="$(pwd)/.build/vm"
rm -rf "$work"
mkdir -p "$work"

echo "vm-test: copying the cached root and installing Herald into it"
cp -a "$root" "$work/root"
make --no-print-directory install DESTDIR="$work/root" PREFIX=/usr >"$work/install.log" 2>&1 \
    || { cat "$work/install.log" >&2; exit 1; }

install -m 0755 scripts/vm/guest-test.sh "$work/root/usr/local/sbin/herald-vm-test"
cat >"$work/root/etc/systemd/system/herald-vm-test.service" <<'EOF'
[Unit]
Description=Herald's VM test
After=multi-user.target

[Service]
Type=simple
ExecStart=/usr/local/sbin/herald-vm-test
StandardOutput=journal+console
StandardError=journal+console
EOF
mkdir -p "$work/root/etc/systemd/system/multi-user.target.wants"
ln -sf /etc/systemd/system/herald-vm-test.service "$work/root/etc/systemd/system/multi-user.target.wants/"

size_mb=$(($(du -sm "$work/root" | cut -f1) + 768))
mkfs.ext4 -q -F -L herald-vm -d "$work/root" "$work/disk.img" "${size_mb}M" >/dev/null
kernel="$(ls "$work"/root/boot/vmlinuz-* | tail -n 1)"
initrd="$(ls "$work"/root/boot/initrd.img-* | tail -n 1)"
cp "$kernel" "$work/vmlinuz"
cp "$initrd" "$work/initrd.img"
rm -rf "$work/root"

echo "vm-test: booting (the console is in $work/console.log)"
: >"$work/results.log"
status=0
timeout "${HERALD_VM_TIMEOUT:-900}" qemu-system-x86_64 -accel tcg -smp 2 -m 2048 \
    -kernel "$work/vmlinuz" -initrd "$work/initrd.img" \
    -append "root=/dev/vda rw console=ttyS0 panic=-1 systemd.show_status=1" \
    -drive "file=$work/disk.img,format=raw,if=virtio" \
    -nic none -display none -monitor none -no-reboot \
    -serial "file:$work/console.log" -serial "file:$work/results.log" || status=$?

results="$(tr -d '\r' <"$work/results.log")"
summary="$(grep -E '^vm: [0-9]+ passed, [0-9]+ failed$' <<<"$results" || true)"
grep -E '^(ok|not ok) ' <<<"$results" | sed 's/^/vm-test: /' || true
grep -E '^# ' <<<"$results" | sed 's/^/vm-test: /' || true
if [ -z "$summary" ] || grep -q '^not ok ' <<<"$results"; then
    [ "$status" = 124 ] && echo "vm-test: the VM did not finish within ${HERALD_VM_TIMEOUT:-900} s" >&2
    [ -z "$summary" ] && echo "vm-test: the VM ended (exit $status) before every case had run" >&2
    echo "---- the unit's journal, as the guest read it ----" >&2
    sed -n '/^--- journal of herald.service/,/^vm: /p' <<<"$results" >&2
    echo "---- the VM's console (last 150 lines) ----" >&2
    tr -d '\r' <"$work/console.log" | tail -n 150 >&2
    echo "${summary#vm: }" | sed 's/^/vm: /' >&2
    exit 1
fi
echo "$summary"
