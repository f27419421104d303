from exp import *
from collections import Counter
E = Exp('data.pkl', 'surface.pkl')
stem = E.surf["stem"]
base = E.run()
smart = {w for w in open('smart.txt').read().split() if "'" not in w and len(w) > 1}
snow = set(open('snowball.txt').read().split())
dropped_words = Counter(); per_word = {}
def filt(qid, q, L):
    idx = {t["term"]: g for g, t in enumerate(q["terms"])}
    forms = {}
    for w in E.surf["qwords"][qid]:
        g = idx.get(stem.get(w))
        if g is not None: forms.setdefault(g, set()).add(w)
    drop = {g for g, ws in forms.items() if ws and all(w in L for w in ws)}
    keep = [g for g in range(len(q["terms"])) if g not in drop]
    if not keep or not drop: return q, []
    remap = {g: i for i, g in enumerate(keep)}
    pairs = [[remap[a], remap[c], gap] for a, c, gap in q["pairs"] if a in remap and c in remap]
    return dict(terms=[q["terms"][g] for g in keep], pairs=pairs), sorted(w for g in drop for w in forms[g])
saved = E.queries; new = {}; dw = {}
for k, q in saved.items():
    new[k], dw[k] = filt(k, q, smart)
E.queries = new
nd, rc = E.run()
for q in sorted(nd, key=lambda q: nd[q]-base[0][q]):
    if abs(nd[q]-base[0][q]) > 1e-9:
        print(q, "A" if int(q)%4==0 else "B", f"{base[0][q]:.3f} -> {nd[q]:.3f}", dw[q], "|", E.qtext[q][:90])
c = Counter(w for k in dw for w in dw[k]); print(c.most_common(60))
