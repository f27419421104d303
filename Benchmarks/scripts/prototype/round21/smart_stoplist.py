from exp import *
E = Exp('data.pkl', 'surface.pkl')
stem = E.surf["stem"]
base = E.run()
print("v1                  ", summary(*base), flush=True)
smart = {w for w in open('smart.txt').read().split() if "'" not in w}
def filt(qid, q, L):
    idx = {t["term"]: g for g, t in enumerate(q["terms"])}
    forms = {}
    for w in E.surf["qwords"][qid]:
        g = idx.get(stem.get(w))
        if g is not None: forms.setdefault(g, set()).add(w)
    drop = {g for g, ws in forms.items() if ws and all(w in L for w in ws)}
    keep = [g for g in range(len(q["terms"])) if g not in drop]
    if not keep or not drop: return q, 0
    remap = {g: i for i, g in enumerate(keep)}
    pairs = [[remap[a], remap[c], gap] for a, c, gap in q["pairs"] if a in remap and c in remap]
    return dict(terms=[q["terms"][g] for g in keep], pairs=pairs), len(drop)
for name, L in (("SMART", smart), ("SMART, words of 2+ letters", {w for w in smart if len(w) > 1})):
    saved = E.queries; new = {}; dropped = 0
    for k, q in saved.items():
        new[k], n = filt(k, q, L) if int(k) % 2 == 0 else (q, 0); dropped += n
    E.queries = new
    print(f"{name:<26}", summary(*E.run(), base), "terms dropped", dropped, flush=True)
    E.queries = saved
