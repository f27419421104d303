import Foundation

// The shapes of `--json` documents (README, "JSON output"), so that a script reads every
// command the same way:
//
// - A command about one record puts it under its type's key — `item` (a knowledge item),
//   `task`, `memory`, `handoff`, `digest` — and any other fact about it beside that key
//   (`{task, alreadyCompleted}`, `{handoff, active}`, `{item, supersededBy}`); the record's own
//   fields are never mixed with those facts.
// - A list puts its entries under a plural key (`items`, `tasks`, `results`, …) beside `count`
//   (entries listed), `total` (entries there are) and `truncated` (whether a limit left some out).
// - A failure is `{"error": {"kind", "message", "exitCode", …}}`.
//
// Library types that MCP tools also return (their output schemas are declared) are not changed
// for this: the CLI adds what they lack here.

/// A listing encoded with its own members and `count`, the number of entries it lists, for a
/// library type that carries `total` and `truncated` but not `count` (a search response, the
/// insight report): `{results, count, total, truncated, …}`.
struct CountedListing<Listing: Encodable>: Encodable {
  enum Key: String, CodingKey { case count }
  /// The listing, whose members are encoded as they are.
  var listing: Listing
  /// How many entries `listing` holds (not how many there are: that is its `total`).
  var count: Int

  func encode(to encoder: any Encoder) throws {
    try listing.encode(to: encoder)
    var c = encoder.container(keyedBy: Key.self)
    try c.encode(count, forKey: .count)
  }
}

/// A list that is shown whole (nothing bounds it, or every entry fits), as a listing:
/// `{<plural>: [...], count, total, truncated: false}` with `count` equal to `total`.
struct WholeListing<Entry: Encodable>: Encodable {
  /// The plural key the entries go under (`tools`, `limits`, `quarantined`).
  var key: String
  /// Every entry, in the order shown.
  var entries: [Entry]

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Key.self)
    try c.encode(entries, forKey: Key(stringValue: key))
    try c.encode(entries.count, forKey: Key(stringValue: "count"))
    try c.encode(entries.count, forKey: Key(stringValue: "total"))
    try c.encode(false, forKey: Key(stringValue: "truncated"))
  }
}
