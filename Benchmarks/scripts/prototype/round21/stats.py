#!/usr/bin/env python3
"""Per-document distinct-term counts and per-term collection statistics of a kept workspace.

    stats.py WORKSPACE_DIR stats.pkl
"""
import pickle, sqlite3, sys
db = sqlite3.connect(f"file:{sys.argv[1]}/workspace.sqlite?mode=ro", uri=True)
scope = {doc: (st, sc, tl, cl) for doc, st, sc, tl, cl in db.execute(
    "SELECT doc, SUM(title_frequency>0), SUM(content_frequency>0), MAX(title_length), "
    "MAX(content_length) FROM lexical_posting GROUP BY doc")}
cf = {term: row for term, *row in db.execute(
    "SELECT t.term, SUM(p.content_frequency), SUM(p.title_frequency), COUNT(*), "
    "SUM(p.title_frequency>0), SUM(p.content_frequency>0) FROM lexical_posting p "
    "JOIN lexical_term t ON t.term_id = p.term_id GROUP BY p.term_id")}
pickle.dump(dict(scope=scope, cf=cf), open(sys.argv[2], "wb"))
