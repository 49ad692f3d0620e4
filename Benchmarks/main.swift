import Foundation
import MomentaryServer
import NIOHTTP1

// momentary-bench: measurements reported in BENCHMARKS.md. Each prints JSON lines.
let usage = """
    usage: momentary-bench schedule [--participant-days N]
           momentary-bench apns [--pushes N] [--concurrency N] [--url https://host:port --ca FILE] [--baseline]
           momentary-bench ingest [--requests N] [--concurrency N] [--participants N] [--postgres URL] [--named-beeps]
           momentary-bench status [--responses N] [--requests N] [--concurrency N] [--postgres URL]
           momentary-bench export [--answers N] [--formats long,wide,beeps,xlsx]
           momentary-bench signalling [--participants N]
           momentary-bench statistics [--responses N]
           momentary-bench backup [--answers N] [--photos N]
           momentary-bench streams [--hours N]
    """

// As `momentary` runs, so the figures are the server's own (MOMENTARY_SWIFT_EXECUTOR=default to compare).
try ConcurrencyExecutor.install(environment: ProcessInfo.processInfo.environment)
let arguments = Array(CommandLine.arguments.dropFirst())
/// The positive whole number after `name`, or `value` without the flag; anything else stops the run.
func option(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name) else { return value }
    guard index + 1 < arguments.count, let number = Int(arguments[index + 1]), number > 0 else {
        FileHandle.standardError.write(Data("\(name) needs a whole number above 0\n\(usage)\n".utf8))
        exit(2)
    }
    return number
}

func textOption(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

switch arguments.first {
case "schedule":
    ScheduleBenchmark.run(participantDays: option("--participant-days", default: 1_000_000))
case "apns":
    var apns = APNsBenchmark.Options()
    apns.pushes = option("--pushes", default: apns.pushes)
    apns.concurrency = option("--concurrency", default: apns.concurrency)
    apns.url = textOption("--url").flatMap(URL.init(string:))
    apns.certificateAuthorityFile = textOption("--ca")
    apns.baseline = arguments.contains("--baseline")
    try await APNsBenchmark.run(apns)
case "ingest":
    let postgres = textOption("--postgres")
    let concurrency = option("--concurrency", default: 16)
    try await IngestBenchmark.run(
        requests: option("--requests", default: 20_000), concurrency: concurrency,
        participants: option("--participants", default: concurrency), postgresURL: postgres,
        namedBeeps: arguments.contains("--named-beeps"))
case "status":
    try await StatusBenchmark.run(
        responses: option("--responses", default: 5_000), requests: option("--requests", default: 20_000),
        concurrency: option("--concurrency", default: 64), postgresURL: textOption("--postgres"))
case "ingest-clients":
    // The ingest benchmark's own child process (see IngestClients), not a benchmark of its own.
    guard let url = textOption("--url"), let file = textOption("--requests-file") else {
        FileHandle.standardError.write(Data("ingest-clients needs --url and --requests-file\n".utf8))
        exit(2)
    }
    var target = IngestClients.Target.uploads
    if let method = textOption("--method") { target.method = HTTPMethod(rawValue: method) }
    if let path = textOption("--path") { target.path = path }
    target.status = HTTPResponseStatus(statusCode: option("--status", default: Int(target.status.code)))
    try await IngestClients.run(base: url, requestsFile: file, concurrency: option("--concurrency", default: 16), target: target)
case "export":
    var formats: [ExportFormat] = [.long, .wide, .beeps]
    if let index = arguments.firstIndex(of: "--formats"), index + 1 < arguments.count {
        let names = arguments[index + 1].split(separator: ",").map(String.init)
        formats = names.compactMap(ExportFormat.init(rawValue:))
        guard formats.count == names.count, !formats.isEmpty else {
            FileHandle.standardError.write(Data("unknown format in \(arguments[index + 1]); known: \(ExportFormat.allCases.map(\.rawValue).joined(separator: ","))\n".utf8))
            exit(2)
        }
    }
    try await ExportBenchmark.run(answers: option("--answers", default: 1_000_000), formats: formats)
case "signalling":
    try await SignallingBenchmark.run(participants: option("--participants", default: 100_000))
case "statistics":
    try await StatisticsBenchmark.run(responses: option("--responses", default: 100_000))
case "streams":
    try await StreamsBenchmark.run(hours: option("--hours", default: 168))
case "backup":
    try await BackupBenchmark.run(answers: option("--answers", default: 1_000_000), photos: option("--photos", default: 1_000))
default:
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(2)
}
