import Foundation
@testable import MomentaryServer
import Testing

@Suite("Configuration")
struct ConfigurationTests {
    private func temporaryDirectory() throws -> URL {
        try TestScratch.folder("config")
    }

    @Test("defaults: the embedded SQLite file inside the data directory, development, text logs")
    func defaults() throws {
        let directory = try temporaryDirectory().appendingPathComponent("data")
        let configuration = try Configuration.load(environment: ["MOMENTARY_DATA_DIR": directory.path])
        #expect(configuration.database == .sqlite(path: directory.appendingPathComponent("momentary.sqlite").path))
        #expect(configuration.environmentName == "development")
        #expect(configuration.logFormat == .text)
        #expect(FileManager.default.fileExists(atPath: directory.path), "the data directory is created")
    }

    @Test("--data wins over MOMENTARY_DATA_DIR")
    func flagWinsOverEnvironment() throws {
        let fromEnvironment = try temporaryDirectory()
        let fromFlag = try temporaryDirectory()
        let configuration = try Configuration.load(
            environment: ["MOMENTARY_DATA_DIR": fromEnvironment.path], dataDirectoryOverride: fromFlag.path)
        #expect(configuration.dataDirectory.standardizedFileURL.path == fromFlag.standardizedFileURL.path)
    }

    @Test("a data directory that cannot be created is refused with one sentence")
    func unusableDataDirectory() throws {
        let file = try temporaryDirectory().appendingPathComponent("a-file")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8))
        #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: [:], dataDirectoryOverride: file.path)
        }
        do {
            _ = try Configuration.load(environment: [:], dataDirectoryOverride: file.appendingPathComponent("below").path)
            Issue.record("a directory below a file was accepted")
        } catch {
            #expect(error.description.contains("cannot be used"))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("DATABASE_URL selects PostgreSQL; malformed URLs are refused with the reason", arguments: [
        ("mysql://u:p@host/db", "scheme"),
        ("postgres://u:p@/db", "no host"),
        ("postgres://u:p@host:5432", "no database"),
        ("postgres://host:5432/db", "no user"),
        ("not a url at all", "not a URL"),
    ])
    func databaseURL(url: String, reason: String) throws {
        let directory = try temporaryDirectory()
        let good = try Configuration.load(
            environment: ["DATABASE_URL": "postgres://momentary:secret@localhost:5432/momentary"], dataDirectoryOverride: directory.path)
        #expect(good.database == .postgres(url: "postgres://momentary:secret@localhost:5432/momentary"))
        do {
            _ = try Configuration.load(environment: ["DATABASE_URL": url], dataDirectoryOverride: directory.path)
            Issue.record("\(url) was accepted")
        } catch {
            #expect(error.description.contains(reason), "\(error.description)")
            #expect(error.description.hasPrefix("DATABASE_URL is malformed"))
        }
    }

    @Test("MOMENTARY_ENV and MOMENTARY_LOG_FORMAT are checked; production logs JSON by default")
    func environmentAndLogFormat() throws {
        let directory = try temporaryDirectory()
        #expect(try Configuration.load(environment: ["MOMENTARY_ENV": "production"], dataDirectoryOverride: directory.path).logFormat == .json)
        #expect(throws: ConfigurationError.invalidValue(variable: "MOMENTARY_ENV", value: "prod", expected: "development, production or testing")) {
            try Configuration.load(environment: ["MOMENTARY_ENV": "prod"], dataDirectoryOverride: directory.path)
        }
        #expect(throws: ConfigurationError.self) {
            try Configuration.load(environment: ["MOMENTARY_LOG_FORMAT": "xml"], dataDirectoryOverride: directory.path)
        }
        #expect(throws: ConfigurationError.self) {
            try Configuration.load(
                environment: ["DATABASE_URL": "postgres://u:p@h/db", "DATABASE_SCHEMA": "a;drop"], dataDirectoryOverride: directory.path)
        }
    }

    @Test("MOMENTARY_STUDY_REGISTRATION_LIMIT is a whole number from 1 to 1000000, 1000 when unset")
    func studyRegistrationLimit() throws {
        let directory = try temporaryDirectory()
        #expect(try Configuration.load(environment: [:], dataDirectoryOverride: directory.path).studyRegistrationLimit == 1_000)
        #expect(try Configuration.load(environment: ["MOMENTARY_STUDY_REGISTRATION_LIMIT": "20000"], dataDirectoryOverride: directory.path)
            .studyRegistrationLimit == 20_000)
        for bad in ["0", "-5", "many", "1000001"] {
            #expect(throws: ConfigurationError.self, "\(bad)") {
                try Configuration.load(environment: ["MOMENTARY_STUDY_REGISTRATION_LIMIT": bad], dataDirectoryOverride: directory.path)
            }
        }
    }

    @Test("the stream limits are whole MiB (batch 1–1024, default 16; day 1–1048576, default 1024), read into bytes")
    func streamLimits() throws {
        let directory = try temporaryDirectory()
        #expect(try Configuration.load(environment: [:], dataDirectoryOverride: directory.path).streamLimits
            == StreamUploadLimits(batchBytes: 16 << 20, dailyBytes: 1_024 << 20))
        let set = try Configuration.load(
            environment: ["MOMENTARY_STREAM_BATCH_LIMIT_MB": "4", "MOMENTARY_STREAM_DAILY_LIMIT_MB": "100"], dataDirectoryOverride: directory.path)
        #expect(set.streamLimits == StreamUploadLimits(batchBytes: 4 << 20, dailyBytes: 100 << 20))
        for (variable, bad) in [("MOMENTARY_STREAM_BATCH_LIMIT_MB", "0"), ("MOMENTARY_STREAM_BATCH_LIMIT_MB", "2048"),
                                ("MOMENTARY_STREAM_DAILY_LIMIT_MB", "lots"), ("MOMENTARY_STREAM_DAILY_LIMIT_MB", "-1")] {
            #expect(throws: ConfigurationError.self, "\(variable)=\(bad)") {
                try Configuration.load(environment: [variable: bad], dataDirectoryOverride: directory.path)
            }
        }
    }
}
