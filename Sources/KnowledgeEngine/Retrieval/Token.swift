/// One searchable term of a text and where it stands.
///
/// `position` counts terms from 0 within the tokenized text, so two terms are adjacent exactly
/// when their positions differ by 1 (this is what phrase matching compares).
public struct Token: Sendable, Hashable, CustomStringConvertible {
  /// The normalized term: NFKC, case-folded, diacritic-folded, Latin letters without a
  /// decomposition folded to ASCII (`ø` → `o`, `æ` → `ae`) and, for plain English words,
  /// Porter-stemmed (see ``Tokenizer``). Never empty, at most ``Tokenizer/maximumTermLength``
  /// Unicode scalars.
  public var term: String
  /// 0-based index of the term in its text.
  public var position: Int

  /// Makes a token.
  public init(term: String, position: Int) {
    self.term = term
    self.position = position
  }

  /// `term@position`, e.g. `muller@2`.
  public var description: String { "\(term)@\(position)" }
}
