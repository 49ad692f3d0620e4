import Foundation
import SQLKit
import Synchronization

/// Joins the reads of one kind that requests make at the same moment into one statement, as the
/// response writer joins their writes into one commit. A read finding none running starts at
/// once, alone; reads arriving while it runs wait, and the next of them reads for all the waiting
/// keys in one statement when it ends. So an idle server adds no wait, and a busy one pays one
/// round trip (its work in the server and in the database) for many requests instead of one each.
final class ReadCoalescer: Sendable {
    /// Each key's rows, as one statement read them for many keys.
    typealias Rows = [UUID: [any SQLRow]]
    /// Reads the rows of some keys.
    typealias Batch = @Sendable ([UUID]) async throws -> Rows

    /// The most keys one statement reads; more wait for the next.
    static let maximumKeys = 256

    private enum Turn: Sendable {
        /// This read's rows, read with others'.
        case read(Result<[any SQLRow], any Error>)
        /// This read runs the next statement, for the keys waiting then (its own among them).
        case lead
    }

    private struct Waiting {
        let key: UUID
        let turn: CheckedContinuation<Turn, Never>
    }

    private struct State {
        var running = false
        var waiting: [Waiting] = []
    }

    private let state = Mutex(State())

    /// How many reads wait for a statement to end (tests watch it).
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// The rows of `key`; `batch` reads them, for this key and any others waiting, if this read
    /// runs the statement.
    func rows(of key: UUID, batch: Batch) async throws -> [any SQLRow] {
        let leads = state.withLock { state in
            guard !state.running else { return false }
            state.running = true
            return true
        }
        if !leads {
            let turn = await withCheckedContinuation { (turn: CheckedContinuation<Turn, Never>) in
                let leadsNow = state.withLock { state in
                    guard state.running else {
                        state.running = true
                        return true
                    }
                    state.waiting.append(Waiting(key: key, turn: turn))
                    return false
                }
                if leadsNow { turn.resume(returning: .lead) }
            }
            if case .read(let result) = turn { return try result.get() }
        }
        return try await lead(with: key, batch: batch)
    }

    /// Runs one statement for `key` and the keys waiting, answers them, then hands the turn to
    /// the first read still waiting, if any.
    private func lead(with key: UUID, batch: Batch) async throws -> [any SQLRow] {
        let others = state.withLock { state in
            let taken = Array(state.waiting.prefix(Self.maximumKeys - 1))
            state.waiting.removeFirst(taken.count)
            return taken
        }
        let result: Result<Rows, any Error>
        do {
            result = .success(try await batch(Array(Set([key] + others.map(\.key)))))
        } catch {
            result = .failure(error)
        }
        for other in others {
            other.turn.resume(returning: .read(result.map { $0[other.key] ?? [] }))
        }
        let next = state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.running = false
                return nil as Waiting?
            }
            return state.waiting.removeFirst()
        }
        next?.turn.resume(returning: .lead)
        return try result.get()[key] ?? []
    }
}

/// The coalescer of each kind of read (by its statement's name), made on first use.
final class ReadCoalescers: Sendable {
    private let byName = Mutex([String: ReadCoalescer]())

    func coalescer(named name: String) -> ReadCoalescer {
        byName.withLock { byName in
            if let coalescer = byName[name] { return coalescer }
            let coalescer = ReadCoalescer()
            byName[name] = coalescer
            return coalescer
        }
    }
}
