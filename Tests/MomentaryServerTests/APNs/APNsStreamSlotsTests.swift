import NIOCore
import NIOPosix
@testable import MomentaryServer
import Testing

/// The stream limiter alone: waiters queue, a lowered limit is never exceeded, deadlines and
/// shutdown end a wait.
@Suite("APNs stream slots")
struct APNsStreamSlotsTests {
    private static let later = NIODeadline.now() + .minutes(5)

    private static func waitUntilQueued(_ slots: APNsStreamSlots, _ count: Int) async {
        while slots.waiting < count { await Task.yield() }
    }

    @Test("a sender waits while every slot is taken and gets the first one given back")
    func waitsForRelease() async throws {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let slots = APNsStreamSlots(limit: 2)
        try await slots.acquire(until: Self.later, timingOutOn: loop)
        try await slots.acquire(until: Self.later, timingOutOn: loop)
        let third = Task { try await slots.acquire(until: Self.later, timingOutOn: loop) }
        await Self.waitUntilQueued(slots, 1)
        #expect(slots.inUse == 2)

        slots.release()
        try await third.value
        #expect(slots.inUse == 2)
        #expect(slots.waiting == 0)
    }

    @Test("when the server lowers its limit, streams in use drain below it before a waiter starts")
    func loweredLimit() async throws {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let slots = APNsStreamSlots(limit: 3)
        for _ in 0..<3 { try await slots.acquire(until: Self.later, timingOutOn: loop) }
        let waiter = Task { try await slots.acquire(until: Self.later, timingOutOn: loop) }
        await Self.waitUntilQueued(slots, 1)

        slots.setLimit(1)
        slots.release()
        slots.release()
        #expect(slots.inUse == 1)
        #expect(slots.waiting == 1, "one stream is still open, which is the whole new limit")

        slots.release()
        try await waiter.value
        #expect(slots.inUse == 1)
    }

    @Test("a raised limit admits waiters at once")
    func raisedLimit() async throws {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let slots = APNsStreamSlots(limit: 1)
        try await slots.acquire(until: Self.later, timingOutOn: loop)
        let waiters = (0..<2).map { _ in Task { try await slots.acquire(until: Self.later, timingOutOn: loop) } }
        await Self.waitUntilQueued(slots, 2)
        slots.setLimit(3)
        for waiter in waiters { try await waiter.value }
        #expect(slots.inUse == 3)
    }

    @Test("a wait ends with a timeout at its deadline, and shutdown ends every wait")
    func deadlineAndClose() async throws {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let slots = APNsStreamSlots(limit: 1)
        try await slots.acquire(until: Self.later, timingOutOn: loop)

        await #expect(throws: APNsConnectionError.self) {
            try await slots.acquire(until: .now(), timingOutOn: loop)
        }
        #expect(slots.waiting == 0)

        let waiter = Task { try await slots.acquire(until: Self.later, timingOutOn: loop) }
        await Self.waitUntilQueued(slots, 1)
        slots.close(with: APNsConnectionError.shutDown)
        await #expect(throws: APNsConnectionError.self) { try await waiter.value }
        await #expect(throws: APNsConnectionError.self) { try await slots.acquire(until: Self.later, timingOutOn: loop) }
    }
}
