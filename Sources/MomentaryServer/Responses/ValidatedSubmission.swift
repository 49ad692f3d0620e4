import Foundation
import MomentaryCore

/// A submission the intake has checked and the group-commit writer stores: its response row,
/// validated answers and context.
struct ValidatedSubmission: Sendable {
    var draft: ResponseRows.Draft
    let answers: [ValidatedAnswer]
    let context: MomentaryCore.ResponseContext?
    /// False when the beep is the one that was awaiting an answer rather than one the app
    /// named: if another response takes it first, this one is stored as volunteered.
    let beepNamed: Bool
    /// The follow-up beeps its answers ask for, stored in the response's transaction.
    var followUps: [PlannedFollowUp] = []
}

/// What storing a submission gave: its receipt, and whether it is new.
struct IngestOutcome: Sendable {
    let receipt: ResponseReceipt
    /// False when the idempotency key had been seen before.
    let created: Bool
}
