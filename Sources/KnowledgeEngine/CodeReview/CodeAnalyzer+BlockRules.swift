import ContinuityKit

extension CodeAnalyzer {
  /// The token rules: `deep_nesting`, `empty_catch` and `hardcoded_secret`, in one pass.
  ///
  /// **Nesting** counts control flow, not braces. A `{` adds a level only when it opens the
  /// body of `if`, `else`, `guard … else`, `for`, `while`, `repeat`, `switch`, `do`, `catch` or
  /// `defer`. Type, extension, protocol and function bodies, computed properties and accessors
  /// (`var body: some View {`, `get {`, `didSet {`), closures — trailing closures and SwiftUI
  /// view builders included (`NavigationStack { List { ForEach(…) { HStack {` adds nothing) — and
  /// `#if` add no level, but control flow inside them keeps counting from where it is, across
  /// closures and local functions. So a plain SwiftUI view hierarchy does not trip the rule,
  /// while `if` in `for` in `switch` in `if` … does, wherever it is. A `{` that takes the count
  /// past `threshold` is reported, once per crossing.
  ///
  /// The keyword that opens a body is the last one seen at the same bracket level (a keyword
  /// inside `(…)` or `[…]`, such as an argument label `for:`, is forgotten when they close) and
  /// not after `.` (a member named `do`); the `while` of `repeat { … } while c` opens nothing.
  ///
  /// `hardcoded_secret` hits are returned whether or not that rule runs: they also say which
  /// lines no finding may print (``withheldLines(_:_:_:)``, review 28-b, 1), and the caller
  /// lists them as findings only when the rule is among `options.rules`.
  static func blockFindings(
    _ tokens: [SourceToken], _ classified: ClassifiedSource, options: CodeAnalysisOptions
  ) -> [RawFinding] {
    let wantsNesting = options.rules.contains(.deepNesting)
    let wantsEmptyCatch = options.rules.contains(.emptyCatch)
    let threshold = options.nestingThreshold
    var found: [RawFinding] = []
    var frames: [BlockFrame] = [BlockFrame(closer: .rbrace)]
    var depth = 0
    var closedRepeat = false
    for index in tokens.indices {
      let t = tokens[index]
      let afterRepeatBody = closedRepeat
      closedRepeat = false
      switch t.kind {
      case .identifier:
        guard t.keyword != .none, index == 0 || tokens[index - 1].kind != .dot else { continue }
        switch t.keyword {
        case .if, .guard, .for, .switch, .do, .catch, .defer, .else:
          frames[frames.count - 1].opener = t.keyword
          frames[frames.count - 1].openerIndex = index
        case .while where !afterRepeatBody:
          frames[frames.count - 1].opener = .while
        case .repeat where index + 1 < tokens.count && tokens[index + 1].kind == .lbrace:
          frames[frames.count - 1].opener = .repeat
        default:
          break
        }
      case .lparen, .lbracket:
        frames.append(BlockFrame(closer: t.kind == .lparen ? .rparen : .rbracket))
      case .rparen, .rbracket:
        // A closer that matches no open bracket (unbalanced `#if` arms) is ignored.
        if let open = frames.lastIndex(where: { $0.closer == t.kind }), open > 0 {
          for frame in frames[open...] where frame.counts { depth -= 1 }
          frames.removeSubrange(open...)
        }
      case .lbrace:
        let top = frames.count - 1
        let opener = frames[top].opener
        frames[top].opener = .none
        var frame = BlockFrame(closer: .rbrace)
        if opener != .none {
          frame.counts = true
          frame.isRepeat = opener == .repeat
          depth += 1
          if wantsNesting, depth == threshold + 1 {
            found.append(
              RawFinding(
                rule: .deepNesting, offset: t.start,
                message: "Control flow nested \(depth) deep (only if/for/while/switch/do/catch "
                  + "bodies count); the threshold is \(threshold)"))
          }
          if wantsEmptyCatch, opener == .catch, index + 1 < tokens.count,
            tokens[index + 1].kind == .rbrace,
            !classified.kinds[t.end..<tokens[index + 1].start].contains(ByteKind.comment)
          {
            found.append(
              RawFinding(
                rule: .emptyCatch, offset: tokens[frames[top].openerIndex].start))
          }
        }
        frames.append(frame)
      case .rbrace:
        if let open = frames.lastIndex(where: { $0.closer == .rbrace }), open > 0 {
          closedRepeat = frames[frames.count - 1].isRepeat && open == frames.count - 1
          for frame in frames[open...] where frame.counts { depth -= 1 }
          frames.removeSubrange(open...)
        }
      case .literal:
        if let hit = secretAssignment(
          at: index, tokens, classified, inBrackets: frames[frames.count - 1].closer == .rbracket)
        {
          found.append(hit)
        }
      default:
        break
      }
    }
    return found
  }

  /// One open bracket of ``blockFindings(_:_:options:)``.
  struct BlockFrame {
    /// The token kind that closes it.
    var closer: SourceToken.Kind
    /// Whether it is a control-flow body (it adds a nesting level).
    var counts = false
    /// Whether it is a `repeat` body (so the `while` after it opens nothing).
    var isRepeat = false
    /// The control-flow keyword seen at this level whose body has not opened yet.
    var opener = Keyword.none
    /// The token index of `opener` (for `catch`, where an empty one is reported).
    var openerIndex = 0
  }

  /// A `hardcoded_secret` finding when the literal at `index` is the first piece of a string
  /// assigned to a credential-like name (`password = "…"`, `let apiKey: String = "…"`,
  /// `login(password: "…")`, `password2 = "…"`; the key-name rule of ``CredentialDetector``,
  /// so `passwordHint` and `tokenCount` are not) and ``CredentialDetector`` reads `name = "…"`
  /// as a credential (a non-trivial value without spaces, not a placeholder such as
  /// `"<token>"`, not an interpolation). The name may also be a string literal keying the value
  /// in a dictionary literal or a subscript (`["password": "…"]`, `env["API_TOKEN"] = "…"`;
  /// review 30-b, 3), when the key is spelled as a detector key is (letters, digits, `_`, `-`,
  /// `.`). The value is judged as written between its delimiters (escapes undecoded, so
  /// `"a\nb"` is one run of text), whatever its delimiters: a raw string (`#"…"#`) and one
  /// holding an escaped quote (`"Pa\"ss"`) are judged as a plain one is (review 30-b, 3). A
  /// multi-line literal (`"""`, `#"""`) is a credential when the detector flags its text (a
  /// private key block, a token's shape) or, holding one line of text, that line as the value
  /// (``multiLineContent(_:_:)``; review 28-d, 1). Not for a member after `.` or a name after
  /// `case` (switch values, enum raw values), nor for a value whose letters and digits end with
  /// the name's (`refreshToken = "refresh_token"`, `authToken = "X-Auth-Token"`: the name of a
  /// field or header).
  /// - Parameter inBrackets: whether the innermost open bracket at `index` is a `[` (so a
  ///   literal before the `:` is a dictionary key).
  static func secretAssignment(
    at index: Int, _ tokens: [SourceToken], _ classified: ClassifiedSource, inBrackets: Bool = false
  ) -> RawFinding? {
    guard index >= 2, tokens[index - 1].kind == .assign || tokens[index - 1].kind == .colon
    else { return nil }
    let name: Range<Int>
    if let key = literalKey(before: index, tokens, classified, inBrackets: inBrackets) {
      name = key
    } else {
      guard let identifier = identifierName(before: index, tokens, classified) else { return nil }
      name = identifier
    }
    // `pwd` is the shortest credential word.
    guard name.count >= 3 else { return nil }
    let isKey = classified.bytes.withUnsafeBufferPointer {
      CredentialDetector.isCredentialKey(utf8: UnsafeBufferPointer(rebasing: $0[name]))
    }
    guard isKey else { return nil }
    let nameText = classified.text(name)
    let literal = tokens[index]
    // A value that spells the name is the name of a field or header, not a secret:
    // `refreshToken = "refresh_token"`, `authToken = "X-Auth-Token"`.
    let spelled = { (s: String) in s.lowercased().filter { $0.isLetter || $0.isNumber } }
    let credential: CredentialFinding
    let texts: [Range<Int>]
    if let lines = multiLineContent(literal, classified) {
      // A multi-line literal (`"""`, `#"""`) is checked like a one-line one (review 28-d, 1:
      // `let privateKey = """` and a key block went unreported): the detector over its text (a
      // private key block, a token's shape), or, for a literal of one line, that line as the
      // value of `name = "…"`. A key block ends in the words of its name (`…PRIVATE KEY-----`),
      // so the spelled-name rule applies to a one-line value only.
      let content = lines.map { classified.text($0) }
      var found = CredentialDetector.firstFinding(in: content.joined(separator: "\n"))
      if found == nil, content.count == 1, !spelled(content[0]).hasSuffix(spelled(nameText)) {
        found = CredentialDetector.firstFinding(in: nameText + " = " + quoted(classified.bytes[lines[0]]))
      }
      guard let found else { return nil }
      credential = found
      texts = lines
    } else {
      let literalText = classified.text(literal.start..<literal.end)
      if spelled(literalText).hasSuffix(spelled(nameText)) { return nil }
      if let body = SwiftStringEscapes.body(of: literal.start..<literal.end, in: classified.bytes) {
        // The value between its delimiters, quoted with a mark it does not hold, so that
        // neither `#`s nor an escaped quote end it early for the detector (review 30-b, 3).
        guard let found = CredentialDetector.firstFinding(in: nameText + " = " + quoted(classified.bytes[body.range]))
        else { return nil }
        credential = found
        texts = [body.range]
      } else {
        // A piece of an interpolated literal (`"ghp_…\(`), or an unterminated one: as written.
        guard let found = CredentialDetector.firstFinding(in: nameText + " = " + literalText) else { return nil }
        credential = found
        // The value: the literal without its delimiters (`#`s and quotes at both ends).
        let isDelimiter = { (b: UInt8) in b == ASCII.quote || b == ASCII.pound }
        var start = literal.start
        var end = literal.end
        while start < end, isDelimiter(classified.bytes[start]) { start += 1 }
        while end > start, isDelimiter(classified.bytes[end - 1]) { end -= 1 }
        texts = [start..<end]
      }
    }
    // The lines from the name to the end of the literal: `password:` and its value may stand on
    // two lines, and neither may be printed by any finding.
    let first = classified.lineIndex(ofByte: name.lowerBound)
    let last = classified.lineIndex(ofByte: max(literal.start, literal.end - 1))
    return RawFinding(
      rule: .hardcodedSecret, offset: name.lowerBound,
      message: "Looks like a hard-coded credential (\(credential.kind.displayName)) in `\(nameText)`; "
        + "load it at run time (Keychain, environment, a file outside the repository)",
      secret: RawFinding.Secret(lines: first...last, literal: literal.start..<literal.end, texts: texts))
  }

  /// `value` between quotes the detector reads (`"`, `'` or a backtick) that it does not hold;
  /// between `"` when it holds all three (the detector then reads it up to its first `"`).
  static func quoted(_ value: ArraySlice<UInt8>) -> String {
    let mark = [ASCII.quote, UInt8(ascii: "'"), ASCII.backtick].first { !value.contains($0) } ?? ASCII.quote
    return String(decoding: [mark] + value + [mark], as: UTF8.self)
  }

  /// The byte range of the identifier a value at `index` (after `=` or `:`) is bound to:
  /// `name = "…"`, `name: Type = "…"`, `label: "…"`, or the name a conditional is assigned to
  /// (`let apiKey = useEnv ? envKey : "sk_live_…"`). Nil when there is none, or it is a member
  /// after `.` or a name after `case`.
  static func identifierName(
    before index: Int, _ tokens: [SourceToken], _ classified: ClassifiedSource
  ) -> Range<Int>? {
    var nameIndex = index - 2
    // `name: Type = "…"`: the name is before the type annotation.
    if tokens[index - 1].kind == .assign, index >= 4, tokens[index - 3].kind == .colon,
      tokens[index - 4].kind == .identifier
    {
      nameIndex = index - 4
    }
    // Not a conditional's branch: in `useToken ? token : "anonymous"` the `:` separates two
    // values; nothing is assigned to `token` (review 25-b, 6). Swift's ternary `?` stands
    // between spaces, so it is an operator token, never the left-bound `?` of an optional.
    // The literal then belongs to what the conditional is assigned to (`let apiKey = useEnv ?
    // envKey : "sk_live_…"`, review 26-b, 2): that name is judged instead, or none.
    if tokens[index - 1].kind == .colon, nameIndex > 0, tokens[nameIndex - 1].kind == .operator,
      classified.text(tokens[nameIndex - 1].start..<tokens[nameIndex - 1].end) == "?"
    {
      let question = nameIndex - 1
      guard let assign = (max(0, question - 8)..<question).reversed().first(where: { tokens[$0].kind == .assign }),
        assign >= 1, tokens[assign - 1].kind == .identifier
      else { return nil }
      nameIndex = assign - 1
    }
    let name = tokens[nameIndex]
    guard name.kind == .identifier else { return nil }
    // Not a member or an enum case: `case .apiToken: "API token"` (a switch's value) and
    // `case accessToken = "access_token"` (a raw value) name the credential, they hold none.
    if nameIndex > 0, tokens[nameIndex - 1].kind == .dot || tokens[nameIndex - 1].keyword == .case {
      return nil
    }
    return name.start..<name.end
  }

  /// The byte range of the text of a string literal that keys the value at `index`: a
  /// dictionary literal's key (`["password": "…"]`, `[…, "api_key": "…"]`, the `[` the
  /// innermost open bracket) or a subscript's (`env["API_TOKEN"] = "…"`). The key must be a
  /// whole one-line literal spelled as a detector key (letters, digits, `_`, `-`, `.`), so
  /// `["Enter your password": "…"]` (a label) keys nothing.
  static func literalKey(
    before index: Int, _ tokens: [SourceToken], _ classified: ClassifiedSource, inBrackets: Bool
  ) -> Range<Int>? {
    let keyIndex: Int
    if tokens[index - 1].kind == .colon, inBrackets, index >= 3, tokens[index - 2].kind == .literal,
      tokens[index - 3].kind == .lbracket || tokens[index - 3].kind == .comma
    {
      keyIndex = index - 2
    } else if tokens[index - 1].kind == .assign, index >= 5, tokens[index - 2].kind == .rbracket,
      tokens[index - 3].kind == .literal, tokens[index - 4].kind == .lbracket,
      [.identifier, .rparen, .rbracket, .postfixBang, .postfixQuestion].contains(tokens[index - 5].kind)
    {
      keyIndex = index - 3
    } else {
      return nil
    }
    let key = tokens[keyIndex]
    guard let body = SwiftStringEscapes.body(of: key.start..<key.end, in: classified.bytes),
      !body.range.isEmpty, body.range.count <= 64,
      classified.bytes[body.range].allSatisfy({
        $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
          || SwiftTokenizer.isIdentifierByte($0) && $0 != UInt8(ascii: "$") && $0 < 0x80
      })
    else { return nil }
    return body.range
  }

  /// The lines of text of `literal` when it is a whole multi-line string literal (`"""` or
  /// `#"""`, closed, without interpolation: an interpolated one is split into pieces, and its
  /// first piece does not end with the closing delimiter): each line between the delimiters'
  /// lines that holds more than blanks, as the byte range of its text without the blanks around
  /// it. Nil for any other literal.
  /// - Complexity: O(b) in the literal's bytes.
  static func multiLineContent(_ literal: SourceToken, _ classified: ClassifiedSource) -> [Range<Int>]? {
    let bytes = classified.bytes
    let quote = UInt8(ascii: "\"")
    var open = literal.start
    while open < literal.end, bytes[open] == ASCII.pound { open += 1 }
    let pounds = open - literal.start
    // `"""` after the `#`s, and the same `"""` and `#`s closing it, with something between.
    guard literal.end - literal.start >= 2 * (pounds + 3),
      bytes[open..<(open + 3)].allSatisfy({ $0 == quote }),
      bytes[(literal.end - pounds)..<literal.end].allSatisfy({ $0 == ASCII.pound }),
      bytes[(literal.end - pounds - 3)..<(literal.end - pounds)].allSatisfy({ $0 == quote })
    else { return nil }
    let body = (open + 3)..<(literal.end - pounds - 3)
    guard let firstBreak = bytes[body].firstIndex(of: ASCII.lf) else { return nil }
    var lines: [Range<Int>] = []
    var start = firstBreak + 1
    while start < body.upperBound {
      let end = bytes[start..<body.upperBound].firstIndex(of: ASCII.lf) ?? body.upperBound
      var low = start
      var high = end
      while low < high, isBlank(bytes[low]) || bytes[low] == ASCII.cr { low += 1 }
      while high > low, isBlank(bytes[high - 1]) || bytes[high - 1] == ASCII.cr { high -= 1 }
      if low < high { lines.append(low..<high) }
      start = end + 1
    }
    return lines
  }

  /// The 0-based lines no finding may print because they hold what looks like a hard-coded
  /// credential (review 28-b, 1: a `todo`, `long_line` or `force_try` on the line of a
  /// `hardcoded_secret` printed the line, secret and all): the lines of each `secrets` hit, from
  /// the name to the end of its literal, and every line holding a string literal spelled exactly
  /// as one of those literals (`print("Xk9#mQ2vLp8Rz4Tw")` further down, or a repeated copy).
  ///
  /// Also withheld (review 28-d, 1: the value printed again from a raw string `#"…"#`, inside a
  /// longer literal, or inside a multi-line literal): every line of a multi-line literal, and of
  /// a one-line literal of 8 bytes or more, whose text the credential detector flags (a private
  /// key block; `"token=Tk9Lo8…"`), and every line holding any of the credentials' text
  /// (``SecretText``; review 29-b, 4: a line of a key block found again elsewhere was printed;
  /// review 30-b, 3: parts of a value, or its decoded spelling, were printed), wherever it
  /// stands: a `hardcoded_secret` value without its delimiters, as written and with its escapes
  /// decoded, as a secret (``SecretText/addSecret(_:)``); each line of text of a flagged
  /// literal, as written and decoded, as a line of text (``SecretText/add(_:)``). A line is
  /// compared as written and with its escapes decoded. ``makeFinding(_:_:withheldLines:)``
  /// withholds, besides, any line the detector flags on its own.
  ///
  /// - Returns: the lines, and the credentials' text, which ``analyze(paths:options:progress:)``
  ///   also withholds from the findings of the other files analyzed with this one.
  /// - Complexity: O(t) in the tokens, each literal token hashed once, plus the detector over
  ///   each multi-line literal and each one-line literal of 8 bytes or more, plus O(n) set
  ///   lookups over the file's n bytes when a credential was found (``SecretText/occurs(in:)``).
  static func withheldLines(
    _ secrets: [RawFinding.Secret], _ tokens: [SourceToken], _ classified: ClassifiedSource
  ) -> (lines: Set<Int>, text: SecretText) {
    var lines = Set<Int>()
    var text = SecretText()
    let bytes = classified.bytes
    func withhold(_ token: SourceToken) {
      let first = classified.lineIndex(ofByte: token.start)
      let last = classified.lineIndex(ofByte: max(token.start, token.end - 1))
      lines.formUnion(first...last)
    }
    for token in tokens where token.kind == .literal {
      let first = classified.lineIndex(ofByte: token.start)
      let last = classified.lineIndex(ofByte: max(token.start, token.end - 1))
      if first != last {
        guard CredentialDetector.firstFinding(in: classified.text(token.start..<token.end)) != nil else { continue }
        withhold(token)
        // Each line of its text, trimmed (the delimiters' lines hold too little to count).
        let pounds = bytes[token.start..<token.end].prefix { $0 == ASCII.pound }.count
        for line in first...last {
          let range = classified.lineRange(line).clamped(to: token.start..<token.end)
          addLine(trimmed(range, classified), pounds: pounds, to: &text)
        }
      } else if let body = SwiftStringEscapes.body(of: token.start..<token.end, in: bytes),
        body.range.count >= SecretText.shortestText,
        CredentialDetector.firstFinding(in: classified.text(token.start..<token.end)) != nil
      {
        // A one-line literal the detector flags on its own (`"token=Tk9Lo8…"`, `"Bearer …"`
        // passed to a call; review 30-b, 3): what the detector flags in it, each as a line of
        // text, not the whole literal (a JSON-RPC request holding a password shares its other
        // 12-byte runs with every request of the file).
        withhold(token)
        for part in CredentialDetector.secretParts(of: classified.text(body.range)) {
          addLine(ArraySlice(part.utf8), pounds: body.pounds, to: &text)
        }
      }
    }
    var literals = Set<ArraySlice<UInt8>>()
    for secret in secrets {
      lines.formUnion(secret.lines)
      literals.insert(bytes[secret.literal])
      let pounds = bytes[secret.literal].prefix { $0 == ASCII.pound }.count
      if secret.texts.count == 1, let range = secret.texts.first {
        // The value: as written and decoded, each line of it (`"a\nb"` holds two).
        text.addSecret(bytes[range])
        let decoded = SwiftStringEscapes.decoded(bytes[range], pounds: pounds)
        if !decoded.elementsEqual(bytes[range]) {
          for piece in decoded.split(whereSeparator: { $0 == ASCII.lf || $0 == ASCII.cr }) {
            text.addSecret(piece)
          }
        }
      } else {
        for range in secret.texts { addLine(bytes[range], pounds: pounds, to: &text) }
      }
    }
    if !literals.isEmpty {
      for token in tokens where token.kind == .literal && literals.contains(bytes[token.start..<token.end]) {
        withhold(token)
      }
    }
    if !text.isEmpty {
      for line in 0..<classified.lineCount where !lines.contains(line) {
        let range = classified.lineRange(line)
        // As written, and with escapes decoded (`Zq8v\u{4C}m3K…` spells `Zq8vLm3K…`).
        if text.occurs(in: bytes[range])
          || bytes[range].contains(ASCII.backslash) && text.occurs(in: SwiftStringEscapes.decoded(bytes[range]))
        {
          lines.insert(line)
        }
      }
    }
    return (lines, text)
  }

  /// Adds a line of a credential's literal to `text` (``SecretText/add(_:)``), as written and,
  /// when that differs, with its escapes (`\` and `pounds` `#`s) decoded, each line of that.
  private static func addLine(_ line: ArraySlice<UInt8>, pounds: Int, to text: inout SecretText) {
    text.add(line)
    let decoded = SwiftStringEscapes.decoded(line, pounds: pounds)
    guard !decoded.elementsEqual(line) else { return }
    for piece in decoded.split(whereSeparator: { $0 == ASCII.lf || $0 == ASCII.cr }) { text.add(piece) }
  }

  /// The bytes of `range` without the blanks, and carriage returns, at either end.
  private static func trimmed(_ range: Range<Int>, _ classified: ClassifiedSource) -> ArraySlice<UInt8> {
    var low = range.lowerBound
    var high = range.upperBound
    let bytes = classified.bytes
    while low < high, isBlank(bytes[low]) || bytes[low] == ASCII.cr || bytes[low] == ASCII.lf { low += 1 }
    while high > low, isBlank(bytes[high - 1]) || bytes[high - 1] == ASCII.cr || bytes[high - 1] == ASCII.lf { high -= 1 }
    return bytes[low..<high]
  }
}
