#!/usr/bin/env python3
"""Round 5 experiment: re-rank v1's top documents by character 4-gram evidence (not adopted).

    ngram_rerank.py data.pkl SCIFACT_DIR SPLIT DEPTH:ALPHA[:STATS] ...

Like ngram_fusion.py, but with no second index: only the first DEPTH documents of
hybrid-lexical-v1 are re-scored, from their own text, and the n-gram statistics come from
that pool alone (STATS `pool`: IDF over the DEPTH documents, average length over them) or, for
comparison, from the whole corpus (`corpus`, what a persisted n-gram index would give).
Within-word 4-grams as in ngram_fusion.py (McNamee & Mayfield 2004), BM25 k1 1.2 b 0.75,
max-normalised CombSUM (Fox & Shaw 1994; Lee 1997): (1 − α)·v1/max + α·ngram/max over the
pool; documents below the pool keep v1's order beneath it.
"""
import json
import math
import sys
from collections import Counter

from ngram_fusion import SNOWBALL_STOP, grams
from v1 import Prototype

N_GRAM = 4


def main(pkl, data, split, *specs):
    proto = Prototype(pkl)
    docs = {}
    for doc in map(json.loads, open(f"{data}/corpus.jsonl")):
        docs[doc["_id"]] = Counter(grams(doc["title"], N_GRAM) * 2 + grams(doc["text"], N_GRAM))
    corpus_df = Counter(g for counts in docs.values() for g in counts)
    corpus_average = sum(sum(c.values()) for c in docs.values()) / len(docs)

    def ngram_scores(text, pool, stats):
        size = len(pool) if stats == "pool" else len(docs)
        average = (sum(sum(docs[d].values()) for d in pool) / len(pool)
                   if stats == "pool" else corpus_average)
        weights = Counter()
        for g in grams(text, N_GRAM, SNOWBALL_STOP):
            df = sum(1 for d in pool if g in docs[d]) if stats == "pool" else corpus_df[g]
            weights[g] += math.log(1 + (size - df + 0.5) / (df + 0.5))
        scores = {}
        for d in pool:
            counts, length = docs[d], sum(docs[d].values())
            scores[d] = sum(w * counts[g] / (counts[g] + 1.2 * (0.25 + 0.75 * length / average))
                            for g, w in weights.items() if counts[g])
        return scores

    for spec in specs:
        depth, alpha, stats = (spec.split(":") + ["pool"])[:3]
        depth, alpha = int(depth), float(alpha)

        def rerank(qid, v1):
            order = sorted(v1, key=lambda d: -v1[d])
            pool = order[:depth]
            if not pool:
                return {}
            g = ngram_scores(proto.qtext[qid], pool, stats)
            vm, gm = v1[pool[0]] or 1, max(g.values()) or 1
            fused = {d: 2 + (1 - alpha) * v1[d] / vm + alpha * g[d] / gm for d in pool}
            fused.update({d: v1[d] / (vm + 1) for d in order[depth:]})
            return fused

        r = proto.evaluate(split, rerank=rerank)
        print(f"depth={depth} alpha={alpha:g} stats={stats} {split}: "
              f"nDCG@10 {sum(r.values()) / len(r):.4f}", flush=True)


if __name__ == "__main__":
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
