import ContinuityKit
import Testing
import TestSupport

/// Review 24-b, finding 4: invisible and look-alike characters (a soft hyphen, a non-breaking
/// hyphen, fullwidth letters, a Cyrillic а) and a key and value on separate lines got past the
/// detector. The detector now reads text as it shows.
@Suite("Credential detector: text read as it shows")
struct CredentialFoldingTests {
  struct Case: CustomStringConvertible, Sendable {
    var name: String
    var text: String
    var kind: CredentialKind = .secretAssignment
    var line = 1
    var column = 1
    var description: String { name }
  }

  static let disguised: [Case] = [
    Case(name: "soft hyphen inside the key", text: "pass\u{00AD}word=softHyphenGG7777x"),
    Case(name: "zero-width space inside the key", text: "pass\u{200B}word=zeroWidth7777x"),
    Case(name: "word joiner inside a token", text: "ghp\u{2060}_FAKEfake0123456789FAKEfake0123456789", kind: .gitHubToken),
    Case(name: "NUL inside the key", text: "pass\u{0}word=nulHidden1234x"),
    Case(name: "non-breaking hyphen in api-key", text: "api\u{2011}key=nbHyphen12345x"),
    Case(name: "fullwidth key", text: "ｐａｓｓｗｏｒｄ=fullwidthSecret99"),
    Case(name: "fullwidth equals sign", text: "password＝fullwidthEq99x"),
    Case(name: "fullwidth key and equals sign, fullwidth value", text: "ＴＯＫＥＮ＝ａｂｃ１２３ｘｙｚ９８７"),
    Case(name: "Cyrillic а in the key", text: "p\u{0430}ssword=cyrillicA9999x"),
    Case(name: "Cyrillic р and е in the key", text: "s\u{0435}cret_key = \"cyrillicPE42x\""),
    Case(name: "Greek capitals in API_KEY", text: "\u{0391}\u{03A1}\u{0399}_KEY=greekLetters123x"),
    Case(name: "mathematical bold key", text: "𝐩𝐚𝐬𝐬𝐰𝐨𝐫𝐝=mathBold12345x"),
    Case(name: "typographic quotes around the value", text: "password: \u{201C}Tr0ub4dor&3\u{201D}"),
    Case(name: "YAML value on the next, indented line", text: "db:\n  password:\n    yamlNext12345", line: 2, column: 3),
    Case(name: "YAML block scalar", text: "password: |\n  blockScalar12345"),
    Case(name: "YAML folded block scalar, base64 padding", text: "secret: >-\n  c2VjcmV0S2V5MTIz=="),
    Case(name: "Cyrillic look-alike inside an ASCII secret", text: "token: hunt\u{0435}r2Secret"),
    Case(name: "CRLF line breaks", text: "token:\r\n  crlfValue98765"),
    // Review 25-b, 4: assignments lined up by a formatter were never checked.
    Case(name: "terraform fmt alignment", text: "  name                 = \"db\"\n  password             = \"Hunter2Secret99\"", line: 2, column: 3),
    Case(name: "gofmt struct literal", text: "\tUser:                \"app\",\n\tPassword:            \"Hunter2Secret99\",", line: 2, column: 2),
    Case(name: "tab-aligned INI", text: "password\t\t\t=\t\tHunter2Secret99"),
    // Review 25-b, 5: more look-alikes, and JSON written over lines.
    Case(name: "dotless i", text: "secret_key\u{0131}d=dotlessValue42"),
    Case(name: "small capitals", text: "ᴘᴀssᴡᴏʀᴅ=smallCaps12345"),
    Case(name: "Armenian full stop as a colon", text: "password\u{0589} armenianColon42"),
    Case(name: "modifier letter short equals sign", text: "token\u{A78A}shortEquals42x"),
    Case(name: "JSON member over two lines", text: "{\"password\":\n  \"Hunter2Secret99\"}", column: 3),
    // Passphrases of letters alone are still values; so is a camel-cased one in quotes.
    Case(name: "long lowercase passphrase", text: "password = correcthorsebatterystaple"),
    Case(name: "dotted passphrase without humps", text: "secret: correct.horse.battery.staple"),
    Case(name: "quoted camel-cased passphrase", text: "password: \"CorrectHorseBatteryStaple\""),
    Case(name: "a position after folded text counts the original characters", text: "ｘ ü p\u{0430}ssword=abc123xyz", column: 5),
  ]

  @Test("disguised credentials are found where the original text has them", arguments: disguised)
  func finds(_ c: Case) {
    let found = CredentialDetector.findings(in: c.text)
    #expect(found == [CredentialFinding(kind: c.kind, line: c.line, column: c.column)], "\(found)")
  }

  static let plain: [String] = [
    // A typographic quote made a prose value look like one word (`“not`), and was flagged.
    "password: \u{201C}not a secret at all\u{201D}",
    // A heading and its text, code continued on the next line, a blank line between.
    "Token:\nRefreshes every hour on the hour",
    "Password:\nAsk the admin",
    "let token =\n    try await fetchToken()",
    "token:\n\nabc123def456",
    "Password\n=\nSome paragraph follows here",
    "Secret:\n  Confidential",
    // Review 25-b, 2: the next-line rule read these as values.
    "DB_PASSWORD=\nDB_HOST=db.internal",
    "API_KEY=\nLOG_LEVEL=debug",
    "token:\n  github:\n    enabled: true",
    "password:\n  policy:\n    min_length: 12",
    "db:\n  password:\n  username:admin",
    "GitHub token:\nhttps://github.com/settings/tokens",
    "Password:\nUnchanged-since-2023",
    "let header = useToken\n  ? token\n  : \"anonymous\"",
    "PASSWORD\n=\nsplitLines77xyz",
    "password:\n  sk-\n",
    // Review 25-b, 6: a type annotation and a property path are code, not passphrases.
    "let token: AuthenticationToken",
    "let token = credentials.accessToken",
    "var apiKey: APIKeyProviderProtocol",
    "let header = useToken ? token : \"anonymous\"",
    "The secret: trial-and-error",
    "password: \u{201E}nicht geheim, nur ein Beispiel\u{201C}",
    // Review 25-b, 3: prose in other scripts after an English key word.
    "Поле password: обязательное",
    "Переменная API_KEY: задаётся в настройках CI",
    "Το πεδίο token: απαιτείται",
    "GitHubのtoken：Settings→Developer settingsで作成",
    // Letters of other scripts are not keys or values of their own.
    "Пароль: секрет",
    "Το κλειδί είναι απλό",
    "東京カンファレンスの議事録: 参加者は 12 名",
    "naïve café — résumé “quoted” ‘words’",
    "token – the smallest unit of text",
  ]

  @Test("prose and code in other scripts, with typographic quotes or across lines stay unflagged", arguments: plain)
  func leavesAlone(_ text: String) {
    #expect(CredentialDetector.findings(in: text).isEmpty, "\(CredentialDetector.findings(in: text))")
  }

  @Test("the bounds of the spacing rules: 40 spaces before the operator, 24 after, 16 of indentation")
  func spacingBounds() {
    func found(_ text: String) -> Bool { !CredentialDetector.findings(in: text).isEmpty }
    let spaces = { (n: Int) in String(repeating: " ", count: n) }
    #expect(found("password" + spaces(40) + "= Hunter2Secret99"))
    #expect(!found("password" + spaces(41) + "= Hunter2Secret99"))
    #expect(found("password =" + spaces(24) + "Hunter2Secret99"))
    #expect(!found("password =" + spaces(25) + "Hunter2Secret99"))
    #expect(found("password:\n" + spaces(16) + "Hunter2Secret99"))
    #expect(!found("password:\n" + spaces(17) + "Hunter2Secret99"))
  }

  @Test("withholding replaces the original characters of the span, invisible ones included")
  func withholdsOriginalSpan() {
    let assignment = CredentialDetector.withheldText(.secretAssignment)
    #expect(CredentialDetector.withholding(in: "use p\u{0430}ssword=cyrillicA9999x now") == "use \(assignment) now")
    #expect(CredentialDetector.withholding(in: "x pass\u{00AD}word=softHyphenGG7777x") == "x \(assignment)")
    #expect(CredentialDetector.withholding(in: "ｐａｓｓｗｏｒｄ＝ｆｕｌｌｗｉｄｔｈ９９ end") == "\(assignment) end")
    #expect(
      CredentialDetector.withholding(in: "db:\n  password:\n    yamlNext12345\nport: 5432")
        == "db:\n  \(assignment)\nport: 5432")
    #expect(CredentialDetector.withholding(in: "password: |\n  blockScalar12345\nx: 1") == "\(assignment)\nx: 1")
    // Nothing to fold: the text is returned as it is.
    #expect(CredentialDetector.withholding(in: "Пароль: секрет") == "Пароль: секрет")
  }

  @Test("keys are read as they show: in JSON members and by the key-name rule")
  func keys() throws {
    #expect(CredentialDetector.isCredentialKey("p\u{0430}ssword"))
    #expect(CredentialDetector.isCredentialKey("ｔｏｋｅｎ"))
    #expect(CredentialDetector.isCredentialKey("api\u{2011}key"))
    #expect(!CredentialDetector.isCredentialKey("ｔｏｋｅｎｓ"))
    #expect(!CredentialDetector.isCredentialKey("пароль"))
    let value = try JSONValue(parsing: #"{"p\u0430ssword": "hunterhunter2", "note": "ok"}"#)
    let (shown, withheld) = CredentialDetector.withholding(inJSON: value)
    #expect(shown == .object(["p\u{0430}ssword": .string(CredentialDetector.withheldText(.secretAssignment)), "note": "ok"]))
    #expect(withheld.map(\.text) == ["hunterhunter2"])
  }

  @Test("a refusal quotes nothing of the disguised secret")
  func refusal() {
    let error = #expect(throws: ValidationError.self) {
      try CredentialDetector.requireNoCredential(in: "note\np\u{0430}ssword=cyrillicA9999x", field: "content")
    }
    #expect(error?.credential == CredentialFinding(kind: .secretAssignment, line: 2, column: 1))
    #expect(error?.message.contains("cyrillicA") == false)
  }
}

/// Review 24-b, finding 1 (rest): earlier versions cut a refused value in a receipt's message
/// (`'ghp_oldEcho…[truncated]'`), leaving most of the token; the scan of stored records missed it.
@Suite("Credential detector: tokens cut short by the truncation marker")
struct CutTokenTests {
  static let cut: [(String, CredentialKind)] = [
    ("ghp" + "_oldEchoabcdefghijklmnopq" + Truncation.marker, .gitHubToken),
    ("github" + "_pat_11FAKEFAKE0123456789" + Truncation.marker, .gitHubToken),
    ("glpat" + "-FAKEfake0123" + Truncation.marker, .gitLabToken),
    ("xoxb" + "-1234567890" + "12" + Truncation.marker, .slackToken),
    ("sk_live" + "_FAKEfake0123" + Truncation.marker, .stripeKey),
    ("AKIA" + "FAKEFAKE1234" + Truncation.marker, .awsAccessKeyID),
    ("AIza" + "SyFAKEfake0123456789" + Truncation.marker, .googleAPIKey),
    ("sk-" + "proj12FAKEfake" + Truncation.marker, .openAIKey),
    ("hf" + "_FAKEfake0123456" + Truncation.marker, .huggingFaceToken),
    ("npm" + "_FAKEfake0123456" + Truncation.marker, .npmToken),
  ]

  @Test("a prefixed token cut by the marker after 12 or more characters is found, and withheld with the marker")
  func found() {
    for (token, kind) in Self.cut {
      let text = "arguments.kinds[0] '\(token)' is not one of: fact, decision"
      #expect(CredentialDetector.findings(in: text) == [CredentialFinding(kind: kind, line: 1, column: 21)], "\(token)")
      #expect(
        CredentialDetector.withholding(in: text)
          == "arguments.kinds[0] '\(CredentialDetector.withheldText(kind))' is not one of: fact, decision")
    }
  }

  @Test("short or marker-less prefixes, and words after sk-, are not tokens")
  func notFound() {
    for text in [
      "ghp" + "_abcdefghijk" + Truncation.marker,  // 11 characters
      "ghp" + "_abcdefghijklmnopq and more",  // not cut
      "ghp" + "_abcdefghijklmnopq…",  // an ellipsis, not the marker
      "sk-" + "learnthemodelnow" + Truncation.marker,  // a word: no digits
      "The title was Use ghp tokens" + Truncation.marker,
    ] {
      #expect(CredentialDetector.findings(in: text).isEmpty, "\(text)")
    }
  }
}
