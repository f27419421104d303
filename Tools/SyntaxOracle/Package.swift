// swift-tools-version:6.0
// Differential check and throughput benchmark for Dolphin's heuristic code analysis.
//
// A nested package on purpose: `syntax-oracle` links the SwiftParser and SwiftSyntax host
// libraries that ship inside the Swift toolchain, which needs unsafe flags (-I, -L, rpath).
// Those flags stay here and never reach the main manifest or the product.
// Run it through `scripts/differential-code-analysis.sh`.
import Foundation
import PackageDescription

/// The toolchain's host libraries: `$SWIFT_HOST_LIBRARIES`, else `<toolchain>/usr/lib/swift/host`
/// next to the `swift` that runs this manifest.
let hostLibraries: String = {
  if let explicit = ProcessInfo.processInfo.environment["SWIFT_HOST_LIBRARIES"] { return explicit }
  let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
  for directory in path.split(separator: ":") {
    let swift = URL(fileURLWithPath: String(directory)).appendingPathComponent("swift")
    guard FileManager.default.isExecutableFile(atPath: swift.path) else { continue }
    let bin = swift.resolvingSymlinksInPath().deletingLastPathComponent()
    return bin.deletingLastPathComponent().appendingPathComponent("lib/swift/host").path
  }
  return "/usr/lib/swift/host"
}()

let knowledgeEngine = Target.Dependency.product(
  name: "KnowledgeEngine", package: "DolphinContinuity")

let package = Package(
  name: "SyntaxOracle",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "DolphinContinuity", path: "../..")],
  targets: [
    .target(name: "OracleSupport"),
    .executableTarget(
      name: "syntax-oracle",
      dependencies: ["OracleSupport"],
      swiftSettings: [.unsafeFlags(["-I", hostLibraries])],
      linkerSettings: [
        .unsafeFlags(["-L", hostLibraries, "-Xlinker", "-rpath", "-Xlinker", hostLibraries]),
        .linkedLibrary("SwiftParser"),
        .linkedLibrary("SwiftSyntax"),
      ]
    ),
    .executableTarget(
      name: "dolphin-analyze-counts",
      dependencies: ["OracleSupport", knowledgeEngine]
    ),
    .executableTarget(
      name: "analyze-throughput",
      dependencies: ["OracleSupport", knowledgeEngine]
    ),
  ]
)
