import Foundation

extension WorkspaceExport {
  /// The groups of knowledge items in this document that supersede each other in a cycle
  /// (``SupersedeGraph/cycles``): each sorted by `uuidString`, ordered by their first id; empty
  /// when there is none.
  ///
  /// Only a workspace written before cycles were refused (or edited directly) exports one. The
  /// export keeps it as stored, but an import refuses a `supersedes` relationship that would
  /// close a cycle in a workspace that does not already hold it.
  public var supersedeCycles: [[UUID]] {
    SupersedeGraph(edges: supersedeEdges).cycles
  }

  /// One warning per cycle in ``supersedeCycles``, for whoever writes this document to a file:
  /// the ids on the cycle, its `supersedes` relationships, that `dolphin import` refuses the
  /// file, and how to fix it (remove one relationship of the cycle from the file; import the
  /// edited file back with `--on-conflict replace` fixes the workspace too).
  /// - Parameter file: the file the document is written to, named in the fix; nil for
  ///   standard output (the fix then says `<file>`).
  /// - Returns: the warnings, empty when the document holds no cycle.
  public func supersedeCycleWarnings(file: String?) -> [String] {
    let cycles = supersedeCycles
    guard !cycles.isEmpty else { return [] }
    let graph = SupersedeGraph(edges: supersedeEdges)
    let edges = supersedeEdges.filter { graph.areInOneCycle($0.source, $0.target) }
    let target = file ?? "<file>"
    let reimport: SuggestedCommand =
      file.map { "dolphin import \($0) --on-conflict replace" } ?? "dolphin import <file> --on-conflict replace"
    return cycles.map { cycle in
      let members = Set(cycle)
      let inCycle = edges.filter { members.contains($0.source) }
        .map { "\($0.source.uuidString) supersedes \($0.target.uuidString)" }
        .sorted()
      let shown =
        inCycle.prefix(8).joined(separator: "; ") + (inCycle.count > 8 ? "; and \(inCycle.count - 8) more" : "")
      let ids = cycle.map(\.uuidString)
      let what =
        ids.count == 1
        ? "knowledge \(ids[0]) supersedes itself"
        : "knowledge \(ids.joined(separator: ", ")) supersede each other in a cycle"
      return what + " (\(shown)), stored before such cycles were refused. The export keeps it as stored, but "
        + "`dolphin import` refuses a file holding a supersede cycle: remove one of its supersedes relationships "
        + "from \(target) before importing it elsewhere; importing the edited file back into this workspace with "
        + "`\(command: reimport)` fixes the workspace too"
    }
  }

  /// Every `supersedes` relationship of the document's knowledge, in document order.
  private var supersedeEdges: [(source: UUID, target: UUID)] {
    workspace.knowledge.flatMap { k in
      k.relationships.filter { $0.kind == .supersedes }.map { (source: k.id, target: $0.targetID) }
    }
  }
}
