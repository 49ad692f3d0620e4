import Foundation

/// Each zone's UTC offset, remembered as spans of time in which it does not change, so that
/// planning a million participant-days asks the zone database a few times per zone and year
/// instead of several times per day (`WallClock` converted every window's start and end afresh;
/// that was almost all of the planning time).
///
/// A span runs from an instant at which the offset was read up to the zone's next transition
/// (`nextDaylightSavingTimeTransition`, which covers every change of offset). It is kept only when
/// the offset just before that transition is the one read, so a span never answers anything the
/// zone itself would not. Spans of one zone end at different transitions, so they never overlap.
final class ZoneOffsetSpans: @unchecked Sendable {
    static let shared = ZoneOffsetSpans()

    struct Span {
        /// First and last epoch second of the span.
        let first: Int
        let last: Int
        let offset: Int
    }

    /// Without a next transition (a zone with a fixed offset), a span stops after this long, so a
    /// zone whose rules end is read again each year.
    static let longestSpan = 366 * 86_400
    /// More spans than any server needs (a few a year per zone); past it the cache starts again.
    static let capacity = 100_000

    private let lock = NSLock()
    /// By zone identifier, sorted by `last`.
    private var spans: [String: [Span]] = [:]
    private var count = 0

    /// The span holding every second of `first...last` in `zone`, if one is known.
    func span(covering first: Int, _ last: Int, in zone: TimeZone) -> Span? {
        let identifier = zone.identifier
        lock.lock()
        defer { lock.unlock() }
        guard let list = spans[identifier] else { return nil }
        // The first span that ends at or after `last`; spans do not overlap.
        var low = 0
        var high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle].last < last { low = middle + 1 } else { high = middle }
        }
        guard low < list.count, list[low].first <= first else { return nil }
        return list[low]
    }

    /// The offset at `epochSeconds`, from a known span or read from the zone (and remembered).
    func offset(at epochSeconds: Int, in zone: TimeZone) -> Int {
        if let known = span(covering: epochSeconds, epochSeconds, in: zone) { return known.offset }
        return learn(from: epochSeconds, in: zone).offset
    }

    /// Reads the span that starts at `epochSeconds` from the zone and keeps it.
    @discardableResult
    func learn(from epochSeconds: Int, in zone: TimeZone) -> Span {
        let offset = Self.read(epochSeconds, zone)
        let next = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: Double(epochSeconds)))
            .map { Int($0.timeIntervalSince1970.rounded(.up)) }
        var last = min((next ?? .max) - 1, epochSeconds + Self.longestSpan)
        // Trust the zone's transition only as far as it agrees with the zone's offsets.
        if last < epochSeconds || Self.read(last, zone) != offset { last = epochSeconds }
        let span = Span(first: epochSeconds, last: last, offset: offset)
        lock.lock()
        defer { lock.unlock() }
        if count >= Self.capacity {
            spans.removeAll()
            count = 0
        }
        var list = spans[zone.identifier] ?? []
        if let same = list.firstIndex(where: { $0.last == last }) {
            // Read again from earlier in the same span: it now starts there.
            if epochSeconds < list[same].first { list[same] = span }
        } else {
            list.append(span)
            list.sort { $0.last < $1.last }
            count += 1
        }
        spans[zone.identifier] = list
        return span
    }

    private static func read(_ epochSeconds: Int, _ zone: TimeZone) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(epochSeconds)))
    }
}
