#!/usr/bin/env python3
"""Crash-survival harness for the `dolphin` CLI (tests only; never part of the product).

Runs captures, deletions (`knowledge delete --yes`) and migrations (`dolphin migrate` of a
legacy v4 fixture whose ids are made fresh for every run) in a loop, and kills the `dolphin`
process with SIGKILL after a random delay drawn from a window around the command's measured
typical duration. After every operation, killed or not, it checks:

1. `dolphin doctor --json` reports ok (or, after a kill before the first write committed, no
   workspace yet: exit 3 and nothing wrong): `PRAGMA integrity_check` is "ok", no dangling
   references, and the search index agrees with the records (doctor's search-index check).
2. The workspace content equals the content after a whole number of completed operations.
   Content is compared as multisets, because ids and clocks differ from run to run:
   knowledge items as (kind, title, tags), memories by text, tasks by title, and the
   numbers of conversations and messages. With k operations confirmed complete, a command
   that exited 0 must leave state k+1; a killed one must leave state k or k+1 (and the
   harness carries on from whichever it finds).
3. Every legacy backup under its final name is complete: its name carries the first 12 hex
   digits of its sha256, which must match its bytes.

The workspace is replaced by a fresh one every --rotate-every operations, so kills also land
while a workspace is being created. Exit status 0 when every check held for --kills kills.

Usage: crash_harness.py --dolphin PATH [--kills 200] [--seed N] [--fixture FILE]
                        [--workdir DIR] [--rotate-every 40] [--max-seconds 1800]
                        [--summary-json FILE]
"""

import argparse
import collections
import hashlib
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

KINDS = ["fact", "preference", "decision", "goal", "code", "context", "insight"]
TAGS = ["storage", "sqlite", "release", "ui", "crash", "wal", "search"]
UUID_RE = re.compile(r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")


class HarnessFailure(Exception):
    """A check that did not hold; the message says which and with what."""


def fresh_legacy_file(template: str, directory: str, serial: int) -> str:
    """The template with every UUID replaced consistently by a fresh one (so its sha256 and
    its record ids are new and it imports again), written to a new file."""
    mapping = {}

    def replace(match):
        key = match.group(0).upper()
        if key not in mapping:
            mapping[key] = str(uuid.uuid4()).upper()
        return mapping[key]

    path = os.path.join(directory, f"legacy-{serial}.json")
    with open(path, "w", encoding="utf-8") as f:
        f.write(UUID_RE.sub(replace, template))
    return path


def read_state(workspace: str) -> collections.Counter:
    """The workspace content as a multiset; empty when there is no database or no schema yet."""
    db = os.path.join(workspace, "workspace.sqlite")
    state = collections.Counter()
    if not os.path.exists(db):
        return state
    con = connect(db)
    try:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "knowledge" not in tables:
            return state
        for kind, title, tags in con.execute("SELECT kind, title, tags FROM knowledge"):
            state[("knowledge", kind, title, tuple(sorted(json.loads(tags))))] += 1
        for (text,) in con.execute("SELECT text FROM memory"):
            state[("memory", text)] += 1
        for (title,) in con.execute("SELECT title FROM task"):
            state[("task", title)] += 1
        conversations = con.execute("SELECT count(*) FROM conversation").fetchone()[0]
        messages = con.execute("SELECT count(*) FROM message").fetchone()[0]
        if conversations:
            state[("conversations",)] = conversations
        if messages:
            state[("messages",)] = messages
    finally:
        con.close()
    return state


def connect(db: str) -> sqlite3.Connection:
    """A read-only connection; a read-write one when the WAL must first be recovered after a
    kill (a read-only connection of some SQLite builds cannot rebuild the -shm index). Either
    way only committed transactions are visible."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=20)
    try:
        con.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return con
    except sqlite3.OperationalError:
        con.close()
        return sqlite3.connect(f"file:{db}?mode=rw", uri=True, timeout=20)


def knowledge_id(workspace: str, title: str) -> str:
    db = os.path.join(workspace, "workspace.sqlite")
    con = connect(db)
    try:
        row = con.execute("SELECT id FROM knowledge WHERE title = ?", (title,)).fetchone()
    finally:
        con.close()
    if row is None:
        raise HarnessFailure(f"knowledge item {title!r} expected in the workspace is missing")
    return row[0]


def describe_difference(expected: collections.Counter, observed: collections.Counter) -> str:
    missing = expected - observed
    extra = observed - expected
    return f"missing {dict(list(missing.items())[:5])}, unexpected {dict(list(extra.items())[:5])}"


class Harness:
    def __init__(self, args):
        self.args = args
        self.dolphin = args.dolphin
        self.rng = random.Random(args.seed)
        self.workdir = args.workdir or tempfile.mkdtemp(prefix="dolphin-crash-")
        os.makedirs(self.workdir, exist_ok=True)
        with open(args.fixture, encoding="utf-8") as f:
            self.template = f.read()
        self.serial = 0
        self.figures = collections.Counter()
        self.typical = {}
        self.migration_delta = collections.Counter()
        self.leftover_temporaries = set()

    # -- running dolphin ------------------------------------------------------------------

    def command(self, op, workspace):
        kind = op[0]
        if kind == "capture":
            _, k, title, tags = op
            return ["capture", k, title, "--content", f"Body of {title}: " + "text " * 40,
                    "--tags", ",".join(tags), "--workspace", workspace]
        if kind == "delete":
            return ["knowledge", "delete", knowledge_id(workspace, op[1]), "--yes", "--workspace", workspace]
        if kind == "migrate":
            return ["migrate", op[1], "--workspace", workspace]
        raise ValueError(op)

    def run(self, argv, kill_after=None):
        """Runs dolphin; kills it with SIGKILL after `kill_after` seconds if still running.
        Returns (returncode, stderr, killed)."""
        p = subprocess.Popen([self.dolphin] + argv, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        killed = False
        if kill_after is not None:
            try:
                p.wait(timeout=kill_after)
            except subprocess.TimeoutExpired:
                p.send_signal(signal.SIGKILL)
                killed = True
        try:
            _, err = p.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            p.kill()
            raise HarnessFailure(f"dolphin {' '.join(argv)} did not finish in 120 s")
        if killed and p.returncode != -signal.SIGKILL:
            killed = False  # it finished just before the signal
        return p.returncode, err.decode("utf-8", "replace"), killed

    # -- the model ------------------------------------------------------------------------

    def apply(self, state, op):
        after = collections.Counter(state)
        if op[0] == "capture":
            _, k, title, tags = op
            after[("knowledge", k, title, tuple(sorted(tags)))] += 1
        elif op[0] == "delete":
            key = next(key for key in after if key[0] == "knowledge" and key[2] == op[1])
            after[key] -= 1
            after += collections.Counter()  # drop zero counts
        elif op[0] == "migrate":
            for key, n in self.migration_delta.items():
                after[key] += n
        return +after

    def next_op(self, state, workspace):
        self.serial += 1
        titles = [key[2] for key in state if key[0] == "knowledge"]
        roll = self.rng.random()
        if titles and roll < 0.3:
            return ("delete", self.rng.choice(sorted(titles)))
        if roll < 0.5:
            return ("migrate", fresh_legacy_file(self.template, self.workdir, self.serial))
        tags = self.rng.sample(TAGS, self.rng.randint(0, 3))
        return ("capture", self.rng.choice(KINDS), f"crash item {self.serial}", tags)

    # -- checks ---------------------------------------------------------------------------

    def check_workspace(self, workspace, context):
        db = os.path.join(workspace, "workspace.sqlite")
        if not os.path.exists(db):
            return
        try:
            p = subprocess.run([self.dolphin, "doctor", "--json", "--workspace", workspace],
                               stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
        except subprocess.TimeoutExpired:
            raise HarnessFailure(f"{context}: doctor did not finish in 120 s")
        rc = p.returncode
        report_text = p.stdout.decode("utf-8", "replace")
        try:
            report = json.loads(report_text)
        except ValueError as e:
            raise HarnessFailure(f"{context}: doctor gave no JSON report ({e}): "
                                 + p.stderr.decode("utf-8", "replace").strip())
        # A kill before the first write committed leaves no workspace yet: doctor says so with
        # exit 3 (as every other command does), error kind notFound, and no problem found; its
        # `ok` is false, as `ok` is true exactly when doctor exits 0.
        no_workspace_yet = (rc == 3 and report.get("interruptedFirstRun") is True
                            and (report.get("error") or {}).get("kind") == "notFound")
        if not no_workspace_yet and (rc != 0 or not report.get("ok")):
            raise HarnessFailure(f"{context}: doctor found problems (exit {rc}): {report_text}")
        if report.get("integrityCheck") != ["ok"]:
            raise HarnessFailure(f"{context}: integrity_check says {report.get('integrityCheck')}")
        self.figures["doctor checks"] += 1
        backups = os.path.join(workspace, "legacy-backups")
        if os.path.isdir(backups):
            for name in os.listdir(backups):
                path = os.path.join(backups, name)
                if name.startswith("."):
                    # A temporary file of an atomic write cut off by the kill: never read, and
                    # swept by the next migration once it is a minute old.
                    self.leftover_temporaries.add(path)
                    continue
                with open(path, "rb") as f:
                    digest = hashlib.sha256(f.read()).hexdigest()
                if not name.endswith(f".{digest[:12]}.backup"):
                    raise HarnessFailure(f"{context}: backup {name} is incomplete (sha256 {digest[:12]})")
                self.figures["backups verified"] += 1

    # -- calibration ----------------------------------------------------------------------

    def calibrate(self):
        """Measures the typical duration of each kind of operation and the content a
        migration adds, on a workspace of its own (nothing is killed here)."""
        workspace = os.path.join(self.workdir, "calibration")
        durations = collections.defaultdict(list)
        state = collections.Counter()
        for i in range(3):
            for op in [("capture", "fact", f"calibration {i}", ["crash"]),
                       ("migrate", fresh_legacy_file(self.template, self.workdir, 1_000_000 + i)),
                       ("delete", f"calibration {i}")]:
                start = time.monotonic()
                rc, err, _ = self.run(self.command(op, workspace))
                durations[op[0]].append(time.monotonic() - start)
                if rc != 0:
                    raise HarnessFailure(f"calibration: dolphin {op[0]} failed (exit {rc}): {err}")
                after = read_state(workspace)
                if op[0] == "migrate" and i == 0:
                    self.migration_delta = after - state
                    if not self.migration_delta:
                        raise HarnessFailure("calibration: the migration imported nothing")
                state = after
        self.typical = {k: statistics.median(v) for k, v in durations.items()}
        shutil.rmtree(workspace, ignore_errors=True)

    # -- the loop -------------------------------------------------------------------------

    def main(self):
        started = time.monotonic()
        self.calibrate()
        kills = 0
        ops = 0
        workspace_index = 0
        workspace = None
        state = collections.Counter()
        while kills < self.args.kills:
            if time.monotonic() - started > self.args.max_seconds:
                raise HarnessFailure(f"time bound {self.args.max_seconds} s reached after {kills} kills")
            if workspace is None or ops % self.args.rotate_every == 0:
                if workspace is not None and not self.args.keep:
                    shutil.rmtree(workspace, ignore_errors=True)
                workspace_index += 1
                workspace = os.path.join(self.workdir, f"ws-{workspace_index}")
                state = collections.Counter()
                self.figures["workspaces"] += 1
            op = self.next_op(state, workspace)
            expected = self.apply(state, op)
            delay = self.rng.uniform(0.0, 1.25 * self.typical[op[0]])
            rc, err, killed = self.run(self.command(op, workspace), kill_after=delay)
            ops += 1
            context = f"operation {ops} ({op[0]}, {'killed' if killed else f'exit {rc}'} after {delay * 1000:.0f} ms)"
            # The product's own read-only check runs first, on the files exactly as the kill left them.
            self.check_workspace(workspace, context)
            observed = read_state(workspace)
            if killed:
                kills += 1
                self.figures[f"kills during {op[0]}"] += 1
                if observed == expected:
                    self.figures["killed after the commit"] += 1
                elif observed == state:
                    self.figures["killed before the commit"] += 1
                else:
                    raise HarnessFailure(f"{context}: content is neither state k nor k+1: "
                                         + describe_difference(expected, observed))
            elif rc == 0:
                self.figures[f"completed {op[0]}"] += 1
                if observed != expected:
                    raise HarnessFailure(f"{context}: content differs from the model: "
                                         + describe_difference(expected, observed))
            else:
                raise HarnessFailure(f"{context}: dolphin failed without being killed: {err.strip()}")
            state = observed
            if op[0] == "migrate":
                os.unlink(op[1])
        elapsed = time.monotonic() - started
        self.figures["temporary files left by kills (hidden, never read)"] = len(self.leftover_temporaries)
        summary = {
            "kills": kills, "operations": ops, "seconds": round(elapsed, 1), "seed": self.args.seed,
            "typicalMilliseconds": {k: round(v * 1000) for k, v in sorted(self.typical.items())},
            "figures": dict(sorted(self.figures.items())),
        }
        if self.args.summary_json:
            with open(self.args.summary_json, "w") as f:
                json.dump(summary, f, indent=2, sort_keys=True)
        print(json.dumps(summary, indent=2, sort_keys=True))
        print(f"crash-harness: {kills} kills survived in {ops} operations ({elapsed:.0f} s); "
              "integrity, search index, content and backups checked after each")
        if not self.args.keep:
            shutil.rmtree(self.workdir, ignore_errors=True)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dolphin", required=True, help="the dolphin executable")
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--fixture", default=os.path.join(
        here, "..", "Tests", "ContinuityKitTests", "Fixtures", "legacy", "workspace-v4.json"))
    parser.add_argument("--workdir")
    parser.add_argument("--rotate-every", type=int, default=40)
    parser.add_argument("--max-seconds", type=float, default=1800)
    parser.add_argument("--summary-json")
    parser.add_argument("--keep", action="store_true", help="keep the workspaces (for inspection)")
    args = parser.parse_args()
    print(f"crash-harness: seed {args.seed}, {args.kills} kills requested", flush=True)
    try:
        Harness(args).main()
    except HarnessFailure as e:
        print(f"crash-harness: FAILED (seed {args.seed}): {e}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
