import Fluent
import Synchronization
import Vapor

/// Wakes the dispatcher after a request changed a plan, so no route has to remember to.
///
/// `PlanStore` (the one place that writes planned beeps) marks the request's `PlanChanges` when
/// it inserts or cancels beeps. The mark travels in the request's logger metadata, which Fluent
/// hands to every database the request opens, its transactions included (a task-local would be
/// lost where Fluent runs a transaction on an event loop). `PlanChangesMiddleware` wakes the
/// dispatcher once the response is made, when every transaction of the request has committed.
/// Work outside a request (the dispatcher's own planning, commands) carries no mark and wakes
/// nothing: the dispatcher needs no nudge for its own plans, and another process cannot be nudged
/// this way (it wakes at least every `maximumSleep`).
final class PlanChanges: Sendable, CustomStringConvertible {
    static let metadataKey = "plan-changes"

    private let changed = Mutex(false)

    /// Records that work on `db` inserted or cancelled beeps, if `db` belongs to a request.
    static func mark(on db: any Database) {
        guard case .stringConvertible(let value)? = db.logger[metadataKey: metadataKey], let changes = value as? PlanChanges else { return }
        changes.changed.withLock { $0 = true }
    }

    var happened: Bool { changed.withLock { $0 } }

    /// How the mark reads in the request's log lines.
    var description: String { happened ? "yes" : "no" }
}

struct PlanChangesMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let changes = PlanChanges()
        request.logger[metadataKey: PlanChanges.metadataKey] = .stringConvertible(changes)
        // Also after a refusal: a request may have committed a plan before it failed later on.
        defer { if changes.happened { request.application.signalling.notifyScheduleChanged() } }
        return try await next.respond(to: request)
    }
}
