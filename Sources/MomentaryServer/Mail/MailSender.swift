import Fluent
import Foundation
import Logging
import Synchronization
import Vapor

/// Sends what `MailOutbox` holds: in `serve`, from when the server has booted until shutdown,
/// woken when a message is queued and otherwise at least every minute (a message queued by another
/// process, a retry falling due). Each message is claimed before it is attempted and recorded
/// after (see `MailOutbox` for what a crash leaves).
final class MailSender: Sendable {
    let settings: MailSettings
    private let client: SMTPClient
    private let database: any Database
    private let timeSource: any TimeSource
    private let logger: Logger
    private let worker: String
    private let wake = WakeSignal()
    private let loop = Mutex<Task<Void, Never>?>(nil)

    /// Longer than any one conversation with the server can take (each of its ten or so steps
    /// waits at most `timeoutSeconds`), so a live worker's claim is never taken from it.
    static let stuckAfter: TimeInterval = 900
    static let batchSize = 20

    init(settings: MailSettings, database: any Database, timeSource: any TimeSource, logger: Logger) throws {
        self.settings = settings
        do {
            client = try SMTPClient(settings: settings)
        } catch {
            throw CommandFailure("The mail settings cannot be used: \(settings.certificateAuthorityFile.map { "MOMENTARY_SMTP_CA_FILE (\($0)) holds no usable PEM certificates; " } ?? "")\(error)")
        }
        self.database = database
        self.timeSource = timeSource
        self.logger = logger
        worker = "mail@\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)"
    }

    /// Queues a message to each recipient and wakes the sender. Call it outside a transaction (or
    /// after it commits) so the sender finds the rows when it wakes.
    func queue(_ purpose: MailOutbox.Purpose, to recipients: [MailAddress], subject: String, body: String, on db: any Database) async throws {
        try await MailOutbox.enqueue(purpose, to: recipients, subject: subject, body: body, from: settings.from, on: db, now: timeSource.now())
        wake.signal()
    }

    /// For messages queued in a transaction (`MailOutbox.enqueue`): call once it has committed.
    func wakeUp() {
        wake.signal()
    }

    /// Sends every message due now, one after another; returns how many the server took.
    @discardableResult
    func deliverDue() async -> Int {
        var sent = 0
        while !Task.isCancelled {
            let claimed: [MailOutbox.Claimed]
            do {
                claimed = try await MailOutbox.claimDue(
                    at: timeSource.now(), stuckAfter: Self.stuckAfter, limit: Self.batchSize, worker: worker, on: database)
            } catch {
                logger.warning("Could not read the mail outbox; trying again shortly: \(String(describing: error))")
                return sent
            }
            if claimed.isEmpty { return sent }
            for message in claimed where await deliver(message) { sent += 1 }
        }
        return sent
    }

    private func deliver(_ message: MailOutbox.Claimed) async -> Bool {
        let metadata: Logger.Metadata = ["mail": .string(message.id.uuidString), "attempt": .stringConvertible(message.attempts)]
        guard let recipient = MailAddress(name: nil, address: message.recipient) else {
            try? await MailOutbox.recordFailure(message, error: "not an email address", transient: false, at: timeSource.now(), on: database)
            return false
        }
        let mail = MailMessage(
            from: settings.from, to: recipient, subject: message.subject, body: message.body,
            messageID: message.messageID, date: timeSource.now())
        let database = database
        do {
            try await client.send(mail) { try await MailOutbox.markCommitting(message.id, on: database) }
        } catch {
            let transient = (error as? SMTPError)?.isTransient ?? true
            let retry = transient && message.attempts < MailOutbox.maximumAttempts
            logger.warning("Sending an email failed\(retry ? "; it will be tried again" : ", and it will not be tried again"): \(String(describing: error))", metadata: metadata)
            do {
                try await MailOutbox.recordFailure(message, error: String(describing: error), transient: transient, at: timeSource.now(), on: database)
            } catch {
                logger.error("Could not record a failed email; it is tried again after \(Int(Self.stuckAfter / 60)) minutes: \(String(describing: error))", metadata: metadata)
            }
            return false
        }
        do {
            try await MailOutbox.recordSent(message.id, at: timeSource.now(), on: database)
        } catch {
            logger.error("An email was sent but could not be recorded as sent; it stays unconfirmed and is not sent again: \(String(describing: error))", metadata: metadata)
        }
        logger.info("Email sent", metadata: metadata)
        return true
    }

    func start() {
        loop.withLock { running in
            guard running == nil else { return }
            running = Task { [self] in
                while !Task.isCancelled {
                    await deliverDue()
                    let next = (try? await MailOutbox.earliestPending(on: database)) ?? nil
                    let wait = min(60, max(0.05, (next ?? .distantFuture).timeIntervalSince(timeSource.now())))
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask { try? await Task.sleep(for: .milliseconds(Int(wait * 1000))) }
                        group.addTask { [wake] in await wake.wait() }
                        await group.next()
                        group.cancelAll()
                    }
                }
            }
        }
    }

    func shutdown() async {
        let running = loop.withLock { running in
            defer { running = nil }
            return running
        }
        running?.cancel()
        await running?.value
    }
}

extension Application {
    private struct MailSenderKey: StorageKey {
        typealias Value = MailSender
    }

    /// The mail sender, when `MOMENTARY_SMTP_URL` and `MOMENTARY_MAIL_FROM` are set.
    var mail: MailSender? {
        get { storage[MailSenderKey.self] }
        set { storage[MailSenderKey.self] = newValue }
    }
}

/// Starts sending mail when `serve` has booted and stops before the database closes.
struct MailSenderLifecycle: LifecycleHandler {
    func didBootAsync(_ application: Application) async throws {
        application.mail?.start()
    }

    func shutdownAsync(_ application: Application) async {
        await application.mail?.shutdown()
    }
}
