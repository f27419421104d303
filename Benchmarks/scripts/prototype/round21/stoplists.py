#!/usr/bin/env python3
"""Writes snowball.txt and smart.txt (the word lists of EnglishStopWords.swift) to the current
directory, for smart_stoplist.py and exact_form.py.

    stoplists.py Sources/KnowledgeEngine/Retrieval/EnglishStopWords.swift
"""
import re, sys
s = open(sys.argv[1]).read()
lists = {m.group(1): re.findall(r'"([a-z]+)"', m.group(2))
         for m in re.finditer(r"static let (\w+): Set<String> = \[(.*?)\]", s, re.S)}
open("snowball.txt", "w").write(" ".join(lists["snowball"]))
open("smart.txt", "w").write(" ".join(lists["smart"]))
