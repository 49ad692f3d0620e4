import Foundation

/// The docs (`docs/<name>.md`) the server publishes as `/docs/<name>`, in the order a list of
/// them shows, each with its title: the page's first `#` heading, kept here so that listing the
/// pages reads no file (a test checks the titles against the files).
enum DocsPages {
    struct Page: Equatable, Sendable {
        let name: String
        let title: String
    }

    static let pages: [Page] = [
        Page(name: "study-document", title: "The study document"),
        Page(name: "surveys", title: "Writing surveys"),
        Page(name: "schedules", title: "Signalling schedules"),
        Page(name: "arms", title: "Randomised arms"),
        Page(name: "beeps", title: "A beep's life"),
        Page(name: "environment", title: "Weather, air quality and pollen"),
        Page(name: "iphone", title: "iPhone and iPad"),
        Page(name: "languages", title: "Studies in several languages"),
        Page(name: "research-api", title: "The research API"),
    ]

    static let names: [String] = pages.map(\.name)

    /// The docs written for people who work on Momentary's code, not for researchers: kept in
    /// `docs/` beside the others, and not served.
    static let forEngineers: Set<String> = ["architecture", "benchmarks-history"]
}
