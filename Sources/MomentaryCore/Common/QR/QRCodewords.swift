/// How one version's codewords are split at one correction level, and the codewords of a text:
/// the data bit stream, cut into Reed–Solomon blocks, each with its error correction, interleaved.
struct QRBlocks {
    let version: Int
    let correction: QRCode.Correction
    let blockCount: Int
    let correctionPerBlock: Int
    /// Every codeword the version holds, data and error correction.
    let totalCodewords: Int

    init(version: Int, correction: QRCode.Correction) {
        precondition((1...40).contains(version), "QR versions are 1…40")
        self.version = version
        self.correction = correction
        blockCount = Self.blockCounts[correction.rawValue][version - 1]
        correctionPerBlock = Self.correctionCodewords[correction.rawValue][version - 1]
        totalCodewords = QRMatrix.dataModuleCounts[version - 1] / 8
    }

    var dataCodewords: Int { totalCodewords - blockCount * correctionPerBlock }
    /// The byte-mode character count takes 8 bits up to version 9 and 16 from version 10.
    var countBits: Int { version < 10 ? 8 : 16 }
    /// Bytes of text that fit after the 4-bit mode indicator and the count.
    var byteCapacity: Int { (dataCodewords * 8 - 4 - countBits) / 8 }

    /// The codewords to place for `bytes` (at most `byteCapacity` of them), in placement order.
    func codewords(for bytes: [UInt8]) -> [UInt8] {
        precondition(bytes.count <= byteCapacity)
        var bits = [Bool]()
        func append(_ value: Int, _ count: Int) {
            for shift in stride(from: count - 1, through: 0, by: -1) { bits.append(value >> shift & 1 == 1) }
        }
        append(0b0100, 4) // byte mode
        append(bytes.count, countBits)
        for byte in bytes { append(Int(byte), 8) }
        // Up to four zero bits end the data, then zeros to a whole byte.
        append(0, min(4, dataCodewords * 8 - bits.count))
        append(0, (8 - bits.count % 8) % 8)
        var data = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        // The standard's pad codewords, alternating, fill what is left.
        for index in 0..<(dataCodewords - data.count) { data.append(index % 2 == 0 ? 0xEC : 0x11) }
        return interleaved(data)
    }

    /// Data cut into blocks, the shorter blocks first (those after hold one codeword more), each
    /// block's error correction computed; then the data codewords taken column by column across the
    /// blocks, and the error correction likewise, so a burst of damage spreads over many blocks.
    func interleaved(_ data: [UInt8]) -> [UInt8] {
        let shortLength = dataCodewords / blockCount
        let longBlocks = dataCodewords % blockCount
        var blocks: [ArraySlice<UInt8>] = []
        var start = 0
        for index in 0..<blockCount {
            let length = shortLength + (index >= blockCount - longBlocks ? 1 : 0)
            blocks.append(data[start..<start + length])
            start += length
        }
        let generator = QRReedSolomon.generator(degree: correctionPerBlock)
        let corrections = blocks.map { QRReedSolomon.remainder(of: Array($0), generator: generator) }
        var result: [UInt8] = []
        result.reserveCapacity(totalCodewords)
        for column in 0...shortLength {
            for block in blocks where column < block.count { result.append(block[block.startIndex + column]) }
        }
        for column in 0..<correctionPerBlock {
            for correction in corrections { result.append(correction[column]) }
        }
        return result
    }

    // ISO/IEC 18004 Table 9, by correction level (L, M, Q, H) and then version 1…40.
    private static let correctionCodewords: [[Int]] = [
        [7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28,
         28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
        [10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
         26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28],
        [13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30,
         28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
        [17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28,
         30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
    ]
    private static let blockCounts: [[Int]] = [
        [1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8,
         8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25],
        [1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
         17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49],
        [1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20,
         23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68],
        [1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25,
         25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81],
    ]
}

/// Reed–Solomon error correction over GF(256) with the QR polynomial x⁸+x⁴+x³+x²+1 (0x11D),
/// generator roots α⁰…αⁿ⁻¹ with α = 2.
enum QRReedSolomon {
    /// α^i for i in 0..<510 (twice round, so a sum of two logarithms needs no reduction), and log.
    private static let tables: (exp: [UInt8], log: [Int]) = {
        var exp = [UInt8](repeating: 0, count: 510)
        var log = [Int](repeating: 0, count: 256)
        var value = 1
        for power in 0..<255 {
            exp[power] = UInt8(value)
            exp[power + 255] = UInt8(value)
            log[value] = power
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        return (exp, log)
    }()

    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        a == 0 || b == 0 ? 0 : tables.exp[tables.log[Int(a)] + tables.log[Int(b)]]
    }

    /// (x − α⁰)(x − α¹)…(x − αⁿ⁻¹), coefficients from the highest power down (the first is 1).
    static func generator(degree: Int) -> [UInt8] {
        var polynomial: [UInt8] = [1]
        for root in 0..<degree {
            var next = polynomial + [0]
            for (index, coefficient) in polynomial.enumerated() {
                next[index + 1] ^= multiply(coefficient, tables.exp[root])
            }
            polynomial = next
        }
        return polynomial
    }

    /// The error-correction codewords of `data`: the remainder of data·xⁿ divided by the generator.
    static func remainder(of data: [UInt8], generator: [UInt8]) -> [UInt8] {
        var remainder = [UInt8](repeating: 0, count: generator.count - 1)
        for byte in data {
            let factor = byte ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            for index in remainder.indices { remainder[index] ^= multiply(generator[index + 1], factor) }
        }
        return remainder
    }
}
