import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import MomentaryCore
import Testing

/// The QR encoder against facts of ISO/IEC 18004 and vectors computed apart from it (Python's
/// `reedsolo`, zxing-cpp's encoder). Whether phones can read the codes is checked outside the suite
/// by decoding hundreds of them with zxing-cpp (Tests/Browser/qr_decode.py).
@Suite("QR codes")
struct QRCodeTests {
    static let joinLink = "https://research.example.org/join/mood-study?code=ABCD2345"

    /// The 15 format bits, most significant first, along the standard's path for each copy: around
    /// the top-left finder (row 8 left to right, then column 8 upwards, skipping the timing
    /// modules), and split between the bottom-left (column 8 upwards) and top-right (row 8) finders.
    private static func formatBits(_ code: QRCode) -> (first: Int, second: Int) {
        let n = code.size
        let first = (0...5).map { ($0, 8) } + [(7, 8), (8, 8), (8, 7)] + (0...5).reversed().map { (8, $0) }
        let second = (n - 7...n - 1).reversed().map { (8, $0) } + (n - 8...n - 1).map { ($0, 8) }
        func read(_ path: [(Int, Int)]) -> Int { path.reduce(0) { $0 << 1 | (code.isDark(x: $1.0, y: $1.1) ? 1 : 0) } }
        return (read(first), read(second))
    }

    @Test("picks the smallest version that holds the UTF-8 bytes, at each correction level")
    func versions() throws {
        // Byte-mode capacities (ISO/IEC 18004 Table 7), L M Q H; from version 10 the count takes 16 bits.
        let capacities: [(version: Int, bytes: [Int])] = [
            (1, [17, 14, 11, 7]), (9, [230, 180, 130, 98]), (10, [271, 213, 151, 119]), (40, [2953, 2331, 1663, 1273]),
        ]
        for (version, bytes) in capacities {
            for (correction, count) in zip(QRCode.Correction.allCases, bytes) {
                let full = try QRCode(String(repeating: "a", count: count), correction: correction)
                #expect(full.version == version && full.size == 17 + 4 * version, "\(count) bytes at \(correction)")
                if version < 40 {
                    #expect(try QRCode(String(repeating: "a", count: count + 1), correction: correction).version == version + 1)
                }
            }
        }
        #expect(try QRCode("ABCDEFGHIJKLMN").size == 21) // 14 bytes: version 1 at M
        #expect(try QRCode("ABCDEFGHIJKLMNO").size == 25)
        #expect(try QRCode(Self.joinLink).size == 33) // 59 bytes: version 4 (up to 62 at M)
        #expect(try QRCode(Self.joinLink + "&lang=de-AT").size == 37) // 70 bytes: version 5
        // ü, 中 and 😀 take 2, 3 and 4 bytes: 14 bytes in 5 characters.
        #expect(try QRCode("ü中😀😀a").version == 1)
        #expect(try QRCode("ü中😀😀ab").version == 2)
        #expect(try QRCode("").version == 1)
    }

    @Test("refuses a text longer than version 40 holds, saying by how much")
    func tooLong() throws {
        #expect(throws: QRCode.Error.tooLong(bytes: 2954, capacity: 2953)) {
            try QRCode(String(repeating: "x", count: 2954), correction: .low)
        }
        #expect(throws: QRCode.Error.tooLong(bytes: 1275, capacity: 1273)) {
            try QRCode(String(repeating: "ü", count: 637) + "a", correction: .high)
        }
        let message = QRCode.Error.tooLong(bytes: 2954, capacity: 2953).localizedDescription
        #expect(message.contains("2954") && message.contains("2953"))
    }

    @Test("has the three finders with their separators, the timing patterns and the dark module")
    func functionPatterns() throws {
        for text in ["a", Self.joinLink, String(repeating: "q", count: 500)] {
            let code = try QRCode(text)
            let n = code.size
            for (left, top) in [(0, 0), (n - 7, 0), (0, n - 7)] {
                for dy in -1...7 {
                    for dx in -1...7 {
                        let (x, y) = (left + dx, top + dy)
                        guard (0..<n).contains(x), (0..<n).contains(y) else { continue }
                        let ring = max(abs(dx - 3), abs(dy - 3))
                        // Dark centre 3×3 and outer ring, light ring between, light separator outside.
                        #expect(code.isDark(x: x, y: y) == (ring <= 1 || ring == 3), "finder at (\(left), \(top)): module (\(x), \(y)) of \(text.prefix(10))")
                    }
                }
            }
            for index in 8..<n - 8 {
                #expect(code.isDark(x: index, y: 6) == index.isMultiple(of: 2), "row timing at \(index)")
                #expect(code.isDark(x: 6, y: index) == index.isMultiple(of: 2), "column timing at \(index)")
            }
            #expect(code.isDark(x: 8, y: n - 8))
            #expect(!code.isDark(x: -1, y: 0) && !code.isDark(x: n, y: n - 1))
        }
    }

    @Test("writes the standard's format bits for the level and mask, both copies")
    func formatInformation() throws {
        // ISO/IEC 18004 Annex C: M with mask 101 is 100000011001110; Table C.1: L with mask 000 is 111011111000100,
        // H with mask 111 is 000100000111011, Q with mask 010 is 011111100110001.
        let cases: [(QRCode.Correction, Int, Int)] = [
            (.medium, 5, 0b100000011001110), (.low, 0, 0b111011111000100),
            (.high, 7, 0b000100000111011), (.quartile, 2, 0b011111100110001),
        ]
        for (correction, mask, expected) in cases {
            let code = try QRCode("format", correction: correction, mask: mask)
            let bits = Self.formatBits(code)
            #expect(bits.first == expected && bits.second == expected, "\(correction) mask \(mask)")
        }
        for mask in 0...7 {
            #expect(try QRCode("any mask", mask: mask).mask == mask)
        }
    }

    @Test("writes the version information from version 7, in both corners")
    func versionInformation() throws {
        // ISO/IEC 18004 Table D.1: version 7 is 000111110010010100, version 21 is 010101011010000011.
        for (bytes, version, expected) in [(140, 7, 0x07C94), (900, 21, 0x15683)] {
            let code = try QRCode(String(repeating: "v", count: bytes), correction: .low)
            #expect(code.version == version)
            let n = code.size
            var bottomLeft = 0, topRight = 0
            for bit in 0..<18 { // least significant first, three to a column (row) of the block
                if code.isDark(x: bit / 3, y: n - 11 + bit % 3) { bottomLeft |= 1 << bit }
                if code.isDark(x: n - 11 + bit % 3, y: bit / 3) { topRight |= 1 << bit }
            }
            #expect(bottomLeft == expected && topRight == expected, "version \(version)")
        }
    }

    @Test("computes Reed–Solomon codewords over GF(256) as reedsolo does")
    func reedSolomon() {
        // "hello" in byte mode, version 1-M: mode 0100, count 5, the bytes, terminator, pad codewords;
        // the ten error-correction codewords from Python's reedsolo.RSCodec(10) (prim 0x11D, fcr 0).
        let data: [UInt8] = [64, 86, 134, 86, 198, 198, 240, 236, 17, 236, 17, 236, 17, 236, 17, 236]
        let correction: [UInt8] = [22, 79, 223, 212, 140, 17, 209, 92, 47, 183]
        #expect(QRBlocks(version: 1, correction: .medium).codewords(for: Array("hello".utf8)) == data + correction)
        // The standard's "HELLO WORLD" alphanumeric 1-M data and its error correction.
        let hello: [UInt8] = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17]
        #expect(QRReedSolomon.remainder(of: hello, generator: QRReedSolomon.generator(degree: 10))
            == [196, 35, 39, 119, 235, 215, 231, 226, 93, 23])
    }

    @Test("interleaves the blocks of a version with blocks of two lengths")
    func interleaving() {
        // Version 5-Q: 2 blocks of 15 then 2 of 16 data codewords, 18 error-correction codewords each.
        // Expected from a separate Python reading of the standard, error correction by reedsolo.
        let blocks = QRBlocks(version: 5, correction: .quartile)
        #expect((blocks.totalCodewords, blocks.dataCodewords, blocks.blockCount) == (134, 62, 4))
        let expected: [UInt8] = [
            67, 38, 246, 246, 166, 54, 166, 54, 135, 130, 246, 246, 71, 230, 150, 70, 71, 87, 226, 83, 7, 134, 246, 212, 51, 22,
            214, 20, 162, 215, 246, 36, 242, 6, 246, 52, 247, 198, 66, 67, 38, 82, 215, 35, 87, 230, 55, 51, 54, 247, 71, 67, 86,
            38, 86, 80, 23, 114, 71, 236, 147, 17, 245, 144, 174, 158, 110, 196, 118, 223, 23, 57, 250, 73, 27, 73, 40, 118, 66,
            240, 103, 19, 210, 19, 216, 93, 47, 81, 37, 192, 83, 60, 167, 210, 210, 98, 216, 18, 122, 159, 61, 60, 172, 14, 159,
            94, 206, 248, 7, 173, 35, 77, 102, 255, 140, 215, 40, 58, 139, 236, 12, 208, 164, 22, 173, 72, 10, 218, 147, 188, 204,
            168, 163, 80,
        ]
        #expect(blocks.codewords(for: Array(Self.joinLink.utf8)) == expected)
    }

    @Test("draws a link module for module as zxing-cpp's encoder does, mask included")
    func knownSymbol() throws {
        // zxing-cpp's writer at level M; it too uses byte mode throughout for lower-case text and
        // punctuation (digits or capitals may make it switch modes, and so draw another symbol).
        let expected = [
            "#######..##..#..##.##.##..#######", "#.....#....#######..#.#...#.....#", "#.###.#.#.##.#..###.#...#.#.###.#",
            "#.###.#.#.#...#.#..####.#.#.###.#", "#.###.#.##...#.#..#..#..#.#.###.#", "#.....#.######.##.#.#.....#.....#",
            "#######.#.#.#.#.#.#.#.#.#.#######", "........#..##..#..#..#..#........", "#.#####..#.#####.#....###.#####..",
            ".##..#.#.#.##.....####.#..##.##.#", ".#....#.#.##...##.#.##...##.#.#..", "..#.#..#....#.#.#....##..#..###.#",
            "#.##..#.#..##..#..#..#...#.###.##", ".###.#..##..#.####..####.###.#.##", ".######.#.#........#....####.#.#.",
            ".###....#.##..#.#.#####..##..##..", "##.#.###.##..##..#.#..#.##.##...#", "...###..#.##.##.#####..#.###.##.#",
            ".##.#####.#.####.#....#....##.##.", "##.###....#.#.#..##....#########.", ".##..####....#.##..####.##.###..#",
            "#...##.##....###..#....#.##..#..#", "#....###..#...###...##......####.", "#......##.#...##.....#....#.###..",
            "#.##..##.##....####.#...#####..##", "........##...#..#.####.##...#.#.#", "#######..#.######.#.##.##.#.#.##.",
            "#.....#.####..#.#...#####...#####", "#.###.#.##...#....#..#..######.##", "#.###.#.##.##.####..#.####..##..#",
            "#.###.#.###.##...#.#..###.##.#...", "#.....#..#####..#.####.#.#..###..", "#######.##...##..#.#..###..#...#.",
        ]
        let code = try QRCode("https://research.example.org/join/mood-study")
        let drawn = (0..<code.size).map { y in String((0..<code.size).map { code.isDark(x: $0, y: y) ? "#" : "." }) }
        #expect(drawn == expected)
        #expect((code.version, code.mask) == (4, 2))
    }

    @Test("places alignment patterns at the standard's centres")
    func alignment() throws {
        // ISO/IEC 18004 Table E.1.
        let table: [Int: [Int]] = [
            1: [], 2: [6, 18], 6: [6, 34], 7: [6, 22, 38], 14: [6, 26, 46, 66], 15: [6, 26, 48, 70], 16: [6, 26, 50, 74],
            22: [6, 26, 50, 74, 98], 25: [6, 32, 58, 84, 110], 32: [6, 34, 60, 86, 112, 138],
            36: [6, 24, 50, 76, 102, 128, 154], 40: [6, 30, 58, 86, 114, 142, 170],
        ]
        for (version, centres) in table {
            #expect(QRMatrix.alignmentCentres(version: version) == centres, "version \(version)")
        }
        let code = try QRCode(String(repeating: "a", count: 140), correction: .low) // version 7
        for (x, y) in [(22, 22), (6, 22), (22, 38), (38, 38)] {
            for dy in -2...2 {
                for dx in -2...2 {
                    #expect(code.isDark(x: x + dx, y: y + dy) == (max(abs(dx), abs(dy)) != 1), "alignment at (\(x), \(y))")
                }
            }
        }
    }

    @Test("inverts the data modules by the standard's mask conditions (i row, j column)")
    func maskPatterns() throws {
        let conditions: [(Int, Int) -> Bool] = [
            { i, j in (i + j) % 2 == 0 }, { i, _ in i % 2 == 0 }, { _, j in j % 3 == 0 }, { i, j in (i + j) % 3 == 0 },
            { i, j in (i / 2 + j / 3) % 2 == 0 }, { i, j in i * j % 2 + i * j % 3 == 0 },
            { i, j in (i * j % 2 + i * j % 3) % 2 == 0 }, { i, j in ((i + j) % 2 + i * j % 3) % 2 == 0 },
        ]
        var unmasked = QRMatrix(version: 1)
        unmasked.place(QRBlocks(version: 1, correction: .low).codewords(for: Array("mask".utf8)))
        for (mask, inverts) in conditions.enumerated() {
            let masked = try QRCode("mask", correction: .low, mask: mask)
            // Rows and columns 9…20 of version 1 are all data.
            for i in 9...20 {
                for j in 9...20 {
                    #expect(masked.isDark(x: j, y: i) == (unmasked[j, i] != inverts(i, j)), "mask \(mask) at row \(i), column \(j)")
                }
            }
        }
    }

    @Test("scores runs and finder look-alikes in a line as the standard does")
    func linePenalties() {
        func line(_ modules: String) -> [Bool] { modules.map { $0 == "1" } }
        #expect(QRMatrix.linePenalty(line("1010")) == 0)
        #expect(QRMatrix.linePenalty(line("11111")) == 3) // a run of five: 3
        #expect(QRMatrix.linePenalty(line("1111111")) == 5) // seven: 3 + 2
        #expect(QRMatrix.linePenalty(line("10111010000")) == 40) // 1:1:3:1:1 then four light
        #expect(QRMatrix.linePenalty(line("0000010111010")) == 43) // five light (3), four light before the look-alike (40)
        #expect(QRMatrix.linePenalty(line("011011101")) == 40) // outside the symbol is light: the quiet zone
        #expect(QRMatrix.linePenalty(line("1101110100101")) == 0) // a look-alike with dark on both sides
    }

    @Test("chooses the mask with the lowest penalty")
    func maskChoice() throws {
        for text in ["a", Self.joinLink, String(repeating: "mood ", count: 40)] {
            let code = try QRCode(text, correction: .quartile)
            var matrix = QRMatrix(version: code.version)
            matrix.place(QRBlocks(version: code.version, correction: .quartile).codewords(for: Array(text.utf8)))
            let penalties = (0...7).map { matrix.masked($0, correction: .quartile).penalty }
            #expect(penalties[code.mask] == penalties.min(), "\(penalties)")
        }
    }

    @Test("draws a well-formed SVG whose path is exactly the dark modules, with the title escaped")
    func svg() throws {
        let code = try QRCode(Self.joinLink)
        let title = "Join <Mood> & \"Study\" 'ü'\u{1}"
        let svg = code.svg(moduleSize: 5, quietZone: 4, title: title)
        let document = try SVGReading(svg)
        let root = try #require(document.elements.first)
        #expect(root.name == "svg" && root.attributes["xmlns"] == "http://www.w3.org/2000/svg")
        #expect(root.attributes["width"] == "205" && root.attributes["height"] == "205" && root.attributes["viewBox"] == "0 0 41 41")
        #expect(root.attributes["shape-rendering"] == "crispEdges" && root.attributes["role"] == "img")
        #expect(document.title == "Join <Mood> & \"Study\" 'ü'")
        #expect(svg.contains("<title>Join &lt;Mood&gt; &amp; &quot;Study&quot; &#39;ü&#39;</title>"))
        let rect = try #require(document.elements.first { $0.name == "rect" })
        #expect(rect.attributes["fill"] == "#fff" && rect.attributes["width"] == "41")
        let paths = document.elements.filter { $0.name == "path" }
        #expect(paths.count == 1)
        // Paint the path's runs (M x y h w v1 h-w z) and compare with the modules, quiet zone included.
        var painted = Set<[Int]>()
        let scanner = Scanner(string: try #require(paths.first?.attributes["d"]))
        while !scanner.isAtEnd {
            guard scanner.scanString("M") != nil, let x = scanner.scanInt(), let y = scanner.scanInt(), scanner.scanString("h") != nil,
                  let width = scanner.scanInt(), scanner.scanString("v1h-") != nil, scanner.scanInt() == width, scanner.scanString("z") != nil
            else { Issue.record("unexpected path at \(scanner.currentIndex)"); break }
            for column in x..<x + width { painted.insert([column, y]) }
        }
        let dark = Set((0..<41).flatMap { y in (0..<41).compactMap { x in code.isDark(x: x - 4, y: y - 4) ? [x, y] : nil } })
        #expect(painted == dark)

        let untitled = try SVGReading(code.svg())
        #expect(untitled.title == nil && untitled.elements.first?.attributes["aria-hidden"] == "true")
        #expect(untitled.elements.first?.attributes["width"] == "164")
    }
}

/// The elements of an SVG in document order and its title's text, through XMLParser.
private final class SVGReading: NSObject, XMLParserDelegate {
    private(set) var elements: [(name: String, attributes: [String: String])] = []
    private(set) var title: String?
    private var inTitle = false

    init(_ svg: String) throws {
        super.init()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = self
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.coderReadCorrupt) }
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        elements.append((elementName, attributes))
        if elementName == "title" { inTitle = true; title = "" }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inTitle { title? += string }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        if elementName == "title" { inTitle = false }
    }
}
