/// The lines two texts share and where they differ (longest common subsequence of lines), for
/// showing what a new survey version changed. Unchanged runs are cut to a few lines of context.
enum LineDiff {
    struct Line: Equatable, Encodable {
        enum Change: String, Encodable {
            case same, added, removed, skipped
        }

        let change: Change
        let oldNumber: Int?
        let newNumber: Int?
        /// The line; for `skipped`, how many unchanged lines are not shown.
        let text: String
    }

    /// Above this many line pairs the comparison table would be too large to build: say so instead.
    static let maximumPairs = 4_000_000

    /// The differences from `old` to `new`, with `context` unchanged lines around each change;
    /// nil when the texts are too long to compare.
    static func lines(from old: String, to new: String, context: Int = 3) -> [Line]? {
        let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard a.count * b.count <= maximumPairs else { return nil }
        return collapse(align(a, b), context: context)
    }

    /// Every line of both texts in order, each marked same, added or removed.
    private static func align(_ a: [String], _ b: [String]) -> [Line] {
        // common[i][j]: length of the longest common subsequence of a[i...] and b[j...].
        var common = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                common[i][j] = a[i] == b[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var lines: [Line] = []
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                lines.append(Line(change: .same, oldNumber: i + 1, newNumber: j + 1, text: a[i]))
                i += 1
                j += 1
            } else if i < a.count, j == b.count || common[i + 1][j] >= common[i][j + 1] {
                // Removals before additions, as diffs are read: the old line, then what replaced it.
                lines.append(Line(change: .removed, oldNumber: i + 1, newNumber: nil, text: a[i]))
                i += 1
            } else {
                lines.append(Line(change: .added, oldNumber: nil, newNumber: j + 1, text: b[j]))
                j += 1
            }
        }
        return lines
    }

    /// Keeps `context` unchanged lines either side of each change; longer unchanged runs become one `skipped` line.
    private static func collapse(_ lines: [Line], context: Int) -> [Line] {
        let changed = lines.indices.filter { lines[$0].change != .same }
        var shown = Set<Int>()
        for index in changed {
            shown.formUnion(max(0, index - context)...min(lines.count - 1, index + context))
        }
        var result: [Line] = []
        var hidden = 0
        for (index, line) in lines.enumerated() {
            if shown.contains(index) {
                if hidden > 0 { result.append(skipped(hidden)) }
                hidden = 0
                result.append(line)
            } else {
                hidden += 1
            }
        }
        if hidden > 0 { result.append(skipped(hidden)) }
        return result
    }

    private static func skipped(_ count: Int) -> Line {
        Line(change: .skipped, oldNumber: nil, newNumber: nil, text: count == 1 ? "1 unchanged line" : "\(count) unchanged lines")
    }
}
