from exp import *
E = Exp('data.pkl', 'surface.pkl')
base = E.run()
print("v1        ", summary(*base))
stem = E.surf["stem"]
snow = set(open('snowball.txt').read().split())
def surface_sets(qid, q):
    S = [set() for _ in q["terms"]]
    idx = {t["term"]: g for g, t in enumerate(q["terms"])}
    for w in E.surf["qwords"][qid]:
        if w in snow: continue
        g = idx.get(stem.get(w))
        if g is not None: S[g].add(w)
    return S
cache = {}
nt = E.N
avg_t = sum(len(t) for t, c in E.surf["docs"].values()) / nt
avg_c = sum(len(c) for t, c in E.surf["docs"].values()) / nt
class A(Exp): pass
def make(mode, lam):
    def extra(q, qid, per_term, d, p):
        if qid not in cache: cache[qid] = surface_sets(qid, q)
        S = cache[qid]
        tc, cc = E.tcount[d]
        total = 0.0
        for g, forms in enumerate(S):
            if not forms or d not in per_term[g]: continue
            if mode == "mult":
                if any(tc[w] or cc[w] for w in forms):
                    total += lam * per_term[g][d][0]
            elif mode == "multfrac":   # share of the stem's occurrences written as typed
                s_occ = sum(per_term[g][d][2][f] for f in range(0)) if False else None
                ex = sum(tc[w] + cc[w] for w in forms)
                if ex:
                    total += lam * per_term[g][d][0]
            elif mode == "dual":   # Lucene exact + stemmed fields: BM25F of the surface form
                best = 0.0
                for w in forms:
                    tft, tfc = tc[w], cc[w]
                    if not (tft or tfc): continue
                    lt, lc = len(E.surf["docs"][d][0]), len(E.surf["docs"][d][1])
                    pseudo = p.w[0] * tft / (1 - p.b[0] + p.b[0] * lt / avg_t) + p.w[2] * tfc / (1 - p.b[2] + p.b[2] * lc / avg_c)
                    best = max(best, E.idf(E.sdf[w]) * pseudo / (p.k1 + pseudo))
                total += lam * best
        return total
    return extra
for mode in ["mult", "dual"]:
    for lam in [0.05, 0.1, 0.2, 0.3, 0.5]:
        E.extra = make(mode, lam)
        print(f"{mode} λ={lam:<4}", summary(*E.run(), base))
