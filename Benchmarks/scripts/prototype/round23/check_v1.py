#!/usr/bin/env python3
"""The prototype against the shipped ranker, query by query (even ids only).

    check_v1.py data.pkl index.pkl perq.tsv

perq.tsv is `dolphin-bench quality --split even --per-query` (query id, nDCG@10, Recall@100).
Prints the prototype's totals and how many queries differ from the Swift ranker's by more than
5e-5 (the file's four decimals) in either figure.
"""
import sys
from ideas import R23, summary

E = R23(sys.argv[1], sys.argv[2])
nd, rc = E.run_rerank()
swift = {}
for line in list(open(sys.argv[3]))[1:]:
    q, n, r = line.split()[:3]
    swift[q] = (float(n), float(r))
assert set(swift) == set(nd), "the same even queries"
bad = [q for q in nd if abs(nd[q] - swift[q][0]) > 5e-5 or abs(rc[q] - swift[q][1]) > 5e-5]
print("prototype", summary(nd, rc))
print(f"swift     all {sum(v[0] for v in swift.values()) / len(swift):.4f}  "
      f"R@100 {sum(v[1] for v in swift.values()) / len(swift):.4f}")
print(f"{len(nd)} even queries, {len(bad)} differ from --per-query" + (f": {sorted(bad)[:20]}" if bad else ""))
