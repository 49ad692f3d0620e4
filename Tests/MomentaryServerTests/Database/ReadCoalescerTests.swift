import Foundation
@testable import MomentaryServer
import SQLKit
import Synchronization
import Testing

/// Reads of one kind made together are joined into one statement, and each read still gets
/// exactly its own key's rows, or the statement's error.
@Suite("Read coalescing")
struct ReadCoalescerTests {
    private struct LabelRow: SQLRow {
        let label: String
        var allColumns: [String] { ["label"] }
        func contains(column: String) -> Bool { column == "label" }
        func decodeNil(column: String) throws -> Bool { false }
        func decode<D: Decodable>(column: String, as type: D.Type) throws -> D { label as! D }
    }

    private struct Refused: Error {}

    /// Statements run so far (their keys), and a gate that holds the first until opened.
    private final class Statements: Sendable {
        private let log = Mutex<[[UUID]]>([])
        private let gate = Mutex<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))
        /// The statement (1 for the first) that fails, if any.
        let failing: Int?

        init(holdFirst: Bool = true, failing: Int? = nil) {
            self.failing = failing
            if !holdFirst { gate.withLock { $0.open = true } }
        }

        var keys: [[UUID]] { log.withLock { $0 } }

        func open() {
            let waiting = gate.withLock { gate in
                gate.open = true
                defer { gate.waiting = [] }
                return gate.waiting
            }
            waiting.forEach { $0.resume() }
        }

        func run(_ keys: [UUID]) async throws -> ReadCoalescer.Rows {
            let count = log.withLock { $0.append(keys); return $0.count }
            await withCheckedContinuation { continuation in
                let open = gate.withLock { gate in
                    if !gate.open { gate.waiting.append(continuation) }
                    return gate.open
                }
                if open { continuation.resume() }
            }
            if count == failing { throw Refused() }
            return Dictionary(uniqueKeysWithValues: keys.map { ($0, [LabelRow(label: $0.uuidString)] as [any SQLRow]) })
        }
    }

    private static func label(of rows: [any SQLRow]) throws -> String? {
        try rows.first?.decode(column: "label", as: String.self)
    }

    /// Starts a read of each key, the first alone, the others once the first statement is held,
    /// then opens the gate and returns each read's label (or error) in order.
    private static func readTogether(_ keys: [UUID], coalescer: ReadCoalescer, statements: Statements) async throws -> [Result<String?, any Error>] {
        try await withThrowingTaskGroup(of: (Int, Result<String?, any Error>).self) { group in
            for (index, key) in keys.enumerated() {
                group.addTask {
                    do {
                        return (index, .success(try label(of: try await coalescer.rows(of: key, batch: statements.run))))
                    } catch {
                        return (index, .failure(error))
                    }
                }
                if index == 0 {
                    try await eventually("the first read's statement runs") { !statements.keys.isEmpty }
                }
            }
            try await eventually("every other read waits") { coalescer.waitingCount == keys.count - 1 }
            statements.open()
            var results = [Result<String?, any Error>?](repeating: nil, count: keys.count)
            for try await (index, result) in group { results[index] = result }
            return results.map { $0! }
        }
    }

    @Test("a read finding none running runs at once, alone")
    func idleReadRunsAlone() async throws {
        let statements = Statements(holdFirst: false)
        let coalescer = ReadCoalescer()
        let key = UUID()
        #expect(try Self.label(of: try await coalescer.rows(of: key, batch: statements.run)) == key.uuidString)
        #expect(statements.keys == [[key]])
    }

    @Test("reads arriving while one runs are read together in the next statement, each getting its own rows")
    func waitingReadsShareOneStatement() async throws {
        let statements = Statements()
        let coalescer = ReadCoalescer()
        let keys = (0..<40).map { _ in UUID() }
        let results = try await Self.readTogether(keys, coalescer: coalescer, statements: statements)
        for (key, result) in zip(keys, results) {
            #expect(try result.get() == key.uuidString)
        }
        #expect(statements.keys.count == 2)
        #expect(statements.keys.first == [keys[0]])
        #expect(Set(statements.keys.last ?? []) == Set(keys.dropFirst()))
        #expect(coalescer.waitingCount == 0)
    }

    @Test("a key read twice at once is read once and answers both")
    func repeatedKey() async throws {
        let statements = Statements()
        let coalescer = ReadCoalescer()
        let (first, repeated) = (UUID(), UUID())
        let results = try await Self.readTogether([first, repeated, repeated, repeated], coalescer: coalescer, statements: statements)
        #expect(try results.map { try $0.get() } == [first, repeated, repeated, repeated].map(\.uuidString))
        #expect(statements.keys.last == [repeated])
    }

    @Test("no statement reads more than the most keys; the rest wait for the next")
    func boundedStatements() async throws {
        let statements = Statements()
        let coalescer = ReadCoalescer()
        let keys = (0..<(ReadCoalescer.maximumKeys + 45)).map { _ in UUID() }
        let results = try await Self.readTogether(keys, coalescer: coalescer, statements: statements)
        #expect(try results.map { try $0.get() } == keys.map(\.uuidString))
        #expect(statements.keys.map(\.count) == [1, ReadCoalescer.maximumKeys, 44])
    }

    @Test("a failed statement fails the reads it was for, and later reads run")
    func failureReachesItsReads() async throws {
        let statements = Statements(failing: 2)
        let coalescer = ReadCoalescer()
        let keys = (0..<5).map { _ in UUID() }
        let results = try await Self.readTogether(keys, coalescer: coalescer, statements: statements)
        #expect(try results[0].get() == keys[0].uuidString)
        for result in results.dropFirst() {
            #expect(throws: Refused.self) { try result.get() }
        }
        let later = UUID()
        #expect(try Self.label(of: try await coalescer.rows(of: later, batch: statements.run)) == later.uuidString)
    }
}
