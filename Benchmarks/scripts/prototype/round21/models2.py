import math, pickle, sys
from exp import *
E = Exp('data.pkl')
S = pickle.load(open('stats.pkl', 'rb'))
scope, cf = S["scope"], S["cf"]
N = E.N
base = E.run()
print("v1                  ", summary(*base), flush=True)
which = sys.argv[1]
if which == "ib":
    # Clinchant & Gaussier, SIGIR 2010, information-based models: LGD and SPL, DFR normalisation 2
    for model in ["LGD", "SPL"]:
        for c in [0.5, 1.0, 2.0]:
            for delta in [0.25, 0.0]:
                def per_term(q, p=V1, model=model, c=c):
                    out = []
                    for g, t in enumerate(q["terms"]):
                        best = {}
                        for v in t["variants"]:
                            plist = E.post.get(v["term"], [])
                            if not plist: continue
                            lam = len(plist) / N
                            for doc, lengths, tfs, positions in plist:
                                tfn = 0.0
                                for f in range(3):
                                    if tfs[f]:
                                        tfn += p.w[f] * tfs[f] * math.log2(1 + c * E.average[f] / max(1, lengths[f]))
                                if model == "LGD":
                                    s = math.log((tfn + lam) / lam)
                                else:
                                    s = -math.log((lam ** (tfn / (tfn + 1)) - lam) / (1 - lam)) if lam < 1 else 0
                                s *= v["weight"]
                                if doc not in best or s > best[doc][0]:
                                    best[doc] = (s, positions, lengths, v["weight"] == 1)
                        out.append(best)
                    return out
                E.per_term = per_term
                P = Params(V1); P["delta"] = delta
                print(f"{model} c={c} δ={delta:<4}        ", summary(*E.run(P), base), flush=True)
if which == "scope":
    avgS = sum(s[1] for s in scope.values()) / N
    for bs in [0.5, 0.75, 1.0]:
        def vs(wi, lengths, tfs, p, doc, bs=bs):
            pseudo = 0.0
            st, sc, tl, cl = scope[doc]
            for f in range(3):
                if tfs[f]:
                    if f == 2 and sc:
                        norm = (1 - bs + bs * sc / avgS)
                    else:
                        avg = E.average[f]; norm = (1 - p.b[f] + p.b[f] * lengths[f] / avg)
                    pseudo += p.w[f] * tfs[f] / norm
            return wi * pseudo / (p.k1 + pseudo)
        E.variant_score = vs
        print(f"scope-only length bs={bs}  ", summary(*E.run(), base), flush=True)
