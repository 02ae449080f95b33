#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run-guest.sh --kind qemu|uml [options] -- COMMAND [ARG...]
#
# Boot a kernel with the host root filesystem read-only (9p under QEMU,
# hostfs under UML) and tmpfs wherever the guest writes, run COMMAND as root
# in the current directory, stream its output and exit with its status.
#   --kernel PATH   bzImage (qemu) or linux (uml); default: the harness's build
#   --timeout S     hard limit for the whole run (default 300)
#   --idle-timeout S  progress watchdog: kill the guest when its console
#                   has printed nothing for S seconds (default 0 = off)
#   --out DIR       host directory shared writable, $THUNKLESS_OUT in the guest
#   --append ARGS   extra kernel command line
#   --mem MB        guest memory (default 1024)
# A timeout, a silent console (--idle-timeout), an oops, a panic, a hung
# task or a missing exit status is a failure: the console tail and a
# one-line reason go to stderr.  The watchdog kills the guest's whole
# process group (UML's host processes, or QEMU) and says
#   guest made no progress for Ss; last line: <last console line>
# A UML guest first shows its blocked tasks' stacks and its timers
# through its management console ("sysrq w", "sysrq q";
# scripts/mconsole.py): they go to stderr before
# that line, so that a hang says where it is stuck.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
prog='run-guest'

kind='' kernel='' timeout=300 idle=0 outdir='' append='' mem=1024
while [ $# -gt 0 ]; do
	case $1 in
	--kind | --kernel | --timeout | --idle-timeout | --out | --append | --mem)
		[ $# -ge 2 ] || die "$1 needs an argument" ;;
	esac
	case $1 in
	--kind) kind=$2; shift 2 ;;
	--kernel) kernel=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--idle-timeout) idle=$2; shift 2 ;;
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
case $idle in
'' | *[!0-9]* | ?????????*) die "bad --idle-timeout '$idle': must be an integer >= 0 (0 = off)" ;;
esac
idle=$((10#$idle))
case $mem in '' | *[!0-9]*) die "bad --mem '$mem'" ;; esac
# shellcheck disable=SC2034 # prog: lib.sh's messages name it
case $kind in
qemu) kernel=${kernel:-$BUILD/out/x86_64/arch/x86/boot/bzImage}; prog='run-qemu' ;;
uml) kernel=${kernel:-$BUILD/out/um-patched/linux}; prog='run-uml' ;;
*) die "unknown guest kind '$kind' (qemu or uml)" ;;
esac
[ -f "$kernel" ] || die "no kernel at $kernel (build it first: make build)"
kernel=$(realpath "$kernel")

mkdir -p "$BUILD/jobs"
job=$(mktemp -d "$BUILD/jobs/job.XXXXXX")
watcher=
# UML's management console socket: a short path of its own (a socket's
# path is at most 107 bytes, and the job's directory may be deep).
umldir=
[ "$kind" != uml ] || umldir=$(mktemp -d /tmp/thunkless-uml.XXXXXX)
trap '[ -z "$watcher" ] || kill "$watcher" 2>/dev/null; rm -rf "$job" ${umldir:+"$umldir"}' EXIT
# INT or TERM (bench.sh stops a boot that way): stop the guest too (timeout
# passes the signal on to it), rather than leave it to run on until its
# console's reader is gone; then the EXIT trap cleans up.
# shellcheck disable=SC2317 # run from the INT and TERM traps
stop_guest() {
	local p
	if [ -s "$job/guest.pid" ] && read -r p <"$job/guest.pid"; then
		kill -TERM "$p" 2>/dev/null || true
	fi
	exit "$1"
}
trap 'stop_guest 130' INT
trap 'stop_guest 143' TERM
mkdir "$job/out"
{
	echo '#!/bin/bash'
	printf '%q ' "$@"
	echo
} >"$job/cmd.sh"
pwd >"$job/cwd"
init=$TOP/scripts/guest-init.sh
# Modules that build.sh installed next to the image.
case $kind in
qemu) modroot=${kernel%/arch/x86/boot/bzImage}/modroot ;;
uml) modroot=$(dirname "$kernel")/modroot ;;
esac
[ -d "$modroot/lib/modules" ] && append="thunkless_modroot=$modroot $append"
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
		"uml_dir=$umldir" umid=guest)
	# UML takes its command line as arguments, one word each
	read -ra words <<<"$cmdline"
	run+=("${words[@]}")
	;;
esac

# idle_watch: the progress watchdog, run in the background.  Once a second
# it compares the console log's size with the last one seen; after $idle
# seconds without growth it records the fact and the console's size in
# $job/idle, has a UML guest show its blocked tasks (dump_tasks), and kills the
# guest's process group: "timeout" makes itself the leader of a new group,
# so that is timeout and UML's host processes, or QEMU.  It ends
# when the guest does, or when the job directory is gone.
idle_watch() {
	local pid='' size last=-1 since=$SECONDS
	while sleep 1; do
		[ -d "$job" ] || return 0
		[ -n "$pid" ] || read -r pid 2>/dev/null <"$job/guest.pid" || pid=
		[ -z "$pid" ] || kill -0 "$pid" 2>/dev/null || return 0
		size=$(stat -c %s "$job/console.log" 2>/dev/null) || size=0
		if [ "$size" != "$last" ]; then
			last=$size
			since=$SECONDS
		elif [ -n "$pid" ] && [ $((SECONDS - since)) -ge "$idle" ]; then
			echo "$idle $size" >"$job/idle"
			[ "$kind" != uml ] || dump_tasks
			# through timeout, which passes the signal on to the guest
			# and kills it 10 s later if need be: a KILL of the group
			# left UML's host processes holding the console pipe.
			kill -TERM "$pid" 2>/dev/null
			return 0
		fi
	done
}

# dump_tasks: a stalled UML guest prints on its console the stacks of its
# blocked tasks (sysrq w: uninterruptible and killable sleeps) and its
# clock and pending timers (sysrq q: a stopped clock shows), at console
# log level 8 (sched_show_task() prints at KERN_INFO), through the
# management console, which UML serves from its interrupt handler.  Not
# sysrq t: UML 6.1 panics ("Segfault with no mm") walking an idle kernel
# thread's stack; nor p: UML has no registers to show there (all zero),
# and the guest printed nothing more after it.  It waits until the console has been quiet for 2 s (at most
# 20 s).  A guest that does not answer (interrupts off, or its host
# process stopped) says so in $job/mconsole.
dump_tasks() {
	local sock=$umldir/guest/mconsole size last=-1 quiet=0 i
	if [ ! -S "$sock" ]; then
		echo "no management console socket at $sock" >"$job/mconsole"
		return 0
	fi
	if ! timeout -k 5 30 python3 "$TOP/scripts/mconsole.py" "$sock" "sysrq 8" "sysrq w" "sysrq q" \
		>/dev/null 2>"$job/mconsole"; then
		echo "(the management console did not answer)" >>"$job/mconsole"
		return 0
	fi
	for ((i = 0; i < 20 && quiet < 2; i++)); do
		sleep 1
		size=$(stat -c %s "$job/console.log" 2>/dev/null) || size=0
		if [ "$size" = "$last" ]; then quiet=$((quiet + 1)); else quiet=0 last=$size; fi
	done
}

# The console: saved whole, streamed without the harness's markers.
: >"$job/console.log"
if [ "$idle" -gt 0 ]; then
	idle_watch </dev/null >/dev/null 2>&1 &
	watcher=$!
fi
set +e
# (in a subshell that records timeout's pid for the watchdog and waits for it
# with stderr closed, so that a kill is not announced as "Killed", then
# records its exit status; the pipeline runs in the background, so that an
# INT or a TERM runs its trap at once rather than when the guest ends)
(
	timeout -k 10 "$timeout" "${run[@]}" </dev/null 2>&1 &
	echo $! >"$job/guest.pid"
	exec 2>/dev/null
	wait $!
	echo $? >"$job/guest.rc"
) |
	tee "$job/console.log" | sed -u -e 's/\r$//' -e '/^THUNKLESS-EXIT: /d' &
wait $!
guest_rc=255
[ ! -s "$job/guest.rc" ] || read -r guest_rc <"$job/guest.rc"
if [ -n "$watcher" ]; then
	kill "$watcher" 2>/dev/null
	wait "$watcher" 2>/dev/null
	watcher=
fi
set -e
[ -z "$outdir" ] || { mkdir -p "$outdir" && cp -a "$job/out/." "$outdir/"; }

tail_console() {
	echo "---- last console lines ($kind) ----" >&2
	tr -d '\r' <"$job/console.log" | tail -n "${1:-40}" >&2
	echo "----" >&2
}
# After a UML guest's stall, the console as it was when the watchdog
# fired: the task dump that followed is shown apart.
if [ -e "$job/idle" ] && [ "$kind" = uml ]; then
	read -r _ isize <"$job/idle" || isize=
	if [ -n "$isize" ]; then
		tail -c +"$((isize + 1))" "$job/console.log" >"$job/tasks"
		truncate -s "$isize" "$job/console.log"
	fi
fi
oops=$(tr -d '\r' <"$job/console.log" | grep -m1 -E \
	'Kernel panic|BUG:|Oops|general protection fault|WARNING:|INFO: task .* blocked for|soft lockup|hard LOCKUP|RCU stall|UBSAN:|KASAN:|segfault at' || true)
# (a guest that ended by itself as the watchdog fired was not idle)
if [ -e "$job/idle" ]; then
	tail_console
	if [ -s "$job/tasks" ] || [ -s "$job/mconsole" ]; then
		echo "---- the guest's blocked tasks and timers when it stalled (sysrq w, q) ----" >&2
		cat "$job/mconsole" 2>/dev/null >&2
		tr -d '\r\0' <"$job/tasks" >&2
		echo "----" >&2
	fi
	last=$(tr -d '\r' <"$job/console.log" | grep -v '^[[:space:]]*$' | tail -n 1)
	die "guest made no progress for ${idle}s; last line: ${last:-(none)}${oops:+ (console: $oops)}"
fi
if [ "$guest_rc" = 124 ] || [ "$guest_rc" = 137 ]; then
	tail_console
	last=$(tr -d '\r' <"$job/console.log" | grep -v '^[[:space:]]*$' | tail -n 1)
	die "guest timed out after ${timeout}s; last line: ${last:-(none)}${oops:+ (console: $oops)}"
fi
if [ -n "$oops" ]; then
	tail_console 60
	die "guest kernel failure: $oops"
fi
if [ ! -s "$job/out/rc" ]; then
	tail_console
	rc=$(tr -d '\r' <"$job/console.log" | sed -n 's/^THUNKLESS-EXIT: \([0-9]*\)$/\1/p' | tail -n1)
	[ -n "$rc" ] || die "guest ended without reporting an exit status (${run[0]##*/} exited $guest_rc)"
else
	rc=$(cat "$job/out/rc")
fi
exit "$rc"
