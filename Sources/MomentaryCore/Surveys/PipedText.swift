import Foundation

/// A placeholder in a question or option text that names an earlier answer, a score or a
/// participant variable: `{{answer:with_whom}}`, `{{answer:with_whom|label}}`, `{{score:pa_mean}}`,
/// `{{var:partner_name}}`, each optionally ending `|else:fallback`, shown when there is no value.
///
/// The rules, which survey-logic.js follows to the letter (Tests/Shared/survey-cases.json):
/// a placeholder runs from `{{` to the first `}}` after it; its parts are split at `|` and
/// trimmed of spaces; the first is `answer:`, `score:` or `var:` and a name; the others are
/// `label` (a choice's option text instead of its stored value) or `else:` and the fallback.
/// Anything else between `{{` and `}}` is not a placeholder and is shown as written (the survey
/// editor reports it).
public struct TextPlaceholder: Sendable, Hashable {
    public enum Source: String, Sendable, Hashable, CaseIterable {
        case answer, score
        case variable = "var"
    }

    public var source: Source
    public var name: String
    public var usesLabel: Bool
    public var fallback: String
}

public enum PipedText {
    /// A piece of a text: as written, a placeholder, or `{{…}}` that could not be read (with why).
    public enum Piece: Sendable, Hashable {
        case text(String)
        case placeholder(TextPlaceholder, written: String)
        case unreadable(String, reason: String)
    }

    /// Whether `text` may contain a placeholder at all (most texts do not; they are left alone).
    public static func mayPipe(_ text: String) -> Bool { text.contains("{{") }

    public static func pieces(of text: String) -> [Piece] {
        var pieces: [Piece] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            if open.lowerBound > rest.startIndex { pieces.append(.text(String(rest[..<open.lowerBound]))) }
            let written = String(rest[open.lowerBound..<close.upperBound])
            pieces.append(piece(inner: rest[open.upperBound..<close.lowerBound], written: written))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { pieces.append(.text(String(rest))) }
        return pieces
    }

    /// `text` with each placeholder replaced by `value(placeholder)`, or its fallback when nil.
    public static func resolve(_ text: String, _ value: (TextPlaceholder) -> String?) -> String {
        guard mayPipe(text) else { return text }
        return pieces(of: text).map { piece in
            switch piece {
            case .text(let text): text
            case .placeholder(let placeholder, _): value(placeholder) ?? placeholder.fallback
            case .unreadable(let written, _): written
            }
        }.joined()
    }

    /// A number as piped text: at most two decimals, whole numbers without a decimal point.
    /// From 10¹⁵ on, whole numbers written out; from 10²¹, in exponent notation (`1e+21`), as
    /// both Swift and JavaScript write their shortest forms there.
    public static func number(_ value: Double) -> String {
        let sign: Double = value < 0 ? -1 : 1
        guard abs(value) < 1e15 else {
            return abs(value) < 1e21 ? String(format: "%.0f", abs(value).rounded() * sign) : String(value)
        }
        let rounded = (abs(value) * 100).rounded() / 100 * sign
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    private static func piece(inner: Substring, written: String) -> Piece {
        let parts = inner.split(separator: "|", omittingEmptySubsequences: false).map(trimmingSpaces)
        let head = parts[0]
        guard let colon = head.firstIndex(of: ":"),
              let source = TextPlaceholder.Source(rawValue: String(head[..<colon])) else {
            return .unreadable(written, reason: "does not start with answer:, score: or var:")
        }
        let name = trimmingSpaces(head[head.index(after: colon)...])
        guard !name.isEmpty else { return .unreadable(written, reason: "names no \(source == .answer ? "question" : source == .score ? "score" : "variable")") }
        var placeholder = TextPlaceholder(source: source, name: name, usesLabel: false, fallback: "")
        var hasFallback = false
        for part in parts.dropFirst() {
            if part == "label", !placeholder.usesLabel {
                placeholder.usesLabel = true
            } else if part.hasPrefix("else:"), !hasFallback {
                placeholder.fallback = trimmingSpaces(part.dropFirst("else:".count))
                hasFallback = true
            } else {
                return .unreadable(written, reason: "has “\(part)”, where only “label” and “else:” followed by a fallback text may follow, once each")
            }
        }
        return .placeholder(placeholder, written: written)
    }

    /// Only spaces are trimmed, so that JavaScript trims exactly the same.
    private static func trimmingSpaces(_ text: Substring) -> String {
        String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
