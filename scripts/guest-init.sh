#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# PID 1 of a thunkless guest (QEMU or UML).  The host root is mounted
# read-only; everything the guest writes goes to tmpfs, except the job's
# out/ directory, which is shared writable with the host.  Runs the job's
# cmd.sh, records its exit status in out/rc and powers off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp LANG=C LC_ALL=C TERM=dumb

mount -t proc proc /proc
mount -t sysfs sys /sys
mountpoint -q /dev || mount -t devtmpfs dev /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts

arg() { sed -n "s/.*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" /proc/cmdline; }
# The host directory the job runs from (the repository) may sit under a
# directory that gets a tmpfs below (a clone in /tmp, say): keep it
# reachable by binding it back over the tmpfs.
# The kernel's modules (thunkless_modroot, next to a kernel that may be
# outside the repository, in another clone under /tmp) are kept the same
# way.
top=$(arg thunkless_top)
modroot=$(arg thunkless_modroot)
mount -t tmpfs tmpfs /run
mkdir -p /run/thunkless/top /run/thunkless/modroot
[ -n "$top" ] && mount --bind "$top" /run/thunkless/top
[ -n "$modroot" ] && mount --bind "$modroot" /run/thunkless/modroot
for d in /dev/shm /tmp /var/tmp /var/lib /var/log /mnt; do
	mount -t tmpfs tmpfs "$d" 2>/dev/null
	case $top in
	"$d"/*) mkdir -p "$top" && mount --bind /run/thunkless/top "$top" ;;
	esac
	case $modroot in
	"$d"/*) mkdir -p "$modroot" && mount --bind /run/thunkless/modroot "$modroot" ;;
	esac
done
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t bpf bpf /sys/fs/bpf 2>/dev/null
hostname guest 2>/dev/null
ip link set lo up 2>/dev/null

# The kernel's modules, when it has any, are not under the host's
# /lib/modules: both the kernel's request_module() and the guest's own
# modprobe calls go through a modprobe that looks in the build's modroot.
if [ -n "$modroot" ]; then
	[ -d "$modroot/lib/modules" ] ||
		echo "THUNKLESS-ERROR: the kernel's modules at $modroot are not visible in the guest"
	mkdir -p /run/thunkless/bin
	printf '#!/bin/sh\nexec /sbin/modprobe -d %s "$@"\n' "$modroot" >/run/thunkless/bin/modprobe
	chmod +x /run/thunkless/bin/modprobe
	echo /run/thunkless/bin/modprobe >/proc/sys/kernel/modprobe
	export PATH=/run/thunkless/bin:$PATH
fi

job=$(arg thunkless_job)
kind=$(arg thunkless_kind)

out=/tmp/out
mkdir -p $out
case $kind in
qemu) mount -t 9p -o trans=virtio,version=9p2000.L out $out ;;
uml) mount -t hostfs none $out -o "$job/out" ;;
esac || echo "THUNKLESS-ERROR: cannot mount the out directory"

rc=125
if [ -r "$job/cmd.sh" ]; then
	export THUNKLESS_OUT=$out THUNKLESS_GUEST=$kind
	cd "$(cat "$job/cwd" 2>/dev/null || echo /)" || cd /
	bash "$job/cmd.sh" </dev/null
	rc=$?
else
	echo "THUNKLESS-ERROR: no job at '$job'"
fi
echo "$rc" >$out/rc
sync
echo "THUNKLESS-EXIT: $rc"
umount $out 2>/dev/null
case $kind in
uml) halt -f ;;
*) reboot -f ;;
esac
sleep 5
echo o >/proc/sysrq-trigger
