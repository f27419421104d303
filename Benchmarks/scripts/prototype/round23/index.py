#!/usr/bin/env python3
"""The whole persisted index of a kept workspace, turned around, with field lengths.

    index.py WORKSPACE_DIR EnglishStopWords.swift index.pkl

Writes, for every document (its `lexical_posting.doc`), the title and content term frequencies
({term: (title tf, content tf)}) and field lengths (title, content; the stored lengths, which
leave out camelCase parts and whole numbers as the ranker does), each term's document and
collection frequency, and the Porter stems (SQLite FTS5's `porter`, equal to the index's since
tokenizer version 5) of the Snowball stop list of EnglishStopWords.swift, which the expansion
and translation models leave out of their candidate words. Reads the workspace read-only.
Round 22's forward.py holds the same frequencies without the lengths.
"""
import pickle, re, sqlite3, sys


def stop_stems(swift_file):
    text = open(swift_file).read()
    lists = {m.group(1): re.findall(r'"([a-z]+)"', m.group(2))
             for m in re.finditer(r"static let (\w+): Set<String> = \[(.*?)\]", text, re.S)}
    words = sorted(set(lists["snowball"]))
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(w, tokenize='porter unicode61 remove_diacritics 2')")
    db.executemany("INSERT INTO t(rowid, w) VALUES (?, ?)", enumerate(words))
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    return set(words) | {term for term, in db.execute("SELECT term FROM v")}


def main(workspace, swift_file, out):
    db = sqlite3.connect(f"file:{workspace}/workspace.sqlite?mode=ro", uri=True)
    terms = dict(db.execute("SELECT term_id, term FROM lexical_term"))
    tf, lengths, df, cf, tags = {}, {}, {}, {}, 0
    for tid, doc, tl, gl, cl, tft, tfg, tfc in db.execute(
            "SELECT term_id, doc, title_length, tags_length, content_length, title_frequency, "
            "tags_frequency, content_frequency FROM lexical_posting"):
        t = terms[tid]
        df[t] = df.get(t, 0) + 1
        cf[t] = cf.get(t, 0) + tft + tfc
        tf.setdefault(doc, {})[t] = (tft, tfc)
        lengths[doc] = (tl, cl)
        tags += tfg + gl
    assert tags == 0, "SciFact has no tags; the models below read title and content only"
    stops = stop_stems(swift_file)
    pickle.dump(dict(tf=tf, lengths=lengths, df=df, cf=cf, stops=stops), open(out, "wb"))
    print(f"{len(tf)} documents, {len(df)} terms, {len(stops)} stop words and stems -> {out}")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
