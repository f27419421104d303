# Builds Tests/SynthCorpusTests/Fixtures/unicode-corpus.jsonl: a small corpus full of the text
# that SciFact lacks (KELVIN SIGN, dotted capital I, decomposed accents, astral scalars, CRLF-free
# control characters, NBSP, runs of spaces), with enough distinct title words for synth.py.
import json, random
r = random.Random(7)
odd = ["\u212aelvin", "\u0130stanbul", "Cafe\u0301", "na\u00efve", "\U0001F9EC DNA", "\u00a0nbsp", "\u212b\u212bngstrom",
       "tab\there", "\u03a3\u0391\u03a3", "x\u2028y", "emoji\U0001F600s", "Stra\u00dfe", "\u0130\u0130\u0130\u0130abcd", "\u212a\u212a\u212a\u212a"]
syll = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "xe", "zu", "po", "qi"]
def word():
    return "".join(r.choice(syll) for _ in range(r.randint(2, 4)))
def sentence():
    ws = [r.choice([word(), word(), word(), r.choice(odd), str(r.randint(1, 99))]) for _ in range(r.randint(3, 14))]
    return " ".join(ws) + r.choice([".", "!", "?", ".", "", ";"])
docs = []
for i in range(300):
    title = " ".join([word().capitalize(), word(), r.choice(odd), word()])
    if i == 5: title = "In"
    if i == 6: title = "x" * 230 + " \u212aey"
    text = r.choice([" ", "  ", " ", "\u00a0"]).join(sentence() for _ in range(r.randint(1, 12)))
    if i == 7: text = ""
    docs.append({"_id": str(i), "title": title, "text": text, "metadata": {}})
# Run from this folder: python3 make_unicode_corpus.py
with open("unicode-corpus.jsonl", "w", encoding="utf-8") as f:
    for d in docs:
        f.write(json.dumps(d, ensure_ascii=(len(d["title"]) % 2 == 0)) + "\n")
