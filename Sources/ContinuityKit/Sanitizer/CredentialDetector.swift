/// A kind of secret that ``CredentialDetector`` recognizes.
public enum CredentialKind: String, Sendable, Codable, CaseIterable {
  /// A PEM or OpenSSH private key block: `-----BEGIN … PRIVATE KEY-----` followed by key data.
  case privateKey
  /// An AWS access key id: `AKIA` or `ASIA` and 16 uppercase letters or digits.
  case awsAccessKeyID
  /// A GitHub token: `ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_` (≥ 30 letters or digits) or
  /// `github_pat_` (≥ 40 letters, digits or `_`).
  case gitHubToken
  /// A GitLab personal access token: `glpat-` and ≥ 20 letters, digits, `_` or `-`.
  case gitLabToken
  /// A Slack token: `xoxb-`, `xoxa-`, `xoxp-`, `xoxr-` or `xoxs-` and ≥ 20 letters, digits or
  /// `-`, at least 6 of them digits.
  case slackToken
  /// A Stripe secret or restricted live key: `sk_live_` or `rk_live_` and ≥ 16 letters or digits.
  case stripeKey
  /// A Google API key: `AIza` and exactly 35 letters, digits, `_` or `-`.
  case googleAPIKey
  /// An OpenAI-style secret key: `sk-` and ≥ 32 letters, digits, `_` or `-`, with at least 2
  /// digits, 8 letters and 12 distinct characters (so `sk-learn` and other words are not keys).
  case openAIKey
  /// A JSON Web Token: `eyJ…` `.` `eyJ…` `.` signature (base64url segments).
  case jsonWebToken
  /// A Hugging Face access token: `hf_` and exactly 34 letters or digits, of at least two of
  /// the classes uppercase, lowercase and digit.
  case huggingFaceToken
  /// An npm access token: `npm_` and exactly 36 letters or digits, of at least two of the
  /// classes uppercase, lowercase and digit.
  case npmToken
  /// An AWS secret access key: a key whose last credential word is `secret access key`
  /// (`AWS_SECRET_ACCESS_KEY`, `aws_secret_access_key`, `SecretAccessKey`, `…_KEY_PROD`)
  /// assigned exactly 40 characters of `A–Z`, `a–z`, `0–9`, `/` and `+`.
  case awsSecretAccessKey
  /// A password in a URL's userinfo: `scheme://user:password@host`, the password a
  /// non-trivial literal (as for ``secretAssignment``).
  case urlPassword
  /// An HTTP bearer credential: `Bearer` and a token of at least 20 of the characters RFC 6750
  /// allows (`A–Z a–z 0–9 - . _ ~ + /`, then `=` padding), with at least 2 digits and 2 letters.
  case bearerToken
  /// A `password=`, `secret:`, `api_key = "…"`, `token: …` style assignment with a non-trivial
  /// literal value, the key named by the key-name rule of ``CredentialDetector``
  /// (`REDIS_PASSWORD_PROD=…`, `authToken: "…"`, `password2 = "…"`).
  case secretAssignment

  /// A short human name, e.g. `GitHub token`.
  public var displayName: String {
    switch self {
    case .privateKey: "private key block"
    case .awsAccessKeyID: "AWS access key id"
    case .gitHubToken: "GitHub token"
    case .gitLabToken: "GitLab access token"
    case .slackToken: "Slack token"
    case .stripeKey: "Stripe live key"
    case .googleAPIKey: "Google API key"
    case .openAIKey: "OpenAI-style secret key"
    case .jsonWebToken: "JSON Web Token"
    case .huggingFaceToken: "Hugging Face token"
    case .npmToken: "npm token"
    case .awsSecretAccessKey: "AWS secret access key"
    case .urlPassword: "password in a URL"
    case .bearerToken: "bearer token"
    case .secretAssignment: "password or secret assignment"
    }
  }
}

/// Where a credential-looking span starts in a text.
public struct CredentialFinding: Sendable, Equatable, Codable, CustomStringConvertible {
  public var kind: CredentialKind
  /// 1-based line number.
  public var line: Int
  /// 1-based column, counted in `Character`s (as ``Limits`` counts text).
  public var column: Int

  public init(kind: CredentialKind, line: Int, column: Int) {
    self.kind = kind
    self.line = line
    self.column = column
  }

  /// e.g. `GitHub token at line 2, column 7`. Never includes the secret itself.
  public var description: String { "\(kind.displayName) at line \(line), column \(column)" }
}

/// Finds text that looks like a credential — private key blocks, common cloud and VCS token
/// shapes, and `password=`/`secret:`-style assignments — so it is not stored by accident.
///
/// Rules (all ASCII; matched on the UTF-8 bytes of the text as ``FoldedText`` reads it —
/// characters that show nothing left out, fullwidth, mathematical and other compatibility forms
/// read as NFKC's ASCII, hyphens, typographic quotes and the Cyrillic and Greek letters drawn as
/// Latin ones read as the ASCII they look like — so any text is safe to scan, and
/// `pass\u{00AD}word=…` or `ｐａｓｓｗｏｒｄ＝…` reads as it shows; positions and spans are the
/// original text's):
/// - Token shapes are listed on ``CredentialKind``. A token must start at a word boundary (not
///   right after a letter, digit or `_`); fixed-length shapes (AWS, Google) must also end at one.
/// - An assignment is a key, optionally quoted, then `=`, `:` or `:=` (not `==`, `=>`, `::`),
///   then a value; up to 40 spaces or tabs may stand before the operator and 24 after it, as
///   formatters line assignments up (`terraform fmt`, gofmt). The key is the run of at most 64 letters, digits, `_`, `-` and `.` before
///   the operator.
///
///   **Key-name rule** (``keyName(of:)``). The key is split into parts at `_`, `-` and `.`, at
///   camelCase boundaries (`authToken`, `APIKey` → `API` `Key`) and between letters and digits
///   (`password2`); parts compare case-insensitively. It is a credential's key when
///   1. a part is, or ends with, a credential word — `password`, `passwd`, `pwd`,
///      `passphrase`, `secret`, `token`, `apikey`, `accesskey`, `secretkey`, `privatekey`,
///      `authkey` — or two parts in a row are `api key`, `access key`, `private key`,
///      `auth key` or `pass phrase`; any parts may come before or after it, so
///      `REDIS_PASSWORD_PROD`, `SECRET_KEY_BASE`, `GITHUB_TOKEN_CI`, `client_secret_prod`,
///      `password2`, `db_password_2`, `token1`, `authToken`, `DBPASSWORD` and `"apiKey"`
///      count, and `tokens`, `max_tokens`, `num_tokens`, `tokenizer` and `secretary` do not;
///   2. and no part after the last credential word describes the credential instead of
///      holding it: a rule or measure (`hint`, `policy`, `min`, `max`, `length`, `count`,
///      `limit`, `strength`, `format`, …), when it lapses (`expiry`, `expires`, `ttl`, …),
///      its kind (`type`, `kind`, `scheme`, `algorithm`, `mode`), where or how it is found or
///      sent (`reset`, `url`, `uri`, `endpoint`, `path`, `file`, `name`, `id`, `ref`,
///      `header`, `field`, `param`, `cmd`, `scope`, …), the text asking for it (`prompt`,
///      `label`, `placeholder`, …) or a digest of it (`hash`, `digest`) — the full list is
///      ``descriptorWords``. So `password_min_length`, `password_reset_url`, `password_hint`,
///      `token_count`, `token_type`, `secret_name` and `DB_PASSWORD_FILE` do not count, while
///      `password_reset_token` does (its last credential word has nothing after it).
///
///   The rule follows the two open-source scanners' keyword rules in spirit, not in code:
///   gitleaks' `generic-api-key` (`cmd/generate/config/rules/generic.go`: a keyword anywhere
///   in the key, with up to 50 key characters before it and 20 after) and Yelp
///   detect-secrets' `KeywordDetector` (`detect_secrets/plugins/keyword.py`: a denylisted
///   word with any `[a-zA-Z0-9_-]*` prefix and suffix). Where they filter with entropy or a
///   list of false-positive values, this detector names the parts that make a key describe a
///   credential. Not `key` alone (`primary_key`), `pass` (`bypass`), `auth` alone
///   (`auth: oauth2` names a scheme) or `credentials` (`fetch`'s `credentials: "include"`).
///
///   **Value.** The value is non-trivial when it is at least 6 characters, has a letter (so
///   not a number, date, version or address: `4096`, `2024-12-20`, `10.0.0.1`), is not one
///   repeated character, not a placeholder (`your-api-key`, `<token>`, `${TOKEN}`, `$TOKEN`,
///   `****`, `xxxx`, `example`, `null`, `true`, `[MASK]`, …), not a file path (`/…`, `~/…`,
///   `./…`: where the secret is kept, as in `PWD=/home/ann`) and not code (`fetchToken()`,
///   `"\(value)"`). A quoted value with a space or tab is prose (`"not a secret"`, `"Enter
///   your password"`), as both scanners above take a secret to be one run without whitespace;
///   an unquoted value ends at whitespace, and one made only of letters, `.`, `_` and single
///   `-` must be at least 16 characters (`self.token = newToken` is code, `trial-and-error`
///   prose) and must not be a camel-cased type name or property path. `changeme` is a weak
///   password, not a placeholder, and is checked like any other value. The branch of a
///   conditional expression (`cond ? token : "x"`) has no key.
///
///   When nothing follows a `:` on its line (or only a YAML block scalar indicator, `|` or
///   `>`), the value may stand alone on the next line, as YAML writes it (`password:` then an
///   indented value): that line must be indented deeper than the key's, and the value must fill
///   it and be no key or assignment itself (no `:`, no `=` but trailing padding). So a `.env`
///   line after an empty one, a mapping under the key, a heading and its text, or a link on the
///   line after a label are not values. A value's letters are judged as written: a word in
///   Cyrillic or Greek is prose, though folding reads some of its letters as Latin.
///
///   A key whose last credential word is `secret access key` (`AWS_SECRET_ACCESS_KEY`,
///   `SecretAccessKey`, `aws_secret_access_key`) with a value of exactly 40 characters of
///   `A–Z a–z 0–9 / +` is an AWS secret access key, whatever the value spells (AWS's documented
///   example key is caught as its example key id is).
/// - A URL's userinfo password (`postgres://admin:S3cr3t@db…`) must be a non-trivial literal
///   as an assignment's value is, so `postgres://localhost/db`, `http://user@host` and
///   `postgres://user:password@localhost` (a placeholder) are not counted.
/// - `Bearer` (any case, as a word) followed by a space and a token of at least 20 characters
///   with at least 2 digits and 2 letters; prose about bearer tokens has no such word after it.
///
/// The detector is a heuristic: it is tuned to catch real secrets pasted by mistake while
/// leaving prose (`reset your password: see the wiki`) and code identifiers (`let token =
/// try await fetchToken()`) alone. It never returns or logs the matched text.
public enum CredentialDetector {
  /// Every finding in `text`, in text order, at most `limit`.
  /// - Parameters:
  ///   - text: any text.
  ///   - limit: the most findings to return.
  /// - Returns: findings with 1-based line and column (in `Character`s).
  /// - Complexity: O(*n*) in the UTF-8 length of `text`.
  public static func findings(in text: String, limit: Int = 16) -> [CredentialFinding] {
    guard limit > 0 else { return [] }
    return scan(text, limit: limit).map { kind, offset, _ in
      let (line, column) = position(ofByte: offset, in: text)
      return CredentialFinding(kind: kind, line: line, column: column)
    }
  }

  /// Every finding in `text` as a kind and the UTF-8 byte range it spans (a key and its
  /// value for an assignment), in text order, the ranges not overlapping.
  /// - Complexity: O(*n*) in the UTF-8 length of `text`.
  static func spans(in text: String, limit: Int = .max) -> [(kind: CredentialKind, bytes: Range<Int>)] {
    guard limit > 0 else { return [] }
    let found = scan(text, limit: limit)
    guard !found.isEmpty else { return [] }
    var copy = text
    return copy.withUTF8 { bytes in
      var spans: [(kind: CredentialKind, bytes: Range<Int>)] = []
      for (kind, start, found) in found {
        // An unquoted value cut at its length bound may end inside a character: the span
        // takes the rest of it.
        var end = found
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        // An assignment's key may start before the end of the finding just before it.
        let from = max(start, spans.last?.bytes.upperBound ?? 0)
        if from < end { spans.append((kind, from..<end)) }
      }
      return spans
    }
  }

  /// Each finding's kind and UTF-8 range (first byte, end) in `text`, read through
  /// ``FoldedText`` when folding changes it.
  static func scan(_ text: String, limit: Int) -> [(CredentialKind, Int, Int)] {
    if let folded = folded(text) {
      let found = folded.bytes.withUnsafeBufferPointer { bytes in
        var scanner = Scanner(bytes: bytes, limit: limit)
        scanner.otherScript = folded.otherScript
        return scanner.run()
      }
      return found.map { kind, start, end in
        let range = folded.sourceRange(of: start..<min(max(end, start + 1), folded.bytes.count))
        return (kind, range.lowerBound, range.upperBound)
      }
    }
    var copy = text
    return copy.withUTF8 { bytes in
      var scanner = Scanner(bytes: bytes, limit: limit)
      return scanner.run()
    }
  }

  /// The first finding in `text`, or nil when it looks free of credentials.
  public static func firstFinding(in text: String) -> CredentialFinding? {
    findings(in: text, limit: 1).first
  }

  /// Throws when `text` looks like it holds a credential.
  ///
  /// The message names the kind and the position, says what was not done and advises removing
  /// the secret; it offers no override, since whether there is one depends on who asked (the
  /// CLI's `--allow-credentials` on some commands; never an agent or MCP client). A caller that
  /// offers one finds the error marked with ``ValidationError/credential`` and says so.
  /// - Parameters:
  ///   - text: the text about to be stored.
  ///   - field: the field's name for the message, e.g. `content` or `tags[2]`.
  ///   - consequence: what was not done, for the message; `it was not stored` by default.
  /// - Throws: ``ValidationError`` with `field`, ``ValidationError/credential`` set and a
  ///   message such as `content looks like it holds a credential (GitHub token at line 2,
  ///   column 7); it was not stored. Remove the secret`.
  public static func requireNoCredential(
    in text: String, field: String, consequence: String = "it was not stored"
  ) throws(ValidationError) {
    guard let f = firstFinding(in: text) else { return }
    throw ValidationError(
      field: field,
      message: "\(field) looks like it holds a credential (\(f)); \(consequence). Remove the secret",
      credential: f)
  }

  /// 1-based (line, column in `Character`s) of a UTF-8 byte offset.
  static func position(ofByte offset: Int, in text: String) -> (Int, Int) {
    let utf8 = text.utf8
    let target = utf8.index(utf8.startIndex, offsetBy: offset, limitedBy: utf8.endIndex) ?? utf8.endIndex
    var line = 1
    var lineStart = text.startIndex
    var i = utf8.startIndex
    while i < target {
      if utf8[i] == UInt8(ascii: "\n") {
        line += 1
        lineStart = utf8.index(after: i)
      }
      i = utf8.index(after: i)
    }
    let column = text[lineStart..<target].count + 1
    return (line, column)
  }
}

/// One pass over UTF-8 bytes collecting (kind, byte offset) of findings.
private struct Scanner {
  let b: UnsafeBufferPointer<UInt8>
  let limit: Int
  /// For text read through ``CredentialDetector/FoldedText``: whether each byte stands for a
  /// Cyrillic or Greek letter as written (``CredentialDetector/FoldedText/otherScript``), so that
  /// a value's letters are judged as written (review 25-b, 3: `Поле password: обязательное` is
  /// Russian prose, not a secret).
  var otherScript: [Bool]?
  /// Each finding's kind, first byte and end byte.
  var out: [(CredentialKind, Int, Int)] = []

  init(bytes: UnsafeBufferPointer<UInt8>, limit: Int) {
    self.b = bytes
    self.limit = limit
  }

  var n: Int { b.count }

  mutating func run() -> [(CredentialKind, Int, Int)] {
    var i = 0
    while i < n, out.count < limit {
      if let (kind, start, end) = match(at: i) {
        out.append((kind, start, max(end, start + 1)))
        i = max(end, i + 1)
      } else {
        i += 1
      }
    }
    return out
  }

  // MARK: Byte classes

  static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
  static func isUpper(_ c: UInt8) -> Bool { c >= 0x41 && c <= 0x5A }
  static func isLower(_ c: UInt8) -> Bool { c >= 0x61 && c <= 0x7A }
  static func isAlnum(_ c: UInt8) -> Bool { isDigit(c) || isUpper(c) || isLower(c) }
  static func isWord(_ c: UInt8) -> Bool { isAlnum(c) || c == UInt8(ascii: "_") }
  static func isBase64URL(_ c: UInt8) -> Bool { isWord(c) || c == UInt8(ascii: "-") }
  static func isBase64(_ c: UInt8) -> Bool {
    isAlnum(c) || c == UInt8(ascii: "+") || c == UInt8(ascii: "/") || c == UInt8(ascii: "=")
  }
  static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }

  func has(_ literal: StaticString, at i: Int) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard i + count <= n else { return false }
    return literal.withUTF8Buffer { lit in
      for k in 0..<count where b[i + k] != lit[k] { return false }
      return true
    }
  }

  func boundaryBefore(_ i: Int) -> Bool { i == 0 || !Self.isWord(b[i - 1]) }

  /// The end of the run starting at `i` of bytes satisfying `pred`, scanning at most `cap`.
  func run(from i: Int, cap: Int = 4096, _ pred: (UInt8) -> Bool) -> Int {
    var j = i
    while j < n, j - i < cap, pred(b[j]) { j += 1 }
    return j
  }

  // MARK: Dispatch

  func match(at i: Int) -> (CredentialKind, Int, Int)? {
    switch b[i] {
    case UInt8(ascii: "-"):
      return privateKey(at: i)
    case UInt8(ascii: "A"):
      guard boundaryBefore(i) else { return nil }
      return awsKey(at: i) ?? googleKey(at: i)
    case UInt8(ascii: "g"):
      guard boundaryBefore(i) else { return nil }
      return gitHub(at: i) ?? gitLab(at: i)
    case UInt8(ascii: "x"):
      guard boundaryBefore(i) else { return nil }
      return slack(at: i)
    case UInt8(ascii: "s"), UInt8(ascii: "r"):
      guard boundaryBefore(i) else { return nil }
      return stripe(at: i) ?? openAI(at: i)
    case UInt8(ascii: "e"):
      guard boundaryBefore(i) else { return nil }
      return jwt(at: i)
    case UInt8(ascii: "h"):
      guard boundaryBefore(i) else { return nil }
      return fixedAlphanumeric(at: i, prefix: "hf_", length: 34, kind: .huggingFaceToken)
    case UInt8(ascii: "n"):
      guard boundaryBefore(i) else { return nil }
      return fixedAlphanumeric(at: i, prefix: "npm_", length: 36, kind: .npmToken)
    case UInt8(ascii: "B"), UInt8(ascii: "b"):
      guard boundaryBefore(i) else { return nil }
      return bearer(at: i)
    case UInt8(ascii: ":"):
      return urlPassword(at: i) ?? assignment(at: i)
    case UInt8(ascii: "="):
      return assignment(at: i)
    default:
      return nil
    }
  }

  // MARK: Token shapes

  func privateKey(at i: Int) -> (CredentialKind, Int, Int)? {
    guard has("-----BEGIN ", at: i) else { return nil }
    let labelStart = i + 11
    let labelEnd = run(from: labelStart, cap: 48) { Self.isUpper($0) || Self.isDigit($0) || $0 == 0x20 }
    let label = String(decoding: UnsafeBufferPointer(rebasing: b[labelStart..<labelEnd]), as: UTF8.self)
    guard label.hasSuffix("PRIVATE KEY") || label.hasSuffix("PRIVATE KEY BLOCK"), has("-----", at: labelEnd)
    else { return nil }
    // A header alone (as in documentation) is not a key: require key data after it.
    var j = labelEnd + 5
    let stop = min(n, j + 1024)
    while j < stop {
      if Self.isBase64(b[j]) {
        let end = run(from: j, Self.isBase64)
        if end - j >= 40 { return (.privateKey, i, end) }
        j = end
      } else {
        j += 1
      }
    }
    return nil
  }

  func awsKey(at i: Int) -> (CredentialKind, Int, Int)? {
    guard has("AKIA", at: i) || has("ASIA", at: i) else { return nil }
    let end = run(from: i + 4, cap: 17) { Self.isUpper($0) || Self.isDigit($0) }
    guard end - (i + 4) == 16, end == n || !Self.isAlnum(b[end]) else {
      return cut(.awsAccessKeyID, from: i, body: i + 4, end: end)
    }
    return (.awsAccessKeyID, i, end)
  }

  func googleKey(at i: Int) -> (CredentialKind, Int, Int)? {
    guard has("AIza", at: i) else { return nil }
    let end = run(from: i + 4, cap: 36, Self.isBase64URL)
    guard end - (i + 4) == 35, end == n || !Self.isBase64URL(b[end]) else {
      return cut(.googleAPIKey, from: i, body: i + 4, end: end)
    }
    return (.googleAPIKey, i, end)
  }

  func gitHub(at i: Int) -> (CredentialKind, Int, Int)? {
    if has("github_pat_", at: i) {
      let end = run(from: i + 11, Self.isWord)
      return end - (i + 11) >= 40 ? (.gitHubToken, i, end) : cut(.gitHubToken, from: i, body: i + 11, end: end)
    }
    guard has("gh", at: i), i + 3 < n, b[i + 3] == UInt8(ascii: "_") else { return nil }
    guard [UInt8(ascii: "p"), UInt8(ascii: "o"), UInt8(ascii: "u"), UInt8(ascii: "s"), UInt8(ascii: "r")]
      .contains(b[i + 2])
    else { return nil }
    let end = run(from: i + 4, Self.isAlnum)
    return end - (i + 4) >= 30 ? (.gitHubToken, i, end) : cut(.gitHubToken, from: i, body: i + 4, end: end)
  }

  func gitLab(at i: Int) -> (CredentialKind, Int, Int)? {
    guard has("glpat-", at: i) else { return nil }
    let end = run(from: i + 6, Self.isBase64URL)
    return end - (i + 6) >= 20 ? (.gitLabToken, i, end) : cut(.gitLabToken, from: i, body: i + 6, end: end)
  }

  func slack(at i: Int) -> (CredentialKind, Int, Int)? {
    guard has("xox", at: i), i + 4 < n, b[i + 4] == UInt8(ascii: "-") else { return nil }
    guard [UInt8(ascii: "b"), UInt8(ascii: "a"), UInt8(ascii: "p"), UInt8(ascii: "r"), UInt8(ascii: "s")]
      .contains(b[i + 3])
    else { return nil }
    let start = i + 5
    let end = run(from: start) { Self.isAlnum($0) || $0 == UInt8(ascii: "-") }
    let digits = b[start..<end].filter(Self.isDigit).count
    return end - start >= 20 && digits >= 6 ? (.slackToken, i, end) : cut(.slackToken, from: i, body: start, end: end)
  }

  func stripe(at i: Int) -> (CredentialKind, Int, Int)? {
    guard has("sk_live_", at: i) || has("rk_live_", at: i) else { return nil }
    let end = run(from: i + 8, Self.isAlnum)
    return end - (i + 8) >= 16 ? (.stripeKey, i, end) : cut(.stripeKey, from: i, body: i + 8, end: end)
  }

  func openAI(at i: Int) -> (CredentialKind, Int, Int)? {
    guard has("sk-", at: i) else { return nil }
    let start = i + 3
    let end = run(from: start, Self.isBase64URL)
    guard end - start >= 32 else {
      // Cut short: with digits, so that a word after `sk-` is not one.
      return b[start..<end].filter(Self.isDigit).count >= 2 ? cut(.openAIKey, from: i, body: start, end: end) : nil
    }
    var digits = 0
    var letters = 0
    var distinct = Set<UInt8>()
    for c in b[start..<end] {
      if Self.isDigit(c) { digits += 1 } else if Self.isUpper(c) || Self.isLower(c) { letters += 1 }
      distinct.insert(c)
    }
    return digits >= 2 && letters >= 8 && distinct.count >= 12 ? (.openAIKey, i, end) : nil
  }

  func jwt(at i: Int) -> (CredentialKind, Int, Int)? {
    guard has("eyJ", at: i) else { return nil }
    let headerEnd = run(from: i, Self.isBase64URL)
    guard headerEnd - i >= 10, headerEnd < n, b[headerEnd] == UInt8(ascii: "."), has("eyJ", at: headerEnd + 1)
    else { return nil }
    let payloadEnd = run(from: headerEnd + 1, Self.isBase64URL)
    guard payloadEnd - (headerEnd + 1) >= 10, payloadEnd < n, b[payloadEnd] == UInt8(ascii: ".") else {
      return nil
    }
    let end = run(from: payloadEnd + 1, Self.isBase64URL)
    return (.jsonWebToken, i, end)
  }

  /// A token of a prefixed shape cut short by ``Truncation`` (`ghp_abc…[truncated]`), as earlier
  /// versions left one in a receipt's message (review 24-b, 1): at least 12 characters of its
  /// body from `body` to `end`, then the marker (read as `...[truncated]`, the NFKC form of its
  /// `…`). The span takes the marker with it.
  func cut(_ kind: CredentialKind, from i: Int, body: Int, end: Int) -> (CredentialKind, Int, Int)? {
    guard end - body >= 12, has("...[truncated]", at: end) else { return nil }
    return (kind, i, end + 14)
  }

  /// `prefix` and exactly `length` letters or digits, ending at a word boundary, of at least
  /// two of the classes uppercase, lowercase and digit (so a long lowercase word is not one).
  func fixedAlphanumeric(at i: Int, prefix: StaticString, length: Int, kind: CredentialKind) -> (CredentialKind, Int, Int)? {
    guard has(prefix, at: i) else { return nil }
    let start = i + prefix.utf8CodeUnitCount
    let end = run(from: start, cap: length + 1, Self.isAlnum)
    guard end - start == length, end == n || !Self.isWord(b[end]) else {
      return cut(kind, from: i, body: start, end: end)
    }
    let body = b[start..<end]
    let classes = [body.contains(where: Self.isUpper), body.contains(where: Self.isLower), body.contains(where: Self.isDigit)]
    return classes.filter { $0 }.count >= 2 ? (kind, i, end) : nil
  }

  /// RFC 6750 `b64token` characters (the `=` padding is taken separately).
  static func isBearerTokenByte(_ c: UInt8) -> Bool {
    isBase64URL(c) || c == UInt8(ascii: ".") || c == UInt8(ascii: "~") || c == UInt8(ascii: "+") || c == UInt8(ascii: "/")
  }

  func bearer(at i: Int) -> (CredentialKind, Int, Int)? {
    guard i + 6 < n else { return nil }
    let word = b[i..<(i + 6)].map { Self.isUpper($0) ? $0 + 32 : $0 }
    guard word == Array("bearer".utf8), Self.isSpace(b[i + 6]) else { return nil }
    var start = i + 6
    while start < n, start - i <= 10, Self.isSpace(b[start]) { start += 1 }
    guard start < n else { return nil }
    // A bearer token that is a known shape (a JWT, a GitHub token) is reported as that.
    if let token = match(at: start), token.0 != .secretAssignment, token.0 != .bearerToken { return token }
    var end = run(from: start, cap: 1024, Self.isBearerTokenByte)
    let token = Array(b[start..<end])
    end = run(from: end, cap: 3) { $0 == UInt8(ascii: "=") }
    guard token.count >= 20, end == n || !Self.isBearerTokenByte(b[end]) else { return nil }
    let digits = token.filter(Self.isDigit).count
    let letters = token.filter { Self.isUpper($0) || Self.isLower($0) }.count
    guard digits >= 2, letters >= 2, isNonTrivial(Value(start: start, bytes: token, quoted: false, end: end)) else {
      return nil
    }
    return (.bearerToken, i, end)
  }

  /// A password in the userinfo of the URL whose `://` starts at `colon`.
  func urlPassword(at colon: Int) -> (CredentialKind, Int, Int)? {
    guard has("://", at: colon) else { return nil }
    // The scheme: a letter, then letters, digits, `+`, `-` or `.` (RFC 3986 §3.1).
    var schemeStart = colon
    while schemeStart > 0, colon - schemeStart < 32,
      Self.isAlnum(b[schemeStart - 1]) || [UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: ".")].contains(b[schemeStart - 1])
    {
      schemeStart -= 1
    }
    guard schemeStart < colon, Self.isUpper(b[schemeStart]) || Self.isLower(b[schemeStart]) else { return nil }
    // The authority's userinfo runs to `@`; `/`, `?`, `#`, space or a quote first means none.
    let userStart = colon + 3
    let stops: [UInt8] = [
      UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "@"), UInt8(ascii: "\""),
      UInt8(ascii: "'"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "["), UInt8(ascii: "]"),
    ]
    let userinfoEnd = run(from: userStart, cap: 256) { $0 > 0x20 && $0 != 0x7F && !stops.contains($0) }
    guard userinfoEnd < n, b[userinfoEnd] == UInt8(ascii: "@"),
      let separator = b[userStart..<userinfoEnd].firstIndex(of: UInt8(ascii: ":"))
    else { return nil }
    let password = Value(
      start: separator + 1, bytes: Array(b[(separator + 1)..<userinfoEnd]), quoted: false, end: userinfoEnd)
    if password.start < userinfoEnd, let token = match(at: password.start), token.0 != .secretAssignment,
      token.2 <= userinfoEnd
    {
      return token
    }
    guard isNonTrivial(password) else { return nil }
    return (.urlPassword, schemeStart, userinfoEnd)
  }

  // MARK: Assignments

  func assignment(at op: Int) -> (CredentialKind, Int, Int)? {
    let c = b[op]
    var valueStart = op + 1
    if c == UInt8(ascii: "=") {
      if op + 1 < n, b[op + 1] == UInt8(ascii: "=") || b[op + 1] == UInt8(ascii: ">") { return nil }
      if op > 0, [UInt8(ascii: "="), UInt8(ascii: "!"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: ":")]
        .contains(b[op - 1])
      {
        return nil
      }
    } else {
      if op + 1 < n, b[op + 1] == UInt8(ascii: ":") { return nil }
      if op > 0, b[op - 1] == UInt8(ascii: ":") { return nil }
      if op + 1 < n, b[op + 1] == UInt8(ascii: "=") { valueStart = op + 2 }
    }
    guard let (keyStart, keyName) = key(before: op), let value = value(from: valueStart) else { return nil }
    // A value that is itself a known token shape is reported as that, more specific kind.
    if value.start < n, let token = match(at: value.start), token.0 != .secretAssignment {
      return (token.0, token.1, max(token.2, value.end))
    }
    // AWS's secret key has a fixed shape, so it is caught even when it spells EXAMPLE (as the
    // documented example does, whose key id the AWS rule also catches).
    if keyName == .awsSecretAccessKey, value.bytes.count == 40,
      value.bytes.allSatisfy({ Self.isAlnum($0) || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "+") })
    {
      return (.awsSecretAccessKey, keyStart, value.end)
    }
    guard isNonTrivial(value), !isPathOrBracketed(value.bytes) else { return nil }
    return (.secretAssignment, keyStart, value.end)
  }

  /// Whether an assigned value is a file path, which says where the secret is kept
  /// (`PWD=/home/ann`, `GOOGLE_APPLICATION_CREDENTIALS=~/gcp.json`), or a bracketed word, a
  /// placeholder (`mask_token = "[MASK]"`). Only for assignments: a bearer token may start
  /// with `/`.
  func isPathOrBracketed(_ bytes: [UInt8]) -> Bool {
    guard let first = bytes.first else { return false }
    if first == UInt8(ascii: "/") || first == UInt8(ascii: "[") && bytes.last == UInt8(ascii: "]") { return true }
    let prefixes: [[UInt8]] = [Array("~/".utf8), Array("./".utf8), Array("../".utf8)]
    return prefixes.contains { bytes.starts(with: $0) }
  }

  /// Where the key ending just before `op` (past up to 40 spaces or tabs and a closing quote) starts,
  /// and what it names, when it is a credential's key by ``CredentialDetector/keyName(of:)``.
  /// The key is the run of at most 64 letters, digits, `_`, `-` and `.` before that.
  func key(before op: Int) -> (Int, CredentialDetector.KeyName)? {
    var j = op - 1
    // Up to 40 spaces or tabs: assignments lined up by a formatter (`terraform fmt`, gofmt).
    while j >= 0, op - j <= 40, Self.isSpace(b[j]) { j -= 1 }
    if j >= 0, b[j] == UInt8(ascii: "\"") || b[j] == UInt8(ascii: "'") { j -= 1 }
    let keyEnd = j + 1
    while j >= 0, keyEnd - j <= 64,
      Self.isWord(b[j]) || b[j] == UInt8(ascii: "-") || b[j] == UInt8(ascii: ".")
    {
      j -= 1
    }
    let keyStart = j + 1
    guard keyEnd > keyStart else { return nil }
    // `cond ? token : "anonymous"`: the branch of a conditional expression, not a key (review
    // 25-b, 6).
    var before = j
    while before >= 0, Self.isSpace(b[before]) { before -= 1 }
    if before >= 0, b[before] == UInt8(ascii: "?"), b[op] == UInt8(ascii: ":") { return nil }
    let name = CredentialDetector.keyName(of: UnsafeBufferPointer(rebasing: b[keyStart..<keyEnd]))
    return name == .other ? nil : (keyStart, name)
  }

  struct Value {
    var start: Int
    var bytes: [UInt8]
    var quoted: Bool
    var end: Int
  }

  func value(from start: Int) -> Value? {
    var j = start
    while j < n, j - start < 24, Self.isSpace(b[j]) { j += 1 }
    if start > 0, b[start - 1] == UInt8(ascii: ":"), let next = yamlValueOnNextLine(after: j, operator: start - 1) {
      return next
    }
    guard j < n else { return nil }
    return value(onLineFrom: j)
  }

  /// A YAML value on the line after its key's `:` (`password:` then an indented value, or a
  /// block scalar, `password: |`), when nothing else follows the `:` (from `j`, past its
  /// spaces): the next line is indented deeper than the key's, and the value fills it and is
  /// no key or assignment itself (no `:`; no `=` but trailing padding). So `.env` lines, a YAML
  /// mapping under the key, a heading and its text and a link on the next line are not values
  /// (review 25-b, 2).
  func yamlValueOnNextLine(after j: Int, operator op: Int) -> Value? {
    var j = j
    // A block scalar indicator: `|`, `>`, with `-` or `+`.
    if j < n, b[j] == UInt8(ascii: "|") || b[j] == UInt8(ascii: ">") {
      j += 1
      if j < n, b[j] == UInt8(ascii: "-") || b[j] == UInt8(ascii: "+") { j += 1 }
      while j < n, Self.isSpace(b[j]) { j += 1 }
    }
    guard j < n, b[j] == UInt8(ascii: "\n") || b[j] == UInt8(ascii: "\r") else { return nil }
    if b[j] == UInt8(ascii: "\r") { j += 1 }
    guard j < n, b[j] == UInt8(ascii: "\n") else { return nil }
    j += 1
    // The key's line: its indentation.
    var keyLine = op
    while keyLine > 0, b[keyLine - 1] != UInt8(ascii: "\n") { keyLine -= 1 }
    var keyIndent = 0
    while keyLine + keyIndent < op, Self.isSpace(b[keyLine + keyIndent]) { keyIndent += 1 }
    let lineStart = j
    while j < n, j - lineStart < 16, Self.isSpace(b[j]) { j += 1 }
    guard j - lineStart > keyIndent, j < n, let value = value(onLineFrom: j) else { return nil }
    var k = value.end
    while k < n, Self.isSpace(b[k]) { k += 1 }
    // JSON written over lines (`{"password":` then `"…"}`): a quoted value may end its member.
    if value.quoted, k < n, [UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(b[k]) {
      k += 1
      while k < n, Self.isSpace(b[k]) { k += 1 }
    }
    guard k == n || b[k] == UInt8(ascii: "\n") || b[k] == UInt8(ascii: "\r") else { return nil }
    if value.bytes.contains(UInt8(ascii: ":")) { return nil }
    if let equals = value.bytes.firstIndex(of: UInt8(ascii: "=")),
      !value.bytes[equals...].allSatisfy({ $0 == UInt8(ascii: "=") })
    {
      return nil
    }
    return value
  }

  /// The quoted or unquoted value starting at `j`, not past the line's end.
  func value(onLineFrom j: Int) -> Value? {
    let q = b[j]
    if q == UInt8(ascii: "\"") || q == UInt8(ascii: "'") || q == UInt8(ascii: "`") {
      let s = j + 1
      var k = s
      while k < n, k - s <= 512, b[k] != q, b[k] != UInt8(ascii: "\n") { k += 1 }
      guard k < n, b[k] == q else { return nil }
      return Value(start: s, bytes: Array(b[s..<k]), quoted: true, end: k + 1)
    }
    let stops: [UInt8] = [
      UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "&"), UInt8(ascii: "\""), UInt8(ascii: "'"),
      UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"),
    ]
    var k = j
    while k < n, k - j <= 512, !Self.isSpace(b[k]), b[k] != 0x0A, b[k] != 0x0D, !stops.contains(b[k]) { k += 1 }
    return Value(start: j, bytes: Array(b[j..<k]), quoted: false, end: k)
  }

  static let placeholders: Set<String> = [
    "null", "nil", "none", "true", "false", "undefined", "required", "optional", "string", "redacted",
    "password", "secret", "token", "example", "placeholder", "hidden", "masked", "default", "empty",
    "unknown", "notset", "not_set", "required=true", "enabled", "disabled",
  ]

  func isNonTrivial(_ v: Value) -> Bool {
    let bytes = v.bytes
    guard bytes.count >= 6 else { return false }
    // No letter: a number, date, time, version or address (`4096`, `2024-12-20`, `10.0.0.1`).
    // Letters as written: a word in Cyrillic or Greek is prose, though folding reads some of
    // its letters as Latin ones.
    let hasLetter = bytes.indices.contains { k in
      (Self.isUpper(bytes[k]) || Self.isLower(bytes[k])) && otherScript.map { v.start + k < $0.count && !$0[v.start + k] } ?? true
    }
    if !hasLetter { return false }
    if let first = bytes.first, bytes.allSatisfy({ $0 == first }) { return false }
    let lower = String(decoding: bytes.map { Self.isUpper($0) ? $0 + 32 : $0 }, as: UTF8.self)
    if Self.placeholders.contains(lower) { return false }
    for marker in ["your", "example", "xxxx", "****", "...", "…", "<", "${", "{{", "$(", "\\(", "%s", "%@", "%("]
    where lower.contains(marker) {
      return false
    }
    if lower.hasPrefix("$") || lower.hasPrefix("%") || lower.hasPrefix("env.") || lower.hasPrefix("process.env")
      || lower.hasPrefix("os.environ")
    {
      return false
    }
    // A space makes it prose (`"not a secret"`, `"Enter your password"`), as in gitleaks and
    // detect-secrets, whose secret values have no whitespace.
    if v.quoted {
      return !bytes.contains(where: Self.isSpace)
    }
    // Unquoted: code (calls, subscripts, blocks) is not a literal.
    for c in bytes where [UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{")].contains(c) { return false }
    // Letters joined by `.`, `_` or single hyphens (`trial-and-error`: prose, review 25-b, 6).
    let wordish =
      bytes.allSatisfy {
        Self.isUpper($0) || Self.isLower($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_")
          || $0 == UInt8(ascii: "-")
      } && !zip(bytes, bytes.dropFirst()).contains { $0 == UInt8(ascii: "-") && $1 == UInt8(ascii: "-") }
    guard wordish else { return true }
    return bytes.count >= 16 && !isCamelCaseIdentifier(bytes)
  }

  /// Whether a value of letters, `.` and `_` reads as code rather than a passphrase: a type
  /// name (`AuthenticationToken`: a capital first, a lowercase letter followed by a capital
  /// later, letters only) or a property path (`credentials.accessToken`: segments joined by
  /// `.`, one with a lowercase letter followed by a capital) — review 25-b, 6: `let token:
  /// AuthenticationToken` was refused. A passphrase without such humps (`correcthorsebattery`,
  /// `correct.horse.battery.staple`) is still a value.
  func isCamelCaseIdentifier(_ bytes: [UInt8]) -> Bool {
    let hasHump = zip(bytes, bytes.dropFirst()).contains { Self.isLower($0) && Self.isUpper($1) }
    guard hasHump else { return false }
    if bytes.contains(UInt8(ascii: ".")) {
      let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
      return segments.allSatisfy { !$0.isEmpty && !Self.isDigit($0.first!) }
    }
    return Self.isUpper(bytes[0]) && !bytes.contains(UInt8(ascii: "_"))
  }
}
