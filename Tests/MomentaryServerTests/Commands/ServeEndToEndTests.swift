import Fluent
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MomentaryServer
import Synchronization
import Testing
import VaporTesting

/// Runs the built `momentary` executable as a researcher would: `serve --demo`, twice on one data directory.
@Suite("serve --demo, end to end", .serialized)
struct ServeEndToEndTests {
    @Test("serve --demo answers /healthz, seeds once, and a second start reuses the data untouched")
    func serveDemoTwice() async throws {
        let data = TestScratch.file("momentary-serve").path

        let first = try ServerProcess(arguments: ["serve", "--demo", "--port", "0", "--data", data])
        let url = try await first.waitForListeningURL()
        let (body, response) = try await URLSession.shared.data(from: URL(string: url + "/healthz")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self).contains(#""status":"ok""#))
        #expect(String(decoding: body, as: UTF8.self).contains(#""signalling":"running""#), "serve runs the signaller")
        await first.stop()
        #expect(first.output.contains("Created the demo study"))
        #expect(first.output.contains("password: "))

        let second = try ServerProcess(arguments: ["serve", "--demo", "--port", "0", "--data", data])
        _ = try await second.waitForListeningURL()
        await second.stop()
        #expect(second.output.contains("already exists"))
        #expect(!second.output.contains("password: "), "the password is printed only on the first start")

        let configuration = try Configuration.load(environment: [:], dataDirectoryOverride: data)
        let counts = try await AppFactory.withApp(configuration) { app in
            (try await Study.query(on: app.db).filter(\.$slug == "demo").count(),
             try await Researcher.query(on: app.db).count(),
             try await Survey.query(on: app.db).count())
        }
        #expect(counts == (1, 1, 2))
        try? FileManager.default.removeItem(atPath: data)
    }
}

extension ServeEndToEndTests {
    @Test("MOMENTARY_SWIFT_EXECUTOR: default serves on Swift's own thread pool; an unknown value ends with exit code 2")
    func swiftExecutorSetting() async throws {
        let data = TestScratch.file("momentary-executor").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let onSwiftsPool = try ServerProcess(
            arguments: ["serve", "--demo", "--port", "0", "--data", data], environment: ["MOMENTARY_SWIFT_EXECUTOR": "default"])
        let url = try await onSwiftsPool.waitForListeningURL()
        let (_, response) = try await URLSession.shared.data(from: URL(string: url + "/api/v1/studies/demo")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        await onSwiftsPool.stop()

        let misspelt = try ServerProcess(
            arguments: ["serve", "--demo", "--port", "0", "--data", data], environment: ["MOMENTARY_SWIFT_EXECUTOR": "defualt"])
        #expect(await misspelt.waitForExit() == 2)
    }
}

/// The `momentary` executable built next to the test bundle, run as a child process.
final class ServerProcess: @unchecked Sendable {
    private let process: ChildProcess
    private let printed = PrintedOutput()

    static var executable: URL? {
        let candidates = [CommandLine.arguments.first.map { URL(fileURLWithPath: $0) }, Bundle.main.executableURL]
        for case let candidate? in candidates {
            var directory = candidate.deletingLastPathComponent()
            for _ in 0..<4 {
                let binary = directory.appendingPathComponent("momentary")
                if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
                directory = directory.deletingLastPathComponent()
            }
        }
        return nil
    }

    /// `environment` adds to (or, with nil, removes from) this process's environment.
    init(arguments: [String], environment extra: [String: String?] = [:]) throws {
        let executable = try #require(Self.executable, "the momentary executable must be built next to the tests (swift build)")
        let pipe = Pipe()
        // Tests never change this process's environment (Foundation reads it without a lock);
        // a child's differences are given to it alone.
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = nil
        environment["MOMENTARY_DATA_DIR"] = nil
        for (name, value) in extra { environment[name] = value }
        process = try ChildProcess(executable.path, arguments, environment: environment, standardOutput: pipe.fileHandleForWriting.fileDescriptor)
        try pipe.fileHandleForWriting.close()
        printed.startReading(pipe.fileHandleForReading)
    }

    /// What the process has printed so far; all of it once `stop`, `kill` or `waitForExit` returned.
    var output: String { printed.text }

    /// Waits (up to a minute) for the "listening on" line and returns its URL.
    func waitForListeningURL() async throws -> String {
        for _ in 0..<600 {
            if let range = output.range(of: #"http://[0-9.]+:[0-9]+"#, options: .regularExpression) {
                return String(output[range])
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        await stop()
        throw ServerProcessError(output: output)
    }

    /// Sends SIGTERM (as a service manager would) and waits for the exit; returns the exit status.
    @discardableResult
    func stop() async -> Int32 {
        process.signal(SIGTERM)
        return await waitForExit()
    }

    var isRunning: Bool { process.isRunning }

    /// Kills the process at once (SIGKILL, as a crash or a power cut would) and waits for it.
    func kill() async {
        process.signal(SIGKILL)
        await waitForExit()
    }

    /// Waits for the process to end by itself and returns its exit status.
    @discardableResult
    func waitForExit() async -> Int32 {
        // The closure cannot throw, so neither can the wait.
        try! await onThreadOfItsOwn { [self] in
            let status = process.waitForExit()
            printed.waitForEnd()
            return status
        }
    }

    /// Sends SIGTERM without waiting.
    func terminate() {
        process.signal(SIGTERM)
    }

    deinit { process.signal(SIGTERM) }
}

/// A child's standard output, read on a thread of its own with blocking reads until the pipe
/// ends. Not Foundation's `readabilityHandler`: on Linux its dispatch source on the pipe races
/// with the pipe's closing, and the test process crashed in libdispatch's manager thread
/// (`_dispatch_event_loop_drain`) while these tests ran, as others have reported of it.
private final class PrintedOutput: @unchecked Sendable {
    private let bytes = Mutex(Data())
    private let ended = DispatchSemaphore(value: 0)

    var text: String { bytes.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Reads with read(2), which returns what has arrived (FileHandle's `read(upToCount:)` waits
    /// for the whole count or the end).
    func startReading(_ handle: FileHandle) {
        Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(handle.fileDescriptor, &chunk, chunk.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                bytes.withLock { $0.append(contentsOf: chunk[..<count]) }
            }
            try? handle.close()
            ended.signal()
        }.start()
    }

    /// Waits until the pipe has ended, which it does once the process has exited (unless a child
    /// it started still holds it: then at most 10 s).
    func waitForEnd() {
        guard ended.wait(timeout: .now() + 10) == .success else { return }
        ended.signal()  // for the next wait
    }
}

struct ServerProcessError: Error, CustomStringConvertible {
    let output: String
    var description: String { "the server did not report that it was listening; it printed: \(output)" }
}
