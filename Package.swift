// swift-tools-version:6.0
// Dolphin Continuity: a local-first memory and continuity engine.
// Layering (each target depends only on those above it):
//   CSQLite -> ContinuityKit -> KnowledgeEngine -> AgentRuntime -> MCPServer -> DolphinCommands -> dolphin
import PackageDescription

let package = Package(
  name: "DolphinContinuity",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    .library(name: "ContinuityKit", targets: ["ContinuityKit"]),
    .library(name: "KnowledgeEngine", targets: ["KnowledgeEngine"]),
    .library(name: "AgentRuntime", targets: ["AgentRuntime"]),
    .library(name: "MCPServer", targets: ["MCPServer"]),
    .executable(name: "dolphin", targets: ["dolphin"]),
    // Test tooling, not API: the libFuzzer targets in Fuzz/ (a nested package) call these
    // entry points, and the regression suite replays the saved corpus through them.
    .library(name: "DolphinFuzzEntries", targets: ["FuzzEntries"]),
  ],
  targets: [
    // Debian: libsqlite3-dev. Apple platforms use the system SQLite3 module instead.
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    .target(
      name: "ContinuityKit",
      dependencies: [.target(name: "CSQLite", condition: .when(platforms: [.linux]))]
    ),
    .target(name: "KnowledgeEngine", dependencies: ["ContinuityKit"]),
    .target(name: "AgentRuntime", dependencies: ["KnowledgeEngine"]),
    .target(name: "MCPServer", dependencies: ["AgentRuntime"]),
    .target(name: "DolphinCommands", dependencies: ["MCPServer"]),
    .executableTarget(name: "dolphin", dependencies: ["DolphinCommands"]),
    .target(name: "TestSupport", dependencies: ["ContinuityKit"]),
    .target(name: "FuzzEntries", dependencies: ["MCPServer"]),
    .testTarget(
      name: "ContinuityKitTests",
      dependencies: ["ContinuityKit", "TestSupport"],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "KnowledgeEngineTests",
      dependencies: ["KnowledgeEngine", "TestSupport"],
      exclude: ["CodeReview/Fixtures"]
    ),
    .testTarget(name: "AgentRuntimeTests", dependencies: ["AgentRuntime", "TestSupport"]),
    .testTarget(name: "MCPServerTests", dependencies: ["MCPServer", "TestSupport"]),
    .testTarget(
      name: "DolphinCommandsTests",
      dependencies: ["DolphinCommands", "TestSupport"]
    ),
    .testTarget(name: "FuzzEntriesTests", dependencies: ["FuzzEntries", "TestSupport"]),
  ]
)
