import Testing

@testable import SynthCorpus

struct SplitMix64Tests {
  /// First outputs, from `synth.py`'s `SplitMix64` (seed 0 matches Vigna's `splitmix64.c`).
  @Test(arguments: [
    (UInt64(0), [UInt64(0xE220_A839_7B1D_CDAF), 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F]),
    (UInt64(0x5C1_FAC7), [0xCFC6_F7A6_CA40_86BB, 0xC396_ADF7_2471_7094, 0x42B6_1AB2_1462_DA21]),
  ])
  func firstOutputs(seed: UInt64, expected: [UInt64]) {
    var random = SplitMix64(seed: seed)
    #expect((0..<3).map { _ in random.next() } == expected)
  }

  @Test func belowIsNextModuloBound() {
    var reference = SplitMix64(seed: 42)
    var random = SplitMix64(seed: 42)
    for bound in [1, 2, 9, 256, 1801, 5183, Int.max] {
      #expect(random.below(bound) == Int(reference.next() % UInt64(bound)))
    }
  }
}
