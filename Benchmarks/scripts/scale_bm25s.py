#!/usr/bin/env python3
"""bm25s query-latency scaling anchor on the synthetic knowledge items (shared/bench/synth.py).

The same items and queries as shared/bench/scale_fts5.py and `dolphin-bench scale`: items
1k/10k/100k (prefixes of one stream), text = title + content + tags; 'claims' = the first 200
SciFact queries with train qrels (by numeric id), 'short' = synth.short_queries. bm25s 0.3
(method lucene, k1=1.5, b=0.75) with its English stop words and PyStemmer's English stemmer,
as bench.py's best bm25s run; k = 10; one thread.

Per query: one warm-up pass, then --repeats timed passes (tokenize + retrieve); the per-query
median is kept; p50/p95 are over the 200 medians (scale_fts5.py's protocol). Build time is
tokenizing plus indexing. Peak RSS is this process's ru_maxrss after each size (sizes run in
ascending order, so it is the peak so far).

    VENV/bin/python scale_bm25s.py [--shared DIR] [--sizes 1000,10000,100000] [--out FILE]
"""
import argparse, json, os, resource, statistics, sys, time

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../shared"))
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", default="results_bm25s_scale.json")
    a = ap.parse_args()
    bench = os.path.join(os.path.abspath(a.shared), "bench")
    sys.path.insert(0, bench)
    import synth
    from bench import load, DEFAULT_DATA
    import bm25s
    import Stemmer

    sizes = sorted(int(x) for x in a.sizes.split(","))
    src = synth.Source(os.path.join(DEFAULT_DATA, "corpus.jsonl"))
    items = list(synth.items(src, max(sizes)))
    _, _, queries, _ = load(DEFAULT_DATA)
    qsets = {"claims": queries[:200], "short": synth.short_queries(src)}
    stemmer = Stemmer.Stemmer("english")
    res = {"_meta": dict(bm25s=bm25s.__version__, repeats=a.repeats, method="lucene k1=1.5 b=0.75",
                         tokenizer="bm25s.tokenize stopwords=en, PyStemmer english",
                         fingerprint={n: synth.fingerprint(items[:n]) for n in sizes})}
    for n in sizes:
        texts = [" ".join([it["title"], it["content"], " ".join(it["tags"])]) for it in items[:n]]
        t = time.perf_counter()
        tokens = bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False)
        retriever = bm25s.BM25()
        retriever.index(tokens, show_progress=False)
        build = time.perf_counter() - t
        row = dict(items=n, build_s=build)

        def one(q):
            qt = bm25s.tokenize([q], stopwords="en", stemmer=stemmer, return_ids=False, show_progress=False)
            if not qt[0]:
                return []
            return retriever.retrieve(qt, k=min(10, n), show_progress=False, n_threads=1)

        for name, qs in qsets.items():
            for q in qs:
                one(q)
            passes = []
            for _ in range(a.repeats):
                ns = []
                for q in qs:
                    t0 = time.perf_counter_ns()
                    one(q)
                    ns.append(time.perf_counter_ns() - t0)
                passes.append(ns)
            per_q = np.array([statistics.median(x) for x in zip(*passes)]) / 1e6
            row[name] = dict(p50_ms=float(np.percentile(per_q, 50)), p95_ms=float(np.percentile(per_q, 95)),
                             mean_ms=float(per_q.mean()), max_ms=float(per_q.max()))
        row["max_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        row["loadavg"] = open("/proc/loadavg").read().split()[:3]
        res[str(n)] = row
        print(json.dumps(row), flush=True)
        del retriever, tokens, texts
    json.dump(res, open(a.out, "w"), indent=1)
    print("wrote", a.out)


if __name__ == "__main__":
    main()
