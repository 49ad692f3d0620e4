import Foundation
import MomentaryCore
import Testing

@Suite("Beiwe download files")
struct BeiweDownloadCSVTests {
    static let surveyID = "Xv1pQm8cR2nT7kLs4bW9dZ3e"

    @Test("UTC time and Beiwe's file times are written and read as Beiwe writes them")
    func times() {
        #expect(TimestampText.utcMilliseconds(1_741_442_531_209) == "2025-03-08T14:02:11.209")
        #expect(TimestampText.utcMilliseconds(1_741_615_200_061) == "2025-03-10T14:00:00.061")
        #expect(TimestampText.beiweFileTime(1_741_442_400) == "2025-03-08 14_00_00+00_00")
        #expect(TimestampText.seconds(ofBeiweFileTime: "2025-03-08 14_24_35+00_00") == 1_741_443_875)
        for bad in ["2025-03-08 14:24:35+00_00", "2025-03-08 24_00_00+00_00", "2025-03-08 14_24_35+01_00", "2025-3-8 14_24_35+00_00", "2025-03-08 +1_24_35+00_00"] {
            #expect(TimestampText.seconds(ofBeiweFileTime: bad) == nil, "\(bad)")
        }
    }

    @Test("a download's survey_timings loses UTC time and survey id, trims its header, and comes back the same")
    func surveyTimingsBothWays() throws {
        let download = """
            timestamp,UTC time,question id,survey id,question type,question text,question answer options,answer
            1741452012330,2025-03-08T16:40:12.330,Survey first rendered and displayed to user,\(Self.surveyID)
            1741452016452,2025-03-08T16:40:16.452,q1,\(Self.surveyID),Slider Question,Right now. how is your mood?,min = 1; max = 5,3
            """
        let phone = try BeiweDownloadCSV.phoneCSV(fromDownload: download, stream: .surveyTimings, surveyID: Self.surveyID)
        #expect(phone == """
            timestamp,question id,question type,question text,question answer options,answer
            1741452012330,Survey first rendered and displayed to user
            1741452016452,q1,Slider Question,Right now. how is your mood?,min = 1; max = 5,3
            """)
        let summary = try StreamBatchValidator.validate(Data(phone.utf8), as: .surveyTimings)
        #expect(summary.rowCount == 2 && summary.format == "Android")
        let lines = phone.split(separator: "\n")
        let back = [BeiweDownloadCSV.downloadHeader(ofPhoneHeader: lines[0], stream: .surveyTimings)]
            + lines.dropFirst().map { BeiweDownloadCSV.downloadRow($0, stream: .surveyTimings, surveyID: Self.surveyID) }
        #expect(back.joined(separator: "\n") == download)
    }

    @Test("old spaced headers are trimmed; survey_answers pass as they are; CRLF lines are read")
    func shapes() throws {
        let gps = "timestamp,UTC time, latitude, longitude, altitude, accuracy\r\n1741449909871,2025-03-08T16:05:09.871,51.5,-0.12,35.0,12.0\r\n"
        #expect(try BeiweDownloadCSV.phoneCSV(fromDownload: gps, stream: .gps, surveyID: nil)
            == "timestamp,latitude,longitude,altitude,accuracy\n1741449909871,51.5,-0.12,35.0,12.0\n")
        let answers = "question id,question type,question text,question answer options,answer\nq1,slider,Mood?,min = 1; max = 5,4"
        #expect(try BeiweDownloadCSV.phoneCSV(fromDownload: answers, stream: .surveyAnswers, surveyID: Self.surveyID) == answers)
    }

    @Test("a wrong or missing added column is named by line and column")
    func problems() {
        func problem(_ text: String, _ stream: PassiveStream = .proximity, surveyID: String? = nil) -> StreamBatchProblem? {
            do {
                _ = try BeiweDownloadCSV.phoneCSV(fromDownload: text, stream: stream, surveyID: surveyID)
                return nil
            } catch { return error }
        }
        let noUTC = problem("timestamp,event\n1741443231204,NearUser")
        #expect(noUTC?.line == 1 && noUTC?.column == "UTC time")
        let wrong = problem("timestamp,UTC time,event\n1741443231204,2025-03-08T14:13:51.204,NearUser\n1741443243204,2025-03-08T14:13:51.204,NotNearUser")
        #expect(wrong?.line == 3 && wrong?.column == "UTC time" && wrong?.message.contains("2025-03-08T14:14:03.204") == true)
        let short = problem("timestamp,UTC time,event\n1741443231204")
        #expect(short?.line == 2 && short?.column == "UTC time")
        let header = "timestamp,UTC time,question id,survey id,question type,question text,question answer options,answer,event"
        let otherSurvey = problem(header + "\n1741442402117,2025-03-08T14:00:02.117,,other,,,,,notified", .surveyTimings, surveyID: Self.surveyID)
        #expect(otherSurvey?.line == 2 && otherSurvey?.column == "survey id")
        let noSurveyColumn = problem("timestamp,UTC time,question id,question type", .surveyTimings, surveyID: Self.surveyID)
        #expect(noSurveyColumn?.line == 1 && noSurveyColumn?.column == "survey id")
        #expect(problem("") != nil)
    }

    @Test("Android's formats: spaced headers, gyro with accuracy, its power events; other headers are refused against the closest")
    func androidFormats() throws {
        let power = "timestamp, event\n1741449911071,Screen turned on\n1741451859971,Device Idle (Doze) state change signal received; device in idle state."
        #expect(try StreamBatchValidator.validate(Data(power.utf8), as: .powerState).format == "Android")
        let gyro = "timestamp,accuracy,x,y,z\n1741449909878,3,-0.0024,0.0012,0.0"
        #expect(try StreamBatchValidator.validate(Data(gyro.utf8), as: .gyro).format == "Android")
        #expect(try StreamBatchValidator.validate(Data("timestamp,x,y,z\n1741449909878,1,2,3".utf8), as: .gyro).format == "iOS")
        let iOSEvent = "timestamp,event\n1741449911071,Charging"
        let refused = try #require(throws: StreamBatchProblem.self) { try StreamBatchValidator.validate(Data(iOSEvent.utf8), as: .powerState) }
        #expect(refused.line == 2 && refused.column == "event", "an iOS event under Android's header")
        let header = try #require(throws: StreamBatchProblem.self) {
            try StreamBatchValidator.validate(Data("timestamp,accuracy,x,why,z\n1,2,3,4,5".utf8), as: .gyro)
        }
        #expect(header.line == 1 && header.column == "y" && header.message.contains("or iOS’s “timestamp,x,y,z”"), "\(header.message)")
    }
}

@Suite("Stream CSV records")
struct StreamCSVTests {
    @Test("records end at line breaks outside quotes and know their first line; fields keep their quotes")
    func records() {
        let text: Substring = "a,b\r\n1,\"two\nlines, and a comma\",3\n4,5,6"
        let records = StreamCSV.records(text)
        #expect(records.map(\.line) == [1, 2, 4])
        #expect(records.map(\.text) == ["a,b", "1,\"two\nlines, and a comma\",3", "4,5,6"])
        #expect(StreamCSV.fields(of: records[1].text) == ["1", "\"two\nlines, and a comma\"", "3"])
    }
}
