"""Writes a dolphin export (format 1) of N synthetic knowledge items (shared/bench/synth.py),
with deterministic ids and dates, every tenth item related to the one before it, and the
item limit raised so that it can be imported on top of a small workspace."""
import json, os, sys, uuid, importlib.util
# <repository>/../shared, as the other benchmarks find it.
shared = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../../shared")
spec = importlib.util.spec_from_file_location("synth", os.path.join(shared, "bench/synth.py"))
synth = importlib.util.module_from_spec(spec); spec.loader.exec_module(synth)
n = int(sys.argv[1]); out = sys.argv[2]
src = synth.Source(os.path.join(shared, "data/scifact/corpus.jsonl"))
kinds = ["fact", "decision", "goal", "preference", "context", "insight", "code"]
ids = [str(uuid.UUID(int=(0x5C1FAC7 << 64) | i)).upper() for i in range(n)]
knowledge = []
for i, it in enumerate(synth.items(src, n)):
    t = "2026-01-01T00:00:%02d.%03dZ" % (i // 1000 % 60, i % 1000)
    rel = [{"kind": "relatesTo", "targetID": ids[i - 1]}] if i % 10 == 9 else []
    knowledge.append({"content": it["content"], "createdAt": t, "id": ids[i], "kind": kinds[i % 7],
        "priority": "normal", "relationships": rel, "revision": 1, "source": "import",
        "tags": it["tags"], "title": it["title"], "updatedAt": t})
doc = {"exportedAt": "2026-01-02T00:00:00.000Z", "format": "dolphin-export", "formatVersion": 1,
  "generator": "make_export.py", "quarantine": [], "schemaVersion": 5,
  "workspace": {"checkpoints": [], "conversations": [], "digests": [], "handoffs": [],
    "knowledge": knowledge, "memories": [], "messages": [], "receipts": [], "schemaVersion": 5,
    "settings": {"assistantName": "Dolphin", "calendarAccessEnabled": False,
                 "knowledgeItemLimit": 100000, "responseStyle": "balanced"}, "tasks": []}}
json.dump(doc, open(out, "w"), sort_keys=True)
