#!/usr/bin/env python3
"""Round 4 experiment: hybrid-lexical-v1 fused with a character n-gram BM25 (not adopted).

    ngram_fusion.py data.pkl SCIFACT_DIR N SPLIT ALPHA[,ALPHA...]

A second index of within-word character n-grams (McNamee & Mayfield, "Character N-gram
Tokenization for European Language Text Retrieval", Information Retrieval 7, 2004): words are
lower-cased runs of [0-9a-z], padded with `_`, cut into n-grams (a padded word of at most n
characters is one gram); the title counts twice. Query words in the Snowball stop list are
dropped. Each gram is scored with BM25 (k1 1.2, b 0.75, Lucene IDF) and the two scores are
combined after max normalisation (Lee 1997) over the union of both top-200 lists:
(1 − α)·v1/max(v1) + α·ngram/max(ngram).
"""
import json
import math
import re
import sys
from collections import Counter, defaultdict

from v1 import Prototype

SNOWBALL_STOP = set("""i me my myself we our ours ourselves you your yours yourself yourselves he him
his himself she her hers herself it its itself they them their theirs themselves what which who
whom this that these those am is are was were be been being have has had having do does did
doing would should could ought cannot a an the and but if or because as until while of at by
for with about against between into through during before after above below to from up down in
out on off over under again further then once here there when where why how all any both each
few more most other some such no nor not only own same so than too very""".split())


def grams(text, n, stop=frozenset()):
    out = []
    for word in re.sub(r"[^0-9a-z]+", " ", text.lower()).split():
        if word in stop:
            continue
        padded = f"_{word}_"
        out += [padded] if len(padded) <= n else [padded[i:i + n] for i in range(len(padded) - n + 1)]
    return out


def main(pkl, data, n, split, alphas):
    proto = Prototype(pkl)
    n = int(n)
    index, lengths = defaultdict(dict), {}
    for doc in map(json.loads, open(f"{data}/corpus.jsonl")):
        counts = Counter(grams(doc["title"], n) * 2 + grams(doc["text"], n))
        lengths[doc["_id"]] = sum(counts.values())
        for g, f in counts.items():
            index[g][doc["_id"]] = f
    average, total = sum(lengths.values()) / len(lengths), len(lengths)

    def ngram_scores(text):
        scores = {}
        for g, qf in Counter(grams(text, n, SNOWBALL_STOP)).items():
            plist = index.get(g, {})
            idf = math.log(1 + (total - len(plist) + 0.5) / (len(plist) + 0.5))
            for d, f in plist.items():
                s = qf * idf * f / (f + 1.2 * (0.25 + 0.75 * lengths[d] / average))
                scores[d] = scores.get(d, 0) + s
        return scores

    for alpha in map(float, alphas.split(",")):
        def fuse(qid, v1):
            g = ngram_scores(proto.qtext[qid])
            vm, gm = max(v1.values(), default=1), max(g.values(), default=1)
            pool = set(sorted(v1, key=lambda d: -v1[d])[:200]) | set(sorted(g, key=lambda d: -g[d])[:200])
            return {d: (1 - alpha) * v1.get(d, 0) / vm + alpha * g.get(d, 0) / gm for d in pool}
        r = proto.evaluate(split, rerank=fuse)
        print(f"n={n} alpha={alpha:g} {split}: nDCG@10 {sum(r.values()) / len(r):.4f}", flush=True)


if __name__ == "__main__":
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    main(*sys.argv[1:])
