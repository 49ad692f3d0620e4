import Foundation
import MomentaryCore
import Testing

@Suite("Merging stream batches")
struct StreamRowMergeTests {
    @Test("overlapping batches give one time-ordered CSV with each identical row once")
    func overlapping() {
        var merge = StreamRowMerge(stream: .reachability)
        merge.add(batch: Data("timestamp,event\n1732521600300,wifi\n1732521600100,cellular\n".utf8))
        merge.add(batch: Data("timestamp,event\r\n1732521600100,cellular\r\n1732521600100,unreachable\r\n1732521600200,wifi".utf8))
        #expect(String(decoding: merge.csv(), as: UTF8.self) == """
            timestamp,event
            1732521600100,cellular
            1732521600100,unreachable
            1732521600200,wifi
            1732521600300,wifi

            """)
    }

    @Test("a time range keeps only the rows inside it; survey answers keep every row in arrival order")
    func rangeAndUntimed() {
        var merge = StreamRowMerge(stream: .proximity)
        merge.add(batch: Data("timestamp,event\n1000000000001,NearUser\n1000000000005,NotNearUser\n1000000000009,NearUser\n".utf8),
                  times: 1_000_000_000_005..<1_000_000_000_009)
        #expect(String(decoding: merge.csv(), as: UTF8.self) == "timestamp,event\n1000000000005,NotNearUser\n")

        var answers = StreamRowMerge(stream: .surveyAnswers)
        let header = PassiveStream.surveyAnswers.headerLine
        answers.add(batch: Data("\(header)\nq2,Free Response,\"Why,\nreally?\",,b\nq1,Slider,How?,0-10,5\n".utf8))
        answers.add(batch: Data("\(header)\nq1,Slider,How?,0-10,5\n".utf8))
        #expect(String(decoding: answers.csv(), as: UTF8.self)
            == "\(header)\nq2,Free Response,\"Why,\nreally?\",,b\nq1,Slider,How?,0-10,5\nq1,Slider,How?,0-10,5\n")
    }
}
