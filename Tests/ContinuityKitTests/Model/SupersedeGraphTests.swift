import ContinuityKit
import Foundation
import Testing
import TestSupport

@Suite("Supersede graph")
struct SupersedeGraphTests {
  static func id(_ n: Int) -> UUID { sequentialID(n) }

  struct Case: CustomStringConvertible, Sendable {
    var name: String
    var edges: [(Int, Int)]
    var cycles: [[Int]]
    var superseded: Set<Int>
    var description: String { name }
  }

  static let cases: [Case] = [
    Case(name: "a chain has no cycle", edges: [(3, 2), (2, 1)], cycles: [], superseded: [1, 2]),
    Case(name: "two items superseding each other", edges: [(1, 2), (2, 1)], cycles: [[1, 2]], superseded: []),
    Case(name: "a cycle through three items", edges: [(1, 2), (2, 3), (3, 1)], cycles: [[1, 2, 3]], superseded: []),
    Case(name: "an item superseding itself", edges: [(4, 4)], cycles: [[4]], superseded: []),
    // 5 supersedes 1 from outside the cycle: 1 is history; 3 supersedes 4 (a chain hanging off it).
    Case(
      name: "a cycle with an outside successor and a chain", edges: [(1, 2), (2, 1), (5, 1), (2, 3), (3, 4)],
      cycles: [[1, 2]], superseded: [1, 3, 4]),
    Case(name: "two separate cycles", edges: [(7, 8), (8, 7), (1, 2), (2, 1)], cycles: [[1, 2], [7, 8]], superseded: []),
  ]

  @Test("cycles and what stays superseded", arguments: cases)
  func cycles(_ c: Case) {
    let graph = SupersedeGraph(edges: c.edges.map { (source: Self.id($0.0), target: Self.id($0.1)) })
    #expect(graph.cycles == c.cycles.map { $0.map(Self.id) })
    #expect(graph.superseded == Set(c.superseded.map(Self.id)))
    // The same edges in another order give the same answer.
    let reversed = SupersedeGraph(edges: c.edges.reversed().map { (source: Self.id($0.0), target: Self.id($0.1)) })
    #expect(reversed.cycles == graph.cycles)
  }

  @Test("successors and predecessors leave out the item's own cycle")
  func successorsAndPredecessors() {
    // 3 supersedes 2, 2 supersedes 1; 5 and 4 both supersede 1; 6 and 7 supersede each other.
    let edges = [(3, 2), (2, 1), (5, 1), (4, 1), (6, 7), (7, 6)]
    let graph = SupersedeGraph(edges: edges.map { (source: Self.id($0.0), target: Self.id($0.1)) })
    #expect(graph.successors(of: Self.id(1)) == [2, 4, 5].map(Self.id))
    #expect(graph.successors(of: Self.id(2)) == [Self.id(3)])
    #expect(graph.successors(of: Self.id(3)).isEmpty)
    #expect(graph.successors(of: Self.id(6)).isEmpty)
    #expect(graph.successors(of: Self.id(99)).isEmpty)
    #expect(graph.predecessors(of: Self.id(3)) == [Self.id(2)])
    #expect(graph.predecessors(of: Self.id(1)).isEmpty)
    #expect(graph.predecessors(of: Self.id(7)).isEmpty)
  }

  @Test("the path that a new relationship would close")
  func path() {
    let graph = SupersedeGraph(edges: [(source: Self.id(1), target: Self.id(2)), (source: Self.id(2), target: Self.id(3))])
    #expect(graph.path(from: Self.id(1), to: Self.id(3)) == [Self.id(1), Self.id(2), Self.id(3)])
    #expect(graph.path(from: Self.id(3), to: Self.id(1)) == nil)
    #expect(graph.path(from: Self.id(9), to: Self.id(9)) == [Self.id(9)])
  }

  @Test("a chain of 100,000 items is walked without recursion")
  func longChain() {
    let n = 100_000
    var edges = (1..<n).map { (source: Self.id($0 + 1), target: Self.id($0)) }
    #expect(SupersedeGraph(edges: edges).cycles.isEmpty)
    edges.append((source: Self.id(1), target: Self.id(n)))
    let cyclic = SupersedeGraph(edges: edges)
    #expect(cyclic.cycles.count == 1 && cyclic.cycles[0].count == n)
    #expect(cyclic.superseded.isEmpty)
  }
}
