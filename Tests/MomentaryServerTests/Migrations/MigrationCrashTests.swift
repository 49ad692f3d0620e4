import Fluent
import Foundation
@testable import MomentaryServer
import SQLKit
import Testing

/// `kill -9` during `momentary migrate` at random moments: every database must migrate to the
/// end afterwards and then serve. A kill part-way through the list also stands for an upgrade
/// from an older schema interrupted part-way.
@Suite("Migrations survive being killed", .serialized)
struct MigrationCrashTests {
    static let kills = 12

    @Test("a migration killed at random points always completes on the next run")
    func killedMigrationsRecover() async throws {
        // How long a whole migration takes here, so the kills fall across all of it.
        let (timingTarget, timingEnvironment) = try Self.freshTarget()
        let started = Date()
        #expect(try await ServerProcess(arguments: ["migrate"] + timingTarget, environment: timingEnvironment).waitForExit() == 0)
        var duration = Date().timeIntervalSince(started)
        try await Self.remove(timingTarget, timingEnvironment)

        var recovered = 0
        var interrupted = 0
        for kill in 0..<Self.kills {
            let (target, environment) = try Self.freshTarget()
            let doomed = try ServerProcess(arguments: ["migrate"] + target, environment: environment)
            // One kill at a random moment in each twelfth of the timed run: spread over all of it
            // even when the timed run was slowed by other tests and later runs are quicker.
            let fraction = (Double(kill) + Double.random(in: 0..<1)) / Double(Self.kills)
            try await Task.sleep(for: .milliseconds(Int(fraction * duration * 1000)))
            if doomed.isRunning {
                interrupted += 1
            } else {
                // It finished before its kill: the timed run was slower than runs are now (other
                // tests were loading the machine then), so the later kills aim earlier.
                duration *= 0.7
            }
            await doomed.kill()
            let again = try ServerProcess(arguments: ["migrate"] + target, environment: environment)
            let status = await again.waitForExit()
            #expect(status == 0, "the migration after a kill failed: \(again.output)")
            if status == 0, try await Self.isComplete(target, environment) { recovered += 1 }
            try await Self.remove(target, environment)
        }
        #expect(recovered == Self.kills, "\(recovered) of \(Self.kills) databases recovered")
        #expect(interrupted > 0, "no kill landed while migrating (whole run: \(duration) s)")
    }

    /// A new data directory (and, on PostgreSQL, a new schema) as `migrate` arguments and environment.
    static func freshTarget() throws -> ([String], [String: String?]) {
        let configuration = try TestDatabase.makeConfiguration()
        var environment: [String: String?] = ["MOMENTARY_ENV": "testing"]
        if let url = TestDatabase.postgresURL {
            environment["DATABASE_URL"] = url
            environment["DATABASE_SCHEMA"] = configuration.postgresSchema
        }
        return (["--data", configuration.dataDirectory.path], environment)
    }

    static func configuration(_ target: [String], _ environment: [String: String?]) throws -> Configuration {
        var variables: [String: String] = [:]
        for case let (name, value?) in environment { variables[name] = value }
        return try Configuration.load(environment: variables, dataDirectoryOverride: target[1])
    }

    /// Nothing pending, every table there, and the built-in roles seeded exactly once.
    static func isComplete(_ target: [String], _ environment: [String: String?]) async throws -> Bool {
        try await AppFactory.withApp(try configuration(target, environment)) { app in
            let pending = try await AppFactory.pendingMigrations(app)
            let roles = try await Role.query(on: app.db).count()
            let tables = try await tableNames(app.db)
            return pending.isEmpty && roles == 2 && MigrationTests.expectedTables.isSubset(of: tables)
        }
    }

    static func remove(_ target: [String], _ environment: [String: String?]) async throws {
        let configuration = try configuration(target, environment)
        if let schema = configuration.postgresSchema {
            try await AppFactory.withApp(configuration) { app in
                try await app.db.sql.raw("DROP SCHEMA IF EXISTS \(ident: schema) CASCADE").run()
            }
        }
        try? FileManager.default.removeItem(at: configuration.dataDirectory)
    }
}
