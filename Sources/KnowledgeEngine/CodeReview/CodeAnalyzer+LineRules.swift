extension CodeAnalyzer {
  /// Trimmed code lines never reported as repeated: control-flow one-liners and `#if` arms.
  /// (Blank, comment-only, brace/bracket-only and `import` lines are skipped as well.)
  public static let repeatedLineExemptions: Set<String> = [
    "return", "return nil", "return true", "return false", "return self", "break", "continue",
    "fallthrough", "default:", "@unknown default:", "} else {", "#else", "#endif",
  ]

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
      groups += byKey.values.filter { $0.count >= options.repeatedLineMinimum }
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

  static let markerWords: [[UInt8]] = [Array("TODO".utf8), Array("FIXME".utf8)]
  static let importModifiers: [[UInt8]] = [
    "public", "package", "internal", "private", "fileprivate",
  ].map { Array($0.utf8) }

  /// The first `TODO` or `FIXME` (upper case, a whole word) in the line's comment bytes.
  static func todoMarker(
    _ range: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>, _ kinds: UnsafeBufferPointer<UInt8>
  ) -> (offset: Int, word: String)? {
    var i = range.lowerBound
    while i < range.upperBound {
      defer { i += 1 }
      guard kinds[i] == ByteKind.comment, bytes[i] == 0x54 || bytes[i] == 0x46 else { continue }
      if i > range.lowerBound, kinds[i - 1] == ByteKind.comment, isWordByte(bytes[i - 1]) {
        continue
      }
      for word in markerWords where i + word.count <= range.upperBound {
        var matches = true
        for k in 0..<word.count where bytes[i + k] != word[k] || kinds[i + k] != ByteKind.comment {
          matches = false
          break
        }
        let end = i + word.count
        if matches,
          end == range.upperBound || kinds[end] != ByteKind.comment
            || !isWordByte(bytes[end])
        {
          return (i, String(decoding: word, as: UTF8.self))
        }
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
