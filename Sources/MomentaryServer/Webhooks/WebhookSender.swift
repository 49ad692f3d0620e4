import AsyncHTTPClient
import Fluent
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// Delivers what `WebhookOutbox` holds: each delivery claimed, its body made once and kept,
/// signed, POSTed (no redirects followed), and recorded. In `serve` it runs every two seconds.
enum WebhookSender {
    static let requestTimeout: TimeAmount = .seconds(15)
    static let batchSize = 50
    static let interval: Duration = .seconds(2)
    /// Of a receiver's answer only this much is read, for the record.
    static let maximumAnswerLength = 4_096

    /// One client for every delivery, never following a redirect (a webhook's address is the one
    /// its researchers gave, not wherever it points on).
    static let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(
        redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10))))

    static var worker: String { "webhooks@\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)" }

    /// Sends every delivery due; returns how many were delivered.
    @discardableResult
    static func deliverDue(on db: any Database, now: @Sendable () -> Date = { Date() }, logger: Logger) async -> Int {
        var delivered = 0
        while !Task.isCancelled {
            let claimed: [WebhookOutbox.Claimed]
            do {
                claimed = try await WebhookOutbox.claimDue(at: now(), limit: batchSize, worker: worker, on: db)
            } catch {
                logger.warning("Could not read the webhook outbox; trying again shortly: \(String(describing: error))")
                return delivered
            }
            if claimed.isEmpty { return delivered }
            for delivery in claimed where await deliver(delivery, on: db, now: now, logger: logger) { delivered += 1 }
        }
        return delivered
    }

    private static func deliver(_ delivery: WebhookOutbox.Claimed, on db: any Database, now: () -> Date, logger: Logger) async -> Bool {
        let metadata: Logger.Metadata = ["delivery": .string(delivery.id), "event": .string(delivery.event), "attempt": .stringConvertible(delivery.attempts)]
        let answer: (status: Int?, error: String?)
        do {
            guard let webhook = try await Webhook.query(on: db).filter(\.$id == delivery.webhookID).with(\.$study).first() else {
                return false  // deleted with its deliveries meanwhile
            }
            var body = delivery.body
            if body == nil {
                let made = try await WebhookPayload.make(for: delivery, study: webhook.study.slug, now: now(), on: db).encoded()
                try await WebhookOutbox.keepBody(made, of: delivery.id, on: db)
                body = made
            }
            if let host = URLComponents(string: webhook.url)?.host, let problem = await WebhookHostCheck.problem(host: host) {
                answer = (nil, problem)
            } else {
                answer = await post(body ?? "", to: webhook, delivery: delivery, at: now())
            }
        } catch {
            answer = (nil, "could not be prepared: \(error)")
        }
        do {
            if let status = answer.status, (200..<300).contains(status) {
                try await WebhookOutbox.recordDelivered(delivery.id, status: status, at: now(), on: db)
                logger.info("Webhook delivered", metadata: metadata)
                return true
            }
            let retry = delivery.attempts < RetrySchedule.maximumAttempts
            logger.warning("A webhook delivery failed\(retry ? "; it will be tried again" : ", and it will not be tried again"): \(answer.error ?? "")", metadata: metadata)
            try await WebhookOutbox.recordFailure(delivery, status: answer.status, error: answer.error ?? "", at: now(), on: db)
        } catch {
            logger.error("Could not record a webhook delivery; it is sent again after \(Int(WebhookOutbox.stuckAfter)) s: \(String(describing: error))", metadata: metadata)
        }
        return false
    }

    private static func post(_ body: String, to webhook: Webhook, delivery: WebhookOutbox.Claimed, at now: Date) async -> (status: Int?, error: String?) {
        var request = HTTPClientRequest(url: webhook.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Momentary-Webhooks")
        request.headers.add(name: "Momentary-Event", value: delivery.event)
        request.headers.add(name: "Momentary-Delivery", value: delivery.id)
        request.headers.add(name: "Momentary-Signature", value: WebhookPayload.signature(of: body, secret: webhook.secret, at: Int(now.timeIntervalSince1970)))
        request.body = .bytes(ByteBuffer(string: body))
        do {
            let response = try await client.execute(request, timeout: requestTimeout)
            let text = (try? await response.body.collect(upTo: maximumAnswerLength)).map { String(buffer: $0) } ?? ""
            let status = Int(response.status.code)
            return (status, (200..<300).contains(status) ? nil : "the receiver answered \(status): \(text.prefix(300))")
        } catch {
            return (nil, "the receiver could not be reached: \(error)")
        }
    }
}
