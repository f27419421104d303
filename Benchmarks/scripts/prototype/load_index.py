#!/usr/bin/env python3
"""Reads a kept `dolphin-bench quality` workspace into a pickle for the offline prototype.

    dolphin-bench quality --keep --dump-queries queries.tsv      # prints the kept path
    load_index.py WORKSPACE_DIR queries.tsv SCIFACT_DIR out.pkl

Loads, for every vocabulary term any dumped query resolves to, its postings straight from the
persisted index (`lexical_posting`: per-field lengths, term frequencies and the LEB128
delta-coded positions of PositionList.swift), the index statistics, the corpus ids of the
knowledge rows (bulk capture stores the corpus in order) and the train qrels. Standard library
only.
"""
import json
import pickle
import sqlite3
import sys


def varints(blob, count):
    values, offset = [], 0
    while len(values) < count and offset < len(blob):
        value, shift = 0, 0
        while offset < len(blob):
            byte = blob[offset]
            offset += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                break
        values.append(value)
    return values


def undelta(deltas):
    out, previous = [], 0
    for i, d in enumerate(deltas):
        previous = d if i == 0 else previous + d
        out.append(previous)
    return out


def main(workspace, dump, data, out):
    db = sqlite3.connect(f"file:{workspace}/workspace.sqlite?mode=ro", uri=True)
    corpus = [json.loads(line) for line in open(f"{data}/corpus.jsonl")]
    rows = db.execute("SELECT rowid, title FROM knowledge ORDER BY rowid").fetchall()
    assert len(rows) == len(corpus), "the workspace must hold exactly the corpus"
    docid = {rowid: doc["_id"] for (rowid, _), doc in zip(rows, corpus)}
    queries = {}
    for line in open(dump):
        if line.strip():
            qid, text = line.rstrip("\n").split("\t", 1)
            queries[qid] = json.loads(text)
    qtext = {o["_id"]: o["text"] for o in map(json.loads, open(f"{data}/queries.jsonl"))}
    qrels = {}
    for i, line in enumerate(open(f"{data}/qrels/train.tsv")):
        if i:
            q, d, r = line.split()
            qrels.setdefault(q, {})[d] = int(r)
    terms = {v["term"] for q in queries.values() for t in q["terms"] for v in t["variants"]}
    # A compound form of adjacent words ("e mail") is read from its parts' postings, as
    # HybridLexicalRanker.adjacentPostings builds it.
    adjacent = {t for t in terms if " " in t}
    terms = (terms - adjacent) | {part for t in adjacent for part in t.split(" ")}
    postings = {}
    for term in sorted(terms):
        row = db.execute("SELECT term_id FROM lexical_term WHERE term = ?", (term,)).fetchone()
        if row is None:
            continue
        plist = []
        for doc, tl, gl, cl, tft, tfg, tfc, blob in db.execute(
                "SELECT doc, title_length, tags_length, content_length, title_frequency, "
                "tags_frequency, content_frequency, positions FROM lexical_posting "
                "WHERE term_id = ? ORDER BY doc", row):
            d = varints(blob, tft + tfg + tfc)
            plist.append((doc, (tl, gl, cl), (tft, tfg, tfc),
                          (undelta(d[:tft]), undelta(d[tft:tft + tfg]), undelta(d[tft + tfg:]))))
        postings[term] = plist
    for term in sorted(adjacent):
        lists = [dict((p[0], p) for p in postings.get(part, [])) for part in term.split(" ")]
        plist = []
        for doc in sorted(set.intersection(*(set(l) for l in lists))):
            starts = tuple(sorted(set(lists[0][doc][3][f]).intersection(
                *({x - i for x in l[doc][3][f]} for i, l in enumerate(lists) if i)))
                for f in range(3))
            if any(starts):
                plist.append((doc, lists[0][doc][1], tuple(len(s) for s in starts), starts))
        postings[term] = plist
    stats = db.execute("SELECT document_count, title_length, tags_length, content_length "
                       "FROM lexical_stats").fetchone()
    pickle.dump(dict(docid=docid, queries=queries, qtext=qtext, qrels=qrels, post=postings,
                     stats=stats, titles=dict(rows)), open(out, "wb"))
    print(f"{len(postings)} terms, {stats[0]} documents -> {out}")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
