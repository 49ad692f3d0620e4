import NIOCore
import NIOHTTP2

/// The deadlines of a connection's unanswered notifications, watched by one timer rather than
/// one per notification: deadlines are the send time plus one configured timeout, so they
/// arrive almost in submission order, and the timer only ever waits for the earliest.
struct APNsDeadlines {
    /// Unanswered notifications in submission order; answered ones leave from the front.
    fileprivate var pending = CircularBuffer<APNsPendingPush>()
    fileprivate var timer: Scheduled<Void>?
    fileprivate var timerDeadline: NIODeadline?

    mutating func dropAnswered() {
        while let first = pending.first, first.isAnswered { pending.removeFirst() }
    }

    mutating func stop() {
        timer?.cancel()
        timer = nil
        timerDeadline = nil
        pending.removeAll()
    }
}

extension APNsConnectionHandler {
    func watchDeadline(of push: APNsPendingPush) {
        deadlines.pending.append(push)
        if let armed = deadlines.timerDeadline, armed <= push.deadline { return }
        armTimer(at: push.deadline)
    }

    private func armTimer(at deadline: NIODeadline?) {
        deadlines.timer?.cancel()
        deadlines.timer = nil
        deadlines.timerDeadline = deadline
        guard let deadline, let context = context else { return }
        deadlines.timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            self.deadlinePassed()
        }
    }

    /// Gives up every notification whose deadline has passed (waiting or in flight: the stream
    /// is reset, the connection carries on) and waits for the next earliest deadline.
    private func deadlinePassed() {
        deadlines.timer = nil
        let now = NIODeadline.now()
        var earliest: NIODeadline?
        var kept = CircularBuffer<APNsPendingPush>(initialCapacity: deadlines.pending.count)
        for push in deadlines.pending where !push.isAnswered {
            if push.deadline <= now {
                timeOut(push)
            } else {
                kept.append(push)
                earliest = min(earliest ?? push.deadline, push.deadline)
            }
        }
        deadlines.pending = kept
        armTimer(at: earliest)
        admitWaiting()
    }

    private func timeOut(_ push: APNsPendingPush) {
        if let streamID = push.streamID, let context = context {
            streamEnded(streamID, failing: APNsConnectionError.timedOut)
            context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .rstStream(.cancel))), promise: nil)
            scheduleFlush()
        } else {
            // Still waiting for a stream: it is skipped when its turn comes.
            push.fail(APNsConnectionError.timedOut)
        }
    }
}
