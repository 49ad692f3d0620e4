import Foundation

/// How single lines are recognised: fences, headings, rules, quote and list markers, table rows.
/// Leading tabs are expanded first, so indentation is counted in characters.
extension MarkdownBlockParser {
    struct Fence {
        let indent: Int
        let char: Character
        let length: Int
        let info: String
    }

    struct ListMarker {
        let ordered: Bool
        /// `-`, `+` or `*`; `.` or `)` for ordered items. A different one starts a new list.
        let delimiter: Character
        let start: Int
        /// The column the item's content starts at; later lines indented that far belong to it.
        let contentIndent: Int
        let firstLine: String
        let isEmpty: Bool
    }

    static func expandTabs(_ line: Substring) -> String {
        guard line.prefix(while: { $0 == " " || $0 == "\t" }).contains("\t") else { return String(line) }
        var result = "", column = 0, leading = true
        for c in line {
            if leading && c == "\t" {
                result += String(repeating: " ", count: 4 - column % 4)
                column += 4 - column % 4
            } else {
                leading = leading && c == " "
                result.append(c)
                column += 1
            }
        }
        return result
    }

    static func isBlank(_ line: String) -> Bool { line.allSatisfy { $0 == " " || $0 == "\t" } }

    static func indentation(_ line: String) -> Int { line.prefix(while: { $0 == " " }).count }

    static func dedented(_ line: String) -> String { String(line.drop(while: { $0 == " " || $0 == "\t" })) }

    /// Only spaces and tabs: other white space (a no-break space) is content.
    static func trimmed(_ text: String) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        var start = text.startIndex, end = text.endIndex
        while start < end, isSpace(text[start]) { start = text.index(after: start) }
        while end > start, isSpace(text[text.index(before: end)]) { end = text.index(before: end) }
        return String(text[start..<end])
    }

    /// Up to three spaces, then three or more backticks or tildes; a backtick fence's info string
    /// has no backtick.
    static func fence(_ line: String) -> Fence? {
        let indent = indentation(line)
        let rest = line.dropFirst(indent)
        guard indent <= 3, let c = rest.first, c == "`" || c == "~" else { return nil }
        let length = rest.prefix(while: { $0 == c }).count
        let info = trimmed(String(rest.dropFirst(length)))
        guard length >= 3, c == "~" || !info.contains("`") else { return nil }
        return Fence(indent: indent, char: c, length: length, info: info)
    }

    /// `#` to `######` followed by a space or the line's end; a closing run of `#` is dropped.
    static func heading(_ line: String) -> (Int, String)? {
        let indent = indentation(line)
        let rest = line.dropFirst(indent)
        let level = rest.prefix(while: { $0 == "#" }).count
        let after = rest.dropFirst(level)
        guard indent <= 3, (1...6).contains(level), after.isEmpty || after.first == " " else { return nil }
        let text = trimmed(String(after))
        let hashes = text.reversed().prefix(while: { $0 == "#" }).count
        if hashes == text.count { return (level, "") }
        if hashes > 0, text.dropLast(hashes).last == " " { return (level, trimmed(String(text.dropLast(hashes)))) }
        return (level, text)
    }

    /// Three or more `-`, `*` or `_` of one kind, with nothing else but spaces.
    static func isRule(_ line: String) -> Bool {
        let marks = line.filter { $0 != " " && $0 != "\t" }
        guard indentation(line) <= 3, let c = marks.first, "-*_".contains(c), marks.count >= 3 else { return false }
        return marks.allSatisfy { $0 == c }
    }

    /// A line of `=` under a paragraph makes it a first-level heading, of `-` a second-level one.
    static func setextLevel(_ line: String) -> Int? {
        let text = trimmed(line)
        guard indentation(line) <= 3, let c = text.first, c == "=" || c == "-", text.allSatisfy({ $0 == c }) else { return nil }
        return c == "=" ? 1 : 2
    }

    /// The line without its `>` and the one space after it, if it is a quote's line.
    static func quoted(_ line: String) -> String? {
        let indent = indentation(line)
        let rest = line.dropFirst(indent)
        guard indent <= 3, rest.first == ">" else { return nil }
        let after = rest.dropFirst()
        return String(after.first == " " ? after.dropFirst() : after)
    }

    /// `-`, `+`, `*`, or up to nine digits and `.` or `)`, then spaces or the line's end. Content
    /// starts after the spaces, or after one of them when there are five or more (indented code).
    static func listMarker(_ line: String) -> ListMarker? {
        let indent = indentation(line)
        let rest = Array(line.dropFirst(indent))
        guard indent <= 3, let first = rest.first else { return nil }
        var width = 1, start = 1, delimiter = first
        if !"-+*".contains(first) {
            let digits = rest.prefix(while: { $0.isASCII && $0.isNumber }).count
            guard (1...9).contains(digits), digits < rest.count, rest[digits] == "." || rest[digits] == ")" else { return nil }
            start = Int(String(rest[..<digits])) ?? 1
            delimiter = rest[digits]
            width = digits + 1
        }
        let spaces = rest.dropFirst(width).prefix(while: { $0 == " " }).count
        let isEmpty = width + spaces == rest.count
        guard spaces > 0 || isEmpty else { return nil }
        let contentIndent = indent + width + (isEmpty || spaces >= 5 ? 1 : spaces)
        return ListMarker(ordered: !"-+*".contains(first), delimiter: delimiter, start: start, contentIndent: contentIndent,
                          firstLine: isEmpty ? "" : String(line.dropFirst(contentIndent)), isEmpty: isEmpty)
    }

    /// A line that ends a paragraph without a blank line before it. A list may only interrupt one
    /// with a first item that has content and, if numbered, starts at 1.
    static func interruptsParagraph(_ line: String) -> Bool {
        guard indentation(line) <= 3 else { return false }
        if fence(line) != nil || heading(line) != nil || isRule(line) || quoted(line) != nil { return true }
        guard let marker = listMarker(line), !marker.isEmpty else { return false }
        return !marker.ordered || marker.start == 1
    }

    /// `|---|:---:|---:|`: a table's delimiter row, giving each column's alignment. As on GitHub,
    /// pipes are optional, but `---` is a heading's underline and `- | -` a list item.
    static func delimiterRow(_ line: String) -> [MarkdownAlignment]? {
        guard indentation(line) <= 3, setextLevel(line) == nil, listMarker(line) == nil else { return nil }
        var alignments: [MarkdownAlignment] = []
        for cell in cells(line) {
            guard cell.contains("-"), cell.allSatisfy({ $0 == "-" || $0 == ":" }),
                  !cell.dropFirst().dropLast().contains(":") else { return nil }
            switch (cell.first == ":", cell.last == ":") {
            case (true, true): alignments.append(.center)
            case (true, false): alignments.append(.left)
            case (false, true): alignments.append(.right)
            case (false, false): alignments.append(.none)
            }
        }
        return alignments
    }

    /// A line with cells: not blank, and more than a lone pipe.
    static func isRow(_ line: String) -> Bool {
        let row = trimmed(line)
        return !row.isEmpty && !(row.hasPrefix("|") && trimmed(String(row.dropFirst())).isEmpty)
    }

    /// A row's cells. Outer pipes are optional; `\|` is a pipe within a cell, even in a code span.
    static func cells(_ line: String) -> [String] {
        var row = trimmed(line)
        if row.hasPrefix("|") { row.removeFirst() }
        if row.hasSuffix("|") && !row.hasSuffix("\\|") { row.removeLast() }
        var cells: [String] = [], current = "", escaped = false
        for c in row {
            if c == "|" && !escaped {
                cells.append(current)
                current = ""
            } else if c == "|" {
                current.removeLast()
                current.append(c)
            } else {
                current.append(c)
            }
            escaped = c == "\\" && !escaped
        }
        cells.append(current)
        return cells.map(trimmed)
    }
}
