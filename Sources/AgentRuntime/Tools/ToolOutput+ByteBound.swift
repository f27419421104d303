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
  /// (``listing`` is nil) — a single record is never cut; otherwise its listing cut to the
  /// first records that fit, each whole.
  ///
  /// The cut output's structured object keeps the first *k* entries of ``Listing/field``
  /// (the most that fit beside everything else), sets `truncated` to true, `omittedForSize` to
  /// how many it left out, and `count`, when the object has one, to *k*; every other member is
  /// as it was. Its text is ``Listing/text`` for that ``SizeCut``, passed through `finish` (the
  /// executor's sanitizing and cap), and measured with it. When not even the other members and
  /// the text fit, the cut keeps no entry (a host that checks its whole response catches that).
  /// - Parameters:
  ///   - bound: the bytes the output may take, and the bound its text names.
  ///   - finish: what the executor does to a handler's text before it is sent.
  /// - Returns: the output to send.
  /// - Complexity: O(*n*) in the size of the entries measured (each is serialized once, and
  ///   those past the bound are never serialized), plus a serialization of each cut tried
  ///   (usually one or two).
  public func fitted(to bound: ToolOutputBound, finishingText finish: (String) -> String) -> ToolOutput {
    guard let listing, case .object(let object) = structured, case .array(let entries)? = object[listing.field],
      !entries.isEmpty
    else { return self }
    var withoutEntries = object
    withoutEntries[listing.field] = .array([])
    var around = Self.byteCount(text: text, structured: .object(withoutEntries))
    // prefix[i]: the bytes of the first i entries and the commas between them. Entries past the
    // first that breaks the bound are not measured: they cannot be kept.
    var prefix = [0]
    for entry in entries {
      prefix.append(prefix[prefix.count - 1] + entry.serialized().count + (prefix.count > 1 ? 1 : 0))
      if around + prefix[prefix.count - 1] > bound.bytes { break }
    }
    guard around + prefix[prefix.count - 1] > bound.bytes else { return self }
    // Cut below the first entry that breaks the bound; the text of a cut differs from the
    // uncut one (it says what was cut), so each cut is measured and, when still over, the
    // count is lowered again with what surrounds the entries measured anew.
    var kept = prefix.count - 1
    while true {
      var k = kept - 1
      while k > 0 && around + prefix[k] > bound.bytes { k -= 1 }
      let cut = self.cut(keeping: k, of: entries, in: object, listing: listing, bound: bound, finish: finish)
      let size = cut.byteCount
      if size <= bound.bytes || k == 0 { return cut }
      around = size - prefix[k]
      kept = k
    }
  }

  /// The output holding only the first `kept` of `entries` (see ``fitted(to:finishingText:)``).
  private func cut(
    keeping kept: Int, of entries: [JSONValue], in object: JSONObject, listing: Listing, bound: ToolOutputBound,
    finish: (String) -> String
  ) -> ToolOutput {
    var cut = object
    cut[listing.field] = .array(Array(entries.prefix(kept)))
    cut["truncated"] = true
    cut["omittedForSize"] = .integer(entries.count - kept)
    if cut["count"] != nil { cut["count"] = .integer(kept) }
    let sizeCut = SizeCut(kept: kept, listed: entries.count, boundBytes: bound.statedBytes)
    return ToolOutput(structured: .object(cut), text: finish(listing.text(sizeCut)), changedIDs: changedIDs, listing: listing)
  }
}
