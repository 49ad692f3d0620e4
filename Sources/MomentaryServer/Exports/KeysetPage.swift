import Foundation
import SQLKit

/// Keyset paging over a table ordered by (time, id), as the exports read responses and beeps: each
/// page starts after the last row of the previous one, so a late page costs no more than an early
/// one. The cursor's time is read back from its own row rather than bound from Swift: a date that
/// went through Swift may differ from the stored one in its last bits, which would repeat or skip
/// rows. The bound date only serves if that row has been deleted meanwhile.
struct KeysetPage {
    /// The table, its alias in the query, and its time column (constants of the exports' own queries).
    let table: String
    let alias: String
    let timeColumn: String
    var newestFirst = false

    /// ` AND …` conditions that keep the rows after `cursor` (none for the first page).
    func after(_ cursor: (id: UUID, time: Date)?) -> SQLQueryString {
        guard let cursor else { return "" }
        let later = newestFirst ? "<" : ">"
        let time = "\(alias).\(timeColumn)"
        let stored: SQLQueryString =
            "COALESCE((SELECT \(unsafeRaw: timeColumn) FROM \(unsafeRaw: table) WHERE id = \(bind: cursor.id)), \(bind: cursor.time))"
        return " AND \(unsafeRaw: time) \(unsafeRaw: later)= \(stored)"
            + " AND (\(unsafeRaw: time) \(unsafeRaw: later) \(stored) OR \(unsafeRaw: alias).id \(unsafeRaw: later) \(bind: cursor.id))"
    }

    /// ` ORDER BY … LIMIT n`.
    func order(limit: Int) -> SQLQueryString {
        let direction = newestFirst ? " DESC" : ""
        return " ORDER BY \(unsafeRaw: alias).\(unsafeRaw: timeColumn)\(unsafeRaw: direction), \(unsafeRaw: alias).id\(unsafeRaw: direction) LIMIT \(literal: limit)"
    }
}
