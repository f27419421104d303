/// Text made of lines and held to a bound in `Character`s, where a list is only ever cut
/// between its entries and then says how many it left out — never a silent cut mid-list.
///
/// DESIGN.md (Bounds): derived output is truncated with a visible marker. A marker alone, at
/// the end of a text that stops inside its first list, leaves a reader (a model) believing the
/// lists it saw were complete and that the lists it never reached were empty. Here every list
/// keeps its heading and, when entries did not fit, ends with a line such as
/// `… and 58 more knowledge items (not shown; …)`.
///
/// The text is `head`, then each section that has entries (its heading, the entries kept, the
/// omission line when some were left out), then `tail`, joined by `\n`. Entries are kept in the
/// order given. Sections are filled by ``Section/rank`` (lower first); among sections of one
/// rank, one entry per section in turn (round robin) while the whole text still fits, so one
/// list of long entries cannot crowd out the others of its rank.
package enum BoundedLines {
  /// One list of a rendering.
  package struct Section: Sendable {
    /// The line above the entries (`Tasks:`), or nil for none.
    package var heading: String?
    /// The entries, in order; each is one line or several joined by `\n`.
    package var entries: [String]
    /// How many entries the list holds in all, `entries` and any the caller left out before
    /// (at least `entries.count`): the omission line counts the difference too.
    package var total: Int
    /// Sections of a lower rank are filled first.
    package var rank: Int
    /// The line that says how many entries were left out (called with a count ≥ 1), e.g.
    /// `{ "… and \($0) more tasks (not shown)" }`.
    package var omission: @Sendable (Int) -> String

    /// A list.
    /// - Parameters:
    ///   - heading: the line above the entries, or nil.
    ///   - entries: the entries that may be shown, in order.
    ///   - total: how many the list holds in all; nil means `entries.count`.
    ///   - rank: sections of a lower rank are filled first (default 0).
    ///   - omission: the line for a count of entries left out.
    package init(
      heading: String? = nil, entries: [String], total: Int? = nil, rank: Int = 0,
      omission: @escaping @Sendable (Int) -> String
    ) {
      self.heading = heading
      self.entries = entries
      self.total = max(total ?? entries.count, entries.count)
      self.rank = rank
      self.omission = omission
    }
  }

  /// `head`, the sections and `tail` as one text of at most `limit` `Character`s (and
  /// ``Limits/unicodeScalarLimit(forCharacters:)`` of `limit` Unicode scalars:
  /// ``Limits/fits(_:limit:)``).
  ///
  /// Every section with a nonzero ``Section/total`` shows its heading and, when it kept fewer
  /// entries than its total, its omission line; those lines and `tail` are always kept. When
  /// they and `head` do not fit together, `head` is cut (``Truncation``, with its marker) to
  /// leave them room; only when they alone do not fit is the whole text cut.
  /// - Parameters:
  ///   - head: lines shown first, whole when they fit.
  ///   - sections: the lists, in the order they are shown.
  ///   - tail: lines shown last, always.
  ///   - limit: the bound, in `Character`s (e.g. ``Limits/renderedToolOutput``).
  /// - Returns: the text, with no trailing line break.
  /// - Complexity: O(*n*) in the total length of the lines: each entry is measured once.
  package static func render(
    head: [String], sections: [Section], tail: [String] = [], limit: Int
  ) -> String {
    let shown = sections.filter { $0.total > 0 }
    var kept = Array(repeating: 0, count: shown.count)
    func sectionLines() -> [String] {
      var lines: [String] = []
      for (section, n) in zip(shown, kept) {
        if let heading = section.heading { lines.append(heading) }
        lines += section.entries.prefix(n)
        if n < section.total { lines.append(section.omission(section.total - n)) }
      }
      return lines
    }

    // The lines always shown: the head, every heading and full-count omission line, the tail.
    let scalarLimit = Limits.unicodeScalarLimit(forCharacters: limit)
    let stubs = sectionLines() + tail
    var used = Size(lines: head + stubs)
    guard used.characters <= limit, used.scalars <= scalarLimit else {
      // Over the bound already: cut the head to leave room for every list's count.
      let rest = stubs.isEmpty ? "" : "\n" + stubs.joined(separator: "\n")
      let headRoom = limit - rest.count
      guard !head.isEmpty, headRoom > Truncation.marker.count else {
        return Truncation.truncate((head + stubs).joined(separator: "\n"), to: limit)
      }
      let cut = Truncation.truncate(head.joined(separator: "\n"), to: headRoom) + rest
      return Limits.fits(cut, limit: limit) ? cut : Truncation.truncate(cut, to: limit)
    }

    for rank in Set(shown.map(\.rank)).sorted() {
      var open = shown.indices.filter { shown[$0].rank == rank && !shown[$0].entries.isEmpty }
      while !open.isEmpty {
        for i in open {
          let section = shown[i]
          // The entry in, its section's omission line replaced by the one for one entry fewer
          // left out (or by none when this was the last).
          var candidate = used
          candidate.addLine(Size(section.entries[kept[i]]))
          candidate.removeLine(Size(section.omission(section.total - kept[i])))
          let leftAfter = section.total - kept[i] - 1
          if leftAfter > 0 { candidate.addLine(Size(section.omission(leftAfter))) }
          if candidate.characters <= limit, candidate.scalars <= scalarLimit {
            used = candidate
            kept[i] += 1
            if kept[i] == section.entries.count { open.removeAll { $0 == i } }
          } else {
            // Its next entry does not fit; the other sections' may.
            open.removeAll { $0 == i }
          }
        }
      }
    }
    let result = (head + sectionLines() + tail).joined(separator: "\n")
    // Counted line by line: a line that fused with its neighbour's break would be off by one.
    return Limits.fits(result, limit: limit) ? result : Truncation.truncate(result, to: limit)
  }

  /// The length of lines joined by `\n`, in `Character`s and Unicode scalars.
  private struct Size {
    var characters = 0
    var scalars = 0
    /// Lines measured, so that the next one is counted with its `\n`.
    var lines = 0

    init(_ line: String) {
      characters = line.count
      scalars = line.unicodeScalars.count
      lines = 1
    }

    init(lines: [String]) {
      for line in lines { addLine(Size(line)) }
    }

    /// One more line, with its `\n` when it is not the first.
    mutating func addLine(_ line: Size) {
      let separator = lines > 0 ? 1 : 0
      characters += line.characters + separator
      scalars += line.scalars + separator
      lines += 1
    }

    /// One line fewer, with its `\n` (it is never the only line).
    mutating func removeLine(_ line: Size) {
      characters -= line.characters + 1
      scalars -= line.scalars + 1
      lines -= 1
    }
  }
}
