import Testing

@testable import KnowledgeEngine

struct TokenizerTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var text: String
    var terms: [String]
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "empty", text: "", terms: []),
    Case(name: "only punctuation", text: "?! -- (( )) \"'", terms: []),
    Case(name: "words are stemmed", text: "Meeting notes", terms: ["meet", "note"]),
    Case(name: "dot splits", text: "health.base config", terms: ["health", "base", "config"]),
    Case(name: "apostrophe splits", text: "don't use agents", terms: ["don", "t", "us", "agent"]),
    Case(name: "at sign splits", text: "IDOLM@STER", terms: ["idolm", "ster"]),
    Case(name: "plus and parentheses", text: "C++ (draft) notes", terms: ["c", "draft", "note"]),
    Case(name: "letters and digits stay together", text: "p53 and IL-6", terms: ["p53", "and", "il", "6"]),
    Case(name: "numbers kept", text: "Version 2024.10 costs 3,5", terms: ["version", "2024", "10", "cost", "3", "5"]),
    Case(name: "case and diacritics fold", text: "Müller MÜLLER muller", terms: ["muller", "muller", "muller"]),
    Case(name: "café", text: "Café crème", terms: ["cafe", "creme"]),
    Case(name: "sharp s folds to ss", text: "Straße STRASSE", terms: ["strass", "strass"]),
    Case(name: "capital sharp s", text: "ẞ", terms: ["ss"]),
    Case(name: "Cyrillic folds", text: "Сергей сергей", terms: ["сергеи", "сергеи"]),
    Case(name: "Greek final sigma and tonos", text: "ΟΔΟΣ οδός", terms: ["οδοσ", "οδοσ"]),
    Case(name: "NFKC ligature and full width", text: "ﬁle ＡＢＣ", terms: ["file", "abc"]),
    Case(name: "Han and kana become bigrams", text: "東京カンファレンス", terms: ["東京", "京カ", "カン", "ンフ", "ファ", "ァレ", "レン", "ンス"]),
    Case(name: "single Han character", text: "東", terms: ["東"]),
    Case(name: "half-width katakana folds", text: "ｶﾀｶﾅ", terms: ["カタ", "タカ", "カナ"]),
    Case(name: "kana voicing mark is kept", text: "ガス カス", terms: ["ガス", "カス"]),
    Case(name: "Thai bigrams", text: "สวัสดี", terms: ["สวั", "วัส", "สดี"]),
    Case(name: "Hangul stays words", text: "회의 메모", terms: ["회의", "메모"]),
    Case(name: "script change splits", text: "東京2024meeting", terms: ["東京", "2024meeting"]),
    Case(name: "Arabic harakat dropped", text: "مُحَمَّد محمد", terms: ["محمد", "محمد"]),
    Case(name: "Hebrew points dropped", text: "שָׁלוֹם שלום", terms: ["שלום", "שלום"]),
    Case(name: "soft hyphen is transparent", text: "co\u{AD}operate", terms: ["cooper"]),
    Case(name: "emoji separate", text: "ship🚀it", terms: ["ship", "it"]),
    Case(name: "fraction splits after NFKC", text: "½", terms: ["1", "2"]),
    Case(name: "Devanagari vowel signs kept", text: "किताब", terms: ["किताब"]),
  ]

  @Test(arguments: cases)
  func terms(_ example: Case) {
    #expect(Tokenizer.terms(example.text).map(\.term) == example.terms)
  }

  @Test func positionsCountEveryTerm() {
    let tokens = Tokenizer.terms("The quick, brown fox")
    #expect(tokens == [
      Token(term: "the", position: 0), Token(term: "quick", position: 1),
      Token(term: "brown", position: 2), Token(term: "fox", position: 3),
    ])
  }

  @Test func longTermsAreCut() {
    let long = String(repeating: "x", count: 100)
    let terms = Tokenizer.terms(long + " end")
    #expect(terms.map { $0.term.count } == [Tokenizer.maximumTermLength, 3])
  }

  @Test func stemmingCanBeTurnedOffForMeasurement() {
    #expect(Tokenizer(stemming: false).terms("Meeting notes").map(\.term) == ["meeting", "notes"])
  }

  @Test func analyzedTermsKeepTheirSourceRange() {
    var ranges: [String] = []
    let text = "Ça va, Müller?"
    Tokenizer.standard.forEachTerm(in: text) { term in
      let utf8 = Array(text.utf8)[term.utf8Range]
      ranges.append(String(decoding: utf8, as: UTF8.self) + "→" + term.term)
      return true
    }
    #expect(ranges == ["Ça→ca", "va→va", "Müller→muller"])
  }

  @Test func hostileInputDoesNotCrash() {
    let inputs = [
      String(repeating: "(", count: 500), "\u{202E}evil\u{202C}", "\u{0301}\u{0301}x",
      "\u{FEFF}\u{200B}", "a\u{0000}b", "🏳️‍🌈👨‍👩‍👧", "\u{10FFFF}",
    ]
    let counts = inputs.map { Tokenizer.terms($0).count }
    #expect(counts == [0, 1, 1, 0, 2, 0, 0])
  }
}
