#!/usr/bin/env python3
"""Soak test of `dolphin mcp`: many tool calls in one session through the official MCP Python
SDK, watching the server's resident memory.

    swift build -c release --product dolphin
    .venv-test/bin/python Benchmarks/scripts/mcp-soak.py --dolphin .build/release/dolphin

One `dolphin mcp --writes allow` process serves a fresh workspace seeded with --seed items
(captured through the CLI). The client then makes --calls tool calls in one ClientSession, in a
fixed rotation: 7 of 10 `knowledge_search` (rotating queries), 2 `knowledge_get`, 1
`knowledge_capture`; every result is checked. The server's RSS (VmRSS from /proc/PID/status)
is sampled after every 1,000 calls. The run passes when the RSS at the end differs from the
RSS after the --warmup calls by at most --max-growth (default 10%).

Reported: calls per second over the whole run and after the warm-up (client time included:
the SDK's validation is part of every call), RSS at the warm-up mark and at the end, the
samples, and the receipts left (the workspace keeps the newest 10,000). --json writes the
figures to a file. Exit status 0 when the RSS bound holds, 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import mcp.types as types
from mcp import ClientSession, StdioServerParameters, stdio_client

QUERIES = ["sqlite wal", "release checklist", "widget streak", "handoff focus", "mcp server",
           "typo serch", "privacy loopback", "digest rules", "swift concurrency", "benchmark soak"]
WORDS = ["sqlite", "wal", "release", "widget", "streak", "handoff", "server", "privacy", "digest",
         "swift", "actor", "index", "token", "cursor", "receipt", "approval", "schema", "backup"]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def server_pid(binary: str) -> int:
    """The `dolphin mcp` child of this process (the SDK starts it; it does not expose the pid)."""
    me = os.getpid()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == me and cmdline and cmdline[0].decode(errors="replace") == binary and b"mcp" in cmdline:
            return int(entry.name)
    raise RuntimeError("the dolphin mcp process was not found")


def title(n: int) -> str:
    return f"{WORDS[n % len(WORDS)].title()} note {n}: {WORDS[(n * 7) % len(WORDS)]} {WORDS[(n * 11) % len(WORDS)]}"


async def soak(args: argparse.Namespace) -> dict:
    root = Path(tempfile.mkdtemp(prefix="dolphin-mcp-soak-"))
    try:
        return await _soak(args, root / "ws")
    finally:
        shutil.rmtree(root, ignore_errors=True)


async def _soak(args: argparse.Namespace, workspace: Path) -> dict:
    binary = str(Path(args.dolphin).resolve())
    ids: list[str] = []
    for n in range(args.seed):
        run = subprocess.run([binary, "capture", "fact", title(n), "--content",
                              f"Seed item {n} about {WORDS[n % len(WORDS)]} and {WORDS[(n * 3) % len(WORDS)]}.",
                              "--workspace", str(workspace), "--json"],
                             capture_output=True, text=True, check=True)
        ids.append(json.loads(run.stdout)["item"]["id"])
    params = StdioServerParameters(command=binary, args=["mcp", "--workspace", str(workspace), "--writes", "allow"])
    samples: list[tuple[int, int]] = []
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                pid = server_pid(binary)
                samples.append((0, rss_kib(pid)))
                started = time.perf_counter()
                warm_time = None
                for i in range(1, args.calls + 1):
                    slot = i % 10
                    if slot < 7:
                        r = await session.call_tool("knowledge_search", {"query": QUERIES[i % len(QUERIES)], "limit": 10})
                        ok = not r.is_error and "results" in r.structured_content
                    elif slot < 9:
                        target = ids[i % len(ids)]
                        r = await session.call_tool("knowledge_get", {"id": target})
                        ok = not r.is_error and r.structured_content["item"]["id"] == target
                    else:
                        r = await session.call_tool("knowledge_capture", {"kind": "context", "title": title(args.seed + i)})
                        ok = not r.is_error
                        if ok:
                            ids.append(r.structured_content["item"]["id"])
                    if not ok:
                        raise AssertionError(f"call {i} failed: {r}")
                    if i % 1000 == 0:
                        samples.append((i, rss_kib(pid)))
                    if i == args.warmup:
                        warm_time = time.perf_counter()
                ended = time.perf_counter()
    receipts = json.loads(subprocess.run([binary, "activity", "--limit", "10000", "--json", "--workspace", str(workspace)],
                                         capture_output=True, text=True, check=True).stdout)["receipts"]
    at_warmup = next(kib for n, kib in samples if n == args.warmup)
    at_end = samples[-1][1]
    growth = (at_end - at_warmup) / at_warmup
    return {
        "calls": args.calls, "warmupCalls": args.warmup, "seedItems": args.seed,
        "seconds": round(ended - started, 2),
        "callsPerSecond": round(args.calls / (ended - started), 1),
        "callsPerSecondAfterWarmup": round((args.calls - args.warmup) / (ended - warm_time), 1) if warm_time else None,
        "rssKiBAtWarmup": at_warmup, "rssKiBAtEnd": at_end, "rssGrowth": round(growth, 4),
        "maxGrowth": args.max_growth, "rssSamplesKiB": samples, "receiptsKept": len(receipts),
        "binary": binary, "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    repo = Path(__file__).resolve().parents[2]
    parser.add_argument("--dolphin", default=str(repo / ".build/release/dolphin"))
    parser.add_argument("--calls", type=int, default=10_000)
    parser.add_argument("--warmup", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=200, help="items captured through the CLI first")
    parser.add_argument("--max-growth", type=float, default=0.10)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    if args.warmup % 1000 or args.calls % 1000 or args.warmup >= args.calls:
        parser.error("--warmup and --calls must be multiples of 1000, warmup < calls")
    figures = asyncio.run(soak(args))
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")
    ok = abs(figures["rssGrowth"]) <= args.max_growth
    print(f"mcp-soak: {'OK' if ok else 'FAILED'} — {figures['calls']} calls in one session, "
          f"{figures['callsPerSecond']} calls/s ({figures['callsPerSecondAfterWarmup']} after warm-up); "
          f"RSS {figures['rssKiBAtWarmup']} KiB after {figures['warmupCalls']} calls, "
          f"{figures['rssKiBAtEnd']} KiB at the end ({figures['rssGrowth'] * 100:+.1f}%, bound "
          f"±{args.max_growth * 100:.0f}%); samples {figures['rssSamplesKiB']}; "
          f"{figures['receiptsKept']} receipts kept")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
