#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ (address sanitizer on) and runs each for a bounded time.
#
#   scripts/fuzz.sh [seconds-per-target] [target...]      # default: 60 s, every target
#   FUZZ_UPDATE_CORPUS=1 scripts/fuzz.sh 300               # also merge new inputs into Fuzz/Corpus
#
# Targets: legacy-import export-import sanitizer ranker code-analysis jsonrpc.
# Each run starts from the saved corpus Fuzz/Corpus/<target>/ (read-only unless
# FUZZ_UPDATE_CORPUS=1, which minimizes the grown corpus back into it with -merge=1), writes new
# inputs to a scratch directory, and saves any crash under Fuzz/Artifacts/<target>/. A crash makes
# the script exit 1 after the other targets ran; each crash should become a file in
# Fuzz/Regressions/<target>/, which the regression suite (`swift test`, FuzzEntriesTests) replays.
# The closing lines report executions and the corpus size per target.
set -uo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
export PATH="/opt/swift/usr/bin:$PATH"
SECONDS_PER_TARGET="${1:-60}"
shift || true
ALL=(legacy-import export-import sanitizer ranker code-analysis jsonrpc)
if [ "$#" -gt 0 ]; then TARGETS=("$@"); else TARGETS=("${ALL[@]}"); fi

echo "fuzz: building Fuzz/ (release, -sanitize=fuzzer,address)…"
build_start=$(date +%s)
if ! swift build -c release --package-path "$ROOT/Fuzz" \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >"$ROOT/Fuzz/.build-log.txt" 2>&1; then
  tail -30 "$ROOT/Fuzz/.build-log.txt"
  echo "fuzz: build failed"
  exit 2
fi
BIN="$(swift build -c release --package-path "$ROOT/Fuzz" --show-bin-path 2>/dev/null)"
echo "fuzz: built in $(( $(date +%s) - build_start )) s"

dict_for() {
  case "$1" in
    sanitizer) echo "$ROOT/Fuzz/Dictionaries/sanitizer.dict" ;;
    legacy-import | export-import | jsonrpc) echo "$ROOT/Fuzz/Dictionaries/json.dict" ;;
    *) echo "" ;;
  esac
}

crashes=0
report=()
SCRATCH="$(mktemp -d /tmp/dolphin-fuzz-XXXXXX)"
trap 'rm -rf "$SCRATCH"' EXIT
for t in "${TARGETS[@]}"; do
  corpus="$ROOT/Fuzz/Corpus/$t"
  artifacts="$ROOT/Fuzz/Artifacts/$t"
  mkdir -p "$corpus" "$artifacts" "$SCRATCH/$t"
  dict="$(dict_for "$t")"
  args=(-max_total_time="$SECONDS_PER_TARGET" -max_len=65536 -timeout=10 -rss_limit_mb=3072
        -print_final_stats=1 -artifact_prefix="$artifacts/")
  [ -n "$dict" ] && args+=(-dict="$dict")
  echo "fuzz: $t for ${SECONDS_PER_TARGET}s"
  log="$SCRATCH/$t.log"
  # Swift's own crash backtracer reads memory ASan watches; libFuzzer prints the stack itself.
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1" \
    "$BIN/dolphin-fuzz" "$t" "${args[@]}" "$SCRATCH/$t" "$corpus" >"$log" 2>&1
  rc=$?
  execs="$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -1)"
  if [ "$rc" != 0 ]; then
    crashes=$((crashes + 1))
    echo "fuzz: $t FOUND A CRASH (exit $rc):"
    grep -E 'ERROR|Fatal error|SUMMARY|Test unit written|fatalError|Crash' "$log" | head -12
  fi
  if [ -n "${FUZZ_UPDATE_CORPUS:-}" ]; then
    merged="$SCRATCH/$t-merged"
    mkdir -p "$merged"
    "$BIN/dolphin-fuzz" "$t" -merge=1 -max_len=65536 "$merged" "$corpus" "$SCRATCH/$t" >/dev/null 2>&1 \
      && rm -f "$corpus"/* && cp "$merged"/* "$corpus"/
  fi
  report+=("$t: ${execs:-?} executions in ${SECONDS_PER_TARGET} s, exit $rc, corpus $(ls "$corpus" | wc -l) files")
done
echo "fuzz: summary"
for line in "${report[@]}"; do echo "  $line"; done
echo "fuzz: ${#TARGETS[@]} targets, $crashes with a crash"
[ "$crashes" = 0 ]
