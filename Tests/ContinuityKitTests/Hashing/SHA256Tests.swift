import ContinuityKit
import Testing



struct SHA256Tests {
  /// A known-answer vector.
  struct Vector: CustomTestStringConvertible, Sendable {
    var name: String
    var message: String
    var digest: String
    var testDescription: String { name }
  }

  /// FIPS 180-4 examples (NIST CSRC "SHA256.pdf", "SHA2_Additional.pdf") and the empty message.
  static let vectors: [Vector] = [
    Vector(
      name: "empty", message: "",
      digest: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    Vector(
      name: "abc (one block)", message: "abc",
      digest: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    Vector(
      name: "448 bits (two blocks)",
      message: "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      digest: "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    Vector(
      name: "896 bits",
      message: "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopq"
        + "klmnopqrlmnopqrsmnopqrstnopqrstu",
      digest: "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    Vector(
      name: "one million 'a'", message: String(repeating: "a", count: 1_000_000),
      digest: "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
  ]

  @Test(arguments: vectors)
  func knownAnswer(_ vector: Vector) {
    #expect(SHA256.hash(vector.message).hexString == vector.digest)
    var hasher = SHA256()
    hasher.update(vector.message)
    #expect(hasher.hexDigest() == vector.digest)
  }

  @Test func millionInUnevenChunks() {
    // 1,000,000 = 7 * 142,857 + 1: chunks that straddle block boundaries.
    var hasher = SHA256()
    let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 7)
    for _ in 0..<142_857 { hasher.update(chunk) }
    hasher.update("a")
    #expect(hasher.hexDigest() == Self.vectors[4].digest)
  }

  @Test func everySplitGivesTheSameDigest() {
    let message = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37) }
    let whole = SHA256.hash(message)
    for split in 0...message.count {
      var hasher = SHA256()
      hasher.update(Array(message[..<split]))
      hasher.update(Array(message[split...]))
      #expect(hasher.finalize() == whole, "split at \(split)")
    }
  }

  @Test func finalizeLeavesTheHasherUsable() {
    var hasher = SHA256()
    hasher.update("ab")
    let prefix = hasher.hexDigest()
    hasher.update("c")
    #expect(prefix == SHA256.hash("ab").hexString)
    #expect(hasher.hexDigest() == Self.vectors[1].digest)
  }

  /// Lengths around the padding boundary (55, 56, 63, 64 bytes) against Python's hashlib.
  @Test(arguments: [
    (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
    (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
    (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
    (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
  ])
  func paddingBoundaries(length: Int, digest: String) {
    #expect(SHA256.hash(String(repeating: "a", count: length)).hexString == digest)
  }
}
