import Foundation
import SQLKit

/// The one owner of a beep's status: which changes are legal (docs/beeps.md draws them), and the
/// guard every statement that changes `beeps.status` writes, so no writer can move a beep along an
/// edge that is not here.
///
///     pending ─claim→ sending ─push accepted→ sent ─answer→ answered
///        │               │  ╰─refused, no address→ failed    │ ╰─busy→ ignored
///        │               ╰─worker stopped→ sending (taken over and sent again)
///        ├─late, outside hours→ missed                        ╰─deadline→ expired ─answer begun in time→ answered
///        ╰─flood, cancelled by a plan change, withdrawal, unregistered token→ failed / cancelled
enum BeepLifecycle {
    typealias Status = Beep.Status

    /// For each status, the statuses a beep may enter it from.
    static let sources: [Status: Set<Status>] = [
        .pending: [],
        // Claimed from pending; a beep held by a worker that stopped is claimed again.
        .sending: [.pending, .sending],
        .sent: [.sending],
        // Refused by the push service or without an address (from sending); withheld by the
        // too-many-at-once safeguard before it was claimed (from pending).
        .failed: [.sending, .pending],
        // Too late (pending) or outside the participant's hours at send time (sending).
        .missed: [.pending, .sending],
        // A plan changed, the participant left or their token died (pending); the participant or
        // study changed between claim and send (sending).
        .cancelled: [.pending, .sending],
        // An answer begun inside the window takes the beep even after its deadline passed.
        .answered: [.sent, .expired],
        // Reported by the app, which may upload the report after the deadline.
        .ignored: [.sent, .expired],
        .expired: [.sent],
    ]

    static func isLegal(from: Status, to: Status) -> Bool {
        sources[to]?.contains(from) ?? false
    }

    /// `status IN (…)` for a statement's WHERE that moves beeps to `target`: from `from` (each of
    /// which must be a legal source; a statement that names an illegal edge stops the server in
    /// development and in tests), or from every legal source. `column` may be an expression that
    /// hides the column from the index choice (`BeepStore.statusBesideIDs`).
    static func guardClause(from: Set<Status>? = nil, to target: Status, column: SQLQueryString = "status") -> SQLQueryString {
        let legal = sources[target] ?? []
        let chosen = from ?? legal
        precondition(!chosen.isEmpty && chosen.isSubset(of: legal),
                     "illegal beep transition to \(target.rawValue) from \(chosen.map(\.rawValue).sorted())")
        let list = chosen.map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ")
        return "\(column) IN (\(unsafeRaw: list))"
    }

    /// Moves the beeps with these ids that may legally become `target` and returns those moved,
    /// setting `columns` too; the others are left as they are.
    static func move(
        _ ids: [UUID], from: Set<Status>? = nil, to target: Status, setting columns: [(String, any SQLExpression)] = [],
        on sql: any SQLDatabase
    ) async throws -> [UUID] {
        // Nothing may become pending again: there is no statement to write.
        guard !ids.isEmpty, !(sources[target] ?? []).isEmpty else { return [] }
        var assignments: SQLQueryString = "status = \(bind: target.rawValue)"
        for (column, value) in columns { assignments += ", \(ident: column) = \(value)" }
        return try await sql.raw("""
            UPDATE beeps SET \(assignments)
            WHERE id IN (\(binds: ids)) AND \(guardClause(from: from, to: target))
            RETURNING id
            """).all().map { try $0.decode(column: "id", as: UUID.self) }
    }
}
