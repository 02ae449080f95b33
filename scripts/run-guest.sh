#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run-guest.sh --kind qemu|uml [options] -- COMMAND [ARG...]
#
# Boot a kernel with the host root filesystem read-only (9p under QEMU,
# hostfs under UML) and tmpfs wherever the guest writes, run COMMAND as root
# in the current directory, stream its output and exit with its status.
#   --kernel PATH   bzImage (qemu) or linux (uml); default: the harness's build
#   --timeout S     hard limit for the whole run (default 300)
#   --out DIR       host directory shared writable, $THUNKLESS_OUT in the guest
#   --append ARGS   extra kernel command line
#   --mem MB        guest memory (default 1024)
# A timeout, an oops, a panic, a hung task or a missing exit status is a
# failure: the console tail and a one-line reason go to stderr.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
prog=run-guest

kind= kernel= timeout=300 outdir= append= mem=1024
while [ $# -gt 0 ]; do
	case $1 in
	--kind) kind=$2; shift 2 ;;
	--kernel) kernel=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--out) outdir=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--) shift; break ;;
	-*) die "unknown option '$1'" ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || die "no command given (usage: run-$kind.sh [options] -- COMMAND [ARG...])"
case $timeout in '' | *[!0-9]* | 0) die "bad --timeout '$timeout'" ;; esac
case $mem in '' | *[!0-9]*) die "bad --mem '$mem'" ;; esac
case $kind in
qemu) kernel=${kernel:-$BUILD/out/x86_64/arch/x86/boot/bzImage}; prog=run-qemu ;;
uml) kernel=${kernel:-$BUILD/out/um-patched/linux}; prog=run-uml ;;
*) die "unknown guest kind '$kind' (qemu or uml)" ;;
esac
[ -f "$kernel" ] || die "no kernel at $kernel (build it first: make build)"
kernel=$(realpath "$kernel")

mkdir -p "$BUILD/jobs"
job=$(mktemp -d "$BUILD/jobs/job.XXXXXX")
trap 'rm -rf "$job"' EXIT
mkdir "$job/out"
{
	echo '#!/bin/bash'
	printf '%q ' "$@"
	echo
} >"$job/cmd.sh"
pwd >"$job/cwd"
init=$TOP/scripts/guest-init.sh
cmdline="ro init=$init panic=-1 oops=panic loglevel=5 thunkless_kind=$kind thunkless_top=$TOP thunkless_job=$job $append"

accel() {
	local probe=$BUILD/kvm-probe
	if [ -n "${THUNKLESS_ACCEL:-}" ]; then echo "$THUNKLESS_ACCEL"; return; fi
	if [ ! -s "$probe" ]; then
		if [ -r /dev/kvm ] && [ -w /dev/kvm ] &&
			timeout -k 2 20 qemu-system-x86_64 -accel kvm -cpu host -m 256 -display none \
				-monitor none -serial stdio -no-reboot -kernel "$kernel" \
				-append "console=ttyS0 panic=-1 init=/thunkless-kvm-probe" </dev/null 2>&1 |
			grep -q 'Kernel panic'; then
			echo kvm >"$probe"
		else
			echo tcg >"$probe"
		fi
	fi
	cat "$probe"
}

case $kind in
qemu)
	command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 not found (apt-get install qemu-system-x86)"
	a=$(accel)
	case $a in
	kvm) cpu=host ;;
	tcg) cpu=max ;;
	*) die "bad THUNKLESS_ACCEL '$a' (kvm or tcg)" ;;
	esac
	run=(qemu-system-x86_64 -accel "$a" -cpu "$cpu" -smp 2 -m "$mem" -no-reboot
		-display none -monitor none -serial stdio -nodefaults
		-kernel "$kernel"
		-append "console=ttyS0 root=root rootfstype=9p rootflags=trans=virtio,version=9p2000.L $cmdline"
		-fsdev "local,id=root,path=/,security_model=none,readonly=on,multidevs=remap"
		-device "virtio-9p-pci,fsdev=root,mount_tag=root"
		-fsdev "local,id=out,path=$job/out,security_model=none"
		-device "virtio-9p-pci,fsdev=out,mount_tag=out")
	;;
uml)
	run=("$kernel" "mem=${mem}M" rootfstype=hostfs rootflags=/ con=null "con0=null,fd:1"
		$cmdline)
	;;
esac

# The console: saved whole, streamed without the harness's markers.
set +e
timeout -k 10 "$timeout" "${run[@]}" </dev/null 2>&1 |
	tee "$job/console.log" | sed -u -e 's/\r$//' -e '/^THUNKLESS-EXIT: /d'
rcs=("${PIPESTATUS[@]}")
set -e
[ -z "$outdir" ] || { mkdir -p "$outdir" && cp -a "$job/out/." "$outdir/"; }

tail_console() {
	echo "---- last console lines ($kind) ----" >&2
	tr -d '\r' <"$job/console.log" | tail -n "${1:-40}" >&2
	echo "----" >&2
}
oops=$(tr -d '\r' <"$job/console.log" | grep -m1 -E \
	'Kernel panic|BUG:|Oops|general protection fault|WARNING:|INFO: task .* blocked for|soft lockup|hard LOCKUP|RCU stall|UBSAN:|KASAN:|segfault at' || true)
if [ "${rcs[0]}" = 124 ] || [ "${rcs[0]}" = 137 ]; then
	tail_console
	die "guest timed out after ${timeout}s${oops:+ (console: $oops)}"
fi
if [ -n "$oops" ]; then
	tail_console 60
	die "guest kernel failure: $oops"
fi
if [ ! -s "$job/out/rc" ]; then
	tail_console
	rc=$(tr -d '\r' <"$job/console.log" | sed -n 's/^THUNKLESS-EXIT: \([0-9]*\)$/\1/p' | tail -n1)
	[ -n "$rc" ] || die "guest ended without reporting an exit status (${run[0]##*/} exited ${rcs[0]})"
else
	rc=$(cat "$job/out/rc")
fi
exit "$rc"
