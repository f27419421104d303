extension CodeAnalyzer {
  /// Trimmed code lines never reported as repeated: control-flow one-liners and `#if` arms.
  /// (Blank, comment-only, brace/bracket-only and `import` lines are skipped as well.)
  public static let repeatedLineExemptions: Set<String> = [
    "return", "return nil", "return true", "return false", "return self", "break", "continue",
    "fallthrough", "default:", "@unknown default:", "} else {", "#else", "#endif",
  ]

  /// The line-based rules: `todo`, `long_line`, `repeated_line`.
  static func lineFindings(_ classified: ClassifiedSource, options: CodeAnalysisOptions)
    -> [RawFinding]
  {
    let rules = options.rules
    let wantsTodo = rules.contains(.todo)
    let wantsLong = rules.contains(.longLine)
    let wantsRepeated = rules.contains(.repeatedLine)
    var found: [RawFinding] = []
    var linesByKey: [String: [Int]] = [:]
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
          if wantsRepeated, let key = repeatedLineKey(range, bytes, kinds) {
            linesByKey[key, default: []].append(lineIndex)
          }
        }
      }
    }
    for (_, lines) in linesByKey where lines.count >= options.repeatedLineMinimum {
      let range = classified.lineRange(lines[0])
      var offset = range.lowerBound
      while offset < range.upperBound, classified.bytes[offset] == ASCII.space
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

  static func isWordByte(_ b: UInt8) -> Bool {
    (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F
  }

  /// The first `TODO` or `FIXME` (upper case, a whole word) in the line's comment bytes.
  static func todoMarker(
    _ range: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>, _ kinds: UnsafeBufferPointer<UInt8>
  ) -> (offset: Int, word: String)? {
    let todo: [UInt8] = Array("TODO".utf8)
    let fixme: [UInt8] = Array("FIXME".utf8)
    var i = range.lowerBound
    while i < range.upperBound {
      defer { i += 1 }
      guard kinds[i] == ByteKind.comment, bytes[i] == 0x54 || bytes[i] == 0x46 else { continue }
      if i > range.lowerBound, kinds[i - 1] == ByteKind.comment, isWordByte(bytes[i - 1]) {
        continue
      }
      for word in [todo, fixme] where i + word.count <= range.upperBound {
        var matches = true
        for k in 0..<word.count where bytes[i + k] != word[k] || kinds[i + k] != ByteKind.comment {
          matches = false
          break
        }
        let end = i + word.count
        if matches, end == range.upperBound || kinds[end] != ByteKind.comment
          || !isWordByte(bytes[end])
        {
          return (i, String(decoding: word, as: UTF8.self))
        }
      }
    }
    return nil
  }

  /// The line's code and string text without comments, trimmed, when it should count for
  /// `repeated_line`; `nil` for blank, comment-only, brace-only, `import` and exempt lines.
  static func repeatedLineKey(
    _ range: Range<Int>, _ bytes: UnsafeBufferPointer<UInt8>, _ kinds: UnsafeBufferPointer<UInt8>
  ) -> String? {
    var kept: [UInt8] = []
    var hasCode = false
    var onlyBrackets = true
    for i in range where kinds[i] != ByteKind.comment {
      let b = bytes[i]
      kept.append(b)
      let isCode = kinds[i] == ByteKind.code || kinds[i] == ByteKind.stringDelimiter
      if isCode, b != ASCII.space, b != ASCII.tab {
        hasCode = true
        switch b {
        case 0x7B, 0x7D, 0x28, 0x29, 0x5B, 0x5D, 0x3B, 0x2C: break  // { } ( ) [ ] ; ,
        default: onlyBrackets = false
        }
      } else if !isCode, b != ASCII.space, b != ASCII.tab {
        onlyBrackets = false
      }
    }
    guard hasCode, !onlyBrackets else { return nil }
    var start = 0
    var end = kept.count
    while start < end, kept[start] == ASCII.space || kept[start] == ASCII.tab { start += 1 }
    while end > start, kept[end - 1] == ASCII.space || kept[end - 1] == ASCII.tab { end -= 1 }
    let key = String(decoding: kept[start..<end], as: UTF8.self)
    if repeatedLineExemptions.contains(key) || isImport(key) { return nil }
    return key
  }

  /// `import M`, `@testable import M`, `@_exported import M`, `public import M`, … .
  static func isImport(_ line: String) -> Bool {
    var words = line.split(separator: " ", omittingEmptySubsequences: true)[...]
    while let first = words.first,
      first.hasPrefix("@") || ["public", "package", "internal", "private", "fileprivate"].contains(first)
    {
      words = words.dropFirst()
    }
    return words.first == "import"
  }
}
