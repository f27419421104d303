#!/usr/bin/env bash
# Real filesystem faults against the `dolphin` CLI (tests only; never part of the product).
#
#   scripts/fault-injection.sh [path/to/dolphin]
#
# Needs root (CI runs as root) for a private mount namespace (`unshare -m`) and for running one
# case as an unprivileged user (`setpriv`). Exits 77 with a "SKIP:" line when that is not
# permitted. Each case asserts: a clear error naming the cause, exit code 5, the data committed
# before the fault intact (PRAGMA integrity_check via `dolphin doctor`, record counts), and no
# half-written file.
#
#   enospc     workspace on a tiny tmpfs filled up: reading still works (status, knowledge list,
#              search, export to stdout and to another disk; doctor exits 5 naming the full disk);
#              captures, export --output and the legacy backup of `dolphin migrate` fail with
#              "the disk is full"
#   erofs      the tmpfs remounted read-only: capture fails with "read-only"; list, export and
#              status still read it
#   eacces     as uid 65534: a workspace in a directory it may not write ("permission denied"),
#              and its own workspace made unwritable (writes refused, reads still work)
#   wal        the -wal file removed, truncated or replaced by garbage between runs
set -uo pipefail

DOLPHIN="${1:-$(cd "$(dirname "$0")/.." && pwd)/.build/debug/dolphin}"
DOLPHIN="$(cd "$(dirname "$DOLPHIN")" && pwd)/$(basename "$DOLPHIN")"
FIXTURE="$(cd "$(dirname "$0")/.." && pwd)/Tests/ContinuityKitTests/Fixtures/legacy/workspace-v4.json"

if [ -z "${DOLPHIN_FAULTS_IN_NAMESPACE:-}" ]; then
  if [ "$(id -u)" != 0 ]; then echo "SKIP: fault injection needs root (mount namespace, setpriv)"; exit 77; fi
  if ! unshare -m --propagation private true 2>/dev/null; then
    echo "SKIP: unshare -m is not permitted here"; exit 77
  fi
  DOLPHIN_FAULTS_IN_NAMESPACE=1 exec unshare -m --propagation private bash "$0" "$DOLPHIN"
fi

passed=0
failed=0
ROOT="$(mktemp -d /tmp/dolphin-faults-XXXXXX)"
chmod 755 "$ROOT"   # traversable for the unprivileged case
cleanup() {
  umount "$ROOT/ws-roomy/legacy-backups" 2>/dev/null
  for m in "$ROOT"/mnt-*; do umount "$m" 2>/dev/null; done
  rm -rf "$ROOT"
}
trap cleanup EXIT

fail() { echo "FAIL [$CASE] $*"; failed=$((failed + 1)); CASE_OK=0; }
begin() { CASE="$1"; CASE_OK=1; echo "--- $1"; }
end() { if [ "$CASE_OK" = 1 ]; then echo "PASS [$CASE]"; passed=$((passed + 1)); fi; }

# run OUT ARGS... : runs dolphin, stdout+stderr in $OUT, exit code in $RC.
run() {
  local out="$1"; shift
  "$DOLPHIN" "$@" >"$out" 2>&1
  RC=$?
}

# expect_failure WHAT PATTERN : the last run exited 5 and its output matches PATTERN (grep -Ei).
expect_failure() {
  local what="$1" pattern="$2"
  if [ "$RC" != 5 ]; then fail "$what: exit $RC, expected 5: $(tail -2 "$ROOT/out")"; return; fi
  if ! grep -Eiq "$pattern" "$ROOT/out"; then fail "$what: message does not name the cause /$pattern/: $(cat "$ROOT/out")"; return; fi
  echo "  ok: $what -> exit 5: $(grep -m1 'error' "$ROOT/out" | cut -c1-220)"
}

# count WS TABLE : rows in TABLE (sqlite3 CLI, read-only).
count() { sqlite3 "file:$1/workspace.sqlite?mode=ro" "SELECT count(*) FROM $2" 2>&1; }

# healthy WS WHAT [COMMAND...] : doctor says ok (integrity_check, references, search index), run
# with COMMAND as the dolphin (default $DOLPHIN;
# a workspace of uid 65534 is checked as uid 65534: dolphin opens only a workspace directory of
# this user's or root's).
healthy() {
  local ws="$1" what="$2"; shift 2
  [ $# -gt 0 ] || set -- "$DOLPHIN"
  "$@" doctor --json --workspace "$ws" >"$ROOT/doctor" 2>&1; RC=$?
  set -- "$ws" "$what"
  if [ "$RC" != 0 ] || ! grep -q '"ok" : true' "$ROOT/doctor"; then
    fail "$2: doctor is not healthy (exit $RC): $(cat "$ROOT/doctor")"
  else
    echo "  ok: $2 -> doctor healthy (integrity_check ok, references ok, search index agrees)"
  fi
}

# no_stray DIR : no hidden temporary or partial files in DIR.
no_stray() {
  local stray
  stray="$(find "$1" -maxdepth 2 \( -name '.*.tmp-*' -o -name '*.partial' \) 2>/dev/null)"
  if [ -n "$stray" ]; then fail "half-written files left behind: $stray"; else echo "  ok: no temporary or partial file left in $1"; fi
}

big_text() { python3 -c "print('x' * $1)"; }

mount_tmpfs() {  # mount_tmpfs NAME SIZE -> echoes the mount point
  local m="$ROOT/mnt-$1"
  mkdir -p "$m" && mount -t tmpfs -o "size=$2,mode=0755" tmpfs "$m" && echo "$m"
}

# ---------------------------------------------------------------------------------------------
begin enospc
M="$(mount_tmpfs enospc 1m)" || { fail "cannot mount tmpfs"; }
WS="$M/ws"
for i in 1 2 3; do run "$ROOT/out" capture fact "committed $i" --content "before the disk filled" --workspace "$WS"; done
[ "$(count "$WS" knowledge)" = 3 ] || fail "setup: expected 3 items"
dd if=/dev/zero of="$M/filler" bs=4k >/dev/null 2>&1   # stops at ENOSPC
full=0
for i in $(seq 1 20); do
  run "$ROOT/out" capture context "after full $i" --content "$(big_text 12000)" --workspace "$WS"
  if [ "$RC" != 0 ]; then full=1; break; fi
done
if [ "$full" = 0 ]; then fail "20 large captures on a full disk all succeeded"; else expect_failure "capture on a full disk" "the disk is full"; fi
stored_before=$(( 3 + i - 1 ))
# Reading needs no room: the open falls back to reading when SQLite cannot allocate its -shm.
dd if=/dev/zero of="$M/filler2" bs=4k >/dev/null 2>&1   # whatever the last captures left
for args in "status" "knowledge list" "search committed" "export" "export --output $ROOT/rescue.json"; do
  run "$ROOT/out" $args --workspace "$WS"
  if [ "$RC" = 0 ] && grep -q "the disk is full" "$ROOT/out" && { [ "$args" = status ] || grep -q "committed 3" "$ROOT/out" "$ROOT/rescue.json" 2>/dev/null; }; then
    echo "  ok: $args on the full disk -> exit 0, with a notice naming the full disk"
  else
    fail "$args on the full disk: exit $RC: $(head -3 "$ROOT/out" | cut -c1-300)"
  fi
done
run "$ROOT/out" doctor --workspace "$WS"
if [ "$RC" = 5 ] && grep -q "^Disk: full: " "$ROOT/out" && grep -q "PRAGMA integrity_check: ok" "$ROOT/out"; then
  echo "  ok: doctor on the full disk -> exit 5: $(grep -m1 '^Disk:' "$ROOT/out")"
else
  fail "doctor on the full disk: exit $RC: $(cat "$ROOT/out")"
fi
rm -f "$M/filler2"
rm -f "$M/filler"
n="$(count "$WS" knowledge)"
[ "$n" = "$stored_before" ] || fail "after freeing space: $n items, expected $stored_before (every capture that reported success, no other)"
healthy "$WS" "after freeing space"
run "$ROOT/out" capture fact "after space was freed" --workspace "$WS"
[ "$RC" = 0 ] || fail "capture after freeing space failed: $(cat "$ROOT/out")"
no_stray "$M"

# Our own file writes: the workspace has room, the destination is a full filesystem.
WS2="$ROOT/ws-roomy"
for i in 1 2; do run "$ROOT/out" capture fact "roomy $i" --workspace "$WS2"; done
FULL="$(mount_tmpfs full-out 64k)" || fail "cannot mount tmpfs"
dd if=/dev/zero of="$FULL/.filler" bs=4k >/dev/null 2>&1
run "$ROOT/out" export --output "$FULL/export.json" --workspace "$WS2"
expect_failure "export --output onto a full disk" "the disk is full"
[ -e "$FULL/export.json" ] && fail "export left a file at $FULL/export.json"
no_stray "$FULL"
# The legacy backup directory on a full filesystem of its own: the backup cannot be written.
mkdir -p "$WS2/legacy-backups"
mount -t tmpfs -o size=64k,mode=0700 tmpfs "$WS2/legacy-backups" || fail "cannot mount the backup tmpfs"
dd if=/dev/zero of="$WS2/legacy-backups/.filler" bs=4k >/dev/null 2>&1
run "$ROOT/out" migrate "$FIXTURE" --workspace "$WS2"
expect_failure "migrate with its legacy backup onto a full disk" "the disk is full"
[ -z "$(find "$WS2/legacy-backups" -mindepth 1 -name '*.backup*')" ] || fail "a partial backup was left: $(ls -A "$WS2/legacy-backups")"
[ "$(count "$WS2" memory)" = 0 ] || fail "the failed migration imported memories"
[ "$(count "$WS2" legacy_import)" = 0 ] || fail "the failed migration was recorded as imported"
rm -f "$WS2/legacy-backups/.filler"
run "$ROOT/out" migrate "$FIXTURE" --workspace "$WS2"
[ "$RC" = 0 ] || fail "migrate after freeing space failed: $(cat "$ROOT/out")"
[ "$(count "$WS2" knowledge)" = 2 ] || fail "expected the 2 committed items"
healthy "$WS2" "after the backup could be written"
umount "$WS2/legacy-backups"
end

# ---------------------------------------------------------------------------------------------
begin erofs
M="$(mount_tmpfs erofs 4m)" || fail "cannot mount tmpfs"
WS="$M/ws"
for i in 1 2; do run "$ROOT/out" capture decision "kept $i" --workspace "$WS"; done
mount -o remount,ro "$M" || fail "cannot remount read-only"
run "$ROOT/out" capture fact "refused" --workspace "$WS"
expect_failure "capture on a read-only filesystem" "read-only"
run "$ROOT/out" export --output "$M/export.json" --workspace "$ROOT/ws-roomy"
expect_failure "export --output onto a read-only filesystem" "read-only"
[ -e "$M/export.json" ] && fail "export left a file at $M/export.json"
# Reading works on a read-only filesystem: no committed change waits in a -wal file (the last
# close checkpointed it), so SQLite's immutable mode reads the database file alone.
for args in "knowledge list" "export" "status"; do
  run "$ROOT/out" $args --workspace "$WS"
  if [ "$RC" = 0 ] && { [ "$args" = status ] || grep -q "kept 2" "$ROOT/out"; }; then
    echo "  ok: $args on the read-only filesystem -> exit 0"
  else
    fail "$args on the read-only filesystem: exit $RC: $(head -2 "$ROOT/out" | cut -c1-200)"
  fi
done
mount -o remount,rw "$M"
[ "$(count "$WS" knowledge)" = 2 ] || fail "expected the 2 committed items"
healthy "$WS" "after remounting read-write"
no_stray "$M"
end

# ---------------------------------------------------------------------------------------------
begin eacces
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups)
# A copy uid 65534 can reach whatever the checkout's own permissions are (CI may clone under /root).
install -m 755 "$DOLPHIN" "$ROOT/dolphin"
P="$ROOT/root-owned"
mkdir -p "$P" && chmod 755 "$P"           # traversable, not writable by uid 65534
"${NOBODY[@]}" "$ROOT/dolphin" capture fact "nope" --workspace "$P/ws" >"$ROOT/out" 2>&1; RC=$?
expect_failure "capture into a directory uid 65534 may not write" "permission denied"
[ -e "$P/ws" ] && fail "a workspace directory was created anyway"
O="$ROOT/own"
mkdir -p "$O" && chown 65534:65534 "$O" && chmod 755 "$O"
for i in 1 2; do "${NOBODY[@]}" "$ROOT/dolphin" capture goal "mine $i" --workspace "$O/ws" >"$ROOT/out" 2>&1 || fail "setup capture as uid 65534: $(cat "$ROOT/out")"; done
chmod 500 "$O/ws"                         # its own directory, no write permission
"${NOBODY[@]}" "$ROOT/dolphin" capture goal "refused" --workspace "$O/ws" >"$ROOT/out" 2>&1; RC=$?
expect_failure "capture as uid 65534 with its workspace directory not writable" "permission denied|read-only"
"${NOBODY[@]}" "$ROOT/dolphin" knowledge list --workspace "$O/ws" >"$ROOT/out" 2>&1; RC=$?
if [ "$RC" = 0 ] && grep -q "mine 2" "$ROOT/out"; then
  echo "  ok: knowledge list as uid 65534 with its workspace directory not writable -> exit 0"
else
  fail "knowledge list with the workspace directory not writable: exit $RC: $(head -2 "$ROOT/out" | cut -c1-200)"
fi
chmod 700 "$O/ws"; chmod 400 "$O/ws/workspace.sqlite"
"${NOBODY[@]}" "$ROOT/dolphin" capture goal "refused" --workspace "$O/ws" >"$ROOT/out" 2>&1; RC=$?
expect_failure "capture as uid 65534 with its database file not writable" "permission denied"
"${NOBODY[@]}" "$ROOT/dolphin" export --output "$P/export.json" --workspace "$O/ws" >"$ROOT/out" 2>&1; RC=$?
expect_failure "export --output into a directory uid 65534 may not write" "permission denied"
chmod 600 "$O/ws/workspace.sqlite"
[ "$(count "$O/ws" knowledge)" = 2 ] || fail "expected the 2 committed items"
healthy "$O/ws" "after restoring permissions" "${NOBODY[@]}" "$ROOT/dolphin"
no_stray "$O"
end

# ---------------------------------------------------------------------------------------------
# The -wal file holds transactions that are committed but not yet copied into the database.
# A process that exits normally checkpoints and removes it; one that is killed leaves it. Each
# variant: after normal runs the WAL is gone (nothing to lose); after a kill the WAL is removed,
# cut mid-frame or replaced by garbage, and the workspace opens, passes the integrity check and
# holds a whole-transaction prefix of what was committed, never a torn record. Garbage is no
# log at all: doctor names it (exit 5, walProblem), since what only it held is lost, until the
# next write starts the log afresh.
begin wal
for variant in removed truncated garbage; do
  WS="$ROOT/wal-$variant"
  for i in 1 2 3; do run "$ROOT/out" capture fact "checkpointed $i" --workspace "$WS"; done
  if [ -e "$WS/workspace.sqlite-wal" ] && [ -s "$WS/workspace.sqlite-wal" ]; then
    fail "$variant: a non-empty -wal file survives a normal exit"
  fi
  # Hold the database open from a second process so the WAL is not checkpointed, commit more,
  # then kill the holder so the WAL stays behind as after a crash.
  python3 - "$WS/workspace.sqlite" <<'PY' &
import sqlite3, sys, time
con = sqlite3.connect(sys.argv[1]); con.execute("SELECT count(*) FROM knowledge").fetchone()
time.sleep(60)
PY
  holder=$!
  sleep 0.5
  for i in 1 2 3; do run "$ROOT/out" capture fact "in the wal $i" --content "$(big_text 3000)" --workspace "$WS"; done
  kill -9 "$holder"; wait "$holder" 2>/dev/null
  walsize=$(stat -c %s "$WS/workspace.sqlite-wal" 2>/dev/null || echo 0)
  [ "$walsize" -gt 0 ] || fail "$variant: expected a -wal file after the holder was killed"
  case "$variant" in
    removed) rm -f "$WS/workspace.sqlite-wal" ;;
    truncated) truncate -s $((walsize / 2 + 13)) "$WS/workspace.sqlite-wal" ;;
    garbage) head -c "$walsize" /dev/urandom >"$WS/workspace.sqlite-wal" ;;
  esac
  if [ "$variant" = garbage ]; then
    "$DOLPHIN" doctor --json --workspace "$WS" >"$ROOT/doctor" 2>&1; RC=$?
    if [ "$RC" = 5 ] && grep -q '"walProblem" : ".*does not start with a WAL header"' "$ROOT/doctor" \
      && grep -q '"integrityCheck" : \[' "$ROOT/doctor" && grep -q '"ok"' "$ROOT/doctor"; then
      echo "  ok: WAL garbage -> doctor names the log that is no log (exit 5), integrity_check run"
    else
      fail "garbage: doctor does not name the damaged log (exit $RC): $(cat "$ROOT/doctor")"
    fi
  else
    healthy "$WS" "WAL $variant"
  fi
  n="$(count "$WS" knowledge)"
  if [ "$n" -lt 3 ] || [ "$n" -gt 6 ]; then fail "$variant: $n items; expected 3 (checkpointed) to 6"; fi
  titles="$(sqlite3 "file:$WS/workspace.sqlite?mode=ro" "SELECT title FROM knowledge ORDER BY rowid" | tr '\n' '|')"
  expected="checkpointed 1|checkpointed 2|checkpointed 3|"
  for k in $(seq 1 $((n - 3))); do expected="${expected}in the wal $k|"; done
  [ "$titles" = "$expected" ] || fail "$variant: content is not a prefix of the committed sequence: $titles"
  echo "  ok: WAL $variant -> $n of 6 items, a whole-transaction prefix (the $((6 - n)) lost ones were only in the WAL)"
  run "$ROOT/out" capture fact "after $variant" --workspace "$WS"
  [ "$RC" = 0 ] || fail "$variant: capture afterwards failed: $(cat "$ROOT/out")"
  healthy "$WS" "after a capture following WAL $variant"
done
end

echo "fault-injection: $passed passed, $failed failed"
[ "$failed" = 0 ]
