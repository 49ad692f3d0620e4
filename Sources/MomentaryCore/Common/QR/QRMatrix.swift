/// The modules of one version's symbol: the patterns every symbol of that size shares (finders,
/// timing, alignment, the format and version areas), then the codewords, then a mask.
struct QRMatrix: Sendable {
    let version: Int
    let size: Int
    private(set) var dark: [Bool]
    /// Modules that are not data: the patterns and the format and version areas. Masks skip them.
    private var reserved: [Bool]

    init(version: Int) {
        self.version = version
        size = 17 + 4 * version
        dark = Array(repeating: false, count: size * size)
        reserved = dark
        for index in 0..<size {
            setPattern(index, 6, index % 2 == 0) // timing: alternating, dark at both ends
            setPattern(6, index, index % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            // A finder is rings of 7, 5, 3 (dark, light, dark) around a dark centre; the ring at
            // distance 4 is its light separator, clipped at the symbol's edge.
            for dy in -4...4 {
                for dx in -4...4 where (0..<size).contains(x + dx) && (0..<size).contains(y + dy) {
                    let ring = max(abs(dx), abs(dy))
                    setPattern(x + dx, y + dy, ring != 2 && ring != 4)
                }
            }
        }
        let centres = Self.alignmentCentres(version: version)
        for y in centres {
            // Alignment patterns go on every pair of centres except the three under the finders.
            for x in centres where !((x == 6 && y == 6) || (x == 6 && y == size - 7) || (x == size - 7 && y == 6)) {
                for dy in -2...2 {
                    for dx in -2...2 { setPattern(x + dx, y + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        drawFormat(0) // reserves the area; the real bits go in with the mask
        if version >= 7 {
            // Least significant bit first: a 6×3 block beside the top-right finder, its transpose
            // above the bottom-left one.
            let bits = Self.versionBits(version)
            for index in 0..<18 {
                let on = bits >> index & 1 == 1
                setPattern(size - 11 + index % 3, index / 3, on)
                setPattern(index / 3, size - 11 + index % 3, on)
            }
        }
    }

    /// Data modules per version 1…40 (eight per codeword, plus the few remainder bits).
    static let dataModuleCounts: [Int] = (1...40).map { QRMatrix(version: $0).reserved.lazy.filter { !$0 }.count }

    subscript(x: Int, y: Int) -> Bool { dark[y * size + x] }

    private mutating func setPattern(_ x: Int, _ y: Int, _ isDark: Bool) {
        dark[y * size + x] = isDark
        reserved[y * size + x] = true
    }

    /// The 15 format bits, least significant first, in their two copies, and the dark module
    /// beside the bottom-left copy that is dark in every symbol.
    private mutating func drawFormat(_ bits: Int) {
        func bit(_ index: Int) -> Bool { bits >> index & 1 == 1 }
        for index in 0..<6 { setPattern(8, index, bit(index)) }
        setPattern(8, 7, bit(6)) // row 6 is timing
        setPattern(8, 8, bit(7))
        setPattern(7, 8, bit(8))
        for index in 9..<15 { setPattern(14 - index, 8, bit(index)) }
        for index in 0..<8 { setPattern(size - 1 - index, 8, bit(index)) }
        for index in 8..<15 { setPattern(8, size - 15 + index, bit(index)) }
        setPattern(8, size - 8, true)
    }

    /// Codewords most significant bit first, up and down two columns at a time from the bottom
    /// right, the right column of each pair first, around the reserved modules. Remainder bits stay light.
    mutating func place(_ codewords: [UInt8]) {
        let total = codewords.count * 8
        var bit = 0
        var right = size - 1
        var upward = true
        while right > 0 {
            if right == 6 { right = 5 } // the vertical timing column belongs to no pair
            for step in 0..<size {
                let y = upward ? size - 1 - step : step
                for x in stride(from: right, to: right - 2, by: -1) where !reserved[y * size + x] {
                    if bit < total { dark[y * size + x] = codewords[bit >> 3] >> (7 - bit & 7) & 1 == 1 }
                    bit += 1
                }
            }
            upward.toggle()
            right -= 2
        }
    }

    /// This symbol with mask pattern `mask` applied to its data and its format bits written.
    func masked(_ mask: Int, correction: QRCode.Correction) -> QRMatrix {
        var result = self
        for y in 0..<size {
            for x in 0..<size where !reserved[y * size + x] && Self.maskInverts(mask, x: x, y: y) {
                result.dark[y * size + x].toggle()
            }
        }
        result.drawFormat(Self.formatBits(correction: correction, mask: mask))
        return result
    }

    /// Whether mask pattern `mask` inverts the module in column `x`, row `y` (ISO/IEC 18004 Table 10).
    static func maskInverts(_ mask: Int, x: Int, y: Int) -> Bool {
        switch mask {
        case 0: (x + y) % 2 == 0
        case 1: y % 2 == 0
        case 2: x % 3 == 0
        case 3: (x + y) % 3 == 0
        case 4: (y / 2 + x / 3) % 2 == 0
        case 5: x * y % 2 + x * y % 3 == 0
        case 6: (x * y % 2 + x * y % 3) % 2 == 0
        default: ((x + y) % 2 + x * y % 3) % 2 == 0
        }
    }

    /// The standard's penalty for how hard the symbol is to read; the mask with the lowest is used.
    var penalty: Int {
        var score = 0
        var line = [Bool](repeating: false, count: size)
        for index in 0..<size {
            for offset in 0..<size { line[offset] = dark[index * size + offset] }
            score += Self.linePenalty(line)
            for offset in 0..<size { line[offset] = dark[offset * size + index] }
            score += Self.linePenalty(line)
        }
        // Each 2×2 block of one colour (overlapping blocks each count).
        for y in 0..<size - 1 {
            for x in 0..<size - 1 {
                let colour = dark[y * size + x]
                if dark[y * size + x + 1] == colour, dark[(y + 1) * size + x] == colour, dark[(y + 1) * size + x + 1] == colour {
                    score += 3
                }
            }
        }
        // 10 for every full 5 % by which the share of dark modules strays from half.
        let darkCount = dark.reduce(0) { $1 ? $0 + 1 : $0 }
        score += 10 * (abs(darkCount * 20 - size * size * 10) / (size * size))
        return score
    }

    /// A row's or column's penalties: runs of five or more of one colour (3, plus 1 for each module
    /// beyond five), and 40 for each 1:1:3:1:1 finder look-alike with four light modules on a side
    /// (outside the symbol counts as light: it is the quiet zone).
    static func linePenalty(_ line: [Bool]) -> Int {
        var score = 0
        var run = 0
        for index in line.indices {
            run = index > 0 && line[index] == line[index - 1] ? run + 1 : 1
            if run == 5 { score += 3 } else if run > 5 { score += 1 }
        }
        func light(_ range: Range<Int>) -> Bool {
            for index in range.clamped(to: line.indices) where line[index] { return false }
            return true
        }
        for start in 0..<max(0, line.count - 6)
        where line[start] && !line[start + 1] && line[start + 2] && line[start + 3] && line[start + 4] && !line[start + 5] && line[start + 6] {
            if light(start - 4..<start) || light(start + 7..<start + 11) { score += 40 }
        }
        return score
    }

    /// Correction level (L 01, M 00, Q 11, H 10) and mask, with 10 BCH bits (generator 0x537),
    /// XORed with 0x5412 so no format is all light.
    static func formatBits(correction: QRCode.Correction, mask: Int) -> Int {
        let level = [0b01, 0b00, 0b11, 0b10][correction.rawValue]
        let data = level << 3 | mask
        return (data << 10 | bchRemainder(data, generator: 0x537, degree: 10)) ^ 0x5412
    }

    /// The version in 6 bits with 12 BCH bits (generator 0x1F25), drawn from version 7 on.
    static func versionBits(_ version: Int) -> Int {
        version << 12 | bchRemainder(version, generator: 0x1F25, degree: 12)
    }

    /// The remainder of data·x^degree divided by `generator` (of that degree), bits as GF(2) coefficients.
    private static func bchRemainder(_ data: Int, generator: Int, degree: Int) -> Int {
        var remainder = data << degree
        for bit in stride(from: Int.bitWidth - 2, through: degree, by: -1) where remainder >> bit & 1 == 1 {
            remainder ^= generator << (bit - degree)
        }
        return remainder
    }

    /// Alignment centres along each axis (ISO/IEC 18004 Table E.1): 6, then evenly back from
    /// size − 7 at an even step, the step rounded up; version 32's step of 26 is the one exception.
    static func alignmentCentres(version: Int) -> [Int] {
        guard version > 1 else { return [] }
        let count = version / 7 + 2
        let last = 17 + 4 * version - 7
        let span = last - 6
        let step = version == 32 ? 26 : (span + 2 * (count - 1) - 1) / (2 * (count - 1)) * 2
        return [6] + (0..<count - 1).map { last - step * $0 }.reversed()
    }
}
