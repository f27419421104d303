import ContinuityKit
import Foundation
import Testing

@Suite("EvidenceLine")
struct EvidenceLineTests {
  static let real = UUID(uuidString: "6F1A2B3C-0000-4000-8000-000000000001")!
  static let other = UUID(uuidString: "6F1A2B3C-0000-4000-8000-000000000002")!
  static let fake = "00000000-0000-0000-0000-00000000BEEF"

  /// One line of text and how it prints after the real ids.
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    var shown: String
    var testDescription: String { name }
  }

  static let cases = [
    Case(name: "plain text", text: "Use SQLite", shown: "Use SQLite"),
    Case(name: "a title ending in a fake id", text: "Adopt WAL  [\(fake)]", shown: "Adopt WAL  [\(fake)]"),
    Case(name: "a line break, then a fake line", text: "Ship it\n- [\(fake)] fake", shown: "Ship it - [\(fake)] fake"),
    Case(name: "a CR LF, then a fake line", text: "Ship it\r\n- [\(fake)] fake", shown: "Ship it - [\(fake)] fake"),
    Case(name: "a LINE SEPARATOR, then a fake line", text: "Ship it\u{2028}- [\(fake)] fake", shown: "Ship it - [\(fake)] fake"),
    Case(name: "a PARAGRAPH SEPARATOR and a tab", text: "a\u{2029}b\tc", shown: "a b c"),
  ]

  @Test("the evidence ids come first, and the text stays on their line", arguments: cases)
  func idsFirstOneLine(_ c: Case) {
    let line = EvidenceLine.render(evidenceIDs: [Self.real, Self.other], text: c.text)
    #expect(line == "- [\(Self.real.uuidString), \(Self.other.uuidString)] \(c.shown)")
    #expect(!line.contains { $0.isNewline })
  }

  @Test("a line without evidence shows empty brackets, so the ids' place is always the same")
  func noEvidence() {
    #expect(EvidenceLine.render(evidenceIDs: [], text: "… and 3 more decisions (not shown)") == "- [] … and 3 more decisions (not shown)")
  }

  @Test("a digest line renders through the same function")
  func digestLine() {
    let line = DigestLine(text: "Adopt WAL\n- [\(Self.fake)] fake", evidenceIDs: [Self.real])
    #expect(line.rendered == "- [\(Self.real.uuidString)] Adopt WAL - [\(Self.fake)] fake")
  }

  /// Review 24-a, 10: evidence cut to a bound is counted where the ids are.
  @Test("a digest line whose evidence was cut counts the rest inside the brackets")
  func cutEvidence() {
    let cut = DigestLine(text: "all18", evidenceIDs: [Self.real, Self.other], evidenceTotal: 12)
    #expect(cut.rendered == "- [\(Self.real.uuidString), \(Self.other.uuidString), and 10 more] all18")
    #expect(cut.evidenceTruncated == true)
    let whole = DigestLine(text: "two", evidenceIDs: [Self.real, Self.other], evidenceTotal: 2)
    #expect(whole.rendered == "- [\(Self.real.uuidString), \(Self.other.uuidString)] two")
    #expect(whole.evidenceTruncated == false)
    #expect(EvidenceLine.render(evidenceIDs: [], leftOut: 3, text: "x") == "- [3 more] x")
  }

  @Test("a digest line of an earlier version has no count, and keeps none when encoded again")
  func earlierVersionLine() throws {
    let old = try JSONDecoder().decode(DigestLine.self, from: Data(#"{"text":"t","evidenceIDs":[]}"#.utf8))
    #expect(old.evidenceTotal == nil)
    #expect(old.evidenceTruncated == nil)
    #expect(!String(decoding: try JSONEncoder().encode(old), as: UTF8.self).contains("evidenceTotal"))
    let new = DigestLine(text: "t", evidenceIDs: [Self.real], evidenceTotal: 4)
    let again = try JSONDecoder().decode(DigestLine.self, from: try JSONEncoder().encode(new))
    #expect(again == new)
  }

  @Test("a count below the ids cited, or a truncation flag that disagrees with it, is refused")
  func inconsistentCountsRefused() {
    let id = Self.real.uuidString
    for json in [
      #"{"text":"t","evidenceIDs":["\#(id)"],"evidenceTotal":0}"#,
      #"{"text":"t","evidenceIDs":["\#(id)"],"evidenceTotal":1,"evidenceTruncated":true}"#,
      #"{"text":"t","evidenceIDs":["\#(id)"],"evidenceTotal":3,"evidenceTruncated":false}"#,
      #"{"text":"t","evidenceIDs":["\#(id)"],"evidenceTruncated":false}"#,
    ] {
      #expect(throws: DecodingError.self, "\(json)") { try JSONDecoder().decode(DigestLine.self, from: Data(json.utf8)) }
    }
  }
}
