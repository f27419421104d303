#!/usr/bin/env python3
"""Compares hybrid-lexical-v1 with the lexical anchors of shared/bench/bench.py, query by query.

Inputs: bench.py's results JSON (each system carries `per_query_ndcg10`, in the order of the
qrels' query ids sorted numerically) and `dolphin-bench quality --per-query` output (TSV
`query-id, ndcg@10, recall@100`). Both must cover the same judged queries.

Even query ids are for tuning, odd ids for reporting. For each split and each anchor: the mean
nDCG@10 of both, and a paired bootstrap 95% interval of the mean per-query difference
(ours - anchor): 10,000 resamples of the queries with replacement, percentile interval, NumPy
PCG64 seeded with 0 (Efron & Tibshirani, An Introduction to the Bootstrap, 1993).

    python compare_quality.py --anchors results_scifact.json --ours ours.tsv \
        --qrels qrels/train.tsv --out retrieval-quality.json
"""
import argparse, datetime, json, os, subprocess, sys

import numpy as np

RESAMPLES = 10_000
TARGET_MARGIN = 0.01


def load_qids(qrels_path):
    qids = set()
    with open(qrels_path) as f:
        next(f)
        for line in f:
            q = line.split("\t")[0]
            qids.add(q)
    return sorted(qids, key=int)


def load_ours(path):
    ndcg, recall = {}, {}
    with open(path) as f:
        next(f)
        for line in f:
            q, n, r = line.rstrip("\n").split("\t")
            ndcg[q], recall[q] = float(n), float(r)
    return ndcg, recall


def bootstrap(diff, seed=0):
    rng = np.random.default_rng(seed)
    n = len(diff)
    means = diff[rng.integers(0, n, size=(RESAMPLES, n))].mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    return float(lo), float(hi)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--anchors", required=True)
    ap.add_argument("--ours", required=True)
    ap.add_argument("--qrels", required=True)
    ap.add_argument("--ours-json", help="dolphin-bench quality --json output, copied into the results")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()

    qids = load_qids(a.qrels)
    anchors = json.load(open(a.anchors))
    ours_ndcg, ours_recall = load_ours(a.ours)
    missing = [q for q in qids if q not in ours_ndcg]
    if missing:
        sys.exit(f"our per-query file lacks {len(missing)} judged queries, e.g. {missing[:5]}")

    systems = {name: dict(zip(qids, r["per_query_ndcg10"]))
               for name, r in anchors.items() if not name.startswith("_") and "per_query_ndcg10" in r}
    splits = {
        "even": [q for q in qids if int(q) % 2 == 0],
        "odd": [q for q in qids if int(q) % 2 == 1],
        "all": qids,
    }
    out = {"benchmark": "retrieval-quality", "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           "data": anchors.get("_meta", {}).get("data"), "qrels": os.path.basename(a.qrels),
           "anchors_meta": anchors.get("_meta", {}), "bootstrap": {"resamples": RESAMPLES, "seed": 0, "interval": 0.95},
           "splits": {}}
    try:
        out["commit"] = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                       cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
    except OSError:
        pass
    if a.ours_json:
        out["ours_run"] = json.load(open(a.ours_json))

    for split, ids in splits.items():
        ours = np.array([ours_ndcg[q] for q in ids])
        row = {"queries": len(ids), "ours": {"ndcg_at_10": float(ours.mean()),
                                             "recall_at_100": float(np.mean([ours_recall[q] for q in ids]))},
               "anchors": {}}
        for name, per in systems.items():
            theirs = np.array([per[q] for q in ids])
            diff = ours - theirs
            lo, hi = bootstrap(diff)
            row["anchors"][name] = {"ndcg_at_10": float(theirs.mean()), "difference": float(diff.mean()),
                                    "ci95": [lo, hi], "wins": int((diff > 0).sum()), "losses": int((diff < 0).sum())}
        best = max(row["anchors"], key=lambda n: row["anchors"][n]["ndcg_at_10"])
        row["best_anchor"] = best
        row["target"] = row["anchors"][best]["ndcg_at_10"] + TARGET_MARGIN
        row["target_met"] = row["ours"]["ndcg_at_10"] >= row["target"]
        out["splits"][split] = row

    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")

    for split in ("even", "odd", "all"):
        row = out["splits"][split]
        tag = " (tuning)" if split == "even" else " (reported)" if split == "odd" else ""
        print(f"\n{split} train query ids{tag}: n={row['queries']}  hybrid-lexical-v1 nDCG@10 "
              f"{row['ours']['ndcg_at_10']:.4f}  Recall@100 {row['ours']['recall_at_100']:.4f}")
        for name, r in sorted(row["anchors"].items(), key=lambda x: -x[1]["ndcg_at_10"]):
            print(f"  {name:44s} {r['ndcg_at_10']:.4f}  ours-anchor {r['difference']:+.4f} "
                  f"[{r['ci95'][0]:+.4f}, {r['ci95'][1]:+.4f}]  wins/losses {r['wins']}/{r['losses']}")
        print(f"  target (best anchor {row['best_anchor']} + {TARGET_MARGIN}): {row['target']:.4f} -> "
              f"{'met' if row['target_met'] else 'not met'}")
    print("\nwrote", a.out)


if __name__ == "__main__":
    main()
