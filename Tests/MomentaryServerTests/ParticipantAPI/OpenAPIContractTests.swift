import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing
import VaporTesting

/// `openapi.yaml` and the server must describe the same participant API.
@Suite("OpenAPI contract")
struct OpenAPIContractTests {
    /// `METHOD /path` for every operation under `paths:` in the repository's openapi.yaml.
    static func documentedOperations() throws -> Set<String> {
        let file = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("openapi.yaml")
        let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        var operations: Set<String> = []
        var inPaths = false
        var currentPath: String?
        for line in lines {
            if !line.hasPrefix(" ") && !line.isEmpty { inPaths = line == "paths:" ; currentPath = nil; continue }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), !line.hasPrefix("   ") {
                currentPath = String(line.dropFirst(2).dropLast())
            } else if let path = currentPath, line.hasPrefix("    "), !line.hasPrefix("     "),
                      let method = ["get", "put", "post", "delete", "patch"].first(where: { line == "    \($0):" }) {
                operations.insert("\(method.uppercased()) \(path)")
            }
        }
        return operations
    }

    @Test("every route in openapi.yaml exists in the typed route list, and every participant route is documented")
    func documentMatchesRouteList() throws {
        let documented = try Self.documentedOperations()
        let implemented = Set(APIRoute.all.map(\.description))
        #expect(documented.count >= 10)
        #expect(documented == implemented,
                "documented only: \(documented.subtracting(implemented)); implemented only: \(implemented.subtracting(documented))")
    }

    @Test("the running application registers every documented route with its method")
    func applicationServesDocumentedRoutes() async throws {
        let documented = try Self.documentedOperations()
        try await withTestApp { app, _ in
            let registered = Set(app.routes.all.map { route in
                "\(route.method.rawValue) /" + route.path.map { component -> String in
                    if case .parameter(let name) = component { return "{\(name)}" }
                    return component.description
                }.joined(separator: "/")
            })
            #expect(documented.isSubset(of: registered), "missing: \(documented.subtracting(registered))")
            let apiRoutes = registered.filter { $0.contains(" /api/") }
            #expect(apiRoutes.isSubset(of: documented), "undocumented: \(apiRoutes.subtracting(documented))")
        }
    }
}
