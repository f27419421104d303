extension CodeAnalyzer {
  /// Trimmed code lines never reported as repeated: control-flow one-liners and `#if` arms.
  /// (Blank, comment-only, brace/bracket-only, `import` and trivial lines — see
  /// ``repeatedLineMinimumTokens`` — are skipped as well.)
  public static let repeatedLineExemptions: Set<String> = [
    "return", "return nil", "return true", "return false", "return self", "break", "continue",
    "fallthrough", "default:", "@unknown default:", "} else {", "#else", "#endif",
  ]

  /// The fewest significant tokens a line needs to count as `repeated_line` logic: 5. A
  /// significant token is a word (an identifier, keyword or number, or a word inside a string
  /// literal) or a run of operator characters (`=`, `+=`, `!=`, `?`); brackets, `.`, `,`, `:`
  /// and `;` are not. So `return result`, `i += 1`, `let start = i`, `try requireWritable()`,
  /// `"""` and `@discardableResult` are trivial; `let rc = sqlite3_step(stmt)` is not.
  ///
  /// Structural lines are not counted whatever their length: a line that ends in `(`, `[` or
  /// `{` (the head of a call, a literal or a block: `return Route(`, `input: .object([`,
  /// `} catch {`), in `:` (a `case` label), or in the word `in` (a closure's signature:
  /// `handler: { args, ctx in`), and `#if`/`#elseif` lines.
  public static let repeatedLineMinimumTokens = 5

  /// Whether the line at `range` is too short or too structural to report as repeated (see
  /// ``repeatedLineMinimumTokens``). Comments are ignored.
  static func isTrivialRepeatedLine(
    _ range: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>, _ kinds: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    var tokens = 0
    var previous = ByteClass.other
    var firstCode = -1
    var lastCode = -1
    for i in range {
      let kind = kinds[i]
      let b = bytes[i]
      var current = ByteClass.other
      if kind == ByteKind.code {
        if SwiftTokenizer.isIdentifierByte(b) {
          current = .word
        } else if SwiftTokenizer.isOperatorByte(b) {
          current = .operator
        }
        if b != ASCII.space, b != ASCII.tab {
          if firstCode < 0 { firstCode = i }
          lastCode = i
        }
      } else if kind == ByteKind.stringContent {
        if isWordByte(b) || b >= 0x80 { current = .stringWord }
      } else if kind == ByteKind.stringDelimiter {
        lastCode = i
        if firstCode < 0 { firstCode = i }
      }
      if current != .other, current != previous { tokens += 1 }
      previous = current
    }
    guard lastCode >= 0 else { return true }
    if tokens < repeatedLineMinimumTokens { return true }
    if kinds[lastCode] == ByteKind.code {
      switch bytes[lastCode] {
      case ASCII.lparen, 0x5B, 0x7B, 0x3A: return true  // ( [ { :
      case UInt8(ascii: "n"):
        if lastCode - 2 >= range.lowerBound, bytes[lastCode - 1] == UInt8(ascii: "i"),
          kinds[lastCode - 1] == ByteKind.code, !isWordByte(bytes[lastCode - 2])
        {
          return true
        }
      default: break
      }
    }
    if bytes[firstCode] == ASCII.pound, kinds[firstCode] == ByteKind.code {
      let word = bytes[(firstCode + 1)..<min(firstCode + 7, range.upperBound)]
      if word.starts(with: "if".utf8) || word.starts(with: "elseif".utf8) { return true }
    }
    return false
  }

  /// What a byte contributes to a token count.
  enum ByteClass { case other, word, `operator`, stringWord }

  /// The line-based rules: `todo`, `long_line`, `repeated_line`.
  ///
  /// Repeated lines are grouped in two passes so that most lines cost no `String`: first by a
  /// 64-bit FNV-1a hash of the line's key bytes, then, within groups large enough, by the exact
  /// key text (so hash collisions cannot merge different lines).
  static func lineFindings(_ classified: ClassifiedSource, options: CodeAnalysisOptions)
    -> [RawFinding]
  {
    let rules = options.rules
    let wantsTodo = rules.contains(.todo)
    let wantsLong = rules.contains(.longLine)
    let wantsRepeated = rules.contains(.repeatedLine)
    var found: [RawFinding] = []
    var linesByHash: [UInt64: [Int]] = [:]
    var keyBuffer: [UInt8] = []
    classified.bytes.withUnsafeBufferPointer { bytes in
      classified.kinds.withUnsafeBufferPointer { kinds in
        for lineIndex in 0..<classified.lineCount {
          let range = classified.lineRange(lineIndex)
          if wantsTodo, let marker = todoMarker(range, bytes, kinds) {
            found.append(
              RawFinding(
                rule: .todo, offset: marker.offset,
                message: "\(marker.word) marker in a comment"))
          }
          if wantsLong, range.count > options.lineLengthLimit {
            let text = classified.text(range)
            let length = text.count
            if length > options.lineLengthLimit {
              let overflow = text.index(text.startIndex, offsetBy: options.lineLengthLimit)
              let offset = range.lowerBound + text[..<overflow].utf8.count
              found.append(
                RawFinding(
                  rule: .longLine, offset: offset,
                  message: "Line is \(length) characters; the limit is \(options.lineLengthLimit)"))
            }
          }
          if wantsRepeated, let hash = repeatedLineHash(range, bytes, kinds, buffer: &keyBuffer) {
            linesByHash[hash, default: []].append(lineIndex)
          }
        }
      }
    }
    guard wantsRepeated else { return found }
    var groups: [[Int]] = []
    for (_, lines) in linesByHash where lines.count >= options.repeatedLineMinimum {
      var byKey: [String: [Int]] = [:]
      for line in lines {
        classified.bytes.withUnsafeBufferPointer { bytes in
          classified.kinds.withUnsafeBufferPointer { kinds in
            _ = repeatedLineKey(classified.lineRange(line), bytes, kinds, into: &keyBuffer)
          }
        }
        byKey[String(decoding: keyBuffer, as: UTF8.self), default: []].append(line)
      }
      for lines in byKey.values where lines.count >= options.repeatedLineMinimum {
        let trivial = classified.bytes.withUnsafeBufferPointer { bytes in
          classified.kinds.withUnsafeBufferPointer { kinds in
            isTrivialRepeatedLine(classified.lineRange(lines[0]), bytes, kinds)
          }
        }
        if !trivial { groups.append(lines) }
      }
    }
    for lines in groups {
      let range = classified.lineRange(lines[0])
      var offset = range.lowerBound
      while offset < range.upperBound,
        classified.bytes[offset] == ASCII.space
          || classified.bytes[offset] == ASCII.tab
      {
        offset += 1
      }
      let numbers = lines.prefix(CodeAnalysisOptions.relatedLinesLimit).map { $0 + 1 }
      let more = lines.count > numbers.count ? ", …" : ""
      found.append(
        RawFinding(
          rule: .repeatedLine, offset: offset,
          message: "Line repeated \(lines.count) times (lines "
            + numbers.map(String.init).joined(separator: ", ") + more + ")",
          occurrences: lines.count, relatedLines: Array(numbers)))
    }
    return found
  }

  /// The 64-bit FNV-1a hash of the line's `repeated_line` key (see
  /// ``repeatedLineKey(_:_:_:into:)``), or `nil` when the line does not count. Most lines are
  /// decided without copying bytes; `buffer` is scratch space for the rest.
  static func repeatedLineHash(
    _ range: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>, _ kinds: UnsafeBufferPointer<UInt8>,
    buffer: inout [UInt8]
  ) -> UInt64? {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    var hashAtLastVisible = hash
    var keyStart = -1
    var keyLength = 0
    var lengthAtLastVisible = 0
    var hasCode = false
    var onlyBrackets = true
    for i in range {
      let kind = kinds[i]
      if kind == ByteKind.comment { continue }
      let b = bytes[i]
      let isBlank = b == ASCII.space || b == ASCII.tab
      if keyStart < 0 {
        if isBlank { continue }
        keyStart = i
      }
      hash = (hash ^ UInt64(b)) &* 0x0000_0100_0000_01B3
      keyLength += 1
      if isBlank { continue }
      hashAtLastVisible = hash
      lengthAtLastVisible = keyLength
      if kind == ByteKind.code || kind == ByteKind.stringDelimiter {
        hasCode = true
        switch b {
        case 0x7B, 0x7D, 0x28, 0x29, 0x5B, 0x5D, 0x3B, 0x2C: break  // { } ( ) [ ] ; ,
        default: onlyBrackets = false
        }
      } else {
        onlyBrackets = false
      }
    }
    guard hasCode, !onlyBrackets else { return nil }
    let mayBeExempt = lengthAtLastVisible <= longestExemption
    let mayBeImport: Bool
    switch bytes[keyStart] {
    case UInt8(ascii: "i"), UInt8(ascii: "@"), UInt8(ascii: "p"), UInt8(ascii: "f"):
      mayBeImport = true
    default:
      mayBeImport = false
    }
    if (mayBeExempt || mayBeImport) && !repeatedLineKey(range, bytes, kinds, into: &buffer) {
      return nil
    }
    return hashAtLastVisible
  }

  static func isWordByte(_ b: UInt8) -> Bool {
    (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F
  }

  static func isCommentLead(_ b: UInt8) -> Bool {
    b == ASCII.slash || b == ASCII.star || b == ASCII.space || b == ASCII.tab
  }

  static let markerWords: [[UInt8]] = [Array("TODO".utf8), Array("FIXME".utf8)]
  static let importModifiers: [[UInt8]] = [
    "public", "package", "internal", "private", "fileprivate",
  ].map { Array($0.utf8) }

  /// The first `TODO` or `FIXME` marker in the line's comments: upper case, a whole word, and
  /// used as a marker — the first word of a comment (after `//`, `///`, `/*`, `/**` or a block
  /// comment's leading `*` and blanks) or followed by `:` or `(`, outside backticks. A mention
  /// such as `` /// reports `TODO` markers `` or `/// TODO/FIXME markers in comments` is not one.
  static func todoMarker(
    _ range: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>, _ kinds: UnsafeBufferPointer<UInt8>
  ) -> (offset: Int, word: String)? {
    var i = range.lowerBound
    while i < range.upperBound {
      guard kinds[i] == ByteKind.comment else {
        i += 1
        continue
      }
      // One run of comment bytes: [runStart, runEnd).
      let runStart = i
      var runEnd = i
      while runEnd < range.upperBound, kinds[runEnd] == ByteKind.comment { runEnd += 1 }
      i = runEnd
      // The comment's first word: past the opener (`//`, `///`, `/*`, `/**`), a block
      // comment's leading `*`, and blanks.
      var first = runStart
      while first < runEnd, isCommentLead(bytes[first]) { first += 1 }
      var backticks = 0
      var k = runStart
      while k < runEnd {
        let b = bytes[k]
        if b == ASCII.backtick { backticks += 1 }
        guard b == 0x54 || b == 0x46, k == first || backticks % 2 == 0,
          k == runStart || !isWordByte(bytes[k - 1])
        else {
          k += 1
          continue
        }
        for word in markerWords where k + word.count <= runEnd {
          var matches = true
          for m in 0..<word.count where bytes[k + m] != word[m] {
            matches = false
            break
          }
          guard matches else { continue }
          let end = k + word.count
          let next: UInt8 = end < runEnd ? bytes[end] : 0
          if isWordByte(next) { continue }
          if k == first || next == UInt8(ascii: ":") || next == ASCII.lparen {
            return (k, String(decoding: word, as: UTF8.self))
          }
        }
        k += 1
      }
    }
    return nil
  }

  /// Fills `key` with the line's code and string bytes without comments, trimmed, and returns
  /// whether the line counts for `repeated_line`: not for blank, comment-only, bracket-only,
  /// `import` and exempt lines.
  static func repeatedLineKey(
    _ range: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>, _ kinds: UnsafeBufferPointer<UInt8>,
    into key: inout [UInt8]
  ) -> Bool {
    key.removeAll(keepingCapacity: true)
    var hasCode = false
    var onlyBrackets = true
    for i in range where kinds[i] != ByteKind.comment {
      let b = bytes[i]
      let isBlank = b == ASCII.space || b == ASCII.tab
      if key.isEmpty && isBlank { continue }
      key.append(b)
      if isBlank { continue }
      if kinds[i] == ByteKind.code || kinds[i] == ByteKind.stringDelimiter {
        hasCode = true
        switch b {
        case 0x7B, 0x7D, 0x28, 0x29, 0x5B, 0x5D, 0x3B, 0x2C: break  // { } ( ) [ ] ; ,
        default: onlyBrackets = false
        }
      } else {
        onlyBrackets = false
      }
    }
    while let last = key.last, last == ASCII.space || last == ASCII.tab { key.removeLast() }
    guard hasCode, !onlyBrackets else { return false }
    if key.count <= longestExemption, exemptionBytes.contains(key) { return false }
    return !isImport(key)
  }

  static let exemptionBytes: Set<[UInt8]> = Set(repeatedLineExemptions.map { Array($0.utf8) })
  static let longestExemption = exemptionBytes.map(\.count).max() ?? 0

  /// `import M`, `@testable import M`, `@_exported import M`, `public import M`, … .
  static func isImport(_ line: [UInt8]) -> Bool {
    switch line.first {
    case UInt8(ascii: "i"), UInt8(ascii: "@"), UInt8(ascii: "p"), UInt8(ascii: "f"): break
    default: return false
    }
    var i = 0
    while i < line.count {
      while i < line.count, line[i] == ASCII.space || line[i] == ASCII.tab { i += 1 }
      let start = i
      while i < line.count, line[i] != ASCII.space, line[i] != ASCII.tab { i += 1 }
      let word = line[start..<i]
      let isModifier = importModifiers.contains { $0.elementsEqual(word) }
      if word.first == UInt8(ascii: "@") || isModifier { continue }
      return word.elementsEqual("import".utf8)
    }
    return false
  }
}
