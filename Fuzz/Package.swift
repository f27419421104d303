// swift-tools-version:6.0
// libFuzzer targets for Dolphin Continuity, kept in a nested package so the main package's
// `swift build` and `swift test` never need the sanitizers. Build and run with:
//
//   scripts/fuzz.sh [seconds-per-target]
//
// which builds `swift build -c release --package-path Fuzz -Xswiftc -sanitize=fuzzer,address
// -Xswiftc -parse-as-library` and runs `dolphin-fuzz <target>` over each corpus in Fuzz/Corpus/.
// The entry points live in the main package (`FuzzEntries`), so the regression suite replays
// the same corpus through the same code without a sanitizer build.
import PackageDescription

let package = Package(
  name: "DolphinFuzz",
  platforms: [.macOS(.v15)],
  dependencies: [
    // The explicit name makes the product reference independent of the checkout's folder name.
    .package(name: "DolphinContinuity", path: "..")
  ],
  targets: [
    // One executable for every target: `dolphin-fuzz TARGET [libFuzzer options] [corpus…]`,
    // TARGET a key of `FuzzEntries.targets` (legacy-import, export-import, sanitizer, ranker,
    // code-analysis, jsonrpc).
    .executableTarget(
      name: "dolphin-fuzz",
      dependencies: [.product(name: "DolphinFuzzEntries", package: "DolphinContinuity")],
      path: "Sources/dolphin-fuzz")
  ]
)
