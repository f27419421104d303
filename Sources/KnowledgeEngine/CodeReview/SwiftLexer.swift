/// A lexer for Swift source that tells code from comments and string-literal contents.
///
/// It classifies every UTF-8 byte of the input as code, comment, string content, string
/// delimiter or line break, and from that builds per-line views (``LexedLine``). It understands:
/// - line comments (`//`, `///`) and block comments (`/* */`, `/** */`), **nested** as Swift
///   allows (`/* outer /* inner */ still comment */`);
/// - string literals: single-line `"…"`, multiline `"""…"""`, raw `#"…"#`, `##"…"##` and
///   multiline raw `#"""…"""#`, with escapes (`\n`, `\"`, `\u{…}`; in raw strings only
///   `\#…` with the matching number of `#` is an escape);
/// - interpolations `\(…)` and, in raw strings, `\#(…)`: their contents are **code** (nested
///   parentheses, strings, comments and further interpolations inside are followed);
/// - backticked identifiers (`` `class` ``, `` `a b` ``), which are code;
/// - extended regex literals `#/…/#` and bare regex literals `/…/` where an expression can
///   start and the literal closes on its line (contents treated like string contents; see
///   `Scanner.bareRegexClose()`), and a `#!` shebang on the first line (a comment).
///
/// Known limits, on purpose conservative: a `/` whose role is unclear is read as an operator
/// (a wrong guess would hide code), and a bare regex literal ends at the first unescaped `/`,
/// even inside a character class (`/[/]/`); an unterminated single-line string ends at its line
/// break, as the Swift lexer recovers; a lone `\r` counts as a line break like `\n` and `\r\n`.
///
/// It never executes, compiles or uploads anything: it only reads the bytes it is given.
public enum SwiftLexer {
  /// Lexes `source` into one ``LexedLine`` per line.
  ///
  /// - Parameter source: Swift source text; line breaks are `\n`, `\r\n` or `\r`.
  /// - Returns: the lines in order, numbered from 1; an empty source gives one empty line. A
  ///   trailing line break does not start an extra line unless text follows it.
  /// - Complexity: O(n) in the UTF-8 length of `source`. No input bound is applied here;
  ///   ``CodeAnalyzer`` applies ``Limits/codeAnalysisBytes`` before it lexes.
  public static func lex(_ source: String) -> [LexedLine] {
    let classified = classify(Array(source.utf8))
    return (0..<classified.lineCount).map { classified.lexedLine($0) }
  }

  /// Classifies every byte of `bytes` (UTF-8 Swift source).
  ///
  /// - Complexity: O(n) time, O(n) space for the kinds, plus O(nesting) for the mode stack.
  static func classify(_ bytes: [UInt8]) -> ClassifiedSource {
    var scanner = Scanner(bytes: bytes)
    scanner.run()
    return ClassifiedSource(bytes: bytes, kinds: scanner.kinds, lineStarts: scanner.lineStarts)
  }
}

/// The kind of one UTF-8 byte, as ``SwiftLexer`` classified it.
enum ByteKind {
  static let code: UInt8 = 0
  static let comment: UInt8 = 1
  static let stringContent: UInt8 = 2
  /// Quotes, `#` marks and the `\` (`\#`) of an interpolation: code-like, but part of a literal.
  static let stringDelimiter: UInt8 = 3
  /// A line break in code. Line breaks inside a multiline string or a block comment take the
  /// kind of what encloses them.
  static let lineBreak: UInt8 = 4
}

/// ASCII bytes the lexer and analyzer look at.
enum ASCII {
  static let lf: UInt8 = 0x0A
  static let cr: UInt8 = 0x0D
  static let space: UInt8 = 0x20
  static let tab: UInt8 = 0x09
  static let quote: UInt8 = 0x22  // "
  static let pound: UInt8 = 0x23  // #
  static let lparen: UInt8 = 0x28
  static let rparen: UInt8 = 0x29
  static let star: UInt8 = 0x2A
  static let slash: UInt8 = 0x2F
  static let backslash: UInt8 = 0x5C
  static let backtick: UInt8 = 0x60
  static let bang: UInt8 = 0x21
}

/// Source bytes with their kinds and line starts.
struct ClassifiedSource: Sendable {
  let bytes: [UInt8]
  /// One ``ByteKind`` value per byte.
  let kinds: [UInt8]
  /// The byte offset where each line starts; `lineStarts[0] == 0`.
  let lineStarts: [Int]

  var lineCount: Int { lineStarts.count }

  /// The byte range of line `index` (0-based), without its terminator.
  func lineRange(_ index: Int) -> Range<Int> {
    let start = lineStarts[index]
    var end = index + 1 < lineStarts.count ? lineStarts[index + 1] : bytes.count
    while end > start, bytes[end - 1] == ASCII.lf || bytes[end - 1] == ASCII.cr { end -= 1 }
    return start..<end
  }

  /// The 0-based line index holding byte `offset` (binary search).
  func lineIndex(ofByte offset: Int) -> Int {
    var low = 0
    var high = lineStarts.count - 1
    while low < high {
      let mid = (low + high + 1) / 2
      if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
    }
    return low
  }

  /// The text of `range`, decoded as UTF-8 (invalid bytes become U+FFFD).
  func text(_ range: Range<Int>) -> String {
    String(decoding: bytes[range], as: UTF8.self)
  }

  /// Builds the public view of line `index`.
  func lexedLine(_ index: Int) -> LexedLine {
    let range = lineRange(index)
    let text = text(range)
    var code = ""
    var comment = ""
    var codeColumns: [ClosedRange<Int>] = []
    var offset = range.lowerBound
    var column = 0
    for character in text {
      column += 1
      let kind = kinds[offset]
      offset += character.utf8.count
      let isCode = kind == ByteKind.code || kind == ByteKind.stringDelimiter
      code.append(isCode ? character : " ")
      comment.append(kind == ByteKind.comment ? character : " ")
      if isCode {
        if let last = codeColumns.last, last.upperBound == column - 1 {
          codeColumns[codeColumns.count - 1] = last.lowerBound...column
        } else {
          codeColumns.append(column...column)
        }
      }
    }
    return LexedLine(
      number: index + 1, text: text, code: code, comment: comment, codeColumns: codeColumns)
  }
}

extension SwiftLexer {
  /// The byte-level state machine.
  struct Scanner {
    /// What encloses the current position.
    enum Mode {
      /// Inside a string (or extended regex) literal closed by `closer` followed by `pounds` `#`.
      case string(pounds: Int, multiline: Bool, closer: UInt8)
      /// Inside `\(…)`; `parens` counts unclosed `(` within it.
      case interpolation(parens: Int)
    }

    let bytes: [UInt8]
    var kinds: [UInt8]
    var lineStarts: [Int] = [0]
    var modes: [Mode] = []
    var i = 0

    init(bytes: [UInt8]) {
      self.bytes = bytes
      self.kinds = [UInt8](repeating: ByteKind.code, count: bytes.count)
    }

    func byte(_ offset: Int) -> UInt8 { offset < bytes.count ? bytes[offset] : 0 }

    func isLineBreak(_ b: UInt8) -> Bool { b == ASCII.lf || b == ASCII.cr }

    /// Counts `#` bytes from `offset`.
    func pounds(from offset: Int) -> Int {
      var j = offset
      while j < bytes.count, bytes[j] == ASCII.pound { j += 1 }
      return j - offset
    }

    mutating func mark(_ range: Range<Int>, _ kind: UInt8) {
      for j in range { kinds[j] = kind }
    }

    /// Consumes the line break at `i` (`\n`, `\r\n` or `\r`), marks it `kind` (a line break
    /// inside a multiline string or block comment belongs to it) and records the next line start.
    mutating func consumeLineBreak(as kind: UInt8) {
      kinds[i] = kind
      if bytes[i] == ASCII.cr, byte(i + 1) == ASCII.lf {
        kinds[i + 1] = kind
        i += 2
      } else {
        i += 1
      }
      if i < bytes.count { lineStarts.append(i) }
    }

    mutating func run() {
      while i < bytes.count {
        let b = bytes[i]
        if isLineBreak(b) {
          if case .string(_, true, _) = modes.last {
            consumeLineBreak(as: ByteKind.stringContent)
          } else {
            consumeLineBreak(as: ByteKind.lineBreak)
            dropSingleLineModes()
          }
          continue
        }
        if case .string(let pounds, let multiline, let closer) = modes.last {
          scanString(b, pounds: pounds, multiline: multiline, closer: closer)
        } else {
          scanCode(b)
        }
      }
    }

    /// A line break ends single-line strings (and interpolations inside them) as the Swift
    /// lexer's recovery does.
    mutating func dropSingleLineModes() {
      let isSingleLineString: (Mode) -> Bool = {
        if case .string(_, false, _) = $0 { true } else { false }
      }
      if let outermost = modes.firstIndex(where: isSingleLineString) {
        modes.removeSubrange(outermost...)
      }
    }

    mutating func scanString(_ b: UInt8, pounds: Int, multiline: Bool, closer: UInt8) {
      if b == ASCII.backslash, closer == ASCII.quote {
        let escapePounds = min(self.pounds(from: i + 1), pounds)
        let after = i + 1 + escapePounds
        guard escapePounds == pounds else {
          kinds[i] = ByteKind.stringContent
          i += 1
          return
        }
        if byte(after) == ASCII.lparen {
          mark(i..<after, ByteKind.stringDelimiter)
          kinds[after] = ByteKind.code
          modes.append(.interpolation(parens: 0))
          i = after + 1
          return
        }
        mark(i..<after, ByteKind.stringContent)
        i = after
        if i < bytes.count, !isLineBreak(bytes[i]) {
          kinds[i] = ByteKind.stringContent
          i += 1
        }
        return
      }
      if b == closer {
        let quoteCount = multiline && closer == ASCII.quote ? 3 : 1
        var j = i
        var matched = true
        for _ in 0..<quoteCount {
          if byte(j) == closer { j += 1 } else { matched = false }
        }
        if matched, self.pounds(from: j) >= pounds {
          mark(i..<(j + pounds), ByteKind.stringDelimiter)
          modes.removeLast()
          i = j + pounds
          return
        }
      }
      kinds[i] = ByteKind.stringContent
      i += 1
    }

    mutating func scanCode(_ b: UInt8) {
      switch b {
      case ASCII.slash where byte(i + 1) == ASCII.slash:
        while i < bytes.count, !isLineBreak(bytes[i]) {
          kinds[i] = ByteKind.comment
          i += 1
        }
      case ASCII.slash where byte(i + 1) == ASCII.star:
        scanBlockComment()
      case ASCII.slash:
        if let close = bareRegexClose() {
          kinds[i] = ByteKind.stringDelimiter
          mark((i + 1)..<close, ByteKind.stringContent)
          kinds[close] = ByteKind.stringDelimiter
          i = close + 1
        } else {
          i += 1
        }
      case ASCII.quote:
        let multiline = byte(i + 1) == ASCII.quote && byte(i + 2) == ASCII.quote
        let width = multiline ? 3 : 1
        mark(i..<(i + width), ByteKind.stringDelimiter)
        modes.append(.string(pounds: 0, multiline: multiline, closer: ASCII.quote))
        i += width
      case ASCII.pound:
        scanPound()
      case ASCII.backtick:
        // A backticked identifier is code up to its closing backtick on the same line.
        i += 1
        while i < bytes.count, !isLineBreak(bytes[i]) {
          i += 1
          if bytes[i - 1] == ASCII.backtick { break }
        }
      case ASCII.lparen:
        if case .interpolation(let parens) = modes.last {
          modes[modes.count - 1] = .interpolation(parens: parens + 1)
        }
        i += 1
      case ASCII.rparen:
        if case .interpolation(let parens) = modes.last {
          if parens == 0 {
            modes.removeLast()
          } else {
            modes[modes.count - 1] = .interpolation(parens: parens - 1)
          }
        }
        i += 1
      default:
        i += 1
      }
    }

    /// Words after which a `/` starts an expression, so it may open a bare regex literal.
    static let regexKeywords: [[UInt8]] = [
      "return", "throw", "case", "in", "try", "await", "if", "guard", "while", "where", "else",
      "switch", "for", "yield",
    ].map { Array($0.utf8) }

    /// The offset of the `/` that closes a bare regex literal (SE-0354) opened by the `/` at
    /// `i`, or `nil` when that `/` is an operator. It opens one only where an expression can
    /// start and the literal closes on the same line:
    /// - the `/` is not left-bound: not right after an operand or operator character (`a/b`,
    ///   `x /= 2`); after blanks, the previous code is not an operand (an identifier other than
    ///   `return`, `case`, `in`, `try`, `await`, `if`, … ; a number; `)`, `]`, `}`; a string);
    /// - the next character is not a blank, `)`, `,` or `=` (`a / b`, `reduce(0, /)`, `/=`);
    /// - an unescaped `/` follows on the same line, not right after a blank.
    /// So `let r = /foo!bar/` and `if s.contains(/a+/)` are literals, `total / count`, `a/b/c`
    /// and `(x + y) /2` are not. A wrong guess would hide code, so anything unclear is code.
    func bareRegexClose() -> Int? {
      switch byte(i + 1) {
      case ASCII.space, ASCII.tab, ASCII.lf, ASCII.cr, 0, ASCII.rparen, UInt8(ascii: ","),
        UInt8(ascii: "="):
        return nil
      default: break
      }
      let lineStart = lineStarts[lineStarts.count - 1]
      var j = i - 1
      while j >= lineStart, bytes[j] == ASCII.space || bytes[j] == ASCII.tab { j -= 1 }
      if j >= lineStart, kinds[j] != ByteKind.comment {
        let p = bytes[j]
        if kinds[j] == ByteKind.stringDelimiter || kinds[j] == ByteKind.stringContent {
          return nil
        }
        let adjacent = j == i - 1
        switch p {
        case ASCII.lparen, 0x5B, 0x7B, 0x2C, 0x3B, 0x3A:  // ( [ { , ; :
          break
        case ASCII.rparen, 0x5D, 0x7D:  // ) ] }
          return nil
        case _ where SwiftTokenizer.isIdentifierByte(p):
          if adjacent { return nil }
          var w = j
          while w > lineStart, SwiftTokenizer.isIdentifierByte(bytes[w - 1]) { w -= 1 }
          let word = bytes[w...j]
          guard Self.regexKeywords.contains(where: { $0.elementsEqual(word) }),
            w == lineStart || bytes[w - 1] != 0x2E  // not a member: `.in`
          else { return nil }
        default:
          // An operator character: right before the `/` it would be one operator (`+/`).
          if adjacent { return nil }
        }
      }
      var k = i + 1
      while k < bytes.count, !isLineBreak(bytes[k]) {
        if bytes[k] == ASCII.backslash {
          k += 2
          continue
        }
        if bytes[k] == ASCII.slash {
          let last = bytes[k - 1]
          return last == ASCII.space || last == ASCII.tab ? nil : k
        }
        k += 1
      }
      return nil
    }

    /// A block comment, nested as Swift allows; may span lines.
    mutating func scanBlockComment() {
      var depth = 0
      while i < bytes.count {
        let b = bytes[i]
        if isLineBreak(b) {
          consumeLineBreak(as: ByteKind.comment)
          continue
        }
        if b == ASCII.slash, byte(i + 1) == ASCII.star {
          depth += 1
          mark(i..<(i + 2), ByteKind.comment)
          i += 2
        } else if b == ASCII.star, byte(i + 1) == ASCII.slash {
          depth -= 1
          mark(i..<(i + 2), ByteKind.comment)
          i += 2
          if depth == 0 { return }
        } else {
          kinds[i] = ByteKind.comment
          i += 1
        }
      }
    }

    /// `#` starts a raw string, an extended regex literal, a shebang, or is code (`#if`).
    mutating func scanPound() {
      let count = pounds(from: i)
      let next = byte(i + count)
      if next == ASCII.quote {
        let multiline = byte(i + count + 1) == ASCII.quote && byte(i + count + 2) == ASCII.quote
        let width = count + (multiline ? 3 : 1)
        mark(i..<(i + width), ByteKind.stringDelimiter)
        modes.append(.string(pounds: count, multiline: multiline, closer: ASCII.quote))
        i += width
      } else if next == ASCII.slash {
        let multiline = isLineBreak(byte(i + count + 1))
        mark(i..<(i + count + 1), ByteKind.stringDelimiter)
        modes.append(.string(pounds: count, multiline: multiline, closer: ASCII.slash))
        i += count + 1
      } else if i == 0, next == ASCII.bang {
        while i < bytes.count, !isLineBreak(bytes[i]) {
          kinds[i] = ByteKind.comment
          i += 1
        }
      } else {
        i += count
      }
    }
  }
}
