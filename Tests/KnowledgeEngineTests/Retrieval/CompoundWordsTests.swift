import Foundation
import Testing

@_spi(Benchmarking) @testable import KnowledgeEngine

/// Compound words written closed, hyphenated or spaced: the splits of ``CompoundWords`` and how
/// the ranker searches the other forms (`email` finds *e-mail*, `PD-1` finds *PD1*), through the
/// persisted index.
struct CompoundWordsTests {
  typealias Item = PersistedSearchTests.Item
  typealias Workspace = PersistedSearchTests.Workspace

  @Test(
    "words split where letters meet digits, and after a listed prefix",
    arguments: [
      ("pd1", [["pd", "1"]]),
      ("covid19", [["covid", "19"]]),
      // Every grouping of the letter and digit runs, fewest parts first.
      (
        "h1n1",
        [
          ["h", "1n1"], ["h1", "n1"], ["h1n", "1"], ["h", "1", "n1"], ["h", "1n", "1"], ["h1", "n", "1"],
          ["h", "1", "n", "1"],
        ]
      ),
      ("il1beta", [["il", "1beta"], ["il1", "beta"], ["il", "1", "beta"]]),
      // Before a spelled-out Greek letter (`TNFα`, `NF-κB` as the tokenizer writes them).
      ("tnfalpha", [["tnf", "alpha"]]),
      ("nfkappab", [["nf", "kappab"]]),
      ("il6", [["il", "6"]]),
      ("b12", [["b", "12"]]),
      ("email", [["e", "mail"]]),
      // Three letters after a prefix are enough (`e` + `xam`); two are not (`ex` + `am`).
      ("exam", [["e", "xam"]]),
      ("nonsmokers", [["non", "smokers"]]),
      ("preoperative", [["pre", "operative"]]),
      ("coinfections", [["co", "infections"]]),
      // Longest prefix first.
      ("antiinflammatory", [["anti", "inflammatory"]]),
      ("counterpart", [["counter", "part"], ["co", "unterpart"]]),
    ])
  func splits(word: String, expected: [[String]]) {
    #expect(CompoundWords.splits(of: word) == expected)
  }

  @Test("no split for words without a prefix or digits, short remainders, or other characters")
  func noSplits() {
    for word in [
      "", "mail", "atypical", "within", "overall", "redo", "2024", "a1b2c3d4", "research",
      "restore", "alphabet", "uncertain", "depart", "exo",
      "café", "東京", "e-mail", "Email",
    ] {
      #expect(CompoundWords.splits(of: word).isEmpty, "\(word)")
    }
    // Every split puts the word back together.
    for word in ["pd1", "h1n1", "a1b2c3", "email", "counterpart", "nonsmokers", "tnfalpha"] {
      for parts in CompoundWords.splits(of: word) {
        #expect(parts.joined() == word)
        #expect((2...CompoundWords.maximumParts).contains(parts.count))
      }
    }
    #expect(CompoundWords.catenation(of: ["e", "mail"]) == "email")
    #expect(CompoundWords.catenation(of: ["e"]) == nil)
    #expect(CompoundWords.catenation(of: ["a", "b", "c", "d", "e"]) == nil)
  }

  static let corpus = [
    Item(title: "Send the e-mail to Ana", content: "about the PD-1 results"),
    Item(title: "Email Bob the figures", content: "pd1 inhibitors and COVID-19 wards"),
    Item(title: "Non-smokers cohort", content: "baseline visit"),
    Item(title: "Weekly summary", content: "nothing about mail here, e is a letter"),
  ]

  @Test("closed and hyphenated forms find each other; the form typed ranks first")
  func bothDirections() throws {
    let workspace = try Workspace(Self.corpus)
    for (query, typed, other) in [("email", 1, 0), ("e-mail", 0, 1), ("PD-1", 0, 1), ("pd1", 1, 0)] {
      // (`e-mail` and `PD-1` also find document 3, which holds `e` and `mail` apart.)
      let response = try workspace.search(query)
      #expect(Array(response.results.map(\.id).prefix(2)) == workspace.ids([typed, other]), "\(query)")
      #expect(response.results[0].score > response.results[1].score, "\(query)")
    }
    // The words of document 3 are not next to each other, so it is no e-mail.
    #expect(!(try workspace.search("email").results.map(\.id).contains(workspace.ids([3])[0])))
  }

  @Test("a word absent in one form is found in the other, and explain says how")
  func absentForm() throws {
    let workspace = try Workspace(Self.corpus)
    let covid = try workspace.search("covid19")
    #expect(covid.results.map(\.id) == workspace.ids([1]))
    #expect(covid.terms.map(\.match) == [.compound])
    #expect(covid.terms.first?.variants == ["covid 19"])
    #expect(covid.terms.first?.compounds == ["covid 19"])

    let smokers = try workspace.search("nonsmokers")
    #expect(smokers.results.map(\.id) == workspace.ids([2]))
    #expect(smokers.terms.first?.compounds == ["non smoker"])

    let joined = try workspace.search("e-mail")
    #expect(joined.terms.map(\.compounds) == [["email"], ["email"]])
  }

  @Test("a rarer form never weighs more than the form typed")
  func rarerFormCapped() throws {
    // `email` is in three documents, `e mail` in one: its own IDF is higher, but it counts at
    // 0.9 of the typed word's. (Every title is two terms long, so only the weights differ.)
    let workspace = try Workspace([
      Item(title: "e-mail", content: "one"),
      Item(title: "email draft", content: "two"),
      Item(title: "email draft", content: "three"),
      Item(title: "email draft", content: "four"),
      Item(title: "notes", content: "five"),
    ])
    let response = try workspace.search("email")
    #expect(response.results.count == 4)
    #expect(response.results.last?.id == workspace.ids([0])[0])
    let typed = response.results[0].scoreParts.title
    let other = response.results[3].scoreParts.title
    #expect(abs(other / typed - 0.9) < 1e-9, "\(other) / \(typed)")
  }

  @Test("prose is not read as a compound: a typical, with in, over all, a dash with spaces")
  func prose() throws {
    let workspace = try Workspace([
      Item(title: "A typical day", content: "with in-person meetings over all weeks"),
      Item(title: "Mail merge", content: "e – mail with an en dash"),
    ])
    // (`within` and `overall` may still find `with` and `over` as close spellings, at reduced
    // weight, as any absent word does; no compound form is searched.)
    for query in ["atypical", "within", "overall"] {
      let response = try workspace.search(query)
      #expect(response.terms.allSatisfy { $0.compounds.isEmpty && $0.match != .compound }, "\(query)")
      #expect(response.results.allSatisfy { $0.scoreParts.title == 0 && $0.scoreParts.content == 0 })
    }
    // An en dash or spaces around the hyphen do not join words: no catenation is searched.
    for query in ["e – mail", "e - mail", "e–mail"] {
      #expect(try workspace.search(query).terms.allSatisfy(\.compounds.isEmpty), "\(query)")
    }
    // Stop words never form a compound part: `up-to-date` searches no catenation.
    #expect(try workspace.search("up-to-date mail").terms.allSatisfy(\.compounds.isEmpty))
  }

  @Test("a compound's parts never match across a sentence or clause end, or a blank line")
  func breaksStopCompounds() throws {
    let workspace = try Workspace([
      Item(title: "Old server", content: "It was dead. Line two of the log says why"),
      Item(title: "Reading notes", content: "grade e, mail it"),
      Item(title: "Team list", content: "health\n\ncare rota"),
      Item(title: "Renewal", content: "the dead line was Friday"),
    ])
    // `deadline` finds the open form written in one sentence, not the words either side of a
    // full stop; `email` not *e, mail*; `healthcare` not a paragraph break.
    #expect(try workspace.search("deadline").results.map(\.id) == workspace.ids([3]))
    #expect(try workspace.search("email").results.isEmpty)
    // (`healthcare` still finds `health` as a close spelling, at typo weight, as any absent
    // word does; no compound form matches.)
    let healthcare = try workspace.search("healthcare")
    #expect(healthcare.results.allSatisfy { $0.scoreParts.content == 0 && $0.scoreParts.phrase == 0 })
    // A query is not read as sentences: `dead. Line` asks for the words next to each other, so
    // the phrase boost goes to *dead line*, never to *dead. Line*.
    let typed = try workspace.search("dead. Line").results
    let phrase = Dictionary(uniqueKeysWithValues: typed.map { ($0.id, $0.scoreParts.phrase) })
    #expect(phrase[workspace.ids([0])[0]] == 0)
    #expect((phrase[workspace.ids([3])[0]] ?? 0) > 0)
    // Nor for compounds: `health, care`, `health. care` and `health⏎care` search `healthcare`
    // as `health care` does (a dash between them still does not: prose).
    let closed = try Workspace([Item(title: "Healthcare budget", content: "spending")])
    for query in ["health care", "health, care", "health. care", "health\ncare"] {
      let response = try closed.search(query)
      #expect(response.terms.contains { !$0.compounds.isEmpty }, "\(query.debugDescription)")
    }
    #expect(try closed.search("health care").results.map(\.id) == closed.ids([0]))
    #expect(try closed.search("e, mail").terms.map(\.compounds) == closed.search("e mail").terms.map(\.compounds))
    #expect(try closed.search("health, care").results.first?.scoreParts.title
      == closed.search("health care").results.first?.scoreParts.title)
  }

  @Test("a note with another form in its title keeps the phrase its content writes as typed")
  func otherFormInTitleKeepsThePhrase() throws {
    let workspace = try Workspace([
      Item(title: "Healthcare budget notes", content: "health care spending, health care staff"),
      Item(title: "Budget notes", content: "health care spending, health care staff"),
      Item(title: "Email integration", content: "send e-mail digests"),
      Item(title: "Integration notes", content: "send e-mail digests"),
      Item(title: "Misc", content: "nothing"),
    ])
    // More matching text never ranks lower than the same note without it.
    let health = try workspace.search("health care").results
    #expect(Array(health.map(\.id).prefix(2)) == workspace.ids([0, 1]))
    #expect(health[0].scoreParts.phrase == health[1].scoreParts.phrase && health[0].scoreParts.phrase > 0)
    let mail = try workspace.search("e-mail").results
    #expect(Array(mail.map(\.id).prefix(2)) == workspace.ids([2, 3]))
    #expect(mail[0].scoreParts.phrase == mail[1].scoreParts.phrase && mail[0].scoreParts.phrase > 0)
  }

  @Test("biomedical notation: H1N1 / H1-N1, IL1β / IL-1β, TNFα / TNF-α, NFκB / NF-κB, both ways")
  func notation() throws {
    let workspace = try Workspace([
      Item(title: "H1-N1 cases", content: "ward a"),
      Item(title: "IL-1β release", content: "ward b"),
      Item(title: "TNF-α levels", content: "ward c"),
      Item(title: "NF-κB pathway", content: "ward d"),
      Item(title: "H1N1 IL1β TNFα NFκB", content: "all glued"),
    ])
    for (query, held) in [("h1n1", 0), ("h1 n1", 0), ("IL1β", 1), ("TNFα", 2), ("NFκB", 3)] {
      let ids = try workspace.search(query).results.map(\.id)
      #expect(ids.contains(workspace.ids([held])[0]), "\(query): \(ids)")
      #expect(ids.contains(workspace.ids([4])[0]), "\(query): \(ids)")
    }
    for (query, held) in [("H1-N1", 0), ("IL-1β", 1), ("TNF-α", 2), ("NF-κB", 3)] {
      let ids = try workspace.search(query).results.map(\.id)
      #expect(ids.first == workspace.ids([held])[0], "\(query): \(ids)")
      #expect(ids.contains(workspace.ids([4])[0]), "\(query): \(ids)")
    }
  }

  @Test("dashes copied from typeset text join like hyphens; an em dash does not; Re: is no prefix")
  func dashesAndRe() throws {
    let workspace = try Workspace([
      Item(title: "PD1 inhibitors", content: "trial"),
      Item(title: "Re: Search API outage", content: "thread"),
    ])
    for query in ["PD\u{2013}1", "PD\u{2212}1", "PD\u{FF0D}1", "PD\u{2010}1"] {
      #expect(try workspace.search(query).results.map(\.id) == workspace.ids([0]), "\(query)")
    }
    #expect(try workspace.search("PD\u{2014}1").terms.allSatisfy(\.compounds.isEmpty))
    #expect(try workspace.search("research").results.isEmpty)
  }

  @Test("numbers joined are not compounds; a closed word matched twice is listed once")
  func numbersAndMatchedTerms() throws {
    let workspace = try Workspace([
      Item(title: "Flaky tests", content: "12 tests failed after 35 runs"),
      Item(title: "Email Bob", content: "about the covid19 release"),
      Item(title: "Notes en français", content: "un certain nombre de part et d'autre"),
    ])
    for query in ["1/2", "3-5", "10/12", "2026-11-30"] {
      let compounds = try workspace.search(query).terms.flatMap(\.compounds)
      #expect(compounds.isEmpty, "\(query)")
    }
    // `1/2` is not `12`, nor `3-5` `35`.
    for query in ["1/2", "3-5"] {
      #expect(try workspace.search(query).results.isEmpty, "\(query)")
    }
    // Letters and digits still join: `PD-1` → `pd1`.
    #expect(try workspace.search("covid-19").terms.map(\.compounds) == [["covid19"], ["covid19"]])
    let email = try #require(try workspace.search("e-mail").results.first)
    #expect(email.id == workspace.ids([1])[0])
    #expect(email.matchedTerms == ["email"])
    // `un` and `de` are no prefixes: French words stay French.
    for query in ["uncertain", "depart"] {
      let compounds = try workspace.search(query).terms.flatMap(\.compounds)
      #expect(compounds.isEmpty, "\(query)")
    }
  }

  @Test("four-part compounds and slash-joined words")
  func longerCompounds() throws {
    let workspace = try Workspace([
      Item(title: "H1N1 season", content: "ward plan"),
      Item(title: "Input and output", content: "the inputoutput adapter"),
    ])
    #expect(try workspace.search("h1-n1").results.map(\.id) == workspace.ids([0]))
    let slash = try workspace.search("input/output")
    #expect(slash.terms.map(\.compounds) == [["inputoutput"], ["inputoutput"]])
  }

  @Test("open splits: two parts of four or more letters, letters only")
  func openSplits() {
    #expect(CompoundWords.openSplits(of: "healthcare") == [["heal", "thcare"], ["healt", "hcare"], ["health", "care"]])
    #expect(CompoundWords.openSplits(of: "birthweight").contains(["birth", "weight"]))
    for word in ["carpet", "network", "health", "covid1919", "e-mailing"] {
      #expect(CompoundWords.openSplits(of: word).isEmpty, "\(word)")
    }
    #expect(CompoundWords.isOpenCompound("health", "care"))
    #expect(CompoundWords.isOpenCompound("covid", "19"))
    #expect(CompoundWords.isOpenCompound("non", "smoker"))
    #expect(!CompoundWords.isOpenCompound("a", "typical"))
    #expect(!CompoundWords.isOpenCompound("car", "pet"))
    #expect(!CompoundWords.isOpenCompound("in", "to"))
  }

  @Test("open, hyphenated and closed compounds find each other: health care, wild-type, birthweight")
  func openCompounds() throws {
    let workspace = try Workspace([
      Item(title: "Healthcare costs", content: "wild type mice, birth weight"),
      Item(title: "Health care workers", content: "wildtype and birthweight"),
      Item(title: "Field notes", content: "weight at birth, type of wild, care"),
    ])
    for (query, typed, other) in [
      ("health care", 1, 0), ("healthcare", 0, 1), ("wild-type", 0, 1), ("wildtype", 1, 0),
      ("birthweight", 1, 0), ("birth weight", 0, 1),
    ] {
      let response = try workspace.search(query)
      #expect(Array(response.results.map(\.id).prefix(2)) == workspace.ids([typed, other]), "\(query)")
    }
    // Document 2 holds the words, but never next to each other: no compound.
    for query in ["birthweight", "wildtype"] {
      #expect(try !workspace.search(query).results.map(\.id).contains(workspace.ids([2])[0]), "\(query)")
    }
    #expect(try workspace.search("health care").terms.map(\.compounds) == [["healthcar"], ["healthcar"]])
    // A query is not read as sentences: a comma between them joins them as a space does.
    #expect(try workspace.search("health, care").terms.map(\.compounds) == [["healthcar"], ["healthcar"]])

    var parameters = HybridLexicalRanker.Parameters.v1
    parameters.searchesOpenCompounds = false
    #expect(try workspace.engine.rankedIDs("wildtype", depth: 10, parameters: parameters) == workspace.ids([1]))
  }

  @Test(
    "dotted-name splits: before a listed ending, after three or more letters, letters only",
    arguments: [
      ("nodejs", [["node", "js"]]),
      ("aspnet", [["asp", "net"]]),
      ("vuejs", [["vue", "js"]]),
      ("socketio", [["socket", "io"]]),
      ("setuppy", [["setup", "py"]]),
      ("openai", [["open", "ai"]]),
      ("vbnet", []),
      // Any short ending would cut ordinary words into words: man aged, car pet, tar get.
      ("manage", []), ("append", []), ("carpet", []), ("target", []), ("public", []),
      ("passage", []), ("message", []),
      ("abcd", []), ("js", []), ("", []), ("node1", []), ("café", []), ("node.js", []),
      // English words that end like a name are words, not names: rat io, mag net, hap py.
      ("ratio", []), ("radio", []), ("portfolio", []), ("magnet", []), ("planet", []),
      ("internet", []), ("happy", []), ("therapy", []), ("samurai", []),
    ])
  func tailSplits(word: String, expected: [[String]]) {
    #expect(CompoundWords.tailSplits(of: word) == expected)
  }

  static let wordsEndingLikeNames = [
    Item(title: "Build host", content: "install Node.js 20 on the build host"),
    Item(title: "Storage bench", content: "Ran the rat IO test on the old NAS: 4k random reads stall"),
    Item(title: "Print sales", content: "Q3 mag net revenue rose 4% on the spring issue"),
  ]

  @Test("an English word no note holds is no dotted name: ratio finds no rat IO, magnet no mag net")
  func englishWordsAreNoDottedNames() throws {
    let workspace = try Workspace(Self.wordsEndingLikeNames)
    let name = try workspace.search("nodejs")
    #expect(name.results.map(\.id) == workspace.ids([0]))
    #expect(name.terms.first?.compounds == ["node js"])
    for (query, note) in [("ratio", 1), ("Ratio", 1), ("magnet", 2)] {
      let response = try workspace.search(query)
      #expect(!response.results.map(\.id).contains(workspace.ids([note])[0]), "\(query)")
      #expect(response.terms.allSatisfy { $0.compounds.isEmpty }, "\(query)")
    }
    // Typed apart, the words are found where the notes hold them.
    #expect(try workspace.search("rat io").results.first?.id == workspace.ids([1])[0])
    #expect(try workspace.search("mag net").results.first?.id == workspace.ids([2])[0])
  }

  static let dottedNames = [
    Item(title: "Build host", content: "Set up Node.js 20 on the build host"),
    Item(title: "Graph notes", content: "A node in the graph; js files load it"),
    Item(title: "Web stack", content: "Deploy the ASP.NET app beside the Vue.js front end and socket.io"),
    Item(title: "Sentences", content: "Restart the node. JS bundles come next"),
  ]

  @Test("node.js finds Node.js; nodejs, which no note holds, finds it as the adjacent node js")
  func dottedNames() throws {
    let workspace = try Workspace(Self.dottedNames)
    // Typed with its full stop, the name is the two adjacent terms the note holds.
    for query in ["node.js", "Node.JS", "node js"] {
      let response = try workspace.search(query)
      #expect(response.results.first?.id == workspace.ids([0])[0], "\(query)")
      #expect(response.results[0].scoreParts.phrase > 0, "\(query)")
    }
    // Closed, it found the graph note first by a typo match to `node` (before tokenizer 4's
    // dotted-name splits); now it finds only the note that writes the name.
    let closed = try workspace.search("nodejs")
    #expect(closed.results.map(\.id) == workspace.ids([0]))
    #expect(closed.terms.map(\.match) == [.compound])
    #expect(closed.terms.first?.compounds == ["node js"])
    for (query, note) in [("aspnet", 2), ("vuejs", 2), ("socketio", 2), ("ASPNET", 2)] {
      #expect(try workspace.search(query).results.map(\.id) == workspace.ids([note]), "\(query)")
    }
    // The full stop of `node. JS` is a break: that note is no Node.js.
    #expect(try workspace.engine.rankedIDs("nodejs", depth: 10) == workspace.ids([0]))
    // Open compounds off, dotted names are off too, and `nodejs` is a typo of `node` again.
    var parameters = HybridLexicalRanker.Parameters.v1
    parameters.searchesOpenCompounds = false
    #expect(Set(try workspace.engine.rankedIDs("nodejs", depth: 10, parameters: parameters)) == Set(workspace.ids([0, 1, 3])))
  }

  @Test(
    "initialism splits: two to four letters, one by one",
    arguments: [
      ("eg", ["e", "g"]), ("ie", ["i", "e"]), ("usa", ["u", "s", "a"]), ("nasa", ["n", "a", "s", "a"]),
      ("a", nil), ("abcde", nil), ("e2", nil), ("", nil), ("né", nil),
    ] as [(String, [String]?)])
  func initialismSplits(word: String, expected: [String]?) {
    #expect(CompoundWords.initialismSplit(of: word) == expected)
  }

  static let initialisms = [
    Item(title: "Style guide", content: "Write e.g. and i.e. with full stops, as the house style asks"),
    Item(title: "Trip", content: "Flight to the U.S.A. in May; visa renewal first"),
    Item(title: "Breakfast", content: "Eggs, toast and an ego boost"),
    Item(title: "Initials", content: "Signed by the committee member u and the chair"),
  ]

  @Test("eg, which no note holds, finds e.g.; usa finds U.S.A.; a word a note holds is not split")
  func initialisms() throws {
    let workspace = try Workspace(Self.initialisms)
    for (query, note) in [("eg", 0), ("ie", 0), ("IE", 0), ("usa", 1), ("USA", 1)] {
      let response = try workspace.search(query)
      #expect(response.results.map(\.id) == workspace.ids([note]), "\(query)")
      #expect(response.terms.map(\.match) == [.compound], "\(query)")
    }
    #expect(try workspace.search("usa").terms.first?.compounds == ["u s a"])
    // Typed with full stops, the initialism is the adjacent letters themselves, and a letter
    // that is also a stop word is one of them (`u.s.a` once searched only `u s`).
    #expect(try workspace.search("e.g.").results.first?.id == workspace.ids([0])[0])
    let dotted = try workspace.search("u.s.a")
    #expect(dotted.results.first?.id == workspace.ids([1])[0])
    #expect(dotted.terms.map(\.term) == ["u", "s", "a"] && dotted.unsearchedCommonWords == nil, "\(dotted.terms.map(\.term))")
    // A stop word that is no letter of an initialism is still left out.
    #expect(try workspace.search("a trip").unsearchedCommonWords == ["a"])
    // Letters that no note holds next to each other are no initialism (a note holds a lone `u`).
    #expect(try workspace.search("ug").terms.allSatisfy { $0.compounds.isEmpty })
    // A word some note holds is searched as typed only: `usa` is no initialism then.
    let closed = try Workspace(Self.initialisms + [Item(title: "Paper", content: "USA Today front page")])
    #expect(try closed.search("usa").results.map(\.id) == closed.ids([4]))
    // Off, `eg` is a prefix of `egg` and `ego` again.
    var parameters = HybridLexicalRanker.Parameters.v1
    parameters.searchesInitialisms = false
    #expect(try workspace.engine.rankedIDs("eg", depth: 10, parameters: parameters) == workspace.ids([2]))
  }

  @Test("no ordinary word is cut before a short ending, held by a note or not")
  func noRubbishSplits() throws {
    let workspace = try Workspace([
      Item(title: "Ward round", content: "A man aged 45 presented with cough"),
      Item(title: "Pets", content: "the car pet carrier and the tar get wet"),
    ])
    for query in ["manage", "carpet", "target"] {
      let response = try workspace.search(query)
      #expect(response.terms.allSatisfy { $0.compounds.isEmpty }, "\(query)")
      #expect(!response.results.contains { $0.scoreParts.phrase > 0 }, "\(query)")
    }
    #expect(try workspace.search("manage").results.map(\.id).contains(workspace.ids([0])[0]) == false)
  }

  @Test("a word some note holds is never split before a short last part: manage, append")
  func dottedNamesOnlyForAbsentWords() throws {
    let workspace = try Workspace([
      Item(title: "Ward round", content: "a man aged 45; the app end-to-end tests fail"),
      Item(title: "Team", content: "we manage the release and append notes"),
      Item(title: "Packages", content: "apt install nodejs"),
      Item(title: "Build host", content: "Set up Node.js 20 on the build host"),
    ])
    for query in ["manage", "append"] {
      let response = try workspace.search(query)
      #expect(response.results.map(\.id) == workspace.ids([1]), "\(query)")
      #expect(response.terms.allSatisfy { $0.compounds.isEmpty }, "\(query)")
    }
    // A word some note holds is searched as typed only (the limit of this rule): the note that
    // writes `Node.js` is not found by `nodejs` once another note holds `nodejs`.
    #expect(try workspace.search("nodejs").results.map(\.id) == workspace.ids([2]))
    #expect(try workspace.search("node.js").results.first?.id == workspace.ids([3])[0])
  }

  @Test("at most maximumCompoundVariants forms are searched per query term, in split order")
  func compoundCap() throws {
    // h1n1's groupings, in order: `h 1n1` first, then `h1 n1`.
    let workspace = try Workspace([
      Item(title: "H-1N1 strain", content: "a"),
      Item(title: "H1-N1 strain", content: "b"),
    ])
    #expect(Set(try workspace.engine.rankedIDs("h1n1", depth: 10)) == Set(workspace.ids([0, 1])))
    var parameters = HybridLexicalRanker.Parameters.v1
    parameters.maximumCompoundVariants = 1
    #expect(try workspace.engine.rankedIDs("h1n1", depth: 10, parameters: parameters) == workspace.ids([0]))
  }

  @Test("turned off, only the form typed is searched")
  func switchedOff() throws {
    let workspace = try Workspace(Self.corpus)
    var parameters = HybridLexicalRanker.Parameters.v1
    parameters.maximumCompoundVariants = 0
    #expect(try workspace.engine.rankedIDs("email", depth: 10, parameters: parameters) == workspace.ids([1]))
    #expect(try workspace.engine.rankedIDs("covid19", depth: 10, parameters: parameters).isEmpty)
  }

  @Test("adjacent postings: runs in one field only, counted per field, first term's positions")
  func adjacentPostings() throws {
    let epoch = Date(timeIntervalSince1970: 0)
    let index = InMemoryLexicalIndex([
      IndexedDocument(
        id: UUID(), kind: .knowledge(.fact), title: "e-mail and e-mail", content: "mail e", updatedAt: epoch),
      IndexedDocument(
        id: UUID(), kind: .knowledge(.fact), title: "ends with e", content: "mail starts here",
        updatedAt: epoch),
    ])
    let list = try HybridLexicalRanker.adjacentPostings(of: ["e", "mail"], in: index)
    #expect(list.count == 1)
    #expect(list.termFrequencies[0] == FieldCounts(title: 2, tags: 0, content: 0))
    #expect(list.positions(at: 0, in: .title) == [0, 3])
    #expect(try HybridLexicalRanker.adjacentPostings(of: ["e", "absent"], in: index).isEmpty)
  }
}
