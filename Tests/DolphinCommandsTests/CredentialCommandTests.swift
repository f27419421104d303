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

/// Review 21-a F1: `.env`-style keys with text around the credential word were stored, and
/// `status` and `doctor` then said none were found.
@Suite("dolphin: keys with a prefix or suffix around the credential word", .serialized)
struct AffixedCredentialKeyCommandTests {
  static let inputs = [
    "REDIS_PASSWORD_PROD=Tr0ub4dor3", "SECRET_KEY_BASE=0123456789abcdef0123456789abcdef",
    "GITHUB_TOKEN_CI=abcdef1234567890abcd", "client_secret_prod = \"abcdef123456\"", "password2 = \"Tr0ub4dor&3\"",
    "db_password_2=Tr0ub4dor3", "token1: abcdef123456", "REDIS_PASSWORD=Tr0ub4dor3",
  ]

  @Test("each is refused with exit 4; stored with --allow-credentials, status and doctor count all of them")
  func refusedThenCounted() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let message =
      "dolphin: error: content looks like it holds a credential (password or secret assignment at line 1, column 1); "
      + "it was not stored. Remove the secret, or store it deliberately with --allow-credentials\n"
    for input in Self.inputs {
      let refused = try cli.run(["capture", "fact", "env", "--content", input])
      #expect(refused.status == 4, "\(input): \(refused.stderr)")
      #expect(refused.stderr == message, "\(input)")
    }
    #expect(!FileManager.default.fileExists(atPath: cli.workspace), "nothing was stored")
    for input in Self.inputs {
      let stored = try cli.run(["capture", "fact", "env", "--content", input, "--allow-credentials"])
      #expect(stored.status == 0, "\(input): \(stored.stderr)")
    }
    // A note that only describes credentials is stored as it is, and not counted.
    let described = try cli.run(["capture", "fact", "limits", "--content", "max_tokens = 4096\npassword_min_length=12"])
    #expect(described.status == 0, "\(described.stderr)")
    // Each note, and the digest the captures refreshed, which quotes them.
    let counted = "Credentials: \(Self.inputs.count + 1) record(s) hold text that looks like a credential:"
    let note = "content: password or secret assignment at line 1, column 1"
    for command in ["status", "doctor"] {
      let r = try cli.run([command])
      #expect(r.stdout.contains(counted), "\(command): \(r.stdout)")
      let lines = r.stdout.split(separator: "\n")
      #expect(lines.filter { $0.hasPrefix("  - knowledge ") && $0.hasSuffix(note) }.count == Self.inputs.count, "\(r.stdout)")
      #expect(lines.filter { $0.hasPrefix("  - digest ") }.count == 1, "\(r.stdout)")
      #expect(!r.stdout.contains("Tr0ub4dor"))
    }
  }
}

/// The advice of a credential refusal is something the user can do with the command they ran.
@Suite("dolphin: a credential refusal's advice fits the command", .serialized)
struct CredentialAdviceTests {
  /// A command refusing credential-looking text, and its whole error message.
  struct Case: CustomStringConvertible, Sendable {
    var name: String
    var args: [String]
    var message: String
    var description: String { name }
  }

  static let found = "looks like it holds a credential (password or secret assignment at line 1, column 1)"
  static let withFlag = "; it was not stored. Remove the secret, or store it deliberately with --allow-credentials"
  /// The commands that take `--allow-credentials`, as the advice of one that does not names them.
  static let flagCommands = [["capture"], ["memory", "save"], ["task", "add"], ["handoff", "create"]]

  static let cases = [
    Case(name: "capture", args: ["capture", "fact", "Deploy", "--content", "password=hunter22222"], message: "content \(found)\(withFlag)"),
    Case(name: "memory save", args: ["memory", "save", "password=hunter22222"], message: "text \(found)\(withFlag)"),
    Case(name: "task add", args: ["task", "add", "password=hunter22222"], message: "title \(found)\(withFlag)"),
    Case(name: "handoff create", args: ["handoff", "create", "--focus", "password=hunter22222"], message: "--focus \(found)\(withFlag)"),
    // `ask` has no override: it says why, and names the commands that have one.
    Case(
      name: "ask", args: ["ask", "password=hunter22222"],
      message:
        "message \(found); nothing was stored or run: a chat message stays in the chat log and is copied into handoffs. "
        + "Remove the secret; to store it deliberately, use --allow-credentials with `dolphin capture`, `dolphin knowledge edit`, "
        + "`dolphin memory save`, `dolphin task add`, `dolphin task edit` or `dolphin handoff create`"),
  ]

  @Test("each command's refusal gives advice it can follow, on stderr and in the --json error", arguments: cases)
  func advice(_ c: Case) throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let r = try cli.run(c.args)
    #expect(r.status == 4)
    #expect(r.stderr == "dolphin: error: \(c.message)\n", "\(r.stderr)")
    let j = try cli.run(c.args + ["--json"])
    let doc = try #require(try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any], "\(j.stdout)")
    let error = try #require(doc["error"] as? [String: Any])
    #expect(error["message"] as? String == c.message)
    #expect(error["kind"] as? String == "validation")
  }

  @Test("the commands the advice names take --allow-credentials, and ask does not")
  func adviceIsTrue() throws {
    let option = "\n  --allow-credentials "
    for command in Self.flagCommands {
      let help = try runDolphin(command + ["--help"])
      #expect(help.stdout.contains(option), "\(command): \(help.stdout)")
    }
    #expect(!(try runDolphin(["ask", "--help"]).stdout.contains(option)))
    let ask = try runDolphin(["ask", "password=hunter22222", "--allow-credentials", "--workspace", "/nonexistent/dolphin-ws"])
    #expect(ask.status == 2, "\(ask.stderr)")
  }
}
