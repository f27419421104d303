#!/usr/bin/env python3
"""Round 23: translation language model, axiomatic semantic term matching, DFR Bo1 expansion.

    ideas.py data.pkl index.pkl [1|2|3 ...]

1  translation language model (Berger & Lafferty 1999) with translation probabilities from mutual
   information (Karimzadehgan & Zhai, "Estimation of statistical translation models based on
   mutual information for ad hoc information retrieval", SIGIR 2010), Dirichlet prior μ:
       log p(q|d) = Σ_u log[(Σ_w p_t(u|w) c(w,d) + μ p(u|C)) / (|d| + μ)]
   p_t(u|w) = I(X_u; X_w) / Σ_u' I(X_u'; X_w), I the mutual information of the two words'
   presence over the corpus's documents (each of the four cells of the 2×2 table + ¼, N + 1),
   over the word pairs that co-occur in a document, the word itself included (I(X_w; X_w) is the
   entropy of X_w); words are the index's stems less the Snowball stop list, a document is its
   title and abstract (c(w,d) title tf + content tf, |d| their sum over those words). u runs over
   the query terms as typed (`term` of the dump) that the corpus holds. Re-ranks v1's first N:
   max-normalised CombSUM (1 − λ) f / max f + λ (t − min t) / (max t − min t) (the log-likelihood
   has no zero, so it is shifted by its minimum over the N, Lee 1997's min–max), λ = 1 the model
   alone. Also with a self-translation floor s (p_t(u|u) = s + (1 − s) p_mi(u|u), the others
   × (1 − s); the MI estimate gives p_t(u|u) 0.034 on average), and a control: the same fusion
   with p_t(u|w) = [u = w] (plain Dirichlet query likelihood).
2  axiomatic semantic term matching (Fang & Zhai, "Semantic term matching in axiomatic
   approaches to information retrieval", SIGIR 2006), as Anserini's AxiomReranker computes it:
   working set W = v1's first M = 20 documents and random others up to R·M = 600 (Random seeded
   by the query id); s(q, t) = I(X_q; X_t | W); for each query term q in W the 20 terms of largest
   s(q, t) / s(q, q); a term's weight β Σ_q (idf(q) / mean idf) s(q, t) / s(q, q) (Anserini's
   idf(q)·β·s(q,t)/s(q,q) relative to the original terms' mean weight, which is 1 in v1); the K
   terms of largest weight that are not query words are added.
3  DFR Bo1 expansion (Amati 2003; as in Terrier and Xapian's Bo1EWeight): from v1's first R
   documents, w(t) = tf_R(t) log2((1 + P) / P) + log2(1 + P), P = cf(t) / N_docs, tf_R the
   term's frequency in the R documents; terms in at least 2 of them (all, when R < 2); the T
   terms of largest w(t), query words included (as Terrier's expansion ranks them); those not
   in the query are added at β w(t) / max w.

Expansion terms (2, 3) are the index's stems of at least two characters with a letter, not on the
Snowball stop list, not a variant of a query term, and are scored by v1's BM25F (k1 1.2, title
weight 3 b 0.5, content weight 1 b 0.75, Lucene IDF) times their weight, added to v1's score of
every document that matches the query (outside the coverage factor, as round 5's title
association).

Even ids only (the dump of `--split even` holds only even queries and the judgements are loaded
from a copy holding only even ids); every row prints the total, fold A (id mod 4 = 0), fold B
(id mod 4 = 2), Recall@100 and the Δs against v1.
"""
import math, os, pickle, random, sys
import numpy as np
import scipy.sparse as sp
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'round21'))
from exp import Exp, summary, V1


class R23(Exp):
    def __init__(self, data, index):
        super().__init__(data)
        ix = pickle.load(open(index, "rb"))
        self.ftf, self.flen, self.fdf, self.fcf, self.stops = (
            ix["tf"], ix["lengths"], ix["df"], ix["cf"], ix["stops"])
        assert len(self.ftf) == self.N
        self.inv = {}
        for d, terms in self.ftf.items():
            for t, (a, c) in terms.items():
                self.inv.setdefault(t, []).append((d, a, c))
        self.all_docs = sorted(self.ftf)
        self._first, self._bm25f = {}, {}

    # --- harness ------------------------------------------------------------------------------
    def first(self, qid):
        if qid not in self._first:
            q = self.queries[qid]
            self._first[qid] = self.score_query(q, V1, qid) if q["terms"] else {}
        return self._first[qid]

    def run_rerank(self, hook=None, split="even"):
        nd, rc = {}, {}
        for qid in self.query_ids(split):
            scores = self.first(qid)
            if hook and scores:
                scores = hook(qid, self.queries[qid], scores)
            ranking = [self.docid[d] for d in self.rank(scores)]
            rel = self.qrels[qid]
            nd[qid] = self.ndcg(ranking, rel)
            good = {d for d, r in rel.items() if r > 0}
            rc[qid] = len(set(ranking[:100]) & good) / max(1, len(good))
        return nd, rc

    @staticmethod
    def above(scores, top, new):
        """Scores with the first len(top) documents re-scored by `new` (in [0, 1]) kept above the rest."""
        out = {d: s / 1e9 - 10 for d, s in scores.items()}
        for d, v in zip(top, new):
            out[d] = float(v)
        return out

    def candidate(self, t):
        return len(t) >= 2 and t not in self.stops and " " not in t and any(c.isalpha() for c in t)

    @staticmethod
    def query_words(q):
        return {v["term"] for t in q["terms"] for v in t["variants"]} | {t["term"] for t in q["terms"]}

    def bm25f(self, t):
        """Document -> v1's BM25F of one term (title weight 3, b 0.5; content weight 1, b 0.75)."""
        if t not in self._bm25f:
            idf = self.idf(self.fdf[t])
            at, _, ac = self.average
            out = {}
            for d, a, c in self.inv[t]:
                tl, cl = self.flen[d]
                pseudo = 0.0
                if a:
                    pseudo += 3 * a / (1 - 0.5 + 0.5 * tl / at)
                if c:
                    pseudo += 1 * c / (1 - 0.75 + 0.75 * cl / ac)
                out[d] = idf * pseudo / (V1.k1 + pseudo)
            self._bm25f[t] = out
        return self._bm25f[t]

    def expand(self, scores, weights):
        out = dict(scores)
        for t, w in weights.items():
            for d, s in self.bm25f(t).items():
                if d in out:
                    out[d] += w * s
        return out

    # --- 1: translation language model ----------------------------------------------------------
    def build_matrix(self):
        """Document × word counts (title tf + content tf) over the index's words less stop words."""
        if hasattr(self, "C"):
            return
        self.vocab = sorted(t for t in self.fdf if t not in self.stops and " " not in t)
        self.vi = {t: i for i, t in enumerate(self.vocab)}
        rows, cols, vals = [], [], []
        self.dlen = {}
        for r, d in enumerate(self.all_docs):
            n = 0
            for t, (a, c) in self.ftf[d].items():
                if t in self.vi:
                    rows.append(r); cols.append(self.vi[t]); vals.append(a + c)
                    n += a + c
            self.dlen[d] = n
        self.drow = {d: r for r, d in enumerate(self.all_docs)}
        self.C = sp.csr_matrix((np.array(vals, dtype=np.float64), (rows, cols)),
                               shape=(len(self.all_docs), len(self.vocab)))
        self.is_candidate = np.array([self.candidate(t) for t in self.vocab])

    def build_translation(self):
        self.build_matrix()
        vocab = self.vocab
        B = (self.C > 0).astype(np.float32).tocsc()
        co = (B.T @ B).tocoo()                       # co-occurrence counts, diagonal = df
        N = float(len(self.all_docs))
        df = np.asarray(B.sum(0)).ravel().astype(np.float64)
        n11 = co.data.astype(np.float64)
        du, dw = df[co.row], df[co.col]
        cells = [(n11, du, dw), (du - n11, du, N - dw), (dw - n11, N - du, dw),
                 (N - du - dw + n11, N - du, N - dw)]
        mi = np.zeros_like(n11)
        for n, mu_, mw in cells:
            p = (n + 0.25) / (N + 1)
            mi += p * np.log(p / (((mu_ + 0.5) / (N + 1)) * ((mw + 0.5) / (N + 1))))
        mi = np.maximum(mi, 0.0)
        MI = sp.csr_matrix((mi, (co.row, co.col)), shape=co.shape)
        Z = np.asarray(MI.sum(0)).ravel()            # Σ_u' I(u'; w) for every w
        self.T = MI.multiply(1.0 / np.maximum(Z, 1e-300)[None, :]).tocsr()   # row u: p_t(u | w)
        self.T_mi = self.T
        self.pc = np.asarray(self.C.sum(0)).ravel() / self.C.sum()
        print(f"translation table: {len(vocab)} words, {MI.nnz} pairs; mean p_t(u|u) "
              f"{self.T.diagonal().mean():.3f}", flush=True)

    def tlm_scores(self, q, docs, mu, identity=False):
        us = [self.vi[t["term"]] for t in q["terms"] if t["term"] in self.vi]
        if not us:
            return np.zeros(len(docs))
        D = self.C[[self.drow[d] for d in docs]]     # docs × vocab counts
        if identity:
            X = D[:, us].toarray()
        else:
            X = (D @ self.T[us].T).toarray()         # Σ_w p_t(u|w) c(w, d)
        lens = np.array([self.dlen[d] for d in docs], dtype=np.float64)[:, None]
        return np.log((X + mu * self.pc[us][None, :]) / (lens + mu)).sum(1)

    def set_self_floor(self, s):
        """p_t(u|u) = s + (1 − s) p_mi(u|u), p_t(u|w) = (1 − s) p_mi(u|w) for w ≠ u."""
        self.T = (self.T_mi * (1 - s) + sp.identity(self.T_mi.shape[0], format="csr") * s).tocsr()

    def translation(self, n, lam, mu=1000.0, identity=False):
        def hook(qid, q, scores):
            top = self.rank(scores, n)
            f = np.array([scores[d] for d in top])
            t = self.tlm_scores(q, top, mu, identity)
            spread = t.max() - t.min()
            t = (t - t.min()) / spread if spread > 0 else np.zeros_like(t)
            new = (1 - lam) * f / f.max() + lam * t
            return self.above(scores, top, new / max(new.max(), 1e-12))
        return hook

    # --- 2: axiomatic semantic term matching -----------------------------------------------------
    def axiomatic_terms(self, qid, q, scores, m=20, r=30, per_term=20):
        """Candidate expansion terms and their weights before β (cached per query)."""
        cache = self.__dict__.setdefault("_axiom", {})
        if qid in cache:
            return cache[qid]
        self.build_matrix()
        top = self.rank(scores, m)
        pool = set(top)
        rng = random.Random(int(qid))
        while len(pool) < min(r * m, self.N):
            pool.add(self.all_docs[rng.randrange(self.N)])
        P = (self.C[[self.drow[d] for d in sorted(pool)]] > 0).astype(np.float64).tocsc()
        n = P.shape[0]
        df = np.asarray(P.sum(0)).ravel()
        qwords = self.query_words(q)
        typed = [self.vi[t["term"]] for t in q["terms"] if t["term"] in self.vi]
        typed = [u for u in dict.fromkeys(typed) if 0 < df[u] < n]
        agg = {}
        if typed:
            idfs = {u: math.log((1 + self.N) / self.fdf[self.vocab[u]]) for u in typed}
            mean_idf = sum(idfs.values()) / len(idfs)
            n11 = (P[:, typed].T @ P).toarray()                # |typed| × vocab co-occurrence in W
            ok = (df > 0) & (df < n) & self.is_candidate
            for i, u in enumerate(typed):
                s = mutual_information_vec(df[u], df, n11[i], n)
                s[~ok] = 0.0
                s[u] = 0.0
                ratio = s / mutual_information_vec(df[u], np.array([df[u]]), np.array([df[u]]), n)[0]
                best = np.argsort(-ratio, kind="stable")[:per_term]
                for j in best:
                    if ratio[j] > 1e-8:
                        t = self.vocab[j]
                        agg[t] = agg.get(t, 0.0) + idfs[u] / mean_idf * ratio[j]
        ranked = sorted((t for t in agg if t not in qwords), key=lambda t: (-agg[t], t))
        cache[qid] = [(t, agg[t]) for t in ranked]
        return cache[qid]

    def axiomatic(self, beta, k):
        def hook(qid, q, scores):
            chosen = self.axiomatic_terms(qid, q, scores)[:k]
            return self.expand(scores, {t: beta * w for t, w in chosen})
        return hook

    # --- 3: DFR Bo1 --------------------------------------------------------------------------------
    def bo1(self, r, n_terms, beta):
        def hook(qid, q, scores):
            top = self.rank(scores, r)
            tfr, seen = {}, {}
            for d in top:
                for t, (a, c) in self.ftf[d].items():
                    if self.candidate(t):
                        tfr[t] = tfr.get(t, 0) + a + c
                        seen[t] = seen.get(t, 0) + 1
            need = 2 if len(top) >= 2 else 1
            w = {}
            for t, x in tfr.items():
                if seen[t] >= need:
                    p = self.fcf[t] / self.N
                    w[t] = x * math.log2((1 + p) / p) + math.log2(1 + p)
            best = sorted(w, key=lambda t: (-w[t], t))[:n_terms]
            if not best:
                return scores
            wmax = w[best[0]]
            qwords = self.query_words(q)
            return self.expand(scores, {t: beta * w[t] / wmax for t in best if t not in qwords})
        return hook


def mutual_information_vec(x1, y1, n11, n):
    """I(X; Y) of word x's presence against each y's over n documents, unsmoothed, as Anserini's
    AxiomReranker.computeMutualInformation."""
    x1 = float(x1)
    y1 = y1.astype(np.float64)
    n11 = n11.astype(np.float64)
    total = np.zeros_like(y1)
    for c, a, b in ((n11, x1, y1), (x1 - n11, x1, n - y1), (y1 - n11, n - x1, y1),
                    (n - x1 - y1 + n11, n - x1, n - y1)):
        with np.errstate(divide="ignore", invalid="ignore"):
            term = (c / n) * np.log((c / n) / ((a / n) * (b / n)))
        total += np.where(c > 0, term, 0.0)
    return total


def main(data, index, *which):
    E = R23(data, index)
    base = E.run_rerank()
    print("v1 (prototype)                        ", summary(*base), flush=True)
    which = which or ("1", "2", "3")
    if "1" in which:
        E.build_translation()
        for n in (50, 100):
            for lam in (0.1, 0.2, 0.3, 1.0):
                print(f"1 TLM-MI μ 1000 N {n:3} λ {lam:.1f}          ",
                      summary(*E.run_rerank(E.translation(n, lam)), base), flush=True)
        for floor in (0.5, 0.8):
            E.set_self_floor(floor)
            for lam in (0.1, 0.2, 1.0):
                print(f"1 TLM-MI self {floor} μ 1000 N 100 λ {lam:.1f} ",
                      summary(*E.run_rerank(E.translation(100, lam)), base), flush=True)
        for lam in (0.1, 0.2, 0.3, 1.0):
            print(f"1 control QL μ 1000 N 100 λ {lam:.1f}     ",
                  summary(*E.run_rerank(E.translation(100, lam, identity=True)), base), flush=True)
    if "2" in which:
        for k in (10, 20):
            for beta in (0.1, 0.25, 0.5):
                print(f"2 axiomatic M 20 R 30 K {k:2} β {beta:.2f}  ",
                      summary(*E.run_rerank(E.axiomatic(beta, k)), base), flush=True)
    if "3" in which:
        for r in (3, 5, 10):
            for n_terms in (10, 20):
                for beta in (0.1, 0.3):
                    print(f"3 Bo1 docs {r:2} terms {n_terms:2} β {beta:.1f}       ",
                          summary(*E.run_rerank(E.bo1(r, n_terms, beta)), base), flush=True)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
