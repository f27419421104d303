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
        if let hit = secretAssignment(at: index, tokens, classified) {
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
  /// `"<token>"`, not an interpolation). Not for
  /// a member after `.` or a name after `case` (switch values, enum raw values), nor for a value
  /// whose letters and digits end with the name's (`refreshToken = "refresh_token"`,
  /// `authToken = "X-Auth-Token"`: the name of a field or header).
  static func secretAssignment(
    at index: Int, _ tokens: [SourceToken], _ classified: ClassifiedSource
  ) -> RawFinding? {
    guard index >= 2, tokens[index - 1].kind == .assign || tokens[index - 1].kind == .colon
    else { return nil }
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
    // `pwd` is the shortest credential word.
    guard name.kind == .identifier, name.end - name.start >= 3 else { return nil }
    // Not a member or an enum case: `case .apiToken: "API token"` (a switch's value) and
    // `case accessToken = "access_token"` (a raw value) name the credential, they hold none.
    if nameIndex > 0, tokens[nameIndex - 1].kind == .dot || tokens[nameIndex - 1].keyword == .case {
      return nil
    }
    let isKey = classified.bytes.withUnsafeBufferPointer {
      CredentialDetector.isCredentialKey(utf8: UnsafeBufferPointer(rebasing: $0[name.start..<name.end]))
    }
    guard isKey else { return nil }
    let nameText = classified.text(name.start..<name.end)
    let literal = tokens[index]
    let literalText = classified.text(literal.start..<literal.end)
    // A value that spells the name is the name of a field or header, not a secret:
    // `refreshToken = "refresh_token"`, `authToken = "X-Auth-Token"`.
    let spelled = { (s: String) in s.lowercased().filter { $0.isLetter || $0.isNumber } }
    if spelled(literalText).hasSuffix(spelled(nameText)) { return nil }
    let text = nameText + " = " + literalText
    guard let credential = CredentialDetector.firstFinding(in: text) else { return nil }
    // The lines from the name to the end of the literal: `password:` and its value may stand on
    // two lines, and neither may be printed by any finding.
    let first = classified.lineIndex(ofByte: name.start)
    let last = classified.lineIndex(ofByte: max(literal.start, literal.end - 1))
    return RawFinding(
      rule: .hardcodedSecret, offset: name.start,
      message: "Looks like a hard-coded credential (\(credential.kind.displayName)) in `\(nameText)`; "
        + "load it at run time (Keychain, environment, a file outside the repository)",
      secret: RawFinding.Secret(lines: first...last, literal: literal.start..<literal.end))
  }

  /// The 0-based lines no finding may print because they hold what looks like a hard-coded
  /// credential (review 28-b, 1: a `todo`, `long_line` or `force_try` on the line of a
  /// `hardcoded_secret` printed the line, secret and all): the lines of each `secrets` hit, from
  /// the name to the end of its literal, and every line holding a string literal spelled exactly
  /// as one of those literals (`print("Xk9#mQ2vLp8Rz4Tw")` further down, or a repeated copy).
  ///
  ///
  /// Also withheld (review 28-d, 1: the value printed again from a raw string `#"…"#`, inside a
  /// longer literal, or inside a multi-line literal): every line holding a secret's value — its
  /// literal without the delimiters, 8 bytes or more — wherever it stands, and every line of a
  /// multi-line literal whose text the credential detector flags (a private key block).
  /// ``makeFinding(_:_:withheldLines:)`` withholds, besides, any line the detector flags on its own.
  ///
  /// - Complexity: O(t) in the tokens, each literal token hashed once, plus the detector over
  ///   each multi-line literal, plus O(n · v) byte comparisons over the file for each secret's
  ///   value of v bytes.
  static func withheldLines(
    _ secrets: [RawFinding.Secret], _ tokens: [SourceToken], _ classified: ClassifiedSource
  ) -> Set<Int> {
    var lines = Set<Int>()
    func withhold(_ token: SourceToken) {
      let first = classified.lineIndex(ofByte: token.start)
      let last = classified.lineIndex(ofByte: max(token.start, token.end - 1))
      lines.formUnion(first...last)
    }
    for token in tokens where token.kind == .literal {
      let first = classified.lineIndex(ofByte: token.start)
      if first != classified.lineIndex(ofByte: max(token.start, token.end - 1)),
        CredentialDetector.firstFinding(in: classified.text(token.start..<token.end)) != nil
      {
        withhold(token)
      }
    }
    guard !secrets.isEmpty else { return lines }
    var literals = Set<ArraySlice<UInt8>>()
    var values: [ArraySlice<UInt8>] = []
    for secret in secrets {
      lines.formUnion(secret.lines)
      let literal = classified.bytes[secret.literal]
      literals.insert(literal)
      // The value: the literal without its delimiters (`#`s and quotes at both ends).
      let delimiter: (UInt8) -> Bool = { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "#") }
      let value = literal.drop(while: delimiter).reversed().drop(while: delimiter).reversed()
      if value.count >= 8 { values.append(ArraySlice(value)) }
    }
    for token in tokens where token.kind == .literal && literals.contains(classified.bytes[token.start..<token.end]) {
      withhold(token)
    }
    for line in 0..<classified.lineCount where !lines.contains(line) {
      let bytes = classified.bytes[classified.lineRange(line)]
      if values.contains(where: { value in bytes.count >= value.count && contains(bytes, value) }) { lines.insert(line) }
    }
    return lines
  }

  /// Whether `haystack` holds `needle` as a run of bytes.
  private static func contains(_ haystack: ArraySlice<UInt8>, _ needle: ArraySlice<UInt8>) -> Bool {
    guard let first = needle.first, haystack.count >= needle.count else { return false }
    var i = haystack.startIndex
    let last = haystack.endIndex - needle.count
    while i <= last {
      if haystack[i] == first, haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
      i += 1
    }
    return false
  }
}
