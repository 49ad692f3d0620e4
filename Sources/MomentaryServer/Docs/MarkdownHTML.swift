import Foundation
import MomentaryCore

/// Renders the repository's Markdown docs (`docs/*.md`) as HTML fragments for the server's
/// `/docs/…` pages: CommonMark's blocks and inlines as far as the docs use them, plus GFM tables.
///
/// The pages are served from our own origin, so nothing in the Markdown can become markup: every
/// text and attribute is escaped, inline HTML is shown as text, and a link survives only if its
/// URL is http(s) or relative. Foundation only, so it compiles and is checked on its own.
enum MarkdownHTML {
    /// `linkResolver` maps each link's URL to the one to write (`docsLink` for the docs pages); an
    /// empty result, or an unsafe URL, writes the link's text without a link.
    static func render(_ markdown: String, linkResolver: (String) -> String = { $0 }) -> String {
        withoutActuallyEscaping(linkResolver) { resolver in
            var writer = MarkdownHTMLWriter(resolve: resolver)
            return writer.html(MarkdownBlockParser.parse(markdown), tight: false)
        }
    }

    /// Links between the served docs: `schedules.md#fixed-rules` → `/docs/schedules#fixed-rules`.
    /// http(s) links and `#anchors` stay; anything else (a source file, a page not served) has no
    /// page here and becomes plain text.
    static func docsLink(_ href: String) -> String {
        let lowered = href.lowercased()
        if href.hasPrefix("#") || lowered.hasPrefix("http://") || lowered.hasPrefix("https://") { return href }
        let parts = href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        var path = parts[0]
        if path.hasPrefix("./") { path = path.dropFirst(2) }
        guard path.hasSuffix(".md"), DocsPages.names.contains(String(path.dropLast(3))) else { return "" }
        return "/docs/" + path.dropLast(3) + (parts.count > 1 ? "#" + parts[1] : "")
    }

    /// The URL if it may be written into an `href`: relative, or http(s). Any colon before the
    /// first `/`, `?` or `#` is taken for the end of a scheme, so "java\tscript:" or " data:",
    /// which browsers would clean up and run, are refused too.
    static func safeURL(_ url: String) -> String? {
        guard !url.isEmpty else { return nil }
        let beforePath = url.prefix(while: { !"/?#".contains($0) })
        if let colon = beforePath.firstIndex(of: ":") {
            let scheme = beforePath[..<colon].lowercased()
            guard scheme == "http" || scheme == "https" else { return nil }
        }
        return url.replacingOccurrences(of: " ", with: "%20")
    }


    /// A heading's anchor as GitHub makes it, so the docs' `#…` links work both there and here:
    /// lower case, letters, digits, `-` and `_` kept, each space a hyphen, everything else dropped.
    static func slug(_ text: String) -> String {
        var slug = ""
        for c in text.lowercased() {
            if c == " " { slug.append("-") } else if c == "-" || c == "_" || c.isLetter || c.isNumber { slug.append(c) }
        }
        return slug
    }

    /// The text of a document's first `#` heading: a page's title.
    static func title(_ markdown: String) -> String? {
        for case .heading(1, let text) in MarkdownBlockParser.parse(markdown) {
            return plainText(MarkdownInlineParser.parse(text))
        }
        return nil
    }

    static func plainText(_ inlines: [MarkdownInline]) -> String {
        inlines.map { inline in
            switch inline {
            case .text(let text), .code(let text): text
            case .emphasis(let children), .strong(let children), .link(_, _, let children): plainText(children)
            case .softBreak, .hardBreak: " "
            }
        }.joined()
    }
}

/// Writes parsed blocks as HTML, giving headings unique ids.
struct MarkdownHTMLWriter {
    let resolve: (String) -> String
    private var usedIDs: Set<String> = []

    init(resolve: @escaping (String) -> String) { self.resolve = resolve }

    /// In a tight list, an item's paragraphs are written without `<p>`.
    mutating func html(_ blocks: [MarkdownBlock], tight: Bool) -> String {
        blocks.map { html($0, tight: tight) }.joined(separator: "\n")
    }

    private mutating func html(_ block: MarkdownBlock, tight: Bool) -> String {
        switch block {
        case .heading(let level, let text):
            let inlines = MarkdownInlineParser.parse(text)
            return "<h\(level) id=\"\(HTMLText.escape(uniqueID(MarkdownHTML.plainText(inlines))))\">\(html(inlines))</h\(level)>"
        case .paragraph(let text):
            let content = html(MarkdownInlineParser.parse(text))
            return tight ? content : "<p>\(content)</p>"
        case .code(let info, let text):
            let language = info.split(separator: " ").first.map { " class=\"language-\(HTMLText.escape(String($0)))\"" } ?? ""
            return "<pre><code\(language)>\(HTMLText.escape(text))</code></pre>"
        case .quote(let blocks):
            return "<blockquote>\n\(html(blocks, tight: false))\n</blockquote>"
        case .list(let ordered, let start, let loose, let items):
            let open = ordered ? (start == 1 ? "<ol>" : "<ol start=\"\(start)\">") : "<ul>"
            let lis = items.map { "<li>" + html($0, tight: !loose) + "</li>" }
            return ([open] + lis + [ordered ? "</ol>" : "</ul>"]).joined(separator: "\n")
        case .table(let alignments, let header, let rows):
            var lines = ["<table>", "<thead>", row(header, cell: "th", alignments: alignments), "</thead>"]
            if !rows.isEmpty { lines += ["<tbody>"] + rows.map { row($0, cell: "td", alignments: alignments) } + ["</tbody>"] }
            return (lines + ["</table>"]).joined(separator: "\n")
        case .rule:
            return "<hr>"
        }
    }

    /// Alignment is an `align` attribute, not a style: the pages' Content-Security-Policy
    /// (`style-src 'self'`) ignores inline styles.
    private func row(_ cells: [String], cell: String, alignments: [MarkdownAlignment]) -> String {
        let html = zip(cells, alignments).map { text, alignment in
            let align = switch alignment {
            case .none: ""
            case .left: " align=\"left\""
            case .center: " align=\"center\""
            case .right: " align=\"right\""
            }
            return "<\(cell)\(align)>\(self.html(MarkdownInlineParser.parse(text)))</\(cell)>"
        }
        return "<tr>" + html.joined() + "</tr>"
    }

    /// The heading's slug, or the first of slug-1, slug-2, … not yet used on the page (as GitHub).
    private mutating func uniqueID(_ text: String) -> String {
        let base = MarkdownHTML.slug(text).isEmpty ? "section" : MarkdownHTML.slug(text)
        var id = base, n = 0
        while usedIDs.contains(id) {
            n += 1
            id = "\(base)-\(n)"
        }
        usedIDs.insert(id)
        return id
    }

    private func html(_ inlines: [MarkdownInline]) -> String {
        inlines.map { inline in
            switch inline {
            case .text(let text): HTMLText.escape(text)
            case .code(let text): "<code>\(HTMLText.escape(text))</code>"
            case .emphasis(let children): "<em>\(html(children))</em>"
            case .strong(let children): "<strong>\(html(children))</strong>"
            case .softBreak: "\n"
            case .hardBreak: "<br>\n"
            case .link(let destination, let title, let children):
                if let url = MarkdownHTML.safeURL(resolve(destination)) {
                    "<a href=\"\(HTMLText.escape(url))\"" + (title.map { " title=\"\(HTMLText.escape($0))\"" } ?? "")
                        + ">\(html(children))</a>"
                } else {
                    html(children)
                }
            }
        }.joined()
    }
}
