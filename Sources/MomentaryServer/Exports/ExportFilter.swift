import Foundation
import MomentaryCore
import SQLKit

/// Which responses an export includes: those submitted on or after `from` and on or before `to`
/// (whole UTC days, both inclusive), from the listed participants only (all when the list is empty).
public struct ExportFilter: Sendable, Hashable {
    public var from: LocalDate?
    public var to: LocalDate?
    public var participantIDs: [UUID]

    public init(from: LocalDate? = nil, to: LocalDate? = nil, participantIDs: [UUID] = []) {
        self.from = from
        self.to = to
        self.participantIDs = participantIDs
    }

    /// Reads the filter as people type it: dates `YYYY-MM-DD`, participant ids as UUIDs.
    public static func parse(from: String?, to: String?, participants: [String]) throws(ExportRequestError) -> ExportFilter {
        let fromDate = try date(from, name: "from")
        let toDate = try date(to, name: "to")
        if let fromDate, let toDate, toDate < fromDate {
            throw ExportRequestError("The “to” date \(toDate) is before the “from” date \(fromDate).")
        }
        var ids: [UUID] = []
        for text in participants {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard let id = UUID(uuidString: trimmed) else {
                throw ExportRequestError(
                    "“\(text.prefix(60))” is not a participant id; ids look like 3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b.")
            }
            if !ids.contains(id) { ids.append(id) }
        }
        return ExportFilter(from: fromDate, to: toDate, participantIDs: ids)
    }

    private static func date(_ text: String?, name: String) throws(ExportRequestError) -> LocalDate? {
        guard let text, !text.isEmpty else { return nil }
        guard let date = LocalDate(text) else {
            throw ExportRequestError("The “\(name)” date “\(text.prefix(40))” is not a date YYYY-MM-DD, such as 2026-03-29.")
        }
        return date
    }

    /// The filter as SQL conditions, each starting with AND, on a time column and a participant
    /// column named by the caller (constants of the export's own queries, such as `r.submitted_at`).
    func conditions(time: String, participant: String) -> SQLQueryString {
        var sql: SQLQueryString = ""
        if let earliest { sql += " AND \(unsafeRaw: time) >= \(bind: earliest)" }
        if let end { sql += " AND \(unsafeRaw: time) < \(bind: end)" }
        if !participantIDs.isEmpty { sql += " AND \(unsafeRaw: participant) IN (\(binds: participantIDs))" }
        return sql
    }

    /// The first instant included: midnight UTC at the start of `from`.
    var earliest: Date? {
        from.map { Date(timeIntervalSince1970: Double($0.daysSinceEpoch) * 86_400) }
    }

    /// The first instant excluded: midnight UTC at the end of `to`.
    var end: Date? {
        to.map { Date(timeIntervalSince1970: Double($0.daysSinceEpoch + 1) * 86_400) }
    }
}

/// An export request that cannot be carried out as asked, with a message that says why.
public struct ExportRequestError: Error, CustomStringConvertible, Sendable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
