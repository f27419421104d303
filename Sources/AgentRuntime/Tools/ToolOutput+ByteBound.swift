import ContinuityKit

extension ToolOutput {
  /// The bytes the output takes as a host sends it: its text as a JSON string (quotes and
  /// escapes included) plus its structured output as compact JSON, both in UTF-8.
  /// - Complexity: O(*n*) in the size of both: they are serialized to be measured.
  public var byteCount: Int { Self.byteCount(text: text, structured: structured) }

  static func byteCount(text: String, structured: JSONValue) -> Int {
    var quoted: [UInt8] = []
    JSONSerializer.writeString(text, to: &quoted)
    return quoted.count + structured.serialized().count
  }

  /// This output within `bound`: itself when its ``byteCount`` fits, or when it lists nothing
  /// (``listing`` is nil) — a single record is never cut; otherwise its listing cut to its first
  /// records, each whole, as many as fit.
  ///
  /// The cut output's structured object keeps the first *k* entries of ``Listing/field``, sets
  /// `truncated` to true, `omittedForSize` to how many it left out, `count`, when the object
  /// has one, to *k*, and `nextOffset`, when it has an integer `offset`, to `offset` + *k* (where
  /// the next page starts; removed when *k* is 0); every other member is as it was. Its text is ``Listing/text`` for that
  /// ``SizeCut``, passed through `finish` (the executor's sanitizing and cap), and counted with
  /// it. *k* is the largest count whose cut fits, found by bisection (the size of a cut grows
  /// with *k*, but for the few digits of its counts). When not even the cut keeping no entry
  /// fits, that cut is returned (a host that checks its whole response refuses it).
  /// - Parameters:
  ///   - bound: the bytes the output may take, and the bound its text names.
  ///   - finish: what the executor does to a handler's text before it is sent.
  /// - Returns: the output to send.
  /// - Complexity: each entry is serialized once, and none past the bound; each cut tried
  ///   (about log₂ of the entries) serializes only its text and the members around the list.
  public func fitted(to bound: ToolOutputBound, finishingText finish: (String) -> String) -> ToolOutput {
    guard let listing, case .object(let object) = structured, case .array(let entries)? = object[listing.field],
      !entries.isEmpty
    else { return self }
    // prefix[i]: the bytes of the first i entries and the commas between them, measured while
    // they alone fit: a count past that cannot be kept.
    var prefix = [0]
    while prefix.count <= entries.count, prefix[prefix.count - 1] <= bound.bytes {
      let i = prefix.count - 1
      prefix.append(prefix[i] + entries[i].serialized().count + (i > 0 ? 1 : 0))
    }
    var withoutEntries = object
    withoutEntries[listing.field] = .array([])
    let measured = prefix.count - 1
    if measured == entries.count,
      Self.byteCount(text: text, structured: .object(withoutEntries)) + prefix[measured] <= bound.bytes
    {
      return self
    }
    /// The cut keeping `kept` entries: its structured object (with an empty list unless
    /// `withEntries`) and its finished text.
    func cut(keeping kept: Int, withEntries: Bool) -> ToolOutput {
      var cut = object
      cut[listing.field] = .array(withEntries ? Array(entries.prefix(kept)) : [])
      cut["truncated"] = true
      cut["omittedForSize"] = .integer(entries.count - kept)
      if cut["count"] != nil { cut["count"] = .integer(kept) }
      // A paged listing's next page starts after the records kept (review 23-a, 3); when not
      // even the first fits, no offset pages past it.
      if let offset = cut["offset"]?.int {
        cut["nextOffset"] = kept > 0 ? .integer(offset + kept) : nil
      }
      let sizeCut = SizeCut(kept: kept, listed: entries.count, boundBytes: bound.statedBytes)
      return ToolOutput(structured: .object(cut), text: finish(listing.text(sizeCut)), changedIDs: changedIDs, listing: listing)
    }
    // Bisection between a count that fits (or none) and one that does not.
    var fits = 0
    var over = min(measured, entries.count)
    while over - fits > 1 {
      let k = (fits + over) / 2
      if cut(keeping: k, withEntries: false).byteCount + prefix[k] <= bound.bytes { fits = k } else { over = k }
    }
    return cut(keeping: fits, withEntries: true)
  }
}
