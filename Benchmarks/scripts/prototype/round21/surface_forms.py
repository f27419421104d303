"""Surface (unstemmed) forms of documents and queries for the prototype, stemmed through
SQLite FTS5's porter tokenizer (our stems equal its on SciFact's ASCII words since tokenizer v5)."""
import json, pickle, re, sqlite3, sys, unicodedata

WORD = re.compile(r"[a-z0-9]+")

def fold(text):
    text = unicodedata.normalize("NFKD", text)
    return "".join(c for c in text if not unicodedata.combining(c)).lower()

def words(text):
    return WORD.findall(fold(text).replace("\u2019", "'").replace("'s ", " ").replace("'", ""))

def main(pkl, data, out):
    P = pickle.load(open(pkl, "rb"))
    corpus = {o["_id"]: o for o in map(json.loads, open(f"{data}/corpus.jsonl"))}
    docs = {}
    for row, cid in P["docid"].items():
        o = corpus[cid]
        docs[row] = (words(o.get("title", "")), words(o.get("text", "")))
    qwords = {q: words(t) for q, t in P["qtext"].items()}
    vocab = sorted({w for t, c in docs.values() for w in t + c} | {w for ws in qwords.values() for w in ws})
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(w, tokenize='porter unicode61 remove_diacritics 2')")
    db.executemany("INSERT INTO t(rowid, w) VALUES (?, ?)", enumerate(vocab))
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    stem = {}
    for term, doc in db.execute("SELECT term, doc FROM v"):
        stem[vocab[doc]] = term
    pickle.dump(dict(docs=docs, qwords=qwords, stem=stem), open(out, "wb"))
    print(len(docs), "docs,", len(vocab), "words")

if __name__ == "__main__":
    main(*sys.argv[1:])
