import Foundation
import MomentaryCore
@testable import MomentaryServer
import Testing
import VaporTesting
import Yams

/// `openapi.yaml` and the server must describe the same participant API.
@Suite("OpenAPI contract")
struct OpenAPIContractTests {
    /// The repository's openapi.yaml, parsed as YAML (so a document OpenAPI tools would reject
    /// fails here too).
    static func document() throws -> [String: Any] {
        let file = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("openapi.yaml")
        let parsed = try Yams.load(yaml: try String(contentsOf: file, encoding: .utf8))
        return try #require(parsed as? [String: Any], "openapi.yaml is not a YAML mapping")
    }

    /// `METHOD /path` for every operation under `paths`.
    static func documentedOperations() throws -> Set<String> {
        let paths = try #require(try document()["paths"] as? [String: Any], "openapi.yaml has no paths")
        var operations: Set<String> = []
        for (path, item) in paths {
            guard let item = item as? [String: Any] else { continue }
            for method in item.keys where ["get", "put", "post", "delete", "patch"].contains(method) {
                operations.insert("\(method.uppercased()) \(path)")
            }
        }
        return operations
    }

    @Test("openapi.yaml is an OpenAPI 3.1 document whose error schema lists every error code the server uses")
    func documentParsesAndListsErrorCodes() throws {
        let document = try Self.document()
        #expect(document["openapi"] as? String == "3.1.0")
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let error = try #require(((schemas["Error"] as? [String: Any])?["properties"] as? [String: Any])?["error"] as? [String: Any])
        let properties = try #require(error["properties"] as? [String: Any])
        let codes = try #require((properties["code"] as? [String: Any])?["enum"] as? [String])
        #expect(Set(codes) == Set(APIErrorCode.allCases.map(\.rawValue)))
        #expect(Set(properties.keys) == ["code", "message", "field", "question_id", "line", "column"])
    }

    @Test("every route in openapi.yaml exists in the typed route lists, and every participant and research route is documented")
    func documentMatchesRouteList() throws {
        let documented = try Self.documentedOperations()
        let implemented = Set((APIRoute.all + APIRoute.research).map(\.description))
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
