#!/usr/bin/env python3
"""The whole persisted index of a kept workspace, turned around: document -> terms.

    forward.py WORKSPACE_DIR forward.pkl

Writes, for every document (its `lexical_posting.doc`), the term frequencies of title and
content ({term: (title tf, content tf)}), the content positions of every term (for the sentence
spans of sentences.py) and each term's document frequency. Standard library only; reads the
workspace read-only.
"""
import pickle, sqlite3, sys
sys.path.insert(0, __import__('os').path.join(__import__('os').path.dirname(__import__('os').path.abspath(__file__)), '..'))
from load_index import varints, undelta

db = sqlite3.connect(f"file:{sys.argv[1]}/workspace.sqlite?mode=ro", uri=True)
terms = dict(db.execute("SELECT term_id, term FROM lexical_term"))
tf, cpos, df = {}, {}, {}
for tid, doc, tl, cl, tft, tfg, tfc, blob in db.execute(
        "SELECT term_id, doc, title_length, content_length, title_frequency, tags_frequency, "
        "content_frequency, positions FROM lexical_posting"):
    t = terms[tid]
    df[t] = df.get(t, 0) + 1
    tf.setdefault(doc, {})[t] = (tft, tfc)
    if tfc:
        d = varints(blob, tft + tfg + tfc)
        cpos.setdefault(doc, {})[t] = undelta(d[tft + tfg:])
pickle.dump(dict(tf=tf, cpos=cpos, df=df), open(sys.argv[2], "wb"))
print(f"{len(tf)} documents, {len(df)} terms -> {sys.argv[2]}")
