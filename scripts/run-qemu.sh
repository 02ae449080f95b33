#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run-qemu.sh [options] -- COMMAND...: see run-guest.sh.
exec "$(dirname "$0")/run-guest.sh" --kind qemu "$@"
