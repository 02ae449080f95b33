#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Tests for bench/report: good input -> hand-computed numbers, malformed and
# empty input -> errors naming the line.  Fast, deterministic, no root.
# Prints TAP-style "ok N - ..." / "not ok N - ..." lines; exit 1 on failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bench=$(dirname "$here")
make -s -C "$bench" report >/dev/null || { echo "not ok 1 - build report"; exit 1; }
R=$bench/report
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
t=0
fails=0

ok() { t=$((t + 1)); echo "ok $t - $1"; }
nok() { t=$((t + 1)); fails=$((fails + 1)); echo "not ok $t - $1"; shift; for l in "$@"; do echo "#   $l"; done; }
check() { # check DESC COND...
	local d=$1
	shift
	if "$@"; then ok "$d"; else nok "$d" "command: $*"; fi
}
check_eq() { # check_eq DESC WANT GOT
	if [ "$3" = "$2" ]; then ok "$1"; else nok "$1" "want '$2'" "got  '$3'"; fi
}

HDR="ts,round,kernel,gate,scenario,variant,n,pkts,usec,pps,errors"

# report_ok DESC RAW: the report on RAW (no chart) into $out; checks that
# it exits 0 with nothing on stderr
report_ok() {
	local rc
	out=$("$R" --no-plot "$2" 2>"$tmp/err")
	rc=$?
	check "$1: exits 0, nothing on stderr" [ $rc -eq 0 -a ! -s "$tmp/err" ]
}

# rec ROUND KERNEL GATE SCEN VARIANT N PPS: a record measured over 1 s
rec() {
	echo "1764450000,$1,$2,$3,$4,$5,$6,$7,1000000,$7,0"
}

# ---- good input --------------------------------------------------------------
good=$tmp/good
mkdir -p "$good"
{
	echo "# thunkless bench raw v1"
	echo "$HDR"
	# tc-matchall n=100, 5 rounds of base / patched on+off / limit
	r=1
	for v in "384000 800000 385000 854000" "380000 812000 383000 850000" \
		"390000 805000 381000 858000" "386000 790000 387000 852000" \
		"382000 820000 389000 856000"; do
		# shellcheck disable=SC2086
		set -- $v
		rec $r base none tc-matchall - 100 "$1"
		rec $r patched on tc-matchall - 100 "$2"
		rec $r patched off tc-matchall - 100 "$3"
		rec $r limit none tc-matchall - 100 "$4"
		r=$((r + 1))
	done
	# tc-matchall n=1: 4 rounds, no limit kernel
	r=1
	for v in "5700000 6100000" "5760000 6050000" "5740000 6150000" "5720000 6000000"; do
		# shellcheck disable=SC2086
		set -- $v
		rec $r base none tc-matchall - 1 "$1"
		rec $r patched on tc-matchall - 1 "$2"
		r=$((r + 1))
	done
	# egress-bpf: noisy base (CV 20%)
	rec 1 base none egress-bpf - 1 1000000
	rec 2 base none egress-bpf - 1 1200000
	rec 3 base none egress-bpf - 1 800000
	for r in 1 2 3; do rec $r patched auto egress-bpf - 1 1100000; done
	# nft-set/hash: one sample each; pkts/usec not trivially 1 s
	echo "1764450000,1,base,none,nft-set,hash,1000,300000,1500000,200000,300000"
	echo "1764450000,1,patched,on,nft-set,hash,1000,450000,1500000,300000,450000"
	echo "1764450000,1,limit,none,nft-set,hash,1000,600000,1500000,400000,600000"
	echo "# complete"
} >"$good/raw.csv"

out=$("$R" --no-plot "$good/raw.csv" 2>"$tmp/err")
rc=$?
check "good input exits 0" [ "$rc" -eq 0 ]
check "good input: nothing on stderr" [ ! -s "$tmp/err" ]
for f in report.txt summary.csv summary.json chart.gp chart.dat; do
	check "good input writes $f" [ -s "$good/$f" ]
done
check "--no-plot: no chart.png" [ ! -e "$good/chart.png" ]
check "report.txt is the stdout table" [ "$out" = "$(cat "$good/report.txt")" ]

row() { # row LABEL: the table line of LABEL, fields squeezed
	echo "$out" | sed '/^round by round:/,$d' | grep "^$1 " | tr -s ' '
}

# tc-matchall n=100, medians by hand (sorted samples):
#   base    380000 382000 [384000] 386000 390000 -> 384000
#   patched 790000 800000 [805000] 812000 820000 -> 805000
#   off     381000 383000 [385000] 387000 389000 -> 385000
#   limit   850000 852000 [854000] 856000 858000 -> 854000
#   diff = (805000-384000)/384000 = +109.6%
#   tax  = (805000-384000)/(854000-384000) = 421000/470000 = +89.6%
#   off diff = 1000/384000 = +0.3%
#   CV base: mean 384400, deviations -4400 -2400 -400 1600 5600,
#     sum of squares 59.2e6, /4 -> 14.8e6, sqrt 3847.1 -> 1.0%
#   CV patched 1.4%, limit 0.4%, off 0.8%
want="tc-matchall n=100 384000 805000 +109.6 854000 +89.6 385000 +0.3 1.0/1.4/0.4/0.8"
got=$(row "tc-matchall n=100")
check_eq "n=100 row: medians, diff, tax, off, CV" "$want" "$got"
# tc-matchall n=1, even count: base 5700000 5720000 | 5740000 5760000 ->
# (5720000+5740000)/2 = 5730000; patched 6000000 6050000 | 6100000 6150000
# -> 6075000; diff 345000/5730000 = +6.0%; no limit, no off -> '-'
want="tc-matchall n=1 5730000 6075000 +6.0 - - - - 0.5/1.1/-/-"
got=$(row "tc-matchall n=1")
check_eq "n=1 row: even-count median, missing limit/off print '-'" "$want" "$got"
# egress-bpf: base 800000 [1000000] 1200000, mean 1e6, stdev 200000 -> CV
# 20% > 3% -> flagged; patched gate=auto picked (no gate=on)
want="egress-bpf n=1 1000000 1100000 +10.0 - - - - 20.0/0.0/-/- !"
got=$(row "egress-bpf n=1")
check_eq "noisy row flagged, not hidden; gate=auto used for patched" "$want" "$got"
check "flag footnote" grep -q "^! 1 row(s) with CV above 3.0%" "$good/report.txt"
# nft-set/hash: single samples, CV '-'; tax = 100000/200000 = +50.0%
want="nft-set/hash n=1000 200000 300000 +50.0 400000 +50.0 - - -/-/-/-"
got=$(row "nft-set/hash n=1000")
check_eq "single-sample row" "$want" "$got"
# harmonic mean over the rows with base, patched and limit (n=100, hash):
#   base 2/(1/384000 + 1/200000) = 263014, patched 2/(1/805000 + 1/300000)
#   = 437104, limit 2/(1/854000 + 1/400000) = 544817;
#   diff 174090/263014 = +66.2%, tax 174090/281803 = +61.8%; off: '-' (hash
#   row has no gate=off)
want="harmonic mean (2 rows) 263014 437104 +66.2 544817 +61.8 - -"
got=$(echo "$out" | grep "^harmonic mean" | tr -s ' ')
check_eq "harmonic mean row" "$want" "$got"
if grep -q INCOMPLETE "$good/report.txt"; then nok "complete run: no INCOMPLETE banner"; else ok "complete run: no INCOMPLETE banner"; fi

# summary.csv; its last four fields are the round-by-round reading (the
# report's last table): tc-matchall n=100 has 5 rounds with base, patched
# and limit; patched/limit per round 93.68 95.53 [93.82] 92.72 95.79, tax
# 88.51 91.91 [88.68] 86.70 92.41, off/base - 1: 0.26 0.79 -2.31 [0.26] 1.83
want="tc-matchall,-,100,384000,805000,109.64,854000,89.57,385000,0.26,1.00,1.42,0.37,0.82,0,5,93.82,88.68,0.26"
check "summary.csv n=100 line" grep -qx -- "$want" "$good/summary.csv"
want="tc-matchall,-,1,5730000,6075000,6.02,,,,,0.45,1.06,,,0,0,,,"
check "summary.csv: missing values are empty fields" grep -qx -- "$want" "$good/summary.csv"
check "summary.csv: header + 4 rows" [ "$(wc -l <"$good/summary.csv")" -eq 5 ]

# summary.json
if command -v python3 >/dev/null; then
	j=$(python3 - "$good/summary.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = {(x["scenario"], x["variant"], x["n"]): x for x in d["rows"]}
g = {(x["scenario"], x["n"], x["kernel"], x["gate"]): x for x in d["groups"]}
print(d["complete"], d["records"], len(d["rows"]), len(d["groups"]),
      r[("tc-matchall", "-", 100)]["tax_recovered_pct"],
      r[("tc-matchall", "-", 1)]["limit_pps"],
      r[("egress-bpf", "-", 1)]["flagged"],
      g[("tc-matchall", 100, "base", "none")]["median"],
      g[("tc-matchall", 100, "base", "none")]["hmean"],
      g[("tc-matchall", 1, "base", "none")]["samples"])
PY
)
	check_eq "summary.json: values" "True 37 4 11 89.57 None True 384000.0 384369.3 4" "$j"
else
	ok "summary.json: skipped (no python3)"
fi
check "chart.dat has the three kernels" grep -q '^"tc-matchall_n=100" 384000 805000 854000$' "$good/chart.dat"
check "chart.dat: missing limit is '-'" grep -q '^"tc-matchall_n=1" 5730000 6075000 -$' "$good/chart.dat"

# --strict: flagged row -> 3
"$R" --no-plot --strict "$good/raw.csv" >/dev/null 2>&1
check "--strict with a flagged row exits 3" [ $? -eq 3 ]
"$R" --no-plot --strict --cv-bound 25 "$good/raw.csv" >/dev/null 2>&1
check "--strict --cv-bound 25: exits 0" [ $? -eq 0 ]

# renamed roles
"$R" --no-plot --base limit --patched base --limit patched --out "$tmp" "$good/raw.csv" >"$tmp/ren" 2>&1
check "--base/--patched/--limit rename columns" grep -q "^scenario .* limit .* base .* patched" "$tmp/ren"

# chart.png when gnuplot is installed
if command -v gnuplot >/dev/null; then
	"$R" "$good/raw.csv" >/dev/null 2>"$tmp/err"
	check "gnuplot installed: chart.png written" [ -s "$good/chart.png" ]
else
	"$R" "$good/raw.csv" >/dev/null 2>"$tmp/err"
	check "no gnuplot: says so, still exits 0" grep -q "gnuplot not installed" "$tmp/err"
fi

check "no other kernels: no second table" [ "$(grep -c '^other kernels' "$good/report.txt")" -eq 0 ]
check "no other kernels: empty other_kernels in summary.json" \
	grep -qF '"other_kernels": {"kernels": [], "pairs": {}, "rows": []},' "$good/summary.json"

# ---- other kernels (make bench-upstream) ------------------------------------
oth=$tmp/oth
mkdir -p "$oth"
{
	echo "# thunkless bench raw v1"
	echo "$HDR"
	# tc-matchall n=1, 3 rounds: base patched limit upstream upstream-limit
	r=1
	for v in "6900000 7600000 8600000 7000000 8500000" \
		"6920000 7650000 8700000 7400000 8600000" \
		"6940000 7700000 8800000 7800000 8700000"; do
		# shellcheck disable=SC2086
		set -- $v
		rec $r base none tc-matchall - 1 "$1"
		rec $r patched on tc-matchall - 1 "$2"
		rec $r limit none tc-matchall - 1 "$3"
		rec $r upstream none tc-matchall - 1 "$4"
		rec $r upstream-limit none tc-matchall - 1 "$5"
		r=$((r + 1))
	done
	# a kernel without a NAME-limit partner, in the n=1 row only
	rec 1 other none tc-matchall - 1 5000000
	r=1
	for v in "380000 1190000 1240000 1000000 1240000" \
		"384000 1200000 1250000 1010000 1250000" \
		"388000 1210000 1260000 1020000 1260000"; do
		# shellcheck disable=SC2086
		set -- $v
		rec $r base none tc-matchall - 100 "$1"
		rec $r patched on tc-matchall - 100 "$2"
		rec $r limit none tc-matchall - 100 "$3"
		rec $r upstream none tc-matchall - 100 "$4"
		rec $r upstream-limit none tc-matchall - 100 "$5"
		r=$((r + 1))
	done
	echo "# complete"
} >"$oth/raw.csv"
report_ok "other kernels" "$oth/raw.csv"
second=$(echo "$out" | sed -n '/^other kernels:/,/^round by round:/p')
orow() { # orow LABEL: the second table's line of LABEL, fields squeezed
	echo "$second" | grep "^$1 " | tr -s ' '
}
got=$(echo "$out" | sed '/^other kernels:/,$d' | grep "^tc-matchall n=100 " | tr -s ' ')
check_eq "other kernels: main table unchanged (n=100 row)" "tc-matchall n=100 384000 1200000 +212.5 1250000 +94.2 - - 1.0/0.8/0.8/-" "$got"
want="scenario upstream CV% upstream-limit CV% other CV% upstream %lim patched %lim"
got=$(echo "$second" | grep "^scenario" | tr -s ' ')
check_eq "second table header: kernels in order of appearance, pairs, patched" "$want" "$got"
# n=1: upstream 7000000 [7400000] 7800000, mean 7400000, stdev 400000 ->
#   CV 5.4% > 3% -> '!'; upstream-limit [8600000], stdev 100000 -> 1.2%;
#   other: one sample, CV '-'; upstream %lim 7400000/8600000 = 86.0;
#   patched %lim 7650000/8700000 = 87.9
want="tc-matchall n=1 7400000 5.4 8600000 1.2 5000000 - 86.0 87.9 !"
got=$(orow "tc-matchall n=1")
check_eq "second table n=1: medians, CV, % of own limit, flag" "$want" "$got"
# n=100: upstream [1010000], stdev 10000 -> CV 1.0%; upstream-limit
#   [1250000] -> 0.8%; other missing; 1010000/1250000 = 80.8;
#   patched 1200000/1250000 = 96.0
want="tc-matchall n=100 1010000 1.0 1250000 0.8 - - 80.8 96.0"
got=$(orow "tc-matchall n=100")
check_eq "second table n=100: missing kernel prints '-'" "$want" "$got"
check "second table: flag footnote" \
	[ "$(echo "$second" | grep -c "^! 1 row(s) with CV above 3.0%")" -eq 1 ]
"$R" --no-plot --strict "$oth/raw.csv" >/dev/null 2>&1
check "--strict ignores the second table's flags" [ $? -eq 0 ]
check "other kernels: report.txt has the second table" grep -q "^other kernels:" "$oth/report.txt"
check "other kernels: summary.csv keeps its 2 rows + header" [ "$(wc -l <"$oth/summary.csv")" -eq 3 ]
if command -v python3 >/dev/null; then
	j=$(python3 - "$oth/summary.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))["other_kernels"]
r1, r100 = o["rows"]
print(o["kernels"], o["pairs"], len(o["rows"]),
      r1["n"], r1["patched_pct_of_limit"], r1["flagged"],
      r1["kernels"]["upstream"]["pps"], r1["kernels"]["upstream"]["cv_pct"],
      r1["kernels"]["upstream"]["pct_of_own_limit"],
      r1["kernels"]["upstream-limit"]["pps"], r1["kernels"]["other"]["cv_pct"],
      "pct_of_own_limit" in r1["kernels"]["upstream-limit"],
      r100["patched_pct_of_limit"], r100["kernels"]["upstream"]["pct_of_own_limit"],
      r100["kernels"]["other"], r100["flagged"])
PY
)
	want="['upstream', 'upstream-limit', 'other'] {'upstream': 'upstream-limit'} 2 1 87.93 True 7400000 5.41 86.05 8600000 None False 96.0 80.8 None False"
	check_eq "summary.json: other_kernels" "$want" "$j"
else
	ok "summary.json: other_kernels: skipped (no python3)"
fi
# a renamed role is not an "other" kernel: with --limit upstream-limit the
# others are limit, upstream and other, and upstream has no pair
"$R" --no-plot --limit upstream-limit --out "$tmp" "$oth/raw.csv" >"$tmp/ren2" 2>&1
check "--limit NAME: the role's kernel leaves the second table" \
	grep -q "^scenario  *limit  *CV%  *upstream  *CV%  *other  *CV%  *patched %lim$" "$tmp/ren2"

# ---- base-X and patched-X (make bench-srso) ----------------------------------
# base-srso and patched-srso: base and patched built another way; their own
# limit is "limit", and the pair gets "srso tax%" =
# (patched-srso - base-srso) / (limit - base-srso), '-' within noise
var=$tmp/var
mkdir -p "$var"
{
	echo "$HDR"
	r=1
	for v in "6900000 7600000 8600000 5000000 5500000 380000 1190000 1240000 1100000" \
		"6920000 7650000 8700000 5010000 5510000 384000 1200000 1250000 1200000" \
		"6940000 7700000 8800000 5020000 5520000 388000 1210000 1260000 1300000"; do
		# shellcheck disable=SC2086
		set -- $v
		rec $r base none tc-matchall - 1 "$1"
		rec $r patched on tc-matchall - 1 "$2"
		rec $r limit none tc-matchall - 1 "$3"
		rec $r base-srso none tc-matchall - 1 "$4"
		rec $r patched-srso auto tc-matchall - 1 "$5"
		rec $r base none tc-matchall - 100 "$6"
		rec $r patched on tc-matchall - 100 "$7"
		rec $r limit none tc-matchall - 100 "$8"
		rec $r base-srso none tc-matchall - 100 "$9"
		rec $r patched-srso auto tc-matchall - 100 1220000
		r=$((r + 1))
	done
	echo "# complete"
} >"$var/raw.csv"
report_ok "base-X/patched-X" "$var/raw.csv"
second=$(echo "$out" | sed -n '/^other kernels:/,/^round by round:/p')
got=$(echo "$out" | sed '/^other kernels:/,$d' | grep "^tc-matchall n=1 " | tr -s ' ')
check_eq "base-X/patched-X: main table unchanged (n=1 row)" "tc-matchall n=1 6920000 7650000 +10.5 8700000 +41.0 - - 0.3/0.7/1.1/-" "$got"
want="scenario base-srso CV% patched-srso CV% base-srso %lim patched-srso %lim srso tax% patched %lim"
got=$(echo "$second" | grep "^scenario" | tr -s ' ')
check_eq "base-X/patched-X: header has % of limit and the X tax% column" "$want" "$got"
check "base-X/patched-X: the legend says how X tax% is computed" \
	grep -qF "base-X %lim, patched-X %lim: % of limit; X tax% = (patched-X - base-X) / (limit - base-X), '-' within noise" <<<"$second"
# n=1: base-srso [5010000] sd 10000, CV 0.2; patched-srso [5510000], CV 0.2;
#   % of limit 5010000/8700000 = 57.6, 5510000/8700000 = 63.3; srso tax%
#   (5510000-5010000)/(8700000-5010000) = +13.6 (gap 3690000 >> noise)
got=$(orow "tc-matchall n=1")
check_eq "base-X/patched-X n=1: % of limit and tax recovered" \
	"tc-matchall n=1 5010000 0.2 5510000 0.2 57.6 63.3 +13.6 87.9" "$got"
# n=100: base-srso [1200000] sd 100000 (CV 8.3, '!'); limit 1250000 sd 10000:
#   gap 50000 < 2*sqrt(100000^2 + 10000^2) = 201000: tax '-'
got=$(orow "tc-matchall n=100")
check_eq "base-X/patched-X n=100: tax within noise prints '-'" \
	"tc-matchall n=100 1200000 8.3 1220000 0.0 96.0 97.6 - 96.0 !" "$got"
if command -v python3 >/dev/null; then
	j=$(python3 - "$var/summary.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))["other_kernels"]
r1, r100 = o["rows"]
print(o["pairs"], r1["kernels"]["base-srso"]["tax_recovered_pct"],
      r1["kernels"]["base-srso"]["pct_of_own_limit"],
      "tax_recovered_pct" in r1["kernels"]["patched-srso"],
      r100["kernels"]["base-srso"]["tax_recovered_pct"])
PY
)
	check_eq "summary.json: base-X/patched-X limits and tax" \
		"{'base-srso': 'limit', 'patched-srso': 'limit'} 13.55 57.59 False None" "$j"
else
	ok "summary.json: base-X/patched-X: skipped (no python3)"
fi
# patched-X with the gate on and off (make bench: base-mod, patched-mod):
# "X off%" = patched-X with the gate off vs base-X, diff%
# mod_fixture DIR KERNEL GATE DELTA: three rounds of tc-matchall n=1 on
# base, patched, limit, base-mod, patched-mod (gate on) and KERNEL with GATE
# (patched-mod off, limit-mod none) at base-mod's pps + DELTA
mod_fixture() {
	local dir=$1 kernel=$2 gate=$3 delta=$4 r=1 v
	mkdir -p "$dir"
	{
		echo "$HDR"
		for v in "6900000 7600000 8600000 5000000 5500000" \
			"6920000 7650000 8700000 5010000 5510000" \
			"6940000 7700000 8800000 5020000 5520000"; do
			# shellcheck disable=SC2086
			set -- $v
			rec $r base none tc-matchall - 1 "$1"
			rec $r patched on tc-matchall - 1 "$2"
			rec $r limit none tc-matchall - 1 "$3"
			rec $r base-mod none tc-matchall - 1 "$4"
			rec $r patched-mod on tc-matchall - 1 "$5"
			rec $r "$kernel" "$gate" tc-matchall - 1 "$(($4 + delta))"
			r=$((r + 1))
		done
		echo "# complete"
	} >"$dir/raw.csv"
}
# expect_second NAME DIR HEADER ROW LEGEND: the report on DIR/raw.csv exits
# 0 with nothing on stderr, and its second table has that header, that
# tc-matchall n=1 row (spaces squeezed) and a legend with LEGEND in it
expect_second() {
	local out second got
	report_ok "$1" "$2/raw.csv"
	second=$(echo "$out" | sed -n '/^other kernels:/,/^round by round:/p')
	got=$(echo "$second" | grep "^scenario" | tr -s ' ')
	check_eq "$1: the second table's header" "$3" "$got"
	got=$(echo "$second" | grep "^tc-matchall n=1 " | tr -s ' ')
	check_eq "$1: the n=1 row" "$4" "$got"
	check "$1: the legend" grep -qF "$5" <<<"$second"
}
mo=$tmp/mod
mod_fixture "$mo" patched-mod off 50000
# n=1: patched-mod on [5510000] (not the gate-off records), off [5060000]
#   vs base-mod [5010000]: +1.0; tax (5510000-5010000)/(8700000-5010000) = +13.6
expect_second "patched-X gate off" "$mo" \
	"scenario base-mod CV% patched-mod CV% base-mod %lim patched-mod %lim mod tax% mod off% patched %lim" \
	"tc-matchall n=1 5010000 0.2 5510000 0.2 57.6 63.3 +13.6 +1.0 87.9" \
	"X off% = patched-X with the gate off vs base-X"
if command -v python3 >/dev/null; then
	j=$(python3 -c 'import json, sys; k = json.load(open(sys.argv[1]))["other_kernels"]["rows"][0]["kernels"]["base-mod"]; print(k["tax_recovered_pct"], k["patched_off_diff_pct"])' "$mo/summary.json")
	check_eq "summary.json: patched_off_diff_pct" "13.55 1.0" "$j"
fi
# limit-X: the pair base-X/patched-X is measured against limit-X where the
# run has it (make bench: limit-mod for the modular kernels), not limit
lm=$tmp/limitmod
mod_fixture "$lm" limit-mod none 1000000
# n=1: base-mod [5010000] and patched-mod [5510000] of limit-mod [6010000]:
#   83.4 and 91.7; tax (5510000-5010000)/(6010000-5010000) = +50.0 (against
#   limit it would be 57.6, 63.3 and +13.6)
expect_second "limit-X" "$lm" \
	"scenario base-mod CV% patched-mod CV% limit-mod CV% base-mod %lim patched-mod %lim mod tax% patched %lim" \
	"tc-matchall n=1 5010000 0.2 5510000 0.2 6010000 0.2 83.4 91.7 +50.0 87.9" \
	"base-X %lim, patched-X %lim: % of limit-X (or limit-Y, X being Y-Z) where the run has it, else of limit; X tax% = (patched-X - base-X) / (that limit - base-X)"
if command -v python3 >/dev/null; then
	j=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["other_kernels"]["pairs"])' "$lm/summary.json" 2>&1)
	check_eq "limit-X: summary.json names limit-mod as the pair's limit" \
		"{'base-mod': 'limit-mod', 'patched-mod': 'limit-mod'}" "$j"
fi
# limit-Y: patched-mod-ool has no limit-mod-ool; its limit is limit-mod,
# not limit
lo=$tmp/limitmodool
mod_fixture "$lo" limit-mod none 1000000
sed -i '/^# complete/d' "$lo/raw.csv"
for r in 1 2 3; do rec $r patched-mod-ool on tc-matchall - 1 $((5390000 + r * 10000)); done >>"$lo/raw.csv"
echo "# complete" >>"$lo/raw.csv"
# n=1: patched-mod-ool [5410000] of limit-mod [6010000]: 90.0 (of limit
#   [8700000] it would be 62.2)
expect_second "limit-Y" "$lo" \
	"scenario base-mod CV% patched-mod CV% limit-mod CV% patched-mod-ool CV% base-mod %lim patched-mod %lim patched-mod-ool %lim mod tax% patched %lim" \
	"tc-matchall n=1 5010000 0.2 5510000 0.2 6010000 0.2 5410000 0.2 83.4 91.7 90.0 +50.0 87.9" \
	"% of limit-X (or limit-Y, X being Y-Z)"
got=$(sed -n '/^other kernels:/,/^round by round:/p' "$var/report.txt" | grep '^scenario')
check "no gate-off records: no X off% column ($got)" bash -c "[ -n '$got' ] && ! grep -q 'off%' <<<'$got'"
# the upstream run's second table has no X tax% and no legend line
check "no base-X/patched-X: no legend line" \
	bash -c "! grep -q 'base-X' '$oth/report.txt'"

# ---- other kernels only (a modular run: base-mod, patched-X, limit-mod) -----
# Nothing for the chart's three columns: no gnuplot run, a note, exit 0.
mod=$tmp/mod
mkdir -p "$mod"
{
	echo "# thunkless bench raw v1"
	echo "$HDR"
	for r in 1 2 3; do
		rec $r base-mod none tc-matchall - 1 $((6800000 + r * 1000))
		rec $r patched-mod on tc-matchall - 1 $((8500000 + r * 1000))
		rec $r limit-mod none tc-matchall - 1 $((8700000 + r * 1000))
	done
	echo "# complete"
} >"$mod/raw.csv"
out=$(cd "$mod" && "$R" raw.csv 2>"$tmp/err")
rc=$?
check "other kernels only: exits 0" [ $rc -eq 0 ]
check "other kernels only: says the chart is not drawn" grep -q "no base, patched or limit figures: chart.png not drawn" "$tmp/err"
check "other kernels only: no chart.png, no chart.log" [ ! -e "$mod/chart.png" -a ! -e "$mod/chart.log" ]
check "other kernels only: the second table has the mod pair" \
	grep -q "^tc-matchall n=1 .*6802000" "$mod/report.txt"

# ---- tax% only above the noise ----------------------------------------------
# rule: tax% prints only if limit - base > 2*sqrt(sd_base^2 + sd_limit^2)
noise=$tmp/noise
mkdir -p "$noise"
{
	echo "$HDR"
	# reuseport6: base 7700000 [7710000] 7720000, sd 10000; limit 7600000
	# [7730000] 7860000, sd 130000; gap 20000 < 2*sqrt(10000^2 + 130000^2)
	# = 260768: noise, '-' (the old rule printed 190000/20000 = +950.0)
	# tc-matchall n=1: base 1000000 [1010000] 1020000, sd 10000; limit
	# 1040000 [1050000] 1060000, sd 10000; gap 40000 > 2*sqrt(2e8) = 28284:
	# tax (1030000-1010000)/40000 = +50.0
	r=1
	for v in "7700000 7600000 1000000 1040000" "7710000 7730000 1010000 1050000" \
		"7720000 7860000 1020000 1060000"; do
		# shellcheck disable=SC2086
		set -- $v
		rec $r base none udp-lookup reuseport6 128 "$1"
		rec $r patched on udp-lookup reuseport6 128 7900000
		rec $r limit none udp-lookup reuseport6 128 "$2"
		rec $r base none tc-matchall - 1 "$3"
		rec $r patched on tc-matchall - 1 1030000
		rec $r limit none tc-matchall - 1 "$4"
		r=$((r + 1))
	done
	echo "# retried round=2 kernel=limit: scenario egress-bpf hung (no progress for 60s)"
	echo "# complete"
} >"$noise/raw.csv"
report_ok "noise input" "$noise/raw.csv"
check_eq "gap within noise: tax% '-'" "udp-lookup/reuseport6 n=128 7710000 7900000 +2.5 7730000 - - - 0.1/0.0/1.7/-" \
	"$(row "udp-lookup/reuseport6 n=128")"
check_eq "gap clearly above noise: tax% printed" "tc-matchall n=1 1010000 1030000 +2.0 1050000 +50.0 - - 1.0/0.0/1.0/-" \
	"$(row "tc-matchall n=1")"
# harmonic mean: H = 2/(1/m_A + 1/m_B); sd_H = sqrt(sum (H^2/(2 m_i^2) sd_i)^2)
#   base  2/(1/7710000 + 1/1010000) = 1786032, sd sqrt(268^2 + 15635^2) = 15638
#   limit 2/(1/7730000 + 1/1050000) = 1848861, sd sqrt(3522^2 + 15548^2) = 15942
#   gap 62829 > 2*sqrt(15638^2 + 15942^2) = 44663; patched 1822396:
#   tax 36364/62829 = +57.9, diff 36364/1786032 = +2.0
check_eq "harmonic mean row: tax% with propagated sds" "harmonic mean (2 rows) 1786032 1822396 +2.0 1848861 +57.9 - -" \
	"$(echo "$out" | grep "^harmonic mean" | tr -s ' ')"
check "legend states the rule" grep -qF "tax% '-' unless limit-base > 2*sqrt(sd_base^2 + sd_limit^2)" "$noise/report.txt"
check "summary.csv: noise tax is an empty field" \
	grep -qx 'udp-lookup,reuseport6,128,7710000,7900000,2.46,7730000,,,,0.13,0.00,1.68,,0,3,102.20,,' "$noise/summary.csv"
check "summary.csv: clear tax" grep -qx 'tc-matchall,-,1,1010000,1030000,1.98,1050000,50.00,,,0.99,0.00,0.95,,0,3,98.10,50.00,' "$noise/summary.csv"
check "summary.json: noise tax is null" grep -q '"variant": "reuseport6", "n": 128, .*"tax_recovered_pct": null' "$noise/summary.json"
# retried boots: listed under the table, and in summary.json
got=$(echo "$out" | sed -n '/^harmonic mean/,$p' | sed '/^round by round:/,$d' | sed 1d | grep -v '^$')
want="1 boot(s) retried after a failure (the failed attempts' records are not counted):
  round=2 kernel=limit: scenario egress-bpf hung (no progress for 60s)"
check_eq "retried boot listed under the table" "$want" "$got"
check "summary.json: retried" grep -qF '"retried": ["round=2 kernel=limit: scenario egress-bpf hung (no progress for 60s)"],' "$noise/summary.json"
check "a retried boot does not make the run incomplete" grep -q '"complete": true' "$noise/summary.json"
check "no retries: no retry note" [ "$(grep -c 'retried' "$good/report.txt")" -eq 0 ]
# one row within noise: the harmonic mean row is that row, sds and all: '-'
sed -i '/,tc-matchall,/d' "$noise/raw.csv"
out=$("$R" --no-plot "$noise/raw.csv" 2>&1)
check_eq "harmonic mean within noise: tax% '-'" "harmonic mean (1 rows) 7710000 7900000 +2.5 7730000 - - -" \
	"$(echo "$out" | grep "^harmonic mean" | tr -s ' ')"

# ---- round by round -------------------------------------------------------
# A host that slows every kernel of a round alike: 5 rounds at speed f =
# 1.0, 0.5, 0.8, 0.9, 1.0 of base 1000000, patched 1900000, limit 2000000
# (tax 90%, 95% of the limit in every round), gate off at base's speed,
# except round 5, whose limit ran into a burst: 1200000.
#   medians of each kernel: base 900000, patched 1710000, limit 1600000,
#   whose ratio, (1710000-900000)/(1600000-900000), would read +115.7; the
#   main table prints '-', the gap 700000 being below twice the noise,
#   2*sqrt(207364^2 + 414729^2) = 927362 (CV 24.7 and 27.3%)
#   round by round: tax 90 90 90 90 450 -> +90.0; %lim 95 95 95 95 158.3
#   -> 95.0; off 0 -> +0.0; gaps limit/base - 1: 1 1 1 1 0.2, median 1 >
#   2 * stdev 0.358: printed
# and a pair base-mod/patched-mod/limit-mod in rounds 1 to 4 only (round 5
# has no limit-mod), where patched-mod runs at 1.5 and limit-mod 2 times
# base-mod's 1000000 * f: tax 50.0, 75.0 of the limit, off -> mod off% -10.0
# (patched-mod with the gate off at 0.9 times base-mod); rounds: the fewest,
# 4.  tc-matchall n=10: the gap is noise (limit/base - 1: +0.05, -0.05,
# +0.05, -0.05, +0.05, median 0.05 < 2 * 0.055): tax '-'.  A round that has
# two records of a kernel (concatenated runs) uses their mean: round 1 of
# n=10 has patched 1000000 and 1100000 -> 1050000.
rbr=$tmp/rbr
mkdir -p "$rbr"
{
	echo "$HDR"
	r=1
	for f in 10 5 8 9 10; do
		lim=$((200000 * f))
		[ $r -eq 5 ] && lim=1200000
		rec $r base none tc-matchall - 1 $((100000 * f))
		rec $r patched on tc-matchall - 1 $((190000 * f))
		rec $r patched off tc-matchall - 1 $((100000 * f))
		rec $r limit none tc-matchall - 1 "$lim"
		rec $r base-mod none tc-matchall - 1 $((100000 * f))
		rec $r patched-mod on tc-matchall - 1 $((150000 * f))
		rec $r patched-mod off tc-matchall - 1 $((90000 * f))
		[ $r -lt 5 ] && rec $r limit-mod none tc-matchall - 1 $((200000 * f))
		rec $r base none tc-matchall - 10 1000000
		[ $r -ne 1 ] && rec $r patched on tc-matchall - 10 1025000
		[ $((r % 2)) -eq 1 ] && rec $r limit none tc-matchall - 10 1050000
		[ $((r % 2)) -eq 0 ] && rec $r limit none tc-matchall - 10 950000
		r=$((r + 1))
	done
	rec 1 patched on tc-matchall - 10 1000000
	rec 1 patched on tc-matchall - 10 1100000
	echo "# complete"
} >"$rbr/raw.csv"
report_ok "round by round" "$rbr/raw.csv"
third=$(echo "$out" | sed -n '/^round by round:/,$p')
check_eq "round by round: the main table reads the medians" \
	"tc-matchall n=1 900000 1710000 +90.0 1600000 - 900000 +0.0 24.7/24.7/27.3/24.7 !" \
	"$(echo "$out" | sed '/^other kernels:/,$d' | grep '^tc-matchall n=1 ' | tr -s ' ')"
check_eq "round by round: header, the main kernels then the pair" \
	"scenario rounds patched %lim tax% off% patched-mod %lim mod tax% mod off%" \
	"$(echo "$third" | grep '^scenario' | tr -s ' ')"
check_eq "round by round: a burst in one round does not move the reading" \
	"tc-matchall n=1 4 95.0 +90.0 +0.0 75.0 +50.0 -10.0" \
	"$(echo "$third" | grep '^tc-matchall n=1 ' | tr -s ' ')"
# n=10 round 1: patched (1000000 + 1100000) / 2 = 1050000, 100.0% of the
# limit; rounds 2-5: 1025000 of 950000 or 1050000: 107.9 97.6 107.9 97.6;
# median of 100.0 107.9 97.6 107.9 97.6 -> 100.0
check_eq "round by round: a gap within noise prints '-'; a kernel's two records in a round are averaged" \
	"tc-matchall n=10 5 100.0 - - - - -" \
	"$(echo "$third" | grep '^tc-matchall n=10 ' | tr -s ' ')"
check "round by round: the legend states the rule" grep -qF \
	"'-' unless the median of limit/base - 1" <<<"$third"
check "round by round: summary.csv" grep -qx \
	'tc-matchall,-,1,900000,1710000,90.00,1600000,,900000,0.00,24.69,24.69,27.28,24.69,1,5,95.00,90.00,0.00' "$rbr/summary.csv"
if command -v python3 >/dev/null; then
	j=$(python3 - "$rbr/summary.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))
r = o["rows"][0]["by_round"]
m = o["other_kernels"]["rows"][0]["kernels"]["base-mod"]["by_round"]
n = o["rows"][1]["by_round"]
print(r["rounds"], r["patched_pct_of_limit"], r["tax_recovered_pct"], r["off_diff_pct"],
      m["rounds"], m["patched_pct_of_limit"], m["tax_recovered_pct"], m["off_diff_pct"],
      n["tax_recovered_pct"])
PY
)
	check_eq "round by round: summary.json, rows and pairs" "5 95.0 90.0 0.0 4 75.0 50.0 -10.0 None" "$j"
fi
check "round by round: the good input's n=100 row, 5 rounds" \
	grep -q '^tc-matchall n=100 *5 *93.8 *+88.7 *+0.3$' "$good/report.txt"
# no row with base, patched and limit, and no pair: no table
mkdir -p "$rbr/none"
{
	echo "$HDR"
	for r in 1 2 3; do
		rec $r base none tc-matchall - 1 1000000
		rec $r patched on tc-matchall - 1 1100000
	done
	echo "# complete"
} >"$rbr/none/raw.csv"
out=$("$R" --no-plot "$rbr/none/raw.csv" 2>&1)
check "round by round: no table without base, patched and limit" \
	bash -c "[ -n \"\$1\" ] && ! grep -q 'round by round' <<<\"\$1\"" _ "$out"

# ---- incomplete runs ---------------------------------------------------------
inc=$tmp/inc
mkdir -p "$inc"
{
	echo "$HDR"
	rec 1 base none tc-matchall - 1 5000000
	rec 1 patched on tc-matchall - 1 5500000
	echo "# failed round=1 kernel=limit: FAIL scenario=tc-matchall rc=1 reason=x"
	echo "# incomplete reason=round 1 kernel limit failed"
} >"$inc/raw.csv"
out=$("$R" --no-plot "$inc/raw.csv" 2>&1)
check "incomplete marker: exits 0" [ $? -eq 0 ]
check "incomplete marker: banner with reason" grep -q "INCOMPLETE RUN: round 1 kernel limit failed" <<<"$out"
check "incomplete marker: failure listed" grep -q "failed round=1 kernel=limit" <<<"$out"
check "incomplete marker: summary.json complete=false" grep -q '"complete": false' "$inc/summary.json"
"$R" --no-plot --strict "$inc/raw.csv" >/dev/null 2>&1
check "incomplete marker: --strict exits 3" [ $? -eq 3 ]
sed -i '/^#/d' "$inc/raw.csv"
out=$("$R" --no-plot "$inc/raw.csv" 2>&1)
check "no completion marker counts as incomplete" grep -q "INCOMPLETE RUN: no completion marker" <<<"$out"

# ---- malformed input ---------------------------------------------------------
bad=$tmp/bad
mkdir -p "$bad"
# expect_err DESC EXPECTED-STDERR: run report on $bad/raw.csv (cwd $bad so the
# message names raw.csv)
expect_err() {
	local d=$1 want=$2 got rc
	got=$(cd "$bad" && "$R" --no-plot raw.csv 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" -eq 1 ] && [ "$got" = "$want" ]; then
		ok "$d"
	else
		nok "$d" "rc=$rc" "got:  $got" "want: $want"
	fi
}
goodlines() {
	echo "# thunkless bench raw v1"
	echo "$HDR"
	rec 1 base none tc-matchall - 1 5000000
	rec 1 patched on tc-matchall - 1 5500000
}
{ goodlines; echo "1764450000,1,limit,none,tc-matchall,-,1,6000000,1000000,6x00000,0"; } >"$bad/raw.csv"
expect_err "bad pps field names line 5" "report: raw.csv:5: bad pps field"
{ goodlines; echo "1764450000,1,limit,none,tc-matchall,-,1,6000000,1000000,5000000,0"; } >"$bad/raw.csv"
expect_err "pps inconsistent with pkts/usec" \
	"report: raw.csv:5: bad pps field (6000000 pkts in 1000000 usec is 6000000 pps)"
{ goodlines; echo "1764450000,1,limit,none,tc-matchall,-,0,6000000,1000000,6000000,0"; } >"$bad/raw.csv"
expect_err "n=0 rejected" "report: raw.csv:5: bad n field"
{ goodlines; echo "1764450000,1,limit,none,tc-matchall,-,-3,6000000,1000000,6000000,0"; } >"$bad/raw.csv"
expect_err "negative n rejected" "report: raw.csv:5: bad n field"
{ goodlines; echo "1764450000,1,limit,none,tc-matchall,-,1,6000000,1000000,6000000"; } >"$bad/raw.csv"
expect_err "missing field" "report: raw.csv:5: wrong number of fields (10, expected 11)"
{ goodlines; echo "1764450000,1,lim it,none,tc-matchall,-,1,6000000,1000000,6000000,0"; } >"$bad/raw.csv"
expect_err "bad kernel name" "report: raw.csv:5: bad kernel field"
{ goodlines; echo "1764450000,1,limit,none,tc-matchall,,1,6000000,1000000,6000000,0"; } >"$bad/raw.csv"
expect_err "empty variant" "report: raw.csv:5: bad variant field"
{ goodlines; echo "1764450000,1,limit,none,tc-matchall,-,1,6000000,0,6000000,0"; } >"$bad/raw.csv"
expect_err "usec=0 rejected" "report: raw.csv:5: bad usec field"
{ goodlines; echo "1764450000,1,limit,none,tc-matchall,-,1,6000000,1000000,99999999999999999999999,0"; } >"$bad/raw.csv"
expect_err "overflowing number" "report: raw.csv:5: bad pps field"
{ echo "ts,round,kernel,scenario,n,pps"; rec 1 base none tc-matchall - 1 5000000; } >"$bad/raw.csv"
expect_err "bad header" "report: raw.csv:1: bad header (expected \"$HDR\")"
: >"$bad/raw.csv"
expect_err "empty input" "report: raw.csv: empty input"
echo "$HDR" >"$bad/raw.csv"
expect_err "header only" "report: raw.csv: no records"
printf '# only\n# comments\n' >"$bad/raw.csv"
expect_err "comments only" "report: raw.csv: no header line"
got=$("$R" "$tmp/does-not-exist.csv" 2>&1)
rc=$?
check "missing file: error, exit 1" [ $rc -eq 1 -a -n "$got" ]
"$R" >/dev/null 2>&1
check "no arguments: usage, exit 2" [ $? -eq 2 ]
"$R" --bogus x.csv >/dev/null 2>&1
check "unknown option: exit 2" [ $? -eq 2 ]
{ goodlines; printf '1764450000,1,limit,none,tc-matchall,-,1,6000000,1000000,6000000,0\r\n'; echo "# complete"; } >"$bad/raw.csv"
(cd "$bad" && "$R" --no-plot raw.csv >/dev/null 2>&1)
check "CRLF line endings accepted" [ $? -eq 0 ]

echo "1..$t"
[ "$fails" -eq 0 ]
