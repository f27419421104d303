// Counts force unwraps, `try!` and `as!` with the toolchain's own SwiftParser: the oracle for
// Dolphin's lexical analyzer. See OracleSupport/CountsOutput.swift for input and output.
import OracleSupport
import SwiftParser
import SwiftSyntax

final class ForcedOperationCounter: SyntaxVisitor {
  let converter: SourceLocationConverter
  var hits: [(rule: String, line: Int)] = []

  init(tree: SourceFileSyntax, fileName: String) {
    converter = SourceLocationConverter(fileName: fileName, tree: tree)
    super.init(viewMode: .sourceAccurate)
  }

  func record(_ rule: String, _ token: TokenSyntax) {
    hits.append((rule, token.startLocation(converter: converter).line))
  }

  override func visit(_ node: ForceUnwrapExprSyntax) -> SyntaxVisitorContinueKind {
    record("force_unwrap", node.exclamationMark)
    return .visitChildren
  }

  override func visit(_ node: TryExprSyntax) -> SyntaxVisitorContinueKind {
    if node.questionOrExclamationMark?.tokenKind == .exclamationMark {
      record("force_try", node.tryKeyword)
    }
    return .visitChildren
  }

  override func visit(_ node: AsExprSyntax) -> SyntaxVisitorContinueKind {
    if node.questionOrExclamationMark?.tokenKind == .exclamationMark {
      record("force_cast", node.asKeyword)
    }
    return .visitChildren
  }

  // Before operator folding, `x as! T` inside a sequence is an UnresolvedAsExpr.
  override func visit(_ node: UnresolvedAsExprSyntax) -> SyntaxVisitorContinueKind {
    if node.questionOrExclamationMark?.tokenKind == .exclamationMark {
      record("force_cast", node.asKeyword)
    }
    return .visitChildren
  }
}

CountsCommand().run { path, source in
  let tree = Parser.parse(source: source)
  let counter = ForcedOperationCounter(tree: tree, fileName: path)
  counter.walk(tree)
  return counter.hits
}
