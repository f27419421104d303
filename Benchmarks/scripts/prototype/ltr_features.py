#!/usr/bin/env python3
"""Round 6 experiment: per-document features of hybrid-lexical-v1's first 100 results (not adopted).

    ltr_features.py data.pkl SCIFACT_DIR out.pkl

For every dumped query, the first K = 100 documents of the v1 prototype with features a linear
re-ranker could combine: v1's score and its parts (BM25F sum, phrase), the share of query terms
matched (by count, by IDF mass, in the title, as the exact form), the IDF mass of the best
content window of 20 positions, whether the rarest term matched, log length, the IDF mass
matched in the first 30 % / last 40 % of the abstract, the pool-local character 4-gram BM25 of
round 5, and 1/rank. Scores normalised by their maximum over the 100 carry an `N` suffix.
coordinate_ascent.py fits weights for them.
"""
import sys, math, json, pickle
from collections import Counter
from v1 import Prototype, V1
from ngram_fusion import SNOWBALL_STOP, grams

K = 100
def features(P, q, docs_ng, qtext, p=V1):
    terms, pairs = q["terms"], q["pairs"]
    per_term = P.per_term(q, p)
    idfs = P.bounds(q)
    total_idf = sum(idfs) or 1
    rarest = max(range(len(terms)), key=lambda g: idfs[g]) if terms else None
    rows = {}
    for d in set().union(*per_term):
        v1, base, phrase, matched = P.parts(q, per_term, idfs, d, p)
        lengths = per_term[matched[0]][d][2]
        title_idf = sum(idfs[g] for g in matched if per_term[g][d][1][0])
        exact_idf = sum(idfs[g] for g in matched if per_term[g][d][3])
        # best content window of 20 positions: idf mass of distinct terms
        ev = sorted((x, g) for g in matched for x in per_term[g][d][1][2])
        bestw = 0.0; j = 0; cnt = Counter()
        for i in range(len(ev)):
            cnt[ev[i][1]] += 1
            while ev[i][0] - ev[j][0] >= 20:
                cnt[ev[j][1]] -= 1
                if not cnt[ev[j][1]]: del cnt[ev[j][1]]
                j += 1
            bestw = max(bestw, sum(idfs[g] for g in cnt))
        clen = lengths[2] or 1
        tail_idf = sum(idfs[g] for g in matched if any(x >= 0.6 * clen for x in per_term[g][d][1][2]))
        head_idf = sum(idfs[g] for g in matched if any(x < 0.3 * clen for x in per_term[g][d][1][2]))
        tail_tf = sum(per_term[g][d][0] * sum(1 for x in per_term[g][d][1][2] if x >= 0.6 * clen) / max(1, len(per_term[g][d][1][2])) for g in matched)
        rows[d] = dict(tail=tail_idf / total_idf, head=head_idf / total_idf, tailbm=tail_tf,v1=v1, base=base, phrase=phrase, cov=len(matched) / len(terms),
                       idfcov=sum(idfs[g] for g in matched) / total_idf,
                       titlecov=title_idf / total_idf, exactcov=exact_idf / total_idf,
                       window=bestw / total_idf,
                       rare=1.0 if rarest in matched else 0.0,
                       loglen=math.log(1 + lengths[0] + lengths[2]))
    order = sorted(rows, key=lambda d: (-rows[d]['v1'], P.titles[d]))[:K]
    out = [(P.docid[d], rows[d]) for d in order]
    if out:
        # pool-local 4-gram BM25 (round 5)
        pool = [c for c, _ in out[:50]]
        size = len(pool); average = sum(sum(docs_ng[c].values()) for c in pool) / size
        weights = Counter()
        for g in grams(qtext, 4, SNOWBALL_STOP):
            df = sum(1 for c in pool if g in docs_ng[c])
            weights[g] += math.log(1 + (size - df + 0.5) / (df + 0.5))
        for c, r in out:
            counts = docs_ng[c]; length = sum(counts.values())
            r['ng'] = sum(w * counts[g] / (counts[g] + 1.2 * (0.25 + 0.75 * length / average))
                          for g, w in weights.items() if counts[g])
        m = {k: max(r[k] for _, r in out) or 1 for k in ('v1', 'base', 'phrase', 'ng', 'loglen', 'tailbm')}
        for i, (c, r) in enumerate(out):
            for k in m: r[k + 'N'] = r[k] / m[k]
            r['inpool'] = 1.0 if i < 50 else 0.0
            r['rank'] = 1.0 / (i + 1)
    return out

if __name__ == '__main__':
    pkl, data, out = sys.argv[1:4]
    P = Prototype(pkl)
    docs_ng = {}
    for doc in map(json.loads, open(f"{data}/corpus.jsonl")):
        docs_ng[doc["_id"]] = Counter(grams(doc["title"], 4) * 2 + grams(doc["text"], 4))
    res = {}
    for qid, q in P.queries.items():
        res[qid] = features(P, q, docs_ng, P.qtext[qid]) if q['terms'] else []
    pickle.dump(dict(feats=res, qrels=P.qrels), open(out, 'wb'))
    print(len(res))
