import Foundation

/// The `supersedes` relationships between knowledge items as a directed graph (from the
/// successor to the item it supersedes), with its cycles.
///
/// A cycle — A supersedes B and B supersedes A, directly or through a longer chain, or an item
/// that supersedes itself — leaves no item standing as the successor. New cycles are refused
/// when relationships are written; a cycle already stored (older data, a direct edit of the
/// database) is reported, and its internal `supersedes` relationships hide nothing.
///
/// Deterministic: nodes and edges are visited in `uuidString` order, so the same edges give
/// the same cycles in the same order.
/// - Complexity: O(*V* + *E*) to build (Tarjan's strongly connected components, iterative so a
///   long chain cannot overflow the stack — R. Tarjan, "Depth-first search and linear graph
///   algorithms", SIAM J. Comput. 1(2), 1972).
public struct SupersedeGraph: Sendable {
  /// For each item, the items it supersedes, sorted by `uuidString`, without duplicates.
  private let targets: [UUID: [UUID]]
  /// For each item, the items that supersede it, sorted by `uuidString`, without duplicates.
  private let sources: [UUID: [UUID]]
  /// Index into ``cycles`` of every item that is part of one.
  private let cycleIndex: [UUID: Int]

  /// The groups of items that supersede each other in a cycle (strongly connected components
  /// of more than one item, or one item that supersedes itself). Each group is sorted by
  /// `uuidString`; the groups are ordered by their first id.
  public let cycles: [[UUID]]

  /// Builds the graph.
  /// - Parameter edges: (successor, superseded item) pairs, in any order, duplicates allowed.
  public init(edges: some Sequence<(source: UUID, target: UUID)>) {
    var targets: [UUID: Set<UUID>] = [:]
    for e in edges {
      targets[e.source, default: []].insert(e.target)
      if targets[e.target] == nil { targets[e.target] = [] }
    }
    let sorted = targets.mapValues { $0.sorted { $0.uuidString < $1.uuidString } }
    self.targets = sorted
    var sources: [UUID: [UUID]] = [:]
    for (source, list) in sorted { for target in list { sources[target, default: []].append(source) } }
    self.sources = sources.mapValues { $0.sorted { $0.uuidString < $1.uuidString } }
    var cycles: [[UUID]] = []
    for component in Self.stronglyConnectedComponents(sorted) {
      if component.count > 1 || sorted[component[0]]?.contains(component[0]) == true {
        cycles.append(component.sorted { $0.uuidString < $1.uuidString })
      }
    }
    cycles.sort { $0[0].uuidString < $1[0].uuidString }
    self.cycles = cycles
    var index: [UUID: Int] = [:]
    for (i, c) in cycles.enumerated() { for id in c { index[id] = i } }
    self.cycleIndex = index
  }

  /// Whether `a` and `b` lie on one cycle (an item that supersedes itself lies on one with
  /// itself).
  public func areInOneCycle(_ a: UUID, _ b: UUID) -> Bool {
    guard let i = cycleIndex[a] else { return false }
    return cycleIndex[b] == i
  }

  /// The items superseded by an item outside their own cycle: what a digest leaves out as
  /// history. A `supersedes` relationship inside a cycle hides nothing, because no item of the
  /// cycle stands as the successor of the others.
  public var superseded: Set<UUID> {
    var out = Set<UUID>()
    for (source, list) in targets {
      for target in list where !areInOneCycle(source, target) { out.insert(target) }
    }
    return out
  }

  /// The items that supersede `id` from outside its cycle — what stands in its place —
  /// sorted by `uuidString`; empty when nothing supersedes it (or only items of its own cycle
  /// do, which hides nothing: see ``superseded``).
  /// - Complexity: O(*k*) for *k* items that supersede `id`.
  public func successors(of id: UUID) -> [UUID] {
    (sources[id] ?? []).filter { !areInOneCycle($0, id) }
  }

  /// The items `id` supersedes outside its own cycle (the inverse of ``successors(of:)``),
  /// sorted by `uuidString`; empty when it supersedes none.
  /// - Complexity: O(*k*) for *k* items `id` supersedes.
  public func predecessors(of id: UUID) -> [UUID] {
    (targets[id] ?? []).filter { !areInOneCycle(id, $0) }
  }

  /// A chain of `supersedes` relationships from `start` to `goal` (both included), the
  /// shortest one and, among those, the first in `uuidString` order; nil when there is none.
  /// `[start]` when they are the same item.
  public func path(from start: UUID, to goal: UUID) -> [UUID]? {
    if start == goal { return [start] }
    var previous: [UUID: UUID] = [start: start]
    var queue = [start]
    var head = 0
    while head < queue.count {
      let node = queue[head]
      head += 1
      for next in targets[node] ?? [] where previous[next] == nil {
        previous[next] = node
        if next == goal {
          var chain = [goal]
          var at = goal
          while at != start {
            at = previous[at] ?? start
            chain.append(at)
          }
          return chain.reversed()
        }
        queue.append(next)
      }
    }
    return nil
  }

  /// Tarjan's algorithm without recursion: components in the order they complete.
  private static func stronglyConnectedComponents(_ targets: [UUID: [UUID]]) -> [[UUID]] {
    var index: [UUID: Int] = [:]
    var lowLink: [UUID: Int] = [:]
    var onStack = Set<UUID>()
    var stack: [UUID] = []
    var components: [[UUID]] = []
    var counter = 0
    for root in targets.keys.sorted(by: { $0.uuidString < $1.uuidString }) where index[root] == nil {
      // Each frame: a node and how many of its targets were visited so far.
      var frames: [(node: UUID, next: Int)] = [(root, 0)]
      index[root] = counter
      lowLink[root] = counter
      counter += 1
      stack.append(root)
      onStack.insert(root)
      while let frame = frames.last {
        let list = targets[frame.node] ?? []
        if frame.next < list.count {
          frames[frames.count - 1].next += 1
          let target = list[frame.next]
          if index[target] == nil {
            index[target] = counter
            lowLink[target] = counter
            counter += 1
            stack.append(target)
            onStack.insert(target)
            frames.append((target, 0))
          } else if onStack.contains(target) {
            lowLink[frame.node] = min(lowLink[frame.node] ?? 0, index[target] ?? 0)
          }
          continue
        }
        frames.removeLast()
        if let parent = frames.last {
          lowLink[parent.node] = min(lowLink[parent.node] ?? 0, lowLink[frame.node] ?? 0)
        }
        if lowLink[frame.node] == index[frame.node] {
          var component: [UUID] = []
          while let top = stack.popLast() {
            onStack.remove(top)
            component.append(top)
            if top == frame.node { break }
          }
          components.append(component)
        }
      }
    }
    return components
  }
}
