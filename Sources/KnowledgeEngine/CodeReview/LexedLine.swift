/// One line of Swift source as ``SwiftLexer`` sees it.
///
/// `text`, `code` and `comment` have the same number of `Character`s, so a column means the
/// same thing in all three: `code` keeps code characters (string delimiters and interpolated
/// code included) and blanks string contents and comments to spaces; `comment` keeps comment
/// characters and blanks everything else.
public struct LexedLine: Codable, Sendable, Equatable {
  /// The line number, 1-based.
  public var number: Int
  /// The original text of the line, without its line terminator.
  public var text: String
  /// `text` with string-literal contents and comments replaced by spaces.
  public var code: String
  /// `text` with everything but comments replaced by spaces.
  public var comment: String
  /// The 1-based `Character` columns that are code, as maximal runs, in order.
  public var codeColumns: [ClosedRange<Int>]

  /// Creates a lexed line; ``SwiftLexer/lex(_:)`` is the usual source.
  public init(
    number: Int, text: String, code: String, comment: String, codeColumns: [ClosedRange<Int>]
  ) {
    self.number = number
    self.text = text
    self.code = code
    self.comment = comment
    self.codeColumns = codeColumns
  }

  /// Whether any column of the line is code (false for blank, comment-only lines and lines
  /// wholly inside a multiline string).
  public var hasCode: Bool {
    code.contains { !$0.isWhitespace }
  }

  /// Whether the line holds comment text.
  public var hasComment: Bool {
    comment.contains { !$0.isWhitespace }
  }

  /// Whether the 1-based `Character` column `column` is code.
  /// - Complexity: O(r) in the number of code runs.
  public func isCode(column: Int) -> Bool {
    codeColumns.contains { $0.contains(column) }
  }
}
