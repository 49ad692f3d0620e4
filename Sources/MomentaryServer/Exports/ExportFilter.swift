import Foundation
import MomentaryCore
import SQLKit

/// Which responses an export includes: those submitted on or after `from` and on or before `to`
/// (whole days, both inclusive, in UTC unless `zone` is given), from the listed participants only
/// (all when the list is empty), and, for one participant, only those after their
/// `afterSequence`-th response (responses are numbered from 1 in submission order).
public struct ExportFilter: Sendable, Hashable {
    public var from: LocalDate?
    public var to: LocalDate?
    public var participantIDs: [UUID]
    /// The calendar `from` and `to` are days of; UTC when nil (the researchers' exports).
    public var zone: TimeZone?
    /// Leave out one participant's first N responses (their personal download asks for what is new).
    public var afterSequence: Int?
    /// Only responses to this survey (set by `StudyExport.prepare` from the request's `survey`).
    var surveyID: UUID?

    public init(from: LocalDate? = nil, to: LocalDate? = nil, participantIDs: [UUID] = [], zone: TimeZone? = nil, afterSequence: Int? = nil) {
        self.from = from
        self.to = to
        self.participantIDs = participantIDs
        self.zone = zone
        self.afterSequence = afterSequence
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
    /// column named by the caller (constants of the export's own queries, such as `r.submitted_at`);
    /// the survey applies where the caller names a survey column (responses, not beeps).
    /// `afterSequence` applies only where the caller names the response id column.
    func conditions(time: String, participant: String, responseID: String? = nil, survey: String? = nil) -> SQLQueryString {
        var sql: SQLQueryString = ""
        if let survey, let surveyID { sql += " AND \(unsafeRaw: survey) = \(bind: surveyID)" }
        if let earliest { sql += " AND \(unsafeRaw: time) >= \(bind: earliest)" }
        if let end { sql += " AND \(unsafeRaw: time) < \(bind: end)" }
        if !participantIDs.isEmpty { sql += " AND \(unsafeRaw: participant) IN (\(binds: participantIDs))" }
        if let responseID, let afterSequence, afterSequence > 0, participantIDs.count == 1 {
            sql += """
                 AND \(unsafeRaw: responseID) NOT IN (SELECT s.id FROM responses s WHERE s.participant_id = \(bind: participantIDs[0])
                ORDER BY s.submitted_at, s.id LIMIT \(literal: afterSequence))
                """
        }
        return sql
    }

    /// The first instant included: midnight at the start of `from`.
    var earliest: Date? {
        from.map(midnight)
    }

    /// The first instant excluded: midnight at the end of `to`.
    var end: Date? {
        to.map { midnight(LocalDate(daysSinceEpoch: $0.daysSinceEpoch + 1)) }
    }

    private func midnight(_ date: LocalDate) -> Date {
        guard let zone else { return Date(timeIntervalSince1970: Double(date.daysSinceEpoch) * 86_400) }
        return WallClock.instant(on: date, at: TimeOfDay(minutes: 0)!, in: zone)
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
