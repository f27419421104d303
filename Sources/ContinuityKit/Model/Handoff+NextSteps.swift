extension Handoff {
  /// Whether a next step shows nothing: once sanitized (``Sanitizer/sanitize(_:)`` drops
  /// control, zero-width and bidi characters), it is empty or holds only White_Space and
  /// characters that show nothing (``Sanitizer/showsNothing(_:)``: Default_Ignorable_Code_Point
  /// such as the soft hyphen U+00AD, plus the Braille blank U+2800).
  ///
  /// Capture refuses such a step and an import drops it; earlier imports stored some, which
  /// `doctor` reports (``WorkspaceTransaction/blankNextSteps(limit:)``) and schema step 0007
  /// removes.
  /// - Parameter step: a next step as given or as stored.
  /// - Complexity: O(*n*) in the length of `step`.
  public static func isBlankNextStep(_ step: String) -> Bool {
    Sanitizer.showsNothing(Sanitizer.sanitize(step))
  }

  /// `steps` without the ones that show nothing (``isBlankNextStep(_:)``); the others are kept
  /// as they are, in their order.
  /// - Parameter steps: next steps as given or as stored.
  /// - Returns: the steps that show something.
  public static func visibleNextSteps(_ steps: [String]) -> [String] {
    steps.filter { !isBlankNextStep($0) }
  }
}
