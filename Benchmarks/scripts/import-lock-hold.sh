#!/bin/bash
# How long `dolphin import` keeps other writers out: imports a synthetic export of N knowledge
# items (shared/bench/synth.py, SciFact) into a workspace holding one item, while a probe tries
# BEGIN IMMEDIATE every 2 ms (no waiting) and reports the longest run of refusals, and a
# `dolphin capture` started CAPTURE_AT seconds in reports how long it took.
#
# usage: Benchmarks/scripts/import-lock-hold.sh [DOLPHIN] [N]
#   DOLPHIN defaults to .build/release/dolphin (`swift build -c release --product dolphin`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dolphin=$(realpath "${1:-.build/release/dolphin}")
n=${2:-20000}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
python3 "$here/import-lock/make_export.py" "$n" "$scratch/export.json"
export DOLPHIN_HOME="$scratch/ws"
"$dolphin" capture fact "Existing item" --content "Stored before the import." >/dev/null
python3 "$here/import-lock/probe.py" "$DOLPHIN_HOME/workspace.sqlite" "$scratch/stop" >"$scratch/probe.out" &
probe=$!
(
  sleep "${CAPTURE_AT:-12}"
  start=$(date +%s.%N)
  status=0
  "$dolphin" capture decision "Captured during the import" --content "x" >/dev/null 2>"$scratch/capture.err" || status=$?
  echo "capture exit $status after $(echo "$(date +%s.%N) - $start" | bc) s"
  cat "$scratch/capture.err"
) &
capture=$!
/usr/bin/time -f "import wall %e s, max RSS %M KB" "$dolphin" import "$scratch/export.json" --on-conflict replace >/dev/null
wait $capture
touch "$scratch/stop"
wait $probe
cat "$scratch/probe.out"
