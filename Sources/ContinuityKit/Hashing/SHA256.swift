/// An incremental SHA-256 hash (FIPS 180-4, *Secure Hash Standard*, §5.3.3, §6.2).
///
/// CryptoKit is not available on Linux and the benchmarks may not fetch outside packages, so
/// this is a small, portable implementation. It is meant for fingerprints (legacy-file
/// identity, benchmark data),
/// not for security: it makes no attempt to run in constant time or to wipe its state.
///
/// ```swift
/// var hasher = SHA256()
/// hasher.update("abc")
/// hasher.hexDigest()  // "ba7816bf…"
/// ```
///
/// - Complexity: O(*n*) in the number of bytes hashed; 64 rounds per 64-byte block.
public struct SHA256: Sendable {
  /// The length of a digest, in bytes.
  public static let digestByteCount = 32

  /// The length of a message block, in bytes.
  static let blockByteCount = 64

  /// The hash value H(i): eight 32-bit words, initially H(0) (FIPS 180-4, §5.3.3).
  private var state: [UInt32] = [
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a,
    0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
  ]

  /// Bytes of an incomplete block, always fewer than ``blockByteCount``.
  private var pending: [UInt8] = []

  /// Length of the message so far, in bytes.
  private var messageByteCount: UInt64 = 0

  /// Creates a hasher for an empty message.
  public init() {
    pending.reserveCapacity(Self.blockByteCount)
  }

  /// Appends bytes to the message.
  ///
  /// - Parameter bytes: The bytes to hash; may be empty and of any length.
  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    messageByteCount &+= UInt64(bytes.count)
    var rest = bytes[...]
    if !pending.isEmpty {
      let taken = min(Self.blockByteCount - pending.count, rest.count)
      pending.append(contentsOf: rest.prefix(taken))
      rest = rest.dropFirst(taken)
      guard pending.count == Self.blockByteCount else { return }
      pending.withUnsafeBytes { Self.compress(block: $0, into: &state) }
      pending.removeAll(keepingCapacity: true)
    }
    while rest.count >= Self.blockByteCount {
      let block = UnsafeRawBufferPointer(rebasing: rest.prefix(Self.blockByteCount))
      Self.compress(block: block, into: &state)
      rest = rest.dropFirst(Self.blockByteCount)
    }
    pending.append(contentsOf: rest)
  }

  /// Appends bytes to the message.
  ///
  /// - Parameter bytes: The bytes to hash.
  public mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { update($0) }
  }

  /// Appends the UTF-8 encoding of a string to the message.
  ///
  /// - Parameter string: The text to hash, encoded as UTF-8 without a terminator or BOM.
  public mutating func update(_ string: String) {
    var string = string
    string.withUTF8 { update(UnsafeRawBufferPointer($0)) }
  }

  /// Returns the digest of the message so far, leaving the hasher usable for more input.
  ///
  /// Pads a copy of the state (FIPS 180-4, §5.1.1), so the digest of a prefix can be taken
  /// and hashing continued.
  ///
  /// - Returns: The ``digestByteCount``-byte digest, big-endian words as in the standard.
  public func finalize() -> [UInt8] {
    var copy = self
    let bitCount = messageByteCount &* 8
    // 0x80, then zeros up to 56 mod 64, then the message length in bits as a 64-bit word.
    let zeroCount = (Self.blockByteCount + 55 - Int(messageByteCount % 64)) % Self.blockByteCount
    var padding = [UInt8](repeating: 0, count: 1 + zeroCount + 8)
    padding[0] = 0x80
    for index in 0..<8 {
      padding[1 + zeroCount + index] = UInt8(truncatingIfNeeded: bitCount >> (56 - 8 * index))
    }
    copy.update(padding)
    assert(copy.pending.isEmpty)
    var digest: [UInt8] = []
    digest.reserveCapacity(Self.digestByteCount)
    for word in copy.state {
      digest.append(contentsOf: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> $0) })
    }
    return digest
  }

  /// Returns the digest of the message so far as 64 lowercase hexadecimal digits.
  ///
  /// Like ``finalize()``, leaves the hasher usable for more input.
  public func hexDigest() -> String {
    finalize().hexString
  }

  /// Returns the digest of `bytes`.
  ///
  /// - Parameter bytes: The whole message.
  /// - Returns: The 32-byte digest.
  public static func hash(_ bytes: [UInt8]) -> [UInt8] {
    var hasher = SHA256()
    hasher.update(bytes)
    return hasher.finalize()
  }

  /// Returns the digest of the UTF-8 encoding of `string`.
  ///
  /// - Parameter string: The whole message, encoded as UTF-8.
  /// - Returns: The 32-byte digest.
  public static func hash(_ string: String) -> [UInt8] {
    var hasher = SHA256()
    hasher.update(string)
    return hasher.finalize()
  }
}

extension SHA256 {
  /// The round constants K(0)…K(63) (FIPS 180-4, §4.2.2).
  private static let roundConstants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
    0xab1c_5ed5, 0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe,
    0x9bdc_06a7, 0xc19b_f174, 0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f,
    0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da, 0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7,
    0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967, 0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc,
    0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85, 0xa2bf_e8a1, 0xa81a_664b,
    0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070, 0x19a4_c116,
    0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
    0xc671_78f2,
  ]

  /// Applies the compression function to one 64-byte block (FIPS 180-4, §6.2.2).
  private static func compress(block: UnsafeRawBufferPointer, into state: inout [UInt32]) {
    precondition(block.count == blockByteCount)
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
      roundConstants.withUnsafeBufferPointer { k in
        // Message schedule W(0)…W(63).
        for t in 0..<16 {
          schedule[t] = UInt32(
            bigEndian: block.loadUnaligned(fromByteOffset: 4 * t, as: UInt32.self))
        }
        for t in 16..<64 {
          let w15 = schedule[t - 15]
          let w2 = schedule[t - 2]
          let sigma0 = rotateRight(w15, 7) ^ rotateRight(w15, 18) ^ (w15 >> 3)
          let sigma1 = rotateRight(w2, 17) ^ rotateRight(w2, 19) ^ (w2 >> 10)
          schedule[t] = sigma1 &+ schedule[t - 7] &+ sigma0 &+ schedule[t - 16]
        }

        var a = state[0]
        var b = state[1]
        var c = state[2]
        var d = state[3]
        var e = state[4]
        var f = state[5]
        var g = state[6]
        var h = state[7]
        for t in 0..<64 {
          let bigSigma1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)
          let choose = (e & f) ^ (~e & g)
          let t1 = h &+ bigSigma1 &+ choose &+ k[t] &+ schedule[t]
          let bigSigma0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)
          let majority = (a & b) ^ (a & c) ^ (b & c)
          let t2 = bigSigma0 &+ majority
          h = g
          g = f
          f = e
          e = d &+ t1
          d = c
          c = b
          b = a
          a = t1 &+ t2
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
        state[5] &+= f
        state[6] &+= g
        state[7] &+= h
      }
    }
  }

  /// ROTR^n(x) for 0 < n < 32 (FIPS 180-4, §3.2).
  @inline(__always)
  private static func rotateRight(_ x: UInt32, _ n: UInt32) -> UInt32 {
    (x >> n) | (x << (32 - n))
  }
}

extension Array where Element == UInt8 {
  /// The bytes as lowercase hexadecimal, two digits per byte (the usual digest spelling).
  public var hexString: String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(2 * count)
    for byte in self {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
