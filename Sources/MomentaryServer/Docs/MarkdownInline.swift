import Foundation

/// Inline content of a paragraph, heading or table cell. Raw HTML has no case: `<b>` stays text.
indirect enum MarkdownInline: Equatable {
    case text(String)
    case code(String)
    case emphasis([MarkdownInline])
    case strong([MarkdownInline])
    case link(destination: String, title: String?, [MarkdownInline])
    case softBreak
    case hardBreak
}

/// Parses inline Markdown following CommonMark's rules for what the docs use: backslash escapes,
/// code spans, emphasis by delimiter runs (so `question_id` stays one word), inline links and
/// `<https://…>` autolinks. Reference links, images and entities are not supported: they stay text.
struct MarkdownInlineParser {
    private struct Delimiter {
        let char: Character
        var count: Int
        let original: Int
        let canOpen: Bool
        let canClose: Bool
    }

    private enum Item {
        case node(MarkdownInline)
        case delimiter(Delimiter)
        case bracket(active: Bool)
    }

    private let chars: [Character]
    private var pos = 0
    private var items: [Item] = []
    private var pending = ""

    static func parse(_ text: String) -> [MarkdownInline] {
        var parser = MarkdownInlineParser(chars: Array(text))
        return parser.run()
    }

    private init(chars: [Character]) { self.chars = chars }

    private mutating func run() -> [MarkdownInline] {
        while pos < chars.count {
            switch chars[pos] {
            case "\\": backslash()
            case "`": codeSpan()
            case "*", "_": delimiterRun()
            case "[": flush(); items.append(.bracket(active: true)); pos += 1
            case "]": closeBracket()
            case "<": autolink()
            case "\n": lineBreak()
            case "\0": pos += 1   // the block parser's mark of a lazy line, should one get here
            default: pending.append(chars[pos]); pos += 1
            }
        }
        flush()
        processEmphasis(from: 0)
        return Self.inlines(items)
    }

    private mutating func flush() {
        if !pending.isEmpty { items.append(.node(.text(pending))) }
        pending = ""
    }

    private func char(at index: Int) -> Character? { index < chars.count ? chars[index] : nil }

    /// The character a backslash at `index` escapes: any ASCII punctuation, nothing else.
    private func escaped(at index: Int) -> Character? {
        guard char(at: index) == "\\", let next = char(at: index + 1), Self.isASCIIPunctuation(next) else { return nil }
        return next
    }

    private mutating func backslash() {
        if char(at: pos + 1) == "\n" {
            flush(); items.append(.node(.hardBreak)); pos += 2
        } else if let escaped = escaped(at: pos) {
            pending.append(escaped); pos += 2
        } else {
            pending.append("\\"); pos += 1
        }
    }

    /// A run of n backticks opens a code span closed by the next run of exactly n; without one
    /// the backticks are text.
    private mutating func codeSpan() {
        var length = 0
        while char(at: pos) == "`" { length += 1; pos += 1 }
        var i = pos
        while i < chars.count {
            guard chars[i] == "`" else { i += 1; continue }
            let runStart = i
            while char(at: i) == "`" { i += 1 }
            guard i - runStart == length else { continue }
            var content = String(chars[pos..<runStart]).replacingOccurrences(of: "\n", with: " ")
            if content.count >= 2, content.first == " ", content.last == " ", content.contains(where: { $0 != " " }) {
                content = String(content.dropFirst().dropLast())
            }
            flush(); items.append(.node(.code(content))); pos = i
            return
        }
        pending.append(String(repeating: "`", count: length))
    }

    /// Whether a run of `*` or `_` may open or close emphasis depends on what stands on either
    /// side (CommonMark's flanking rules); `_` inside a word never does.
    private mutating func delimiterRun() {
        let c = chars[pos], start = pos
        while char(at: pos) == c { pos += 1 }
        let before = start > 0 ? chars[start - 1] : " ", after = char(at: pos) ?? " "
        let left = !after.isWhitespace && (!Self.isPunctuation(after) || before.isWhitespace || Self.isPunctuation(before))
        let right = !before.isWhitespace && (!Self.isPunctuation(before) || after.isWhitespace || Self.isPunctuation(after))
        let canOpen = c == "*" ? left : left && (!right || Self.isPunctuation(before))
        let canClose = c == "*" ? right : right && (!left || Self.isPunctuation(after))
        flush()
        items.append(.delimiter(Delimiter(char: c, count: pos - start, original: pos - start, canOpen: canOpen, canClose: canClose)))
    }

    private mutating func closeBracket() {
        flush()
        pos += 1
        guard let opener = items.lastIndex(where: { if case .bracket = $0 { true } else { false } }) else {
            pending.append("]"); return
        }
        guard case .bracket(active: true) = items[opener], let (destination, title, end) = linkTail(at: pos) else {
            items[opener] = .node(.text("[")); pending.append("]"); return
        }
        processEmphasis(from: opener + 1)
        let children = Self.inlines(Array(items[(opener + 1)...]))
        items.removeSubrange(opener...)
        items.append(.node(.link(destination: destination, title: title, children)))
        // No links inside links: an earlier `[` can no longer make one.
        for i in items.indices { if case .bracket = items[i] { items[i] = .bracket(active: false) } }
        pos = end
    }

    /// `(destination "title")` after `]`; nil when it is not there, and the brackets stay text.
    private func linkTail(at start: Int) -> (String, String?, Int)? {
        guard char(at: start) == "(" else { return nil }
        var i = start + 1, destination = ""
        skipWhitespace(&i)
        if char(at: i) == "<" {
            i += 1
            while let c = char(at: i), c != ">" {
                if c == "\n" || c == "<" { return nil }
                if let escaped = escaped(at: i) { destination.append(escaped); i += 2; continue }
                destination.append(c); i += 1
            }
            guard char(at: i) == ">" else { return nil }
            i += 1
        } else {
            var depth = 0
            while let c = char(at: i), !c.isWhitespace, !(c.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false) {
                if let escaped = escaped(at: i) { destination.append(escaped); i += 2; continue }
                if c == "(" { depth += 1 } else if c == ")" { if depth == 0 { break }; depth -= 1 }
                destination.append(c); i += 1
            }
            if depth != 0 { return nil }
        }
        let afterDestination = i
        skipWhitespace(&i)
        var title: String?
        let closers: [Character: Character] = ["\"": "\"", "'": "'", "(": ")"]
        if i > afterDestination, let open = char(at: i), let close = closers[open] {
            var text = ""
            i += 1
            while let c = char(at: i), c != close {
                if let escaped = escaped(at: i) { text.append(escaped); i += 2; continue }
                text.append(c); i += 1
            }
            guard char(at: i) == close else { return nil }
            title = text
            i += 1
            skipWhitespace(&i)
        }
        return char(at: i) == ")" ? (destination, title, i + 1) : nil
    }

    private func skipWhitespace(_ i: inout Int) {
        while let c = char(at: i), c == " " || c == "\t" || c == "\n" { i += 1 }
    }

    /// `<scheme:…>` is a link; any other `<` is text, so inline HTML is shown, never run.
    private mutating func autolink() {
        var i = pos + 1
        while let c = char(at: i), c.isASCII, c.isLetter || c.isNumber || "+.-".contains(c) { i += 1 }
        let schemeLength = i - pos - 1
        guard (2...32).contains(schemeLength), chars[pos + 1].isLetter, char(at: i) == ":" else {
            pending.append("<"); pos += 1; return
        }
        while let c = char(at: i), c != ">" {
            if c.isWhitespace || c == "<" || (c.asciiValue.map { $0 < 0x20 } ?? false) { pending.append("<"); pos += 1; return }
            i += 1
        }
        guard char(at: i) == ">" else { pending.append("<"); pos += 1; return }
        let url = String(chars[(pos + 1)..<i])
        flush()
        items.append(.node(.link(destination: url, title: nil, [.text(url)])))
        pos = i + 1
    }

    /// A line end is a soft break, or a hard one after two or more spaces.
    private mutating func lineBreak() {
        let hard = pending.hasSuffix("  ")
        while pending.last == " " { pending.removeLast() }
        flush()
        items.append(.node(hard ? .hardBreak : .softBreak))
        pos += 1
        while char(at: pos) == " " { pos += 1 }
    }

    /// Pairs delimiter runs from `bottom` on into emphasis, innermost first (CommonMark's
    /// "process emphasis", including the rule of three); what stays unpaired is text.
    private mutating func processEmphasis(from bottom: Int) {
        var closerIndex = bottom
        while closerIndex < items.count {
            guard case .delimiter(var closer) = items[closerIndex], closer.canClose,
                  let openerIndex = opener(for: closer, before: closerIndex, bottom: bottom),
                  case .delimiter(var opener) = items[openerIndex] else { closerIndex += 1; continue }
            let used = opener.count >= 2 && closer.count >= 2 ? 2 : 1
            opener.count -= used
            closer.count -= used
            let inner = Self.inlines(Array(items[(openerIndex + 1)..<closerIndex]))
            var replacement: [Item] = opener.count > 0 ? [.delimiter(opener)] : []
            replacement.append(.node(used == 2 ? .strong(inner) : .emphasis(inner)))
            if closer.count > 0 { replacement.append(.delimiter(closer)) }
            items.replaceSubrange(openerIndex...closerIndex, with: replacement)
            closerIndex = openerIndex + replacement.count - (closer.count > 0 ? 1 : 0)
        }
    }

    private func opener(for closer: Delimiter, before index: Int, bottom: Int) -> Int? {
        for i in stride(from: index - 1, through: bottom, by: -1) {
            guard case .delimiter(let candidate) = items[i], candidate.char == closer.char, candidate.canOpen else { continue }
            let sum = candidate.original + closer.original
            let ruleOfThree = (candidate.canClose || closer.canOpen) && sum % 3 == 0
                && !(candidate.original % 3 == 0 && closer.original % 3 == 0)
            if !ruleOfThree { return i }
        }
        return nil
    }

    /// Items as inline nodes: leftover delimiters and brackets become text, neighbouring texts merge.
    private static func inlines(_ items: [Item]) -> [MarkdownInline] {
        var result: [MarkdownInline] = []
        for item in items {
            let node: MarkdownInline = switch item {
            case .node(let node): node
            case .delimiter(let d): .text(String(repeating: d.char, count: d.count))
            case .bracket: .text("[")
            }
            if case .text(let text) = node, case .text(let previous)? = result.last {
                result[result.count - 1] = .text(previous + text)
            } else {
                result.append(node)
            }
        }
        return result
    }

    private static func isASCIIPunctuation(_ c: Character) -> Bool {
        c.isASCII && (c.isPunctuation || c.isSymbol)
    }

    /// CommonMark counts Unicode punctuation and symbols alike (so `⌊*n*⌋` is emphasis).
    private static func isPunctuation(_ c: Character) -> Bool { c.isPunctuation || c.isSymbol }
}
