import ContinuityKit
import Foundation
import Testing
import TestSupport

@Suite("dolphin refuses credential-looking input", .serialized)
struct CredentialCommandTests {
  typealias CredentialCase = CLICase

  static let credentialCases: [CredentialCase] = [
    CredentialCase(
      name: "capture", args: ["capture", "fact", "Deploy", "--content", "token: \(FakeSecrets.gitLab)"],
      stderr: "content looks like it holds a credential (GitLab access token at line 1, column 8); it was not stored"),
    CredentialCase(
      name: "memory save", args: ["memory", "save", "aws \(FakeSecrets.aws)"],
      stderr: "text looks like it holds a credential (AWS access key id at line 1, column 5)"),
    CredentialCase(
      name: "task add", args: ["task", "add", "Rotate keys", "--notes", "DB_PASSWORD=\"s3cr3t-Pa55\""],
      stderr: "--notes looks like it holds a credential (password or secret assignment at line 1, column 1)"),
  ]

  @Test("credential-looking input is refused with exit 4; --allow-credentials stores it and status flags it",
        arguments: credentialCases)
  func credentials(_ c: CredentialCase) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let refused = try cli.run(c.args)
    #expect(refused.status == 4)
    #expect(refused.stderr.contains(c.stderr), "\(refused.stderr)")
    #expect(refused.stderr.contains("--allow-credentials"))
    #expect(!refused.stderr.contains("FAKE"))
    // Nothing was stored, and the refused write created no workspace either.
    #expect(try cli.run(["status"]).status == 3)
    #expect(!FileManager.default.fileExists(atPath: cli.workspace))
    let allowed = try cli.run(c.args + ["--allow-credentials"])
    #expect(allowed.status == 0, "\(allowed.stderr)")
    let status = try cli.run(["status"])
    #expect(status.stdout.contains("record(s) hold text that looks like a credential"))
    let doctor = try cli.run(["doctor"])
    #expect(doctor.stdout.contains("looks like a credential"))
  }
}
