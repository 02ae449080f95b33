#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cc-ccache.sh COMPILER ARGS...: COMPILER through ccache (kmake's CC, set by
# setup_ccache in lib.sh), except for a source that pulls a file in with
# .incbin, which is compiled without it.
#
# In depend mode (CCACHE_DEPEND) ccache hashes the source, the command line
# and the headers that the dependency file names, never a file that
# .incbin reads.  arch/x86/boot/compressed/piggy.S reads the compressed
# kernel and says nothing of it but its two sizes: a kernel whose sizes
# matched one built before got that kernel's piggy.o back from the cache,
# and its bzImage booted the old kernel (2026-12-08: the QEMU guest ran
# the KUnit suite of another build).  kernel/configs.c, usr/initramfs_data.S,
# certs/*.S and UML's vdso.S read files that way too.
[ $# -ge 1 ] || { echo "usage: cc-ccache.sh COMPILER [ARGS...]" >&2; exit 2; }
cc=$1
shift
for a; do
	case $a in
	*.c | *.S)
		if [ -f "$a" ] && grep -qF '.incbin' -- "$a"; then
			exec "$cc" "$@"
		fi
		;;
	esac
done
exec ccache "$cc" "$@"
