import ContinuityKit
import Testing
import TestSupport

/// Review 24-a, findings 1 and 2: credentials read in escaped JSON text (`PASSWORD=\"…\"`) were
/// missed; values and keys are now read decoded.
@Suite("Credential withholding: JSON read decoded, spans in text")
struct CredentialWithholdingTests {
  static let assignment = CredentialDetector.withheldText(.secretAssignment)
  static let gitHub = CredentialDetector.withheldText(.gitHubToken)

  @Test("the withheld text names the kind, never the text")
  func withheldText() {
    #expect(Self.assignment == "[withheld: looks like a credential (password or secret assignment)]")
    #expect(Self.gitHub == "[withheld: looks like a credential (GitHub token)]")
  }

  @Test("quoted values, a credential key, a value beside its key: withheld; what is not a secret stays")
  func jsonWithheld() throws {
    let value = try JSONValue(parsing: """
      {"content":"PASSWORD=\\"Tr0ub4dor&3\\"","notes":"{\\"api_key\\": \\"sk9f8e7d6c5b4a3\\"}","title":"db creds",
       "nested":[{"\(FakeSecrets.gitHub)":1,"password":"hunterhunter","tokens":"hunterhunter"}],"kinds":["token=\\"abc123xyz\\""]}
      """)
    // As escaped JSON text the first three are missed: the reason for the change.
    #expect(CredentialDetector.firstFinding(in: #"{"content":"PASSWORD=\"Tr0ub4dor&3\""}"#) == nil)
    let (shown, withheld) = CredentialDetector.withholding(inJSON: value)
    #expect(
      shown
        == .object([
          "content": .string(Self.assignment), "notes": .string(Self.assignment), "title": "db creds",
          "nested": [.object([Self.gitHub: 1, "password": .string(Self.assignment), "tokens": "hunterhunter"])],
          "kinds": [.string(Self.assignment)],
        ]), "\(shown)")
    #expect(
      withheld.map(\.text) == [
        #"PASSWORD="Tr0ub4dor&3""#, #"{"api_key": "sk9f8e7d6c5b4a3"}"#, FakeSecrets.gitHub, "hunterhunter",
        #"token="abc123xyz""#,
      ])
    #expect(withheld.map(\.finding.kind) == [.secretAssignment, .secretAssignment, .gitHubToken, .secretAssignment, .secretAssignment])
    let text = shown.jsonString(sortedKeys: true)
    for secret in ["Tr0ub4dor", "sk9f8e7d6c5b4a3", FakeSecrets.gitHub, #""password":"hunterhunter""#, "abc123xyz"] {
      #expect(!text.contains(secret), "\(secret) in \(text)")
    }
    #expect(CredentialDetector.firstFinding(in: text) == nil, "\(text)")
  }

  @Test("two keys withheld alike are both kept, numbered")
  func keysNumbered() throws {
    let other = "ghp" + "_OTHERother0123456789OTHERother01234"
    let (shown, withheld) = CredentialDetector.withholding(inJSON: .object([FakeSecrets.gitHub: 1, other: 2]))
    #expect(shown == .object([Self.gitHub: 1, Self.gitHub + " 2": 2]), "\(shown)")
    #expect(withheld.count == 2)
  }

  @Test("JSON with nothing to withhold is returned as it is")
  func nothingWithheld() throws {
    let value = try JSONValue(parsing: #"{"query":"reset your password: see the wiki","password_min_length":"twelve chars","n":3}"#)
    let (shown, withheld) = CredentialDetector.withholding(inJSON: value)
    #expect(shown == value)
    #expect(withheld.isEmpty)
    #expect(CredentialDetector.firstFinding(inJSON: value) == nil)
  }

  @Test("stored JSON text is read decoded; text that is not JSON is read as it is")
  func jsonText() {
    #expect(CredentialDetector.firstFinding(inJSONText: #"{"notes":"api_key = \"sk9f8e7d6c5b4a3zz\""}"#)?.kind == .secretAssignment)
    #expect(CredentialDetector.firstFinding(inJSONText: #"{"query":"x","\#(FakeSecrets.gitHub)":1}"#)?.kind == .gitHubToken)
    #expect(CredentialDetector.firstFinding(inJSONText: "not json password=hunter2xyz99")?.kind == .secretAssignment)
    #expect(CredentialDetector.firstFinding(inJSONText: #"{"title":"Use \"strict\" mode"}"#) == nil)
  }

  @Test("each span in text is withheld; the field and the reason around it are kept")
  func spansInText() {
    #expect(
      CredentialDetector.withholding(in: "arguments.id 'password=hunter2xyz99' is not a UUID (expected e.g. 3F25…)")
        == "arguments.id '\(Self.assignment)' is not a UUID (expected e.g. 3F25…)")
    #expect(
      CredentialDetector.withholding(in: "priority '\(FakeSecrets.aws)' is not one of: low, normal; token=\"abc123xyz\" too")
        == "priority '\(CredentialDetector.withheldText(.awsAccessKeyID))' is not one of: low, normal; \(Self.assignment) too")
    #expect(CredentialDetector.withholding(in: "nothing to see: password_min_length=12") == "nothing to see: password_min_length=12")
    // A value cut at the detector's length bound inside a character takes the character along.
    let long = "password=x1" + String(repeating: "é", count: 600) + " after"
    let shown = CredentialDetector.withholding(in: long)
    #expect(!shown.contains("\u{FFFD}"), "\(shown.prefix(120))")
    #expect(shown.hasPrefix(Self.assignment), "\(shown.prefix(120))")
    #expect(shown.hasSuffix(" after"))
  }

  /// Review 24-b, 1: an earlier version stored long arguments cut to a `prefix` string holding
  /// escaped JSON text, which no longer parses; a quoted secret in it was read with its escapes
  /// and missed by `status`, `doctor` and an import's plan.
  @Test("JSON text kept in a string, cut short, is read with one level of escapes undone")
  func shortenedPrefixRead() throws {
    let stored = #"{"characters":2592,"prefix":"{\"content\":\"PASSWORD=\\\"oldLongSecret2x\\\" wwww","truncated":true}"#
    let notes = #"{"characters":2579,"prefix":"{\"notes\":\"{\\\"api_key\\\": \\\"oldLongSecret3x\\\"} nnnn","truncated":true}"#
    for text in [stored, notes] {
      #expect(CredentialDetector.firstFinding(inJSONText: text)?.kind == .secretAssignment, "\(text)")
    }
    // Escapes that hide nothing change nothing.
    #expect(CredentialDetector.firstFinding(inJSONText: #"{"prefix":"{\"content\":\"a \\\"quoted\\\" word\"}"}"#) == nil)
    #expect(CredentialDetector.unescapingJSONOnce(#"a\"b\\c\nd\u0041\u00"#) == "a\"b\\c\ndA\\u00")
  }

  /// Review 24-b, 2: a value under a credential-named key was read only when it was a string.
  @Test("strings under a credential-named key, in arrays and objects, are that key's value; numbers stay")
  func valuesUnderCredentialKey() throws {
    let value = try JSONValue(parsing: #"{"password":["arrSecretDD44xyz"],"api_key":{"value":"objSecret99xyz"},"pin":12,"secret":12345678901234,"note":["plain"]}"#)
    let (shown, withheld) = CredentialDetector.withholding(inJSON: value)
    #expect(withheld.map(\.text).sorted() == ["arrSecretDD44xyz", "objSecret99xyz"], "\(withheld.map(\.text))")
    #expect(members(shown)["secret"] == 12345678901234)
    #expect(members(shown)["password"] == [.string(Self.assignment)])
    #expect(members(shown)["note"] == ["plain"])
  }

  private func members(_ value: JSONValue) -> JSONObject {
    if case .object(let members) = value { return members }
    Issue.record("not an object: \(value)")
    return JSONObject()
  }
}
