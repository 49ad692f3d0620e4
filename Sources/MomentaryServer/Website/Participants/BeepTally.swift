import Foundation

/// Beeps counted by status, read the same way wherever the website reports compliance: sent means
/// reached the participant (`ParticipantStatusService.deliveredStatuses`, the response rate's
/// denominator), missed includes expired, and the rate is answered over sent.
struct BeepTally: Sendable {
    private let counts: [String: Int]

    init(_ counts: [String: Int] = [:]) {
        self.counts = counts
    }

    /// From grouped `status, COUNT(*)` rows.
    init(_ rows: [StatusCountRow]) {
        self.init(Dictionary(rows.map { ($0.status, $0.n) }, uniquingKeysWith: +))
    }

    func count(_ status: Beep.Status) -> Int { counts[status.rawValue] ?? 0 }

    var sent: Int { ParticipantStatusService.deliveredStatuses.reduce(0) { $0 + count($1) } }
    var answered: Int { count(.answered) }
    var ignored: Int { count(.ignored) }
    var missed: Int { count(.missed) + count(.expired) }
    var failed: Int { count(.failed) }
    var rate: Double? { sent > 0 ? Double(answered) / Double(sent) : nil }
}
