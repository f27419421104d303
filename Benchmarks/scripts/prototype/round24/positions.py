#!/usr/bin/env python3
"""Every document's terms by position, from the persisted index of a kept workspace.

    positions.py WORKSPACE_DIR positions.pkl

Writes {doc: (title, content)}, each a list of (position, term) sorted by position, decoded from
`lexical_posting.positions` (the LEB128 delta-coded positions of PositionList.swift, as
`../load_index.py` decodes them): the same terms, stems and positions the ranker indexed, so the
positional models of round 24 need no second tokenizer. Several terms can share a position (the
parts of a camelCase word, for instance); all are kept. Reads the workspace read-only.
"""
import os, pickle, sqlite3, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from load_index import varints, undelta


def main(workspace, out):
    db = sqlite3.connect(f"file:{workspace}/workspace.sqlite?mode=ro", uri=True)
    terms = dict(db.execute("SELECT term_id, term FROM lexical_term"))
    docs, shared = {}, 0
    for tid, doc, tft, tfg, tfc, blob in db.execute(
            "SELECT term_id, doc, title_frequency, tags_frequency, content_frequency, positions "
            "FROM lexical_posting"):
        d = varints(blob, tft + tfg + tfc)
        assert tfg == 0, "SciFact has no tags"
        title, content = docs.setdefault(doc, ([], []))
        t = terms[tid]
        title.extend((p, t) for p in undelta(d[:tft]))
        content.extend((p, t) for p in undelta(d[tft + tfg:]))
    for title, content in docs.values():
        title.sort(); content.sort()
        shared += len(content) - len({p for p, _ in content})
    pickle.dump(docs, open(out, "wb"))
    n = sum(len(t) + len(c) for t, c in docs.values())
    print(f"{len(docs)} documents, {n} term occurrences ({shared} in abstracts share a position "
          f"with another term) -> {out}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
