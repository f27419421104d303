/// Finds `try!`, `as!` and force unwraps in a token stream.
///
/// A left-bound `!` is one token in Swift. After `try` it is a forced try, after `as` a forced
/// cast, after a declaration's `init` a failable initializer, inside a type an implicitly
/// unwrapped optional, and otherwise a force unwrap. The hard part is knowing when the parser
/// would be reading a type, so this keeps a light context per bracket: a stack of frames, each
/// knowing whether it holds statements, an expression, a parameter clause or a type list, and
/// whether a type is being read at its level. Types start after `->`, `as`/`is`, a declaration's
/// `:` (bindings, parameters, generic parameters, inheritance), `typealias … =` and inside
/// brackets opened within a type; they end at `=`, `{`, a statement boundary, a separator or a
/// word that cannot continue a type.
///
/// It is a heuristic, checked against SwiftParser (see `Docs/CodeAnalysis.md`), not a parser.
struct ForcedOperationScanner {
  /// A place where a rule fired: the rule and the byte offset of the `!` (or `try`/`as`).
  struct Hit {
    var rule: CodeRule
    var offset: Int
  }

  enum Role {
    /// The file or a `{…}` body.
    case statements
    /// A call, tuple, grouping, subscript or collection literal.
    case expression
    /// A function, initializer, subscript or closure parameter clause: `label: Type = default`.
    case parameters
    /// Brackets opened inside a type (tuple, function, array, dictionary types), an enum case's
    /// associated values, `<…>` generic parameters or arguments.
    case typeList
  }

  enum Declaration {
    case none
    /// After `func`, `init`, `subscript`, `macro`: a parameter clause may follow.
    case function
    /// After `struct`, `class`, `actor`, `protocol`, `extension`: `:` starts inheritance.
    case type
    /// After `enum`: the body holds `case` declarations.
    case enumeration
    /// After `typealias` or `associatedtype`: `=` and `:` start types.
    case alias
    /// After `case` inside an enum body: `(` opens associated values.
    case enumCase
  }

  /// What closes a frame.
  enum Closer {
    case brace, paren, bracket
    /// `>` of generic parameters or arguments.
    case angle
  }

  struct Frame {
    var role: Role
    var closer: Closer
    var readingType = false
    /// A complete type was just read (a name, `)`, `]`, `>`, `?`, `!`), so a following word
    /// that cannot continue a type ends it.
    var typeComplete = false
    /// The type being read is a cast's (`as`, `is`): a `:` ends it (`c ? x as! T : y`).
    var castType = false
    /// `let`/`var` seen and no `=` yet: `:` starts a type annotation.
    var binding = false
    /// The statement declares bindings: after `,` another one may follow.
    var bindingStatement = false
    /// In a `case …:` or `default:` label of a switch.
    var caseLabel = false
    var declaration = Declaration.none
    /// The declaration still awaits its parameter clause (or generic parameters).
    var awaitingParameters = false
    var enumBody = false

    mutating func endStatement() {
      readingType = false
      typeComplete = false
      castType = false
      binding = false
      bindingStatement = false
      caseLabel = false
      declaration = .none
      awaitingParameters = false
    }
  }

  let bytes: UnsafeBufferPointer<UInt8>
  let tokens: [SourceToken]
  var frames: [Frame] = [Frame(role: .statements, closer: .brace)]
  var hits: [Hit] = []
  /// Token indices of `!` inside key paths (`\A.b!`), which are key-path components.
  var keyPathBangs: Set<Int> = []

  static func scan(_ source: ClassifiedSource, tokens: [SourceToken]) -> [Hit] {
    source.bytes.withUnsafeBufferPointer { bytes in
      var scanner = ForcedOperationScanner(bytes: bytes, tokens: tokens)
      scanner.run()
      return scanner.hits
    }
  }

  /// Whether token `index` is a keyword used as one (not after `.` as a member name).
  func isKeyword(_ index: Int, _ keyword: Keyword) -> Bool {
    tokens[index].keyword == keyword && (index == 0 || tokens[index - 1].kind != .dot)
  }

  /// Whether a token at the start of a line continues the statement above.
  func continuesStatement(_ t: SourceToken) -> Bool {
    switch t.kind {
    case .dot, .operator, .arrow, .colon, .comma, .lbrace, .assign, .postfixBang,
      .postfixQuestion, .rparen, .rbracket, .rbrace:
      return true
    case .identifier:
      switch t.keyword {
      case .where, .throws, .rethrows, .async, .as, .is: return true
      default: return false
      }
    default:
      return false
    }
  }

  /// The index of the token closing the bracket opened at `open`, or `nil`.
  func matchingClose(_ open: Int) -> Int? {
    var depth = 0
    var k = open
    while k < tokens.count {
      switch tokens[k].kind {
      case .lparen, .lbracket, .lbrace: depth += 1
      case .rparen, .rbracket, .rbrace:
        depth -= 1
        if depth == 0 { return k }
      default: break
      }
      k += 1
    }
    return nil
  }

  /// Marks `!` tokens of the key path starting at the `\` at `index`.
  mutating func markKeyPath(from index: Int) {
    var k = index + 1
    while k < tokens.count {
      let t = tokens[k]
      if t.startsLine && k > index + 1 { return }
      switch t.kind {
      case .identifier, .dot, .postfixQuestion: k += 1
      case .postfixBang:
        keyPathBangs.insert(k)
        k += 1
      case .lbracket, .lparen:
        guard let close = matchingClose(k) else { return }
        k = close + 1
      case .operator where bytes[t.start] == 0x3C && tokens[k - 1].kind == .identifier:
        guard let close = matchingAngle(k) else { return }
        k = close + 1
      default: return
      }
    }
  }

  /// The index of the token holding the `>` that closes the `<` starting token `open`, when
  /// only type-like tokens lie between (`\Dictionary<String, [Int]>.keys`).
  func matchingAngle(_ open: Int) -> Int? {
    var depth = 0
    var k = open
    while k < tokens.count, k - open < 64 {
      let t = tokens[k]
      switch t.kind {
      case .operator:
        for j in t.start..<t.end {
          switch bytes[j] {
          case 0x3C: depth += 1
          case 0x3E: depth -= 1
          case 0x3F, 0x21, 0x26: break
          default: return nil
          }
        }
        if depth <= 0 { return k }
      case .identifier, .comma, .dot, .colon, .lbracket, .rbracket, .lparen, .rparen,
        .postfixQuestion, .postfixBang, .arrow:
        break
      default:
        return nil
      }
      k += 1
    }
    return nil
  }

  /// Drops unclosed `<…>` frames: no bracket or statement can sit inside generic brackets, so
  /// a `<` taken for one was a comparison after all.
  mutating func dropAngles() {
    while frames.count > 1, frames[frames.count - 1].closer == .angle { frames.removeLast() }
  }

  mutating func run() {
    for index in tokens.indices {
      step(index)
    }
  }

  mutating func step(_ index: Int) {
    let t = tokens[index]
    var f = frames[frames.count - 1]
    if t.startsLine, f.role == .statements, !continuesStatement(t) {
      f.endStatement()
    }
    if f.readingType, f.typeComplete {
      if endsType(t, index) {
        f.readingType = false
        f.typeComplete = false
      }
    }
    frames[frames.count - 1] = f
    handle(t, index)
  }

  func isConditionalCompilation(_ t: SourceToken) -> Bool {
    for word: StaticString in ["#if", "#elseif", "#else", "#endif"] where isSpelled(t, word) {
      return true
    }
    return false
  }

  /// Whether token `t` is spelled exactly `word`.
  func isSpelled(_ t: SourceToken, _ word: StaticString) -> Bool {
    guard t.end - t.start == word.utf8CodeUnitCount else { return false }
    let w = word.utf8Start
    for k in 0..<word.utf8CodeUnitCount where bytes[t.start + k] != w[k] { return false }
    return true
  }

  /// Whether `t`, after a complete type, ends it.
  func endsType(_ t: SourceToken, _ index: Int) -> Bool {
    switch t.kind {
    case .identifier:
      switch t.keyword {
      case .where, .throws, .rethrows, .async: return false
      default: return true
      }
    case .number, .literal, .poundKeyword, .backslash: return true
    case .operator:
      // `&` (composition), `==` (same-type requirement), `...` (variadic) continue a type;
      // other operators are binary operators after a cast.
      return !isTypeOperator(t)
    default:
      return false
    }
  }

  func isTypeOperator(_ t: SourceToken) -> Bool {
    // `==` (a same-type requirement in a `where` clause).
    if t.end - t.start == 2, bytes[t.start] == 0x3D, bytes[t.start + 1] == 0x3D { return true }
    for k in t.start..<t.end {
      switch bytes[k] {
      case 0x3C, 0x3E, 0x3F, 0x21, 0x26, 0x2E: continue  // < > ? ! & .
      default: return false
      }
    }
    return true
  }

  mutating func handle(_ t: SourceToken, _ index: Int) {
    let top = frames.count - 1
    switch t.kind {
    case .identifier:
      handleWord(t, index)
    case .number, .literal, .attribute:
      break
    case .poundKeyword:
      // `#if`, `#elseif`, `#else`, `#endif` stand on their own lines between statements;
      // other `#` words (`#selector`, `#require`, macros) are expressions.
      if isConditionalCompilation(t) { frames[top].endStatement() }
    case .backslash:
      markKeyPath(from: index)
    case .dot:
      if frames[top].readingType { frames[top].typeComplete = false }
    case .postfixQuestion:
      break
    case .postfixBang:
      handleBang(index)
    case .arrow:
      frames[top].readingType = true
      frames[top].typeComplete = false
      frames[top].castType = false
    case .assign:
      if frames[top].declaration == .alias {
        frames[top].readingType = true
        frames[top].castType = false
      } else {
        frames[top].readingType = false
      }
      frames[top].typeComplete = false
      frames[top].binding = false
    case .colon:
      handleColon()
    case .comma:
      handleComma()
    case .semicolon:
      dropAngles()
      frames[frames.count - 1].endStatement()
    case .operator:
      handleOperator(t, index)
    case .lparen:
      openParen(index)
    case .lbracket:
      let inType = frames[top].readingType
      frames[top].typeComplete = false
      frames.append(
        Frame(role: inType ? .typeList : .expression, closer: .bracket, readingType: inType))
    case .lbrace:
      dropAngles()
      let current = frames.count - 1
      let enumBody = frames[current].declaration == .enumeration
      frames[current].endStatement()
      var frame = Frame(role: .statements, closer: .brace)
      frame.enumBody = enumBody
      frames.append(frame)
    case .rparen, .rbracket:
      dropAngles()
      let closer: Closer = t.kind == .rparen ? .paren : .bracket
      guard frames.count > 1, frames[frames.count - 1].closer == closer else { return }
      let frame = frames.removeLast()
      let parent = frames.count - 1
      if frame.role == .typeList {
        frames[parent].typeComplete = true
      } else if frame.role == .parameters {
        frames[parent].readingType = false
      }
    case .rbrace:
      while frames.count > 1 {
        let frame = frames.removeLast()
        if frame.closer == .brace { break }
      }
      frames[frames.count - 1].endStatement()
    }
  }

  mutating func handleWord(_ t: SourceToken, _ index: Int) {
    let top = frames.count - 1
    let afterDot = index > 0 && tokens[index - 1].kind == .dot
    if afterDot {
      if frames[top].readingType { frames[top].typeComplete = true }
      return
    }
    switch t.keyword {
    case .let, .var:
      frames[top].binding = true
      frames[top].bindingStatement = true
    case .case:
      if frames[top].enumBody {
        frames[top].declaration = .enumCase
      } else {
        frames[top].caseLabel = true
      }
    case .default:
      frames[top].caseLabel = true
    case .func, .`init`, .subscript, .macro:
      frames[top].declaration = .function
      frames[top].awaitingParameters = true
    case .struct, .class, .actor, .protocol, .extension:
      frames[top].declaration = .type
    case .enum:
      frames[top].declaration = .enumeration
    case .typealias, .associatedtype:
      frames[top].declaration = .alias
    case .as, .is:
      frames[top].readingType = true
      frames[top].typeComplete = false
      frames[top].castType = true
    case .where:
      // After a `case` pattern or a cast (`catch let e as E where …`) a condition follows;
      // after a declaration, generic requirements.
      if frames[top].caseLabel || frames[top].castType {
        frames[top].readingType = false
        frames[top].castType = false
      } else if frames[top].declaration != .none || frames[top].readingType {
        frames[top].readingType = true
        frames[top].castType = false
      }
      frames[top].typeComplete = false
    case .any, .some, .inout, .borrowing, .consuming, .sending, .isolated, .each, .repeat,
      .owned, .shared, .throws, .rethrows, .async:
      if frames[top].readingType { frames[top].typeComplete = false }
    case .in:
      frames[top].readingType = false
      frames[top].typeComplete = false
    default:
      if frames[top].readingType { frames[top].typeComplete = true }
    }
  }

  mutating func handleBang(_ index: Int) {
    let top = frames.count - 1
    if keyPathBangs.contains(index) { return }
    if index > 0 {
      if isKeyword(index - 1, .try) {
        hits.append(Hit(rule: .forceTry, offset: tokens[index - 1].start))
        return
      }
      if isKeyword(index - 1, .as) {
        hits.append(Hit(rule: .forceCast, offset: tokens[index - 1].start))
        return
      }
      if isKeyword(index - 1, .`init`) { return }
    }
    if frames[top].readingType { return }
    hits.append(Hit(rule: .forceUnwrap, offset: tokens[index].start))
  }

  mutating func handleColon() {
    let top = frames.count - 1
    var f = frames[top]
    if f.caseLabel {
      f.caseLabel = false
      f.binding = false
      f.bindingStatement = false
      f.readingType = false
    } else if f.readingType, f.castType {
      f.readingType = false
    } else if f.readingType {
      f.typeComplete = false
    } else if f.role == .parameters || f.role == .typeList || f.binding {
      f.readingType = true
      f.typeComplete = false
      f.castType = false
    } else if f.declaration == .type || f.declaration == .enumeration || f.declaration == .alias {
      f.readingType = true
      f.typeComplete = false
      f.castType = false
    }
    frames[top] = f
  }

  mutating func handleComma() {
    let top = frames.count - 1
    var f = frames[top]
    switch f.role {
    case .parameters, .expression:
      f.readingType = false
    case .typeList:
      f.readingType = true
    case .statements:
      if f.readingType, f.declaration != .none {
        // Inheritance list or generic requirements: `: A, B`, `where T: P, U: Q`.
      } else if f.bindingStatement {
        f.binding = true
        f.readingType = false
      } else {
        f.readingType = false
      }
    }
    f.typeComplete = false
    frames[top] = f
  }

  mutating func handleOperator(_ t: SourceToken, _ index: Int) {
    let top = frames.count - 1
    if bytes[t.start] == 0x3C, !frames[top].readingType, opensGenericParameters(at: index) {
      // Generic parameters of a declaration: `func f<T: P>(`, `init<T>(`, `struct S<T>`.
      applyAngles(t, from: t.start)
      return
    }
    if bytes[t.start] == 0x3C, !frames[top].readingType, opensGenericArguments(at: index) {
      applyAngles(t, from: t.start)
      return
    }
    if frames[top].readingType {
      if isTypeOperator(t) {
        applyAngles(t, from: t.start)
        return
      }
      frames[top].readingType = false
      frames[top].typeComplete = false
    }
  }

  /// Whether the `<` at token `index` opens generic arguments in an expression
  /// (`Array<Int!>()`, `Foo<T>.bar`), as Swift decides: it touches the name before it, a
  /// matching `>` follows with only type tokens between, and the token after that `>` can follow
  /// generic arguments (`(`, `.`, `[`, a closing bracket, a separator, `?`, `!`, a line break).
  /// Otherwise it is the less-than operator (`a<b && c>d`).
  func opensGenericArguments(at index: Int) -> Bool {
    guard index > 0, tokens[index].end - tokens[index].start == 1 else { return false }
    let previous = tokens[index - 1]
    guard previous.kind == .identifier, previous.end == tokens[index].start,
      let close = matchingAngle(index)
    else { return false }
    guard close + 1 < tokens.count else { return true }
    let next = tokens[close + 1]
    if next.startsLine { return true }
    switch next.kind {
    case .lparen, .dot, .lbracket, .rparen, .rbracket, .rbrace, .comma, .colon, .semicolon,
      .postfixQuestion, .postfixBang:
      return true
    default:
      return false
    }
  }

  /// Whether the `<` at token `index` follows a declaration's name: the name is an identifier
  /// (or `init`, `subscript`), or an operator right after `func` (`static func == <T>(`). After
  /// `func` itself, `<` is the name of an operator function.
  func opensGenericParameters(at index: Int) -> Bool {
    let f = frames[frames.count - 1]
    guard f.declaration != .none, f.declaration != .enumCase, index > 0 else { return false }
    let previous = tokens[index - 1]
    if previous.kind == .identifier { return previous.keyword != .func }
    if previous.kind == .operator, index > 1 { return tokens[index - 2].keyword == .func }
    return false
  }

  /// Applies the `<` and `>` of an operator token read inside a type: `<` opens generic
  /// arguments, `>` closes them (Swift splits `>>` and `>?` there).
  mutating func applyAngles(_ t: SourceToken, from start: Int) {
    for k in start..<t.end {
      let top = frames.count - 1
      switch bytes[k] {
      case 0x3C:
        frames[top].typeComplete = false
        frames.append(Frame(role: .typeList, closer: .angle, readingType: true))
      case 0x3E:
        if frames[top].closer == .angle, frames.count > 1 {
          frames.removeLast()
          frames[frames.count - 1].typeComplete = true
        }
      case 0x26, 0x3D:  // `&` of a composition, `==` of a same-type requirement
        frames[top].typeComplete = false
      default:
        break
      }
    }
  }

  mutating func openParen(_ index: Int) {
    let top = frames.count - 1
    var f = frames[top]
    let previous = index > 0 ? tokens[index - 1] : nil
    let role: Role
    if f.readingType {
      role = .typeList
    } else if let previous, previous.keyword == .throws {
      role = .typeList
    } else if f.awaitingParameters {
      role = .parameters
      f.awaitingParameters = false
    } else if f.declaration == .enumCase {
      role = .typeList
    } else if previous?.kind == .lbrace || previous?.kind == .rbracket
      || previous?.kind == .attribute, isClosureSignature(index)
    {
      role = .parameters
    } else {
      role = .expression
    }
    f.typeComplete = false
    frames[top] = f
    frames.append(Frame(role: role, closer: .paren, readingType: role == .typeList))
  }

  /// Whether the `(` at `index`, right after `{`, a capture list's `]` or an attribute, is a
  /// closure's parameter clause: its `)` is followed by `in`, `->`, `throws`, `async` or
  /// `rethrows`.
  func isClosureSignature(_ index: Int) -> Bool {
    guard let close = matchingClose(index), close + 1 < tokens.count else { return false }
    let next = tokens[close + 1]
    if next.kind == .arrow { return true }
    switch next.keyword {
    case .in, .throws, .async, .rethrows: return true
    default: return false
    }
  }
}
