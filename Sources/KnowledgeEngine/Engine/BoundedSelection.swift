/// The best `capacity` elements of a stream under a strict total order, and how many elements
/// were seen: one pass, no full sort.
/// - Complexity: O(*n* + *m* · *k*) for *n* elements of which *m* enter the selection of size *k*.
struct BoundedSelection<Element> {
  let capacity: Int
  let areInIncreasingOrder: (Element, Element) -> Bool
  /// The selected elements, best first.
  private(set) var elements: [Element] = []
  /// How many elements were considered.
  private(set) var total = 0

  init(capacity: Int, by areInIncreasingOrder: @escaping (Element, Element) -> Bool) {
    self.capacity = max(0, capacity)
    self.areInIncreasingOrder = areInIncreasingOrder
  }

  /// Offers `element`; it is kept when it is among the best `capacity` seen so far.
  mutating func consider(_ element: Element) {
    total += 1
    guard capacity > 0 else { return }
    if elements.count == capacity {
      guard let worst = elements.last, areInIncreasingOrder(element, worst) else { return }
      elements.removeLast()
    }
    var low = 0, high = elements.count
    while low < high {
      let mid = (low + high) / 2
      if areInIncreasingOrder(elements[mid], element) { low = mid + 1 } else { high = mid }
    }
    elements.insert(element, at: low)
  }
}

/// Orders shared by the digest and the insight rules. Every order ends in the id, so it is
/// total and never depends on insertion order; titles compare in ``NaturalOrder`` (digit runs
/// by numeric value, so `item 2` precedes `item 10`; the rest by UTF-8 code unit; locale-free).
enum KnowledgeOrder {
  /// Priority (critical first), then title (natural order), then id.
  static func importance(_ a: KnowledgeHeader, _ b: KnowledgeHeader) -> Bool {
    if a.priority != b.priority { return a.priority > b.priority }
    if a.title != b.title { return NaturalOrder.precedes(a.title, b.title) }
    return KnowledgeHeader.precedes(a.id, b.id)
  }

  /// Priority (critical first), then `updatedAt` (newest first, at stored millisecond
  /// precision), then title (natural order), then id: the digest's capped knowledge sections,
  /// so that within a priority the latest items are the ones shown (review 19-c: ordered by
  /// title, a decision taken today titled `Use …` lost its place to week-old ones).
  static func priorityThenRecency(_ a: KnowledgeHeader, _ b: KnowledgeHeader) -> Bool {
    if a.priority != b.priority { return a.priority > b.priority }
    return recency(a, b)
  }

  /// `updatedAt` (newest first, at stored millisecond precision), then title (natural order),
  /// then id.
  static func recency(_ a: KnowledgeHeader, _ b: KnowledgeHeader) -> Bool {
    if a.updatedAt != b.updatedAt { return a.updatedAt > b.updatedAt }
    if a.title != b.title { return NaturalOrder.precedes(a.title, b.title) }
    return KnowledgeHeader.precedes(a.id, b.id)
  }

  /// `createdAt` (oldest first), then id.
  static func creation(_ a: KnowledgeHeader, _ b: KnowledgeHeader) -> Bool {
    a.createdAt != b.createdAt ? a.createdAt < b.createdAt : KnowledgeHeader.precedes(a.id, b.id)
  }
}
