import Foundation
@testable import MomentaryServer
import Testing

/// A webhook's name is looked up again before each delivery; one that now points into a private
/// network or at this machine is not sent to.
@Suite("Webhooks: the host looked up before each delivery")
struct WebhookHostCheckTests {
    @Test("a name resolving to a private, metadata or loopback address is refused; a public one, a literal and localhost pass")
    func resolvedAddresses() async {
        let answers: [String: [String]] = [
            "lab.example.org": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
            "rebound.example.org": ["93.184.216.34", "10.0.0.7"],
            "metadata.example.org": ["169.254.169.254"],
            "self.example.org": ["127.0.0.1"],
            "bad.cafe": ["192.168.1.20"],
        ]
        let resolve: @Sendable (String) async -> [String] = { answers[$0] ?? [] }
        #expect(await WebhookHostCheck.problem(host: "lab.example.org", resolve: resolve) == nil)
        #expect(await WebhookHostCheck.problem(host: "rebound.example.org", resolve: resolve)?.contains("10.0.0.7") == true)
        #expect(await WebhookHostCheck.problem(host: "metadata.example.org", resolve: resolve) != nil)
        #expect(await WebhookHostCheck.problem(host: "self.example.org", resolve: resolve) != nil)
        #expect(await WebhookHostCheck.problem(host: "bad.cafe", resolve: resolve) != nil, "a name of hex letters is a name, not an address")
        #expect(await WebhookHostCheck.problem(host: "127.0.0.1", resolve: resolve) == nil, "literals were checked when the webhook was added")
        #expect(await WebhookHostCheck.problem(host: "[::1]", resolve: resolve) == nil)
        #expect(await WebhookHostCheck.problem(host: "localhost", resolve: resolve) == nil)
    }

    @Test("the system resolver answers for this machine's name")
    func systemResolver() async {
        #expect(await WebhookHostCheck.systemAddresses(of: "localhost").contains { WebhookHostCheck.isLoopback($0) })
    }
}
