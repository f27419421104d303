/// The members of a JSON object: unique string keys, kept in insertion order.
///
/// The parser inserts members in document order (and rejects a repeated key), so a parsed
/// object serializes back in its original order unless sorted keys are asked for. Equality and
/// hashing ignore order, as RFC 8259 §4 does ("an unordered collection").
///
/// - Complexity: lookup and update O(1); inserting a new key O(1) amortized; removing a key
///   O(n) in the number of keys.
public struct JSONObject: Sendable, Hashable {
  private var order: [String] = []
  private var members: [String: JSONValue] = [:]

  /// An empty object.
  public init() {}

  /// An object with `pairs` in order.
  ///
  /// A repeated key keeps its first position and takes its last value (as assigning through
  /// ``subscript(_:)`` would).
  public init(_ pairs: some Sequence<(String, JSONValue)>) {
    for (key, value) in pairs { self[key] = value }
  }

  /// The value for `key`, or `nil` when there is no such member.
  ///
  /// Assigning a value adds the member at the end (or replaces the value in place); assigning
  /// `nil` removes it.
  public subscript(key: String) -> JSONValue? {
    get { members[key] }
    set {
      if let newValue {
        if members.updateValue(newValue, forKey: key) == nil { order.append(key) }
      } else if members.removeValue(forKey: key) != nil {
        order.removeAll { $0 == key }
      }
    }
  }

  /// The keys in insertion order.
  public var keys: [String] { order }

  /// The keys sorted by their UTF-8 bytes (that is, by Unicode code point), the order the
  /// serializer uses when asked for sorted keys.
  public var sortedKeys: [String] {
    order.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  /// The number of members.
  public var count: Int { order.count }

  /// Whether the object has no members.
  public var isEmpty: Bool { order.isEmpty }

  /// Whether a member named `key` exists (its value may be `null`).
  public func contains(_ key: String) -> Bool { members[key] != nil }

  /// Adds a member the parser read; returns `false`, changing nothing, when `key` exists.
  mutating func insertNew(_ key: String, _ value: JSONValue) -> Bool {
    guard members[key] == nil else { return false }
    members[key] = value
    order.append(key)
    return true
  }

  /// Whether both have the same members, in any order.
  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool { lhs.members == rhs.members }

  /// Hashes the members, independent of their order.
  public func hash(into hasher: inout Hasher) { hasher.combine(members) }
}

extension JSONObject: Sequence {
  /// Members in insertion order.
  public func makeIterator() -> some IteratorProtocol<(key: String, value: JSONValue)> {
    let members = self.members
    return order.lazy.compactMap { key in members[key].map { (key: key, value: $0) } }
      .makeIterator()
  }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
  /// An object with the literal's members in source order (a repeated key: last value wins).
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self.init(elements)
  }
}
