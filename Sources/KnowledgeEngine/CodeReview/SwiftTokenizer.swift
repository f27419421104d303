/// One token of the code that ``SwiftLexer`` classified: byte offsets into the source.
struct SourceToken {
  enum Kind: UInt8 {
    case identifier, number, literal, `operator`
    /// A left-bound `!` (Swift lexes it as a one-character postfix token).
    case postfixBang
    /// A left-bound `?`.
    case postfixQuestion
    case lparen, rparen, lbracket, rbracket, lbrace, rbrace
    case comma, semicolon, colon, dot, arrow, assign, backslash
    /// `@name`.
    case attribute
    /// `#name` (`#if`, `#selector`, …).
    case poundKeyword
  }

  var kind: Kind
  var keyword: Keyword
  /// Whether a line break precedes the token since the previous token.
  var startsLine: Bool
  var start: Int
  var end: Int
}

/// The keywords and contextual keywords the analyzer looks at; others are `.none`.
enum Keyword: UInt8 {
  case none
  case `let`, `var`, `case`, `default`, `func`, `init`, `subscript`, `macro`
  case `enum`, `struct`, `class`, `actor`, `protocol`, `extension`, `typealias`, `associatedtype`
  case `as`, `is`, `try`, `where`, `throws`, `rethrows`, `async`, `in`, `else`
  case any, some, `inout`, borrowing, consuming, sending, isolated, each, `repeat`
  case owned, shared, `import`
  /// Statement keywords whose `{…}` bodies count for `deep_nesting`, plus `catch` for
  /// `empty_catch`.
  case `if`, `guard`, `for`, `while`, `switch`, `do`, `catch`, `defer`

  /// Keywords by length, for a cheap lookup without allocating a `String`.
  static let table: [[([UInt8], Keyword)]] = {
    let all: [(String, Keyword)] = [
      ("let", .let), ("var", .var), ("case", .case), ("default", .default), ("func", .func),
      ("init", .`init`), ("subscript", .subscript), ("macro", .macro), ("enum", .enum),
      ("struct", .struct), ("class", .class), ("actor", .actor), ("protocol", .protocol),
      ("extension", .extension), ("typealias", .typealias), ("associatedtype", .associatedtype),
      ("as", .as), ("is", .is), ("try", .try), ("where", .where), ("throws", .throws),
      ("rethrows", .rethrows), ("async", .async), ("in", .in), ("else", .else), ("any", .any),
      ("some", .some), ("inout", .inout), ("borrowing", .borrowing), ("consuming", .consuming),
      ("sending", .sending), ("isolated", .isolated), ("each", .each), ("repeat", .repeat),
      ("__owned", .owned), ("__shared", .shared), ("import", .import), ("if", .if),
      ("guard", .guard), ("for", .for), ("while", .while), ("switch", .switch), ("do", .do),
      ("catch", .catch), ("defer", .defer),
    ]
    var table = [[([UInt8], Keyword)]](repeating: [], count: 16)
    for (word, keyword) in all { table[word.utf8.count].append((Array(word.utf8), keyword)) }
    return table
  }()

  /// The keyword spelled by `bytes[start..<end]`, or `.none`.
  static func lookup(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Keyword {
    let length = end - start
    guard length < table.count else { return .none }
    for (word, keyword) in table[length] where word[0] == bytes[start] {
      var equal = true
      for k in 1..<length where word[k] != bytes[start + k] {
        equal = false
        break
      }
      if equal { return keyword }
    }
    return .none
  }
}

/// Splits classified source into tokens of code. String literals become `literal` tokens (an
/// interpolation splits a literal into pieces around its code tokens); comments and whitespace
/// separate tokens.
enum SwiftTokenizer {
  /// - Complexity: O(n) in the byte count.
  static func tokenize(_ source: ClassifiedSource) -> [SourceToken] {
    source.bytes.withUnsafeBufferPointer { bytes in
      source.kinds.withUnsafeBufferPointer { kinds in
        tokenize(bytes: bytes, kinds: kinds)
      }
    }
  }

  static func isIdentifierByte(_ b: UInt8) -> Bool {
    (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F
      || b == 0x24 || b >= 0x80
  }

  static func isOperatorByte(_ b: UInt8) -> Bool {
    switch b {
    case 0x2F, 0x3D, 0x2D, 0x2B, 0x21, 0x2A, 0x25, 0x3C, 0x3E, 0x26, 0x7C, 0x5E, 0x7E, 0x3F:
      true  // / = - + ! * % < > & | ^ ~ ?
    default: false
    }
  }

  /// Swift's rule: an operator is left-bound unless the byte before it is whitespace, an opening
  /// delimiter, an expression separator, or the end of a block comment.
  static func isLeftBound(
    _ i: Int, _ bytes: UnsafeBufferPointer<UInt8>, _ kinds: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    guard i > 0 else { return false }
    switch kinds[i - 1] {
    case ByteKind.comment, ByteKind.lineBreak: return false
    case ByteKind.stringContent, ByteKind.stringDelimiter: return true
    default: break
    }
    switch bytes[i - 1] {
    case 0x20, 0x0D, 0x0A, 0x09, 0x0B, 0x0C, 0x28, 0x5B, 0x7B, 0x2C, 0x3B, 0x3A, 0x00:
      return false  // space \r \n \t VT FF ( [ { , ; : NUL
    case 0xA0:
      return !(i >= 2 && bytes[i - 2] == 0xC2)  // U+00A0 no-break space
    default:
      return true
    }
  }

  static func tokenize(
    bytes: UnsafeBufferPointer<UInt8>, kinds: UnsafeBufferPointer<UInt8>
  ) -> [SourceToken] {
    var tokens: [SourceToken] = []
    tokens.reserveCapacity(bytes.count / 4)
    let n = bytes.count
    var i = 0
    var startsLine = true
    func append(_ kind: SourceToken.Kind, _ start: Int, _ end: Int, _ keyword: Keyword = .none) {
      tokens.append(
        SourceToken(kind: kind, keyword: keyword, startsLine: startsLine, start: start, end: end))
      startsLine = false
    }
    while i < n {
      let kind = kinds[i]
      let b = bytes[i]
      if kind == ByteKind.lineBreak || kind == ByteKind.comment {
        if b == ASCII.lf || b == ASCII.cr { startsLine = true }
        i += 1
        continue
      }
      if kind == ByteKind.stringContent || kind == ByteKind.stringDelimiter {
        let start = i
        while i < n, kinds[i] == ByteKind.stringContent || kinds[i] == ByteKind.stringDelimiter {
          i += 1
        }
        append(.literal, start, i)
        continue
      }
      switch b {
      case 0x20, 0x09, 0x0B, 0x0C, 0x00:
        i += 1
      case 0xC2 where i + 1 < n && bytes[i + 1] == 0xA0:
        i += 2
      case 0x28:
        append(.lparen, i, i + 1)
        i += 1
      case 0x29:
        append(.rparen, i, i + 1)
        i += 1
      case 0x5B:
        append(.lbracket, i, i + 1)
        i += 1
      case 0x5D:
        append(.rbracket, i, i + 1)
        i += 1
      case 0x7B:
        append(.lbrace, i, i + 1)
        i += 1
      case 0x7D:
        append(.rbrace, i, i + 1)
        i += 1
      case 0x2C:
        append(.comma, i, i + 1)
        i += 1
      case 0x3B:
        append(.semicolon, i, i + 1)
        i += 1
      case 0x3A:
        append(.colon, i, i + 1)
        i += 1
      case 0x5C:
        append(.backslash, i, i + 1)
        i += 1
      case ASCII.backtick:
        let start = i
        i += 1
        while i < n, kinds[i] == ByteKind.code, bytes[i] != ASCII.backtick,
          bytes[i] != ASCII.lf, bytes[i] != ASCII.cr
        {
          i += 1
        }
        if i < n, bytes[i] == ASCII.backtick { i += 1 }
        append(.identifier, start, i)
      case 0x40, ASCII.pound:  // @name, #name
        let start = i
        i += 1
        while i < n, kinds[i] == ByteKind.code, isIdentifierByte(bytes[i]) { i += 1 }
        append(b == 0x40 ? .attribute : .poundKeyword, start, i)
      case 0x30...0x39:
        let start = i
        i += 1
        while i < n, kinds[i] == ByteKind.code {
          let c = bytes[i]
          if isIdentifierByte(c) {
            i += 1
          } else if c == 0x2E, i + 1 < n, bytes[i + 1] >= 0x30, bytes[i + 1] <= 0x39 {
            i += 1
          } else if c == 0x2B || c == 0x2D, let e = Optional(bytes[i - 1]),
            e == 0x65 || e == 0x45 || e == 0x70 || e == 0x50
          {
            i += 1  // exponent sign: 1e-3, 0x1p+4
          } else {
            break
          }
        }
        append(.number, start, i)
      case 0x2E
      where
        !(i + 1 < n && kinds[i + 1] == ByteKind.code
        && (bytes[i + 1] == 0x2E || isOperatorByte(bytes[i + 1]))):
        append(.dot, i, i + 1)
        i += 1
      case 0x2E:
        // An operator that starts with a dot may contain dots: `...`, `..<`, `.!=`.
        let start = i
        while i < n, kinds[i] == ByteKind.code, bytes[i] == 0x2E || isOperatorByte(bytes[i]) {
          i += 1
        }
        append(.operator, start, i)
      case _ where isOperatorByte(b):
        if b == ASCII.bang || b == 0x3F, isLeftBound(i, bytes, kinds) {
          append(b == ASCII.bang ? .postfixBang : .postfixQuestion, i, i + 1)
          i += 1
          continue
        }
        let start = i
        i += 1
        while i < n, kinds[i] == ByteKind.code, isOperatorByte(bytes[i]) { i += 1 }
        if i - start == 1, b == 0x3D {
          append(.assign, start, i)
        } else if i - start == 2, b == 0x2D, bytes[start + 1] == 0x3E {
          append(.arrow, start, i)
        } else {
          append(.operator, start, i)
        }
      case _ where isIdentifierByte(b):
        let start = i
        i += 1
        while i < n, kinds[i] == ByteKind.code, isIdentifierByte(bytes[i]) {
          if bytes[i] == 0xC2, i + 1 < n, bytes[i + 1] == 0xA0 { break }
          i += 1
        }
        append(.identifier, start, i, Keyword.lookup(bytes, start, i))
      default:
        i += 1  // stray byte (e.g. `'`): no token
      }
    }
    return tokens
  }
}
