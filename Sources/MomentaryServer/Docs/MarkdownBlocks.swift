import Foundation

/// A block of a Markdown document. Texts are still inline Markdown, parsed when written.
indirect enum MarkdownBlock: Equatable {
    case heading(level: Int, text: String)
    case paragraph(String)
    case code(info: String, text: String)
    case quote([MarkdownBlock])
    case list(ordered: Bool, start: Int, loose: Bool, items: [[MarkdownBlock]])
    case table(alignments: [MarkdownAlignment], header: [String], rows: [[String]])
    case rule
}

enum MarkdownAlignment: Equatable { case none, left, center, right }

/// Splits Markdown into blocks, following CommonMark's block rules (and GFM's for tables) as far
/// as the docs need them. Containers (quotes, list items) are parsed by stripping their markers
/// and indentation and parsing the rest again.
enum MarkdownBlockParser {
    static func parse(_ markdown: String) -> [MarkdownBlock] {
        let text = markdown.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .replacingOccurrences(of: "\0", with: "\u{FFFD}")
        return parse(lines: text.split(separator: "\n", omittingEmptySubsequences: false).map(expandTabs)).blocks
    }

    /// The blocks of one container's lines, and whether a blank line stands between two of them
    /// (which makes the list the container belongs to loose).
    static func parse(lines: [String]) -> (blocks: [MarkdownBlock], blankBetween: Bool) {
        var blocks: [MarkdownBlock] = [], i = 0, blankBefore = false, blankBetween = false
        while i < lines.count {
            if isBlank(lines[i]) { blankBefore = true; i += 1; continue }
            if blankBefore && !blocks.isEmpty { blankBetween = true }
            let afterParagraph = if !blankBefore, case .paragraph? = blocks.last { true } else { false }
            blankBefore = false
            let (block, next) = block(lines, at: i, afterParagraph: afterParagraph)
            blocks.append(block)
            i = next
        }
        return (blocks, blankBetween)
    }

    private static func block(_ lines: [String], at i: Int, afterParagraph: Bool) -> (MarkdownBlock, Int) {
        let line = lines[i]
        // A table's header row may be any line that would have continued the paragraph.
        if afterParagraph, !interruptsParagraph(line), let alignments = tableStart(lines, at: i) {
            return table(lines, at: i, alignments: alignments)
        }
        if indentation(line) >= 4 { return indentedCode(lines, at: i) }
        if let open = fence(line) { return fencedCode(lines, at: i, open: open) }
        if let (level, text) = heading(line) { return (.heading(level: level, text: text), i + 1) }
        if isRule(line) { return (.rule, i + 1) }
        if quoted(line) != nil { return quote(lines, at: i) }
        if let marker = listMarker(line) { return list(lines, at: i, first: marker) }
        if let alignments = tableStart(lines, at: i) { return table(lines, at: i, alignments: alignments) }
        return paragraph(lines, at: i)
    }

    private static func paragraph(_ lines: [String], at i: Int) -> (MarkdownBlock, Int) {
        var text = [dedented(lines[i])], j = i + 1
        func content() -> String { trimmed(text.joined(separator: "\n").replacingOccurrences(of: "\0", with: "")) }
        while j < lines.count, !isBlank(lines[j]) {
            if let level = setextLevel(lines[j]) { return (.heading(level: level, text: content()), j + 1) }
            if interruptsParagraph(lines[j]) || tableStart(lines, at: j) != nil { break }
            text.append(dedented(lines[j]))
            j += 1
        }
        return (.paragraph(content()), j)
    }

    private static func indentedCode(_ lines: [String], at i: Int) -> (MarkdownBlock, Int) {
        var body: [String] = [], j = i
        while j < lines.count, isBlank(lines[j]) || indentation(lines[j]) >= 4 {
            body.append(String(lines[j].dropFirst(min(4, indentation(lines[j])))))
            j += 1
        }
        // Blank lines after the code are not part of it.
        while let last = body.last, isBlank(last) { body.removeLast(); j -= 1 }
        return (.code(info: "", text: body.map { $0 + "\n" }.joined()), j)
    }

    private static func fencedCode(_ lines: [String], at i: Int, open: Fence) -> (MarkdownBlock, Int) {
        var body: [String] = [], j = i + 1
        while j < lines.count {
            if let close = fence(lines[j]), close.char == open.char, close.length >= open.length, close.info.isEmpty {
                j += 1
                break
            }
            body.append(String(lines[j].dropFirst(min(open.indent, indentation(lines[j])))))
            j += 1
        }
        return (.code(info: open.info, text: body.map { $0 + "\n" }.joined()), j)
    }

    /// `>` lines, and lines that continue the quote's paragraph without one ("lazy" lines).
    private static func quote(_ lines: [String], at i: Int) -> (MarkdownBlock, Int) {
        var inner: [String] = [], j = i
        while j < lines.count {
            if let content = quoted(lines[j]) {
                inner.append(content)
            } else if isLazy(lines[j], after: inner) {
                inner.append(lazyLine(lines[j]))
            } else {
                break
            }
            j += 1
        }
        return (.quote(parse(lines: inner).blocks), j)
    }

    /// Items continue with lines indented to their content, blank lines and lazy lines; the list
    /// with items of the same marker kind. Blank lines between items, or between blocks of an
    /// item, make it loose (paragraphs in `<p>`).
    private static func list(_ lines: [String], at i: Int, first: ListMarker) -> (MarkdownBlock, Int) {
        var items: [[MarkdownBlock]] = [], loose = false, marker = first, j = i
        while true {
            var body = [marker.firstLine]
            j += 1
            while j < lines.count {
                let line = lines[j]
                if isBlank(line) {
                    // An item may start with at most one blank line: an empty one ends there.
                    if body == [""] { break }
                    body.append("")
                } else if indentation(line) >= marker.contentIndent {
                    body.append(String(line.dropFirst(marker.contentIndent)))
                } else if isLazy(line, after: body) {
                    body.append(lazyLine(line))
                } else {
                    break
                }
                j += 1
            }
            while body.count > 1, let last = body.last, isBlank(last) { body.removeLast(); j -= 1 }
            let item = parse(lines: body)
            items.append(item.blocks)
            loose = loose || item.blankBetween
            var k = j
            while k < lines.count, isBlank(lines[k]) { k += 1 }
            guard k < lines.count, !isRule(lines[k]), let next = listMarker(lines[k]),
                  next.ordered == first.ordered, next.delimiter == first.delimiter else { break }
            loose = loose || k > j
            marker = next
            j = k
        }
        return (.list(ordered: first.ordered, start: first.start, loose: loose, items: items), j)
    }

    /// A line without the container's marker or indentation still belongs to it if it continues
    /// a paragraph left open there (CommonMark's "lazy continuation").
    private static func isLazy(_ line: String, after container: [String]) -> Bool {
        guard !isBlank(line), !interruptsParagraph(line), listMarker(line) == nil, let last = container.last,
              !isBlankInQuotes(last) else { return false }
        return endsInParagraph(parse(lines: container).blocks)
    }

    /// `>` or `> >` ends the paragraph of a quote as a blank line does.
    private static func isBlankInQuotes(_ line: String) -> Bool {
        isBlank(line) || quoted(line).map(isBlankInQuotes) ?? false
    }

    private static func endsInParagraph(_ blocks: [MarkdownBlock]) -> Bool {
        switch blocks.last {
        case .paragraph?: true
        case .quote(let inner)?: endsInParagraph(inner)
        case .list(_, _, _, let items)?: endsInParagraph(items.last ?? [])
        default: false
        }
    }

    /// A lazy line can only continue a paragraph. A leading NUL (input has none: it was replaced)
    /// keeps the container's parse from reading it as anything else, such as a heading's
    /// underline or a table's delimiter row; the paragraph removes it.
    private static func lazyLine(_ line: String) -> String { "\0" + dedented(line) }

    /// A GFM table starts with a header row followed by a delimiter row with as many cells; it
    /// may interrupt a paragraph.
    private static func tableStart(_ lines: [String], at i: Int) -> [MarkdownAlignment]? {
        guard i + 1 < lines.count, isRow(lines[i]), let alignments = delimiterRow(lines[i + 1]),
              cells(lines[i]).count == alignments.count else { return nil }
        return alignments
    }

    /// Rows, with or without pipes, run up to a blank line or the start of another block.
    private static func table(_ lines: [String], at i: Int, alignments: [MarkdownAlignment]) -> (MarkdownBlock, Int) {
        var rows: [[String]] = [], j = i + 2
        while j < lines.count, isRow(lines[j]), indentation(lines[j]) < 4, !interruptsParagraph(lines[j]),
              listMarker(lines[j]) == nil {
            let row = cells(lines[j])
            rows.append((0..<alignments.count).map { $0 < row.count ? row[$0] : "" })
            j += 1
        }
        return (.table(alignments: alignments, header: cells(lines[i]), rows: rows), j)
    }
}
