/// The positions of one term in one document, compactly encoded for storage.
///
/// **Encoding** (stable; a persisted index stores ``bytes`` as a BLOB): the title positions,
/// then the tags positions, then the content positions, each field ascending and
/// delta-coded — the first position of a field as is, every next one as the difference to the
/// previous — and each number written as an unsigned LEB128 varint (7 bits per byte, low
/// bits first, high bit set on every byte but the last). How many positions belong to each
/// field is not stored here: it is the posting's term frequency per field. A term at
/// positions 3 and 10 of the content only is `[0x03, 0x07]`.
public struct PositionList: Sendable, Hashable {
  /// The encoded positions.
  public var bytes: [UInt8]

  /// Wraps stored bytes.
  public init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Encodes ascending positions per field.
  ///
  /// - Parameter positions: each field's positions, ascending, each ≥ 0.
  public init(_ positions: FieldValues<[Int]>) {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(
      positions.title.count + positions.tags.count + positions.content.count)
    for field in IndexField.allCases {
      var previous = 0
      for (i, position) in positions[field].enumerated() {
        var value = UInt64(i == 0 ? position : position - previous)
        previous = position
        while value >= 0x80 {
          bytes.append(UInt8(value & 0x7F) | 0x80)
          value >>= 7
        }
        bytes.append(UInt8(value))
      }
    }
    self.bytes = bytes
  }

  /// The positions of `field`, ascending.
  ///
  /// - Parameters:
  ///   - field: the field to decode.
  ///   - counts: how many positions each field holds (the posting's term frequencies).
  /// - Returns: the field's positions; fewer when the bytes end early (damaged data is never
  ///   read past its end).
  /// - Complexity: O(*n*) in the positions of the fields up to and including `field`.
  public func positions(in field: IndexField, counts: FieldCounts) -> [Int] {
    bytes.withUnsafeBufferPointer { Self.positions(in: field, counts: counts, bytes: $0) }
  }

  /// The positions of `field` decoded from encoded `bytes` (see ``positions(in:counts:)``).
  static func positions(
    in field: IndexField, counts: FieldCounts, bytes: UnsafeBufferPointer<UInt8>
  ) -> [Int] {
    var skip = 0
    for earlier in IndexField.allCases where earlier.rawValue < field.rawValue {
      skip += Int(counts[earlier])
    }
    let wanted = Int(counts[field])
    var result: [Int] = []
    result.reserveCapacity(wanted)
    var offset = 0
    var decoded = 0
    var previous = 0
    while decoded < skip + wanted, offset < bytes.count {
      var value = 0
      var shift = 0
      while offset < bytes.count {
        let byte = bytes[offset]
        offset += 1
        if shift < 63 { value |= Int(byte & 0x7F) << shift }
        shift += 7
        if byte < 0x80 { break }
      }
      if decoded >= skip {
        previous = decoded == skip ? value : previous + value
        result.append(previous)
      }
      decoded += 1
    }
    return result
  }
}
