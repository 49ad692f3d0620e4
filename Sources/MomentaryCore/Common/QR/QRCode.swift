import Foundation

/// A QR code (ISO/IEC 18004) of a text, drawn by the server so the researcher website can show a
/// participant's join link as a picture to scan, with no script and no outside service.
///
/// The text goes in byte mode as UTF-8, without an ECI header: phone readers take UTF-8 bytes as
/// UTF-8, and join links are ASCII anyway. The smallest version (1…40) that holds it is used, and
/// of the eight masks the one with the lowest penalty under the standard's four rules.
public struct QRCode: Sendable {
    /// How much of the symbol may be damaged and still read: about 7, 15, 25 and 30 %.
    public enum Correction: Int, Sendable, CaseIterable {
        case low, medium, quartile, high
    }

    public enum Error: Swift.Error, Equatable, LocalizedError {
        /// The text's UTF-8 bytes are more than version 40 holds at that correction level.
        case tooLong(bytes: Int, capacity: Int)

        public var errorDescription: String? {
            switch self {
            case .tooLong(let bytes, let capacity):
                "The text is \(bytes) bytes long; a QR code holds at most \(capacity) at this error correction level"
            }
        }
    }

    /// Modules along a side (21 for version 1, 4 more for each version above), quiet zone not included.
    public let size: Int
    public let version: Int
    public let correction: Correction
    /// The mask pattern (0…7) applied to the data.
    public let mask: Int
    private let modules: [Bool]

    public init(_ text: String, correction: Correction = .medium) throws {
        try self.init(text, correction: correction, mask: nil)
    }

    /// `mask` forces a mask pattern instead of the lowest-penalty one, so tests can read every mask.
    init(_ text: String, correction: Correction = .medium, mask: Int?) throws {
        precondition(mask.map { (0...7).contains($0) } ?? true, "a QR mask pattern is 0…7")
        let bytes = Array(text.utf8)
        guard let blocks = (1...40).lazy.map({ QRBlocks(version: $0, correction: correction) })
            .first(where: { $0.byteCapacity >= bytes.count })
        else {
            throw Error.tooLong(bytes: bytes.count, capacity: QRBlocks(version: 40, correction: correction).byteCapacity)
        }
        var unmasked = QRMatrix(version: blocks.version)
        unmasked.place(blocks.codewords(for: bytes))
        let masks = mask.map { [$0] } ?? Array(0...7)
        let symbols = masks.map { unmasked.masked($0, correction: correction) }
        let penalties = masks.count == 1 ? [0] : symbols.map(\.penalty)
        let best = penalties.indices.min { penalties[$0] < penalties[$1] }! // of equals, the lower mask
        let chosen = symbols[best]
        size = chosen.size
        version = blocks.version
        self.correction = correction
        self.mask = masks[best]
        modules = chosen.dark
    }

    /// Whether the module in column `x`, row `y` (0-based from the top left) is dark; false outside.
    public func isDark(x: Int, y: Int) -> Bool {
        guard (0..<size).contains(x), (0..<size).contains(y) else { return false }
        return modules[y * size + x]
    }

    /// The code as a standalone SVG: one path of dark rows on a white square, `quietZone` light modules
    /// around it (readers need four), each module `moduleSize` pixels. With a `title` it is an image
    /// named by that title; without one it is hidden from assistive technology, as decoration,
    /// since an image without a name is an accessibility failure.
    public func svg(moduleSize: Int = 4, quietZone: Int = 4, title: String? = nil) -> String {
        precondition(moduleSize > 0 && quietZone >= 0, "a module is at least a pixel, a quiet zone not negative")
        let side = size + 2 * quietZone
        // Each run of dark modules in a row is one closed rectangle, in module units (the viewBox
        // scales them), which keeps the path short and its edges on whole modules.
        var path = ""
        for y in 0..<size {
            var x = 0
            while x < size {
                guard modules[y * size + x] else { x += 1; continue }
                let start = x
                while x < size, modules[y * size + x] { x += 1 }
                path += "M\(start + quietZone) \(y + quietZone)h\(x - start)v1h-\(x - start)z"
            }
        }
        let pixels = side * moduleSize
        let naming = title.map { "role=\"img\"><title>\(Self.xmlEscaped($0))</title>" } ?? "aria-hidden=\"true\">"
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(pixels)\" height=\"\(pixels)\" "
            + "viewBox=\"0 0 \(side) \(side)\" shape-rendering=\"crispEdges\" \(naming)"
            + "<rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/><path fill=\"#000\" d=\"\(path)\"/></svg>"
    }

    /// Text for an XML element or attribute; characters XML 1.0 cannot carry at all are dropped.
    static func xmlEscaped(_ text: String) -> String {
        // Characters XML 1.0 forbids (most control characters) cannot be escaped, only left out.
        let allowed = String(String.UnicodeScalarView(text.unicodeScalars.filter {
            $0.value >= 0x20 || ["\t", "\n", "\r"].contains($0)
        }.filter { $0.value != 0xFFFE && $0.value != 0xFFFF }))
        return HTMLText.escape(allowed)
    }
}
