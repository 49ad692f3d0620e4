@testable import MomentaryServer
import Testing

@Suite("Line comparison of survey versions")
struct LineDiffTests {
    func marks(_ old: String, _ new: String, context: Int = 3) -> [String] {
        (LineDiff.lines(from: old, to: new, context: context) ?? []).map { line in
            switch line.change {
            case .same: "  \(line.text)"
            case .added: "+ \(line.text)"
            case .removed: "- \(line.text)"
            case .skipped: "… \(line.text)"
            }
        }
    }

    @Test("changed lines are marked with their numbers, between unchanged ones")
    func changes() throws {
        #expect(marks("a\nb\nc", "a\nB\nc") == ["  a", "- b", "+ B", "  c"])
        #expect(marks("", "x") == ["- ", "+ x"])
        #expect(marks("a\nb", "a\nb\nc") == ["  a", "  b", "+ c"])
        #expect(marks("a\nb\nc", "c") == ["- a", "- b", "  c"])
        let lines = try #require(LineDiff.lines(from: "a\nb\nc", to: "a\nx\nc"))
        #expect(lines.map(\.oldNumber) == [1, 2, nil, 3])
        #expect(lines.map(\.newNumber) == [1, nil, 2, 3])
    }

    @Test("long unchanged runs are folded to a count; identical texts are one fold")
    func folding() {
        let old = (1...20).map(String.init).joined(separator: "\n")
        let new = old.replacingOccurrences(of: "\n10\n", with: "\nten\n")
        #expect(marks(old, new, context: 1) == ["… 8 unchanged lines", "  9", "- 10", "+ ten", "  11", "… 9 unchanged lines"])
        #expect(marks("same\ntext", "same\ntext") == ["… 2 unchanged lines"])
        #expect(marks("a", "b\na", context: 0) == ["+ b", "… 1 unchanged line"])
    }

    @Test("texts too long to compare give nil rather than a huge table")
    func tooLarge() {
        let long = String(repeating: "x\n", count: 2_100)
        #expect(LineDiff.lines(from: long, to: long + "y") == nil)
    }
}
