#!/usr/bin/env python3
"""Sentence spans of every abstract, in the positions of the persisted index.

    sentences.py forward.pkl SCIFACT_DIR sentences.pkl

Tokenizer version 3 on leaves one position free at each break (Tokenizer.swift, rule 6: `.`,
`,`, `;`, `:`, `!`, `?`, `…` before white space, not after one letter or a listed abbreviation;
blank lines; list items). The index keeps no punctuation, so which break ends a *sentence* is
read from the stored text: the separators between runs are re-read here with the same rule, in
order, and the k-th break found matches the k-th free position of the document's content. A
break is a sentence end when its separators hold `.`, `?` or `!` followed by white space and the
next run starts with a capital (or the break is a blank line). A document whose break count does
not agree is kept as one sentence, and counted (on SciFact: 1 of 5,183). Writes
{doc: [(first position, last position), …]}.
"""
import json, pickle, sys, unicodedata

ABBR = {"al", "approx", "ca", "cf", "corp", "dept", "dr", "eq", "eqs", "esp", "est", "excl",
        "fig", "figs", "inc", "incl", "jr", "ltd", "messrs", "mr", "mrs", "pp", "prof", "ref", "refs",
        "resp", "sr", "st", "viz", "vol", "vs"}
CAP_ABBR = {"adm", "apr", "aug", "capt", "co", "col", "cpl", "dec", "feb", "ft", "gen", "gov", "hon",
            "jan", "jul", "jun", "lt", "maj", "mar", "ms", "mt", "nov", "oct", "pres", "rep", "rev",
            "sen", "sep", "sept", "sgt"}
ENDINGS = {"s", "t", "d", "m", "ll", "re", "ve"}
APOS = {"'", "\u2019", "\u2018", "\uff07", "`"}


def is_run_char(c):
    return c.isalnum() or unicodedata.category(c) in ("Mn", "Mc", "Me", "Cf")


def is_abbreviation(run):
    if not run.isascii() or not run.isalpha():
        return False
    if len(run) == 1:
        return True
    low = run.lower()
    if low in ABBR:
        return True
    return low in CAP_ABBR and run[0].isupper() and run[1:].islower()


def regions(text):
    """[(run, separators before it)] in order."""
    out, i, n, sep = [], 0, len(text), ""
    while i < n:
        if is_run_char(text[i]):
            j = i
            while j < n and is_run_char(text[j]):
                j += 1
            out.append((text[i:j], sep))
            sep, i = "", j
        else:
            sep += text[i]
            i += 1
    return out


def breaks(text):
    """For each break between two runs that take positions, whether it ends a sentence."""
    runs = regions(text)
    result, prev, pending = [], None, ""
    for k, (run, sep) in enumerate(runs):
        # Rule 7: an English ending glued by one apostrophe to a run not ending in a digit takes
        # no position; its separators go on with the next ones.
        if (prev is not None and run.lower() in ENDINGS and sep in APOS
                and not prev[-1].isdigit()):
            pending += sep
            continue
        seps = pending + sep
        pending = ""
        if prev is not None:
            brk, after_punct, lines, end = False, False, 0, False
            for idx, c in enumerate(seps):
                o = ord(c)
                if c == ".":
                    if not is_abbreviation(prev):
                        after_punct = True
                        end = end or True
                elif c in ",;:!?\u2026":
                    after_punct = True
                elif c in "-*+#>|\u2022":
                    if lines > 0:
                        brk = True
                elif c in "\n\x0b\x0c\x85\u2028":
                    lines += 1
                elif c == "\r":
                    if idx + 1 >= len(seps) or seps[idx + 1] != "\n":
                        lines += 1
                elif c == "\u2029":
                    brk = True
                elif c in " \t":
                    if after_punct:
                        brk = True
                elif o >= 0x80:
                    if unicodedata.category(c) == "Po" and c in "\u3002\u3001\uff0c\u061f\u0964\uff0e\uff01\uff1f":
                        brk = True
                    elif after_punct and c.isspace():
                        brk = True
                if lines >= 2 or (lines == 1 and after_punct):
                    brk = True
                if brk:
                    break
            if brk:
                stop = any(c in ".?!" and (c != "." or not is_abbreviation(prev))
                           and i + 1 < len(seps) and seps[i + 1].isspace()
                           for i, c in enumerate(seps))
                result.append((stop and run[0].isupper()) or "\n\n" in seps)
        prev = run
    return result


def main(forward, data, out):
    fw = pickle.load(open(forward, "rb"))
    corpus = [json.loads(line) for line in open(f"{data}/corpus.jsonl")]
    docs = sorted(fw["tf"])  # bulk capture stores the corpus in order (load_index.py)
    spans, agree, total = {}, 0, 0
    for doc, rec in zip(docs, corpus):
        positions = sorted({p for ps in fw["cpos"].get(doc, {}).values() for p in ps})
        if not positions:
            spans[doc] = []
            continue
        total += 1
        present = set(positions)
        gaps = [p for p in range(positions[0], positions[-1]) if p not in present]
        found = breaks(rec["text"])
        if len(found) == len(gaps):
            agree += 1
            cuts = [g for g, s in zip(gaps, found) if s]
        else:
            cuts = []
        bounds, start = [], positions[0]
        for g in cuts:
            bounds.append((start, g - 1))
            start = g + 1
        bounds.append((start, positions[-1]))
        spans[doc] = bounds
    n = sum(len(b) for b in spans.values())
    pickle.dump(spans, open(out, "wb"))
    print(f"{agree}/{total} abstracts aligned; {n} sentences ({n / max(1, total):.1f} per abstract) -> {out}")


if __name__ == "__main__":
    main(*sys.argv[1:])
