import ContinuityKit
import Foundation

// Expected schema-v5 content of each legacy fixture, written out by hand from the JSON files
// in Fixtures/legacy/. Dates with an offset in the file are written here in UTC.

/// A fixture file's bytes, found beside the tests through `#filePath`.
func legacyFixture(_ name: String) throws -> Data {
  let url = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Legacy/
    .deletingLastPathComponent()  // ContinuityKitTests/
    .appendingPathComponent("Fixtures/legacy/\(name)")
  return try Data(contentsOf: url)
}

func uuid(_ text: String) -> UUID {
  guard let id = UUID(uuidString: text) else { preconditionFailure("bad UUID literal \(text)") }
  return id
}

func date(_ text: String) -> Date {
  guard let date = ISO8601.date(from: text) else { preconditionFailure("bad date literal \(text)") }
  return date
}

enum ExpectedLegacy {
  // MARK: v1 (no schemaVersion key)

  static let v1: AssistantWorkspace = {
    let list = uuid("C0DA5BA1-6A66-4FE3-8AF1-EAD51E51F05F")
    let naming = uuid("74C2D499-47DE-4CE9-ACB8-D7D1B784C79F")
    return AssistantWorkspace(
      memories: [
        MemoryItem(
          id: uuid("9F51760F-1283-49B5-90D4-05307A792BDB"), text: "Prefers SwiftUI over UIKit",
          tags: [], createdAt: date("2025-01-06T09:20:00Z")),
        MemoryItem(
          id: uuid("4AEA0AF0-A4FC-49DC-B3A7-6111797F5E60"),
          text: "The app is called Harbor, a habit tracker for iOS 17 and later", tags: [],
          createdAt: date("2025-01-08T18:06:00Z")),
        MemoryItem(
          id: uuid("15C13AA0-7A7E-4EB6-992A-01838FC4A606"),
          text: "Works from Berlin; mornings are best for deep work", tags: [],
          createdAt: date("2025-01-09T06:45:12Z")),
      ],
      conversations: [
        Conversation(
          id: list, title: "SwiftUI list performance", createdAt: date("2025-01-06T09:14:03Z"),
          updatedAt: date("2025-01-06T09:31:40Z")),
        Conversation(
          id: naming, title: "Naming the app", createdAt: date("2025-01-08T18:02:11.250Z"),
          updatedAt: date("2025-01-08T18:05:47.900Z")),
      ],
      messages: [
        ChatMessage(
          id: uuid("26A1189E-4611-4633-8E6A-099071708876"), conversationID: list, role: .user,
          text:
            "My habit list stutters when scrolling with 500 rows. It's a List with a ForEach over a Core Data fetch.",
          createdAt: date("2025-01-06T09:14:03Z")),
        ChatMessage(
          id: uuid("E84C7551-93FF-4531-BF42-88BEAFCDE498"), conversationID: list, role: .assistant,
          text:
            "Give each row a stable id and move the date formatting out of the row body:\n1. Identify rows by the object ID.\n2. Share one DateFormatter instead of making one per row.",
          createdAt: date("2025-01-06T09:14:09Z")),
        ChatMessage(
          id: uuid("BAC50DAB-E5A0-4988-B863-37D011F711EB"), conversationID: list, role: .user,
          text:
            "That fixed it, thanks! Bookmarking https://developer.apple.com/documentation/swiftui/list",
          createdAt: date("2025-01-06T09:31:40Z")),
        ChatMessage(
          id: uuid("472A9181-0645-47B7-AE5D-56BEC4001907"), conversationID: naming, role: .system,
          text: "You are Dolphin, a concise assistant.", createdAt: date("2025-01-08T18:02:11.250Z")
        ),
        ChatMessage(
          id: uuid("44E9157C-FB95-4933-9A2B-CAC31105203E"), conversationID: naming, role: .user,
          text: "Short names for a habit tracker? It has to work as an App Store title.",
          createdAt: date("2025-01-08T18:02:30Z")),
        ChatMessage(
          id: uuid("B016C348-5094-4732-8A5F-A231A03EC097"), conversationID: naming,
          role: .assistant, text: "Harbor, Tally, Streakline, Daybook — Harbor feels calm 🌊",
          createdAt: date("2025-01-08T18:05:47.900Z")),
      ],
      settings: Settings(
        assistantName: "Dolphin", responseStyle: .concise, calendarAccessEnabled: true))
  }()

  // MARK: v1 with "schemaVersion": "1"

  static let v1StringVersion: AssistantWorkspace = {
    let conversation = uuid("1FD4DFA4-6680-4275-A9EC-4484D8C2D00C")
    return AssistantWorkspace(
      memories: [
        MemoryItem(
          id: uuid("9137C815-2F1D-4CBC-8BCB-6B7190F5DA42"), text: "Harbor targets iOS 17",
          createdAt: date("2025-01-20T12:00:30Z"))
      ],
      conversations: [
        Conversation(
          id: conversation, title: "Deployment target", createdAt: date("2025-01-20T12:00:00Z"),
          updatedAt: date("2025-01-20T12:00:00Z"))
      ],
      messages: [
        ChatMessage(
          id: uuid("195307F4-0C8F-458C-B95D-557E4E4ED47C"), conversationID: conversation,
          role: .user, text: "Remind me which minimum iOS version Harbor targets.",
          createdAt: date("2025-01-20T12:00:00Z"))
      ],
      settings: Settings(
        assistantName: "Dolphin", responseStyle: .balanced, calendarAccessEnabled: false))
  }()

  // MARK: v2

  static let v2: AssistantWorkspace = {
    let deepLinks = uuid("F61EA0E8-7ADA-419C-BF38-13756330FD13")
    return AssistantWorkspace(
      memories: [
        MemoryItem(
          id: uuid("4365D41F-D1E4-44FD-AA4E-A63BCE320DFF"), text: "Prefers SwiftUI over UIKit",
          createdAt: date("2025-02-01T08:00:00Z")),
        MemoryItem(
          id: uuid("1300D57B-627F-4B3C-AF5C-EBEDE517260F"),
          text: "Harbor moved from Core Data to SwiftData in version 1.1",
          createdAt: date("2025-02-02T11:17:45Z")),
      ],
      tasks: [
        TaskItem(
          id: uuid("B8AEC375-9962-4D58-94C6-C0ED29E2F0C0"),
          title: "Fix NavigationStack back-button bug",
          notes: "Back button disappears after a deep link into a habit detail.",
          status: .completed,
          priority: .high, createdAt: date("2025-02-03T10:00:00Z"),
          completedAt: date("2025-02-04T16:45:00Z")),
        TaskItem(
          id: uuid("49B26D78-934A-44BD-9EB5-82AB36330DED"), title: "Write onboarding flow",
          notes: "",
          status: .open, priority: .normal, createdAt: date("2025-02-05T09:30:00Z")),
        TaskItem(
          id: uuid("B196E57D-2A4A-4633-B890-237DF6E97B5D"), title: "Submit TestFlight build 1.2",
          notes: "Needs new screenshots for the 6.7\" display.", status: .open, priority: .low,
          createdAt: date("2025-02-06T12:05:30Z")),
      ],
      conversations: [
        Conversation(
          id: deepLinks, title: "NavigationStack deep links",
          createdAt: date("2025-02-03T09:58:12Z"),
          updatedAt: date("2025-02-03T09:58:20.125Z")),
        Conversation(
          id: uuid("E2B5669A-B4BC-447C-9D7E-6A1F9479FB46"), title: "New chat",
          createdAt: date("2025-02-05T21:40:00Z"), updatedAt: date("2025-02-05T21:40:00Z")),
      ],
      messages: [
        ChatMessage(
          id: uuid("73616C38-D529-4403-9FB6-0696D726593F"), conversationID: deepLinks, role: .user,
          text:
            "After a deep link into a habit's detail screen the back button disappears. NavigationStack with a path array.",
          createdAt: date("2025-02-03T09:58:12Z")),
        ChatMessage(
          id: uuid("8AF6E694-6D48-4A33-8923-F727AD1486F7"), conversationID: deepLinks,
          role: .assistant,
          text:
            "Append the detail value to the existing path instead of replacing the path; replacing it leaves no root to go back to.",
          createdAt: date("2025-02-03T09:58:20.125Z")),
      ],
      settings: Settings(
        assistantName: "Flipper", responseStyle: .detailed, calendarAccessEnabled: false))
  }()

  // MARK: v3

  static let v3: AssistantWorkspace = {
    let widget = uuid("4D7E1BD2-D1C9-48A1-B56D-757C1A036421")
    return AssistantWorkspace(
      memories: [
        MemoryItem(
          id: uuid("8A5731AB-876F-4571-82CA-F590EDC0C09E"),
          text: "Harbor moved from Core Data to SwiftData in version 1.1",
          createdAt: date("2025-02-02T11:17:45Z")),
        MemoryItem(
          id: uuid("7F4DA5E3-8276-4347-9DD7-D78DFD091CFD"),
          text: "Widgets must stay under 30 MB of memory",
          createdAt: date("2025-03-01T19:03:27.318Z")),
      ],
      tasks: [
        TaskItem(
          id: uuid("E9997F63-3112-453D-8AB2-8F3F487AFFA7"), title: "Write onboarding flow",
          notes: "Onboarding: 3 screens, skip button, request notification permission last.",
          status: .open, priority: .high, createdAt: date("2025-02-26T08:12:00Z")),
        TaskItem(
          id: uuid("7951C8E4-694E-4AFF-B62E-E0005FC62FA9"), title: "Add a widget for streaks",
          notes: "",
          status: .open, priority: .normal, createdAt: date("2025-03-02T14:00:04.500Z")),
      ],
      conversations: [
        Conversation(
          id: widget, title: "Streak widget", createdAt: date("2025-03-02T13:59:50Z"),
          updatedAt: date("2025-03-02T14:00:05Z"))
      ],
      messages: [
        ChatMessage(
          id: uuid("3545CB5A-7FA3-420D-9FDD-C285F560DC33"), conversationID: widget, role: .user,
          text: "What did I decide about SwiftData? And add a task for the streak widget.",
          createdAt: date("2025-03-02T13:59:50Z")),
        ChatMessage(
          id: uuid("6E7D21CA-6C24-48D1-8A50-5E5CF7A30484"), conversationID: widget, role: .tool,
          text: "memory_search: 1 result", createdAt: date("2025-03-02T14:00:00.042Z")),
        ChatMessage(
          id: uuid("8C829199-967D-4D02-A0B0-3593F7C0F6F4"), conversationID: widget, role: .tool,
          text: "task_add: created \"Add a widget for streaks\"",
          createdAt: date("2025-03-02T14:00:04.500Z")),
        ChatMessage(
          id: uuid("3DDBDA8B-A916-4EED-BA3C-5818EFCA73CD"), conversationID: widget,
          role: .assistant,
          text:
            "You moved Harbor to SwiftData in 1.1. I added \"Add a widget for streaks\" to your tasks.",
          createdAt: date("2025-03-02T14:00:05Z")),
      ],
      settings: Settings(
        assistantName: "Dolphin", responseStyle: .balanced, calendarAccessEnabled: false),
      receipts: [
        ActivityReceipt(
          id: uuid("6DE36FEB-D1D8-4AF5-9203-2A0F6F0BDE10"), callID: "call_01HV8K3Q",
          tool: "memory_search", risk: "readOnly", arguments: #"{"limit":5,"query":"SwiftData"}"#,
          outcome: .succeeded, startedAt: date("2025-03-02T14:00:00Z"),
          finishedAt: date("2025-03-02T14:00:00.042Z"), approval: "notRequired"),
        ActivityReceipt(
          id: uuid("834E1D83-E767-4754-8725-E13D34E9350E"), callID: "call_01HV8K9Z",
          tool: "task_add",
          risk: "localWrite",
          arguments: #"{"priority":"normal","title":"Add a widget for streaks"}"#,
          outcome: .succeeded, startedAt: date("2025-03-02T14:00:04.310Z"),
          finishedAt: date("2025-03-02T14:00:04.500Z"), approval: "user"),
        ActivityReceipt(
          id: uuid("A727277E-D9BD-40DA-91BB-859DDF0BC369"), callID: "call_01HV8KB4",
          tool: "task_complete", risk: "localWrite",
          arguments: #"{"id":"E9997F63-3112-453D-8AB2-8F3F487AFFA7"}"#, outcome: .denied,
          startedAt: date("2025-03-02T14:01:02Z"), finishedAt: date("2025-03-02T14:01:10Z"),
          approval: nil),
      ])
  }()

  // MARK: v4

  static let v4: AssistantWorkspace = {
    let widget = uuid("81FB5A76-3D38-41C2-8BE3-D74C9EB817DE")
    let release = uuid("D7FD8E99-8EB8-442D-A661-3D2465F9EE09")
    let approvedRun = uuid("C06B91A4-1C98-410A-855B-EF4C616A8E47")
    let cancelledRun = uuid("5C1826D2-0011-448A-85CC-37F6671BC845")
    return AssistantWorkspace(
      memories: [
        MemoryItem(
          id: uuid("B54ED1CC-06D5-4C7B-B631-4947FBC69157"), text: "Prefers SwiftUI over UIKit",
          tags: ["swiftui", "preferences"], createdAt: date("2025-01-06T09:20:00Z")),
        MemoryItem(
          id: uuid("389ED8F7-6B0D-4620-AA67-ED6846281FE1"),
          text: "Harbor supports iOS 17 and later",
          tags: ["ios", "platform"], createdAt: date("2025-03-20T10:00:00.500Z")),
        MemoryItem(
          id: uuid("E43DB374-711B-4311-A9C2-1AA127F09C87"),
          text: "Wants tests written with Swift Testing, not XCTest", tags: [],
          createdAt: date("2025-04-01T16:00:00Z")),
      ],
      tasks: [
        TaskItem(
          id: uuid("8DB9E660-4A07-411F-8674-C7E8F72E742F"),
          title: "Test the widget's midnight rollover",
          notes: "Use a fixed clock; cover the DST change on 30 March.", status: .open,
          priority: .high,
          createdAt: date("2025-04-10T08:31:13Z")),
        TaskItem(
          id: uuid("3FB89FE6-D1AA-4FC7-A47D-EC78D4F61163"), title: "Add the privacy manifest",
          notes: "PrivacyInfo.xcprivacy: declares UserDefaults (CA92.1).", status: .open,
          priority: .normal, createdAt: date("2025-04-11T15:20:00Z")),
        TaskItem(
          id: uuid("7F138A37-C299-46A9-8E3B-8D5A59AF2D37"), title: "Add a widget for streaks",
          notes: "",
          status: .completed, priority: .normal, createdAt: date("2025-03-02T14:00:04.500Z"),
          completedAt: date("2025-04-09T20:15:00Z")),
      ],
      conversations: [
        Conversation(
          id: widget, title: "Streak widget timeline", createdAt: date("2025-04-10T08:29:40Z"),
          updatedAt: date("2025-04-10T08:31:12.004Z")),
        Conversation(
          id: release, title: "Release checklist", createdAt: date("2025-04-12T17:02:00Z"),
          updatedAt: date("2025-04-12T17:03:30Z")),
      ],
      messages: [
        ChatMessage(
          id: uuid("EF68306B-D39F-4ECB-8F96-0B282171EF30"), conversationID: widget, role: .user,
          text:
            "The streak widget shows yesterday's count until I open the app. How should the timeline refresh?",
          createdAt: date("2025-04-10T08:29:40Z")),
        ChatMessage(
          id: uuid("C2AE0F5C-1680-4F03-AFC2-546291DC56E9"), conversationID: widget,
          role: .assistant,
          text:
            "Return an entry for midnight with policy .after(midnight) and call WidgetCenter.shared.reloadTimelines(ofKind:) when a habit is checked off.",
          createdAt: date("2025-04-10T08:29:58Z")),
        ChatMessage(
          id: uuid("21CCD803-681E-402B-8301-B60D43523C84"), conversationID: widget, role: .user,
          text: "Perfect. Add a task to write a test for the midnight rollover.",
          createdAt: date("2025-04-10T08:31:12.004Z")),
        ChatMessage(
          id: uuid("F45A00D3-CAAF-4016-8A62-036739F134A0"), conversationID: release, role: .user,
          text: "What's left before Harbor 1.3 goes to review?",
          createdAt: date("2025-04-12T17:02:00Z")),
        ChatMessage(
          id: uuid("74AEA612-C27C-47DF-A243-4F37B60A6B90"), conversationID: release,
          role: .assistant,
          text: "Two open tasks: the midnight rollover test and the privacy manifest.",
          createdAt: date("2025-04-12T17:03:30Z")),
      ],
      settings: Settings(
        assistantName: "Dolphin", responseStyle: .detailed, calendarAccessEnabled: true),
      receipts: [
        ActivityReceipt(
          id: uuid("756B4B20-D778-4BCA-85BC-0A2ED4E5B4A7"), callID: "call_02JA1X7M",
          tool: "task_list",
          risk: "readOnly", arguments: #"{"limit":20,"status":"open"}"#, outcome: .succeeded,
          startedAt: date("2025-04-12T17:02:01Z"), finishedAt: date("2025-04-12T17:02:01.030Z"),
          approval: "notRequired"),
        ActivityReceipt(
          id: uuid("B42A89E2-7C89-4C2F-8EE0-9A1B1B908CD7"), callID: "call_02JA1X9Q",
          tool: "task_add",
          risk: "localWrite",
          arguments:
            #"{"priority":"high","tags":["widget","tests"],"title":"Test the widget's midnight rollover"}"#,
          outcome: .succeeded, startedAt: date("2025-04-10T08:31:12.900Z"),
          finishedAt: date("2025-04-10T08:31:13Z"), approval: "user"),
        ActivityReceipt(
          id: uuid("D194299C-2578-414A-A05F-FA504E9E0367"), callID: "call_02JA1XB2",
          tool: "memory_save", risk: "localWrite", arguments: #"{"text":"Ship 1.3 before WWDC"}"#,
          outcome: .cancelled, startedAt: date("2025-04-12T17:04:00Z"),
          finishedAt: date("2025-04-12T17:04:09Z"), approval: nil),
      ],
      checkpoints: [
        RunCheckpoint(
          id: uuid("2ED2F1D7-E532-4D95-ABDB-8056295638F3"), runID: approvedRun, step: 0,
          state: "planned",
          note: "task_add: Test the widget's midnight rollover",
          createdAt: date("2025-04-10T08:31:12.100Z")),
        RunCheckpoint(
          id: uuid("8907FBC2-9D40-408D-9C24-ED45CFEC90FD"), runID: approvedRun, step: 1,
          state: "awaitingApproval", note: "task_add needs the user's approval",
          createdAt: date("2025-04-10T08:31:12.200Z")),
        RunCheckpoint(
          id: uuid("D2222BB8-1EF9-46A1-9160-AA8142151A08"), runID: approvedRun, step: 2,
          state: "executing", note: "", createdAt: date("2025-04-10T08:31:12.900Z")),
        RunCheckpoint(
          id: uuid("411F7467-2CB7-4FE6-A79D-8B50A2EF7FE5"), runID: approvedRun, step: 3,
          state: "finished",
          note: "", createdAt: date("2025-04-10T08:31:13Z")),
        RunCheckpoint(
          id: uuid("8581DEBD-B1E9-4292-8A48-573A16432622"), runID: cancelledRun, step: 0,
          state: "planned",
          note: "memory_save: Ship 1.3 before WWDC", createdAt: date("2025-04-12T17:04:00Z")),
        RunCheckpoint(
          id: uuid("D0D04314-155F-499C-A738-AAD0730AA19E"), runID: cancelledRun, step: 1,
          state: "cancelled", note: "The user cancelled at the approval prompt",
          createdAt: date("2025-04-12T17:04:09Z")),
      ])
  }()

  // MARK: v4 with every optional field missing or null

  static let v4MissingOptional = AssistantWorkspace(
    memories: [
      MemoryItem(
        id: uuid("940E5737-A55A-4F73-ACB4-BBCF6C87B90D"), text: "Prefers SwiftUI over UIKit",
        tags: [],
        createdAt: date("2025-04-02T10:00:00Z")),
      MemoryItem(
        id: uuid("0B6E4F55-3C1A-4A43-9D38-51E0B3C0A8E2"),
        text: "Keeps the widget extension under 30 MB",
        tags: [], createdAt: date("2025-04-02T10:05:00Z")),
    ],
    tasks: [
      TaskItem(
        id: uuid("6A0D8D2C-5D8E-4D5B-9F0B-2C6C1D8C4E11"),
        title: "Record the App Store preview video",
        notes: "", status: .open, priority: .normal, createdAt: date("2025-04-03T09:00:00Z"),
        completedAt: nil),
      TaskItem(
        id: uuid("D9B1C3A4-7E2F-4B8A-A1C6-93E0F4D25B77"), title: "Rename the target to Harbor",
        notes: "",
        status: .completed, priority: .normal, createdAt: date("2025-04-03T09:10:00Z"),
        completedAt: date("2025-04-03T09:40:00Z")),
    ],
    settings: Settings(
      assistantName: "Dolphin", responseStyle: .concise, calendarAccessEnabled: false),
    receipts: [
      ActivityReceipt(
        id: uuid("5E3F2A1B-9C8D-4E7F-8A6B-1C2D3E4F5A6B"), callID: "call_03KB2Y1N",
        tool: "memory_save",
        risk: "localWrite", arguments: "{}", outcome: .denied,
        startedAt: date("2025-04-03T09:20:00Z"),
        finishedAt: date("2025-04-03T09:20:03Z"), approval: nil)
    ],
    checkpoints: [
      RunCheckpoint(
        id: uuid("A8C7E6D5-4B3A-4291-8F7E-6D5C4B3A2918"),
        runID: uuid("F1E2D3C4-B5A6-4978-8695-A4B3C2D1E0F9"),
        step: 0, state: "planned", note: "", createdAt: date("2025-04-03T09:19:59Z"))
    ])
}
