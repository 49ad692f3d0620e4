import Foundation
import MomentaryCore
import Testing

@Suite("Passive stream batches")
struct StreamBatchValidatorTests {
    /// One real-looking row per stream, in Beiwe's iOS format (seed 004).
    static let validRows: [PassiveStream: String] = [
        .gps: "1732521600000,51.5007,-0.1246,35.2,65.0",
        .accelerometer: "1732521600000,iPhone14;iOS 17.1,-0.0123,0.981,1e-05",
        .gyro: "1732521600000,0.01,-0.02,0.03",
        .magnetometer: "1732521600000,-23.5,4.25,-40",
        .devicemotion: "1732521600000,0.1,0.2,0.3,0.01,0.02,0.03,0,0,-1,0.001,0.002,0.003,high,20.1,-3.2,-41.7",
        .powerState: "1732521600000,Unplugged,87",
        .proximity: "1732521600000,NearUser",
        .reachability: "1732521600000,wifi",
        .surveyAnswers: "q1,Radio Button Question,\"How happy, right now?\",\"[\"\"1\"\",\"\"2\"\"]\",NO_ANSWER_SELECTED",
        .surveyTimings: "1732521600000,q1,Slider Question,How awake?,0-10,7,changed",
    ]

    /// A value each kind of column refuses.
    static func badValue(for kind: StreamColumn.Kind) -> String? {
        switch kind {
        case .timestamp: "1732521600" // seconds, not milliseconds
        case .number: "1.2.3"
        case .oneOf: "Sleeping"
        case .text: nil
        }
    }

    static func batch(_ stream: PassiveStream, _ rows: [String]) -> Data {
        Data(([stream.headerLine] + rows).joined(separator: "\n").utf8)
    }

    @Test("the ten streams have the seed's exact headers")
    func headers() {
        #expect(PassiveStream.allCases.map(\.rawValue) == [
            "gps", "accelerometer", "gyro", "magnetometer", "devicemotion", "power_state",
            "proximity", "reachability", "survey_answers", "survey_timings",
        ])
        #expect(PassiveStream.gps.headerLine == "timestamp,latitude,longitude,altitude,accuracy")
        #expect(PassiveStream.accelerometer.headerLine == "timestamp,accuracy,x,y,z")
        #expect(PassiveStream.powerState.headerLine == "timestamp,event,level")
        #expect(PassiveStream.devicemotion.header.count == 17)
        #expect(PassiveStream.surveyAnswers.headerLine == "question id,question type,question text,question answer options,answer")
        #expect(PassiveStream.surveyTimings.headerLine == "timestamp,question id,question type,question text,question answer options,answer,event")
        #expect(!PassiveStream.surveyAnswers.hasTimestamps)
    }

    @Test("a valid row of every stream is accepted and counted", arguments: PassiveStream.allCases)
    func validRow(stream: PassiveStream) throws {
        let row = try #require(Self.validRows[stream])
        let summary = try StreamBatchValidator.validate(Self.batch(stream, [row, row]), as: stream)
        #expect(summary.rowCount == 2)
        if stream.hasTimestamps {
            #expect(summary.hours == [.init(start: 1_732_521_600_000, rowCount: 2, first: 1_732_521_600_000, last: 1_732_521_600_000)])
        } else {
            #expect(summary.hours.isEmpty)
        }
    }

    @Test("a bad value in any checked column of any stream names line and column", arguments: PassiveStream.allCases)
    func badValues(stream: PassiveStream) throws {
        let fields = try #require(Self.validRows[stream]).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        var checked = 0
        for (position, column) in stream.columns.enumerated() {
            guard let bad = Self.badValue(for: column.kind) else { continue }
            var changed = fields
            // Rows of this table quote no checked column, so the position is the column's.
            changed[position] = bad
            let good = try #require(Self.validRows[stream])
            let data = Self.batch(stream, [good, good, changed.joined(separator: ",")])
            let problem = try #require(throws: StreamBatchProblem.self) { try StreamBatchValidator.validate(data, as: stream) }
            #expect(problem.line == 4, "\(stream) \(column.name)")
            #expect(problem.column == column.name)
            #expect(problem.message.contains(bad))
            checked += 1
        }
        #expect(checked == stream.columns.filter { Self.badValue(for: $0.kind) != nil }.count)
    }

    @Test("the header must be exact: the first differing column is named")
    func header() throws {
        let data = Data("timestamp,X,y,z\n1732521600000,1,2,3\n".utf8)
        let problem = try #require(throws: StreamBatchProblem.self) { try StreamBatchValidator.validate(data, as: .gyro) }
        #expect(problem.line == 1)
        #expect(problem.column == "x")
        let short = try #require(throws: StreamBatchProblem.self) {
            try StreamBatchValidator.validate(Data("timestamp,x,y\n".utf8), as: .gyro)
        }
        #expect(short.column == "z")
        let empty = try #require(throws: StreamBatchProblem.self) { try StreamBatchValidator.validate(Data(), as: .gyro) }
        #expect(empty.line == 1)
    }

    @Test("missing and extra columns, empty lines and header-only batches are refused")
    func shapes() throws {
        func problem(_ rows: [String], _ stream: PassiveStream = .gyro) throws -> StreamBatchProblem {
            try #require(throws: StreamBatchProblem.self) { try StreamBatchValidator.validate(Self.batch(stream, rows), as: stream) }
        }
        let missing = try problem(["1732521600000,1,2,3", "1732521600001,1,2"])
        #expect(missing.line == 3 && missing.column == "z")
        let extra = try problem(["1732521600000,1,2,3,4"])
        #expect(extra.line == 2 && extra.column == nil)
        let empty = try problem(["1732521600000,1,2,3", "", "1732521600001,1,2,3"])
        #expect(empty.line == 3)
        let headerOnly = try problem([])
        #expect(headerOnly.message.contains("no rows"))
        let unclosed = try problem(["1732521600000,q1,t,\"never closed,o,a,present"], .surveyTimings)
        #expect(unclosed.line == 2 && unclosed.column == "question text")
        let empty2 = try problem(["1732521600000,,2,3"])
        #expect(empty2.column == "x", "an empty number is not a number")
    }

    @Test("CRLF line endings, a final newline and quoted text with line breaks are accepted")
    func lineEndings() throws {
        let text = PassiveStream.surveyTimings.headerLine
            + "\r\n1732521600000,q1,Free Response,\"Say, \"\"anything\"\"\nover two lines\",,Do,changed\r\n"
            + "1732521600500,q1,Free Response,x,,Dog,changed\r\n"
        let summary = try StreamBatchValidator.validate(Data(text.utf8), as: .surveyTimings)
        #expect(summary.rowCount == 2)
        #expect(summary.first == 1_732_521_600_000 && summary.last == 1_732_521_600_500)
        let bad = text + "1732521600600,q1,Free Response,x,,Dogg,typed\r\n"
        let problem = try #require(throws: StreamBatchProblem.self) { try StreamBatchValidator.validate(Data(bad.utf8), as: .surveyTimings) }
        #expect(problem.line == 5, "the quoted line break counts as a line")
        #expect(problem.column == "event")
    }

    @Test("rows are counted per UTC hour with each hour's first and last time, in any order")
    func hours() throws {
        let hour: Int64 = 3_600_000
        let base: Int64 = 1_732_521_600_000 // an hour boundary
        let times = [base + hour + 5, base + 10, base + hour - 1, base + 2 * hour + 7, base + 3]
        let data = Self.batch(.proximity, times.map { "\($0),NotNearUser" })
        let summary = try StreamBatchValidator.validate(data, as: .proximity)
        #expect(summary.hours == [
            .init(start: base, rowCount: 3, first: base + 3, last: base + hour - 1),
            .init(start: base + hour, rowCount: 1, first: base + hour + 5, last: base + hour + 5),
            .init(start: base + 2 * hour, rowCount: 1, first: base + 2 * hour + 7, last: base + 2 * hour + 7),
        ])
    }

    @Test("numbers as phones print them are accepted; other text is not")
    func numbers() throws {
        for good in ["0", "-1", "+2.5", ".5", "3.", "1e-05", "-2.5E+3", "42"] {
            #expect(throws: Never.self) { try StreamBatchValidator.validate(Self.batch(.gyro, ["1732521600000,\(good),0,0"]), as: .gyro) }
        }
        for bad in ["", "-", ".", "e5", "1e", "nan", "1,5", "0x10", "\"1\"", " 1"] {
            #expect(throws: StreamBatchProblem.self, "\(bad)") {
                try StreamBatchValidator.validate(Self.batch(.gyro, ["1732521600000,0,0,\(bad)"]), as: .gyro)
            }
        }
    }
}
