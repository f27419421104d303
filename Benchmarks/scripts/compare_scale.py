#!/usr/bin/env python3
"""Puts `dolphin-bench scale` beside its anchors (scale_fts5.py, scale_bm25s.py) measured in the
same run, with ratios ours / anchor (below 1 means we are faster), and checks issue 3's targets at
10k items.

FTS5's short queries are compared in both forms scale_fts5.py measures: OR of the words (ranked
like ours: every item with any word matches) and implicit AND.

    python compare_scale.py --ours ours_scale.json --fts5 results_scale_fts5.json \
        --bm25s results_scale_bm25s.json --out retrieval-scale.json
"""
import argparse, datetime, json, os, subprocess


def ratio(a, b):
    return a / b if b else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ours", required=True)
    ap.add_argument("--fts5", required=True)
    ap.add_argument("--bm25s", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    ours = json.load(open(a.ours))
    fts5 = json.load(open(a.fts5))
    bm25s = json.load(open(a.bm25s))

    rows = []
    for r in ours["rows"]:
        n = str(r["items"])
        f, b = fts5.get(n), bm25s.get(n)
        row = {
            "items": r["items"],
            "ours": r,
            "fts5": f,
            "bm25s": b,
            "ratios": {
                "short_p50_vs_fts5_or": ratio(r["short"]["p50Milliseconds"], f["short_OR"]["p50_ms"]) if f else None,
                "short_p50_vs_fts5_and": ratio(r["short"]["p50Milliseconds"], f["short_AND"]["p50_ms"]) if f else None,
                "short_p50_vs_bm25s": ratio(r["short"]["p50Milliseconds"], b["short"]["p50_ms"]) if b else None,
                "claims_p50_vs_fts5": ratio(r["claims"]["p50Milliseconds"], f["claims_OR"]["p50_ms"]) if f else None,
                "claims_p50_vs_bm25s": ratio(r["claims"]["p50Milliseconds"], b["claims"]["p50_ms"]) if b else None,
                "claims_p95_vs_fts5": ratio(r["claims"]["p95Milliseconds"], f["claims_OR"]["p95_ms"]) if f else None,
                "claims_p95_vs_bm25s": ratio(r["claims"]["p95Milliseconds"], b["claims"]["p95_ms"]) if b else None,
                "build_vs_fts5": ratio(r["bulkImportSeconds"], f["insert_s"] + f["optimize_s"]) if f else None,
                "build_vs_bm25s": ratio(r["bulkImportSeconds"], b["build_s"]) if b else None,
            },
        }
        rows.append(row)

    targets = {}
    ten = next((x for x in rows if x["items"] == 10000), None)
    if ten:
        o, f = ten["ours"], ten["fts5"]
        targets = {
            "short_in_process_p50_le_1ms": o["short"]["p50Milliseconds"] <= 1.0,
            "claims_p50_le_fts5_p50": bool(f) and o["claims"]["p50Milliseconds"] <= f["claims_OR"]["p50_ms"],
            "cold_cli_search_p50_le_50ms": o["cliSearchShort"]["p50Milliseconds"] <= 50.0,
            "cold_cli_search_claims_p50_le_50ms": o["cliSearchClaims"]["p50Milliseconds"] <= 50.0,
            "capture_p50_le_30ms": o["capture"]["p50Milliseconds"] <= 30.0,
        }
    out = {"benchmark": "retrieval-scale",
           "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           "targets_at_10k": targets, "rows": rows,
           "fts5_meta": fts5.get("_meta"), "bm25s_meta": bm25s.get("_meta"),
           "ours_meta": {k: v for k, v in ours.items() if k != "rows"}}
    try:
        out["commit"] = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                       cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    except OSError:
        pass
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as fh:
        json.dump(out, fh, indent=1, sort_keys=True)
        fh.write("\n")

    def ms(x):
        return f"{x:8.3f}" if x is not None else "       -"

    print("\nitems  | build s (ours/fts5/bm25s)    | short p50 ms (ours/fts5 OR/fts5 AND/bm25s) p95 ours | "
          "claims p50 ms (ours/fts5/bm25s) p95 ours | cold search p50 short/claims | capture p50 | rss MB search")
    for row in rows:
        o, f, b = row["ours"], row["fts5"] or {}, row["bm25s"] or {}
        print(f"{row['items']:6d} | {o['bulkImportSeconds']:7.1f} {f.get('insert_s', 0) + f.get('optimize_s', 0):7.1f} "
              f"{b.get('build_s', 0):7.1f} | {ms(o['short']['p50Milliseconds'])} {ms(f.get('short_OR', {}).get('p50_ms'))} "
              f"{ms(f.get('short_AND', {}).get('p50_ms'))} {ms(b.get('short', {}).get('p50_ms'))} {ms(o['short']['p95Milliseconds'])} | "
              f"{ms(o['claims']['p50Milliseconds'])} {ms(f.get('claims_OR', {}).get('p50_ms'))} {ms(b.get('claims', {}).get('p50_ms'))} "
              f"{ms(o['claims']['p95Milliseconds'])} | {o['cliSearchShort']['p50Milliseconds']:6.1f} {o['cliSearchClaims']['p50Milliseconds']:6.1f} | "
              f"{o['capture']['p50Milliseconds']:6.1f} | {max(o['cliSearchShort']['maxRSSMegabytes'], o['cliSearchClaims']['maxRSSMegabytes']):6.1f}")
        rr = row["ratios"]
        print("        ratios ours/anchor: " + ", ".join(f"{k} {v:.2f}" for k, v in rr.items() if v is not None))
    print("targets at 10k:", json.dumps(targets))
    print("wrote", a.out)
    failures = sum(r["ours"][k]["failures"] for r in rows for k in ("cliSearchShort", "cliSearchClaims", "capture"))
    if failures:
        raise SystemExit(f"{failures} dolphin process(es) failed: the end-to-end figures are not valid")


if __name__ == "__main__":
    main()
