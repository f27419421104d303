#!/usr/bin/env python3
"""Round 6 experiment: a linear re-ranker fitted by coordinate ascent (not adopted).

    coordinate_ascent.py features.pkl FEATURE,FEATURE,...

Coordinate ascent (Metzler & Croft, "Linear feature-based models for information retrieval",
Information Retrieval 10, 2007) over the features of ltr_features.py, maximising mean nDCG@10
directly; the first feature's weight is held at 1 (a linear ranking is scale invariant). To
estimate what a fit is worth on unseen queries without touching the odd ids, the even ids are
split in two folds (id mod 4 = 0 / 2): fit on one, measure on the other, and both ways.
"""

import sys, math, pickle, random
D = pickle.load(open(sys.argv[1], 'rb'))
FEATS = sys.argv[2].split(',')
feats, qrels = D['feats'], D['qrels']
def ndcg(ranking, rel, k=10):
    dcg = sum(rel.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranking[:k]))
    ideal = sorted(rel.values(), reverse=True)[:k]
    idcg = sum(r / math.log2(i + 2) for i, r in enumerate(ideal))
    return dcg / idcg if idcg else 0.0
# precompute matrices
Q = {}
for qid, rows in feats.items():
    Q[qid] = ([c for c, _ in rows], [[r[f] for f in FEATS] for _, r in rows])
def score(w, qids):
    tot = 0
    for qid in qids:
        ids, X = Q[qid]
        if not ids: continue
        s = [sum(a * b for a, b in zip(w, x)) for x in X]
        order = sorted(range(len(ids)), key=lambda i: (-s[i], i))
        tot += ndcg([ids[i] for i in order], qrels[qid])
    return tot / len(qids)
def ascend(qids, start, rounds=3):
    w = list(start); best = score(w, qids)
    for _ in range(rounds):
        improved = False
        for f in range(1, len(w)):  # feature 0 (v1N) weight fixed at 1: scale invariance
            for step in (0.5, 0.2, 0.1, 0.05, 0.02, -0.02, -0.05, -0.1, -0.2, -0.5):
                w2 = list(w); w2[f] += step
                s = score(w2, qids)
                if s > best + 1e-9:
                    best, w, improved = s, w2, True
        if not improved: break
    return w, best
allq = list(Q)
A = [q for q in allq if int(q) % 4 == 0]; B = [q for q in allq if int(q) % 4 == 2]
start = [1.0] + [0.0] * (len(FEATS) - 1)
print('baseline all', round(score(start, allq), 4), 'A', round(score(start, A), 4), 'B', round(score(start, B), 4))
wA, sA = ascend(A, start); wB, sB = ascend(B, start)
print('train A', round(sA, 4), '-> test B', round(score(wA, B), 4), [round(x, 2) for x in wA])
print('train B', round(sB, 4), '-> test A', round(score(wB, A), 4), [round(x, 2) for x in wB])
wall, sall = ascend(allq, start)
print('train all', round(sall, 4), [round(x, 2) for x in wall])
