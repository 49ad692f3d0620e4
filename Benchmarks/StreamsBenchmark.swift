import Foundation
import MomentaryClient
import MomentaryCore
import MomentaryCLI
import MomentaryServer
import Vapor

/// Passive streams: accelerometer batches of 10 Hz × 1 hour (36,000 rows, Beiwe's iOS format).
/// 1. Parsing: `StreamBatchValidator` on one batch in memory, MB/s of CSV on one core, beside the
///    least any parser does: one pass counting line breaks over the same bytes.
/// 2. Upload and index: `hours` batches (one participant-week by default) posted one after the
///    other to the real server on a loopback port, gzip-compressed as a phone sends them, each
///    acknowledged only once its file and index rows are durable; MB/s of CSV. Beside it, `gzip -d`
///    inflating the same body `hours` times, the floor of taking a compressed batch at all.
/// 3. Export: `momentary export streams` of that participant-week to a file, with its peak memory
///    (the CSV is made a day at a time), beside `zcat` of the stored files.
enum StreamsBenchmark {
    static func run(hours: Int) async throws {
        let start: Int64 = 1_774_771_200_000
        let batch = accelerometerHour(from: start)
        let megabytes = Double(batch.count) / 1_048_576

        let parseRuns = 20
        var parse = ContinuousClock.now
        for _ in 0..<parseRuns { _ = try StreamBatchValidator.validate(batch, as: .accelerometer) }
        let parseSeconds = seconds(since: parse)
        parse = ContinuousClock.now
        var lines = 0
        for _ in 0..<parseRuns { lines &+= batch.withUnsafeBytes { $0.reduce(0) { $0 &+ ($1 == 10 ? 1 : 0) } } }
        let scanSeconds = seconds(since: parse)
        emit(["benchmark": "\"streams-parse\"", "csv_megabytes": format(megabytes), "rows": "36000",
              "validate_mb_per_s": format(megabytes * Double(parseRuns) / parseSeconds),
              "line_count_mb_per_s": format(megabytes * Double(parseRuns) / scanSeconds),
              "ratio": format(scanSeconds / parseSeconds), "goal_mb_per_s": "50", "lines": String(lines / parseRuns)])

        let server = try await BenchServer.start("streams", postgresURL: nil)
        defer { try? FileManager.default.removeItem(at: server.directory) }
        let (directory, base) = (server.directory, server.base)
        let registration = try await MomentaryAPIClient(baseURL: base).register(RegistrationRequest(
            study: "demo", consent: true, timezone: "Europe/London", settings: .standard, push: .none,
            registrationAnswers: try randomRegistrationAnswers(), device: DeviceInfo(model: "bench", os: "bench", appVersion: "1")))
        let client = MomentaryAPIClient(baseURL: base, credentials: ParticipantCredentials(
            participantID: registration.participantID, secret: registration.secret))

        // Each hour's batch differs in its times; compressing them is the phone's work, done first.
        var bodies: [Data] = []
        for hour in 0..<hours {
            bodies.append(try runTool("/usr/bin/gzip", ["-c", "-1"], input: accelerometerHour(from: start + Int64(hour) * 3_600_000)))
        }
        var upload = ContinuousClock.now
        for (hour, body) in bodies.enumerated() {
            _ = try await client.uploadStreamBatch(body, stream: .accelerometer, idempotencyKey: "hour-\(hour)", gzipped: true)
        }
        let uploadSeconds = seconds(since: upload)
        upload = ContinuousClock.now
        for body in bodies { _ = try runTool("/usr/bin/gzip", ["-d", "-c"], input: body) }
        let inflateSeconds = seconds(since: upload)
        let total = megabytes * Double(hours)
        emit(["benchmark": "\"streams-upload\"", "batches": String(hours), "csv_megabytes": format(total),
              "upload_index_mb_per_s": format(total / uploadSeconds), "gzip_d_mb_per_s": format(total / inflateSeconds),
              "ratio": format(inflateSeconds / uploadSeconds), "goal_mb_per_s": "50"])
        try await server.stop()

        let output = directory.appendingPathComponent("week.csv").path
        let residentBefore = memoryFigure("VmRSS")
        resetPeakMemory()
        let export = ContinuousClock.now
        let code = await MomentaryMain.run(["export", "streams", "--study", "demo", "--participant", registration.participantID.uuidString,
                                            "--stream", "accelerometer", "--output", output, "--data", directory.path])
        let exportSeconds = seconds(since: export)
        let peakMegabytes = memoryFigure("VmHWM") / 1024
        guard code == 0 else { throw BenchmarkError("export streams failed with \(code)") }
        let files = try FileManager.default.subpathsOfDirectory(atPath: directory.appendingPathComponent("blobs/streams").path)
            .filter { $0.hasSuffix(".gz") }.map { directory.appendingPathComponent("blobs/streams/\($0)").path }
        let zcat = ContinuousClock.now
        _ = try runTool("/usr/bin/zcat", files, input: nil)
        let zcatSeconds = seconds(since: zcat)
        let exported = (try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        emit(["benchmark": "\"streams-export\"", "batches": String(hours), "csv_megabytes": format(Double(exported) / 1_048_576),
              "export_seconds": format(exportSeconds), "zcat_seconds": format(zcatSeconds), "ratio": format(exportSeconds / zcatSeconds),
              "rss_before_mb": format(residentBefore / 1024), "peak_rss_mb": format(peakMegabytes)])
    }

    static func accelerometerHour(from start: Int64) -> Data {
        var text = PassiveStream.accelerometer.headerLine + "\n"
        text.reserveCapacity(36_000 * 50)
        for index in 0..<36_000 {
            let phase = Double(index) / 10
            text += "\(start + Int64(index) * 100),iPhone15;iOS 18.1,\(format4(sin(phase) * 0.05)),\(format4(-0.98 + cos(phase) * 0.01)),\(format4(0.1 * sin(phase / 7)))\n"
        }
        return Data(text.utf8)
    }

    private static func randomRegistrationAnswers() throws -> [SubmittedAnswer] {
        var generator = Xoshiro256StarStar(seed: 1)
        return SampleSurveys.registration.randomAnswers(using: &generator)
    }

    private static func runTool(_ path: String, _ arguments: [String], input: Data?) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        let inputPipe = Pipe()
        if input != nil { process.standardInput = inputPipe }
        try process.run()
        if let input {
            Thread.detachNewThread {
                inputPipe.fileHandleForWriting.write(input)
                try? inputPipe.fileHandleForWriting.close()
            }
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchmarkError("\(path) failed") }
        return data
    }

    private static func emit(_ fields: KeyValuePairs<String, String>) {
        printResult(fields.map { ($0.key, $0.value) })
    }

    private static func format(_ value: Double) -> String { String(format: "%.2f", value) }
    private static func format4(_ value: Double) -> String { String(format: "%.4f", value) }
}
