#!/usr/bin/env python3
"""Round 5 experiment: query expansion by title-to-abstract word association (not adopted).

    title_association.py data.pkl WORKSPACE_DIR SPLIT BETA:MIN_TITLES:TERMS ...

A corpus-internal stand-in for a title language model (Jin, Hauptmann & Zhai, "Title language
model for information retrieval", SIGIR 2002), which learns from each document's title which
words its body uses: for a query term t found in the vocabulary, the documents with t in their
title (at least MIN_TITLES of them) give each content term w the association
a(t, w) = P(w in content | t in title) − P(w in content), counted over at least two documents.
The TERMS terms of largest positive a(t, w) that are not query terms are added with BM25F
weight BETA · a(t, w), only to documents that already match the query (so the expansion
re-orders, never widens, the match set). Reads every posting from the kept workspace
(`dolphin-bench quality --keep`); standard library only.
"""
import sqlite3
import sys
from collections import Counter, defaultdict

from v1 import V1, Prototype


def main(pkl, workspace, split, *specs):
    proto = Prototype(pkl)
    db = sqlite3.connect(f"file:{workspace}/workspace.sqlite?mode=ro", uri=True)
    terms = dict(db.execute("SELECT term_id, term FROM lexical_term"))
    titled, content = defaultdict(set), defaultdict(set)
    lengths = {}
    frequencies = defaultdict(dict)
    for tid, doc, tl, gl, cl, tft, tfg, tfc in db.execute(
            "SELECT term_id, doc, title_length, tags_length, content_length, title_frequency, "
            "tags_frequency, content_frequency FROM lexical_posting"):
        term = terms[tid]
        lengths[doc] = (tl, gl, cl)
        frequencies[term][doc] = (tft, tfg, tfc)
        if tft:
            titled[term].add(doc)
        if tfc:
            content[doc].add(term)
    content_df = Counter(t for words in content.values() for t in words)

    def associated(term, min_titles, count):
        docs = titled.get(term, set())
        if len(docs) < min_titles:
            return []
        together = Counter(w for d in docs for w in content[d])
        ranked = sorted(((k / len(docs) - content_df[w] / proto.N, w)
                         for w, k in together.items() if w != term and k >= 2), reverse=True)
        return [(a, w) for a, w in ranked[:count] if a > 0]

    def bm25f(term):
        plist = frequencies.get(term, {})
        idf, out = proto.idf(len(plist)), {}
        for doc, tfs in plist.items():
            pseudo = sum(V1.w[f] * tfs[f] / (1 - V1.b[f] + V1.b[f] * lengths[doc][f] / proto.average[f])
                         for f in range(3) if tfs[f])
            out[doc] = idf * pseudo / (V1.k1 + pseudo)
        return out

    for spec in specs:
        beta, min_titles, count = spec.split(":")
        beta, min_titles, count = float(beta), int(min_titles), int(count)

        def rerank(qid, v1):
            q = proto.queries[qid]
            exact = [t["variants"][0]["term"] for t in q["terms"]
                     if t["variants"] and t["variants"][0]["weight"] == 1]
            fused = dict(v1)
            for t in exact:
                for a, w in associated(t, min_titles, count):
                    if w in exact:
                        continue
                    for doc, s in bm25f(w).items():
                        cid = proto.docid[doc]
                        if cid in fused:
                            fused[cid] += beta * a * s
            return fused

        r = proto.evaluate(split, rerank=rerank)
        print(f"beta={beta:g} min_titles={min_titles} terms={count} {split}: "
              f"nDCG@10 {sum(r.values()) / len(r):.4f}", flush=True)



if __name__ == "__main__":
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
