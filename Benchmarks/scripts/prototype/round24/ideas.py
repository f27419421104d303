#!/usr/bin/env python3
"""Round 24: positional relevance model, selective feedback by query-performance prediction.

    ideas.py data.pkl index.pkl positions.pkl [1|2 ...]

1  positional relevance model (Lv & Zhai, "Positional relevance model for pseudo-relevance
   feedback", SIGIR 2010) from v1's first F = 10 documents (uniform p(d)), as computed here:
   a document is its title, then its abstract (abstract positions shifted past the title's last
   position + 2); the positions i are the occupied positions of the index (`positions.py`),
   p(i|d) = 1 / n_d (n_d of them); p(w|d,i) = [w at i] (the word at the position, unsmoothed);
   p(q|d,i) is the positional language model (Lv & Zhai, SIGIR 2009) with a Gaussian kernel
   k(i, j) = exp(−(i − j)² / 2σ²) and Dirichlet prior μ = 1000:
       p(q|d,i) = (Σ_j c(q,j) k(i,j) + μ p(q|C)) / (Σ_j n_j k(i,j) + μ),
   c(q, j) the largest weight of the query term's variants at j (1 for the word as typed; the
   variants and positions of the dump), n_j the terms at j, p(q|C) the largest weight · cf / |C|
   over the variants the index holds; p(Q|d,i) = Π_q p(q|d,i).
   PRM1 (i.i.d. sampling):        p(w, Q) ∝ Σ_d Σ_i p(Q|d,i) p(w|d,i) / n_d
   PRM2 (conditional sampling):   p(w, Q) = p(w) Π_q Σ_d Σ_i p(q|d,i) p(d,i|w),
                                  p(d,i|w) = p(w|d,i) / (n_d |F| p(w)), p(w) = Σ_d Σ_i p(w|d,i) / (n_d |F|)
   σ = ∞ (k ≡ 1) makes p(·|d,i) the document's Dirichlet model: PRM1 becomes the relevance model
   RM1 and PRM2 RM2 (Lavrenko & Croft 2001), the controls. The T = 10 words of largest p(w, Q)
   among the candidates (query words included, as Bo1 ranks them in round 23); those not in the
   query are added at β p(w, Q) / max p.
2  selective feedback: a feedback model of 1 or round 23's mildest Bo1 (3 documents, 10 terms,
   β 0.1) applied only to the queries whose predictor is in its top share (25 % / 50 % of the
   415 even queries; the quantile needs no judgements), v1 for the others. Predictors over v1's
   scores s_1 ≥ s_2 ≥ …, and s_D, v1's score of the whole corpus taken as one document (each
   query term's best variant scored by v1's BM25F with the corpus's field term frequencies and
   lengths, times the coverage factor for the terms the corpus holds; no phrase boost):
       NQC (Shtok, Kurland, Carmel, Raiber & Markovits, TOIS 30(2), 2012): σ(s_1…s_k) / s_D, k = 100
       WIG (Zhou & Croft, SIGIR 2007): (1/k) Σ_{i≤k} (s_i − s_D) / √|Q|, k = 5, |Q| the query terms
       gap: (s_1 − s_2) / s_1
   Also printed: each predictor's Kendall τ with v1's nDCG@10 (the usual measure of a
   predictor) and with the feedback's per-query gain, per fold; and an oracle line (feedback
   only where it gains), a bound, not a candidate.

Expansion words are scored as in round 23's `expand`: index stems of two or more characters with
a letter, not on the Snowball stop list, not a query word or variant, each scored by v1's BM25F
times its weight and added to v1's score of every document that matches the query.

Even ids only (the dump of `--split even` holds only even queries and the judgements are loaded
from a copy holding only even ids); every row prints the total, fold A (id mod 4 = 0), fold B
(id mod 4 = 2), Recall@100 and the Δs against v1.
"""
import math, os, pickle, sys
import numpy as np
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "round21"))
import importlib.util
_spec = importlib.util.spec_from_file_location("round23_ideas", os.path.join(HERE, "..", "round23", "ideas.py"))
_r23 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_r23)
R23 = _r23.R23
from exp import summary, V1


class R24(R23):
    def __init__(self, data, index, positions):
        super().__init__(data, index)
        self.pos = pickle.load(open(positions, "rb"))
        self.total_cf = float(sum(self.fcf.values()))
        self._seq = {}

    # --- 1: positional relevance model ----------------------------------------------------------
    def sequence(self, d):
        """(positions array, terms at each position: list of lists) of title then abstract."""
        if d not in self._seq:
            title, content = self.pos[d]
            shift = (max((p for p, _ in title), default=-1) + 2) if title else 0
            at = {}
            for p, t in title:
                at.setdefault(p, []).append(t)
            for p, t in content:
                at.setdefault(p + shift, []).append(t)
            ps = sorted(at)
            self._seq[d] = (np.array(ps, dtype=np.float64), [at[p] for p in ps], shift)
        return self._seq[d]

    def query_counts(self, q, d, ps, shift):
        """|Q| × n_d matrix c(q, j): the largest variant weight found at each position."""
        index = {int(p): k for k, p in enumerate(ps)}
        out = np.zeros((len(q["terms"]), len(ps)))
        for g, t in enumerate(q["terms"]):
            for v in t["variants"]:
                positions = self.postdoc(v["term"]).get(d)
                if positions:
                    for f, off in ((0, 0), (2, shift)):
                        for p in positions[f]:
                            k = index.get(p + off)
                            if k is not None:
                                out[g, k] = max(out[g, k], v["weight"])
        return out

    def postdoc(self, term):
        cache = self.__dict__.setdefault("_postdoc", {})
        if term not in cache:
            cache[term] = {x[0]: x[3] for x in self.post.get(term, [])}
        return cache[term]

    def background(self, q):
        out = []
        for t in q["terms"]:
            p = max((v["weight"] * self.fcf[v["term"]] for v in t["variants"] if v["term"] in self.fcf),
                    default=0.0)
            out.append(max(p, 0.5) / self.total_cf)
        return np.array(out)

    def prm_weights(self, qid, q, scores, sigma, model, docs=10, mu=1000.0):
        """Word -> p(w, Q) (unnormalised) over the candidates, cached per setting."""
        key = (qid, sigma, model, docs, mu)
        cache = self.__dict__.setdefault("_prm", {})
        if key in cache:
            return cache[key]
        top = self.rank(scores, docs)
        pc = self.background(q)
        logp, occ = [], []                  # per doc: |Q| × n_d log p(q|d,i); word occurrences
        for d in top:
            ps, terms, shift = self.sequence(d)
            if sigma is None:
                K = np.ones((len(ps), len(ps)))
            else:
                K = np.exp(-(ps[:, None] - ps[None, :]) ** 2 / (2 * sigma * sigma))
            nj = np.array([len(ts) for ts in terms], dtype=np.float64)
            c = self.query_counts(q, d, ps, shift)
            lp = np.log((c @ K + mu * pc[:, None]) / ((K @ nj)[None, :] + mu))
            logp.append(lp)
            occ.append(terms)
        F = len(top)
        weights = {}
        if model == 1:
            lq = [lp.sum(0) for lp in logp]            # log p(Q|d,i)
            m = max(x.max() for x in lq)
            for lqd, terms in zip(lq, occ):
                pq = np.exp(lqd - m) / len(terms)
                for k, ts in enumerate(terms):
                    for t in ts:
                        weights[t] = weights.get(t, 0.0) + pq[k]
        else:
            pw, acc = {}, {}
            m = max(lp.max() for lp in logp)
            for lp, terms in zip(logp, occ):
                P = np.exp(lp - m) / (len(terms) * F)   # p(q|d,i) / (n_d |F|), scaled by e^-m
                for k, ts in enumerate(terms):
                    for t in ts:
                        pw[t] = pw.get(t, 0.0) + 1.0 / (len(terms) * F)
                        acc[t] = acc.get(t, 0.0) + P[:, k]
            logs = {t: math.log(pw[t]) + float(np.sum(np.log(acc[t] / pw[t]))) for t in pw}
            top_log = max(logs.values())
            weights = {t: math.exp(v - top_log) for t, v in logs.items()}
        cache[key] = {t: w for t, w in weights.items() if self.candidate(t)}
        return cache[key]

    def prm(self, sigma, model, beta, n_terms=10, docs=10):
        def hook(qid, q, scores):
            w = self.prm_weights(qid, q, scores, sigma, model, docs)
            best = sorted(w, key=lambda t: (-w[t], t))[:n_terms]
            if not best:
                return scores
            wmax = w[best[0]]
            qwords = self.query_words(q)
            return self.expand(scores, {t: beta * w[t] / wmax for t in best if t not in qwords})
        return hook

    # --- 2: predictors and selective feedback ----------------------------------------------------
    def corpus_score(self, q):
        """v1's BM25F of the whole corpus as one document (no phrase boost)."""
        at, _, ac = self.average
        total, matched = 0.0, 0
        for t in q["terms"]:
            best = 0.0
            for v in t["variants"]:
                plist = self.post.get(v["term"], [])
                if not plist:
                    continue
                cft = sum(x[2][0] for x in plist)
                cfc = sum(x[2][2] for x in plist)
                pseudo = (3 * cft / (1 - 0.5 + 0.5 * self.N) + cfc / (1 - 0.75 + 0.75 * self.N))
                best = max(best, v["weight"] * self.idf(len(plist)) * pseudo / (V1.k1 + pseudo))
            total += best
            matched += best > 0
        return total * (1 + V1.gamma * matched / len(q["terms"]))

    def predictors(self, qid):
        q = self.queries[qid]
        s = [self.first(qid)[d] for d in self.rank(self.first(qid), 100)]
        if not s:
            return dict(NQC=0.0, WIG=0.0, gap=0.0)
        sd = self.corpus_score(q)
        nqc = float(np.std(s)) / sd if sd > 0 else 0.0
        wig = sum(x - sd for x in s[:5]) / len(s[:5]) / math.sqrt(len(q["terms"]))
        gap = (s[0] - s[1]) / s[0] if len(s) > 1 and s[0] > 0 else 0.0
        return dict(NQC=nqc, WIG=wig, gap=gap)

    def selective(self, hook, chosen):
        def h(qid, q, scores):
            return hook(qid, q, scores) if qid in chosen else scores
        return h


def kendall(x, y):
    """Kendall's τ-b (ties counted out), no scipy needed."""
    n, s, tx, ty = len(x), 0, 0, 0
    for i in range(n):
        for j in range(i + 1, n):
            a, b = np.sign(x[i] - x[j]), np.sign(y[i] - y[j])
            s += a * b
            tx += a != 0
            ty += b != 0
    return s / math.sqrt(tx * ty) if tx and ty else 0.0


def main(data, index, positions, *which):
    E = R24(data, index, positions)
    base = E.run_rerank()
    print("v1 (prototype)                            ", summary(*base), flush=True)
    which = which or ("1", "2")
    rows = {}
    if "1" in which:
        for model in (1, 2):
            for sigma in (50, 200):
                for beta in (0.1, 0.3):
                    r = E.run_rerank(E.prm(sigma, model, beta))
                    rows[(model, sigma, beta)] = r
                    print(f"1 PRM{model} F 10 T 10 σ {sigma:3} β {beta:.1f}           ",
                          summary(*r, base), flush=True)
            r = E.run_rerank(E.prm(None, model, 0.1))
            print(f"1 control RM{model} (σ ∞) F 10 T 10 β 0.1       ", summary(*r, base), flush=True)
    if "2" in which:
        qs = list(E.query_ids("even"))
        pred = {qid: E.predictors(qid) for qid in qs}
        feedback = {"Bo1 R 3 T 10 β 0.1": E.bo1(3, 10, 0.1)}
        if rows:
            m, s, b = max((k for k in rows if k[2] == 0.1), key=lambda k: sum(rows[k][0].values()))
            feedback[f"PRM{m} σ {s} β 0.1"] = E.prm(s, m, 0.1)
        else:
            feedback["PRM2 σ 50 β 0.1"] = E.prm(50, 2, 0.1)
        folds = {"A": [q for q in qs if int(q) % 4 == 0], "B": [q for q in qs if int(q) % 4 == 2]}
        full = {name: E.run_rerank(h) for name, h in feedback.items()}
        for name in ("NQC", "WIG", "gap"):
            line = f"2 predictor {name:3}: τ with v1 nDCG@10 all {kendall([pred[q][name] for q in qs], [base[0][q] for q in qs]):+.3f}"
            for f, fq in folds.items():
                line += f" {f} {kendall([pred[q][name] for q in fq], [base[0][q] for q in fq]):+.3f}"
            for fb, r in full.items():
                gain = [r[0][q] - base[0][q] for q in qs]
                line += f"; τ with the gain of {fb} {kendall([pred[q][name] for q in qs], gain):+.3f}"
            print(line, flush=True)
        for fb, h in feedback.items():
            print(f"2 {fb} on every query ", summary(*full[fb], base), flush=True)
            for name in ("NQC", "WIG", "gap"):
                order = sorted(qs, key=lambda q: (-pred[q][name], int(q)))
                for share in (0.25, 0.5):
                    chosen = set(order[:round(share * len(qs))])
                    r = E.run_rerank(E.selective(h, chosen))
                    print(f"2 {fb} on top {int(share * 100)} % by {name:3}", summary(*r, base), flush=True)
            oracle = {q for q in qs if full[fb][0][q] > base[0][q]}
            r = E.run_rerank(E.selective(h, oracle))
            print(f"2 {fb} oracle ({len(oracle)} queries; a bound)", summary(*r, base), flush=True)


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
