#!/usr/bin/env python3
"""How many of v1's first k documents are relevant, on the even ids (why feedback drifts).

    feedback_stats.py data.pkl index.pkl
"""
import sys
from ideas import R23

E = R23(sys.argv[1], sys.argv[2])
qs = list(E.query_ids("even"))
nrel = [sum(1 for r in E.qrels[q].values() if r > 0) for q in qs]
print(f"{len(qs)} even queries, {sum(nrel) / len(qs):.2f} relevant documents each on average, "
      f"{sum(1 for n in nrel if n == 1)} with exactly one")
for k in (1, 3, 5, 10, 20):
    hits = []
    for q in qs:
        top = [E.docid[d] for d in E.rank(E.first(q), k)]
        hits.append(sum(1 for d in top if E.qrels[q].get(d, 0) > 0))
    print(f"first {k:2}: {sum(hits) / len(qs):.3f} relevant per query, share relevant "
          f"{sum(hits) / (k * len(qs)):.3f}, queries with none {sum(1 for h in hits if h == 0)}")
