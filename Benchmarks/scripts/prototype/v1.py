#!/usr/bin/env python3
"""hybrid-lexical-v1 re-implemented over a load_index.py pickle, for quick experiments.

    v1.py data.pkl [even|odd|all]

Scores exactly as HybridLexicalRanker.swift does (BM25F with Lucene's IDF, the phrase boost
over adjacent query pairs, the coverage factor; best variant per query term and document — the
variants, typo and word-form alike, come resolved in the dump) and prints the mean nDCG@10 of
the split. It reproduces `dolphin-bench quality --split even` to four decimals (0.6954 on
SciFact train even ids, 2026-11-30), so a change tried here first costs seconds, not a
release build. Experiments import `score_query`, `rank`, `evaluate` and pass
their own parameters or a rerank hook. Ties are broken by title only (the Swift ranker also
uses kind, recency and UUID; SciFact rows share kind and time).
"""
import math
import pickle
import sys


class Params(dict):
    __getattr__ = dict.get


V1 = Params(k1=1.2, b=(0.5, 0.0, 0.75), w=(3, 2, 1), delta=0.25, gamma=0.25)  # tags b 0 (SciFact has no tags)


class Prototype:
    def __init__(self, path):
        data = pickle.load(open(path, "rb"))
        self.__dict__.update(data)
        n, title, tags, content = self.stats
        self.N = n
        self.average = (title / n, tags / n, content / n)

    def idf(self, df):
        return math.log(1 + (self.N - df + 0.5) / (df + 0.5))

    def per_term(self, q, p=V1):
        """For each query term, document -> (best variant's BM25F score, its positions per
        field, the field lengths, whether that variant is the exact term)."""
        per_term = []
        for t in q["terms"]:
            best = {}
            for v in t["variants"]:
                plist = self.post.get(v["term"], [])
                weight = self.idf(len(plist)) * v["weight"]
                for doc, lengths, tfs, positions in plist:
                    pseudo = 0.0
                    for f in range(3):
                        if tfs[f]:
                            avg = self.average[f]
                            norm = (1 - p.b[f] + p.b[f] * lengths[f] / avg) if avg > 0 else 1
                            pseudo += p.w[f] * tfs[f] / norm
                    s = weight * pseudo / (p.k1 + pseudo)
                    if doc not in best or s > best[doc][0]:
                        best[doc] = (s, positions, lengths, v["weight"] == 1)
            per_term.append(best)
        return per_term

    def score_query(self, q, p=V1):
        """Document key -> score for one resolved query (see KnowledgeEngine.resolvedQueryJSON)."""
        terms, pairs = q["terms"], q["pairs"]
        per_term = self.per_term(q, p)
        bound = self.bounds(q)
        scores = {}
        for d in set().union(*per_term):
            scores[d] = self.parts(q, per_term, bound, d, p)[0]
        return scores

    def bounds(self, q):
        """Each query term's largest weighted IDF over its variants."""
        return [max((v["weight"] * self.idf(len(self.post.get(v["term"], [])))
                     for v in t["variants"]), default=0) for t in q["terms"]]

    @staticmethod
    def parts(q, per_term, bound, d, p=V1):
        """(v1 score, BM25F sum, phrase boost, matched term indices) of document d."""
        terms, pairs = q["terms"], q["pairs"]
        matched = [g for g, b in enumerate(per_term) if d in b]
        base = sum(per_term[g][d][0] for g in matched)
        phrase = 0.0
        for a, c, gap in pairs:
            if d in per_term[a] and d in per_term[c]:
                pa, pc = per_term[a][d][1], per_term[c][d][1]
                if any(x + gap in set(pc[f]) for f in range(3) for x in pa[f]):
                    phrase += p.delta * min(bound[a], bound[c]) / len(pairs)
        return (base + phrase) * (1 + p.gamma * len(matched) / len(terms)), base, phrase, matched

    def rank(self, scores, depth=100):
        return sorted(scores, key=lambda d: (-scores[d], self.titles[d]))[:depth]

    @staticmethod
    def ndcg(ranking, relevance, k=10):
        dcg = sum(relevance.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranking[:k]))
        ideal = sorted(relevance.values(), reverse=True)[:k]
        idcg = sum(r / math.log2(i + 2) for i, r in enumerate(ideal))
        return dcg / idcg if idcg else 0.0

    def query_ids(self, split):
        for qid in self.queries:
            if split == "all" or (int(qid) % 2 == 0) == (split == "even"):
                yield qid

    def evaluate(self, split="even", p=V1, rerank=None):
        """Per-query nDCG@10; `rerank(qid, scores) -> {corpus id: score}` replaces the ranking."""
        result = {}
        for qid in self.query_ids(split):
            q = self.queries[qid]
            scores = self.score_query(q, p) if q["terms"] else {}
            if rerank:
                fused = rerank(qid, {self.docid[d]: s for d, s in scores.items()})
                ranking = sorted(fused, key=lambda d: -fused[d])[:100]
            else:
                ranking = [self.docid[d] for d in self.rank(scores)]
            result[qid] = self.ndcg(ranking, self.qrels[qid])
        return result


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    proto = Prototype(sys.argv[1])
    split = sys.argv[2] if len(sys.argv) == 3 else "even"
    r = proto.evaluate(split)
    print(f"hybrid-lexical-v1 (prototype) on {len(r)} {split} queries: "
          f"nDCG@10 {sum(r.values()) / len(r):.4f}")
