#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Needs build/linux.  A symbol that does not stick fails by name; a variant
# may exempt what it turns off; an unknown profile or fragment fails.
# One output directory for all cases: config.sh starts each from scratch
# (tinyconfig), and the kconfig programs are built once.
. "$(dirname "$0")/lib.sh"
printf 'CONFIG_THUNKLESS_NO_SUCH_SYMBOL=y\n' >"$TMP/nosuch.config"
expect_fail "unknown symbol" "did not stick.*CONFIG_THUNKLESS_NO_SUCH_SYMBOL=y \(got n\)" \
	"$S/config.sh" x86_64 "$TMP/o" "$TOP/configs/net.config" "$TOP/configs/x86_64.config" "$TMP/nosuch.config"
# NET_ACT_GACT=y cannot stick once NET_CLS_ACT is off.
printf '# CONFIG_NET_CLS_ACT is not set\n' >"$TMP/noact.config"
expect_fail "dependent symbol" "did not stick.*CONFIG_NET_ACT_GACT=y \(got n\)" \
	"$S/config.sh" x86_64 "$TMP/o" "$TOP/configs/net.config" "$TOP/configs/x86_64.config" "$TMP/noact.config"
expect_ok "variant exempting what it turns off" \
	"$S/config.sh" x86_64 "$TMP/o" "$TOP/configs/net.config" "$TOP/configs/x86_64.config" "$TOP/configs/variants/no-cls-act.config"
# "#@ may-be-absent:" skips a symbol the tree does not define (NET_ACT_IPT
# on 6.12) but not one it defines: without NET_CLS_ACT, GACT and (on 6.1)
# IPT still fail.
printf '#@ may-be-absent: CONFIG_THUNKLESS_NO_SUCH_SYMBOL\n' >"$TMP/absent.config"
expect_ok "may-be-absent: symbol the tree does not define" \
	"$S/config.sh" x86_64 "$TMP/o" "$TOP/configs/net.config" "$TOP/configs/x86_64.config" "$TMP/nosuch.config" "$TMP/absent.config"
printf '#@ may-be-absent: CONFIG_NET_ACT_*\n' >"$TMP/absent2.config"
expect_fail "may-be-absent: a defined symbol is still checked" \
	"did not stick.*CONFIG_NET_ACT_GACT=y \(got n\).*CONFIG_NET_ACT_IPT=y \(got n\)" \
	"$S/config.sh" x86_64 "$TMP/o" "$TOP/configs/net.config" "$TOP/configs/x86_64.config" "$TMP/noact.config" "$TMP/absent2.config"
expect_fail "unknown profile" "unknown kernel profile 'nope'" "$S/build.sh" nope
expect_fail "missing fragment" "no such config fragment" \
	"$S/config.sh" x86_64 "$TMP/o" "$TMP/missing.config"
done_testing
