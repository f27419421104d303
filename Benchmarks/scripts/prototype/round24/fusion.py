#!/usr/bin/env python3
"""Round 24, 3: v1 fused with a run over unstemmed (surface) words.

    fusion.py data.pkl index.pkl SCIFACT_DIR

Multiple-representation fusion (Belkin, Kantor, Fox & Shaw, "Combining the evidence of multiple
query representations for information retrieval", IP&M 31(3), 1995; CombSUM of Fox & Shaw 1994)
of v1 with a second run over another representation of the same texts: the words as written.
Documents and queries are split into words by round 21's `surface_forms.words` (NFKD-folded,
lower-cased runs of letters and digits, possessive `'s` dropped); each word is stemmed through
SQLite FTS5's `porter` (equal to the index's stems since tokenizer version 5) only to pick, among
the query's words, those whose stem is one of v1's query terms (the same words v1 searches,
after its stop lists, as typed). The surface run scores them by v1's BM25F (k1 1.2, title weight
3 b 0.5, abstract weight 1 b 0.75, Lucene IDF from the surface words' own document frequencies,
field lengths counted in surface words), summed over the query's distinct surface words, with
no phrase boost or coverage factor. Fusion, over the union of both runs' documents (a document
missing from a run scores 0 there):
    (1 − α) v1 / max v1 + α surface / max surface,   α 0.1 / 0.2 / 0.3.
Control: the same fusion with the stemmed run of the same form (v1's BM25F sum, best variant per
term, without the phrase boost and coverage factor), to tell the surface words from the fusion.

Only the even queries are split into words (the dump of `--split even` holds only those; the
odd ids' texts in data.pkl are not read); judgements from the even-only copy.
"""
import json, math, os, sqlite3, sys
from collections import Counter
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "round21"))
from surface_forms import words
from exp import summary, V1
import importlib.util
_spec = importlib.util.spec_from_file_location("round23_ideas", os.path.join(HERE, "..", "round23", "ideas.py"))
_r23 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_r23)


def porter(vocab):
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(w, tokenize='porter unicode61 remove_diacritics 2')")
    db.executemany("INSERT INTO t(rowid, w) VALUES (?, ?)", enumerate(vocab))
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    return {vocab[doc]: term for term, doc in db.execute("SELECT term, doc FROM v")}


def main(data, index, scifact):
    E = _r23.R23(data, index)
    corpus = {o["_id"]: o for o in map(json.loads, open(f"{scifact}/corpus.jsonl"))}
    docs = {row: (Counter(words(corpus[cid].get("title", ""))), Counter(words(corpus[cid].get("text", ""))))
            for row, cid in E.docid.items()}
    even = list(E.query_ids("even"))
    qwords = {q: words(E.qtext[q]) for q in even}
    vocab = sorted({w for q in even for w in qwords[q]})
    stem = porter(vocab)
    df = Counter(w for t, c in docs.values() for w in set(t) | set(c))
    avg_t = sum(sum(t.values()) for t, _ in docs.values()) / len(docs)
    avg_c = sum(sum(c.values()) for _, c in docs.values()) / len(docs)
    inv = {}
    for d, (t, c) in docs.items():
        for w in set(t) | set(c):
            inv.setdefault(w, []).append(d)

    def surface(q, qid):
        terms = {t["term"] for t in q["terms"]}
        chosen = sorted({w for w in qwords[qid] if stem.get(w) in terms})
        out = {}
        for w in chosen:
            idf = E.idf(df[w])
            for d in inv.get(w, []):
                t, c = docs[d]
                tl, cl = sum(t.values()), sum(c.values())
                pseudo = 3 * t[w] / (0.5 + 0.5 * tl / avg_t) + c[w] / (0.25 + 0.75 * cl / avg_c)
                out[d] = out.get(d, 0.0) + idf * pseudo / (V1.k1 + pseudo)
        return out, chosen

    def stemmed(q, qid):
        per = E.per_term(q)
        out = {}
        for b in per:
            for d, x in b.items():
                out[d] = out.get(d, 0.0) + x[0]
        return out

    def fuse(other, alpha):
        def hook(qid, q, scores):
            s2 = other(q, qid)
            if isinstance(s2, tuple):
                s2 = s2[0]
            m1, m2 = max(scores.values()), max(s2.values(), default=0.0)
            out = {}
            for d in set(scores) | set(s2):
                out[d] = (1 - alpha) * scores.get(d, 0.0) / m1 + (alpha * s2.get(d, 0.0) / m2 if m2 > 0 else 0.0)
            return out
        return hook

    base = E.run_rerank()
    print("v1 (prototype)                          ", summary(*base), flush=True)
    n_terms = sum(len(E.queries[q]["terms"]) for q in even)
    n_surface = sum(len(surface(E.queries[q], q)[1]) for q in even if E.queries[q]["terms"])
    differ = sum(1 for q in even for w in surface(E.queries[q], q)[1] if w != stem[w]) if even else 0
    print(f"even queries: {n_terms} v1 terms, {n_surface} surface words picked, {differ} of them "
          f"written otherwise than their stem", flush=True)
    for alpha in (0.1, 0.2, 0.3):
        print(f"3 CombSUM v1 + surface BM25F α {alpha:.1f}      ",
              summary(*E.run_rerank(fuse(surface, alpha)), base), flush=True)
    for alpha in (0.1, 0.2, 0.3):
        print(f"3 control v1 + stemmed BM25F α {alpha:.1f}      ",
              summary(*E.run_rerank(fuse(stemmed, alpha)), base), flush=True)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
