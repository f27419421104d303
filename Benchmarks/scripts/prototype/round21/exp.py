import math, pickle, sys
from collections import Counter
sys.path.insert(0, __import__('os').path.join(__import__('os').path.dirname(__import__('os').path.abspath(__file__)), '..'))
from v1 import Prototype, Params, V1

class Exp(Prototype):
    def __init__(self, path, surface=None):
        super().__init__(path)
        self.surf = pickle.load(open(surface, "rb")) if surface else None
        if self.surf:
            self.tcount = {d: (Counter(t), Counter(c)) for d, (t, c) in self.surf["docs"].items()}
            self.sdf = Counter()
            for d, (t, c) in self.tcount.items():
                for w in set(t) | set(c): self.sdf[w] += 1

    # --- hooks -------------------------------------------------------------
    def variant_score(self, weight_idf, lengths, tfs, p, doc):
        pseudo = 0.0
        for f in range(3):
            if tfs[f]:
                avg = self.average[f]
                L = lengths[f]
                norm = (1 - p.b[f] + p.b[f] * L / avg) if avg > 0 else 1
                pseudo += p.w[f] * tfs[f] / norm
        return weight_idf * pseudo / (p.k1 + pseudo)

    def term_weight(self, q, g, p):
        return 1.0

    def per_term(self, q, p=V1):
        out = []
        for g, t in enumerate(q["terms"]):
            tw = self.term_weight(q, g, p)
            best = {}
            for v in t["variants"]:
                plist = self.post.get(v["term"], [])
                wi = self.idf(len(plist)) * v["weight"] * tw
                for doc, lengths, tfs, positions in plist:
                    s = self.variant_score(wi, lengths, tfs, p, doc)
                    if doc not in best or s > best[doc][0]:
                        best[doc] = (s, positions, lengths, v["weight"] == 1)
            out.append(best)
        return out

    def extra(self, q, qid, per_term, d, p):
        return 0.0

    def score_query(self, q, p=V1, qid=None):
        per_term = self.per_term(q, p)
        bound = self.bounds(q)
        scores = {}
        for d in set().union(*per_term):
            s, base, phrase, matched = self.parts(q, per_term, bound, d, p)
            scores[d] = s + self.extra(q, qid, per_term, d, p) * (1 + p.gamma * len(matched) / len(q["terms"]))
        return scores

    def run(self, p=V1, split="even"):
        nd, rc = {}, {}
        for qid in self.query_ids(split):
            q = self.queries[qid]
            scores = self.score_query(q, p, qid) if q["terms"] else {}
            ranking = [self.docid[d] for d in self.rank(scores)]
            rel = self.qrels[qid]
            nd[qid] = self.ndcg(ranking, rel)
            rc[qid] = len(set(ranking[:100]) & {d for d, r in rel.items() if r > 0}) / max(1, sum(1 for r in rel.values() if r > 0))
        return nd, rc

def summary(nd, rc, base=None):
    A = [q for q in nd if int(q) % 4 == 0]; B = [q for q in nd if int(q) % 4 == 2]
    m = lambda qs, d: sum(d[q] for q in qs) / len(qs)
    s = f"all {m(list(nd), nd):.4f}  A {m(A, nd):.4f}  B {m(B, nd):.4f}  R@100 {m(list(rc), rc):.4f}"
    if base:
        bn = base[0]
        s += f"   Δ all {m(list(nd), nd)-m(list(bn), bn):+.4f} A {m(A, nd)-m(A, bn):+.4f} B {m(B, nd)-m(B, bn):+.4f}"
        s += f"  changed {sum(1 for q in nd if abs(nd[q]-bn[q])>1e-9)}"
    return s
