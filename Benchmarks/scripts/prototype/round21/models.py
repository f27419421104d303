import math, pickle, sys
from exp import *
E = Exp('data.pkl')
S = pickle.load(open('stats.pkl', 'rb'))
scope, cf = S["scope"], S["cf"]
N = E.N
base = E.run()
print("v1                  ", summary(*base), flush=True)
which = sys.argv[1]
orig_vs = Exp.variant_score
def exact_term(t):
    for v in t["variants"]:
        if v["weight"] == 1 and v["term"] in cf: return v["term"]
    return None

if which == "bm25l":
    for delta in [0.1, 0.25, 0.5]:
        def vs(wi, lengths, tfs, p, doc, delta=delta):
            pseudo = 0.0
            for f in range(3):
                if tfs[f]:
                    avg = E.average[f]; norm = (1 - p.b[f] + p.b[f] * lengths[f] / avg) if avg > 0 else 1
                    pseudo += p.w[f] * tfs[f] / norm
            c = pseudo + delta
            return wi * c / (p.k1 + c)
        E.variant_score = vs
        print(f"BM25L δ={delta:<4}          ", summary(*E.run(), base), flush=True)

if which == "dismax":
    for tb in [1, 2, 3]:
        for tie in [0.0, 0.1, 0.3, 1.0]:
            def vs(wi, lengths, tfs, p, doc, tb=tb, tie=tie):
                s = []
                for f, boost in ((0, tb), (2, 1)):
                    if tfs[f]:
                        avg = E.average[f]; norm = (1 - p.b[f] + p.b[f] * lengths[f] / avg)
                        x = tfs[f] / norm
                        s.append(boost * wi * x / (p.k1 + x))
                if not s: return 0.0
                m = max(s); return m + tie * (sum(s) - m)
            E.variant_score = vs
            print(f"DisMax title={tb} tie={tie:<4}", summary(*E.run(), base), flush=True)

if which == "fieldidf":
    # BM25F IDF from field-weighted document frequency: df_w = Σ_f w_f df_f / Σ_f w_f
    for mode in ["weighted", "content", "max"]:
        def idf_of(term, wdf):
            c, t, df, dft, dfc = cf[term]
            if mode == "weighted": d = (3 * dft + dfc) / 4
            elif mode == "content": d = dfc if dfc else df
            else: d = max(dft, dfc)
            return math.log(1 + (N - d + 0.5) / (d + 0.5))
        def per_term(q, p=V1, mode=mode):
            out = []
            for g, t in enumerate(q["terms"]):
                best = {}
                for v in t["variants"]:
                    plist = E.post.get(v["term"], [])
                    idf = idf_of(v["term"], len(plist)) if v["term"] in cf else E.idf(len(plist))
                    wi = idf * v["weight"]
                    for doc, lengths, tfs, positions in plist:
                        s = E.variant_score(wi, lengths, tfs, p, doc)
                        if doc not in best or s > best[doc][0]:
                            best[doc] = (s, positions, lengths, v["weight"] == 1)
                out.append(best)
            return out
        E.per_term = per_term
        print(f"field IDF {mode:<9}     ", summary(*E.run(), base), flush=True)

if which == "burst":
    # Kwok 1996 average term frequency; Church & Gale 1995 residual IDF
    def avtf(term):
        c, t, df, dft, dfc = cf[term]; return (c + t) / df
    def ridf(term):
        c, t, df, dft, dfc = cf[term]
        lam = (c + t) / N
        return math.log2(N / df) + math.log2(1 - math.exp(-lam))
    for kind, alphas in (("avtf", [0.25, 0.5, 1.0]), ("ridf", [0.1, 0.25, 0.5])):
        for a in alphas:
            def tw(q, g, p, kind=kind, a=a):
                term = exact_term(q["terms"][g])
                if term is None: return 1.0
                return avtf(term) ** a if kind == "avtf" else 1 + a * ridf(term)
            E.term_weight = tw
            print(f"{kind} α={a:<4}             ", summary(*E.run(), base), flush=True)

if which == "stopdf":
    # Lo, He & Ounis 2005 style collection-statistics stop list, applied to the query only
    for theta in [0.05, 0.1, 0.2, 0.3]:
        def q_filter(q, theta=theta):
            keep = [g for g, t in enumerate(q["terms"])
                    if not (exact_term(t) and cf[exact_term(t)][2] / N > theta)]
            if not keep or len(keep) == len(q["terms"]): return q
            remap = {g: i for i, g in enumerate(keep)}
            # phrase pairs over dropped terms are dropped (their positions still count in gaps)
            pairs = [[remap[a], remap[c], gap] for a, c, gap in q["pairs"] if a in remap and c in remap]
            return dict(terms=[q["terms"][g] for g in keep], pairs=pairs)
        saved = E.queries
        E.queries = {k: q_filter(q) for k, q in saved.items()}
        print(f"query stop df/N>{theta:<4}     ", summary(*E.run(), base), flush=True)
        E.queries = saved

if which == "verbosity":
    # Na 2015 two-stage length normalisation on the content field: verbosity then scope
    avgS = sum(s[1] for s in scope.values()) / N
    avgV = sum((s[3] / s[1]) if s[1] else 0 for s in scope.values()) / N
    for bv in [0.25, 0.5, 1.0]:
        for bs in [0.5, 0.75]:
            def vs(wi, lengths, tfs, p, doc, bv=bv, bs=bs):
                pseudo = 0.0
                st, sc, tl, cl = scope[doc]
                for f in range(3):
                    if tfs[f]:
                        if f == 2 and sc:
                            V = lengths[2] / sc
                            norm = (1 - bv + bv * V / avgV) * (1 - bs + bs * sc / avgS)
                        else:
                            avg = E.average[f]; norm = (1 - p.b[f] + p.b[f] * lengths[f] / avg)
                        pseudo += p.w[f] * tfs[f] / norm
                return wi * pseudo / (p.k1 + pseudo)
            E.variant_score = vs
            print(f"verbosity bv={bv} bs={bs}   ", summary(*E.run(), base), flush=True)
