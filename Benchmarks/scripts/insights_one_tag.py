#!/usr/bin/env python3
"""Writes a dolphin export of N short decisions and preferences that all share one tag: the
workspace of review 24-a #4, where nearly every pair is a possible conflict found word by word
(titles "Use X Y for the Z layer K" over 12 words; about 48,800 insights fire at 10,000 items).

usage: insights_one_tag.py OUT.json [N]    (N defaults to 10000)
then:  dolphin import OUT.json --workspace DIR && time dolphin insights --workspace DIR
"""
import json, random, sys, uuid

out = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
random.seed(3)
words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu".split()
now = "2026-11-15T10:00:00.000Z"
rng_ids = random.Random(7)
knowledge = [{
    "id": str(uuid.UUID(int=rng_ids.getrandbits(128), version=4)).upper(),
    "kind": random.choice(["decision", "preference"]),
    "title": "Use %s %s for the %s layer %d" % (random.choice(words), random.choice(words), random.choice(words), i % 7),
    "content": "content %d" % i, "source": "user", "tags": ["architecture"], "relationships": [],
    "priority": "normal", "createdAt": now, "updatedAt": now, "revision": 1} for i in range(n)]
workspace = {"schemaVersion": 5, "knowledge": knowledge, "memories": [], "tasks": [], "handoffs": [], "digests": [],
             "conversations": [], "messages": [], "receipts": [], "checkpoints": [],
             "settings": {"assistantName": "Dolphin", "calendarAccessEnabled": False,
                          "knowledgeItemLimit": max(n, 10000), "responseStyle": "balanced"}}
with open(out, "w") as f:
    json.dump({"format": "dolphin-export", "formatVersion": 1, "schemaVersion": 5, "generator": "dolphin 0.1.0",
               "exportedAt": "2026-11-16T00:00:00.000Z", "quarantine": [], "workspace": workspace}, f)
