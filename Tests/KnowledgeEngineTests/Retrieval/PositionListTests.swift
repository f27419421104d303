import Testing

@testable import KnowledgeEngine

struct PositionListTests {
  @Test func documentedExample() {
    let list = PositionList(FieldValues(title: [], tags: [], content: [3, 10]))
    #expect(list.bytes == [0x03, 0x07])
    #expect(list.positions(in: .content, counts: FieldCounts(title: 0, tags: 0, content: 2)) == [3, 10])
  }

  @Test func roundTripsEveryFieldWithLargeValues() {
    let positions = FieldValues(title: [0, 1, 2], tags: [5], content: [127, 128, 16_000, 300_000])
    let list = PositionList(positions)
    let counts = FieldCounts(title: 3, tags: 1, content: 4)
    #expect(list.positions(in: .title, counts: counts) == [0, 1, 2])
    #expect(list.positions(in: .tags, counts: counts) == [5])
    #expect(list.positions(in: .content, counts: counts) == [127, 128, 16_000, 300_000])
  }

  @Test func truncatedBytesNeverReadPastTheEnd() {
    let list = PositionList(bytes: [0x81])
    #expect(list.positions(in: .content, counts: FieldCounts(title: 0, tags: 0, content: 3)) == [1])
  }
}
