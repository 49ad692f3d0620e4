import Vapor

/// Which methods the application serves at a path, for answering a wrong method with
/// 405 Method Not Allowed and an `Allow` header instead of a misleading 404.
enum AllowedMethods {
    /// The methods of every registered route whose path matches `path` (parameters match any
    /// segment, a catch-all the rest), sorted; empty when no route has this path.
    static func at(_ path: String, in routes: Routes) -> [String] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var methods: Set<String> = []
        for route in routes.all where matches(route.path, segments) {
            methods.insert(route.method.rawValue)
        }
        // Vapor answers HEAD for every GET route.
        if methods.contains("GET") { methods.insert("HEAD") }
        return methods.sorted()
    }

    private static func matches(_ pattern: [PathComponent], _ segments: [String]) -> Bool {
        for (index, component) in pattern.enumerated() {
            switch component {
            case .catchall: return segments.count > index
            case .anything, .parameter: guard index < segments.count else { return false }
            case .constant(let text): guard index < segments.count, segments[index] == text else { return false }
            }
        }
        return pattern.count == segments.count
    }
}
