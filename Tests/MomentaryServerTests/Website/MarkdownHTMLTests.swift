import Foundation
@testable import MomentaryServer
import Testing

@Suite("Markdown docs as HTML")
struct MarkdownHTMLTests {
    func html(_ markdown: String) -> String { MarkdownHTML.render(markdown) }

    /// The tag names in a fragment: anything else would mean markup got through from the text.
    func tags(_ html: String) -> Set<String> {
        let regex = try! NSRegularExpression(pattern: "<(/?)([^\\s>/]*)")
        let range = NSRange(html.startIndex..., in: html)
        return Set(regex.matches(in: html, range: range).map { String(html[Range($0.range(at: 2), in: html)!]) })
    }

    static let writtenTags: Set<String> = [
        "h1", "h2", "h3", "h4", "h5", "h6", "p", "pre", "code", "blockquote", "ul", "ol", "li", "table", "thead",
        "tbody", "tr", "th", "td", "hr", "br", "a", "em", "strong",
    ]

    @Test("headings carry GitHub's anchors, made unique on the page")
    func headings() {
        #expect(html("# Writing surveys") == #"<h1 id="writing-surveys">Writing surveys</h1>"#)
        #expect(html("## Showing a question only sometimes: `display_if`")
            == #"<h2 id="showing-a-question-only-sometimes-display_if">Showing a question only sometimes: <code>display_if</code></h2>"#)
        #expect(html("## A\n## A\n### A ###") == "<h2 id=\"a\">A</h2>\n<h2 id=\"a-1\">A</h2>\n<h3 id=\"a-2\">A</h3>")
        #expect(html("## A-1\n## A\n## A") == "<h2 id=\"a-1\">A-1</h2>\n<h2 id=\"a\">A</h2>\n<h2 id=\"a-2\">A</h2>")
        #expect(html("# iPhone and iPad") == #"<h1 id="iphone-and-ipad">iPhone and iPad</h1>"#)
        #expect(html("Title\n=====\n\nPart\n---") == "<h1 id=\"title\">Title</h1>\n<h2 id=\"part\">Part</h2>")
        #expect(html("####### seven\n\n#tag") == "<p>####### seven</p>\n<p>#tag</p>")
        #expect(html("## C#\n## Swift ##") == "<h2 id=\"c\">C#</h2>\n<h2 id=\"swift\">Swift</h2>")
    }

    @Test("a paragraph joins its lines; blank lines separate paragraphs; two spaces break a line")
    func paragraphs() {
        #expect(html("one\n  two\n\n\nthree") == "<p>one\ntwo</p>\n<p>three</p>")
        #expect(html("a  \nb\\\nc") == "<p>a<br>\nb<br>\nc</p>")
    }

    @Test("fenced code keeps its text, escaped, with the info string's first word as its language")
    func fencedCode() {
        #expect(html("```json survey\n{\"a\": \"<b>\"}\n```")
            == "<pre><code class=\"language-json\">{&quot;a&quot;: &quot;&lt;b&gt;&quot;}\n</code></pre>")
        #expect(html("```\n**not bold** <script>alert(1)</script>\n\n  kept\n```")
            == "<pre><code>**not bold** &lt;script&gt;alert(1)&lt;/script&gt;\n\n  kept\n</code></pre>")
        #expect(html("~~~\n```\n~~~\nafter") == "<pre><code>```\n</code></pre>\n<p>after</p>")
        #expect(html("```x\"onclick=alert(1)\ncode\n```")
            == "<pre><code class=\"language-x&quot;onclick=alert(1)\">code\n</code></pre>")
        #expect(html("    indented\n      code") == "<pre><code>indented\n  code\n</code></pre>")
    }

    @Test("a block quote holds blocks, and lines that continue its paragraph without a marker")
    func quotes() {
        #expect(html("> **About.** A test\n> reads it.\nlazy\n\nout")
            == "<blockquote>\n<p><strong>About.</strong> A test\nreads it.\nlazy</p>\n</blockquote>\n<p>out</p>")
        #expect(html("> - a\n>\n> b") == "<blockquote>\n<ul>\n<li>a</li>\n</ul>\n<p>b</p>\n</blockquote>")
    }

    @Test("lists: tight and loose, numbered from their first number, nested, items of several blocks")
    func lists() {
        #expect(html("- a\n- b\n  continued") == "<ul>\n<li>a</li>\n<li>b\ncontinued</li>\n</ul>")
        #expect(html("3. c\n4. d") == "<ol start=\"3\">\n<li>c</li>\n<li>d</li>\n</ol>")
        #expect(html("- a\n  - b\n    - c\n- d")
            == "<ul>\n<li>a\n<ul>\n<li>b\n<ul>\n<li>c</li>\n</ul></li>\n</ul></li>\n<li>d</li>\n</ul>")
        #expect(html("1. one\n2. two\n   1. inner\n3. three")
            == "<ol>\n<li>one</li>\n<li>two\n<ol>\n<li>inner</li>\n</ol></li>\n<li>three</li>\n</ol>")
        // As in the README: a table and a second paragraph inside an item make the list loose.
        let item = """
            - **Participants**: remove data:

              | option | kept |
              |---|---|
              | **Delete** | beeps |

              The audit log records it.
            - **Responses**: newest first.
            """
        #expect(html(item) == """
            <ul>
            <li><p><strong>Participants</strong>: remove data:</p>
            <table>
            <thead>
            <tr><th>option</th><th>kept</th></tr>
            </thead>
            <tbody>
            <tr><td><strong>Delete</strong></td><td>beeps</td></tr>
            </tbody>
            </table>
            <p>The audit log records it.</p></li>
            <li><p><strong>Responses</strong>: newest first.</p></li>
            </ul>
            """)
        #expect(html("- a\n\n- b") == "<ul>\n<li><p>a</p></li>\n<li><p>b</p></li>\n</ul>")
        #expect(html("- a\nlazy\n-\n\n  not in the empty item") == "<ul>\n<li>a\nlazy</li>\n<li></li>\n</ul>\n<p>not in the empty item</p>")
        #expect(html("- a\n+ b") == "<ul>\n<li>a</li>\n</ul>\n<ul>\n<li>b</li>\n</ul>")
        #expect(html("text\n2. no list\n\ntext\n- list") == "<p>text\n2. no list</p>\n<p>text</p>\n<ul>\n<li>list</li>\n</ul>")
    }

    @Test("tables: alignment as attributes (the CSP blocks inline styles), escaped pipes, short rows padded")
    func tables() {
        #expect(html("| a | b | c | d |\n|:--|:-:|--:|---|\n| `x\\|y` | **s** |")
            == """
            <table>
            <thead>
            <tr><th align="left">a</th><th align="center">b</th><th align="right">c</th><th>d</th></tr>
            </thead>
            <tbody>
            <tr><td align="left"><code>x|y</code></td><td align="center"><strong>s</strong></td><td align="right"></td><td></td></tr>
            </tbody>
            </table>
            """)
        #expect(html("a | b\n--|--\n1 | 2\n\nafter").hasSuffix("<tr><td>1</td><td>2</td></tr>\n</tbody>\n</table>\n<p>after</p>"))
        #expect(html("| a | b |\n|---|") == "<p>| a | b |\n|---|</p>")
    }

    @Test("inline code, strong and emphasis follow CommonMark, so snake_case words stay whole")
    func inlines() {
        #expect(html("`a` ``b `c` d`` `` `x` ``") == "<p><code>a</code> <code>b `c` d</code> <code>`x`</code></p>")
        #expect(html("**b** __b__ *e* _e_ ***be***") == "<p><strong>b</strong> <strong>b</strong> <em>e</em> <em>e</em> <em><strong>be</strong></em></p>")
        #expect(html("question_id and max_label_tag, 5*6*7") == "<p>question_id and max_label_tag, 5<em>6</em>7</p>")
        #expect(html("foo_bar_ and _foo_bar") == "<p>foo_bar_ and _foo_bar</p>")
        #expect(html("⌊*n·r*⌋ and *u*₁") == "<p>⌊<em>n·r</em>⌋ and <em>u</em>₁</p>")
        #expect(html("*not closed and ** alone `open") == "<p>*not closed and ** alone `open</p>")
        #expect(html("**`code` in bold**") == "<p><strong><code>code</code> in bold</strong></p>")
    }

    @Test("backslash escapes punctuation, and nothing else")
    func escapes() {
        #expect(html(##"\*not em\* \_x\_ \# \[a\](b) \\ \a \`c\`"##) == #"<p>*not em* _x_ # [a](b) \ \a `c`</p>"#)
    }

    @Test("rules")
    func rules() {
        #expect(html("a\n\n---\n\n* * *\n___") == "<p>a</p>\n<hr>\n<hr>\n<hr>")
    }

    @Test("links: inline with a title, autolinks; brackets without a destination stay text")
    func links() {
        #expect(html("[the docs](surveys.md#limits \"Limits\")") == #"<p><a href="surveys.md#limits" title="Limits">the docs</a></p>"#)
        #expect(html("<https://webkit.org/blog/13878/>") == #"<p><a href="https://webkit.org/blog/13878/">https://webkit.org/blog/13878/</a></p>"#)
        #expect(html("[*em* `code`](<a b.md>) [p](f(x))") == #"<p><a href="a%20b.md"><em>em</em> <code>code</code></a> <a href="f(x)">p</a></p>"#)
        #expect(html("[no link] and [a [b](c)") == #"<p>[no link] and [a <a href="c">b</a></p>"#)
        #expect(html("[a [b](c)](d)") == #"<p>[a <a href="c">b</a>](d)</p>"#)
        #expect(html("[a](http://x/?q=1&r=\"2\")") == #"<p><a href="http://x/?q=1&amp;r=&quot;2&quot;">a</a></p>"#)
    }

    @Test("links whose URL is not http(s) or relative are written as their text")
    func unsafeLinks() {
        #expect(html("[click](javascript:alert(1))") == "<p>click</p>")
        #expect(html("[click](JavaScript:alert(1)) [d](data:text/html,x) [v](vbscript:x) [m](mailto:a@b.c)") == "<p>click d v m</p>")
        #expect(html("<javascript:alert(1)>") == "<p>javascript:alert(1)</p>")
        #expect(html("[empty]()") == "<p>empty</p>")
        #expect(MarkdownHTML.safeURL("java\tscript:alert(1)") == nil)
        #expect(MarkdownHTML.safeURL(" data:text/html,x") == nil)
        #expect(MarkdownHTML.safeURL("x:/not-a-path") == nil)
        #expect(MarkdownHTML.safeURL("/docs/x?a=b:c#d:e") == "/docs/x?a=b:c#d:e")
        #expect(MarkdownHTML.safeURL("HTTPS://example.org") == "HTTPS://example.org")
    }

    @Test("HTML in the text is shown as text, never passed through")
    func htmlIsEscaped() {
        #expect(html("<script>alert(1)</script> a < b & c > d \"q\" 'a'")
            == "<p>&lt;script&gt;alert(1)&lt;/script&gt; a &lt; b &amp; c &gt; d &quot;q&quot; &#39;a&#39;</p>")
        #expect(html("<div>\n<b>block</b>\n</div>") == "<p>&lt;div&gt;\n&lt;b&gt;block&lt;/b&gt;\n&lt;/div&gt;</p>")
        #expect(html("# <img src=x onerror=alert(1)>")
            == "<h1 id=\"img-srcx-onerroralert1\">&lt;img src=x onerror=alert(1)&gt;</h1>")
        #expect(html("&lt;b&gt; &amp;") == "<p>&amp;lt;b&amp;gt; &amp;amp;</p>")
        let hostile = """
            <iframe src="x"></iframe>
            | <b>x</b> | `<i>` |
            |---|---|
            | <svg onload=alert(1)> | [<u>t</u>](javascript:x) |

            > <style>*{}</style>
            - <a href="javascript:x">a</a>
            """
        #expect(tags(html(hostile)).isSubset(of: Self.writtenTags))
    }

    @Test("docsLink sends links between the served docs to their pages, and others nowhere")
    func docsLink() {
        #expect(MarkdownHTML.docsLink("schedules.md#fixed-rules") == "/docs/schedules#fixed-rules")
        #expect(MarkdownHTML.docsLink("surveys.md") == "/docs/surveys")
        #expect(MarkdownHTML.docsLink("./beeps.md") == "/docs/beeps")
        #expect(MarkdownHTML.docsLink("#limits") == "#limits")
        #expect(MarkdownHTML.docsLink("https://webkit.org/blog") == "https://webkit.org/blog")
        for other in ["openapi.yaml", "../README.md", "docs/surveys.md", "other.md#x", "../Sources/MomentaryServer/x.swift",
                      "javascript:alert(1)", "surveys.mdx"] {
            #expect(MarkdownHTML.docsLink(other) == "", "\(other)")
        }
        #expect(MarkdownHTML.render("[s](schedules.md#fixed-rules) and [the README](../README.md)", linkResolver: MarkdownHTML.docsLink)
            == #"<p><a href="/docs/schedules#fixed-rules">s</a> and the README</p>"#)
    }

    @Test("the served docs: one per file in docs/, titled by its first heading, every link landing on an anchor")
    func servedDocs() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs")
        let files = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }
        #expect(Set(files.map { String($0.dropLast(3)) }) == Set(DocsPages.names).union(DocsPages.forEngineers))
        var ids: [String: Set<String>] = [:], hrefs: [String: [String]] = [:]
        for page in DocsPages.pages {
            let markdown = try String(contentsOf: docs.appendingPathComponent(page.name + ".md"), encoding: .utf8)
            #expect(MarkdownHTML.title(markdown) == page.title)
            let rendered = MarkdownHTML.render(markdown, linkResolver: MarkdownHTML.docsLink)
            #expect(tags(rendered).isSubset(of: Self.writtenTags), "\(page.name)")
            ids[page.name] = Set(matches(#"id="([^"]*)""#, in: rendered))
            hrefs[page.name] = matches(#"href="([^"]*)""#, in: rendered)
            #expect(matches(#"id="([^"]*)""#, in: rendered).count == ids[page.name]?.count, "ids repeat in \(page.name)")
        }
        #expect(hrefs.values.joined().contains("/docs/schedules"))
        for (name, links) in hrefs {
            for href in links where !href.hasPrefix("https://") {
                let (page, anchor) = href.hasPrefix("#") ? (name, String(href.dropFirst()))
                    : (String(href.dropFirst(6).prefix { $0 != "#" }), String(href.drop { $0 != "#" }.dropFirst()))
                #expect(href.hasPrefix("#") || href.hasPrefix("/docs/"), "\(name): \(href)")
                #expect(ids[page] != nil && (anchor.isEmpty || ids[page]!.contains(anchor)), "\(name): \(href)")
            }
        }
    }

    func matches(_ pattern: String, in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            String(text[Range($0.range(at: 1), in: text)!])
        }
    }
}
