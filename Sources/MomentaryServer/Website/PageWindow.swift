import Vapor

/// One page of a long list: the page shown (the one asked for, kept within those that exist),
/// how many there are, the rows to skip, and links to the pages either side.
struct PageWindow {
    let page: Int
    let pageCount: Int
    let offset: Int
    let previous: String?
    let next: String?

    init(requested: Int, matching: Int, pageSize: Int, link: (Int) -> String) {
        pageCount = max(1, (matching + pageSize - 1) / pageSize)
        page = min(max(1, requested), pageCount)
        offset = (page - 1) * pageSize
        previous = page > 1 ? link(page - 1) : nil
        next = page < pageCount ? link(page + 1) : nil
    }

    /// `page=…` as a list's filter form sends it: absent means 1; anything but a whole number from
    /// 1 is refused with the reason.
    static func requestedPage(_ text: String?) throws -> Int {
        guard let text, !text.isEmpty else { return 1 }
        guard let number = Int(text), number >= 1 else {
            throw Abort(.badRequest, reason: "The page must be a whole number from 1, not “\(text.prefix(20))”.")
        }
        return number
    }
}
