import Fluent
import Foundation
@testable import MomentaryServer
import Testing
import VaporTesting

@Suite("Command line")
struct CommandTests {
    private func temporaryDirectory() throws -> String {
        try TestScratch.folder("cli").path
    }

    @Test("migrate applies every migration once, then reports the database up to date; --revert undoes them")
    func migrateCommand() async throws {
        let data = try temporaryDirectory()
        let first = await runCommand(["migrate", "--data", data])
        #expect(first.code == 0, "\(first.errors)")
        #expect(first.output.contains("Applied \(Migrations.all.count) migration(s)."))
        let second = await runCommand(["migrate", "--data", data])
        #expect(second.code == 0)
        #expect(second.output.contains("up to date"))
        let revert = await runCommand(["migrate", "--revert", "--data", data])
        #expect(revert.code == 0, "\(revert.errors)")
        #expect(revert.output.contains("Reverted \(Migrations.all.count) migration(s)."))
    }

    @Test("bad arguments end with one line on standard error and exit code 2")
    func badArguments() async throws {
        for arguments in [["serve", "--port", "70000"], ["serve", "--port", "eighty"], ["no-such-command"], ["migrate", "--bogus"]] {
            let result = await runCommand(arguments)
            #expect(result.code == 2, "\(arguments)")
            #expect(result.errors.hasPrefix("momentary: "), "\(arguments): \(result.errors)")
            #expect(!result.errors.contains("\n"), "\(arguments): more than one line: \(result.errors)")
        }
    }

    @Test("an unusable data directory ends with one sentence and exit code 1")
    func unusableDataDirectory() async throws {
        let file = try temporaryDirectory() + "/file"
        _ = FileManager.default.createFile(atPath: file, contents: Data())
        let result = await runCommand(["migrate", "--data", file + "/below"])
        #expect(result.code == 1)
        #expect(result.errors.contains("cannot be used"))
        #expect(!result.errors.contains("\n"))
    }

    @Test("serve on a port that is already in use ends with one clear sentence and exit code 1")
    func portInUse() async throws {
        let blocker = try await Application.make(.testing)
        try await blocker.server.start(address: .hostname("127.0.0.1", port: 0))
        let port = try #require(blocker.http.server.shared.localAddress?.port)
        let result = await runCommand(["serve", "--port", String(port), "--data", try temporaryDirectory()])
        await blocker.server.shutdown()
        try await blocker.asyncShutdown()
        #expect(result.code == 1)
        #expect(result.errors.contains("already in use"), "\(result.errors)")
        #expect(!result.errors.contains("\n"))
    }

    @Test("--help prints usage and exits 0")
    func help() async {
        let result = await runCommand(["--help"])
        #expect(result.code == 0)
        #expect(result.output.contains("serve"))
        #expect(result.output.contains("migrate"))
    }
}
