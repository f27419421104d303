import Testing

/// The parent suite of the code-review tests, so `swift test --filter CodeReview` runs them all.
@Suite("CodeReview")
enum CodeReview {}
