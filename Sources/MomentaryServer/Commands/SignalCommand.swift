import ArgumentParser
import Dispatch
import Foundation
import Vapor

/// `momentary signal`: the signalling worker alone, for running beside `serve` or on other
/// machines against the same PostgreSQL database. Runs until SIGINT or SIGTERM, then finishes
/// recording the current wake before it exits.
struct SignalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signal", abstract: "Run the signalling worker alone: send beeps as they fall due, until stopped.")

    @ArgumentParser.Option(help: "Name recorded in claimed beeps (default host:pid:random).")
    var workerID: String?

    @OptionGroup var data: DataOptions

    func validate() throws {
        if let workerID, workerID.isEmpty || workerID.count > 100 {
            throw ValidationError("--worker-id must be 1 to 100 characters.")
        }
    }

    func run() async throws {
        let configuration = try data.loadConfiguration()
        try await AppFactory.withApp(configuration) { app in
            try await ServeCommand.prepareDatabase(app, configuration)
            var options = SignalDispatcherOptions()
            if let workerID { options.workerID = workerID }
            try app.signalling.install(configuration: configuration, options: options)
            let stop = TerminationSignals()
            await app.signalling.start()
            CommandOutput.line("Signalling worker \(options.workerID) is running (data in \(configuration.dataDirectory.path)); stop it with Ctrl-C.")
            let signal = await stop.wait()
            CommandOutput.line("Received \(signal == SIGTERM ? "SIGTERM" : "SIGINT"); stopping after the current wake.")
            await app.signalling.shutdown()
        }
    }
}

/// Waits for SIGINT or SIGTERM. Creating it takes the signals over from their default action
/// (ending the process at once), so the worker can stop between wakes; releasing it gives them back.
final class TerminationSignals {
    private static let numbers = [SIGINT, SIGTERM]
    private let sources: [any DispatchSourceSignal]
    private let stream: AsyncStream<Int32>

    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        self.stream = stream
        sources = Self.numbers.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }

    /// The first signal received.
    func wait() async -> Int32 {
        for await number in stream {
            return number
        }
        return SIGTERM
    }

    deinit {
        for source in sources { source.cancel() }
        for number in Self.numbers { signal(number, SIG_DFL) }
    }
}
