#!/usr/bin/env bash
# Differential check: Dolphin's heuristic force_unwrap / force_try / force_cast findings against
# the toolchain's own SwiftParser (ForceUnwrapExprSyntax, TryExprSyntax and AsExprSyntax /
# UnresolvedAsExprSyntax with "!"), hit by hit (file, rule, line), on three corpora:
#
#   1. this repository's Sources/            exact agreement REQUIRED (exit 1 otherwise)
#   2. this repository's Tests/ (with the fixture of tricky cases)  exact agreement REQUIRED
#   3. every .swiftinterface shipped with the toolchain found from $(which swift)
#                                             agreement reported; disagreements listed
#
# Then it measures analysis throughput (all rules, one thread, release build) over corpora 1+3.
# Builds the nested package Tools/SyntaxOracle (about a minute the first time); not run in CI.
#
# Usage: scripts/differential-code-analysis.sh [--no-benchmark]
# Environment: SWIFT_HOST_LIBRARIES overrides <toolchain>/usr/lib/swift/host.
set -euo pipefail

cd "$(dirname "$0")/.."
benchmark=1
[[ "${1:-}" == "--no-benchmark" ]] && benchmark=0

oracle_package=Tools/SyntaxOracle
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift_bin=$(command -v swift)
toolchain_usr=$(dirname "$(dirname "$(readlink -f "$swift_bin")")")
echo "toolchain: $toolchain_usr ($("$swift_bin" --version 2>/dev/null | head -1))"

echo "building $oracle_package (release)…"
swift build --package-path "$oracle_package" -c release >"$work/build.log" 2>&1 || {
  cat "$work/build.log"
  exit 2
}
bin=$(swift build --package-path "$oracle_package" -c release --show-bin-path)

find Sources -name '*.swift' | LC_ALL=C sort >"$work/sources.txt"
find Tests -name '*.swift' | LC_ALL=C sort >"$work/tests.txt"
# usr/lib/swift holds every interface file; usr/lib/swift_static only byte-identical copies.
find "$toolchain_usr/lib/swift" -name '*.swiftinterface' | LC_ALL=C sort >"$work/interfaces.txt"

# compare NAME LIST REQUIRED: prints totals, agreement and disagreements; returns 1 when
# REQUIRED=1 and any hit disagrees.
compare() {
  local name=$1 list=$2 required=$3
  "$bin/syntax-oracle" --stdin --lines <"$list" >"$work/$name.oracle"
  "$bin/dolphin-analyze-counts" --stdin --lines <"$list" >"$work/$name.ours"
  awk -F'\t' 'NF == 3' "$work/$name.oracle" | LC_ALL=C sort >"$work/$name.oracle.hits"
  awk -F'\t' 'NF == 3' "$work/$name.ours" | LC_ALL=C sort >"$work/$name.ours.hits"
  local matched missed extra files bytes
  matched=$(LC_ALL=C comm -12 "$work/$name.oracle.hits" "$work/$name.ours.hits" | wc -l)
  missed=$(LC_ALL=C comm -23 "$work/$name.oracle.hits" "$work/$name.ours.hits" | wc -l)
  extra=$(LC_ALL=C comm -13 "$work/$name.oracle.hits" "$work/$name.ours.hits" | wc -l)
  files=$(wc -l <"$list")
  bytes=$(xargs -d '\n' cat <"$list" | wc -c)
  echo
  echo "== $name: $files files, $bytes bytes"
  printf '   %-13s %10s %10s\n' rule SwiftParser Dolphin
  for rule in force_unwrap force_try force_cast; do
    printf '   %-13s %10d %10d\n' "$rule" \
      "$(awk -F'\t' -v r="$rule" '$2 == r' "$work/$name.oracle.hits" | wc -l)" \
      "$(awk -F'\t' -v r="$rule" '$2 == r' "$work/$name.ours.hits" | wc -l)"
  done
  local total=$((matched + missed + extra))
  if ((total == 0)); then
    echo "   agreement: 100% (no hits on either side)"
  else
    awk -v m="$matched" -v t="$total" -v x="$missed" -v e="$extra" \
      'BEGIN { printf "   agreement: %.2f%% (%d matched hits; %d only SwiftParser, %d only Dolphin)\n", 100 * m / t, m, x, e }'
  fi
  if ((missed + extra > 0)); then
    echo "   disagreements (file:line rule side: source line):"
    { LC_ALL=C comm -23 "$work/$name.oracle.hits" "$work/$name.ours.hits" | sed 's/$/\tSwiftParser-only/'
      LC_ALL=C comm -13 "$work/$name.oracle.hits" "$work/$name.ours.hits" | sed 's/$/\tDolphin-only/'; } |
      head -40 | while IFS=$'\t' read -r file rule line side; do
        printf '   %s:%s %s %s: %s\n' "$file" "$line" "$rule" "$side" "$(sed -n "${line}p" "$file" | cut -c1-100)"
      done
    if ((required)); then return 1; fi
  fi
  return 0
}

status=0
compare sources "$work/sources.txt" 1 || status=1
compare tests "$work/tests.txt" 1 || status=1
compare interfaces "$work/interfaces.txt" 0

if ((benchmark)); then
  echo
  echo "== throughput over Sources/ and the interface files (all rules, one thread, best of 5)"
  cat "$work/sources.txt" "$work/interfaces.txt" | xargs -d '\n' "$bin/analyze-throughput" --repeat 5
fi

if ((status)); then
  echo
  echo "FAIL: Sources/ and Tests/ must agree exactly with SwiftParser."
fi
exit $status
