import Fluent
import Foundation
import MomentaryCore
import PostgresNIO
import SQLKit

/// One batch: one transaction and one commit. Stored together first, with a statement per table
/// for the whole batch; if the database refuses that (a retried upload whose first copy is stored,
/// a participant erased meanwhile), the batch is stored again one submission at a time, each
/// under a savepoint, so only the submission at fault is refused.
enum BatchTransaction {
    /// The outcome of each item, in order, once the batch is committed. Throws (having stored
    /// nothing) when the batch as a whole failed; an item's own refusal is its result instead.
    /// `seen` is written in the same transaction (see `noteSeen`).
    nonisolated(nonsending) static func store(
        _ items: [ValidatedSubmission], seen: [UUID: Date] = [:], in target: WriterConnection
    ) async throws -> [Result<IngestOutcome, any Error>] {
        do {
            return try await target.transaction { statements in
                let results = try await storeTogether(items, on: statements)
                try await recordSeen(seen, on: statements)
                return results
            }
        } catch let error as any DatabaseError where error.isConstraintFailure {
            return try await target.transaction { statements in
                let results = try await storeOneByOne(items, on: statements)
                try await recordSeen(seen, on: statements)
                return results
            }
        }
    }

    /// One statement for all: the latest time for every participant seen, as they were all seen
    /// within the moment the batch gathered.
    nonisolated(nonsending) private static func recordSeen(_ seen: [UUID: Date], on statements: any StatementRunner) async throws {
        guard let latest = seen.values.max() else { return }
        try await statements.perform(SQLQueryString(
            "UPDATE participants SET last_seen_at = \(bind: latest) WHERE id IN (\(binds: Array(seen.keys)))"))
    }

    /// `response.stored` for the webhooks of the responses' studies, in the batch's transaction:
    /// one statement, which finds nothing to do when no study has a webhook.
    nonisolated(nonsending) private static func queueWebhooks(for ids: [UUID], at receivedAt: Date?, on statements: any StatementRunner) async throws {
        guard let receivedAt,
              let statement = WebhookOutbox.emitStatement(.responseStored, subjects: ids, now: receivedAt, dialect: statements.sql.dialect.name) else { return }
        try await statements.perform(statement)
    }

    /// The follow-up beeps the item's answers ask for, in the transaction that stores its response.
    nonisolated(nonsending) private static func planFollowUps(of item: ValidatedSubmission, responseID: UUID, on statements: any StatementRunner) async throws {
        guard !item.followUps.isEmpty else { return }
        try await FollowUpPlanning.insert(
            item.followUps, responseID: responseID, participantID: item.draft.participantID, studyID: item.draft.studyID,
            now: item.draft.receivedAt, on: statements)
    }

    private struct IdempotencyKey: Hashable {
        let participantID: UUID
        let key: String

        init(_ item: ValidatedSubmission) {
            participantID = item.draft.participantID
            key = item.draft.idempotencyKey
        }
    }

    /// The usual case: every beep answered taken by one statement, then every response, answer
    /// and context row inserted by one statement per table. Throws a constraint failure if any
    /// row is refused.
    nonisolated(nonsending) private static func storeTogether(_ items: [ValidatedSubmission], on statements: any StatementRunner) async throws -> [Result<IngestOutcome, any Error>] {
        var results = [Result<IngestOutcome, any Error>?](repeating: nil, count: items.count)
        var firstWithKey: [IdempotencyKey: Int] = [:]
        var firsts: [Int] = []
        for (index, item) in items.enumerated() where firstWithKey[IdempotencyKey(item)] == nil {
            // Two submissions of one key in one batch: the first is stored, the second gets its receipt.
            firstWithKey[IdempotencyKey(item)] = index
            firsts.append(index)
        }
        var taken = try await takeBeeps(of: firsts.map { items[$0] }, on: statements)
        var records: [ResponseRows.Record] = []
        var owners: [Int] = []
        for index in firsts {
            let item = items[index]
            switch draft(of: item, taken: &taken) {
            case .success(let draft):
                records.append(ResponseRows.Record(draft: draft, answers: item.answers, context: item.context))
                owners.append(index)
            case .failure(let refusal):
                results[index] = try await storedReceipt(of: item, on: statements).map { .success($0) } ?? .failure(refusal)
            }
        }
        let ids = try await ResponseRows.insert(records, on: statements)
        try await queueWebhooks(for: ids, at: records.map(\.draft.receivedAt).max(), on: statements)
        for (id, owner) in zip(ids, owners) {
            try await planFollowUps(of: items[owner], responseID: id, on: statements)
        }
        for (record, (id, owner)) in zip(records, zip(ids, owners)) {
            let receipt = ResponseReceipt(responseID: id, volunteered: record.draft.volunteered, delaySeconds: record.draft.delaySeconds)
            results[owner] = .success(IngestOutcome(receipt: receipt, created: true))
        }
        return try items.enumerated().map { index, item in
            if let result = results[index] { return result }
            guard let first = firstWithKey[IdempotencyKey(item)], let result = results[first] else {
                throw APIError(.internalServerError, code: "internal_error", "A response in a batch was left without an outcome.")
            }
            return result.map { IngestOutcome(receipt: $0.receipt, created: false) }
        }
    }

    /// After a refused batch: each submission under a savepoint of its own, so a refused one is
    /// rolled back alone; one whose key a committed batch holds gets that response's receipt.
    nonisolated(nonsending) private static func storeOneByOne(_ items: [ValidatedSubmission], on statements: any StatementRunner) async throws -> [Result<IngestOutcome, any Error>] {
        var results: [Result<IngestOutcome, any Error>] = []
        var byKey: [IdempotencyKey: Result<IngestOutcome, any Error>] = [:]
        for item in items {
            if let first = byKey[IdempotencyKey(item)] {
                results.append(first.map { IngestOutcome(receipt: $0.receipt, created: false) })
                continue
            }
            try await statements.perform(SQLRaw("SAVEPOINT response"))
            var result: Result<IngestOutcome, any Error>
            do {
                var taken = try await takeBeeps(of: [item], on: statements)
                switch draft(of: item, taken: &taken) {
                case .success(let draft):
                    let record = ResponseRows.Record(draft: draft, answers: item.answers, context: item.context)
                    let id = try await ResponseRows.insert([record], on: statements)[0]
                    try await queueWebhooks(for: [id], at: draft.receivedAt, on: statements)
                    try await planFollowUps(of: item, responseID: id, on: statements)
                    result = .success(IngestOutcome(receipt: ResponseReceipt(responseID: id, volunteered: draft.volunteered, delaySeconds: draft.delaySeconds), created: true))
                case .failure(let refusal):
                    result = .failure(refusal)
                }
                try await statements.perform(SQLRaw("RELEASE SAVEPOINT response"))
            } catch where (error as? any DatabaseError)?.isConstraintFailure == true {
                try await statements.perform(SQLRaw("ROLLBACK TO SAVEPOINT response"))
                try await statements.perform(SQLRaw("RELEASE SAVEPOINT response"))
                result = .failure(try await refusal(for: error, of: item, on: statements))
            }
            if case .failure = result, let stored = try await storedReceipt(of: item, on: statements) {
                result = .success(stored)
            }
            byKey[IdempotencyKey(item)] = result
            results.append(result)
        }
        return results
    }

    /// What to answer a submission the database refused. A participant erased since the request
    /// was authenticated is answered as each later request of theirs is (401: the credentials name
    /// no one); any other refusal stays the server's own error.
    nonisolated(nonsending) private static func refusal(for error: any Error, of item: ValidatedSubmission, on statements: any StatementRunner) async throws -> any Error {
        struct Row: Decodable { let id: UUID }
        let participant = try await statements.rows(
            SQLQueryString("SELECT id FROM participants WHERE id = \(bind: item.draft.participantID)"), decoding: Row.self).first
        return participant == nil ? ParticipantAuthenticator.unauthorized("The participant id or secret is wrong.") : error
    }

    /// Marks answered, in one statement, every beep the items answer that is still awaiting an
    /// answer (`sent`, or `expired` since the answer was begun: ingest checked it was begun in
    /// time), and returns those it took: a beep answered by an earlier batch, or ignored or missed
    /// meanwhile, is not among them. Each gets its own item's time of receipt.
    nonisolated(nonsending) private static func takeBeeps(of items: [ValidatedSubmission], on statements: any StatementRunner) async throws -> Set<UUID> {
        var receivedAt: [UUID: Date] = [:]
        for item in items {
            if let beepID = item.draft.beepID, receivedAt[beepID] == nil { receivedAt[beepID] = item.draft.receivedAt }
        }
        guard !receivedAt.isEmpty else { return [] }
        if let postgres = statements.postgresConnection {
            return Set(try await postgres.rows(of: PostgresTakeBeeps(beeps: receivedAt)))
        }
        struct Row: Decodable { let id: UUID }
        var taken: Set<UUID> = []
        // Three values bound a beep: well inside every database's limit at a batch's size.
        for chunk in Array(receivedAt).chunked(ResponseRows.rowsPerStatement) {
            let rows = try await statements.rows(takeBeepsStatement(chunk.map { ($0.key, $0.value) }, on: statements.sql), decoding: Row.self)
            taken.formUnion(rows.map(\.id))
        }
        return taken
    }

    /// `takeBeeps`'s statement for some beeps, each with its time of answer, where no prepared
    /// statement is kept (SQLite; see `PostgresTakeBeeps`).
    static func takeBeepsStatement(_ beeps: [(id: UUID, answeredAt: Date)], on sql: any SQLDatabase) -> SQLQueryString {
        let times = SQLList(beeps.map { SQLList([SQLRaw("WHEN"), SQLBind($0.id), SQLRaw("THEN"), SQLBind($0.answeredAt)], separator: SQLRaw(" ")) },
                            separator: SQLRaw(" "))
        return """
            UPDATE beeps SET status = \(bind: Beep.Status.answered.rawValue), answered_at = CASE id \(times) END
            WHERE id IN (\(binds: beeps.map(\.id)))
                AND \(BeepLifecycle.guardClause(to: .answered, column: BeepStore.statusBesideIDs(on: sql)))
            RETURNING id
            """
    }

    /// `takeBeepsStatement` on PostgreSQL: one text for any number of beeps, given as two arrays,
    /// so it is prepared once on the writer's connection instead of parsed and planned at every
    /// batch. The same guard (`BeepStore.statusBesideIDs`) keeps the status out of the index choice.
    struct PostgresTakeBeeps: PostgresPreparedStatement {
        typealias Row = UUID
        static let name = "momentary_take_beeps"
        static let sql = {
            var guardText = SQLSerializer(database: PostgresDialectOnly())
            BeepLifecycle.guardClause(to: .answered, column: BeepStore.statusBesideIDs(on: PostgresDialectOnly())).serialize(to: &guardText)
            return """
                UPDATE beeps SET status = '\(Beep.Status.answered.rawValue)', answered_at = taken.answered_at
                FROM unnest($1::uuid[], $2::timestamptz[]) AS taken (id, answered_at)
                WHERE beeps.id = taken.id AND \(guardText.sql)
                RETURNING beeps.id
                """
        }()

        let beeps: [UUID: Date]

        func makeBindings() throws -> PostgresBindings {
            let pairs = Array(beeps)
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(pairs.map(\.key))
            bindings.append(pairs.map(\.value))
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> UUID { try row.decode(UUID.self) }
    }

    /// The item's draft once `taken` (see `takeBeeps`) has decided its beep. Of two answers to one
    /// beep the first (in this batch or an earlier one) takes it, removing it from `taken`; a later
    /// one naming it is refused, and a later one that named no beep becomes volunteered, as no
    /// beep awaits an answer any more. The refusal is returned, not thrown: it is the item's
    /// result (unless its key turns out to be stored).
    private static func draft(of item: ValidatedSubmission, taken: inout Set<UUID>) -> Result<ResponseRows.Draft, any Error> {
        var draft = item.draft
        guard let beepID = draft.beepID else { return .success(draft) }
        guard taken.remove(beepID) == nil else { return .success(draft) }
        guard !item.beepNamed else { return .failure(APIError(.beepAnswered, "This beep has already been answered.")) }
        draft.beepID = nil
        draft.volunteered = true
        draft.delaySeconds = nil
        return .success(draft)
    }

    /// The receipt of the response already stored under the item's key, if any.
    nonisolated(nonsending) private static func storedReceipt(of item: ValidatedSubmission, on statements: any StatementRunner) async throws -> IngestOutcome? {
        try await ResponseRows.storedReceipt(participantID: item.draft.participantID, key: item.draft.idempotencyKey, on: statements)
            .map { IngestOutcome(receipt: $0, created: false) }
    }
}
