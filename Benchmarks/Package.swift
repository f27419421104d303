// swift-tools-version:6.0
// Benchmarks for Dolphin Continuity, kept in a nested package so that the main package's
// `swift build` and `swift test` stay lean (the shape of swift-collections' Benchmarks/).
//
// Run from the repository root:
//   swift run -c release --package-path Benchmarks dolphin-bench synth
import PackageDescription

let package = Package(
  name: "DolphinBenchmarks",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "dolphin-bench", targets: ["dolphin-bench"])
  ],
  dependencies: [
    // The package under test. The explicit name lets targets write
    // `.product(name: "KnowledgeEngine", package: "DolphinContinuity")` whatever the checkout
    // directory is called (a path dependency's identity is otherwise its folder name).
    .package(name: "DolphinContinuity", path: "..")
  ],
  targets: [
    // Deterministic synthetic corpora: a port of shared/bench/synth.py (SHA-256 comes from
    // ContinuityKit, which the product also uses for legacy-file fingerprints).
    .target(name: "SynthCorpus", dependencies: [.product(name: "ContinuityKit", package: "DolphinContinuity")]),
    .executableTarget(
      name: "dolphin-bench",
      dependencies: [
        "SynthCorpus",
        .product(name: "KnowledgeEngine", package: "DolphinContinuity"),
      ]
    ),
    .testTarget(
      name: "SynthCorpusTests",
      dependencies: ["SynthCorpus", .product(name: "ContinuityKit", package: "DolphinContinuity")],
      exclude: ["Fixtures"]),
    // End-to-end tests of the binary through `Process`; the dependency makes sure it is built.
    .testTarget(name: "DolphinBenchTests", dependencies: ["dolphin-bench"]),
  ]
)
