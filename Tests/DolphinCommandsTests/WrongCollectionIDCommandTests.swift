import Foundation
import Testing
import TestSupport

/// Review 26-a, #7: `handoff create --knowledge <a task's id>` said only "no knowledge item has
/// the id …"; it now says whose id it is and which option takes it.
@Suite("An id given to the other option is named as such", .serialized)
struct WrongCollectionIDCommandTests {
  @Test("handoff create --knowledge <task>, --task <knowledge> and task add --knowledge <task> name the id's owner (exit 3)")
  func namesTheOwner() throws {
    let cli = CLI()
    defer { cli.dir.remove() }
    let item = try #require(try cli.record("item", ["capture", "fact", "WAL is on"])["id"] as? String)
    let task = try #require(try cli.record("task", ["task", "add", "Benchmark WAL"])["id"] as? String)
    let knowledge = try cli.run(["handoff", "create", "--focus", "f", "--knowledge", task])
    #expect(knowledge.status == 3, "\(knowledge.stderr)")
    #expect(
      knowledge.stderr.contains("--knowledge: no knowledge item has the id \(task) (it is a task's id; give it as --task)"),
      "\(knowledge.stderr)")
    let taskOption = try cli.run(["handoff", "create", "--focus", "f", "--task", item])
    #expect(taskOption.status == 3, "\(taskOption.stderr)")
    #expect(
      taskOption.stderr.contains("--task: no task has the id \(item) (it is a knowledge item's id; give it as --knowledge)"),
      "\(taskOption.stderr)")
    let add = try cli.run(["task", "add", "t", "--knowledge", task])
    #expect(add.status == 3, "\(add.stderr)")
    #expect(add.stderr.contains("no knowledge item has the id \(task) (it is a task's id, not a knowledge item's)"), "\(add.stderr)")
    // Nothing was stored.
    #expect((try cli.json(["handoff", "list"])["handoffs"] as? [Any])?.isEmpty == true)
    #expect((try cli.json(["task", "list"])["tasks"] as? [Any])?.count == 1)
  }
}
