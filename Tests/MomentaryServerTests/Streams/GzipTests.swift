import Foundation
@testable import MomentaryServer
import Testing

@Suite("gzip")
struct GzipTests {
    static func tool(_ arguments: [String], input: Data) throws -> Data {
        let directory = try TestScratch.folder("momentary-gzip")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("batch.csv")
        try input.write(to: file)
        let output = Pipe()
        let child = try ChildProcess("/usr/bin/gzip", arguments + [file.path], standardOutput: output.fileHandleForWriting.fileDescriptor)
        try output.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        child.waitForExit()
        return data
    }

    @Test("what the gzip tool writes (with its file name field) is read, and what we write the tool reads")
    func interoperates() throws {
        let csv = Data((0..<5_000).map { "17747712\(String(format: "%05d", $0 % 100_000)),0.\($0 % 97),-0.98,0.1\n" }.joined().utf8)
        let fromTool = try Self.tool(["-c", "-9"], input: csv)
        #expect(fromTool[3] & 0x08 != 0, "the tool names the file")
        #expect(try Gzip.decompress(fromTool, limit: csv.count) == csv)
        #expect(throws: Gzip.Failure.tooLarge(limit: csv.count - 1)) { try Gzip.decompress(fromTool, limit: csv.count - 1) }
        #expect(try Self.tool(["-d", "-c"], input: try Gzip.compress(csv)) == csv)
    }

    @Test("damaged or foreign bytes are refused")
    func refuses() throws {
        let text = Data("timestamp,event\n1774771200000,wifi\n".utf8)
        let good = try Gzip.compress(text)
        #expect(try Gzip.decompress(good, limit: 1 << 20) == text, "a small batch round-trips")
        #expect(try Self.tool(["-d", "-c"], input: good) == text)
        var flipped = good
        flipped[12] ^= 0xFF
        var wrongSize = good
        wrongSize[wrongSize.count - 1] ^= 0x01
        for bad in [Data("plain text, not gzip at all".utf8), good.prefix(good.count - 1), flipped, wrongSize, Data()] {
            #expect(throws: Gzip.Failure.self) { try Gzip.decompress(bad, limit: 1 << 20) }
        }
    }

    @Test("several members one after another (cat a.gz b.gz) are one batch; junk after a member is refused")
    func multipleMembers() throws {
        let first = Data("timestamp,event\n1774771200000,wifi\n".utf8)
        let second = Data("1774771260000,cell\n".utf8)
        let joined = try Self.tool(["-c"], input: first) + (try Gzip.compress(second))
        #expect(try Self.tool(["-d", "-c"], input: joined) == first + second, "the gzip tool reads it as one text")
        #expect(try Gzip.decompress(joined, limit: 1 << 20) == first + second)
        #expect(throws: Gzip.Failure.tooLarge(limit: first.count)) { try Gzip.decompress(joined, limit: first.count) }
        for bad in [joined + Data([0, 0, 0, 0]), joined + Data("<html>".utf8), joined.prefix(joined.count - 3)] {
            #expect(throws: Gzip.Failure.self) { try Gzip.decompress(bad, limit: 1 << 20) }
        }
    }
}
