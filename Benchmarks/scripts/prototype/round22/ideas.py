#!/usr/bin/env python3
"""Round 22: document-graph re-ranking, best-sentence evidence, coverage by IDF mass.

    ideas.py data.pkl forward.pkl sentences.pkl [A|B|C|D ...]

A  score regularisation over a k-nearest-neighbour graph of the first N documents (Diaz,
   "Regularizing ad hoc retrieval scores", CIKM 2005): f' = (1 − α) f + α Σ_j w_ij f_j / Σ_j w_ij,
   f max-normalised over the N, w_ij the cosine of log-tf·IDF vectors of title + abstract (the
   index's stemmed terms), each document's k nearest neighbours among the N; one step as briefed,
   and Diaz's closed form f* = (1 − α)(I − αP)⁻¹ f over the symmetrised graph (P row-normalised).
B  structural re-ranking (Kurland & Lee, "PageRank without hyperlinks", SIGIR 2005): over the first
   N = 50, each document o links to the δ documents g whose Dirichlet language model (μ = 2000)
   generates o best, weight p_g(o) = exp(−KL(o_MLE ‖ g_Dir)); weighted PageRank, damping 0.85;
   combined with the first-pass score as their "+LM" product PR(d)·f(d), as PR(d)·exp(f(d)) (f read
   as the log-likelihood their product multiplies by, i.e. rank by f + log PR), or as max-normalised
   CombSUM (1 − β) f + β PR; also weighted in-degree ("weighted influx").
C  best-sentence evidence: the BM25 (k1 1.2, b 0.75, sentence lengths, the ranker's IDF and
   variant weights, best variant per term) of the best sentence of the abstract (sentences.py),
   fused as max-normalised CombSUM (1 − w) f / max f + w s / max s over every matching document.
D  query-coverage factor by IDF mass: 1 + γ Σ_matched idf / Σ_all idf instead of the share of
   distinct terms (γ 0.25 as shipped); idf = each term's largest weighted IDF over its variants
   (the phrase boost's bound), or the IDF of the variant that matched in the document.

Even ids only (Exp.run never reads an odd id's judgements); every row prints the total, fold A
(id mod 4 = 0), fold B (id mod 4 = 2), Recall@100 and the Δs against v1.
"""
import bisect, math, pickle, sys, os
import numpy as np
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'round21'))
from exp import Exp, summary, V1


class R22(Exp):
    def __init__(self, data, forward, sentences):
        super().__init__(data)
        fw = pickle.load(open(forward, "rb"))
        self.ftf, self.fdf, self.spans = fw["tf"], fw["df"], pickle.load(open(sentences, "rb"))
        self.cf = {}
        for d, terms in self.ftf.items():
            for t, (a, b) in terms.items():
                self.cf[t] = self.cf.get(t, 0) + a + b
        self.total = sum(self.cf.values())
        lens = [e - s + 1 for b in self.spans.values() for s, e in b]
        self.avg_sentence = sum(lens) / len(lens)
        self.coverage = "count"

    # --- the ranking with a re-rank hook over internal document keys --------------------------
    def run_rerank(self, rerank=None, split="even"):
        nd, rc = {}, {}
        for qid in self.query_ids(split):
            q = self.queries[qid]
            if self.coverage == "count":  # the first pass, computed once per query
                cache = self.__dict__.setdefault("_first", {})
                if qid not in cache:
                    cache[qid] = self.score_query(q, V1, qid) if q["terms"] else {}
                scores = cache[qid]
            else:
                scores = self.score_query(q, V1, qid) if q["terms"] else {}
            if rerank and scores:
                scores = rerank(q, scores)
            ranking = [self.docid[d] for d in self.rank(scores)]
            rel = self.qrels[qid]
            nd[qid] = self.ndcg(ranking, rel)
            good = {d for d, r in rel.items() if r > 0}
            rc[qid] = len(set(ranking[:100]) & good) / max(1, len(good))
        return nd, rc

    def top(self, scores, n):
        return self.rank(scores, n)

    @staticmethod
    def above(scores, top, new):
        """Scores with the first len(top) documents re-scored by `new` (in [0, 1]) kept above the rest."""
        out = {d: s / 1e9 - 10 for d, s in scores.items()}  # order of the rest unchanged, below
        for d, v in zip(top, new):
            out[d] = float(v)
        return out

    # --- A: score regularisation -------------------------------------------------------------
    def cosine(self, docs):
        vocab, rows = {}, []
        for d in docs:
            vec = {}
            for t, (a, b) in self.ftf.get(d, {}).items():
                tf = a + b
                idf = math.log(self.N / self.fdf[t])
                if idf > 0:
                    vec[vocab.setdefault(t, len(vocab))] = (1 + math.log(tf)) * idf
            rows.append(vec)
        M = np.zeros((len(docs), len(vocab)))
        for i, vec in enumerate(rows):
            for j, v in vec.items():
                M[i, j] = v
        M /= np.maximum(np.linalg.norm(M, axis=1, keepdims=True), 1e-12)
        S = M @ M.T
        np.fill_diagonal(S, 0)
        return S

    @staticmethod
    def knn(S, k):
        W = np.zeros_like(S)
        for i in range(len(S)):
            nb = np.argsort(-S[i], kind="stable")[:k]
            W[i, nb] = S[i, nb]
        return W

    def regularise(self, n, k, alpha, closed=False):
        def hook(q, scores):
            top = self.top(scores, n)
            f = np.array([scores[d] for d in top])
            f = f / f.max()
            W = self.knn(self.cosine(top), k)
            if closed:
                W = np.maximum(W, W.T)
                P = W / np.maximum(W.sum(1, keepdims=True), 1e-12)
                new = (1 - alpha) * np.linalg.solve(np.eye(len(top)) - alpha * P, f)
            else:
                sums = W.sum(1)
                nb = np.where(sums > 0, (W @ f) / np.maximum(sums, 1e-12), f)
                new = (1 - alpha) * f + alpha * nb
            return self.above(scores, top, new / max(new.max(), 1e-12))
        return hook

    # --- B: PageRank without hyperlinks --------------------------------------------------------
    def generation(self, docs, mu=2000.0):
        """G[o, g] = −KL(o_MLE ‖ g_Dirichlet), the log of how well g's model generates o."""
        vocab = {}
        for d in docs:
            for t in self.ftf.get(d, {}):
                vocab.setdefault(t, len(vocab))
        C = np.zeros((len(docs), len(vocab)))
        for i, d in enumerate(docs):
            for t, (a, b) in self.ftf.get(d, {}).items():
                C[i, vocab[t]] = a + b
        pc = np.zeros(len(vocab))
        for t, j in vocab.items():
            pc[j] = self.cf[t] / self.total
        lens = C.sum(1, keepdims=True)
        mle = C / np.maximum(lens, 1)
        dirichlet = (C + mu * pc) / (lens + mu)
        # Σ_w p_o(w) log p_o(w) − Σ_w p_o(w) log p_g(w); words outside the N docs add the same
        # constant for every g of one o (they are not in o), so they cannot change o's choice.
        ent = np.where(mle > 0, mle * np.log(np.where(mle > 0, mle, 1)), 0).sum(1, keepdims=True)
        return -(ent - mle @ np.log(dirichlet).T)

    def pagerank(self, n, delta, mode, beta=0.0, damping=0.85):
        def hook(q, scores):
            top = self.top(scores, n)
            m = len(top)
            G = self.generation(top)
            np.fill_diagonal(G, -np.inf)
            T = np.zeros((m, m))
            for o in range(m):
                nb = np.argsort(-G[o], kind="stable")[:min(delta, m - 1)]
                w = np.exp(G[o, nb] - G[o, nb].max())
                T[o, nb] = w / w.sum()
            if mode.startswith("influx"):
                cent = T.sum(0) + 1e-9
            else:
                pr = np.full(m, 1 / m)
                for _ in range(100):
                    nxt = (1 - damping) / m + damping * (pr @ T)
                    if np.abs(nxt - pr).sum() < 1e-12:
                        break
                    pr = nxt
                cent = pr
            f = np.array([scores[d] for d in top])
            if mode.endswith("expproduct"):  # PR(d)·exp(f): f read as a log-likelihood
                new = np.log(cent) + f
                new = np.exp(new - new.max())
            elif mode.endswith("product"):
                new = cent * f
            else:
                new = (1 - beta) * f / f.max() + beta * cent / cent.max()
            return self.above(scores, top, new / new.max())
        return hook

    # --- C: best sentence ---------------------------------------------------------------------
    def best_sentence(self, q, docs):
        k1, b = 1.2, 0.75
        # per document: {sentence index: [best variant score of each query term]}
        table = {}
        for g, t in enumerate(q["terms"]):
            for v in t["variants"]:
                plist = self.post.get(v["term"], [])
                if not plist:
                    continue
                w = self.idf(len(plist)) * v["weight"]
                for d, _, tfs, positions in plist:
                    if not tfs[2] or d not in docs:
                        continue
                    spans = self.spans.get(d, [])
                    starts = self.starts(d)
                    counts = {}
                    for x in positions[2]:
                        i = bisect.bisect_right(starts, x) - 1
                        if i >= 0 and x <= spans[i][1]:
                            counts[i] = counts.get(i, 0) + 1
                    row = table.setdefault(d, {})
                    for i, tf in counts.items():
                        s, e = spans[i]
                        norm = 1 - b + b * (e - s + 1) / self.avg_sentence
                        val = w * tf / (k1 * norm + tf)
                        cell = row.setdefault(i, {})
                        if val > cell.get(g, 0.0):
                            cell[g] = val
        return {d: max((sum(c.values()) for c in table[d].values()), default=0.0) if d in table else 0.0
                for d in docs}

    def starts(self, d):
        cache = self.__dict__.setdefault("_starts", {})
        if d not in cache:
            cache[d] = [s for s, _ in self.spans.get(d, [])]
        return cache[d]

    def sentence(self, weight):
        def hook(q, scores):
            sent = self.best_sentence(q, scores)
            fmax, smax = max(scores.values()), max(sent.values()) or 1.0
            return {d: (1 - weight) * scores[d] / fmax + weight * sent[d] / smax for d in scores}
        return hook

    # --- D: coverage by IDF mass ----------------------------------------------------------------
    def score_query(self, q, p=V1, qid=None):
        if self.coverage == "count":
            return super().score_query(q, p, qid)
        per_term = self.per_term(q, p)
        bound = self.bounds(q)
        mass = sum(bound) or 1.0
        scores = {}
        for d in set().union(*per_term):
            s, base, phrase, matched = self.parts(q, per_term, bound, d, p)
            if self.coverage == "bound":
                covered = sum(bound[g] for g in matched)
            else:  # the IDF of the variant that matched: its BM25F score's weight
                covered = sum(self.variant_idf(q, g, d) for g in matched)
            scores[d] = (base + phrase) * (1 + p.gamma * covered / mass)
        return scores

    def variant_idf(self, q, g, d):
        best = 0.0
        for v in q["terms"][g]["variants"]:
            plist = self.post.get(v["term"], [])
            if any(x[0] == d for x in plist):
                best = max(best, self.idf(len(plist)) * v["weight"])
        return best


def main(data, forward, sentences, *which):
    E = R22(data, forward, sentences)
    base = E.run_rerank()
    print("v1 (prototype)                 ", summary(*base), flush=True)
    which = which or ("A", "B", "C", "D")
    if "A" in which:
        for n in (50, 100):
            for k in (5, 10):
                for a in (0.1, 0.2, 0.3):
                    print(f"A one step N {n:3} k {k:2} α {a}  ", summary(*E.run_rerank(E.regularise(n, k, a)), base), flush=True)
        for n, k, a in ((50, 10, 0.2), (100, 10, 0.2)):
            print(f"A closed  N {n:3} k {k:2} α {a}  ", summary(*E.run_rerank(E.regularise(n, k, a, True)), base), flush=True)
    if "B" in which:
        for delta in (5, 10):
            print(f"B PageRank δ {delta:2} × f          ", summary(*E.run_rerank(E.pagerank(50, delta, "pr-product")), base), flush=True)
            for beta in (0.1, 0.2):
                print(f"B PageRank δ {delta:2} CombSUM β {beta} ", summary(*E.run_rerank(E.pagerank(50, delta, "pr-sum", beta)), base), flush=True)
            print(f"B wtd influx δ {delta:2} × f        ", summary(*E.run_rerank(E.pagerank(50, delta, "influx-product")), base), flush=True)
            print(f"B PageRank δ {delta:2} × exp(f)     ", summary(*E.run_rerank(E.pagerank(50, delta, "pr-expproduct")), base), flush=True)
    if "C" in which:
        for w in (0.1, 0.2, 0.3):
            print(f"C best sentence w {w}          ", summary(*E.run_rerank(E.sentence(w)), base), flush=True)
    if "D" in which:
        for mode in ("bound", "variant"):
            E.coverage = mode
            print(f"D IDF-mass coverage ({mode:7})  ", summary(*E.run_rerank(), base), flush=True)
        E.coverage = "count"


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
