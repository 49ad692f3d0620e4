import Fluent
import Foundation
import MomentaryCore
import MomentaryServer
import SQLKit
import Vapor

/// What every database benchmark needs: a production-configured app on a fresh SQLite file in a
/// temporary folder (removed afterwards), and rows written in bulk straight through SQL.
enum BenchmarkApp {
    static func run<T>(_ name: String, _ body: (Application, URL) async throws -> T) async throws -> T {
        let directory = try ScratchFolder.make("\(name)-bench")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = Configuration(
            dataDirectory: directory,
            database: .sqlite(path: directory.appendingPathComponent(Configuration.sqliteFileName).path),
            environmentName: "production")
        let app = try await Application.make(.production)
        app.logger.logLevel = .error
        do {
            try await configure(app, configuration)
            try await app.migrateAtomically()
            let result = try await body(app, directory)
            try await app.asyncShutdown()
            return result
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }

    /// Inserts `rows` (property names in camelCase become snake_case columns), 1,000 a statement.
    static func insert<Row: Encodable & Sendable>(_ rows: [Row], into table: String, on sql: any SQLDatabase) async throws {
        for start in stride(from: 0, to: rows.count, by: 1_000) {
            try await sql.insert(into: table)
                .models(Array(rows[start..<min(start + 1_000, rows.count)]), keyEncodingStrategy: .convertToSnakeCase, nilEncodingStrategy: .asNil)
                .run()
        }
    }
}

/// A server-scheduled open study as a `studies` row.
struct BenchmarkStudyRow: Encodable, Sendable {
    let id = UUID()
    let slug: String
    let name: String
    let consentText = "-"
    let invitationOnly = false
    let scheduling = "server"
    let randomSampling = true
    let defaultTimezone = "Europe/London"
    let minGapMinutes = 60
    let minBeepsPerDay = 1
    let maxBeepsPerDay = 5
    let defaultBeepsPerDay = 2
    let defaultStartMinutes: Int
    let defaultEndMinutes: Int
    let alertText = "How do you feel? Please tell us as soon as you safely can."
    let sounds = #"["default"]"#
    let maxDueAtOnce: Int
    let createdAt: Date
    let updatedAt: Date

    init(slug: String, name: String, hours: ClosedRange<Int>, maxDueAtOnce: Int, now: Date) {
        self.slug = slug
        self.name = name
        defaultStartMinutes = hours.lowerBound
        defaultEndMinutes = hours.upperBound
        self.maxDueAtOnce = maxDueAtOnce
        createdAt = now
        updatedAt = now
    }
}

/// A participating participant in London, beeped through the outbox, as a `participants` row.
struct BenchmarkParticipantRow: Encodable, Sendable {
    let id = UUID()
    let studyId: UUID
    let secretHash = "-"
    let status = "participating"
    let active = true
    let timezone = "Europe/London"
    let beepsPerDay = 2
    let signalStartMinutes: Int
    let signalEndMinutes: Int
    let pushChannel = "outbox"
    let registeredAt: Date
    let registeredLocalDate: String
    /// Set far ahead to keep the planner idle, or nil.
    let plannedThrough: String?
    let updatedAt: Date

    init(studyID: UUID, hours: ClosedRange<Int>, registeredOn localDate: String, plannedThrough: String?, now: Date) {
        studyId = studyID
        signalStartMinutes = hours.lowerBound
        signalEndMinutes = hours.upperBound
        registeredAt = now
        registeredLocalDate = localDate
        self.plannedThrough = plannedThrough
        updatedAt = now
    }
}

/// CPU seconds (user and system, every thread) this process has used so far.
func processCPUSeconds() -> Double {
    cpuSecondsUsed(by: RUSAGE_SELF)
}

/// CPU seconds used by this process, or by its finished child processes (`RUSAGE_CHILDREN`).
private func cpuSecondsUsed(by who: __rusage_who) -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(who.rawValue), &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// A command-line tool run to completion with its output sent to /dev/null, as a limit to measure
/// beside the project's own figure: wall and CPU seconds, and the rows it handled when known.
struct ToolRun {
    var wallSeconds: Double
    var cpuSeconds: Double
    var rows = 0

    static func measure(_ tool: String, _ arguments: [String]) throws -> ToolRun {
        let cpuBefore = cpuSecondsUsed(by: RUSAGE_CHILDREN)
        let started = ContinuousClock.now
        try run(tool, arguments, output: FileHandle(forWritingAtPath: "/dev/null"))
        return ToolRun(wallSeconds: seconds(since: started), cpuSeconds: cpuSecondsUsed(by: RUSAGE_CHILDREN) - cpuBefore)
    }

    /// What the tool printed.
    static func output(_ tool: String, _ arguments: [String]) throws -> String {
        let pipe = Pipe()
        try run(tool, arguments, output: pipe)
        return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    private static func run(_ tool: String, _ arguments: [String], output: Any?) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchmarkFailure("\(tool) exited \(process.terminationStatus)") }
    }
}

/// Seconds since `start`, as a fraction.
func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// A benchmark that could not run to the end, in one sentence.
struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A figure in kB from /proc/self/status (0 where there is none, e.g. macOS): VmRSS now, VmHWM
/// the peak since the last reset.
func memoryFigure(_ name: String) -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
        return Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
    return 0
}

/// Writing 5 to clear_refs resets the high-water mark to the current resident size (Linux ≥ 4.0).
func resetPeakMemory() {
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
}

/// Prints one benchmark result as a line of JSON, its fields in the order given. Each value is
/// already JSON (a number, `null`, or a string with its quotes).
func printResult(_ fields: [(String, String)]) {
    print("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
}
